"""The AMBUSHER heuristic (necro_env/policies/heuristics.py, ``ambusher_action``; agents.AmbusherAgent):
it plays the SENTRY's action while it lies in wait (before AMBUSH_ROUND, no enemy within AMBUSH_REACH
cells of its fighters) and the AGGRESSOR's after; legal and reproducible whole games; its
registration as a built-in agent, opponent, demonstrator and compiled policy."""
import numpy as np
import pytest

from agents import AggressorAgent, AmbusherAgent, GunlineAgent, RandomAgent, SentryAgent, make_agent
from agents.base import BUILTIN, agent_name
from agents.play import play_game
from necro_env.batch import BatchedGames, policy_id
from necro_env.batch import kernels as K
from necro_env.config import agent_spec
from necro_env.config.training import BUILTIN_OPPONENTS
from necro_env.envs.necromunda_env import build_game
from necro_env.policies import heuristics as H
from necro_env.testing import CheckedAgent, board, fighter, gang, kind_of, scenario

OPEN = board("""
........................
........................
........................
........................
........................
""")


@pytest.fixture(scope="module")
def game():
    return build_game()


def waiting(gap, round_=1):
    """An Orlock ganger with a knife activated in round ``round_`` on an open row, a Goliath ganger
    with an axe ``gap`` cells to its west (nothing to shoot, nothing else on the board)."""
    s = fighter("orlock", "ganger", ["fighting_knife"], name="s")
    e = fighter("goliath", "ganger", ["axe"], name="e")
    g = scenario(OPEN, [gang("x", s), gang("y", e)],
                 [dict(fighter="s", cell=(22, 2), facing="W"), dict(fighter="e", cell=(22 - gap, 2), facing="E")])
    g.activate("s", round_=round_)
    return g


def first_choice(g, agent):
    return int(agent.act(None, g.mask[0], game=g))


@pytest.mark.parametrize("gap, round_, waits", [
    (12, 1, True), (12, 2, True),  # far, the first rounds: it lies in wait
    (12, H.AMBUSH_ROUND, False),  # from AMBUSH_ROUND on it attacks wherever the enemy is
    (H.AMBUSH_REACH + 1, 1, True), (H.AMBUSH_REACH, 1, False),  # an enemy within AMBUSH_REACH cells: it attacks
])
def test_it_lies_in_wait_as_the_sentry_then_attacks_as_the_aggressor(gap, round_, waits):
    """docs/training.md, "The ambusher": its choice is the SENTRY's while it lies in wait and the
    AGGRESSOR's after (the same generator seed: the same tie-breaks); here the two differ, the
    sentry keeping its distance from an enemy that cannot reach it and the aggressor closing in."""
    assert (H.AMBUSH_ROUND, H.AMBUSH_REACH) == (3, 8)
    g = waiting(gap, round_)
    assert bool(H.ambushing(g.state, 0, 0)) == waits
    sentry, aggressor = first_choice(g, SentryAgent(seed=5)), first_choice(g, AggressorAgent(seed=5))
    assert sentry != aggressor and kind_of(g, aggressor) in ("move", "charge")
    assert first_choice(g, AmbusherAgent(seed=5)) == (sentry if waits else aggressor)
    before = g.fighter("e")["cell"][0]
    a = first_choice(g, AmbusherAgent(seed=5))
    g.step(a)
    x = g.fighter("s")["cell"][0]
    if waits:
        assert kind_of(g, a) != "charge" and x - before >= gap  # no step toward the enemy
    else:
        assert x - before < gap  # a move toward the enemy or a charge into contact


@pytest.mark.parametrize("other", [GunlineAgent, AggressorAgent, RandomAgent])
def test_whole_games_on_both_sides_are_legal_and_leave_the_dice_alone(game, other):
    for seed, side in ((5, 0), (6, 1)):
        agents = [CheckedAgent(other(seed=1)), CheckedAgent(other(seed=1))]
        agents[side] = CheckedAgent(AmbusherAgent(seed=2))
        r = play_game(game, agents, seed=seed)
        assert game.done and agents[side].n > 20 and r.decisions == agents[0].n + agents[1].n


def test_same_seeds_same_game(game):
    runs = [play_game(game, [make_agent("gunline"), make_agent("ambusher")], seed=12, record=True) for _ in range(2)]
    assert [(g, x) for g, x, _ in runs[0].events] == [(g, x) for g, x, _ in runs[1].events]
    assert (runs[0].winner, runs[0].rounds) == (runs[1].winner, runs[1].rounds)


def test_the_batched_kernel_is_the_agents_kernel(game):
    """Policy id POLICY_AMBUSHER plays ambusher_action: BatchedGames.sample("ambusher") on copies of a
    game equals the agent's choice with the same generator, through the switch to the aggressor."""
    assert K.POLICY_NAMES["ambusher"] == K.POLICY_AMBUSHER == policy_id("ambusher")
    g = game.clone().reset(7)
    agent = AmbusherAgent(seed=3)
    other = GunlineAgent(seed=4)
    bg = BatchedGames(g, 2, seed=0)
    rounds = set()
    for _ in range(400):
        if g.done or g.round > H.AMBUSH_ROUND:
            break
        if g.current_gang == 1:
            rounds.add(g.round)
            bg.load(g)
            prng = np.repeat(agent.prng, 2, axis=0)
            want = bg.sample("ambusher", prng=prng)
            a = agent.act(None, g.mask[0], game=g)
            assert want.tolist() == [a, a]
        else:
            a = other.act(None, g.mask[0], game=g)
        g.step(a)
    assert {1, H.AMBUSH_ROUND} <= rounds
    counts = BatchedGames(game, 2, seed=11).reset().play(3000, "ambusher")
    assert counts[:, 0].sum() == 6000 and counts[:, 1].sum() >= 2  # decisions, finished games


def test_it_is_a_built_in_agent_opponent_and_demonstrator():
    assert isinstance(make_agent("ambusher", seed=1), AmbusherAgent) and "ambusher" in BUILTIN
    assert agent_name("ambusher") == "ambusher" and make_agent("ambusher").kernel is H.ambusher_action
    assert "ambusher" in BUILTIN_OPPONENTS and "ambusher" in agent_spec.POLICY_NAMES
    assert "ambusher" in H.REVISIONS
    side = make_agent("sides:sentry,ambusher")
    assert [a.name for a in side.agents] == ["sentry", "ambusher"]
    search = make_agent("rollout(policies=gunline+ambusher,opponents=ambusher)")
    assert search.policies == [K.POLICY_GUNLINE, K.POLICY_AMBUSHER] and search.opponents == [K.POLICY_AMBUSHER]
