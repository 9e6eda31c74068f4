"""necro_env.batch.tactical: who-can-shoot-whom rows equal ``shooting.eligible`` and
``query.cover_grade`` asked pair by pair (rules 7.2), in the entity observation's row order; the
cell planes equal the gunline's own cell queries on the legal cells; ppo_fast trains and evaluates
with them (``--tactical-features``, ``--tactical-planes``)."""
import numpy as np

from necro_env.batch import BatchedGames
from necro_env.batch.tactical import (
    N_PLANES, N_TACTICAL, PATH_CAP, cell_kind_starts, tactical_features, tactical_game, tactical_planes,
    tactical_planes_game,
)
from necro_env.policies.heuristics import exposure, longest_range, path_field, view_from
from necro_env.rulesets.necromunda.codec import KINDS, P_CELL
from necro_env.envs.necromunda_env import build_game
from necro_env.rulesets.necromunda.query import clear_rays, cover_grade
from necro_env.rulesets.necromunda.shooting import eligible
from necro_env.rulesets.necromunda.state import FI_STATE, FI_X, FI_Y, FS_ON, G_ACTIVE, G_MF


def expected_rows(s, st, b, gang):
    nf, ng = s.fi.shape[1], s.gang.shape[1]
    mf = nf // ng
    out = np.zeros((nf, N_TACTICAL), np.float32)
    act = int(s.g[b, G_ACTIVE])
    for r in range(nf):
        f = ((gang + r // mf) % ng) * mf + r % mf  # row r of the entity observation (encoders.perm)
        if s.fi[b, f, FI_STATE] != FS_ON:
            continue
        cell = int(s.fi[b, f, FI_Y]) * st.terrain.shape[1] + int(s.fi[b, f, FI_X])
        out[r, 4] = min(int(path_field(s, st, b, f // mf)[cell]), PATH_CAP) / PATH_CAP
        if 0 <= act < nf and act != f and eligible(s, st, b, act, f, False):
            out[r, 0] = 1.0
            out[r, 1] = cover_grade(clear_rays(s, st, b, act, f, False)) / 2.0
        others = [g for g in range(nf) if g // mf != f // mf]
        out[r, 2] = sum(bool(eligible(s, st, b, f, g, False)) for g in others) / mf
        out[r, 3] = sum(bool(eligible(s, st, b, g, f, False)) for g in others) / mf
    return out


def test_tactical_rows_equal_the_pairwise_rules_queries():
    game = build_game()
    core = BatchedGames(game, 6, seed=4)
    core.reset()
    rng = np.random.default_rng(0)
    seen_visible = seen_active = 0
    for _ in range(20):
        core.play(15, "aggressor")  # aggressors close in: lines of sight open up
        side = rng.integers(0, 2, 6)
        got = tactical_features(core, side)
        some = rng.permutation(6)[:3]  # a subset of the games in any order: their rows in that order
        np.testing.assert_array_equal(tactical_features(core, side, some), got[some])
        for b in range(6):
            want = expected_rows(core.state, core.static, b, int(side[b]))
            np.testing.assert_allclose(got[b], want, atol=1e-6)
            seen_visible += int(want[:, 2].sum() > 0)
            seen_active += int(want[:, 0].sum() > 0)
    assert seen_visible > 20 and seen_active > 5  # states with fighters in each other's sight (112 and 28 of 120)
    # the single-game entry point (ppo_fast's GreedyAgent) gives the same rows
    g = build_game()
    g.reset(3)
    for _ in range(40):
        g.step(int(rng.choice(np.flatnonzero(g.mask[0]))))
    out = np.empty((g.state.fi.shape[1], N_TACTICAL), np.float32)
    tactical_game(g.state, g.static, 0, 1, out)
    np.testing.assert_allclose(out, expected_rows(g.state, g.static, 0, 1), atol=1e-6)


def expected_planes(s, st, b, gang, mask, layout):
    h, w = st.terrain.shape
    out = np.zeros((N_PLANES, h, w), np.float32)
    out[0] = np.minimum(path_field(s, st, b, gang), PATH_CAP).reshape(h, w) / PATH_CAP
    f, mf = int(s.g[b, G_ACTIVE]), int(s.g[b, G_MF])
    if f < 0 or s.fi[b, f, FI_STATE] != FS_ON:
        return out
    cell_kinds = [k for k, (_, pk) in enumerate(KINDS) if pk == P_CELL]
    assert len(cell_kinds) == 8  # Move, Take Cover, Carry Casket, Crawl Ductway, Retreat, Crawl, Consolidate, Carry
    legal = np.zeros(h * w, bool)
    for k in cell_kinds:
        legal |= mask[layout[k]:layout[k + 1]]
    rng = longest_range(s, st, b, f)
    for c in np.flatnonzero(legal):
        x, y = int(c % w), int(c // w)
        n, best = view_from(s, st, b, f, x, y, rng)
        out[1:, y, x] = exposure(s, st, b, f, x, y, False) / mf, n / mf, best
    return out


def test_tactical_planes_equal_the_gunline_cell_queries_on_legal_cells():
    game = build_game()
    core = BatchedGames(game, 6, seed=5)
    core.reset()
    rng = np.random.default_rng(1)
    seen_cells = seen_view = 0
    for _ in range(15):
        core.play(11, "gunline")
        side = rng.integers(0, 2, 6)
        got = tactical_planes(core, side, core.mask)
        some = rng.permutation(6)[:3]
        np.testing.assert_array_equal(tactical_planes(core, side, core.mask, some), got[some])
        for b in range(6):
            want = expected_planes(core.state, core.static, b, int(side[b]), core.mask[b], game.layout)
            np.testing.assert_allclose(got[b], want, atol=1e-6)
            seen_cells += int((want[3] > 0).sum() > 0)
            seen_view += int((want[2] > 0).sum() > 0)
    assert seen_cells > 10 and seen_view > 3
    # the single-game entry point (ppo_fast's GreedyAgent) gives the same planes
    g = build_game()
    g.reset(2)
    for _ in range(30):
        g.step(int(rng.choice(np.flatnonzero(g.mask[0]))))
    out = np.empty((N_PLANES,) + g.static.terrain.shape, np.float32)
    tactical_planes_game(g.state, g.static, 0, 0, g.mask[0], cell_kind_starts(g.layout), out)
    np.testing.assert_allclose(out, expected_planes(g.state, g.static, 0, 0, g.mask[0], g.layout), atol=1e-6)


def test_ppo_fast_with_tactical_planes_and_pointer_head_trains_and_evaluates():
    from training import ppo_fast

    hist = ppo_fast.main(["--num-envs", "4", "--num-steps", "8", "--hidden", "32", "--total-steps", "32",
                          "--num-minibatches", "2", "--update-epochs", "1", "--opponent", "gunline",
                          "--tactical-planes", "--pointer-head", "--bc-decisions", "16", "--bc-epochs", "1",
                          "--eval-every", "1", "--eval-games", "1", "--eval-opponent", "random",
                          "--eval-pairs", "1"])
    assert hist[-1]["games"] == 2 and hist[-1]["opponent"] == "random"
    ppo_fast.parse_args(["--tactical-planes", "--opponent", "self"])  # accepted: the pool feeds them


def test_ppo_fast_with_tactical_features_trains_and_evaluates(capsys):
    from training import ppo_fast

    hist = ppo_fast.main(["--num-envs", "4", "--num-steps", "8", "--hidden", "32", "--total-steps", "32",
                          "--num-minibatches", "2", "--update-epochs", "1", "--opponent", "gunline",
                          "--tactical-features", "--bc-decisions", "16", "--bc-epochs", "1",
                          "--eval-every", "1", "--eval-games", "1", "--eval-opponent", "random",
                          "--eval-pairs", "1"])
    assert hist[-1]["games"] == 2 and hist[-1]["opponent"] == "random"
    ppo_fast.parse_args(["--tactical-features", "--opponent", "self"])  # accepted: the pool feeds them


def test_tactical_encoder_adds_the_rows_and_the_deciding_gangs_planes():
    """The ``tactical`` encoder (necro_env/envs/encoders.py) is ``entity`` plus the rows and planes
    above for one game; the cell planes 1-3 are the deciding gang's (an observer that is not
    deciding sees them as 0, its path-distance plane 0 as for anyone)."""
    from agents import make_agent
    from necro_env.envs.encoders import EntityEncoder, make_encoder

    enc = make_encoder("tactical")
    g = build_game()
    g.reset(4)
    space = enc.space(g)
    players = [make_agent("gunline", seed=1), make_agent("aggressor", seed=2)]  # they meet: planes 1-3 get values
    checked = with_cells = 0
    for step in range(120):
        if g.done:
            break
        if step % 2 == 0:
            dec = g.current_gang
            for gang in range(2):
                obs = enc.encode(g, gang)
                assert space.contains(obs)
                ent = EntityEncoder().encode(g, gang)
                assert all(np.array_equal(obs[k], ent[k]) for k in ent)
                np.testing.assert_allclose(obs["tactical"], expected_rows(g.state, g.static, 0, gang), atol=1e-6)
                mask = g.mask[0] if gang == dec else np.zeros_like(g.mask[0])
                want = expected_planes(g.state, g.static, 0, gang, mask, g.layout)
                np.testing.assert_allclose(obs["tactical_planes"], want, atol=1e-6)
                if gang != dec:
                    assert not obs["tactical_planes"][1:].any()
                else:
                    with_cells += int(want[1:].any())
            checked += 1
        g.step(players[g.current_gang].act(None, g.mask[0], game=g))
    assert checked >= 30 and with_cells >= 3
