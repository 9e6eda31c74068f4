"""Morale at the end of the round (rules digest §8, §7.2, §10 Hero and Fearless, §13 Q9, Q23, §13.1).

``end_of_round`` rolls one die per testing unit on the table in slot order (none for a Shaken unit),
and a Fearless unit's die right after its failure.
"""
from ff_combat_setup import Scene

from necro_env.rulesets.firefight import constants as C
from necro_env.rulesets.firefight import morale
from necro_env.rulesets.firefight import state as ST
from necro_env.rulesets.firefight.combat_events import (
    E_DESTROYED, E_FEARLESS, E_MORALE, E_MORALE_CHECK, E_SHAKEN_CLEARED, MO_FEARLESS, MO_PASSED, MO_ROUTED, MO_SHAKEN,
    RM_ROUTED,
)


def _kill(sc, u):
    sc.s.u[0, u, ST.U_STATE] = C.US_DEAD
    sc.s.u[0, u, ST.U_N] = 0
    sc.s.m[0, u, :, ST.M_ALIVE] = 0


def _army(start, lost, **kw):
    """Side 1 with ``start`` one-model units in a column 2" apart, the first ``lost`` of them destroyed;
    side 0 one unit far away. Returns (scene, side 1's units still standing)."""
    sc = Scene()
    sc.unit(0, [(40, 40)])
    units = [sc.unit(1, [(10, 4 + 3 * i)], **kw) for i in range(start)]
    for u in units[:lost]:
        _kill(sc, u)
    return sc, units[lost:]


def _end(sc):
    morale.end_of_round(sc.s, 0)
    assert sc.spent(), "every scripted die must be rolled"


def test_ff_no_test_above_half_test_at_exactly_half_8():
    """§8 / §13.1: an army tests when no more than half of its starting units are left: 2 of 3 left, no
    test; 2 of 4 left (exactly half), every unit tests."""
    sc, left = _army(3, 1)
    sc.dice()
    _end(sc)
    assert sc.events(E_MORALE_CHECK)[1]["tests"] == 0 and not sc.events(E_MORALE)
    sc, left = _army(4, 2, quality=4)
    sc.dice(4, 3)  # the first passes, the second fails
    _end(sc)
    assert sc.events(E_MORALE_CHECK)[1]["tests"] == 1
    assert [e["outcome"] for e in sc.events(E_MORALE)] == [MO_PASSED, MO_SHAKEN]
    assert not sc.shaken(left[0]) and sc.shaken(left[1])
    assert sc.events(E_MORALE_CHECK)[0]["tests"] == 0  # side 0 lost nothing


def test_ff_shaken_unit_fails_without_a_roll_and_routs_8():
    """§7.2 / §8: a Shaken unit fails automatically (no die) and is routed: removed, counted as destroyed."""
    sc, left = _army(2, 1, shaken=True)
    sc.dice()
    _end(sc)
    (mo,) = sc.events(E_MORALE)
    assert (mo["die"], mo["outcome"]) == (0, MO_ROUTED)
    assert sc.state(left[0]) == C.US_ROUTED and sc.alive(left[0]) == 0
    assert sc.events(E_DESTROYED)[0]["reason"] == RM_ROUTED


def test_ff_hero_quality_within_12_inches_8():
    """§8 / §10 Hero: a friendly hero within 12" lends its Quality; at 13" it does not."""
    for hero_y, outcome in ((17, MO_PASSED), (18, MO_SHAKEN)):
        sc = Scene()
        sc.unit(0, [(40, 40)])
        dead = sc.unit(1, [(30, 30)])
        dead2 = sc.unit(1, [(32, 30)])
        u = sc.unit(1, [(10, 4)], quality=5)
        hero = sc.unit(1, [(10, hero_y)], quality=3, rules=("Hero",))
        _kill(sc, dead)
        _kill(sc, dead2)
        sc.dice(3, 6)  # u rolls 3 (passes only at 3+); the hero rolls 6
        _end(sc)
        mo = sc.events(E_MORALE)[0]
        assert (mo["actor"], mo["outcome"]) == (u, outcome), hero_y
        assert mo["hero"] == (hero if outcome == MO_PASSED else -1)


def test_ff_shaken_hero_does_not_help_8():
    """§10 Hero: "unless the hero is Shaken"."""
    sc = Scene()
    sc.unit(0, [(40, 40)])
    dead = sc.unit(1, [(30, 30)])
    dead2 = sc.unit(1, [(32, 30)])
    u = sc.unit(1, [(10, 4)], quality=5)
    sc.unit(1, [(10, 8)], quality=3, rules=("Hero",), shaken=True)
    _kill(sc, dead)
    _kill(sc, dead2)
    sc.dice(3)  # u fails at 5+; the Shaken hero routs without a die
    _end(sc)
    assert [e["outcome"] for e in sc.events(E_MORALE)] == [MO_SHAKEN, MO_ROUTED]
    assert sc.shaken(u)


def test_ff_fearless_saves_on_4_even_an_automatic_failure_13_q9():
    """§10 Fearless / §13 Q9: after a failed test a D6 4+ passes it, also for a Shaken unit; 3 does not."""
    sc, left = _army(2, 1, rules=("Fearless",), shaken=True)
    sc.dice(4)
    _end(sc)
    assert sc.events(E_MORALE)[0]["outcome"] == MO_FEARLESS and sc.state(left[0]) == C.US_ON
    sc, left = _army(2, 1, rules=("Fearless",), quality=4)
    sc.dice(2, 3)
    _end(sc)
    assert sc.events(E_FEARLESS)[0]["saved"] == 0 and sc.shaken(left[0])


def test_ff_ambush_reserve_counts_as_in_play_and_does_not_test_13_q23():
    """§13 Q23: a unit waiting in Ambush counts for the army's total and does not test."""
    sc, left = _army(4, 2)
    sc.s.u[0, left[1], ST.U_STATE] = C.US_AMBUSH
    sc.dice(4)
    _end(sc)
    assert len(sc.events(E_MORALE)) == 1 and sc.events(E_MORALE_CHECK)[1]["units_left"] == 2
    sc, left = _army(4, 1)
    sc.s.u[0, left[2], ST.U_STATE] = C.US_AMBUSH
    sc.dice()
    _end(sc)
    assert not sc.events(E_MORALE)


def test_ff_clear_shaken_after_idle_activation_7_2():
    """§7.2: a spent (Idle) activation clears Shaken; the engine calls ``clear_shaken``."""
    sc, left = _army(1, 0, shaken=True)
    morale.clear_shaken(sc.s, 0, left[0])
    assert not sc.shaken(left[0]) and sc.events(E_SHAKEN_CLEARED)
