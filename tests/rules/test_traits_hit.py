"""Weapon traits of rules digest 12 that act when a hit is resolved and that no weapon of the
starter data carries: Seismic, Sever, Pulverise, Rad-phage, Concussion, Flash, Cursed, Shield
Breaker, Fear. Each test gives a lasgun the trait in a copy of the weapon table (PF_TRAITS2)."""
import dataclasses

from necro_env.config import load_weapons
from necro_env.rulesets.necromunda import constants as C

from scenario_helpers import make, play, u

WEAPONS = load_weapons()


def with_trait(name, weapon="lasgun"):
    """A weapon table whose ``weapon`` profile 0 also has the trait ``name`` (a TRAIT2 name)."""
    prof = WEAPONS.profiles.copy()
    prof[WEAPONS.index[weapon], 0, C.PF_TRAITS2] |= C.TRAIT2_NAMES[name] >> 32
    return dataclasses.replace(WEAPONS, profiles=prof)


def duel(trait, **target):
    kw = dict(armour="mesh")
    kw.update(target)
    game = make(u(0, "shooter", (0, 2), ["lasgun"], facing="E"), u(1, "target", (4, 2), **kw),
                weapons=with_trait(trait))
    game.activate("shooter")
    return game


def test_trait_names_load_from_yaml_data():
    """§12: the second trait column is filled by the loader from the trait names."""
    prof = with_trait("seismic").profiles[WEAPONS.index["lasgun"], 0]
    assert prof[C.PF_TRAITS2] == C.T2_SEISMIC >> 32
    assert set(C.TRAIT2_NAMES) == {"seismic", "sever", "pulverise", "rad_phage", "concussion", "flash",
                                   "cursed", "shield_breaker", "fear", "graviton_pulse", "lance", "entangle",
                                   "master_crafted", "reckless", "combi", "impale", "drag"}


def test_seismic_natural_six_wound_allows_no_save():
    """§12 Seismic: a natural 6 on the wound roll allows no save (a 5 still does)."""
    game = duel("seismic", w=2)
    play(game, [4, 1, 6], "shoot", weapon=0, target="target")  # hit, Firepower 1, wound 6: no save
    assert game.events("save") == [] and game.fighter("target")["wounds"] == 1
    game = duel("seismic", w=2)
    play(game, [4, 1, 5, 6], "shoot", weapon=0, target="target")  # wound 5: mesh save 6 saves
    assert game.events("save")[0].fields["saved"] == 1


def test_sever_turns_injury_dice_into_out_of_action():
    """§12 Sever: if the wound takes the fighter to 0 Wounds, its Injury dice are Out of Action."""
    game = duel("sever")
    play(game, [4, 1, 4, 2, 1], "shoot", weapon=0, target="target")  # hit, FP, wound 4, save 2, Injury face 1
    assert game.events("injury")[0].fields["result"] == 2
    assert game.fighter("target")["state"] == "out_of_action"


def test_pulverise_turns_a_flesh_wound_into_a_serious_injury():
    """§12 Pulverise: after the Injury roll, a D6 >= the target's Toughness (or a 6) turns one
    Flesh Wound into a Serious Injury."""
    game = duel("pulverise")
    play(game, [4, 1, 4, 2, 1, 3], "shoot", weapon=0, target="target")  # ... Injury face 1, Pulverise 3 >= T3
    assert game.events("trait")[0].fields == {"trait": 1, "roll": 3, "need": 3, "effect": 1}
    assert game.fighter("target")["posture"] == "seriously_injured"
    assert game.fighter("target")["flesh_wounds"] == 0


def test_rad_phage_extra_flesh_wound_unless_bodyglove():
    """§12 Rad-phage: after the hit, a D6 of 4+ gives an extra Flesh Wound; a Van Saar armoured
    bodyglove is immune."""
    game = duel("rad_phage")
    play(game, [4, 1, 1, 4], "shoot", weapon=0, target="target")  # hit, FP, wound 1 fails, Rad-phage 4
    assert game.fighter("target")["flesh_wounds"] == 1
    game = duel("rad_phage", bodyglove=True)
    play(game, [4, 1, 1], "shoot", weapon=0, target="target")  # no Rad-phage roll
    assert game.fighter("target")["flesh_wounds"] == 0


def test_concussion_on_a_hit():
    """§12 Concussion: a fighter hit gets the Concussion condition (Initiative -2, 4.3)."""
    game = duel("concussion")
    play(game, [4, 1, 1], "shoot", weapon=0, target="target")  # hit, FP, wound 1 fails
    assert "concussion" in game.fighter("target")["conditions"]


def test_flash_replaces_the_wound_roll_with_an_initiative_test():
    """§12 Flash: no wound roll: the target tests Initiative and is Blinded on a failure."""
    game = duel("flash")
    play(game, [4, 1, 1], "shoot", weapon=0, target="target")  # hit, FP, Initiative roll 1 fails
    assert game.events("wound") == []
    assert "blind" in game.fighter("target")["conditions"]


def test_cursed_willpower_or_insane():
    """§12 Cursed: a fighter hit must pass a Willpower test or become Insane."""
    game = duel("cursed")
    play(game, [4, 1, 1, 1, 1], "shoot", weapon=0, target="target")  # hit, FP, wound 1, Willpower 1+1 fails
    assert "insane" in game.fighter("target")["conditions"]


def test_shield_breaker_field_rolls_two_dice_keeps_the_lower():
    """§12 Shield Breaker: a Field armour save against it rolls two dice and keeps the lower."""
    game = duel("shield_breaker", armour="none", field_armour=True)
    play(game, [4, 1, 6, 2, 1], "shoot", weapon=0, target="target")  # hit, FP, field 6 and 2 -> 2, wound 1
    f = game.events("field")[0].fields
    assert f["roll"] == 2 and f["worked"] == 0


def test_fear_replaces_the_injury_roll_with_a_nerve_test_at_minus_two():
    """§12 Fear: instead of any Injury roll, the target takes a Nerve test at -2 (2D6 - 2 >= Cool
    7); a failure makes it Broken (and it runs for cover). Damage still removes Wounds."""
    game = duel("fear")
    # hit 4, FP 1, wound 4, mesh save 2 fails, 1 Damage -> 0 Wounds; Nerve 4 + 4 - 2 = 6 < 7
    game.script_dice([4, 1, 4, 2, 4, 4] + [1] * 20)  # Running for Cover uses no dice on this board
    game.act("shoot", weapon=0, target="target")
    assert game.events("injury") == []
    nv = game.events("nerve")[0]
    assert nv.actor == game.fid("target") and nv.fields == {"roll": 6, "need": 7, "passed": 0}
    assert game.fighter("target")["broken"] is True
