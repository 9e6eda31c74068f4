"""Wounds, the wound-effect roll, Tough, multi-model casualties and falls (rules digest §7, §11.3, §12.3, §13).

``wounds.apply_wounds`` is the engine's entry for wounds without an attacker; its dice are Regeneration
(if any) then the wound-effect roll.
"""
from ff_combat_setup import Scene, gun

from necro_env.rulesets.firefight import constants as C
from necro_env.rulesets.firefight import shooting, wounds
from necro_env.rulesets.firefight import state as ST
from necro_env.rulesets.firefight.combat_events import (
    E_DESTROYED, E_REMOVED, E_SHAKEN, E_WOUND_EFFECT, RM_FALL, RM_KNOCKED_OUT, WE_KNOCKED_OUT, WE_NO_ROLL, WE_SHAKEN,
)


def _one(**kw):
    sc = Scene()
    return sc, sc.unit(1, [(20, 20)], **kw)


def test_ff_wound_effect_shaken_below_6_knocked_out_at_6_7_1():
    """§7.1: D6 + markers; 1-5 Shaken, 6 or more Knocked Out. One wound: a 4 (total 5) Shakes, a 5 (6) kills."""
    sc, u = _one()
    sc.dice(4)
    assert wounds.apply_wounds(sc.s, 0, u, 1, 0) == 0
    (we,) = sc.events(E_WOUND_EFFECT)
    assert (we["total"], we["outcome"], we["need"]) == (5, WE_SHAKEN, 6)
    assert sc.shaken(u) and sc.events(E_SHAKEN)
    sc2, u2 = _one()
    sc2.dice(5)
    assert wounds.apply_wounds(sc2.s, 0, u2, 1, 0) == 1
    assert sc2.state(u2) == C.US_DEAD and sc2.alive(u2) == 0
    assert sc2.events(E_DESTROYED)[0]["reason"] == RM_KNOCKED_OUT


def test_ff_shaken_adds_1_to_wound_effect_7_2():
    """§7.2: a Shaken unit gets +1: a 4 with one marker is 6 and Knocks Out."""
    sc, u = _one(shaken=True)
    sc.dice(4)
    assert wounds.apply_wounds(sc.s, 0, u, 1, 0) == 1
    assert sc.events(E_WOUND_EFFECT)[0]["total"] == 6


def test_ff_markers_stay_for_the_game_13_q7():
    """§13 Q7: markers stay; a second wound rolls with 2 markers."""
    sc, u = _one()
    sc.dice(1, 3)
    wounds.apply_wounds(sc.s, 0, u, 1, 0)
    sc.s.u[0, u, ST.U_SHAKEN] = 0  # an Idle activation in between cleared Shaken (§7.2)
    wounds.apply_wounds(sc.s, 0, u, 1, 0)
    assert [e["total"] for e in sc.events(E_WOUND_EFFECT)] == [2, 5]
    assert sc.markers(u) == 2


def test_ff_tough_rolls_from_x_markers_and_dies_on_5_plus_x_10():
    """§10 Tough(3): no roll below 3 markers; from 3 on, Knocked Out on 8+ (a 4 + 3 = 7 Shakes, 5 + 3 kills)."""
    sc, u = _one(tough=3)
    sc.dice()
    wounds.apply_wounds(sc.s, 0, u, 2, 0)
    assert sc.events(E_WOUND_EFFECT)[0]["outcome"] == WE_NO_ROLL and not sc.shaken(u)
    sc.dice(4)
    wounds.apply_wounds(sc.s, 0, u, 1, 0)
    we = sc.events(E_WOUND_EFFECT)[-1]
    assert (we["total"], we["need"], we["outcome"]) == (7, 8, WE_SHAKEN)
    sc3, u3 = _one(tough=3)
    sc3.dice(5)
    assert wounds.apply_wounds(sc3.s, 0, u3, 3, 0) == 1


def test_ff_multi_model_each_wound_kills_until_one_left_7_3():
    """§7.3: each wound kills a model until one is left; only the last takes markers and rolls."""
    sc = Scene()
    u = sc.unit(1, [(20, 20), (21, 20), (22, 20)], tough=3)  # Tough does nothing to the non-last models (§13 Q15)
    sc.dice()
    assert wounds.apply_wounds(sc.s, 0, u, 3, 0) == 2
    assert sc.alive(u) == 1 and sc.markers(u) == 1
    assert sc.events(E_WOUND_EFFECT)[0]["outcome"] == WE_NO_ROLL


def test_ff_casualty_farthest_from_attacker_keeping_coherency_12_3():
    """§12.3 default: the model farthest from the attacker dies, unless its removal breaks coherency
    (§4.1); then the farthest of those whose removal keeps it."""
    sc = Scene()
    a = sc.unit(0, [(20, 10)], weapons=[gun(24, 1)])
    t = sc.unit(1, [(20, 20), (20, 21), (20, 22)])
    sc.aim(a, 0, t)
    sc.dice(4, 1)
    shooting.resolve(sc.s, 0, a, sc.st)
    assert sc.models(t) == [(20, 20), (20, 21)]
    # from (15, 11): (20, 21) is farthest (d2 125) but it links (18, 21) and (21, 20), which are 10 apart
    # (more than 1"); (21, 20) (d2 117) is the farthest whose removal keeps the unit coherent
    sc2 = Scene()
    a2 = sc2.unit(0, [(15, 11)], weapons=[gun(24, 1)])
    t2 = sc2.unit(1, [(18, 21), (20, 21), (21, 20)])
    sc2.aim(a2, 0, t2)
    sc2.dice(4, 1)
    shooting.resolve(sc2.s, 0, a2, sc2.st)
    assert sc2.models(t2) == [(18, 21), (20, 21)]


def test_ff_casualty_without_attacker_last_slot_keeping_coherency_12_3():
    """Wounds without an attacker (terrain, falls) kill the last model in slot order whose removal keeps
    coherency: slot 2 at (20, 22) links the two others (4 apart), so slot 1 dies."""
    sc = Scene()
    u = sc.unit(1, [(20, 20), (20, 24), (20, 22)])
    sc.dice()
    assert wounds.apply_wounds(sc.s, 0, u, 1, 0) == 1
    assert sc.models(u) == [(20, 20), (20, 22)]


def test_ff_fall_kills_a_model_of_a_group_outright_11_3():
    """§11.3: in a multi-model unit the falling model dies outright; the last model takes 1 hit with AP."""
    sc = Scene()
    u = sc.unit(1, [(20, 20), (21, 20)], defense=4)
    sc.dice()
    assert wounds.fall(sc.s, 0, u, 1, 1) == 1
    assert sc.models(u) == [(20, 20)] and sc.events(E_REMOVED)[0]["reason"] == RM_FALL
    sc.dice(4, 2)  # Defense 4 - AP(1) = 3 < 4 fails; wound effect 2 + 1 = 3: Shaken
    assert wounds.fall(sc.s, 0, u, 0, 1) == 0
    assert sc.shaken(u) and sc.markers(u) == 1


def test_ff_apply_wounds_ignores_ap_and_wounds_destroyed_unit_not_7():
    """Wounds to a unit no longer on the table change nothing."""
    sc, u = _one()
    sc.dice(6)
    wounds.apply_wounds(sc.s, 0, u, 1, 0)
    assert sc.state(u) == C.US_DEAD
    sc.dice()
    assert wounds.apply_wounds(sc.s, 0, u, 2, 3) == 0
    assert [e["outcome"] for e in sc.events(E_WOUND_EFFECT)] == [WE_KNOCKED_OUT]
