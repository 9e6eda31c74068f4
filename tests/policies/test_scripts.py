"""Whole games of the scripts built for the default's demonstrators, the SENTRY and the AMBUSHER
(necro_env/policies/heuristics.py; their choices in scripted positions: test_sentry.py,
test_ambusher.py): legal on both sides against each other script, never drawing on the game's
dice (agents.play; necro_env.testing.CheckedAgent), the same game from the same seeds, and the
batched core's policy id playing the agent's kernel."""
import numpy as np
import pytest

from agents import AggressorAgent, AmbusherAgent, GunlineAgent, RandomAgent, SentryAgent, make_agent
from agents.play import play_game
from necro_env.batch import BatchedGames, policy_id
from necro_env.batch import kernels as K
from necro_env.envs.necromunda_env import build_game
from necro_env.policies import heuristics as H
from necro_env.testing import CheckedAgent


@pytest.fixture(scope="module")
def game():
    return build_game()


@pytest.mark.parametrize("script", [SentryAgent, AmbusherAgent])
@pytest.mark.parametrize("other", [GunlineAgent, AggressorAgent, RandomAgent])
def test_whole_games_on_both_sides_are_legal_and_leave_the_dice_alone(game, script, other):
    for seed, side in ((5, 0), (6, 1)):
        agents = [CheckedAgent(other(seed=1)), CheckedAgent(other(seed=1))]
        agents[side] = CheckedAgent(script(seed=2))
        r = play_game(game, agents, seed=seed)
        assert game.done and agents[side].n > 20 and r.decisions == agents[0].n + agents[1].n


@pytest.mark.parametrize("script", ["sentry", "ambusher"])
@pytest.mark.parametrize("side", [0, 1])
def test_same_seeds_same_game(game, script, side):
    seats = [make_agent("gunline"), make_agent("gunline")]
    seats[side] = make_agent(script)
    runs = [play_game(game, seats, seed=12, record=True) for _ in range(2)]
    assert [(g, x) for g, x, _ in runs[0].events] == [(g, x) for g, x, _ in runs[1].events]
    assert (runs[0].winner, runs[0].rounds) == (runs[1].winner, runs[1].rounds)


@pytest.mark.parametrize("name, script, side, pid", [
    ("sentry", SentryAgent, 0, K.POLICY_SENTRY),
    ("ambusher", AmbusherAgent, 1, K.POLICY_AMBUSHER),  # through its switch to the aggressor (round 3)
])
def test_the_batched_kernel_is_the_agents_kernel(game, name, script, side, pid):
    """Policy id ``pid`` plays the agent's kernel: BatchedGames.sample(name) on copies of a game equals
    the agent's choice with the same generator at each of its decisions in rounds 1 to AMBUSH_ROUND;
    whole batched games with the script on both sides run."""
    assert K.POLICY_NAMES[name] == pid == policy_id(name)
    g = game.clone().reset(7)
    agent = script(seed=3)
    other = GunlineAgent(seed=4)
    bg = BatchedGames(g, 2, seed=0)
    rounds = set()
    while not g.done and g.round <= H.AMBUSH_ROUND:
        if g.current_gang == side:
            rounds.add(g.round)
            bg.load(g)
            prng = np.repeat(agent.prng, 2, axis=0)
            want = bg.sample(name, prng=prng)
            a = agent.act(None, g.mask[0], game=g)
            assert want.tolist() == [a, a]
        else:
            a = other.act(None, g.mask[0], game=g)
        g.step(a)
    assert {1, H.AMBUSH_ROUND} <= rounds
    counts = BatchedGames(game, 2, seed=11).reset().play(3000, name)
    assert counts[:, 0].sum() == 6000 and counts[:, 1].sum() >= 2  # decisions, finished games
