"""The AMBUSHER heuristic (necro_env/policies/heuristics.py, ``ambusher_action``; agents.AmbusherAgent):
it plays the SENTRY's action while it lies in wait (before AMBUSH_ROUND, no enemy within AMBUSH_REACH
cells of its fighters) and the AGGRESSOR's after; its registration as a built-in agent, opponent,
demonstrator and compiled policy (whole games: test_scripts.py)."""
import pytest

from agents import AggressorAgent, AmbusherAgent, SentryAgent, make_agent
from agents.base import BUILTIN, agent_name
from necro_env.batch import kernels as K
from necro_env.config import agent_spec
from necro_env.config.training import BUILTIN_OPPONENTS
from necro_env.policies import heuristics as H
from necro_env.rulesets.necromunda.state import FI_Z
from necro_env.testing import board, fighter, gang, kind_of, scenario

ROWS = "\n".join(["." * 24] * 5)  # an open floor, 24 x 5 cells
OPEN = board(ROWS)


def waiting(gap, round_=1, board_=OPEN):
    """An Orlock ganger with a knife activated in round ``round_`` on an open row, a Goliath ganger
    with an axe ``gap`` cells to its west (nothing to shoot, nothing else on the board)."""
    s = fighter("orlock", "ganger", ["fighting_knife"], name="s")
    e = fighter("goliath", "ganger", ["axe"], name="e")
    g = scenario(board_, [gang("x", s), gang("y", e)],
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
    """docs/results.md, "The ambusher": its choice is the SENTRY's while it lies in wait and the
    AGGRESSOR's after (the same generator seed: the same tie-breaks); here the two differ, the
    sentry keeping its distance from an enemy that cannot reach it and the aggressor closing in."""
    assert (H.AMBUSH_ROUND, H.AMBUSH_REACH) == (3, 8)
    g = waiting(gap, round_)
    assert bool(H.ambushing(g.state, 0, 0)) == waits
    sentry, aggressor = first_choice(g, SentryAgent(seed=5)), first_choice(g, AggressorAgent(seed=5))
    assert sentry != aggressor and kind_of(g, aggressor) in ("move", "charge")
    a = first_choice(g, AmbusherAgent(seed=5))
    assert a == (sentry if waits else aggressor)
    before = g.fighter("e")["cell"][0]
    g.step(a)
    x = g.fighter("s")["cell"][0]
    if waits:
        assert kind_of(g, a) != "charge" and x - before >= gap  # no step toward the enemy
    else:
        assert x - before < gap  # a move toward the enemy or a charge into contact


def test_it_is_a_built_in_agent_opponent_and_demonstrator():
    assert isinstance(make_agent("ambusher", seed=1), AmbusherAgent) and "ambusher" in BUILTIN
    assert agent_name("ambusher") == "ambusher" and make_agent("ambusher").kernel is H.ambusher_action
    assert "ambusher" in BUILTIN_OPPONENTS and "ambusher" in agent_spec.POLICY_NAMES
    assert "ambusher" in H.REVISIONS
    side = make_agent("sides:sentry,ambusher")
    assert [a.name for a in side.agents] == ["sentry", "ambusher"]
    search = make_agent("rollout(policies=gunline+ambusher,opponents=ambusher)")
    assert search.policies == [K.POLICY_GUNLINE, K.POLICY_AMBUSHER] and search.opponents == [K.POLICY_AMBUSHER]


def test_it_measures_the_reach_with_the_height_difference():
    """Revision 2 (docs/results.md, "The ambusher"): AMBUSH_REACH is measured as the rules measure
    distance (rules §1.2: query.dist2 counts the floor-height difference). An enemy 6 cells away on
    the same floor is within 8 cells; on a floor 6" higher it is sqrt(36 + 36) = 8.5 cells away, and
    the ambusher still lies in wait (revision 1, counting only dx and dy, attacked)."""
    assert H.REVISIONS["ambusher"] >= 2  # 3 since session 37: the sentry's, which it plays while in wait
    raised = board(ROWS, heights="\n".join(["0" * 16 + "6" + "0" * 7] * 5))  # column 16 stands 6" high
    assert not H.ambushing(waiting(6).state, 0, 0)
    g = waiting(6, board_=raised)
    assert g.fighter("e")["cell"] == (16, 2) and g.state.fi[0, g.fid("e"), FI_Z] == 6
    assert H.ambushing(g.state, 0, 0)
