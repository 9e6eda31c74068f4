"""Weapon traits that act in close combat (rules digest section 12): Parry, Power, Rending,
Shock, Disarm, Backstab, Paired and Knockback (melee); Versatile is in test_versatile.py.

Fighters are Orlock gangers (WS 4+, S3, T3, W1, A1) unless stated; all dice are scripted.
"""
import dataclasses

import numpy as np
import pytest

from necro_env.config import load_weapons
from necro_env.rulesets.necromunda.constants import PF_TRAITS, PF_VALID, T_PAIRED, T_VERSATILE
from necro_env.testing import board
from scenario_helpers import by, make, play, u

WEAPONS = load_weapons()
WID = WEAPONS.index










def duel(att_weapons=("fighting_knife",), def_weapons=("fighting_knife",), att=None, dfn=None, extra=(), **kw):
    """att at (2, 2) facing E, dfn at (3, 2) facing W (no armour unless given); att activated."""
    att = dict(att or {})
    dfn = dict(dfn or {})
    att.setdefault("facing", "E")
    dfn.setdefault("facing", "W")
    dfn.setdefault("armour", "none")
    game = make(u(0, "att", (2, 2), att_weapons, **att), u(1, "dfn", (3, 2), def_weapons, **dfn), *extra, **kw)
    game.activate("att")
    return game


# ---------------------------------------------------------------- Parry
def test_parry_forces_a_reroll_of_a_successful_hit():
    """§12 Parry: the bearer forces the attacker to re-roll one successful hit."""
    game = duel(def_weapons=("sword",))
    play(game, [4, 2, 1], "fight", target="dfn")  # hit, re-roll misses, dfn reacts (sword: 3+)
    assert [e.actor for e in game.events("parry")] == [game.fid("dfn")]
    assert [e.fields["hit"] for e in by(game, "hit", "att")] == [1, 0]
    assert game.events("wound") == []


def test_parried_hit_that_hits_again_is_resolved():
    """§12 Parry: the re-roll replaces the hit roll; a successful re-roll still hits."""
    game = duel(def_weapons=("sword",))
    play(game, [4, 5, 1, 1], "fight", target="dfn")  # hit, re-roll hits, wound roll fails, reaction
    assert len(game.events("parry")) == 1
    assert len(game.events("wound")) == 1


def test_one_parry_weapon_rerolls_only_one_hit():
    """§12 Parry: one Parry weapon re-rolls one hit; the second hit stands."""
    game = duel(att={"kind": "champion"}, def_weapons=("sword",))  # attacker A2
    play(game, [4, 4, 2, 1, 1], "fight", target="dfn")  # two hits, one re-roll misses, wound fails, reaction
    assert len(game.events("parry")) == 1
    assert len(game.events("wound")) == 1


def test_two_parry_weapons_reroll_two_hits():
    """§12 Parry: a bearer with two Parry weapons forces two re-rolls."""
    game = duel(att={"kind": "champion"}, def_weapons=("sword", "chainsword"))
    play(game, [4, 4, 2, 2, 1, 1], "fight", target="dfn")  # two hits, two re-rolls, dfn's 2 reaction dice
    assert len(game.events("parry")) == 2
    assert game.events("wound") == []


def test_parries_are_shared_by_the_attackers_two_weapons():
    """§12 Parry: a bearer of two Parry weapons forces at most two re-rolls per attack, across the
    attacker's two weapons; its plain sword cannot parry the power sword (goliath leader, A3 + 1)."""
    game = duel(att_weapons=("power_sword", "sword"), att={"house": "goliath", "kind": "leader"},
                def_weapons=("sword", "power_sword"))
    # power sword: 2 hits, the power sword parries one (re-roll 2 misses), wound roll fails;
    # sword: 2 hits, one parry left (re-roll 1 misses), wound roll fails; dfn's 2 reaction dice
    play(game, [4, 4, 2, 1, 4, 4, 1, 1, 1, 1], "fight", target="dfn")
    assert len(game.events("parry")) == 2


# ---------------------------------------------------------------- Power
def test_power_weapon_cannot_be_parried_by_a_plain_parry_weapon():
    """§12 Power / Parry: Power weapons can only be parried by Power weapons."""
    game = duel(att_weapons=("power_sword",), def_weapons=("sword",))
    play(game, [4, 1, 1], "fight", target="dfn")  # hit (no re-roll), wound fails, reaction
    assert game.events("parry") == []
    assert len(game.events("wound")) == 1


def test_power_weapon_is_parried_by_a_power_parry_weapon():
    """§12 Power / Parry: a Power weapon with Parry can parry a Power weapon."""
    game = duel(att_weapons=("power_sword",), def_weapons=("power_sword",))
    play(game, [4, 2, 1], "fight", target="dfn")  # hit, re-roll misses, reaction
    assert len(game.events("parry")) == 1


@pytest.mark.parametrize("nat, dice, saves, damage", [
    (6, [6, 3, 1], 0, 3),  # natural 6: wound (S4 v T3: 3+), no save, D2 + 1
    (5, [5, 3, 1, 1], 1, 2),  # natural 5: wound, save 1 fails (mesh 5+, AP -1: 6+), D2
])
def test_power_natural_six_no_save_and_plus_one_damage(nat, dice, saves, damage):
    """§12 Power: a natural 6 to hit allows no save (except Field armour) and adds 1 Damage."""
    game = duel(att_weapons=("power_hammer",), dfn={"armour": "mesh", "w": 4})
    play(game, dice, "fight", target="dfn")
    assert len(game.events("save")) == saves
    assert game.events("damage")[0].fields["damage"] == damage
    assert game.fighter("dfn")["wounds"] == 4 - damage


def test_power_natural_six_still_allows_field_armour():
    """§12 Power: '...no save except Field armour': a refractor field still rolls."""
    game = duel(att_weapons=("power_hammer",), dfn={"armour": "mesh", "field_armour": True, "w": 4})
    play(game, [6, 5, 2, 1], "fight", target="dfn")  # hit 6, field 5+ ignores the hit, burn-out roll 2, reaction
    assert game.events("field")[0].fields["worked"] == 1
    assert game.events("wound") == [] and game.fighter("dfn")["wounds"] == 4


# ---------------------------------------------------------------- Rending, Shock
@pytest.mark.parametrize("wound_roll, damage", [(6, 2), (5, 1)])
def test_rending_wound_roll_of_six_adds_one_damage(wound_roll, damage):
    """§12 Rending: a wound roll of 6 adds 1 Damage."""
    game = duel(att_weapons=("chainsword",), dfn={"w": 3})
    play(game, [4, wound_roll, 1], "fight", target="dfn")
    assert game.events("damage")[0].fields["damage"] == damage


def test_shock_natural_six_wounds_automatically():
    """§12 Shock: a natural 6 to hit wounds automatically (no wound roll)."""
    game = duel(att_weapons=("shock_baton",), dfn={"w": 3})
    play(game, [6, 1], "fight", target="dfn")  # hit 6, no wound roll, reaction
    w = game.events("wound")[0].fields
    assert (w["roll"], w["wounded"]) == (0, 1)
    assert game.fighter("dfn")["wounds"] == 2


def test_shock_other_hits_roll_to_wound():
    """§12 Shock: hits that are not a natural 6 roll to wound as usual."""
    game = duel(att_weapons=("shock_baton",), dfn={"w": 3})
    play(game, [5, 1, 1], "fight", target="dfn")
    w = game.events("wound")[0].fields
    assert (w["roll"], w["wounded"]) == (1, 0)
    assert game.fighter("dfn")["wounds"] == 3


# ---------------------------------------------------------------- Disarm
@pytest.mark.parametrize("nat, disarmed", [(6, True), (5, False)])
def test_disarm_natural_six_leaves_only_unarmed_reaction_attacks(nat, disarmed):
    """§12 Disarm: on a natural 6 to hit, the target may only make unarmed reaction attacks."""
    game = duel(att_weapons=("axe",))
    play(game, [nat, 1, 1], "fight", target="dfn")  # hit, wound fails (S4 v T3), dfn reacts
    assert bool(game.events("disarm")) == disarmed
    assert by(game, "attacks", "dfn")[0].fields["weapon1"] == (-1 if disarmed else WID["fighting_knife"])


def _finish_round(game):
    """Activate every remaining Ready fighter of this round and end its activation at once."""
    r = game.round
    while game.round == r and game.decision[0] in ("select_fighter", "choose_action"):
        if game.decision[0] == "select_fighter":
            game.step(game.legal_actions()[0])
        else:
            game.act("end")


def test_disarm_lasts_for_the_round_and_only_limits_reaction_attacks():
    """§12 / §8.4 Disarm: later reaction attacks this round stay unarmed, the disarmed fighter's own
    Fight uses its weapons (the trait only limits reaction attacks); the next round it is armed again."""
    game = duel(att_weapons=("axe",), extra=[u(0, "pal", (3, 3), ["fighting_knife"], facing="N")])
    play(game, [6, 1, 1], "fight", target="dfn")  # disarmed; dfn's reaction is unarmed
    game.act("end")
    assert game.decision == ("select_fighter", 1)
    game.act("select", fighter="dfn")
    play(game, [1, 1, 1], "fight", target="att")  # dfn's own Fight, then att and pal react
    assert by(game, "attacks", "dfn")[0].fields["weapon1"] == WID["fighting_knife"]
    game.act("end")
    game.act("select", fighter="pal")
    play(game, [1, 1], "fight", target="dfn")  # pal misses; dfn's reaction: unarmed again
    assert by(game, "attacks", "dfn")[0].fields["weapon1"] == -1
    game.act("end")
    game.script_dice([6, 1])  # next Priority phase: gang a holds Priority
    _finish_round(game)
    assert game.round == 2 and game.decision == ("select_fighter", 0)
    game.act("select", fighter="pal")
    play(game, [1, 1], "fight", target="dfn")
    assert by(game, "attacks", "dfn")[0].fields["weapon1"] == WID["fighting_knife"]


# ---------------------------------------------------------------- Backstab
@pytest.mark.parametrize("dfn_facing, strength, need", [("E", 4, 3), ("W", 3, 4)])
def test_backstab_plus_one_strength_outside_the_targets_vision_arc(dfn_facing, strength, need):
    """§12 Backstab: +1 Strength when the attacker is not in the target's vision arc."""
    game = duel(dfn={"facing": dfn_facing})
    play(game, [4, 1, 1], "fight", target="dfn")  # hit, wound roll fails, reaction
    w = game.events("wound")[0].fields
    assert (w["strength"], w["need"]) == (strength, need)


# ---------------------------------------------------------------- Paired
def _paired_table():
    prof = WEAPONS.profiles.copy()
    prof[WID["sword"], 0, PF_TRAITS] |= T_PAIRED
    return dataclasses.replace(WEAPONS, profiles=prof)


def test_paired_counts_as_two_weapons():
    """§12 Paired: counts as two Melee weapons for Attack dice (+1)."""
    game = duel(att_weapons=("sword",), weapons=_paired_table())
    play(game, [1, 1, 1], "fight", target="dfn")
    a = by(game, "attacks", "att")[0].fields
    assert (a["dice"], a["weapon1"], a["weapon2"]) == (2, WID["sword"], -1)


def test_paired_doubles_attacks_when_charging():
    """§12 Paired: the Attacks characteristic is doubled when charging; +1 for two weapons and
    +1 for the charge still apply (A1: 2 + 1 + 1 = 4 dice)."""
    game = make(u(0, "att", (1, 2), ["sword"], facing="E"),
                u(1, "dfn", (4, 2), ["fighting_knife"], facing="W", armour="none"), weapons=_paired_table())
    game.activate("att")
    play(game, [1, 1, 1, 1, 1, 1], "charge", target="dfn")  # D3, four attack dice, reaction
    assert by(game, "attacks", "att")[0].fields["dice"] == 4


def test_no_weapon_in_the_data_is_paired_or_versatile():
    """§12 Paired / Versatile: no weapon in the data set uses either trait, so both only matter for
    custom data (Versatile is tested in test_versatile.py)."""
    valid = WEAPONS.profiles[:, :, PF_VALID] == 1
    traits = WEAPONS.profiles[:, :, PF_TRAITS][valid]
    assert not np.any(traits & T_VERSATILE)
    assert not np.any(traits & T_PAIRED)


# ---------------------------------------------------------------- Knockback in close combat
def test_knockback_in_melee_pushes_the_target_and_the_attacker_follows_up():
    """§12 Knockback: a hit roll >= the target's S pushes it 1" directly away; the melee attacker
    follows up to stay in contact (docs)."""
    game = duel(att_weapons=("two_handed_hammer",))
    play(game, [5, 1, 1], "fight", target="dfn")  # hit 5 (needs 5: Accuracy -1) >= S3, wound fails, reaction
    kb = game.events("knockback")[0].fields
    assert kb["blocked"] == 0
    assert game.fighter("dfn")["cell"] == (4, 2)
    assert game.fighter("att")["cell"] == (3, 2)
    assert len(game.events("reaction")) == 1  # still engaged


def test_knockback_blocked_adds_one_damage():
    """§12 Knockback: a target that cannot be moved the full 1" takes +1 Damage."""
    b = board("""
        ..........
        ..........
        ....#.....
        ..........
        ..........
        ..........
    """)
    game = make(u(0, "att", (2, 2), ["two_handed_hammer"], facing="E"),
                u(1, "dfn", (3, 2), ["fighting_knife"], facing="W", armour="none", w=5), board_=b)
    game.activate("att")
    play(game, [5, 3, 1], "fight", target="dfn")  # hit, wound (S4 v T3), reaction
    assert game.events("knockback")[0].fields["blocked"] == 1
    assert game.events("damage")[0].fields["damage"] == 4  # D3 + 1
    assert game.fighter("dfn")["cell"] == (3, 2)


def test_knockback_needs_hit_roll_at_least_targets_strength():
    """§12 Knockback: a natural hit roll below the target's Strength does not push it."""
    game = duel(att_weapons=("two_handed_hammer",), dfn={"s": 6})
    play(game, [5, 1, 1], "fight", target="dfn")
    assert game.events("knockback") == []
    assert game.fighter("dfn")["cell"] == (3, 2)
