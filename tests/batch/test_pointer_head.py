"""agents.pointer_head: every flat action's logit comes from the row, cell or linear output its
parameter names (codec.decode), and the row and cell scores are shared across rows and cells."""
import numpy as np
import pytest
import torch

from necro_env.rulesets.necromunda import codec
from necro_env.rulesets.necromunda.codec import KINDS, P_CELL, P_FIGHTER, P_TARGET, P_WEAPON_CELL, P_WEAPON_TARGET
from agents.pointer_head import COL_ON_BOARD, COL_X, COL_Y, PointerHead, head_index
from training.ppo_fast import FastNetwork, make_env, to_torch


@pytest.fixture(scope="module")
def env():
    return make_env(4, False, opponent="random", seed=3)


def test_index_points_each_action_at_its_parameter(env):
    g = env.game
    d, lay = g.dims, g.layout
    nf, hw = d.n_fighters, d.height * d.width
    index, n_lin, n_row, n_cell = head_index(lay, d)
    assert len(index) == lay[-1] and len(set(index.tolist())) == len(index)
    row_base, cell_base = n_lin, n_lin + nf * n_row
    channel_of = {}  # (kind, weapon) -> the one channel all its parameters use
    for a in range(int(lay[-1])):
        k, p1, p2 = codec.decode(lay, nf, a)
        pk, pos = KINDS[k][1], int(index[a])
        if pk in (P_FIGHTER, P_TARGET, P_WEAPON_TARGET):
            row, ch = divmod(pos - row_base, n_row)
            assert 0 <= pos - row_base < nf * n_row
            assert row == (p2 if pk == P_WEAPON_TARGET else p1), (a, KINDS[k][0])
            key = (k, p1 if pk == P_WEAPON_TARGET else 0)
        elif pk in (P_CELL, P_WEAPON_CELL):
            ch, cell = divmod(pos - cell_base, hw)
            assert 0 <= ch < n_cell
            assert cell == (p2 if pk == P_WEAPON_CELL else p1), (a, KINDS[k][0])
            key = (k, p1 if pk == P_WEAPON_CELL else 0)
        else:
            assert 0 <= pos < n_lin
            continue
        assert channel_of.setdefault(key, ch) == ch, (a, KINDS[k][0])


def test_target_logits_follow_their_rows_and_cells_their_fighters(env):
    """Swapping two enemy rows (features and positions) swaps their Charge / Shoot logits and
    leaves every cell logit as it was: the head scores rows and cells, not slots."""
    g = env.game
    d = g.dims
    torch.manual_seed(0)
    head = PointerHead(g.layout, d, 32, 8, 15).eval()
    for p in head.parameters():  # away from the near-zero initial output layers
        torch.nn.init.normal_(p, 0, 0.3)
    obs = to_torch(env.reset())
    nf = d.n_fighters
    z, f = torch.randn(4, 32), torch.randn(4, nf, 8)
    fighters = obs["fighters"].clone()
    fighters[:, :, COL_ON_BOARD] = 1.0
    fighters[:, :, COL_X] = torch.randint(0, d.width, (4, nf)) / d.width
    fighters[:, :, COL_Y] = torch.randint(0, d.height, (4, nf)) / d.height
    perm = torch.arange(nf)
    perm[[9, 12]] = perm[[12, 9]]
    with torch.no_grad():
        out = head(z, f, obs["board"], fighters)
        swapped = head(z, f[:, perm], obs["board"], fighters[:, perm])
    lay = g.layout
    for kind in ("charge", "fight", "coup_de_grace"):
        a0 = int(lay[codec.KIND_INDEX[kind]])
        torch.testing.assert_close(swapped[:, a0:a0 + nf], out[:, a0 + perm])
    a0 = int(lay[codec.A_SHOOT])
    for w in range(d.max_weapons * 2):
        torch.testing.assert_close(swapped[:, a0 + w * nf:a0 + (w + 1) * nf], out[:, a0 + w * nf + perm])
    for k, (name, pk) in enumerate(KINDS):
        if pk in (P_CELL, P_WEAPON_CELL):
            torch.testing.assert_close(swapped[:, lay[k]:lay[k + 1]], out[:, lay[k]:lay[k + 1]], msg=name)
    assert not torch.allclose(out[:, lay[codec.A_CHARGE] + 9], out[:, lay[codec.A_CHARGE] + 12])


def test_agent_with_pointer_head_acts_legally_and_clones(env):
    g = env.game
    torch.manual_seed(1)
    agent = FastNetwork(env.observation_space, env.n_actions, 64, None, (g.layout, g.dims))
    assert not hasattr(agent, "pi")
    obs, mask = to_torch(env.reset()), torch.from_numpy(env.action_masks())
    action, logp, ent, v, logp_all = agent.act_full(obs, mask)
    assert mask[torch.arange(4), action].all() and v.shape == (4,)
    assert torch.isfinite(logp).all() and (logp_all[~mask] < -1e6).all()
    # one gradient step towards a legal action raises its probability: gradients reach the head
    target = torch.tensor([int(np.flatnonzero(m)[-1]) for m in mask.numpy()])
    opt = torch.optim.Adam(agent.parameters(), lr=1e-2)
    before = agent.act_full(obs, mask, target)[1]
    for _ in range(3):
        loss = -agent.act_full(obs, mask, target)[1].mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert (agent.act_full(obs, mask, target)[1] > before).all()
