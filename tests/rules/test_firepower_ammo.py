"""Firepower dice and ammunition (rules digest 7.6) and Rapid Fire (7.7).

Firepower faces (dice.py): 1-5 show 1, 1, 2, 2, 3 bullet holes; 6 is the Ammo symbol
with 1 hole. Each Firepower die is followed at once by its Ammo test when it shows
the Ammo symbol.
"""
import pytest

from necro_env.rulesets.necromunda import constants as C
from necro_env.testing import IllegalActionError, board, fighter, gang, scenario

ROW = """
........
........
"""


def setup(weapons, *, out_of_ammo=(), target_cell=(5, 0), posture="standing", enemies=()):
    """Orlock ganger (BS 4+) at (0, 0) facing east; an unarmoured Orlock ganger with 6 Wounds
    (so several hits cause no Injury dice) at target_cell."""
    a = [fighter("orlock", "ganger", list(weapons), name="shooter")]
    b = [fighter("orlock", "ganger", ["fighting_knife"], name="target", armour="none", w=6)]
    where = [dict(fighter="shooter", cell=(0, 0), facing="E", out_of_ammo=list(out_of_ammo), posture=posture),
             dict(fighter="target", cell=target_cell)]
    for name, cell in enemies:
        b.append(fighter("orlock", "ganger", ["fighting_knife"], name=name, armour="none", w=6))
        where.append(dict(fighter=name, cell=cell))
    game = scenario(board(ROW), [gang("a", *a), gang("b", *b)], where)
    return game


def patch(game, weapon, profile, traits_add=0, **cols):
    """Give one weapon profile different data for this game only (for traits no weapon in
    configs/weapons.yaml has)."""
    wp = game.static.wprof.copy()
    wid = game.weapons.index[weapon]
    wp[wid, profile, C.PF_TRAITS] |= traits_add
    for k, v in cols.items():
        wp[wid, profile, getattr(C, k)] = v
    game.static = game.static._replace(wprof=wp)



# ---------------------------------------------------------------- the Firepower dice (7.6)
def test_firepower_die_rolled_even_on_a_miss():
    """§7.6 every ranged attack rolls a Firepower dice, hit or miss, with or without Rapid Fire."""
    game = setup(["lasgun"])
    game.activate("shooter")
    game.script_dice([2, 3])
    game.act("shoot", weapon=0, target="target")
    assert [e.fields for e in game.events("firepower")] == [{"face": 3, "holes": 2, "ammo_symbol": 0}]
    assert game.events("ammo") == []
    assert game.dice_left() == 0


def test_dice_order_hit_then_firepower_then_wounds():
    """§7.1/§7.6 the Firepower dice is rolled with the attack, before its hits are resolved."""
    game = setup(["lasgun"])
    game.activate("shooter")
    game.script_dice([5, 1, 1])
    game.act("shoot", weapon=0, target="target")
    k = [e.kind for e in game.events() if e.kind in ("hit", "firepower", "wound")]
    assert k == ["hit", "firepower", "wound"]


def test_ammo_symbol_passed_ammo_test_changes_nothing():
    """§7.6 Ammo symbol: Ammo test (D6 >= Ammo); a pass has no effect."""
    game = setup(["autopistol"])
    game.activate("shooter")
    game.script_dice([5, 6, 4, 1])  # hit, Ammo symbol, Ammo test 4 (needs 4+), wound 1
    game.act("shoot", weapon=0, target="target")
    assert game.events("ammo")[0].fields == {"roll": 4, "need": 4, "passed": 1, "slot": 0}
    assert game.fighter("shooter")["out_of_ammo"] == []


def test_failed_ammo_test_makes_weapon_out_of_ammo_but_the_attack_resolves():
    """§7.6 a failed Ammo test puts the weapon Out of Ammo; the attack that caused it is
    still resolved normally (the Ammo symbol is not a miss)."""
    game = setup(["bolt_pistol", "laspistol"])
    game.activate("shooter")
    game.script_dice([5, 6, 5, 1])  # hit, Ammo symbol, Ammo test 5 fails (6+), wound roll 1
    game.act("shoot", weapon=0, target="target")
    assert game.events("ammo")[0].fields["passed"] == 0
    assert len(game.events("wound")) == 1
    assert game.fighter("target")["posture"] == "pinned"
    assert game.fighter("shooter")["out_of_ammo"] == [0]


def test_out_of_ammo_weapon_cannot_shoot():
    """§7.6 an Out of Ammo weapon cannot be used until reloaded; other weapons still can."""
    game = setup(["bolt_pistol", "laspistol"], out_of_ammo=[0])
    game.activate("shooter")
    assert not game.can("shoot", weapon=0, target="target")
    with pytest.raises(IllegalActionError):
        game.act("shoot", weapon=0, target="target")
    assert game.can("shoot", weapon=1, target="target")
    assert game.can("reload", weapon=0) and not game.can("reload", weapon=1)


# ---------------------------------------------------------------- Reload (5.2, 7.6)
@pytest.mark.parametrize("roll,passed", [(6, 1), (5, 0)])
def test_reload_makes_an_ammo_test(roll, passed):
    """§5.2 Reload (Simple): an Ammo test; a pass removes Out of Ammo."""
    game = setup(["bolt_pistol"], out_of_ammo=[0])
    game.activate("shooter")
    game.script_dice([roll])
    game.act("reload", weapon=0)
    assert game.events("reload")[0].fields == {"slot": 0, "roll": roll, "passed": passed}
    assert game.fighter("shooter")["out_of_ammo"] == ([] if passed else [0])
    assert game.dice_left() == 0


def test_reload_is_simple_and_can_be_repeated_then_shoot():
    """§5.1 Simple actions may be repeated: a failed Reload can be tried again; a Reload
    followed by Shoot is also fine."""
    game = setup(["bolt_pistol"], out_of_ammo=[0])
    game.activate("shooter")
    game.script_dice([2, 6])
    game.act("reload", weapon=0)
    game.act("reload", weapon=0)
    assert game.fighter("shooter")["out_of_ammo"] == []
    game2 = setup(["bolt_pistol"], out_of_ammo=[0])
    game2.activate("shooter")
    game2.script_dice([6, 2, 1])
    game2.act("reload", weapon=0)
    game2.act("shoot", weapon=0, target="target")
    assert len(game2.events("hit")) == 1


def test_prone_pinned_fighter_may_reload():
    """§5.2 Reload is open to Standing and Active and to Prone and Pinned fighters."""
    game = setup(["bolt_pistol"], out_of_ammo=[0], posture="pinned")
    game.activate("shooter")
    game.script_dice([6])
    game.act("reload", weapon=0)
    assert game.fighter("shooter")["out_of_ammo"] == []


def test_plentiful_weapon_reloads_without_a_roll():
    """§7.6 Plentiful: the reload succeeds automatically (no die is rolled)."""
    game = setup(["lasgun"], out_of_ammo=[0])
    game.activate("shooter")
    game.script_dice([])
    game.act("reload", weapon=0)
    assert game.events("reload")[0].fields == {"slot": 0, "roll": 0, "passed": 1}
    assert game.fighter("shooter")["out_of_ammo"] == []


def test_scarce_weapon_that_runs_out_cannot_be_reloaded():
    """§7.6/§12 Scarce: once Out of Ammo the weapon is done for the battle."""
    game = setup(["meltagun"])
    game.activate("shooter")
    game.script_dice([2, 6, 3])  # miss, Ammo symbol, Ammo test 3 fails (4+)
    game.act("shoot", weapon=0, target="target")
    assert game.fighter("shooter")["out_of_ammo"] == [0]
    assert not game.can("reload", weapon=0)
    with pytest.raises(IllegalActionError):
        game.act("reload", weapon=0)


def test_scarce_weapon_placed_out_of_ammo_cannot_be_reloaded():
    """§12 Scarce weapons cannot be reloaded at all, however they ran out."""
    game = setup(["plasma_pistol", "laspistol"], out_of_ammo=[0])
    game.activate("shooter")
    assert not game.can("reload", weapon=0)
    assert not game.can("shoot", weapon=0, target="target", profile=0)
    assert not game.can("shoot", weapon=0, target="target", profile=1)


def test_multiple_profiles_share_out_of_ammo():
    """§7.6 when one profile fails its Ammo test the whole weapon (every profile) is Out of Ammo."""
    game = setup(["shotgun"], target_cell=(3, 0))
    game.activate("shooter")
    game.script_dice([2, 6, 1])  # solid: miss, Ammo symbol, Ammo test 1 fails
    game.act("shoot", weapon=0, profile=0, target="target")
    assert game.fighter("shooter")["out_of_ammo"] == [0]
    assert not game.can("shoot", weapon=0, profile=1, target="target")
    assert game.can("reload", weapon=0)


def test_limited_profile_is_lost_but_the_other_profile_reloads():
    """§7.6/§12 Limited: a Limited profile that fails an Ammo test is gone for the battle;
    the weapon is Out of Ammo and reloads with its other profile (shotgun scatter made
    Limited here: no weapon in configs has the trait)."""
    game = setup(["shotgun"], target_cell=(3, 0))
    patch(game, "shotgun", 1, traits_add=C.T_LIMITED)
    game.activate("shooter")
    game.script_dice([1, 6, 1, 4])  # scatter: natural 1 misses, Ammo symbol, test 1 fails; Reload: 4 passes
    game.act("shoot", weapon=0, profile=1, target="target")
    assert game.fighter("shooter")["out_of_ammo"] == [0]
    game.act("reload", weapon=0)
    assert game.events("reload")[0].fields["passed"] == 1
    assert game.fighter("shooter")["out_of_ammo"] == []
    game.activate("shooter", round_=2)
    assert game.can("shoot", weapon=0, profile=0, target="target")
    assert not game.can("shoot", weapon=0, profile=1, target="target")


def test_reload_uses_the_profile_with_the_easiest_ammo_value():
    """§7.6 the owner chooses the profile to reload with; the engine takes the usable one with
    the easiest Ammo value (shotgun scatter given Ammo 2+ here: a 3 then reloads)."""
    game = setup(["shotgun"], out_of_ammo=[0])
    patch(game, "shotgun", 1, PF_AMMO=2)
    game.activate("shooter")
    game.script_dice([3])
    game.act("reload", weapon=0)
    assert game.events("reload")[0].fields["passed"] == 1


# ---------------------------------------------------------------- Rapid Fire (7.7)
def test_rapid_fire_hits_equal_the_bullet_holes():
    """§7.7 a hit with Rapid Fire (1) scores as many hits as holes on the Firepower dice."""
    game = setup(["autogun"])
    game.activate("shooter")
    game.script_dice([5, 5, 1, 1, 1])  # hit, Firepower 5 = 3 holes, three wound rolls
    game.act("shoot", weapon=0, target="target")
    assert len(game.events("wound")) == 3
    assert game.dice_left() == 0


def test_rapid_fire_ammo_symbol_counts_one_hole():
    """§7.6/§7.7 the Ammo face also shows one bullet hole (section 14 item 1)."""
    game = setup(["autogun"])
    game.activate("shooter")
    game.script_dice([5, 6, 6, 1])  # hit, Ammo symbol (1 hole), Ammo test passes, one wound roll
    game.act("shoot", weapon=0, target="target")
    assert len(game.events("wound")) == 1


def test_rapid_fire_two_rolls_two_firepower_dice_and_adds_holes():
    """§7.7 Rapid Fire (2): two Firepower dice, holes added (2 + 2 = 4 hits)."""
    game = setup(["heavy_stubber"])
    game.activate("shooter")
    game.script_dice([5, 3, 4, 1, 1, 1, 1])
    game.act("shoot", weapon=0, target="target")
    assert [e.fields["holes"] for e in game.events("firepower")] == [2, 2]
    assert len(game.events("wound")) == 4
    assert game.dice_left() == 0


def test_rapid_fire_miss_still_rolls_all_firepower_dice():
    """§7.6 a missed Rapid Fire (2) shot still rolls its Firepower dice."""
    game = setup(["heavy_stubber"])
    game.activate("shooter")
    game.script_dice([3, 1, 2])
    game.act("shoot", weapon=0, target="target")
    assert len(game.events("firepower")) == 2 and game.events("wound") == []


def test_rapid_fire_each_ammo_symbol_tests_and_one_failure_is_out_of_ammo():
    """§7.7 each Ammo symbol needs its own Ammo test; one failure = Out of Ammo (reloadable)."""
    game = setup(["heavy_stubber"])
    game.activate("shooter")
    # hit; die 1: Ammo symbol, test 6 passes; die 2: Ammo symbol, test 1 fails; 2 wound rolls
    game.script_dice([5, 6, 6, 6, 1, 1, 1])
    game.act("shoot", weapon=0, target="target")
    assert [e.fields["passed"] for e in game.events("ammo")] == [1, 0]
    assert [e.kind for e in game.events() if e.kind in ("firepower", "ammo")] == [
        "firepower", "ammo", "firepower", "ammo"]
    assert game.fighter("shooter")["out_of_ammo"] == [0]
    game.activate("shooter", round_=2)
    assert game.can("reload", weapon=0)


def test_rapid_fire_two_failed_ammo_tests_jam_the_weapon():
    """§7.7 two or more failed Ammo tests in one attack: the weapon is jammed for the battle."""
    game = setup(["heavy_stubber"])
    game.activate("shooter")
    game.script_dice([5, 6, 1, 6, 2, 1, 1])
    game.act("shoot", weapon=0, target="target")
    assert game.fighter("shooter")["out_of_ammo"] == [0]
    game.activate("shooter", round_=2)
    assert not game.can("reload", weapon=0)
    assert not game.can("shoot", weapon=0, target="target")


def test_rapid_fire_extra_hits_all_go_to_the_original_target():
    """§7.7 splitting extra hits onto models within 3" is optional; the engine puts every hit
    on the original target (docs/rules.md)."""
    game = setup(["autogun"], enemies=[("neighbour", (6, 1))])
    game.activate("shooter")
    game.script_dice([5, 5, 1, 1, 1])
    game.act("shoot", weapon=0, target="target")
    assert {e.target for e in game.events("wound")} == {game.fid("target")}
    assert len(game.events("wound")) == 3
    assert game.fighter("neighbour")["posture"] == "standing"
