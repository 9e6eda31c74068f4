"""The batched env (necro_env/envs/batched_env.py, numpy API, no RL framework) and its SB3 vector
env adapter (necro_env/envs/vector_env.py)."""
import subprocess
import sys

import numpy as np
import pytest

from necro_env.core.rng import seed_game
from necro_env.envs.encoders import GLOBAL_FEATURES
from necro_env.envs.batched_env import BatchedEnv
from necro_env.envs.vector_env import NecromundaVecEnv
from necro_env.rulesets.necromunda.game import IllegalActionError
from necro_env.rulesets.necromunda.state import G_DGANG, clone_state, state_equal

MY = [n for n, _, _ in GLOBAL_FEATURES].index("my_decision")
OVER = [n for n, _, _ in GLOBAL_FEATURES].index("game_over")


def _random_actions(env, prng):
    return env.core.sample("random", prng)


def _prng(n, seed):
    p = np.zeros((n, 2), np.uint64)
    for b in range(n):
        seed_game(p, b, np.uint64(seed + b))
    return p


def _run(env, steps, seed=0):
    prng = _prng(env.num_envs, seed)
    obs = env.reset()
    trace = [obs]
    finished = []
    for _ in range(steps):
        obs, r, d, infos = env.step(_random_actions(env, prng))
        trace.append((obs, r, d))
        assert env.observation_space["fighters"].shape == obs["fighters"].shape[1:]
        # every game waits on the learner, whose mask is its own and non-empty
        assert (env.core.state.g[:, G_DGANG] == env.side).all()
        assert env.action_masks().any(axis=1).all()
        assert obs["globals"][:, MY].min() == 1.0  # my_decision: the learner always decides
        for i in np.flatnonzero(d):
            info = infos[i]
            assert r[i] in (-1.0, 0.0, 1.0)
            assert info["episode"]["r"] == r[i] and info["episode"]["l"] > 0
            assert info["terminal_observation"]["globals"][OVER] == 1.0  # game_over in the final obs
            assert not info["TimeLimit.truncated"] or r[i] == 0.0  # the round limit is a draw
            finished.append(r[i])
        assert (r[~d] == 0).all()
    return trace, finished


def test_vec_env_plays_whole_games_with_masks_rewards_and_terminal_observations(game2):
    env = NecromundaVecEnv(4, opponent="random", seed=5, game=game2)
    assert env.observation_space.contains({k: v[0] for k, v in env.reset().items()})
    _, finished = _run(env, 400)
    assert len(finished) >= 2
    sides = set()
    for _ in range(3):
        env.reset()
        sides.update(env.side.tolist())
    assert sides == {0, 1}  # the learner's side is drawn per episode


def test_vec_env_is_deterministic_for_a_seed(game2):
    a, _ = _run(NecromundaVecEnv(3, seed=9, game=game2), 30)
    b, _ = _run(NecromundaVecEnv(3, seed=9, game=game2), 30)
    for x, y in zip(a[1:], b[1:]):
        for k in x[0]:
            assert np.array_equal(x[0][k], y[0][k])
        assert np.array_equal(x[1], y[1]) and np.array_equal(x[2], y[2])


def test_neural_opponent_is_called_in_batches_for_the_waiting_games(game2):
    calls = []

    def opponent(obs, mask):
        calls.append(mask.shape[0])
        assert obs["fighters"].shape[0] == mask.shape[0]
        assert (obs["globals"][:, MY] == 1.0).all()  # seen from the deciding (opponent) gang
        return np.array([np.flatnonzero(m)[-1] for m in mask])

    env = NecromundaVecEnv(4, opponent=opponent, seed=2, game=game2)
    _run(env, 60)
    assert calls and max(calls) > 1


def test_illegal_learner_action_raises(game2):
    env = NecromundaVecEnv(2, seed=0, game=game2)
    env.reset()
    bad = np.array([np.flatnonzero(m)[0] for m in env.action_masks()])
    bad[1] = np.flatnonzero(~env.action_masks()[1])[0]
    with pytest.raises(IllegalActionError, match="game 1"):
        env.step(bad)


def test_sb3_contrib_maskable_ppo_learns_a_few_steps(game2):
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    env = NecromundaVecEnv(4, seed=0, game=game2)
    assert is_masking_supported(env)
    env.reset()
    assert get_action_masks(env).shape == (4, env.n_actions)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=16, batch_size=32, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]})
    model.learn(64)
    assert model.num_timesteps >= 64


def test_observations_are_fresh_arrays_equal_to_the_entity_encoder(game2):
    """Each step returns new arrays (an earlier observation is never overwritten) holding exactly
    EntityEncoder's numpy reference for each game from its learner's side."""
    from necro_env.envs.encoders import EntityEncoder
    from necro_env.rulesets.necromunda.state import state_slice

    env = NecromundaVecEnv(3, seed=4, game=game2)
    prng = _prng(3, 1)
    old = env.reset()
    kept = {k: v.copy() for k, v in old.items()}
    view = game2.clone()
    for _ in range(5):
        obs, _, _, _ = env.step(_random_actions(env, prng))
        for b in range(3):
            view.state = state_slice(env.core.state, b)
            ref = EntityEncoder().encode_numpy(view, int(env.side[b]))
            assert all(np.array_equal(ref[k], obs[k][b]) for k in ref)
    assert all(np.array_equal(kept[k], old[k]) for k in kept)


def test_observation_arrays_are_reused_only_once_nothing_else_holds_them(game2):
    """BatchedEnv writes an earlier observation's arrays again only after the caller dropped them:
    arrays still held (directly, through a view or shared with a torch tensor) keep their values;
    dropped ones are reused (no fresh 35 KB-per-game allocation) and hold the new observation."""
    import torch

    env = BatchedEnv(3, seed=4, game=game2)
    prng = _prng(3, 1)
    held = env.reset()
    view = held["board"][1:]
    tensor = torch.as_tensor(env.step(_random_actions(env, prng))[0]["fighters"])
    kept = ({k: v.copy() for k, v in held.items()}, view.copy(), tensor.clone())
    addresses = set()
    for _ in range(6):
        obs = env.step(_random_actions(env, prng))[0]
        addresses.add(obs["board"].ctypes.data)
        del obs
    assert all(np.array_equal(kept[0][k], held[k]) for k in held)
    assert np.array_equal(kept[1], view) and torch.equal(kept[2], tensor)
    assert len(addresses) == 1  # the dropped arrays came back each step
    twin = NecromundaVecEnv(3, seed=4, game=game2)  # the SB3 adapter's games are the same
    twin.reset()
    prng = _prng(3, 1)
    env = BatchedEnv(3, seed=4, game=game2)
    env.reset()
    for _ in range(8):
        a = _random_actions(env, prng)
        x, y = env.step(a)[0], twin.step(a)[0]
        assert all(np.array_equal(x[k], y[k]) for k in x)


def test_batched_env_imports_neither_stable_baselines3_nor_torch():
    code = ("import sys, necro_env.envs.batched_env, training.ppo_fast as p; "
            "print(sorted(m for m in ('stable_baselines3', 'sb3_contrib') if m in sys.modules)); "
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code.replace(", training.ppo_fast as p", "")], capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["[]", "False"]  # the env alone: no RL framework at all
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["[]", "True"]  # ppo_fast: torch for its network, still no SB3


def test_the_sb3_adapter_plays_exactly_the_batched_env_games(game2):
    a, fa = _run(BatchedEnv(3, opponent={"random": 1.0, "aggressor": 1.0}, seed=4, game=game2), 120)
    b, fb = _run(NecromundaVecEnv(3, opponent={"random": 1.0, "aggressor": 1.0}, seed=4, game=game2), 120)
    assert fa == fb
    for x, y in zip(a[1:], b[1:]):
        assert all(np.array_equal(x[0][k], y[0][k]) for k in x[0])
        assert np.array_equal(x[1], y[1]) and np.array_equal(x[2], y[2])


@pytest.mark.parametrize("cls", [BatchedEnv, NecromundaVecEnv])
def test_seed_sets_the_next_reset_only(game2, cls):
    env = cls(2, seed=0, game=game2)
    first = env.reset()
    assert env.seed(11) == [11, 12]
    seeded = env.reset()
    again = env.reset()  # the seed was used once: this reset goes on from the slots' own streams
    if cls is BatchedEnv:
        assert all(np.array_equal(seeded[k], env.reset(seed=11)[k]) for k in seeded)
    other = cls(2, seed=11, game=game2).reset()  # a fresh env seeded 11 starts the same games
    assert all(np.array_equal(seeded[k], other[k]) for k in seeded)
    assert not np.array_equal(first["fighters"], seeded["fighters"])
    assert again["fighters"].shape == seeded["fighters"].shape


def test_an_illegal_action_raises_naming_it_and_changes_nothing(game2):
    env = BatchedEnv(2, seed=0, game=game2)
    env.reset()
    before, mask = clone_state(env.core.state), env.action_masks()
    bad = np.array([np.flatnonzero(m)[0] for m in mask])
    bad[0] = np.flatnonzero(~mask[0])[0]
    with pytest.raises(IllegalActionError, match="game 0") as e:
        env.step(bad)
    assert str(int(bad[0])) in str(e.value)
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        env.step(bad[:1])
    assert state_equal(before, env.core.state) and np.array_equal(mask, env.action_masks())
    with pytest.raises(RuntimeError, match="reset"):
        BatchedEnv(2, seed=0, game=game2).step(bad)
