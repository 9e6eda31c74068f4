"""Resolving hits (rules digest section 9): wound table, saves and armour, damage, Injury dice.

Hits are produced by close combat (attacker at (2, 2), target at (3, 2)) or, for Prone
targets, by a lasgun shot. Fighters are Orlock gangers (WS/BS 4+, S3, T3, W1, A1) unless
stated; all dice are scripted and every test checks that exactly the scripted dice were used.
"""
import dataclasses

import pytest

from necro_env.config import load_armours
from necro_env.rulesets.necromunda.constants import AF_SAVE
from necro_env.rulesets.necromunda.damage import wound_target
from necro_env.rulesets.necromunda.state import FI_FIELD
from scenario_helpers import make, play, u

ARMOURS = load_armours()








def duel(att_weapons=("lasgun",), att=None, dfn=None, **kw):
    """att at (2, 2) facing E (unarmed with only a lasgun), dfn at (3, 2) facing W with a knife
    and no armour unless given; att activated."""
    att = dict(att or {})
    dfn = dict(dfn or {})
    att.setdefault("facing", "E")
    dfn.setdefault("facing", "W")
    dfn.setdefault("armour", "none")
    game = make(u(0, "att", (2, 2), att_weapons, **att), u(1, "dfn", (3, 2), ["fighting_knife"], **dfn), **kw)
    game.activate("att")
    return game


def shot_at_prone(posture, **dfn):
    """A lasgun shooter at (1, 2) and a Prone target at (4, 2); the shooter is activated."""
    dfn.setdefault("facing", "W")
    game = make(u(0, "att", (1, 2), ["lasgun"], facing="E"),
                u(1, "dfn", (4, 2), ["fighting_knife"], posture=posture, **dfn))
    game.activate("att")
    return game


# ---------------------------------------------------------------- 9.1 wound roll
CASES = [(6, 3, 2), (7, 3, 2), (4, 3, 3), (3, 3, 4), (3, 4, 5), (3, 5, 5), (2, 4, 6), (3, 6, 6), (1, 3, 6)]


@pytest.mark.parametrize("S, T, need", CASES)
def test_wound_table(S, T, need):
    """§9.1: S >= 2T 2+, S > T 3+, S = T 4+, S < T 5+, S <= T/2 6+."""
    assert wound_target(S, T) == need


@pytest.mark.parametrize("S, T, need", CASES)
@pytest.mark.parametrize("success", [True, False])
def test_wound_roll_in_play(S, T, need, success):
    """§9.1: the wound roll compares the attack's S with the target's T (unarmed attack, S = fighter's S)."""
    game = duel(att={"s": S}, dfn={"t": T, "w": 3})
    roll = need if success else need - 1
    play(game, [4, roll, 1], "fight", target="dfn")  # hit, wound roll, reaction
    w = game.events("wound")[0].fields
    assert (w["strength"], w["toughness"], w["need"], w["wounded"]) == (S, T, need, int(success))
    assert game.fighter("dfn")["wounds"] == (2 if success else 3)


# ---------------------------------------------------------------- 9.2 saves
@pytest.mark.parametrize("armour, extra, weapon, dfn_facing, need", [
    ("mesh", {}, "lasgun", "W", 5),  # unarmed: no AP
    ("mesh", {}, "fighting_knife", "W", 6),  # AP -1 is added to the save
    ("flak", {}, "lasgun", "W", 6),
    ("light_carapace", {}, "lasgun", "W", 4),
    ("heavy_carapace", {}, "lasgun", "W", 3),  # attack from the front vision arc
    ("heavy_carapace", {}, "lasgun", "E", 4),  # attack from behind
    ("furnace_plates", {}, "lasgun", "W", 5),
    ("furnace_plates", {}, "lasgun", "E", 6),
    ("mesh", {"bodyglove": True}, "lasgun", "W", 4),  # bodyglove improves armour by 1
    ("none", {"bodyglove": True}, "lasgun", "W", 6),  # or gives 6+ alone
])
def test_save_targets(armour, extra, weapon, dfn_facing, need):
    """§9.2: armour saves, AP, front-arc armour (heavy carapace, furnace plates), flak, bodyglove."""
    game = duel(att_weapons=(weapon,), dfn=dict(armour=armour, facing=dfn_facing, w=2, **extra))
    play(game, [4, 6, need, 1], "fight", target="dfn")  # hit, wound, save roll = need (saved), reaction
    sv = game.events("save")[0].fields
    assert (sv["need"], sv["saved"]) == (need, 1)
    assert game.events("damage") == [] and game.fighter("dfn")["wounds"] == 2


def test_save_roll_below_target_fails():
    """§9.2: a save roll below the target fails and the Damage is applied."""
    game = duel(dfn={"armour": "mesh", "w": 2})
    play(game, [4, 6, 4, 1], "fight", target="dfn")
    assert game.events("save")[0].fields["saved"] == 0
    assert game.fighter("dfn")["wounds"] == 1


def test_ap_can_make_a_save_impossible():
    """§9.2: AP -2 turns mesh 5+ into 7+: no save roll is made at all."""
    game = duel(att_weapons=("power_sword",), dfn={"armour": "mesh", "w": 2})
    play(game, [4, 6, 1], "fight", target="dfn")  # hit, wound, no save, reaction
    assert game.events("save") == []
    assert game.fighter("dfn")["wounds"] == 1


@pytest.mark.parametrize("roll, saved", [(1, 0), (2, 1)])
def test_natural_one_always_fails_a_save(roll, saved):
    """§9.2: a natural 1 always fails a save, even against a 1+ save (custom armour)."""
    table = ARMOURS.table.copy()
    table[ARMOURS.index["mesh"], AF_SAVE] = 1
    game = duel(dfn={"armour": "mesh", "w": 2}, armours=dataclasses.replace(ARMOURS, table=table))
    play(game, [4, 6, roll, 1], "fight", target="dfn")
    sv = game.events("save")[0].fields
    assert (sv["need"], sv["saved"]) == (1, saved)


def test_front_arc_armour_bonus_not_while_prone():
    """§9.2: heavy carapace's 3+ front-arc save does not apply while the wearer is Prone."""
    game = shot_at_prone("pinned", armour="heavy_carapace")
    play(game, [4, 1, 6, 4], "shoot", weapon=0, target="dfn")  # hit, Firepower die, wound, save 4
    sv = game.events("save")[0].fields
    assert (sv["need"], sv["saved"]) == (4, 1)


@pytest.mark.parametrize("dfn_facing, need", [("W", 3), ("E", 4)])
def test_front_arc_armour_counts_against_the_shot_that_pins(dfn_facing, need):
    """§9.2 with §7.4: a Standing target hit by a shot is pinned before the save, but its
    heavy carapace still gets the 3+ front-arc save against that shot (the attack was made
    while it stood; docs/rules.md 9.2); from behind it is 4+."""
    game = shot_at_prone("standing", armour="heavy_carapace", facing=dfn_facing)
    play(game, [4, 1, 6, need], "shoot", weapon=0, target="dfn")  # hit, Firepower die, wound, save
    assert game.fighter("dfn")["posture"] == "pinned"
    sv = game.events("save")[0].fields
    assert (sv["need"], sv["saved"]) == (need, 1)


# ---------------------------------------------------------------- 9.2 refractor field
def field_of(game, name):
    return int(game.state.fi[0, game.fid(name), FI_FIELD])


def test_refractor_field_ignores_the_hit_on_5_plus():
    """§9.2 refractor field: on a 5+ the hit is ignored (no wound roll); the burn-out roll of 2 keeps it."""
    game = duel(dfn={"field_armour": True})
    play(game, [4, 5, 2, 1], "fight", target="dfn")  # hit, field 5, burn-out roll 2, reaction
    f = game.events("field")[0].fields
    assert (f["roll"], f["worked"], f["burnout_roll"]) == (5, 1, 2)
    assert game.events("wound") == []
    assert field_of(game, "dfn") == 1


def test_refractor_field_failing_lets_the_hit_through():
    """§9.2 refractor field: on 1-4 the hit is resolved normally."""
    game = duel(dfn={"field_armour": True})
    play(game, [4, 4, 1, 1], "fight", target="dfn")  # hit, field 4 fails, wound roll fails, reaction
    assert game.events("field")[0].fields["worked"] == 0
    assert len(game.events("wound")) == 1


def test_refractor_field_burns_out_on_a_one():
    """§9.2 refractor field: when it works, a further D6 of 1 burns it out for the rest of the battle."""
    game = duel(att={"kind": "champion"}, dfn={"field_armour": True})  # two attack dice
    play(game, [4, 4, 5, 1, 1, 1], "fight", target="dfn")  # 2 hits; field 5, burn-out 1; 2nd hit: wound; reaction
    assert len(game.events("field")) == 1
    assert field_of(game, "dfn") == 2
    assert len(game.events("wound")) == 1


def test_one_save_per_hit_field_instead_of_worse_armour():
    """§9.2: one save per hit. Against mesh with AP -1 (6+) the field (5+) is used; when it fails
    there is no armour save as well."""
    game = duel(att_weapons=("fighting_knife",), dfn={"armour": "mesh", "field_armour": True})
    play(game, [4, 4, 6, 1, 1], "fight", target="dfn")  # hit, field fails, wound, no save, Injury (flesh), reaction
    assert len(game.events("field")) == 1
    assert game.events("save") == []
    assert game.fighter("dfn")["wounds"] == 0


def test_one_save_per_hit_better_armour_instead_of_field():
    """§9.2: with light carapace (4+) the armour save is better than the field: no field roll."""
    game = duel(dfn={"armour": "light_carapace", "field_armour": True})
    play(game, [4, 6, 4, 1], "fight", target="dfn")  # hit, wound, save 4, reaction
    assert game.events("field") == []
    assert game.events("save")[0].fields["saved"] == 1


# ---------------------------------------------------------------- 9.3 damage
def test_damage_beyond_zero_wounds_rolls_more_injury_dice():
    """§9.3: W2 fighter takes Damage 3: 2 -> 1 -> 0 (one Injury dice), the third point one more."""
    game = duel(att_weapons=("two_handed_hammer",), dfn={"w": 2, "s": 6})  # S6: no knockback on a 5
    play(game, [5, 3, 1, 2, 1], "fight", target="dfn")  # hit, wound, two Injury dice (flesh), reaction
    d = game.events("damage")[0].fields
    assert (d["damage"], d["wounds_left"]) == (3, 0)
    assert [e.fields["die"] for e in game.events("injury")] == [1, 2]
    assert game.fighter("dfn")["flesh_wounds"] == 2


def test_damage_within_wounds_rolls_no_injury_dice():
    """§9.3: Damage that leaves the fighter above 0 Wounds only removes Wounds."""
    game = duel(att_weapons=("maul",), dfn={"w": 3})
    play(game, [4, 4, 1], "fight", target="dfn")  # hit, wound (D2), reaction
    assert game.fighter("dfn")["wounds"] == 1
    assert game.events("injury") == []


def test_fighter_at_zero_wounds_rolls_an_injury_dice_per_damage_point():
    """§9.3: a fighter already at 0 Wounds rolls one Injury dice per point of Damage."""
    game = duel(att_weapons=("maul",), dfn={"wounds": 0})
    play(game, [4, 4, 1, 2, 1], "fight", target="dfn")  # hit, wound, two Injury dice, reaction
    assert len(game.events("injury")) == 2
    assert game.fighter("dfn")["flesh_wounds"] == 2


def test_damage_dash_weapon_rolls_injury_directly():
    """§9.3: Damage '-' (needle pistol, Toxin) removes no Wounds: the Injury dice is rolled directly."""
    game = duel(att_weapons=("needle_pistol",), dfn={"w": 2})
    play(game, [4, 1, 3, 1, 1], "fight", target="dfn")  # hit, Firepower, Toxin 3 >= T3, Injury (flesh), reaction
    assert game.events("damage") == []
    assert game.fighter("dfn")["wounds"] == 2
    assert len(game.events("injury")) == 1 and game.fighter("dfn")["flesh_wounds"] == 1


# ---------------------------------------------------------------- 9.4 Injury dice
@pytest.mark.parametrize("face, state, posture, flesh", [
    (1, "on_board", "standing", 1),
    (2, "on_board", "standing", 1),
    (3, "on_board", "seriously_injured", 0),
    (5, "on_board", "seriously_injured", 0),
    (6, "out_of_action", "standing", 0),
])
def test_injury_dice_results(face, state, posture, flesh):
    """§9.4: faces 1-2 Flesh Wound (status unchanged), 3-5 Serious Injury, 6 Out of Action."""
    game = duel(att_weapons=("fighting_knife",))
    dice = [4, 4, face] + ([1] if posture == "standing" and state == "on_board" else [])
    play(game, dice, "fight", target="dfn")
    f = game.fighter("dfn")
    assert (f["state"], f["flesh_wounds"]) == (state, flesh)
    if state == "on_board":
        assert f["posture"] == posture
        assert f["toughness"] == 3 - flesh


def test_serious_injury_on_a_pinned_fighter():
    """§9.4: a Prone and Pinned fighter becomes Prone and Seriously Injured."""
    game = shot_at_prone("pinned", armour="none")
    play(game, [4, 1, 4, 3], "shoot", weapon=0, target="dfn")  # hit, Firepower, wound, Injury: serious
    assert game.fighter("dfn")["posture"] == "seriously_injured"


def test_further_serious_injuries_in_one_roll_become_flesh_wounds():
    """§9.4: each Serious Injury beyond the first in the same roll is a Flesh Wound."""
    game = duel(att_weapons=("two_handed_hammer",), dfn={"s": 6})
    play(game, [5, 3, 3, 4, 5], "fight", target="dfn")  # hit, wound, three Injury dice: serious x3
    f = game.fighter("dfn")
    assert (f["posture"], f["flesh_wounds"]) == ("seriously_injured", 2)
    assert len(game.events("serious")) == 1


def test_serious_injury_on_a_seriously_injured_fighter_is_a_flesh_wound():
    """§9.4: a fighter already Prone and Seriously Injured takes a Flesh Wound for a Serious Injury."""
    game = shot_at_prone("seriously_injured", armour="none", wounds=0)
    play(game, [4, 1, 4, 3], "shoot", weapon=0, target="dfn")
    f = game.fighter("dfn")
    assert (f["posture"], f["flesh_wounds"]) == ("seriously_injured", 1)
    assert game.events("serious") == []


def test_flesh_wound_reducing_toughness_to_zero_is_out_of_action():
    """§9.4: at Toughness 0 the fighter goes Out of Action."""
    game = duel(att_weapons=("fighting_knife",), dfn={"flesh_wounds": 2})  # T 3 - 2 = 1
    play(game, [4, 2, 1], "fight", target="dfn")  # hit, wound (S3 v T1: 2+), Injury: flesh wound
    assert game.fighter("dfn")["state"] == "out_of_action"
    assert game.events("ooa")[0].fields["reason"] == 1  # Toughness 0


def test_out_of_action_applied_first():
    """§9.4 (ordering, docs): Out of Action is applied before anything else rolled with it."""
    game = duel(att_weapons=("two_handed_hammer",), dfn={"s": 6})
    play(game, [5, 3, 1, 3, 6], "fight", target="dfn")  # three Injury dice: flesh, serious, out of action
    assert game.fighter("dfn")["state"] == "out_of_action"
    assert game.events("flesh") == [] and game.events("serious") == []
    assert game.fighter("dfn")["flesh_wounds"] == 0


def test_serious_injury_applied_before_flesh_wounds():
    """§9.4 (ordering, docs): Serious Injuries before Flesh Wounds, whatever the dice order."""
    game = duel(att_weapons=("maul",))
    play(game, [4, 4, 1, 3], "fight", target="dfn")  # D2: Injury dice flesh, serious
    kinds = [e.kind for e in game.events() if e.kind in ("serious", "flesh")]
    assert kinds == ["serious", "flesh"]
    f = game.fighter("dfn")
    assert (f["posture"], f["flesh_wounds"]) == ("seriously_injured", 1)
