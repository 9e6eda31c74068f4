"""The shooting scripts score a twin Shoot at its target (necro_env/policies/heuristics.py, REVISIONS:
gunline 4, aggressor 2, sentry and ambusher 6 since session 39; docs/results.md, "Twin sidearms at their
target").

Rules: a fighter with two Sidearms may fire both in one Shoot action at one target, -1 to each hit roll
(../shared/rules/necromunda.md, §7.8). Until these revisions every twin Shoot had one score whatever its
target (the best single shot at -1, on a scale below any single Shoot), so a juve with two autopistols
fired one of them where both were worth more, and when a twin Shoot was played its target was the
tie-break's draw among all the targets the mask offers, out of range included."""
import pytest

from agents import GunlineAgent, SentryAgent
from necro_env.policies import heuristics as H
from necro_env.rulesets.necromunda.state import G_ACTIVE
from necro_env.testing import Action, board, kind_of
from tests.rules.scenario_helpers import make, u

OPEN = board("""
..............................
..............................
..............................
""")


def juve_position():
    """An Orlock juve with two autopistols, a Goliath ganger 3" east of it (short range: 4+ to hit with
    one autopistol, 5+ with each of two) and another 18" away (out of range, 12"), the juve activated."""
    g = make(u(0, "j", (2, 1), ["autopistol", "autopistol"], kind="juve", facing="E"),
             u(1, "near", (5, 0), ["autogun"], house="goliath", facing="W"),
             u(1, "far", (20, 2), ["autogun"], house="goliath", facing="W"), board_=OPEN, spares=False)
    g.activate("j")
    return g


@pytest.mark.parametrize("agent", [GunlineAgent, SentryAgent])
def test_two_sidearms_fire_together_at_the_target_in_range(agent):
    assert H.REVISIONS["gunline"] >= 4 and H.REVISIONS["sentry"] >= 6 and H.REVISIONS["aggressor"] >= 2
    g = juve_position()
    near = g.encode(Action("shoot_twin", target="near"))
    assert g.mask[0, near] and g.can("shoot_twin", target="far")  # the mask offers both
    a = agent(seed=0)
    shots = []
    for _ in range(2):  # the activation's two actions (the gunline Aims first)
        i = a.act(None, g.mask[0], game=g)
        if kind_of(g, i) in ("shoot", "shoot_twin"):
            shots.append(i)
        g.step(i)
        if g.state.g[0, G_ACTIVE] < 0:  # the activation has ended
            break
    assert shots and shots[0] == near


@pytest.mark.parametrize("seed", range(8))
def test_the_twin_target_is_not_the_tie_breaks_draw(seed):
    """Whatever the player's generator draws, the twin Shoot goes at the target it can hurt."""
    g = juve_position()
    g.act("aim")
    assert GunlineAgent(seed=seed).act(None, g.mask[0], game=g) == g.encode(Action("shoot_twin", target="near"))
