"""Melee resolution (rules digest §6 steps 3-7, §10 Impact, Counter, Furious, Thrust, Fear; §13 Q12, Q16, Q17).

Dice order of ``charge_attacks``: the charged unit's Counter strike (hits, Defense, its wound-effect
roll), then the charger: Deadly weapons, Impact dice, other weapons (hits then Defense per weapon),
then the wound-effect roll.
"""
from ff_combat_setup import Scene, ccw

from necro_env.rulesets.firefight import constants as C
from necro_env.rulesets.firefight import melee
from necro_env.rulesets.firefight import state as ST
from necro_env.rulesets.firefight.combat_events import (
    E_COUNTER, E_DEFENSE, E_FATIGUED, E_HITS, E_IMPACT, E_WOUND_EFFECT, WE_KNOCKED_OUT,
)


def _pair(att_cell=(10, 10), dfd_cell=(11, 10), att_kw=None, dfd_kw=None, att_w=None, dfd_w=None):
    sc = Scene()
    a = sc.unit(0, [att_cell], weapons=[att_w or ccw(1)], **(att_kw or {}))
    d = sc.unit(1, [dfd_cell], weapons=[dfd_w or ccw(1)], **(dfd_kw or {}))
    return sc, a, d


def _charge(sc, a, d):
    melee.charge_attacks(sc.s, 0, a, d)
    assert sc.spent(), "every scripted die must be rolled"


def test_ff_melee_reach_2_inches_at_2_and_3_6():
    """§6 step 4 / §12.7: a model 2" from an enemy (centre distance 3 cells) attacks; at 3" it does not."""
    sc, a, d = _pair(dfd_cell=(13, 10))
    sc.dice(2)
    _charge(sc, a, d)
    assert sc.events(E_HITS)[0]["dice"] == 1
    sc2, a2, d2 = _pair(dfd_cell=(14, 10))
    sc2.dice()
    _charge(sc2, a2, d2)
    assert not sc2.events(E_HITS)
    assert not melee.can_strike_back(sc2.s, 0, d2, a2)


def test_ff_melee_reach_4_inches_vertically_6():
    """§6 step 4 (the seed: «2" w poziomie i 4" w pionie»): 4" of height difference is in reach, 5" is not."""
    for z, dice in ((4, 1), (5, 0)):
        sc, a, d = _pair()
        sc.s.m[0, d, 0, ST.M_Z] = z
        sc.dice(*([2] * dice))
        _charge(sc, a, d)
        assert len(sc.events(E_HITS)) == dice, z


def test_ff_melee_defense_has_no_cover_6():
    """§6 step 4: cover applies to shooting only."""
    sc, a, d = _pair()
    sc.terrain([(11, 10)], C.TF_COVER)
    sc.dice(4, 6)
    _charge(sc, a, d)
    assert sc.events(E_DEFENSE)[0]["modifier"] == 0


def test_ff_only_models_in_reach_attack_6():
    """§6 step 4: models of the charging unit within 2" attack, the others do not."""
    sc = Scene()
    a = sc.unit(0, [(10, 10), (10, 9), (10, 6)], weapons=[ccw(2)])
    d = sc.unit(1, [(10, 12), (11, 12)], weapons=[ccw(1)])
    sc.dice(1, 1, 1, 1)  # (10, 10) and (10, 9) are in reach, (10, 6) is 5" away: 2 models x 2 attacks
    _charge(sc, a, d)
    assert sc.events(E_HITS)[0]["dice"] == 4


def test_ff_impact_hits_on_2_plus_10():
    """§10 Impact(2): 2 dice per charging model in reach, each 2+ a hit; they join the charger's batch."""
    sc, a, d = _pair(att_kw=dict(impact=2), dfd_kw=dict(defense=6))
    sc.dice(2, 1, 5, 1, 3)  # Impact 2 and 1: one hit, Defense 5 fails; ccw 1 misses; wound effect 3 + 1
    _charge(sc, a, d)
    (im,) = sc.events(E_IMPACT)
    assert (im["dice"], im["hits"]) == (2, 1)
    assert len(sc.events(E_WOUND_EFFECT)) == 1 and sc.shaken(d)


def test_ff_fatigued_charger_rolls_no_impact_and_hits_only_on_6_6_7():
    """§6 step 7: a fatigued unit rolls no Impact and hits only on unmodified 6s, even with Reliable (2+)."""
    sc, a, d = _pair(att_kw=dict(impact=2), att_w=ccw(2, rules=("Reliable",)))
    sc.s.u[0, a, ST.U_FATIGUED] = 1
    sc.dice(5, 6, 6)  # 5 misses, 6 hits; Defense 6 blocks
    _charge(sc, a, d)
    assert not sc.events(E_IMPACT)
    h = sc.events(E_HITS)[0]
    assert (h["hits"], h["need"]) == (1, 6)


def test_ff_counter_strikes_first_and_cancels_impact_dice_10():
    """§10 Counter: the charged unit strikes first with its Counter weapon, and the charger rolls one
    Impact die fewer per model with Counter (§13 Q17)."""
    sc, a, d = _pair(att_kw=dict(impact=1), dfd_w=ccw(1, rules=("Counter",)))
    sc.dice(2, 2)  # Counter: misses; charger: Impact 0 dice; ccw misses
    _charge(sc, a, d)
    assert sc.events(E_COUNTER)
    assert [e["actor"] for e in sc.events(E_HITS)] == [d, a]
    (im,) = sc.events(E_IMPACT)
    assert (im["dice"], im["counter_dice"]) == (0, 1)
    assert not melee.can_strike_back(sc.s, 0, d, a)  # its only weapon has struck


def test_ff_counter_can_kill_the_charger_before_it_attacks_10():
    sc, a, d = _pair(dfd_w=ccw(1, rules=("Counter",)))
    sc.dice(4, 1, 6)  # Counter hits, Defense fails, wound effect 6 + 1: Knocked Out
    _charge(sc, a, d)
    assert sc.state(a) == C.US_DEAD
    assert [e["actor"] for e in sc.events(E_HITS)] == [d]
    assert melee.aftermath(sc.s, 0, a, d) == melee.AM_DEFENDER_FREE


def test_ff_charger_shaken_by_counter_attacks_as_fatigued_13_1():
    """§13.1 open question, our reading: a charger Shaken by a Counter strike attacks as fatigued."""
    sc, a, d = _pair(dfd_w=ccw(1, rules=("Counter",)))
    sc.dice(4, 1, 1, 5)  # Counter wound; wound effect 1 + 1: Shaken; charger's 5 misses (6s only)
    _charge(sc, a, d)
    assert sc.shaken(a)
    assert sc.events(E_HITS)[1]["need"] == 6


def test_ff_strike_back_then_fatigue_6_5_6_7():
    """§6 steps 5 and 7: the charged unit may strike back and is fatigued after; the charger is fatigued
    by the aftermath, not during its own melee (§13 Q12)."""
    sc, a, d = _pair()
    sc.dice(4, 6)
    _charge(sc, a, d)
    assert sc.col(a, ST.U_FATIGUED) == 0
    assert melee.can_strike_back(sc.s, 0, d, a)
    sc.dice(4, 6)  # the strike-back's hit (Quality 4+: not fatigued yet), Defense 6
    melee.strike_back(sc.s, 0, d, a)
    assert sc.spent() and sc.col(d, ST.U_FATIGUED) == 1 and sc.col(d, ST.U_STRUCK) == 1
    assert sc.events(E_HITS)[-1]["need"] == 4
    assert melee.aftermath(sc.s, 0, a, d) == melee.AM_ATTACKER_BACK
    assert sc.col(a, ST.U_FATIGUED) == 1
    assert [e["why"] for e in sc.events(E_FATIGUED)] == [melee.FATIGUE_STRUCK, melee.FATIGUE_CHARGED]


def test_ff_shaken_defender_strikes_back_as_fatigued_7_2():
    sc, a, d = _pair(dfd_kw=dict(shaken=True))
    sc.dice(2)
    _charge(sc, a, d)
    assert melee.can_strike_back(sc.s, 0, d, a)
    sc.dice(5)
    melee.strike_back(sc.s, 0, d, a)
    assert sc.events(E_HITS)[-1]["need"] == 6 and sc.events(E_HITS)[-1]["hits"] == 0


def test_ff_aftermath_codes_6():
    """§6 step 6: the codes the engine moves by (melee.py docstring)."""
    sc, a, d = _pair()
    assert melee.aftermath(sc.s, 0, a, d) == melee.AM_ATTACKER_BACK
    sc.dice(6, 1, 6)  # the charger kills the defender: hit, Defense 1, wound effect 6 + 1
    _charge(sc, a, d)
    assert melee.aftermath(sc.s, 0, a, d) == melee.AM_ATTACKER_FREE
    sc.s.u[0, a, ST.U_STATE] = C.US_DEAD
    assert melee.aftermath(sc.s, 0, a, d) == melee.AM_BOTH_DESTROYED
    assert not melee.can_strike_back(sc.s, 0, d, a)


def test_ff_furious_extra_hit_when_charging_only_10():
    """§10 Furious: when charging, a natural 6 to hit scores an extra hit; not when striking back."""
    sc, a, d = _pair(att_kw=dict(rules=("Furious",)), dfd_kw=dict(rules=("Furious",)))
    sc.dice(6, 6, 6)
    _charge(sc, a, d)
    assert sc.events(E_HITS)[0]["hits"] == 2
    sc.dice(6, 6)
    melee.strike_back(sc.s, 0, d, a)
    assert sc.events(E_HITS)[-1]["hits"] == 1


def test_ff_thrust_plus_1_to_hit_and_ap_when_charging_10():
    """§10 Thrust: when charging +1 to hit and AP(+1) in melee: a 3 hits at Quality 4+, Defense 5 fails."""
    sc, a, d = _pair(att_kw=dict(rules=("Thrust",)), dfd_kw=dict(defense=5))
    sc.dice(3, 5, 2)
    _charge(sc, a, d)
    h, df = sc.events(E_HITS)[0], sc.events(E_DEFENSE)[0]
    assert (h["hits"], h["modifier"], df["modifier"], df["blocked"]) == (1, 1, -1, 0)


def test_ff_fear_adds_to_the_wound_effect_roll_in_melee_10():
    """§10 Fear(2) / §13 Q16: +2 to the wound-effect roll of a unit it wounded in melee: 3 + 1 + 2 = 6 kills."""
    sc, a, d = _pair(att_kw=dict(fear=2))
    sc.dice(4, 1, 3)
    _charge(sc, a, d)
    we = sc.events(E_WOUND_EFFECT)[0]
    assert (we["total"], we["outcome"]) == (6, WE_KNOCKED_OUT)


def test_ff_melee_deadly_weapon_first_10():
    """§10 Deadly: Deadly hits resolve before the others, in melee too."""
    sc = Scene()
    a = sc.unit(0, [(10, 10)], weapons=[ccw(1), ccw(1, deadly=2)])
    d = sc.unit(1, [(11, 10)], weapons=[ccw(1)])
    sc.dice(2, 2)
    _charge(sc, a, d)
    assert [e["slot"] for e in sc.events(E_HITS)] == [1, 0]


def test_ff_engine_charge_impact_strike_back_and_fatigue_6():
    """Through the engine (testing.scenario): an Orc Biker (Impact(1), CCW A2) charges three Infantry; the
    Impact hit kills the model farthest from it that keeps the squad coherent (§12.3); the defender's side
    decides the strike-back; both units end fatigued (§6 step 7)."""
    from necro_env.rulesets.firefight.testing import board, scenario, unit
    g = scenario(board("\n".join(["." * 20] * 30)), [unit("orc_marauders", "orc_biker", cells=[(5, 10)])],
                 [unit("human_defense_force", "infantry_squad", cells=[(5, 18), (6, 18), (7, 18)])])
    g.activate("Orc Biker")
    g.act("action", action="charge")
    g.script_dice([2, 2, 1, 1])  # Impact(1): a 2 hits; Defense 2 fails; CCW A2: 1, 1 miss
    g.act("target", target=0)
    assert g.decision == ("strike_back", 1) and g.dice_left() == 0
    assert len(g.models(1)) == 2
    g.script_dice([3, 3])  # two Infantry in reach strike back with CCW A1 at Quality 5+: both miss
    g.act("strike_back", choice=True)
    assert g.dice_left() == 0
    s = g.state
    assert s.u[0, 0, ST.U_FATIGUED] == 1 and s.u[0, 1, ST.U_FATIGUED] == 1
