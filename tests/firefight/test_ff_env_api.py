"""firefight_v0 (issue "A second game", item 5): the PettingZoo AEC env over the generic RulesetAECEnv and the
Gymnasium wrapper necro_env/Firefight-v0 (docs/api.md, "Firefight observations")."""
from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import necro_env
from necro_env import firefight_v0
from necro_env.core import header as H
from necro_env.core.errors import IllegalActionError
from necro_env.rulesets.firefight.state import G_ATTACKER


def play(env, seed, until=None):
    """Random legal play from reset(seed) until ``until(env)`` holds or the game ends; True if it held."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while not env.terminations[env.agent_selection] and not env.truncations[env.agent_selection]:
        if until is not None and until(env):
            return True
        env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
    return False


@pytest.mark.parametrize("encoder", ["entity", "flat", "spatial"])
def test_ff_env_pettingzoo_api_test(encoder):
    api_test(firefight_v0.env(encoder=encoder), num_cycles=200)


def test_ff_env_pettingzoo_seed_test():
    seed_test(lambda render_mode=None: firefight_v0.env(encoder="flat", render_mode=render_mode), num_cycles=200)


def test_ff_env_is_turn_based_aec_only():
    """AEC is the honest API of an alternating game: no parallel_env (firefight_v0's docstring says why)."""
    assert not hasattr(firefight_v0, "parallel_env")
    e = firefight_v0.raw_env()
    assert e.possible_agents == ["player_0", "player_1"] and e.metadata["name"] == "firefight_v0"
    assert not e.metadata["is_parallelizable"]


def test_ff_env_mask_in_the_observation_is_the_games():
    e = firefight_v0.raw_env(encoder="flat")
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(120):
        me = e.agent_selection
        other = next(a for a in e.agents if a != me)
        assert me == e.possible_agents[int(e.game.state.g[0, H.H_DPLAYER])]
        assert np.array_equal(e.observe(me)["action_mask"], e.game.mask[0].astype(np.int8))
        assert not e.observe(other)["action_mask"].any()
        e.step(int(rng.choice(np.flatnonzero(e.game.mask[0]))))


def test_ff_env_agent_selection_is_the_defender_at_a_strike_back():
    """§6 step 5: the charged unit's player decides the strike-back, in the attacker's activation."""
    e = firefight_v0.raw_env()
    at = lambda env: env.infos[env.agent_selection]["decision"] == "strike_back"  # noqa: E731
    seed = next(s for s in range(40) if play(e, s, at))
    attacker_side = int(e.game.state.g[0, G_ATTACKER]) // e.game.max_units
    assert e.agent_selection == f"player_{1 - attacker_side}"
    assert e.action_mask().any() and not e.action_mask(f"player_{attacker_side}").any()
    assert e.infos[f"player_{attacker_side}"]["decision"] == "none", seed


@pytest.mark.parametrize("seed", [1, 3, 8])
def test_ff_env_rewards_at_the_end_follow_the_objectives(seed):
    e = firefight_v0.env(encoder="entity")
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = {a: 0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    s0, s1 = e.unwrapped.game.scores
    want = (0, 0) if s0 == s1 else (1, -1) if s0 > s1 else (-1, 1)
    assert (total["player_0"], total["player_1"]) == want
    assert info["winner"] == (None if s0 == s1 else f"player_{int(s1 > s0)}")


def test_ff_env_illegal_action_raises_with_the_game_unchanged_or_terminates():
    e = firefight_v0.raw_env()
    e.reset(seed=2)
    before = [a.copy() for a in e.game.state]
    bad = int(np.flatnonzero(~e.game.mask[0])[0])
    with pytest.raises(IllegalActionError):
        e.step(bad)
    with pytest.raises(IllegalActionError, match="integer index"):
        e.step(3.0)
    assert all(np.array_equal(a, b) for a, b in zip(before, e.game.state))
    t = firefight_v0.raw_env(illegal_action="terminate")
    t.reset(seed=2)
    offender = t.agent_selection
    with pytest.warns(UserWarning, match="illegal action"):
        t.step(bad)
    assert t.terminations[offender] and t._cumulative_rewards[offender] == -1
    assert t.infos[offender]["illegal_action"]


def test_ff_env_same_seed_same_game():
    a, b = firefight_v0.raw_env(), firefight_v0.raw_env()
    play(a, 11)
    play(b, 11)
    assert all(np.array_equal(x, y) for x, y in zip(a.game.state, b.game.state))


@pytest.mark.parametrize("encoder", ["entity", "flat", "spatial"])
def test_ff_gym_check_env(encoder):
    # check_env steps with unmasked random actions: illegal ones must end the episode, not raise
    env = gymnasium.make("necro_env/Firefight-v0", encoder=encoder, illegal_action="terminate")
    check_env(env.unwrapped, skip_render_check=True)


def test_ff_gym_masks_and_rewards_with_shaping():
    """The learner's mask is the game's at its decisions; the return is the result plus shaping x the final
    marker balance (potential-based: its first value is 0 before any marker is held)."""
    assert "necro_env/Firefight-v0" in gymnasium.registry and necro_env.GYM_ID in gymnasium.registry
    env = gymnasium.make("necro_env/Firefight-v0", encoder="flat", learner=1, reward={"shaping": 0.25}).unwrapped
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    total, done = 0.0, False
    while not done:
        mask = env.action_masks()
        assert int(env.game.state.g[0, H.H_DPLAYER]) == 1 and np.array_equal(mask, env.game.mask[0])
        _, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total, done = total + r, term or trunc
    s0, s1 = env.game.scores
    result = 0 if s0 == s1 else (1 if s1 > s0 else -1)
    assert total == pytest.approx(result + 0.25 * (s1 - s0)) and not env.action_masks().any()
    assert info["winner"] == env.game.winner
    with pytest.raises(RuntimeError, match="finished episode"):
        env.step(0)


class ScriptedOpponent:
    """An agents.Agent-like opponent: it is given the Game, and an observation of its own encoder."""

    encoder = "spatial"

    def __init__(self):
        self.seen = []

    def act(self, obs, mask, game=None):
        self.seen.append((obs.shape, int(game.state.g[0, H.H_DPLAYER])))
        return int(np.flatnonzero(mask)[-1])


def test_ff_gym_an_agent_opponent_plays_the_other_side_with_its_own_encoder():
    opp = ScriptedOpponent()
    env = gymnasium.make("necro_env/Firefight-v0", encoder="flat", learner=0, opponent=opp).unwrapped
    env.reset(seed=6)
    rng = np.random.default_rng(6)
    for _ in range(40):
        env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    assert opp.seen and {side for _, side in opp.seen} == {1}
    assert {shape for shape, _ in opp.seen} == {env.ruleset.encoders()["spatial"]().space(env.game).shape}
