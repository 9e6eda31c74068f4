"""The sentry values the shot an Aim is for as it will score that Shoot (necro_env/policies/heuristics.py,
REVISIONS: sentry and ambusher 7 since session 39; docs/results.md, "Twin sidearms at their target").

The sentry scores a Shoot by the shot's expected damage plus the worth of pinning an enemy that could
charge, less the friends in the stray-shot corridor (rules §7.5: a missed shot may hit a model under the
line of fire); a Shoot worth nothing that way is not taken. Until revision 7 its Aim, and its test of
whether it has a shot worth taking at all, used the expected damage alone: with its only shot past
its friends it Aimed for a Shoot it then did not take (29 of 304 Aims in session 38's count)."""
from agents import SentryAgent
from necro_env.policies import heuristics as H
from necro_env.testing import board, kind_of
from tests.rules.scenario_helpers import make, u

OPEN = board("""
..............................
..............................
..............................
""")


def through_a_friend(friends=True):
    """An Orlock juve with a stub gun 11" west of a Goliath ganger (long range; out of its charge reach),
    with (or without) two friends beside the line of fire near the juve, in its stray-shot corridor; the
    juve activated."""
    units = [u(0, "s", (2, 1), ["stub_gun"], kind="juve", facing="E"),
             u(1, "e", (13, 1), ["autogun"], house="goliath", facing="W")]
    if friends:
        units += [u(0, "f1", (4, 0), ["autogun"], facing="E"), u(0, "f2", (4, 2), ["autogun"], facing="E")]
    g = make(*units, board_=OPEN, spares=False)
    g.activate("s")
    return g


def test_with_its_only_shot_past_its_friends_it_neither_aims_nor_shoots():
    assert H.REVISIONS["sentry"] >= 7 and H.REVISIONS["ambusher"] >= 7
    g = through_a_friend()
    assert g.can("aim") and g.can("shoot", weapon=0, target="e")
    st, f = g.static, g.fid("s")
    assert H.best_shot(g.state, st, 0, f, 0, 2, False) > 0.0 >= H.best_shot(g.state, st, 0, f, 0, 2, True)
    a = SentryAgent(seed=0)
    assert kind_of(g, a.act(None, g.mask[0], game=g)) not in ("aim", "shoot")


def test_with_a_clear_line_of_fire_it_still_aims_and_shoots():
    g = through_a_friend(friends=False)
    a = SentryAgent(seed=0)
    assert kind_of(g, a.act(None, g.mask[0], game=g)) == "aim"
    g.step(a.act(None, g.mask[0], game=g))
    assert kind_of(g, a.act(None, g.mask[0], game=g)) == "shoot"
