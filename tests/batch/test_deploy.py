"""§2 deployment as one compiled kernel (necro_env/rulesets/necromunda/deploy.py), shared by
``Game.reset`` and the batched auto-reset: a seed gives the same game everywhere."""
import numpy as np

from necro_env.batch import BatchedGames, episode_seeds
from necro_env.rulesets.necromunda.movement import facing_towards
from necro_env.rulesets.necromunda.state import (
    FI_FACING, FI_STATE, FI_X, FI_Y, FS_ON, state_equal, state_slice,
)


def test_reset_deploys_every_fighter_in_its_zone_on_distinct_cells_facing_the_centre(game2):
    """§2 Deployment: each gang in its own zone, one fighter per cell, facing the board centre."""
    g = game2
    h, w = g.board.height, g.board.width
    for seed in range(5):
        g.reset(seed)
        fi = g.state.fi[0]
        cells = set()
        for f in range(fi.shape[0]):
            if fi[f, FI_STATE] != FS_ON:
                continue
            x, y = int(fi[f, FI_X]), int(fi[f, FI_Y])
            assert g.board.deploy[y, x] == f // g.dims.max_fighters
            cells.add((x, y))
            expect = facing_towards(round(w / 2 - x - 0.5), round(h / 2 - y - 0.5))
            assert fi[f, FI_FACING] == expect
        assert len(cells) == sum(len(gang.fighters) for gang in g.gangs)


def test_same_seed_same_game_and_different_seeds_differ(game2):
    g = game2
    a = g.reset(42).clone()
    g.reset(7)
    g.reset(42)
    assert state_equal(a.state, g.state) and np.array_equal(a.mask, g.mask)
    g.reset(43)
    assert not np.array_equal(a.state.fi, g.state.fi)


def test_batch_slot_b_equals_game_reset_of_its_seed_whatever_the_batch_size(game2):
    """Slot b starts with game seed ``seed + b``: bit-identical to ``Game.reset(seed + b)``."""
    ref = {}
    for s in range(100, 105):
        game2.reset(s)
        ref[s] = (state_slice(game2.state, 0), game2.mask[0].copy())
    for batch, base in ((1, 104), (2, 103), (5, 100)):
        core = BatchedGames(game2, batch, seed=base).reset()
        for b in range(batch):
            st, m = ref[base + b]
            assert state_equal(state_slice(core.state, b), st), (batch, b)
            assert np.array_equal(core.mask[b], m)


def test_auto_reset_starts_the_slot_s_next_seed(game2):
    """A slot's k-th game uses ``episode_seeds(first, k + 1)[k]`` (independent of the batch)."""
    core = BatchedGames(game2, 3, seed=7).reset()
    core.reset()  # second episode of every slot
    for b in range(3):
        game2.reset(episode_seeds(7 + b, 2)[1])
        assert state_equal(state_slice(core.state, b), game2.state)
