"""Close combat (rules digest section 8): Fight, weapon choice, Attack dice, hit rolls,
assists and interference, sidearms in melee, reaction attacks and the step-8 follow-up.

All dice are scripted. Fighters are Orlock gangers (WS 4+, S3, T3, W1, A1) unless stated;
each gang also has a far-away spare so the battle does not end when a fighter falls.
"""
import pytest

from necro_env.config import load_weapons
from necro_env.testing import Action, IllegalActionError
from scenario_helpers import by, make, play, u

WID = load_weapons().index










def duel(att_weapons=("fighting_knife",), def_weapons=("fighting_knife",), att=None, dfn=None, extra=()):
    """att at (2, 2) facing E, dfn at (3, 2) facing W (no armour unless given); att activated."""
    att = dict(att or {})
    dfn = dict(dfn or {})
    att.setdefault("facing", "E")
    dfn.setdefault("facing", "W")
    dfn.setdefault("armour", "none")
    game = make(u(0, "att", (2, 2), att_weapons, **att), u(1, "dfn", (3, 2), def_weapons, **dfn), *extra)
    game.activate("att")
    return game


# ---------------------------------------------------------------- 8.1 when / targets
def test_fight_only_against_engaged_enemies():
    """§8.1 step 4: a Fight may only target an enemy the fighter is engaged with."""
    game = duel(extra=[u(1, "far", (5, 2), ["fighting_knife"])])
    assert game.mask[0, game.encode(Action("fight", target="dfn"))]
    assert not game.mask[0, game.encode(Action("fight", target="far"))]
    with pytest.raises(IllegalActionError):
        game.act("fight", target="far")


def test_fighter_not_engaged_cannot_fight():
    """§8.1: only Standing and Engaged fighters fight; an Active fighter has no Fight action."""
    game = make(u(0, "att", (2, 2), ["fighting_knife"], facing="E"), u(1, "dfn", (5, 2), ["fighting_knife"]))
    game.activate("att")
    assert not game.mask[0, game.encode(Action("fight", target="dfn"))]


# ---------------------------------------------------------------- 8.1 step 1: turn to face
def test_turn_to_face_costs_minus_one():
    """§8.1 step 1: attacking an engaged enemy outside the vision arc turns the fighter, -1 to hit."""
    game = duel(att={"facing": "W"})
    play(game, [4, 1], "fight", target="dfn")  # att hit roll (needs 5 after turning), dfn reaction
    hit = by(game, "hit", "att")[0].fields
    assert (hit["need"], hit["hit"]) == (5, 0)
    assert by(game, "attacks", "att")[0].fields["modifier"] == -1
    assert game.fighter("att")["facing"] == "E"


def test_no_turn_penalty_when_target_in_arc():
    """§8.1 step 1: no -1 when the target is already in the vision arc."""
    game = duel()
    play(game, [4, 1, 1], "fight", target="dfn")  # hit, wound roll fails, reaction
    hit = by(game, "hit", "att")[0].fields
    assert (hit["need"], hit["hit"]) == (4, 1)


# ---------------------------------------------------------------- 8.1 steps 2-3: weapons and Attack dice
def test_two_melee_weapons_add_one_attack_die():
    """§8.1 steps 2-3: fighting with two Melee weapons gives +1 Attack dice, split between them."""
    game = duel(att_weapons=("fighting_knife", "axe"))
    play(game, [1, 1, 1], "fight", target="dfn")
    a = by(game, "attacks", "att")[0].fields
    assert a["dice"] == 2
    assert {a["weapon1"], a["weapon2"]} == {WID["fighting_knife"], WID["axe"]}
    assert len(by(game, "hit", "att")) == 2


def test_unwieldy_weapon_is_used_alone():
    """§8.1 step 2: a fighter using an Unwieldy weapon cannot use a second weapon (no +1 die)."""
    game = duel(att_weapons=("two_handed_hammer", "fighting_knife"))
    play(game, [1, 1], "fight", target="dfn")
    a = by(game, "attacks", "att")[0].fields
    assert (a["dice"], a["weapon1"], a["weapon2"]) == (1, WID["two_handed_hammer"], -1)
    assert len(by(game, "hit", "att")) == 1


def test_automatic_weapon_choice_takes_the_two_best():
    """§8.1 step 2 (interpretation, docs): the engine picks the best-scoring Melee/Sidearm profile
    and the best one on another item; a plain knife loses to a power sword and a sword."""
    game = duel(att_weapons=("fighting_knife", "sword", "power_sword"))
    play(game, [1, 1, 1], "fight", target="dfn")
    a = by(game, "attacks", "att")[0].fields
    assert (a["weapon1"], a["weapon2"]) == (WID["power_sword"], WID["sword"])


def test_unarmed_attack_uses_fighters_strength_no_ap_damage_one():
    """§8.1 step 2: a fighter without Melee/Sidearm weapons attacks unarmed: its own S, AP -, D1."""
    game = duel(att_weapons=("lasgun",), att={"s": 5}, dfn={"armour": "mesh", "w": 2})
    play(game, [4, 3, 4, 1], "fight", target="dfn")  # hit, wound (S5 v T3: 3+), save 4 fails vs 5+, reaction
    assert by(game, "attacks", "att")[0].fields["weapon1"] == -1
    wound = game.events("wound")[0].fields
    assert (wound["strength"], wound["need"], wound["wounded"]) == (5, 3, 1)
    assert game.events("save")[0].fields["need"] == 5  # mesh 5+, no AP
    assert game.events("damage")[0].fields["damage"] == 1
    assert game.fighter("dfn")["wounds"] == 1


def test_sidearm_takes_one_die_rest_unarmed():
    """§8.1 step 3: a Sidearm takes at most one Attack dice; without Melee weapons the rest are unarmed."""
    game = duel(att_weapons=("autopistol",), att={"kind": "champion"})  # A2
    # pistol hit, Firepower die, wound roll fails, unarmed hit misses, reaction
    play(game, [4, 2, 1, 1, 1], "fight", target="dfn")
    a = by(game, "attacks", "att")[0].fields
    assert (a["dice"], a["weapon1"], a["weapon2"]) == (2, WID["autopistol"], -1)
    assert len(by(game, "hit", "att")) == 2
    assert len(by(game, "firepower", "att")) == 1


def test_two_sidearms_one_die_each():
    """§8.1 step 3: two Sidearms give +1 die, each takes one die, the remaining die is unarmed."""
    game = duel(att_weapons=("autopistol", "laspistol"), att={"kind": "champion"})  # A2 + 1
    play(game, [1, 1, 1, 1, 1, 1], "fight", target="dfn")  # hit + Firepower per pistol, unarmed hit, reaction
    a = by(game, "attacks", "att")[0].fields
    assert a["dice"] == 3
    assert {a["weapon1"], a["weapon2"]} == {WID["autopistol"], WID["laspistol"]}
    assert len(by(game, "hit", "att")) == 3
    assert len(by(game, "firepower", "att")) == 2


# ---------------------------------------------------------------- 8.1 step 5: hit rolls
@pytest.mark.parametrize("roll, hit", [(3, 1), (2, 0)])
def test_hit_roll_is_a_weapon_skill_test(roll, hit):
    """§8.1 step 5: each Attack dice is a WS test (D6 >= WS); a WS 3+ fighter hits on 3."""
    game = duel(att={"ws": 3})
    play(game, [roll, 1, 1] if hit else [roll, 1], "fight", target="dfn")
    h = by(game, "hit", "att")[0].fields
    assert (h["need"], h["hit"]) == (3, hit)


def test_natural_one_always_misses():
    """§8.1 step 5: a natural 1 misses whatever the modifiers (WS2+, Accuracy +1, one assist)."""
    game = duel(att_weapons=("chainsword",), att={"ws": 2},
                extra=[u(0, "pal", (3, 1), ["fighting_knife"], facing="S")])
    play(game, [1, 1], "fight", target="dfn")
    h = by(game, "hit", "att")[0].fields
    assert (h["roll"], h["need"], h["hit"]) == (1, 2, 0)


@pytest.mark.parametrize("weapon, need, dice", [
    ("chainsword", 3, [1, 1]),  # Melee Accuracy +1 applies
    ("laspistol", 4, [1, 1, 1]),  # Sidearm Accuracy +2 never applies (hit, Firepower die, reaction)
    ("fighting_knife", 4, [1, 1]),  # Accuracy 0
])
def test_melee_accuracy_applies_sidearm_accuracy_does_not(weapon, need, dice):
    """§8.1 step 5 / §8.3: a Melee weapon's Accuracy modifies close combat hit rolls; a Sidearm's does not."""
    game = duel(att_weapons=(weapon,))
    play(game, dice, "fight", target="dfn")
    assert by(game, "hit", "att")[0].fields["need"] == need


# ---------------------------------------------------------------- 8.3 sidearms
def test_sidearm_in_melee_rolls_firepower_and_can_run_out_of_ammo():
    """§8.3: a Sidearm used in close combat rolls its Firepower dice; the Ammo symbol forces an Ammo test."""
    game = duel(att_weapons=("bolt_pistol",))
    # hit misses, Firepower 6 (Ammo symbol), Ammo test 3 < 6 fails, reaction
    play(game, [1, 6, 3, 1], "fight", target="dfn")
    assert by(game, "firepower", "att")[0].fields["ammo_symbol"] == 1
    assert game.events("ammo")[0].fields["passed"] == 0
    assert game.fighter("att")["out_of_ammo"] == [0]


# ---------------------------------------------------------------- charging
def test_charge_adds_a_die_and_the_free_fight_targets_the_charged_enemy():
    """§8.1 step 3 / §5.2: +1 Attack dice when charging; the free Fight attacks the charged enemy
    even when another enemy is also engaged; reaction attacks get no charge bonus (§14 item 8)."""
    game = make(u(1, "other", (4, 1), ["fighting_knife"], facing="SW", armour="none"),
                u(0, "att", (1, 2), ["fighting_knife"], facing="E"),
                u(1, "dfn", (4, 2), ["fighting_knife"], facing="W", armour="none"))
    game.activate("att")
    play(game, [1, 1, 1, 1, 1], "charge", target="dfn")  # D3, two attack dice, one reaction each from other and dfn
    assert game.events("charge")[0].fields["reached"] == 1
    assert game.fighter("att")["cell"] == (3, 2)
    a = by(game, "attacks", "att")
    assert len(a) == 1 and a[0].target == game.fid("dfn") and a[0].fields["dice"] == 2
    assert {e.actor for e in game.events("reaction")} == {game.fid("other"), game.fid("dfn")}
    assert by(game, "attacks", "dfn")[0].fields["dice"] == 1
    assert by(game, "attacks", "other")[0].fields["dice"] == 1


# ---------------------------------------------------------------- 8.1 step 7 / 8.4: reaction attacks
def test_every_engaged_enemy_makes_reaction_attacks_against_the_attacker():
    """§8.1 step 7: every enemy still Standing and Engaged with the attacker reacts, against the attacker."""
    game = duel(extra=[u(1, "dfn2", (3, 1), ["fighting_knife"], facing="SW", armour="none")])
    play(game, [1, 1, 1], "fight", target="dfn")
    reactions = game.events("reaction")
    assert {e.actor for e in reactions} == {game.fid("dfn"), game.fid("dfn2")}
    assert all(e.target == game.fid("att") for e in reactions)
    for name in ("dfn", "dfn2"):
        assert [e.target for e in by(game, "hit", name)] == [game.fid("att")]


def test_seriously_injured_target_makes_no_reaction_attacks():
    """§8.1 step 7: only enemies still Standing react; a target taken Seriously Injured does not."""
    game = duel()
    play(game, [4, 4, 3], "fight", target="dfn")  # hit, wound, Injury dice: Serious Injury
    assert game.fighter("dfn")["posture"] == "seriously_injured"
    assert game.events("reaction") == []


def test_broken_fighter_reaction_attacks_at_minus_two():
    """§8.4 / §10.2: a Broken fighter's reaction attacks are at -2."""
    game = duel(dfn={"broken": True})
    play(game, [1, 5], "fight", target="dfn")
    h = by(game, "hit", "dfn")[0].fields
    assert (h["need"], h["hit"]) == (6, 0)


def test_broken_fighter_turning_to_react_is_at_minus_three():
    """§8.1 step 1 example: a Broken fighter that must turn to face before reacting is at -3."""
    game = duel(dfn={"broken": True, "facing": "E"})
    play(game, [1, 6], "fight", target="dfn")
    h = by(game, "hit", "dfn")[0].fields
    assert (h["need"], h["hit"]) == (7, 0)
    assert game.fighter("dfn")["facing"] == "W"


# ---------------------------------------------------------------- 8.2 assists and interference
@pytest.mark.parametrize("pal_busy", [False, True])
def test_assist(pal_busy):
    """§8.2: +1 for a friend engaged with the target, unless that friend is engaged with another
    fighter of the target's gang."""
    extra = [u(0, "pal", (3, 1), ["fighting_knife"], facing="S")]
    if pal_busy:
        extra.append(u(1, "dfn2", (4, 0), ["fighting_knife"], facing="SW"))
    game = duel(extra=extra)
    play(game, [1, 1], "fight", target="dfn")  # att misses, dfn reacts
    assert by(game, "assist", "att")[0].fields["assists"] == (0 if pal_busy else 1)
    assert by(game, "hit", "att")[0].fields["need"] == (4 if pal_busy else 3)
    # the reaction still goes to the attacker, never to the assisting friend
    assert [e.target for e in by(game, "hit", "dfn")] == [game.fid("att")]


@pytest.mark.parametrize("dfn2_busy", [False, True])
def test_interference(dfn2_busy):
    """§8.2: -1 for each other enemy engaged with the attacker, unless it is engaged with another
    fighter of the attacker's gang."""
    extra = [u(1, "dfn2", (2, 3), ["fighting_knife"], facing="N", armour="none")]
    if dfn2_busy:
        extra.append(u(0, "pal", (1, 4), ["fighting_knife"], facing="NE"))
    game = duel(extra=extra)
    play(game, [1, 1, 1], "fight", target="dfn")  # att misses, dfn and dfn2 react
    assert by(game, "assist", "att")[0].fields["interference"] == (0 if dfn2_busy else 1)
    assert by(game, "hit", "att")[0].fields["need"] == (4 if dfn2_busy else 5)


# ---------------------------------------------------------------- 8.1 step 8: follow-up
def test_followup_free_coup_de_grace_when_all_engaged_enemies_seriously_injured():
    """§8.1 step 8 / §8.5: every enemy the attacker was engaged with is Prone and Seriously Injured:
    a free Coup de Grace takes one Out of Action."""
    game = duel()
    play(game, [4, 4, 3], "fight", target="dfn")
    assert game.decision == ("fight_followup", 0)
    assert game.mask[0, game.encode(Action("coup_de_grace", target="dfn"))]
    game.act("coup_de_grace", target="dfn")
    assert game.fighter("dfn")["state"] == "out_of_action"
    assert game.events("ooa")[0].fields["reason"] == 2  # coup de grace
    # the follow-up is free: the attacker still has its second action
    assert game.decision == ("choose_action", 0) and game.active_fighter == game.fid("att")


def test_followup_consolidate_up_to_two_inches_when_enemies_out_of_action():
    """§8.1 step 8: every engaged enemy Seriously Injured or Out of Action: the attacker may move up
    to 2" in any direction; no Coup de Grace without a Seriously Injured enemy."""
    game = duel()
    play(game, [4, 4, 6], "fight", target="dfn")  # Injury dice: Out of Action
    assert game.decision == ("fight_followup", 0)
    assert game.mask[0, game.encode(Action("consolidate", cell=(4, 2)))]
    assert not game.mask[0, game.encode(Action("consolidate", cell=(5, 2)))]
    assert not game.mask[0, game.encode(Action("coup_de_grace", target="dfn"))]
    game.act("consolidate", cell=(4, 2))
    assert game.fighter("att")["cell"] == (4, 2)
    assert game.events("consolidate")


def test_followup_may_be_declined():
    """§8.1 step 8: the Coup de Grace / consolidation is optional ('end' declines it)."""
    game = duel()
    play(game, [4, 4, 3], "fight", target="dfn")
    game.act("end")
    assert game.fighter("dfn")["posture"] == "seriously_injured"
    assert game.fighter("dfn")["state"] == "on_board"
    assert game.fighter("att")["cell"] == (2, 2)
    assert game.decision == ("choose_action", 0)


def test_no_followup_while_an_engaged_enemy_is_still_standing():
    """§8.1 step 8: no follow-up unless every enemy the attacker was engaged with is down."""
    game = duel(extra=[u(1, "dfn2", (3, 1), ["fighting_knife"], facing="SW", armour="none")])
    # hit 5 (needs 5: one interference), wound, Serious Injury; dfn2's Nerve test 6+6 passes; dfn2 reacts
    play(game, [5, 4, 3, 6, 6, 1], "fight", target="dfn")
    assert game.fighter("dfn")["posture"] == "seriously_injured"
    assert [e.actor for e in game.events("reaction")] == [game.fid("dfn2")]
    assert game.decision == ("choose_action", 0)


def test_pinned_fighter_stood_up_by_a_charge_reacts_as_having_turned():
    """§8.1 step 1 [N23] / §14 item 6: a Prone and Pinned fighter stood up by a charge counts as
    having turned to face for its reaction attacks (-1)."""
    game = make(u(0, "att", (1, 2), ["fighting_knife"], facing="E"),
                u(1, "dfn", (4, 2), ["fighting_knife"], posture="pinned", armour="none"))
    game.activate("att")
    play(game, [1, 1, 1, 1], "charge", target="dfn")  # D3, two attack dice, dfn's reaction
    assert game.fighter("dfn")["posture"] == "standing"
    assert by(game, "hit", "dfn")[0].fields["need"] == 5
