"""Weapon traits and wargear of rules digest 12 that no weapon of the starter data carries
(issue 3 item 4): Master-crafted, Entangle, Reckless, Combi, Drag, Impale, and the Assault /
Energy Shield with Shield Breaker. No sourced profile with these traits is in the digest or the
seeds, so each test gives a starter weapon the trait in a copy of the weapon table.

Fighters are Orlock gangers (WS 4+, BS 4+, S3, T3, W1, I4+, A1) unless stated; dice are scripted.
"""
import dataclasses

import pydantic
import pytest

from necro_env.config import load_weapons
from necro_env.config import schemas as S
from necro_env.rulesets.necromunda import constants as C
from necro_env.rulesets.necromunda.damage import TR_DRAG, TR_ENTANGLE, TR_IMPALE, TR_MASTER_CRAFTED, TR_RECKLESS
from necro_env.rulesets.necromunda.state import FI_ENTANGLED, WP_FLAGS, WP_OOA, WPF_MC_USED
from scenario_helpers import by, make, play, u

WEAPONS = load_weapons()


def table(weapon, *traits, profiles=(0,)):
    """A weapon table whose ``weapon`` profiles also have the TRAIT2 ``traits``."""
    prof = WEAPONS.profiles.copy()
    for p in profiles:
        for t in traits:
            prof[WEAPONS.index[weapon], p, C.PF_TRAITS2] |= C.TRAIT2_NAMES[t] >> 32
    return dataclasses.replace(WEAPONS, profiles=prof)


def traits(game, code):
    return [e for e in game.events("trait") if e.fields["trait"] == code]


def shooter_game(*others, weapon="lasgun", trait_names=(), spares=True):
    """'shooter' at (0, 2) facing E with ``weapon`` (+ traits), activated."""
    game = make(u(0, "shooter", (0, 2), [weapon], facing="E"), *others,
                weapons=table(weapon, *trait_names), spares=spares)
    game.activate("shooter")
    return game


# ---------------------------------------------------------------- Master-crafted
def test_master_crafted_rerolls_the_first_failed_ranged_hit_once_per_battle():
    """§12 Master-crafted (§7.4 hit roll): the first failed hit roll is re-rolled automatically,
    once per battle for that weapon (docs/rules.md)."""
    game = shooter_game(u(1, "target", (4, 2), armour="mesh"), trait_names=("master_crafted",))
    play(game, [2, 5, 1, 1], "shoot", weapon=0, target="target")  # miss 2, re-roll 5 hits, FP, wound 1
    assert [e.fields["hit"] for e in by(game, "hit", "shooter")] == [0, 1]
    mc = traits(game, TR_MASTER_CRAFTED)
    assert len(mc) == 1 and mc[0].fields["roll"] == 2
    f = game.fid("shooter")
    assert game.state.wp[0, f, 0, WP_FLAGS] & WPF_MC_USED
    game.activate("shooter", round_=2)
    play(game, [2, 1], "shoot", weapon=0, target="target")  # used up: the miss stands (FP die only)
    assert [e.fields["hit"] for e in by(game, "hit", "shooter")] == [0]
    assert traits(game, TR_MASTER_CRAFTED) == []


def test_master_crafted_hit_is_not_rerolled_when_it_hits():
    """§12 Master-crafted: a successful hit uses nothing; the re-roll stays for later."""
    game = shooter_game(u(1, "target", (4, 2), armour="mesh"), trait_names=("master_crafted",))
    play(game, [5, 1, 1], "shoot", weapon=0, target="target")
    assert traits(game, TR_MASTER_CRAFTED) == []
    assert game.state.wp[0, game.fid("shooter"), 0, WP_FLAGS] == 0


def melee_game(att_weapon="fighting_knife", att_traits=(), def_weapons=("fighting_knife",), extra=(), att=None,
               dfn=None, spares=True):
    att = dict(att or {})
    dfn = dict(dfn or {})
    att.setdefault("facing", "E")
    dfn.setdefault("facing", "W")
    dfn.setdefault("armour", "none")
    game = make(u(0, "att", (2, 2), [att_weapon], **att), u(1, "dfn", (3, 2), def_weapons, **dfn), *extra,
                weapons=table(att_weapon, *att_traits), spares=spares)
    game.activate("att")
    return game


def test_master_crafted_melee_reroll_cannot_then_be_parried():
    """§12 Master-crafted in close combat (§8.1 step 5): the first failed hit roll is re-rolled;
    a die is never re-rolled twice, so the defender's Parry (§12) cannot touch it."""
    game = melee_game(att_traits=("master_crafted",), def_weapons=("sword",))
    # att misses (1), re-roll 4 hits, wound 1 fails; dfn reacts with the sword: 1 misses
    play(game, [1, 4, 1, 1], "fight", target="dfn")
    assert [e.fields["hit"] for e in by(game, "hit", "att")] == [0, 1]
    assert game.events("parry") == []
    assert len(traits(game, TR_MASTER_CRAFTED)) == 1


# ---------------------------------------------------------------- Entangle
def test_entangle_hits_cannot_be_parried_and_a_six_gives_minus_two_to_reactions():
    """§12 Entangle (§8.4): its hits cannot be Parried; a natural 6 to hit gives the target's
    reaction attacks a further -2 (sword: 4+ with +1 = 3+, so 5+ here)."""
    game = melee_game(att_traits=("entangle",), def_weapons=("sword",))
    play(game, [6, 1, 4], "fight", target="dfn")  # hit 6 (not parried), wound 1 fails; dfn 4 misses
    assert game.events("parry") == []
    assert [e.actor for e in traits(game, TR_ENTANGLE)] == [game.fid("dfn")]
    react = by(game, "hit", "dfn")
    assert react[0].fields["need"] == 5 and react[0].fields["hit"] == 0
    assert game.state.fi[0, :, FI_ENTANGLED].sum() == 0  # the -2 ends with the fight


def test_entangle_without_a_six_leaves_reactions_alone():
    """§12 Entangle: a hit on 5 is still not parried, but gives no reaction penalty."""
    game = melee_game(att_traits=("entangle",), def_weapons=("sword",))
    play(game, [5, 1, 3, 1], "fight", target="dfn")  # hit 5, wound 1; dfn hits on 3 (3+), wound 1
    assert game.events("parry") == [] and traits(game, TR_ENTANGLE) == []
    assert by(game, "hit", "dfn")[0].fields["need"] == 3


# ---------------------------------------------------------------- Reckless
def test_reckless_shot_picks_a_random_model_friends_included():
    """§12 Reckless (§7.2 target priority does not apply): the target is chosen at random among
    all models in the vision arc, line of sight and range, friends too: candidates in slot order
    [friend, target]; a D6 of 1 picks the friend."""
    game = shooter_game(u(0, "friend", (3, 4)), u(1, "target", (4, 2)), trait_names=("reckless",), spares=False)
    play(game, [1, 4, 1, 1], "shoot", weapon=0, target="target")  # pick 1, hit 4, FP, wound 1
    pick = traits(game, TR_RECKLESS)[0].fields
    assert pick["need"] == 2 and pick["effect"] == game.fid("friend")
    assert game.events("shot")[0].target == game.fid("friend")
    assert game.fighter("friend")["posture"] == "pinned" and game.fighter("target")["posture"] == "standing"
    assert game.events("cool") == []


def test_reckless_random_pick_rerolls_outside_a_whole_number_of_candidates():
    """§12 Reckless: with 4 candidates [friend, spare_a, target, spare_b] a D6 of 5 or 6 is
    rolled again (a uniform pick, docs/rules.md); 3 picks the third."""
    game = shooter_game(u(0, "friend", (3, 4)), u(1, "target", (4, 2)), trait_names=("reckless",))
    play(game, [5, 6, 3, 4, 1, 1], "shoot", weapon=0, target="target")
    pick = traits(game, TR_RECKLESS)[0].fields
    assert pick["need"] == 4 and pick["roll"] == 3 and pick["effect"] == game.fid("target")
    assert game.events("shot")[0].target == game.fid("target")


def test_reckless_melee_attack_dice_go_to_random_models_in_base_contact():
    """§12 Reckless in close combat (§8.1): each Attack dice goes to a random model in base
    contact, friend or foe: [friend, dfn]; a D6 of 1 sends it to the friend."""
    game = melee_game("axe", att_traits=("reckless",), extra=(u(0, "friend", (2, 3)),))
    play(game, [1, 4, 1, 1], "fight", target="dfn")  # pick friend, hit 4, wound 1; dfn reacts: 1 misses
    assert traits(game, TR_RECKLESS)[0].fields["effect"] == game.fid("friend")
    hits = by(game, "hit", "att")
    assert [e.target for e in hits] == [game.fid("friend")]


# ---------------------------------------------------------------- Combi
def combi_game(**kw):
    game = make(u(0, "shooter", (0, 2), ["shotgun"], facing="E"), u(1, "target", (4, 2), armour="mesh"),
                weapons=table("shotgun", "combi", profiles=(0, 1)))
    game.activate("shooter", **kw)
    return game


def test_combi_ammo_test_rolls_twice_worst_counts_and_parts_run_out_separately():
    """§12 Combi (§7.6 Ammo): an Ammo test rolls two dice and the worse counts; only the failing
    part runs Out of Ammo, the other part can still shoot."""
    game = combi_game()
    # hit 4, Firepower 6 (Ammo symbol), Ammo 5 and 2 -> 2 fails 4+, wound 1 (knockback: no dice)
    play(game, [4, 6, 5, 2, 1], "shoot", weapon=0, profile=0, target="target")
    ammo = game.events("ammo")
    assert len(ammo) == 1 and ammo[0].fields["roll"] == 2 and ammo[0].fields["passed"] == 0
    f = game.fid("shooter")
    assert game.state.wp[0, f, 0, WP_OOA] == 1  # part 0 only
    game.activate("shooter", round_=2)
    assert not game.can("shoot", weapon=0, profile=0, target="target")
    assert game.can("shoot", weapon=0, profile=1, target="target")
    assert game.can("reload", weapon=0)


def test_combi_ammo_test_passes_when_both_dice_pass():
    """§12 Combi: both Ammo dice at least the Ammo value: no Out of Ammo."""
    game = combi_game()
    play(game, [4, 6, 4, 6, 1], "shoot", weapon=0, profile=0, target="target")
    assert game.events("ammo")[0].fields["passed"] == 1
    assert game.state.wp[0, game.fid("shooter"), 0, WP_OOA] == 0


def test_combi_reload_reloads_the_empty_part_rolling_twice():
    """§12 Combi (§7.6 Reload): a Reload reloads an Out of Ammo part; its Ammo test also rolls
    two dice, the worse counting."""
    game = combi_game()
    f = game.fid("shooter")
    game.state.wp[0, f, 0, WP_OOA] = 2  # part 1 (scatter) is Out of Ammo
    game.activate("shooter", round_=2)
    play(game, [6, 3], "reload", weapon=0)  # worse roll 3 < 4+: fails
    assert game.events("reload")[0].fields["passed"] == 0 and game.state.wp[0, f, 0, WP_OOA] == 2
    play(game, [4, 5], "reload", weapon=0)
    assert game.events("reload")[0].fields == {"slot": 0, "roll": 4, "passed": 1}
    assert game.state.wp[0, f, 0, WP_OOA] == 0


# ---------------------------------------------------------------- Shields
def shield_duel(shield="assault", facing="W", trait_names=(), **target):
    target.setdefault("armour", "mesh")
    game = shooter_game(u(1, "target", (4, 2), facing=facing, shield=shield, **target), trait_names=trait_names)
    return game


@pytest.mark.parametrize("shield", ["assault", "energy"])
def test_shield_gives_plus_one_against_ranged_attacks_from_the_front(shield):
    """§12 Assault / Energy Shield (§9.2 saves): +1 to the armour save against a ranged attack
    from the bearer's front arc: mesh 5+ becomes 4+ (the shot's pin does not remove it)."""
    game = shield_duel(shield)
    play(game, [4, 1, 4, 4], "shoot", weapon=0, target="target")  # hit, FP, wound 4, save 4 saves
    sv = game.events("save")[0].fields
    assert sv["need"] == 4 and sv["saved"] == 1


@pytest.mark.parametrize("case", ["behind", "prone", "breaker", "none"])
def test_shield_is_useless_from_behind_while_prone_and_against_shield_breaker(case):
    """§12 shields: no bonus from outside the front arc, while Prone, or against Shield Breaker."""
    kw = {"behind": dict(facing="E"), "prone": dict(posture="pinned"), "breaker": dict(trait_names=("shield_breaker",)),
          "none": dict(shield="none")}[case]
    game = shield_duel(**kw)
    play(game, [4, 1, 4, 4, 1], "shoot", weapon=0, target="target")  # save 4 fails, Injury die 1
    assert game.events("save")[0].fields["need"] == 5


def test_shield_gives_plus_two_against_melee_attacks_from_the_front():
    """§12 shields in close combat (§8.1, §9.2): +2 to the armour save: mesh 5+ becomes 3+, and
    the fighting knife's AP -1 makes it 4+ (6+ without the shield)."""
    game = melee_game(dfn=dict(armour="mesh", shield="assault"))
    play(game, [4, 4, 4, 1], "fight", target="dfn")  # hit, wound 4, save 4 saves; dfn reacts: 1 misses
    sv = game.events("save")[0].fields
    assert sv["need"] == 4 and sv["saved"] == 1
    game = melee_game(dfn=dict(armour="mesh", shield="assault", facing="E"))  # attacked from behind
    play(game, [4, 4, 6, 1], "fight", target="dfn")  # dfn turns to face for its reaction (-1): 1 misses
    assert game.events("save")[0].fields["need"] == 6


def test_shield_alone_counts_as_a_seven_plus_save_before_the_bonus():
    """§9.2: a fighter with no armour counts as 7+ before a bonus: a shield gives 5+ in melee,
    6+ after the fighting knife's AP -1."""
    game = melee_game(dfn=dict(armour="none", shield="energy"))
    play(game, [4, 4, 6, 1], "fight", target="dfn")  # hit, wound, save 6 saves; reaction 1 misses
    assert game.events("save")[0].fields["need"] == 6


def test_shield_config_value_is_checked():
    """docs/data.md: a gang fighter's shield is none, assault or energy."""
    ok = S.GangFighterFile.model_validate({"name": "x", "type": "ganger", "shield": "assault"})
    assert ok.shield == "assault"
    with pytest.raises(pydantic.ValidationError, match="assault"):
        S.GangFighterFile.model_validate({"name": "x", "type": "ganger", "shield": "tower"})


# ---------------------------------------------------------------- Drag
def test_drag_pulls_the_target_d3_inches_toward_the_attacker():
    """§12 Drag: the target hit and not Out of Action; D6 >= its S pulls it D3" straight toward
    the attacker (D3 from a D6 of 3 = 2)."""
    game = shooter_game(u(1, "target", (5, 2), armour="mesh"), trait_names=("drag",))
    play(game, [4, 1, 1, 3, 3], "shoot", weapon=0, target="target")  # hit, FP, wound 1; drag 3 >= S3, D3 2
    d = traits(game, TR_DRAG)[0].fields
    assert d["roll"] == 3 and d["need"] == 3 and d["effect"] == 2
    assert game.fighter("target")["cell"] == (3, 2)


def test_drag_fails_below_the_targets_strength():
    """§12 Drag: a D6 below the target's S does nothing."""
    game = shooter_game(u(1, "target", (5, 2), armour="mesh"), trait_names=("drag",))
    play(game, [4, 1, 1, 2], "shoot", weapon=0, target="target")
    assert traits(game, TR_DRAG)[0].fields["effect"] == 0 and game.fighter("target")["cell"] == (5, 2)


def test_no_drag_roll_for_a_target_taken_out_of_action():
    """§12 Drag: only a target hit and not taken Out of Action is pulled (no roll otherwise)."""
    game = shooter_game(u(1, "target", (5, 2), armour="none"), trait_names=("drag",))
    play(game, [4, 1, 4, 6], "shoot", weapon=0, target="target")  # hit, FP, wound 4, Injury 6: Out of Action
    assert game.fighter("target")["state"] == "out_of_action" and traits(game, TR_DRAG) == []


def test_drag_blocked_by_a_fighter_in_the_way():
    """§12 Drag: a fighter on the line stops the pull next to it (not pushed along, docs/rules.md)."""
    game = shooter_game(u(1, "target", (5, 2), armour="mesh"), u(0, "other", (2, 2), posture="pinned"),
                        trait_names=("drag",))
    play(game, [4, 1, 1, 6, 6], "shoot", weapon=0, target="target")  # D3 3, stops at (3, 2) after 2"
    assert traits(game, TR_DRAG)[0].fields["effect"] == 2
    assert game.fighter("target")["cell"] == (3, 2) and game.fighter("other")["cell"] == (2, 2)


# ---------------------------------------------------------------- Impale
def test_impale_goes_on_through_models_behind_until_strength_zero():
    """§12 Impale: a hit that wounds and is not saved goes on along the line away from the
    attacker: the closest model within 1" of it is hit on 3+ at -1 S, and again from there, until
    S reaches 0 (S3: two more hits at S2 and S1; the fourth model is never rolled for)."""
    game = shooter_game(u(1, "target", (2, 2), armour="none"), u(1, "m2", (3, 2), armour="none"),
                        u(1, "m3", (4, 2), armour="none"), u(1, "m4", (5, 2), armour="none"),
                        trait_names=("impale",))
    # hit 4, FP 1, wound 4, injury 1 (flesh); impale 3 on m2: wound 6 (S2 5+), injury 1;
    # impale 3 on m3: wound 6 (S1 6+), injury 1; S 0: stop
    play(game, [4, 1, 4, 1, 3, 6, 1, 3, 6, 1], "shoot", weapon=0, target="target")
    imp = traits(game, TR_IMPALE)
    assert [e.actor for e in imp] == [game.fid("m2"), game.fid("m3")]
    assert [e.fields["effect"] for e in imp] == [1, 1]
    wounds = game.events("wound")
    assert [w.fields["strength"] for w in wounds] == [3, 2, 1]
    assert game.fighter("m2")["posture"] == "pinned" and game.fighter("m4")["posture"] == "standing"


def test_impale_stops_on_a_failed_three_plus_or_a_saved_wound():
    """§12 Impale: a saved wound does not go on; a D6 below 3 ends the line."""
    game = shooter_game(u(1, "target", (2, 2), armour="mesh"), u(1, "m2", (3, 2)), trait_names=("impale",))
    play(game, [4, 1, 4, 6], "shoot", weapon=0, target="target")  # wound, mesh save 6: saved
    assert traits(game, TR_IMPALE) == []
    game = shooter_game(u(1, "target", (2, 2), armour="none"), u(1, "m2", (3, 2)), trait_names=("impale",))
    play(game, [4, 1, 4, 1, 2], "shoot", weapon=0, target="target")  # unsaved; impale roll 2 misses
    imp = traits(game, TR_IMPALE)
    assert len(imp) == 1 and imp[0].fields["effect"] == 0
    assert game.fighter("m2")["posture"] == "standing"


def test_impale_ignores_models_off_the_line():
    """§12 Impale: only models within 1" of the line onward (centre within 1.5 of the ray)."""
    game = shooter_game(u(1, "target", (2, 2), armour="none"), u(1, "m2", (4, 4)), trait_names=("impale",))
    play(game, [4, 1, 4, 1], "shoot", weapon=0, target="target")
    assert traits(game, TR_IMPALE) == []
    assert game.fighter("m2")["posture"] == "standing"
