"""The batched core (necro_env/batch): one compiled call advances B games exactly as B
single ``Game`` objects would, with auto-reset, per-slot seeds and the players' PRNG kept
apart from the dice."""
import numpy as np
import pytest

from necro_env.batch import BatchedGames
from necro_env.rulesets.necromunda.game import IllegalActionError
from necro_env.rulesets.necromunda.state import G_DONE, state_equal, state_slice


def test_step_batch_matches_single_games_bit_for_bit(game2):
    """Random legal actions applied to a batch of 3 and to 3 single games give identical
    states, masks and events after every decision."""
    base = 20
    core = BatchedGames(game2, 3, seed=base).reset()
    singles = [game2.clone().reset(base + b) for b in range(3)]
    rng = np.random.default_rng(0)
    for _ in range(40):
        acts = np.array([rng.choice(np.flatnonzero(core.mask[b])) for b in range(3)])
        _, d, _, _ = core.step(acts)
        for b, g in enumerate(singles):
            g.step(int(acts[b]))
            assert not d[b]  # 40 decisions never finish a game of the default scenario
            assert state_equal(state_slice(core.state, b), g.state)
            assert np.array_equal(core.mask[b], g.mask[0])


def test_step_batch_rejects_a_masked_action_and_leaves_the_batch_unchanged(game2):
    core = BatchedGames(game2, 2, seed=0).reset()
    before = state_slice(core.state, 0), state_slice(core.state, 1)
    acts = np.array([np.flatnonzero(core.mask[0])[0], np.flatnonzero(~core.mask[1])[0]])
    with pytest.raises(IllegalActionError, match="game 1"):
        core.step(acts)
    assert state_equal(state_slice(core.state, 0), before[0]) and state_equal(state_slice(core.state, 1), before[1])


def test_play_runs_games_to_the_end_and_auto_resets_with_the_next_seed(game2):
    """Random self-play until every slot finished a game: finished games are counted and
    replaced at once by a fresh game with a decision pending."""
    core = BatchedGames(game2, 2, seed=3).reset()
    counts = np.zeros((2, 2), np.int64)
    for _ in range(200):
        core.play(50, counts=counts)
        if (counts[:, 1] > 0).all():
            break
    assert (counts[:, 1] > 0).all() and (counts[:, 0] >= 50).all()
    assert not core.state.g[:, G_DONE].any()  # finished games were replaced at once
    assert core.mask.any(axis=1).all()


def test_play_is_deterministic_and_independent_of_the_batch_size(game2):
    """Slot b's play depends on (seed + b) only: a batch of 1 reproduces slot 2 of a batch of 3."""
    big = BatchedGames(game2, 3, seed=50).reset()
    big.play(60)
    one = BatchedGames(game2, 1, seed=52).reset()
    one.play(60)
    assert state_equal(state_slice(big.state, 2), state_slice(one.state, 0))


@pytest.mark.parametrize("policy", ["gunline", "aggressor"])
def test_heuristic_policies_play_in_the_batch(game2, policy):
    core = BatchedGames(game2, 2, seed=1).reset()
    counts = core.play(30, policy=policy)
    assert (counts[:, 0] == 30).all()


def test_unknown_policy_is_a_clear_error(game2):
    core = BatchedGames(game2, 1)
    with pytest.raises(ValueError, match="unknown policy 'nope'; allowed: random"):
        core.play(1, policy="nope")


def test_one_compiled_kernel_serves_every_operation(game2):
    """Every batched operation (reset, step, play, sample, mask, and the vector env's reset,
    step and external steps) goes through ``kernels.run_batch`` with one argument signature,
    so numba compiles the engine into it once (docs/performance.md, "Compile time")."""
    from necro_env.batch import kernels as K
    from necro_env.envs.vector_env import NecromundaVecEnv

    core = BatchedGames(game2, 2, seed=0).reset()
    core.step(core.sample("random", core.prng.copy()))
    core.play(3)
    core.recompute_masks(2)
    env = NecromundaVecEnv(2, opponent=lambda obs, m: np.array([np.flatnonzero(r)[0] for r in m]), game=game2)
    env.reset()
    env.step(env.core.sample("random", env.core.prng.copy()))
    assert len(K.run_batch.signatures) == 1
    with pytest.raises(TypeError, match="unknown run_batch argument"):
        core.run(K.OP_MASK, reps=1)


def test_sample_leaves_the_state_unchanged_and_picks_legal_actions(game2):
    core = BatchedGames(game2, 3, seed=7).reset()
    before = [state_slice(core.state, b) for b in range(3)]
    acts = core.sample("gunline", core.prng.copy())
    assert all(core.mask[b, acts[b]] for b in range(3))
    assert all(state_equal(state_slice(core.state, b), before[b]) for b in range(3))
    with pytest.raises(ValueError, match="compiled policy"):
        core.sample("external")


def test_sample_of_some_games_draws_only_for_them(game2):
    """``sample(..., games=idx)``: the choices of a full sample in those games, in their order, and
    only their generator rows advance (the self-play pool asks the heuristics for the games they play)."""
    core = BatchedGames(game2, 5, seed=3).reset()
    core.play(7)
    idx = np.array([4, 1, 3])
    for policy in ("aggressor", "random"):  # (random draws in every game: its rows always advance)
        full, some = core.prng.copy(), core.prng.copy()
        every = core.sample(policy, full)
        got = core.sample(policy, some, games=idx)
        assert got.tolist() == every[idx].tolist()
        assert np.array_equal(some[idx], full[idx]) and np.array_equal(some[[0, 2]], core.prng[[0, 2]])
    assert not np.array_equal(full[idx], core.prng[idx])
    assert core.sample("gunline", core.prng.copy(), games=[]).shape == (0,)
    with pytest.raises(IndexError, match="slot indices 0..4"):
        core.sample("random", core.prng.copy(), games=[5])
    with pytest.raises(ValueError, match=r"distinct slot indices, got \[1, 1\]"):
        core.sample("random", core.prng.copy(), games=[1, 1])
