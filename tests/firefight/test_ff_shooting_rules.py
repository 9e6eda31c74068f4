"""Shooting (rules digest ../shared/rules/firefight.md §1, §5, §9 cover, §12.5-§12.6, §10 shooting rules).

Dice order of one weapon slot: the hit rolls of its models within 9" of the target, then of those
farther (Stealth, Relentless), then the Defense rolls of the ordinary hits, then of the natural-6 hits,
then Regeneration, then (when the whole activation is resolved) the wound-effect rolls.
"""
from ff_combat_setup import Scene, ccw, gun

from necro_env.rulesets.firefight import constants as C
from necro_env.rulesets.firefight import shooting
from necro_env.rulesets.firefight import state as ST
from necro_env.rulesets.firefight.combat_events import (
    E_BLAST, E_DEFENSE, E_DEFENSE_REROLL, E_HITS, E_REGENERATION, E_WOUND_EFFECT, WE_SHAKEN,
)


def _duel(shooter_kw=None, target_cells=((10, 20),), target_kw=None, weapon=None, dist_cells=None):
    sc = Scene()
    a = sc.unit(0, [(10, 10)], weapons=[weapon or gun(24, 1)], **(shooter_kw or {}))
    t = sc.unit(1, list(target_cells), **(target_kw or {}))
    sc.aim(a, 0, t)
    return sc, a, t


def _fire(sc, a):
    fired = shooting.resolve(sc.s, 0, a, sc.st)
    assert sc.spent(), "every scripted die must be rolled"
    return fired


def test_ff_hit_roll_quality_boundary_5_2():
    """§1 / §5.2: a hit needs D6 >= Quality: 4 hits at Quality 4+, 3 misses."""
    sc, a, t = _duel(shooter_kw=dict(quality=4), weapon=gun(24, 2), target_cells=[(10, 20), (11, 20), (12, 20)])
    sc.dice(4, 3, 1)  # hits: 4 yes, 3 no; Defense 1 fails
    _fire(sc, a)
    (h,) = sc.events(E_HITS)
    assert (h["dice"], h["hits"], h["need"]) == (2, 1, 4)
    assert sc.alive(t) == 2


def test_ff_natural_6_hits_with_minus_1_at_quality_6_1():
    """§1: a natural 6 always succeeds: Quality 6+ with Indirect's -1 after an Advance still hits on 6,
    and 5 (5 - 1 = 4 < 6) misses."""
    sc, a, t = _duel(shooter_kw=dict(rquality=6), weapon=gun(24, 2, rules=("Indirect",)),
                     target_cells=[(10, 20), (11, 20)])
    sc.s.u[0, a, ST.U_ACTION] = C.ACT_ADVANCE
    sc.dice(6, 5, 1)
    _fire(sc, a)
    (h,) = sc.events(E_HITS)
    assert (h["hits"], h["modifier"]) == (1, -1)
    assert sc.alive(t) == 1


def test_ff_natural_1_fails_defense_despite_cover_1():
    """§1: a natural 1 always fails: Defense 2+ in cover (+1) does not block a 1 (1 + 1 = 2 would)."""
    sc, a, t = _duel(target_kw=dict(defense=2), target_cells=[(10, 20), (11, 20)])
    sc.terrain([(10, 20), (11, 20)], C.TF_COVER)
    sc.dice(5, 1)
    _fire(sc, a)
    (d,) = sc.events(E_DEFENSE)
    assert (d["blocked"], d["modifier"]) == (0, 1)
    assert sc.alive(t) == 1


def test_ff_ap_lowers_defense_5_2():
    """§10 AP(X): -X to Defense rolls. A 5 blocks at Defense 5+ without AP and not with AP(1)."""
    for ap, alive in ((0, 2), (1, 1)):
        sc, a, t = _duel(weapon=gun(24, 1, ap=ap), target_cells=[(10, 20), (11, 20)])
        sc.dice(5, 5)
        _fire(sc, a)
        assert sc.alive(t) == alive, ap
        assert sc.events(E_DEFENSE)[0]["modifier"] == -ap


def test_ff_range_boundary_and_sight_5_1():
    """§5.1, §12.2: in range at 24" (centre distance 25 cells), not at 25"; a sight-blocking cell between
    stops the shot; Indirect fires over it (§10)."""
    sc = Scene()
    a = sc.unit(0, [(10, 10)], weapons=[gun(24, 1), gun(24, 1, rules=("Indirect",))])
    t24 = sc.unit(1, [(10, 35)])
    t25 = sc.unit(1, [(11, 36)])
    assert shooting.can_target(sc.s, 0, a, 0, t24, sc.st)
    assert not shooting.can_target(sc.s, 0, a, 0, t25, sc.st)
    sc.terrain([(10, 20)], C.TF_BLOCKS_SIGHT | C.TF_IMPASSABLE)
    assert not shooting.can_target(sc.s, 0, a, 0, t24, sc.st)
    assert shooting.can_target(sc.s, 0, a, 1, t24, sc.st)
    assert not shooting.can_target(sc.s, 0, a, 2, t24, sc.st)  # an empty slot
    assert not shooting.can_target(sc.s, 0, t24, 0, a, sc.st)  # no weapon


def test_ff_melee_weapon_and_friend_cannot_be_targets_5_1():
    sc = Scene()
    a = sc.unit(0, [(10, 10)], weapons=[ccw(2), gun(24, 1)])
    friend = sc.unit(0, [(12, 12)])
    foe = sc.unit(1, [(10, 14)])
    assert not shooting.can_target(sc.s, 0, a, 0, foe, sc.st)
    assert not shooting.can_target(sc.s, 0, a, 1, friend, sc.st)
    assert shooting.can_target(sc.s, 0, a, 1, foe, sc.st)


def test_ff_only_models_with_range_fire_5_1():
    """§5.1: a model fires when it has a target model in range and sight; the others do not."""
    sc = Scene()
    a = sc.unit(0, [(10, 10), (10, 8)], weapons=[gun(12, 1)])
    t = sc.unit(1, [(10, 23), (11, 23)])  # 12" from (10, 10), 14" from (10, 8)
    sc.aim(a, 0, t)
    sc.dice(2)  # one die: the hit misses
    _fire(sc, a)
    assert sc.events(E_HITS)[0]["dice"] == 1


def test_ff_at_most_two_targets_5_1():
    """§5.1: at most two distinct targets in one activation; a slot naming a third does not fire."""
    sc = Scene()
    a = sc.unit(0, [(10, 10)], weapons=[gun(24), gun(24), gun(24)])
    ts = [sc.unit(1, [(5 + 5 * i, 20)]) for i in range(3)]
    for k in range(3):
        sc.aim(a, k, ts[k])
    sc.dice(1, 1)
    assert _fire(sc, a) == 2
    assert [e["target"] for e in sc.events(E_HITS)] == ts[:2]
    assert (sc.s.w[0, a, :, ST.W_TARGET] == -1).all()


def test_ff_cover_more_than_half_of_the_models_9():
    """§9 / §13 Q21: +1 Defense when strictly more than half of the models are in cover: 2 of 3 yes,
    1 of 2 (exactly half) no."""
    for cells, covered, mod in ((((10, 20), (11, 20), (12, 20)), 2, 1), (((10, 20), (11, 20)), 1, 0)):
        sc, a, t = _duel(target_cells=cells)
        sc.terrain(list(cells)[:covered], C.TF_COVER)
        sc.dice(4, 3)
        _fire(sc, a)
        assert sc.events(E_DEFENSE)[0]["modifier"] == mod, cells


def test_ff_cover_behind_cover_piece_12_6():
    """§12.6 (b): a line from the closest shooting model that crosses a cover cell gives cover."""
    sc, a, t = _duel()
    sc.terrain([(10, 15)], C.TF_COVER)
    sc.dice(4, 4)
    _fire(sc, a)
    assert sc.events(E_DEFENSE)[0]["modifier"] == 1
    assert sc.alive(t) == 1 and not sc.shaken(t)


def test_ff_cover_from_the_closest_shooter_12_6():
    """§12.6 / §13 Q21: cover is judged from the shooting unit's model closest to the target model,
    even when that model cannot see it and another one shoots."""
    sc = Scene()
    a = sc.unit(0, [(10, 16), (14, 10)], weapons=[gun(24)])
    t = sc.unit(1, [(10, 20)])
    sc.terrain([(10, 18)], C.TF_BLOCKS_SIGHT | C.TF_IMPASSABLE)
    sc.aim(a, 0, t)
    sc.dice(4, 4)  # one model fires; its hit; a Defense 4 + 1 blocks
    _fire(sc, a)
    assert sc.events(E_HITS)[0]["dice"] == 1
    assert sc.events(E_DEFENSE)[0]["modifier"] == 1


def test_ff_blast_multiplies_capped_by_models_10():
    """§10 Blast(X) / §13 Q13: each hit x min(X, models in and within 3" of the target): Blast(3) on
    a 2-model unit makes 1 hit into 2."""
    sc, a, t = _duel(weapon=gun(24, 1, blast=3), target_cells=[(10, 20), (11, 20)])
    sc.dice(4, 6, 1)  # the hit; two Defense rolls: one blocks, one fails and kills a model
    _fire(sc, a)
    (bl,) = sc.events(E_BLAST)
    assert (bl["multiplier"], bl["hits"], bl["units"]) == (2, 2, 1)
    assert sc.events(E_DEFENSE)[0]["hits"] == 2
    assert sc.alive(t) == 1


def test_ff_blast_spreads_over_units_within_3_and_ignores_cover_10():
    """§10 Blast: the hits are split as evenly as possible over the enemy units within 3" of the target
    (the remainder to the target first), and cover does not count."""
    sc = Scene()
    a = sc.unit(0, [(10, 10)], weapons=[gun(24, 1, blast=3)])
    t = sc.unit(1, [(10, 20), (11, 20)])
    near = sc.unit(1, [(14, 20)])  # 2" from (11, 20)
    far = sc.unit(1, [(20, 20)])
    sc.terrain([(10, 20), (11, 20), (14, 20)], C.TF_COVER)
    sc.aim(a, 0, t)
    sc.dice(4, 6, 6, 6)  # the hit; Defense: target 2 hits, near 1 hit, all blocked
    _fire(sc, a)
    (bl,) = sc.events(E_BLAST)
    assert (bl["multiplier"], bl["units"]) == (3, 2)
    d = sc.events(E_DEFENSE)
    assert [(e["target"], e["hits"], e["modifier"]) for e in d] == [(t, 2, 0), (near, 1, 0)]
    assert far not in [e["target"] for e in d]


def test_ff_deadly_first_and_no_carry_over_13_q14():
    """§5.2 / §10 Deadly: Deadly weapons resolve first; a Deadly(3) wound kills one model of a
    multi-model unit and the rest does not carry over."""
    sc = Scene()
    a = sc.unit(0, [(10, 10)], weapons=[gun(24, 1), gun(24, 1, deadly=3)])
    t = sc.unit(1, [(10, 20), (11, 20), (12, 20)])
    sc.aim(a, 0, t)
    sc.aim(a, 1, t)
    sc.dice(4, 1, 4, 1)  # slot 1 (Deadly) first: hit, Defense fails; then slot 0: hit, fails
    _fire(sc, a)
    assert [e["slot"] for e in sc.events(E_HITS)] == [1, 0]
    assert sc.alive(t) == 1 and sc.markers(t) == 0


def test_ff_deadly_on_last_model_adds_x_markers_13_q14():
    """§13 Q14: on the last model a Deadly(3) wound is 3 markers: with Tough(3) it rolls at once."""
    sc, a, t = _duel(weapon=gun(24, 1, deadly=3), target_kw=dict(tough=3))
    sc.dice(4, 1, 1)  # hit, Defense fails, wound effect 1 + 3 = 4 < 8: Shaken
    _fire(sc, a)
    assert sc.markers(t) == 3 and sc.shaken(t)


def test_ff_stealth_minus_1_beyond_9_inches_10():
    """§10 Stealth: -1 to hit from more than 9" away: none at 9" (centre 10 cells), -1 at 10"."""
    for dy, mod in ((10, 0), (11, -1)):
        sc, a, t = _duel(target_cells=[(10, 10 + dy)], target_kw=dict(rules=("Stealth",)))
        sc.dice(2)
        _fire(sc, a)
        assert sc.events(E_HITS)[0]["modifier"] == mod, dy


def test_ff_relentless_extra_hit_beyond_9_inches_10():
    """§10 Relentless: a natural 6 scores one extra hit when shooting at more than 9"; not within 9"."""
    for dy, hits in ((10, 1), (11, 2)):
        sc, a, t = _duel(shooter_kw=dict(rules=("Relentless",)), target_cells=[(10, 10 + dy)])
        sc.dice(*([6] + [6] * hits))
        _fire(sc, a)
        assert sc.events(E_HITS)[0]["hits"] == hits, dy


def test_ff_surge_extra_hit_on_6_10():
    """§10 Surge: a natural 6 to hit scores one extra hit; a 5 does not."""
    sc, a, t = _duel(weapon=gun(24, 2, rules=("Surge",)), target_cells=[(10, 20), (11, 20), (12, 20), (13, 20)])
    sc.dice(6, 5, 6, 6, 6)
    _fire(sc, a)
    assert sc.events(E_HITS)[0]["hits"] == 3


def test_ff_rending_ap4_on_natural_6_only_10():
    """§10 Rending: natural 6s to hit get AP(4), other hits keep the weapon's AP; the extra hit of a 6
    is not a 6 (§5.2)."""
    sc, a, t = _duel(weapon=gun(24, 2, rules=("Rending",)), target_cells=[(10, 20), (11, 20), (12, 20)],
                     target_kw=dict(defense=2))
    sc.dice(6, 4, 6, 6)  # hits: a 6 and a 4; Defense of the 4: 6 blocks; of the 6: 6 blocks despite AP(4)
    _fire(sc, a)
    d = sc.events(E_DEFENSE)
    assert [(e["hits"], e["modifier"]) for e in d] == [(1, 0), (1, -4)]


def test_ff_bane_rerolls_defense_6_and_ignores_regeneration_10():
    """§10 Bane: the target re-rolls unmodified 6s on Defense (once), and Regeneration does not work."""
    sc, a, t = _duel(weapon=gun(24, 1, rules=("Bane",)), target_kw=dict(defense=5, rules=("Regeneration",)))
    sc.dice(4, 6, 2, 3)  # hit; Defense 6 re-rolled to 2: wound; no Regeneration die; wound effect 3+1: Shaken
    _fire(sc, a)
    assert sc.events(E_DEFENSE_REROLL)[0]["rerolled"] == 1
    assert not sc.events(E_REGENERATION)
    assert sc.shaken(t)


def test_ff_regeneration_ignores_wounds_on_5_10():
    """§10 Regeneration: a D6 per wound, 5+ ignores it; 4 does not."""
    for face, markers in ((5, 0), (4, 1)):
        sc, a, t = _duel(target_kw=dict(rules=("Regeneration",)))
        sc.dice(4, 1, face, *([1] if markers else []))
        _fire(sc, a)
        assert sc.markers(t) == markers, face


def test_ff_unstoppable_ignores_negative_modifiers_and_regeneration_10():
    """§10 Unstoppable: Stealth's -1 is dropped, and Regeneration does not work."""
    sc, a, t = _duel(weapon=gun(24, 1, rules=("Unstoppable",)), target_cells=[(10, 25)],
                     target_kw=dict(rules=("Stealth", "Regeneration")))
    sc.dice(4, 1, 2)
    _fire(sc, a)
    assert sc.events(E_HITS)[0]["modifier"] == 0
    assert not sc.events(E_REGENERATION) and sc.markers(t) == 1


def test_ff_reliable_hits_on_2_10():
    """§10 Reliable: Quality 2+ whatever the unit's Quality."""
    sc, a, t = _duel(shooter_kw=dict(quality=6), weapon=gun(24, 1, rules=("Reliable",)))
    sc.dice(2, 6)
    _fire(sc, a)
    assert sc.events(E_HITS)[0]["hits"] == 1 and sc.events(E_HITS)[0]["need"] == 2


def test_ff_indirect_ignores_sight_blocking_cover_not_cover_terrain_10():
    """§10 Indirect (the seed): fires without sight and ignores the cover sight-blocking pieces give;
    cover terrain still counts. No -1 after Hold (§13 Q22)."""
    sc, a, t = _duel(weapon=gun(48, 1, rules=("Indirect",)))
    sc.terrain([(10, 15)], C.TF_BLOCKS_SIGHT | C.TF_IMPASSABLE)
    sc.s.u[0, a, ST.U_ACTION] = C.ACT_HOLD
    sc.dice(4, 4, 3)
    _fire(sc, a)
    assert sc.events(E_HITS)[0]["modifier"] == 0
    assert sc.events(E_DEFENSE)[0]["modifier"] == 0
    sc2, a2, t2 = _duel(weapon=gun(48, 1, rules=("Indirect",)))
    sc2.terrain([(10, 20)], C.TF_COVER)
    sc2.dice(4, 4)
    _fire(sc2, a2)
    assert sc2.events(E_DEFENSE)[0]["modifier"] == 1


def test_ff_limited_weapon_fires_once_10():
    """§10 Limited: once per game; afterwards the mask refuses the slot."""
    sc, a, t = _duel(weapon=gun(24, 1, rules=("Limited",)), target_cells=[(10, 20), (11, 20)])
    assert shooting.can_target(sc.s, 0, a, 0, t, sc.st)
    sc.dice(2)
    _fire(sc, a)
    assert not shooting.can_target(sc.s, 0, a, 0, t, sc.st)
    sc.aim(a, 0, t)
    sc.dice()
    assert _fire(sc, a) == 0


def test_ff_one_wound_effect_roll_per_activation_13_q6():
    """§13 Q6: all of a unit's shooting in an activation is one batch: two wounds, one roll with 2 markers."""
    sc = Scene()
    a = sc.unit(0, [(10, 10)], weapons=[gun(24, 1), gun(24, 1)])
    t = sc.unit(1, [(10, 20)])
    sc.aim(a, 0, t)
    sc.aim(a, 1, t)
    sc.dice(4, 1, 4, 1, 3)  # two wounds; one roll: 3 + 2 = 5, Shaken
    _fire(sc, a)
    (we,) = sc.events(E_WOUND_EFFECT)
    assert (we["die"], we["total"], we["markers"], we["outcome"]) == (3, 5, 2, WE_SHAKEN)
    assert we["actor"] == a  # the attacker: the engine may offer it the push (§11.1)


def test_ff_without_board_data_the_board_is_open_5_1():
    """The engine's call without ``st``: every line clear, no cover (shooting.py docstring)."""
    sc, a, t = _duel()
    sc.terrain([(10, 15)], C.TF_BLOCKS_SIGHT | C.TF_IMPASSABLE)
    assert not shooting.can_target(sc.s, 0, a, 0, t, sc.st)
    assert shooting.can_target(sc.s, 0, a, 0, t)
    sc.dice(2)
    assert shooting.resolve(sc.s, 0, a) == 1


def test_ff_blast_then_deadly_on_separate_models_7_4():
    """§7.4: Blast(2) multiplies the hits, then each wound of Deadly(2) goes on one model: two wounds kill
    two models of a 3-model unit and nothing carries over to the third."""
    sc, a, t = _duel(weapon=gun(24, 1, blast=2, deadly=2), target_cells=[(10, 20), (11, 20), (12, 20)])
    sc.dice(4, 1, 1)  # the hit (x2); both Defense rolls fail
    _fire(sc, a)
    assert sc.events(E_BLAST)[0]["multiplier"] == 2
    assert sc.alive(t) == 1 and sc.markers(t) == 0


def test_ff_regeneration_rolls_per_wound_after_deadly_13_q30():
    """§13 Q30: Regeneration rolls for each wound after Deadly's multiplication: Deadly(3) on a
    Regeneration model is three dice; two 5+ leave one marker."""
    sc, a, t = _duel(weapon=gun(24, 1, deadly=3), target_kw=dict(rules=("Regeneration",)))
    sc.dice(4, 1, 5, 6, 2, 3)  # hit; Defense fails; Regeneration 5, 6, 2; wound effect 3 + 1: Shaken
    _fire(sc, a)
    (rg,) = sc.events(E_REGENERATION)
    assert (rg["dice"], rg["ignored"]) == (3, 2)
    assert sc.markers(t) == 1 and sc.shaken(t)


def _rows(game, kind):
    ev = game.state.ev[0, :int(game.state.g[0, ST.G_EVN])]
    return [[int(x) for x in r] for r in ev if int(r[ST.EV_KIND]) == kind]


def test_ff_engine_hold_shoots_through_combat_with_cover_5_1():
    """Through the engine (testing.scenario): a Hold with a target resolves here, with the board's cover:
    three Orcs behind a barricade row get +1, so two Defense 4s block at Defense 5+."""
    from necro_env.rulesets.firefight.testing import board, scenario, unit
    rows = ["." * 20] * 30
    rows[14] = "....bbbbb..........."
    g = scenario(board("\n".join(rows)),
                 [unit("human_defense_force", "infantry_squad", cells=[(5, 5), (6, 5), (7, 5)])],
                 [unit("orc_marauders", "orc_boyz", cells=[(5, 16), (6, 16), (7, 16)])])
    g.activate("Infantry Squad")
    g.act("action", action="hold")
    g.script_dice([5, 5, 1, 4, 4])  # Quality 5+: two hits; Defense 4 + 1, 4 + 1
    g.act("target", target=0)
    assert g.dice_left() == 0
    (h,) = _rows(g, E_HITS)
    (d,) = _rows(g, E_DEFENSE)
    assert (h[4], h[5]) == (3, 2) and (d[4], d[5], d[7]) == (2, 2, 1)
    assert g.models(1) == [(5, 16), (6, 16), (7, 16)]
