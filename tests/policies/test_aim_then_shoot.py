"""The shooting scripts Aim only when a shot can follow (necro_env/policies/heuristics.py, REVISIONS: gunline
3, sentry and ambusher 5 since session 38; docs/results.md, "The heavy weapons fire").

Rules: Shoot is a Basic action, a Double action with an Unwieldy weapon (../shared/rules/necromunda.md, §5
action table and §12 Unwieldy); a fighter has two actions, so after an Aim (Basic) its carrier cannot fire
the heavy stubber or the heavy bolter. And a Standing fighter may turn to any facing only before its first
action (§1.3), so a target out of its vision arc can be shot at once (the shot turns it) but not after an
Aim. Until these revisions the GUNLINE and the SENTRY scored the Aim by the best shot after it, counting
both, so they Aimed and then could not shoot (the gunline's heavy bolter fired no shot in 100 games against
the sentry; the sentry's Aims lost their target about once a game)."""
import pytest

from agents import GunlineAgent, SentryAgent
from necro_env.policies import heuristics as H
from necro_env.testing import board, kind_of
from tests.rules.scenario_helpers import make, u

OPEN = board("""
..............................
..............................
..............................
""")


def heavy_position(weapons, facing="E"):
    """An Orlock specialist with ``weapons`` facing ``facing``, 14" west of a Goliath ganger (out of its
    charge reach, in the heavy stubber's short range), activated."""
    g = make(u(0, "s", (2, 1), weapons, kind="specialist", facing=facing),
             u(1, "e", (16, 1), ["autogun"], house="goliath", facing="W"), board_=OPEN, spares=False)
    g.activate("s")
    return g


def first_action(g, agent):
    a = agent.act(None, g.mask[0], game=g)
    assert g.mask[0][a]
    return kind_of(g, a)


@pytest.mark.parametrize("agent", [GunlineAgent, SentryAgent])
def test_with_an_unwieldy_weapon_it_shoots_without_aiming(agent):
    assert H.REVISIONS["gunline"] >= 3 and H.REVISIONS["sentry"] >= 5 and H.REVISIONS["ambusher"] >= 5  # (39: 4, 7, 7)
    g = heavy_position(["heavy_stubber"])
    assert g.can("aim") and g.can("shoot", weapon=0, target="e")
    assert first_action(g, agent(seed=0)) == "shoot"
    st, f = g.static, g.fid("s")
    assert H.best_shot(g.state, st, 0, f, 1, 2, False) > 0.0 == H.best_shot(g.state, st, 0, f, 1, 1, False)


@pytest.mark.parametrize("agent", [GunlineAgent, SentryAgent])
def test_with_a_basic_weapon_it_still_aims_first(agent):
    """The same position with an autogun (Shoot a Basic action): Aim, then the shot."""
    g = heavy_position(["autogun"])
    a = agent(seed=0)
    assert first_action(g, a) == "aim"
    g.step(a.act(None, g.mask[0], game=g))
    assert first_action(g, a) == "shoot"


@pytest.mark.parametrize("agent", [GunlineAgent, SentryAgent])
def test_facing_away_from_its_target_it_shoots_without_aiming(agent):
    """Facing west, away from its only target: it may still shoot it (turning to it, before its first
    action), but an Aim would leave it facing away with no shot; so it shoots at once."""
    g = heavy_position(["autogun"], facing="W")
    assert g.can("aim") and g.can("shoot", weapon=0, target="e")
    assert first_action(g, agent(seed=0)) == "shoot"
    g2 = heavy_position(["autogun"], facing="W")
    g2.act("aim")
    assert not g2.can("shoot", weapon=0, target="e")  # the engine agrees: after the Aim, no turning
