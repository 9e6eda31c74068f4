"""The Gymnasium single-agent wrapper NecromundaGymEnv and the registered id necro_env/Necromunda-v0."""
import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import necro_env
from necro_env.envs.encoders import GLOBAL_FEATURES
from necro_env.envs.gym_wrapper import NecromundaGymEnv, random_opponent
from necro_env.rulesets.necromunda.render_text import fighter_symbol
from necro_env.rulesets.necromunda.game import IllegalActionError
from necro_env.rulesets.necromunda.state import (
    FI_STATE,
    FS_OOA,
    clone_state,
    state_equal,
)

GLOBAL_INDEX = {name: i for i, (name, _, _) in enumerate(GLOBAL_FEATURES)}


def _legal(env, rng):
    legal = np.flatnonzero(env.action_masks())
    return int(legal[rng.integers(len(legal))])


@pytest.mark.parametrize("encoder", ["entity", "flat", "spatial"])
def test_check_env(encoder):
    # check_env steps with unmasked random actions, so illegal actions must end the episode, not raise
    env = NecromundaGymEnv(encoder=encoder, illegal_action="terminate", render_mode="ansi")
    check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs)


def test_registered_id():
    assert necro_env.GYM_ID == "necro_env/Necromunda-v0"
    assert necro_env.GYM_ID in gymnasium.registry
    necro_env._register()  # a second registration is a no-op, not an error
    env = gymnasium.make("necro_env/Necromunda-v0", encoder="flat")
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    mask = env.unwrapped.action_masks()
    assert mask.dtype == np.bool_ and mask.any()
    obs, reward, term, trunc, info = env.step(int(np.flatnonzero(mask)[0]))
    assert env.observation_space.contains(obs)


def test_episode_reward_from_learner_view_and_masks():
    rng = np.random.default_rng(0)
    env = NecromundaGymEnv(encoder="flat", round_limit=2)
    obs, info = env.reset(seed=3)
    assert env.game.current_gang == env.learner == 0
    steps = 0
    while True:
        mask = env.action_masks()
        assert np.array_equal(mask, env.game.mask[0]) and mask.any()
        obs, reward, term, trunc, info = env.step(_legal(env, rng))
        steps += 1
        assert env.observation_space.contains(obs)
        if term or trunc:
            break
        assert reward == 0.0 and env.game.current_gang == env.learner
    assert trunc and not term and reward == 0.0  # the round limit: a draw
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError):
        env.step(0)


@pytest.mark.parametrize("learner", [0, 1])
def test_win_and_loss_rewards(learner):
    env = NecromundaGymEnv(encoder="flat", learner=learner)
    env.reset(seed=0)
    mf = env.game.dims.max_fighters
    other = 1 - learner
    env.game.state.fi[0, other * mf:(other + 1) * mf, FI_STATE] = FS_OOA
    _, reward, term, trunc, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert term and not trunc and reward == 1.0 and info["winner"] == learner

    env.reset(seed=0)
    env.game.state.fi[0, learner * mf:(learner + 1) * mf, FI_STATE] = FS_OOA
    _, reward, term, trunc, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert term and reward == -1.0 and info["winner"] == other


def test_reset_is_deterministic_and_random_learner_side():
    a = NecromundaGymEnv(encoder="flat", learner="random")
    b = NecromundaGymEnv(encoder="flat", learner="random")
    sides = set()
    for seed in range(8):
        oa, _ = a.reset(seed=seed)
        ob, _ = b.reset(seed=seed)
        assert a.learner == b.learner
        assert np.array_equal(oa, ob)
        assert state_equal(a.game.state, b.game.state)
        sides.add(a.learner)
        assert a.game.current_gang == a.learner
    assert sides == {0, 1}
    # same seed, same actions -> same trajectory (opponents use the env's seeded rng)
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    a.reset(seed=9)
    b.reset(seed=9)
    for _ in range(100):
        ra = a.step(_legal(a, rng_a))
        rb = b.step(_legal(b, rng_b))
        assert np.array_equal(ra[0], rb[0]) and ra[1:4] == rb[1:4]
        if ra[2] or ra[3]:
            break


def test_custom_opponents_are_called_with_their_view():
    calls = []

    def first_legal(obs, mask, rng):
        calls.append((obs, mask))
        return int(np.flatnonzero(mask)[0])

    env = NecromundaGymEnv(encoder="entity", opponents=first_legal)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(60):
        _, _, term, trunc, _ = env.step(_legal(env, rng))
        if term or trunc:
            break
    assert calls
    for obs, mask in calls[:5]:
        assert env.observation_space.contains(obs)
        assert mask.dtype == np.bool_ and mask.any()
        assert obs["globals"][GLOBAL_INDEX["my_decision"]] == 1.0  # the opponent's own view
    with pytest.raises(ValueError, match="one per gang"):
        NecromundaGymEnv(opponents=[random_opponent])
    with pytest.raises(ValueError, match="learner"):
        NecromundaGymEnv(learner=2)


def test_illegal_action_raises_and_leaves_state_unchanged():
    env = NecromundaGymEnv(encoder="flat")
    env.reset(seed=0)
    before = clone_state(env.game.state)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert state_equal(env.game.state, before)


def test_illegal_action_terminate_mode():
    env = NecromundaGymEnv(encoder="flat", illegal_action="terminate")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    obs, reward, term, trunc, info = env.step(illegal)
    assert term and not trunc and reward == -1.0 and info["illegal_action"]
    assert not env.action_masks().any()


def test_three_gangs_and_ansi_render():
    env = NecromundaGymEnv(encoder="spatial", num_gangs=3, learner=2, render_mode="ansi")
    obs, _ = env.reset(seed=0)
    assert env.game.current_gang == 2 and env.observation_space.contains(obs)
    text = env.render()
    rows = text.splitlines()[2:2 + env.game.dims.height]
    mf = env.game.dims.max_fighters
    for i in range(len(env.game.gangs[2].fighters)):
        x, y = (int(v) for v in env.game.state.fi[0, 2 * mf + i, 1:3])
        assert rows[y][4 + 2 * x] == fighter_symbol(2, i) == "1234567890"[i]  # gang 2: digits
    assert "decision: select_fighter by gang_2" in text
