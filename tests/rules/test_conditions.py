"""Conditions (rules digest 4.3 and the Korean seed's list): Blaze, Blind, Concussion,
Hidden / Revealed, Insane, Webbed, Gunked, Starving with Cannibalise, Intoxicated, Mounted.

Orlock gangers: M5, WS 4+, BS 4+, S3, T3, W1, I 4+, Cl 7+, Wil 7+, mesh armour (6+).
Dice are scripted; the board is the 10x6 open board of scenario_helpers (spares at (9, 0)
and (9, 5)).
"""
import pytest

from necro_env.rulesets.necromunda import conditions as C
from necro_env.rulesets.necromunda.query import initiative, movement
from necro_env.rulesets.necromunda.state import C_BLIND, C_HIDDEN, DK_BOTTLE, FI_COND, FI_CTRL, FI_READY, G_ACTIVE, G_DGANG, G_DK

from scenario_helpers import by, make, play, u


def conds(game, who):
    return game.fighter(who)["conditions"]


def st(game):
    return game.state, game.static


# ---------------------------------------------------------------- Blaze
def test_blaze_activation_hit_move_and_put_out():
    """§4.3 Blaze: on activation a burning fighter takes an automatic S3 AP-1 D1 hit, then (Standing
    and Active) moves 2D6" in a Scatter direction, goes Prone and Pinned (the player's choice), and rolls
    D6 +2 (Prone) to put the fire out on 6+; its activation then ends."""
    game = make(u(0, "burn", (2, 2), conditions=["blaze"]), u(1, "foe", (0, 5)))
    # wound roll 3 (S3 v T3 needs 4: no wound); 2D6 = 1 + 2 = 3"; Scatter face 2 (even: +30),
    # direction die 2 (60): 90 degrees = east; extinguish 4 + 2 = 6
    game.script_dice([3, 1, 2, 2, 2, 4])
    game.activate("burn")
    mv = by(game, "blaze_move", "burn")[0]
    assert mv.fields["roll_2d6"] == 3 and mv.fields["direction"] == 90
    game.act("go_prone")  # the player's choice after the move (tests/rules/test_blaze_choice.py)
    assert game.dice_left() == 0
    f = game.fighter("burn")
    assert f["cell"] == (5, 2)
    assert f["posture"] == "pinned"
    ext = by(game, "extinguish", "burn")[0]
    assert ext.fields == {"roll": 4, "total": 6, "put_out": 1}
    assert "blaze" not in f["conditions"]
    assert game.active_fighter != game.fid("burn")  # the activation is over
    assert not f["ready"]


def test_blaze_hit_wounds_and_fire_stays():
    """§4.3 Blaze: the automatic hit is S3 AP-1 D1 (mesh 5+ saves on 6+); the fire stays when the
    roll to put it out is below 6 (3 + 2 for Prone = 5)."""
    game = make(u(0, "burn", (2, 2), conditions=["blaze"], w=2), u(1, "foe", (0, 5)))
    # wound 4, save 1 (needs 6), 2D6 = 1 + 1, Scatter face 1 (odd), direction 1: north (0); extinguish 3
    game.script_dice([4, 1, 1, 1, 1, 1, 3])
    game.activate("burn")
    assert game.events("save")[0].fields["need"] == 6
    assert game.events("damage")[0].fields["wounds_left"] == 1
    game.act("go_prone")
    assert game.dice_left() == 0
    f = game.fighter("burn")
    assert f["cell"] == (2, 0)
    assert "blaze" in f["conditions"]
    assert by(game, "extinguish", "burn")[0].fields["total"] == 5


def test_blaze_move_stops_one_inch_from_enemy():
    """§4.3 Blaze: the random move stops before it would come within 1" of an enemy."""
    game = make(u(0, "burn", (1, 2), conditions=["blaze"]), u(1, "foe", (7, 2)))
    # no wound; 2D6 = 6 + 6 east; the fighter stops at (5, 2), next to no enemy; extinguish 1
    game.script_dice([1, 6, 6, 2, 2, 1])
    game.activate("burn")
    game.act("go_prone")
    assert game.fighter("burn")["cell"] == (5, 2)


def test_blaze_pinned_stands_up_and_friends_help():
    """§4.3 Blaze: a Prone and Pinned burning fighter stands up (it does not move); each other
    Active friend within 1" adds 1 to the roll to put the fire out."""
    game = make(u(0, "burn", (2, 2), conditions=["blaze"], posture="pinned"), u(0, "pal", (3, 2)),
                u(1, "foe", (0, 5)))
    game.script_dice([1, 5])  # no wound; extinguish 5 + 1 (pal) = 6
    game.activate("burn")
    assert game.dice_left() == 0
    f = game.fighter("burn")
    assert f["posture"] == "standing" and f["cell"] == (2, 2)
    assert by(game, "extinguish", "burn")[0].fields == {"roll": 5, "total": 6, "put_out": 1}
    assert "blaze" not in f["conditions"]


def test_blaze_no_reaction_attacks():
    """§4.3 / §8.4: a burning fighter makes no reaction attacks."""
    game = make(u(0, "att", (2, 2), ["fighting_knife"]), u(1, "burn", (3, 2), ["fighting_knife"], facing="W",
                                                            conditions=["blaze"]))
    game.activate("att")
    game.script_dice([1])  # the attacker's single hit roll misses; no reaction from the burning fighter
    game.act("fight", target="burn")
    assert game.dice_left() == 0
    assert not by(game, "reaction", "burn")


def test_blaze_trait_catching_fire_gunked():
    """§12 Blaze / §4.3 Gunked: a hit target catches fire on 4+, or 2+ when Gunked."""
    game = make(u(0, "att", (2, 2)), u(1, "t1", (5, 2)), u(1, "t2", (5, 4), conditions=["gunked"]))
    s, stc = st(game)
    game.script_dice([3, 2])
    assert not C.blaze_trait(s, stc, 0, game.fid("att"), game.fid("t1"))
    assert C.blaze_trait(s, stc, 0, game.fid("att"), game.fid("t2"))
    assert "blaze" not in conds(game, "t1") and "blaze" in conds(game, "t2")


# ---------------------------------------------------------------- Hidden
def test_hidden_never_while_blazing():
    """§4.3 Hidden / Blaze: a burning model can never be Hidden; catching fire reveals it."""
    game = make(u(0, "a", (2, 2), conditions=["hidden"]), u(1, "b", (5, 2), conditions=["blaze"]))
    s, stc = st(game)
    assert not C.apply_hidden(s, stc, 0, game.fid("b"), -1)
    assert "hidden" not in conds(game, "b")
    C.apply_blaze(s, stc, 0, game.fid("a"), -1)
    assert conds(game, "a") == ["blaze"]
    assert C.reveal(s, stc, 0, game.fid("a"), -1, C.CAUSE_SHOT) is False


def test_hidden_revealed():
    """§4.3 Hidden / Revealed: a Hidden model loses the condition by being revealed."""
    game = make(u(0, "a", (2, 2)), u(1, "b", (5, 2)))
    s, stc = st(game)
    f = game.fid("a")
    assert C.apply_hidden(s, stc, 0, f, -1)
    assert s.fi[0, f, FI_COND] & C_HIDDEN
    assert C.reveal(s, stc, 0, f, -1, C.CAUSE_SHOT)
    assert conds(game, "a") == []


# ---------------------------------------------------------------- Blind
def test_blind_loses_ready_marker():
    """§4.3 Blind: a Blind model loses its Ready marker."""
    game = make(u(0, "a", (2, 2)), u(1, "b", (5, 2)))
    game.activate("a")
    s, stc = st(game)
    fb = game.fid("b")
    assert s.fi[0, fb, FI_READY] == 1
    C.apply_blind(s, stc, 0, fb, game.fid("a"))
    assert s.fi[0, fb, FI_READY] == 0
    assert conds(game, "b") == ["blind"]


def test_blind_without_ready_gets_none_next_round_and_ends_on_activation():
    """§4.3 / §2.2 Blind: a Blind model without a Ready marker gets none in the next Priority
    phase; Blind lasts until its next activation."""
    game = make(u(0, "a", (2, 2)), u(1, "b", (5, 2)), spares=False)
    game.activate("a", ready_all=False)
    s, stc = st(game)
    fa = game.fid("a")
    C.apply_blind(s, stc, 0, fa, -1)  # a has no Ready marker any more (it is activated)
    play(game, [6, 1], "end")  # End phase (nothing to test), next Priority: a 6, b 1
    assert game.round == 2
    assert not game.fighter("a")["ready"] and game.fighter("b")["ready"]
    assert game.current_gang == 1  # a has no Ready fighter: b activates
    game.act("select", fighter="b")
    play(game, [1, 6], "end")  # round 3 (b holds Priority): a gets a Ready marker again
    assert game.fighter("a")["ready"] and "blind" in conds(game, "a")
    game.act("select", fighter="b")
    game.act("end")
    game.act("select", fighter="a")
    assert "blind" not in conds(game, "a")
    assert by(game, "condition", "a")[0].fields == {"condition": C_BLIND, "gained": 0, "cause": C.CAUSE_ACTIVATION}


def test_blind_reactions_hit_only_on_natural_six():
    """§4.3 / §8.4 Blind: its reaction attacks hit only on a natural 6."""
    game = make(u(0, "att", (2, 2), ["fighting_knife"]), u(1, "blind", (3, 2), ["fighting_knife"], facing="W",
                                                             conditions=["blind"]))
    game.activate("att")
    # attacker: 1 die, misses (1); reaction: 1 die rolls 5 (a hit for WS 4+, but Blind needs a 6)
    game.script_dice([1, 5])
    game.act("fight", target="blind")
    assert game.dice_left() == 0
    hits = by(game, "hit", "blind")
    assert hits[0].fields["roll"] == 5 and hits[0].fields["hit"] == 0 and hits[0].fields["need"] == 6


# ---------------------------------------------------------------- Concussion, Gunked
def test_concussion_initiative_and_end_of_round():
    """§4.3 Concussion: Initiative -2 (I4+ becomes 6+, never worse than 6+) until the end of the round."""
    game = make(u(0, "a", (2, 2), conditions=["concussion"]), u(0, "b", (2, 4), conditions=["concussion"], i=5),
                u(1, "foe", (7, 2)), spares=False)
    s, stc = st(game)
    assert initiative(s, stc, 0, game.fid("a")) == 6
    assert initiative(s, stc, 0, game.fid("b")) == 6
    game.activate("a", ready_all=False)
    play(game, [6, 1], "end")  # End phase; round 2 Priority
    assert conds(game, "a") == [] and conds(game, "b") == []
    assert initiative(s, stc, 0, game.fid("a")) == 4


def test_concussion_retreat_test():
    """§4.3 Concussion: the Retreat Initiative test needs 6+ instead of 4+."""
    game = make(u(0, "a", (2, 2), ["fighting_knife"], conditions=["concussion"]),
                u(1, "foe", (3, 2), ["fighting_knife"]))
    game.activate("a")
    game.script_dice([5, 1])  # Retreat test 5 < 6 fails; the foe's Initiative test 1 fails (no reaction)
    game.act("retreat", cell=(0, 2))
    init = by(game, "init", "a")[0]
    assert init.fields["need"] == 6 and init.fields["passed"] == 0
    assert game.fighter("a")["cell"] == (2, 2)


def test_gunked_movement_charge_and_initiative():
    """§4.3 Gunked: Movement -1" (M5 -> 4"), no D3" when charging, Initiative 4+ -> 5+."""
    game = make(u(0, "a", (0, 2), ["fighting_knife"], conditions=["gunked"]), u(1, "foe", (6, 2)))
    s, stc = st(game)
    fa = game.fid("a")
    assert movement(s, 0, fa) == 4 and initiative(s, stc, 0, fa) == 5
    game.activate("a")
    assert not game.can("charge", target="foe")  # contact (5, 2) is 5" away: M4, no D3
    game2 = make(u(0, "a", (1, 2), ["fighting_knife"], conditions=["gunked"]), u(1, "foe", (6, 2)))
    game2.activate("a")
    game2.script_dice([1, 1, 1])  # the free Fight's two hit rolls and the reaction miss; no D3 for the charge
    game2.act("charge", target="foe")
    ch = by(game2, "charge", "a")[0]
    assert ch.fields["d3"] == 0 and ch.fields["allowance_inches"] == 4 and ch.fields["reached"] == 1


def test_gunked_move_limit():
    """§4.3 Gunked: an M5 fighter moves at most 4"."""
    game = make(u(0, "a", (0, 2), conditions=["gunked"]), u(1, "foe", (9, 3)))
    game.activate("a")
    assert game.can("move", cell=(4, 2))
    assert not game.can("move", cell=(5, 2))


# ---------------------------------------------------------------- Insane
def test_insane_one_two_becomes_broken_and_runs():
    """§4.3 Insane: 1-2 on activation: it becomes Broken (and so Runs for Cover as its activation)."""
    game = make(u(0, "x", (0, 0)), u(1, "mad", (4, 2), conditions=["insane"]))
    game.activate("x")
    game.act("end")  # gang b chooses its fighter: the real select path
    play(game, [2, 3, 3], "select", fighter="mad")  # Insane roll 2; Running for Cover 2D6 = 6
    assert by(game, "insane", "mad")[0].fields["result"] == 0
    assert game.fighter("mad")["broken"]
    assert by(game, "rfc", "mad")[0].fields["allowance_inches"] == 6


def test_insane_one_two_already_broken_flees():
    """§4.3 Insane: 1-2 when already Broken: it flees the battlefield."""
    game = make(u(0, "x", (0, 0)), u(1, "mad", (4, 2), conditions=["insane"], broken=True))
    game.activate("x")
    game.act("end")
    play(game, [1], "select", fighter="mad")
    assert game.fighter("mad")["state"] == "fled"


def test_insane_three_four_opponent_controls_activation():
    """§4.3 Insane: 3-4: the opponent controls it for this activation, as a member of its gang;
    the decision passes to that gang (G_DGANG, agent_selection) and control ends with the activation."""
    game = make(u(0, "mad", (2, 2), ["autogun"], facing="E"), u(0, "pal", (6, 2)), u(1, "foe", (2, 5)))
    s, stc = st(game)
    C.apply_insane(s, stc, 0, game.fid("mad"), -1)
    game.script_dice([3])
    game.activate("mad")
    assert game.state.g[0, G_ACTIVE] == game.fid("mad")
    assert game.current_gang == 1 and game.state.g[0, G_DGANG] == 1
    # as a member of gang b it may shoot its own gang's fighter
    assert game.can("shoot", weapon=0, target="pal")
    assert not game.can("shoot", weapon=0, target="foe")
    game.act("end")
    assert game.fighter("mad")["conditions"] == ["insane"]
    assert game.state.fi[0, game.fid("mad"), FI_CTRL] == 0
    assert game.current_gang == 1  # b's turn to activate its own fighters


def test_insane_three_gangs_roll_off_for_control():
    """§4.3 Insane, multi-player: on 3-4 the other players roll off (D6, ties re-rolled); the winner
    controls the fighter for this activation."""
    from necro_env.testing import fighter, gang, scenario
    from scenario_helpers import OPEN

    gangs = [gang("a", fighter("orlock", "ganger", [], name="mad")), gang("b", fighter("orlock", "ganger", [], name="b1")),
             gang("c", fighter("orlock", "ganger", [], name="c1"))]
    game = scenario(OPEN, gangs, [dict(fighter="mad", cell=(2, 2), conditions=["insane"]),
                                  dict(fighter="b1", cell=(7, 0)), dict(fighter="c1", cell=(7, 5))])
    game.script_dice([4, 3, 3, 2, 5])  # Insane 4; roll-off b 3, c 3 (tie); again b 2, c 5: gang c
    game.activate("mad")
    assert game.dice_left() == 0
    assert by(game, "insane", "mad")[0].fields == {"roll": 4, "result": 2, "controller": 2}
    assert game.current_gang == 2
    assert game.can("charge", target="b1") and game.can("charge", target="mad") is False
    game.act("end")
    assert game.state.fi[0, game.fid("mad"), FI_CTRL] == 0


@pytest.mark.parametrize("wil_dice, still_insane", [((4, 3), False), ((3, 3), True)])
def test_insane_five_six_acts_normally_then_willpower(wil_dice, still_insane):
    """§4.3 Insane: 5-6: it acts normally; at the end of the activation a Willpower test (Wil 7+)
    removes the condition on a pass."""
    game = make(u(0, "mad", (2, 2), conditions=["insane"]), u(1, "foe", (7, 2)))
    game.script_dice([6])
    game.activate("mad")
    assert game.current_gang == 0 and game.can("move", cell=(2, 3))
    play(game, list(wil_dice), "end")
    w = by(game, "will", "mad")[0]
    assert w.fields["passed"] == (0 if still_insane else 1)
    assert ("insane" in conds(game, "mad")) == still_insane


def test_cursed_trait_willpower():
    """§12 Cursed / §4.3 Insane: the target must pass a Willpower test or become Insane."""
    game = make(u(0, "a", (2, 2)), u(1, "b", (5, 2)), u(1, "c", (5, 4)))
    s, stc = st(game)
    game.script_dice([4, 3, 3, 3])
    assert not C.cursed_test(s, stc, 0, game.fid("a"), game.fid("b"))
    assert C.cursed_test(s, stc, 0, game.fid("a"), game.fid("c"))
    assert conds(game, "b") == [] and conds(game, "c") == ["insane"]


# ---------------------------------------------------------------- Webbed
def test_webbed_is_seriously_injured_with_nerve_tests():
    """§4.3 Webbed: treated as Seriously Injured (Prone and Seriously Injured; friends within 3"
    test Nerve as for any Serious Injury)."""
    game = make(u(0, "a", (2, 2)), u(1, "b", (5, 2)), u(1, "pal", (6, 2)))
    s, stc = st(game)
    game.script_dice([4, 4])  # pal's Nerve test 8 >= Cl 7
    C.apply_webbed(s, stc, 0, game.fid("b"), game.fid("a"))
    assert game.dice_left() == 0
    assert game.fighter("b")["posture"] == "seriously_injured"
    assert conds(game, "b") == ["webbed"]
    assert by(game, "nerve", "pal")


@pytest.mark.parametrize("face, posture, webbed, flesh, state", [
    (1, "pinned", False, 1, "on_board"),  # Flesh Wound: apply it, free of the web
    (3, "seriously_injured", True, 0, "on_board"),  # Serious Injury: stays Webbed, no Flesh Wound
    (6, "seriously_injured", False, 0, "out_of_action"),  # Out of Action: removed
])
def test_webbed_recovery(face, posture, webbed, flesh, state):
    """§4.3 Webbed / §11.3: Recovery in the End phase: Flesh Wound removes Webbed (with the wound),
    Serious Injury keeps it without a Flesh Wound, Out of Action removes the fighter."""
    game = make(u(0, "a", (2, 2)), u(1, "web", (6, 2), conditions=["webbed"]), spares=True)
    game.activate("a", ready_all=False)
    # End phase: gang b's Bottle check (decision, then D6), the Recovery die; then the Priority dice
    game.act("end")
    assert game.state.g[0, G_DK] == DK_BOTTLE
    play(game, [1, face, 6, 1], "end")  # bottle roll 1 (1 + 1 casualty is not above crew 2)
    f = game.fighter("web")
    assert f["state"] == state
    if state == "on_board":
        assert f["posture"] == posture
        assert ("webbed" in f["conditions"]) == webbed
        assert f["flesh_wounds"] == flesh


# ---------------------------------------------------------------- Starving / Cannibalise
def test_starving_compelled_charge_and_cannibalise():
    """§4.3 Starving: activated with a Prone and Seriously Injured fighter within its maximum charge
    range, it fails its Willpower test and must charge it and Cannibalise it: D66 55+ removes the
    victim (Captured / Critical Injury / Memorable Death); it is no longer Starving."""
    game = make(u(0, "hungry", (1, 2), conditions=["starving"]), u(1, "meal", (5, 2), posture="seriously_injured"))
    # Willpower 2D6 = 3 < 7 fails; D3 (1); D66 = 5, 6 -> 56: removed
    game.script_dice([1, 2, 1, 5, 6])
    game.activate("hungry")
    assert game.dice_left() == 0
    assert game.fighter("hungry")["cell"] == (4, 2)
    c = by(game, "cannibalise", "hungry")[0]
    assert c.fields == {"roll": 56, "removed": 1}
    assert game.fighter("meal")["state"] == "out_of_action"
    assert "starving" not in conds(game, "hungry")
    assert game.active_fighter != game.fid("hungry")


def test_house_legacy_starving_compelled_charge_is_the_house_legacy_charge():
    """§4.3 Starving with §5.3 [HL] Charge: the compelled charge is a Charge, so under House Legacy it
    is 2 x M capped at 12" with no D3 rolled (actions.charge_allowance), as every other Charge. Before
    2026-12-01 it was the core M + D3: a D3 was rolled and an M5 fighter could fall short of a victim
    7" away (docs/rules.md, House Legacy §5.3)."""
    game = make(u(0, "hungry", (1, 2), conditions=["starving"]), u(1, "meal", (9, 2), posture="seriously_injured"),
                variant="house_legacy")
    # Willpower 2D6 = 3 < 7 fails; no D3; D66 = 5, 6 -> 56: removed; the meal's friend in the corner
    # takes a Nerve test (2D6 = 12, passed)
    game.script_dice([1, 2, 5, 6, 6, 6])
    game.activate("hungry")
    assert game.dice_left() == 0
    assert game.fighter("hungry")["cell"] == (8, 2)  # 7" from (1, 2): beyond M5 + a D3 of 1, within 2 x M5
    assert by(game, "cannibalise", "hungry")[0].fields == {"roll": 56, "removed": 1}


def test_starving_cannibalise_victim_stays():
    """§4.3 Cannibalise: a D66 below 55 leaves the victim on the battlefield (eaten again later)."""
    game = make(u(0, "hungry", (1, 2), conditions=["starving"]), u(0, "friend", (3, 2), posture="seriously_injured"),
                u(1, "foe", (8, 2)))
    game.script_dice([1, 1, 1, 3, 4])  # Willpower 2 fails; D3; D66 = 34: the victim stays
    game.activate("hungry")
    assert game.dice_left() == 0
    assert game.fighter("hungry")["cell"] == (2, 2)
    assert by(game, "cannibalise", "hungry")[0].fields == {"roll": 34, "removed": 0}
    assert game.fighter("friend")["state"] == "on_board"
    assert "starving" not in conds(game, "hungry")


def test_starving_passes_willpower_acts_normally():
    """§4.3 Starving: a passed Willpower test leaves the activation to its player."""
    game = make(u(0, "hungry", (1, 2), conditions=["starving"]), u(1, "meal", (5, 2), posture="seriously_injured"))
    game.script_dice([4, 4])
    game.activate("hungry")
    assert game.dice_left() == 0
    assert game.active_fighter == game.fid("hungry")
    assert game.can("move", cell=(1, 4))


def test_starving_cannibalise_replaces_coup_de_grace():
    """§4.3 Starving: no Coup de Grace; Cannibalise (Basic) instead, also on a friend."""
    game = make(u(0, "hungry", (2, 2), conditions=["starving"], facing="E"),
                u(1, "meal", (3, 2), posture="seriously_injured"), u(0, "pal", (1, 2), posture="seriously_injured"))
    game.script_dice([6, 6])  # Willpower 12 passes
    game.activate("hungry")
    assert not game.can("coup_de_grace", target="meal")
    assert game.can("cannibalise", target="meal")
    assert game.can("cannibalise", target="pal")  # a friend too (it may still turn to face it)
    play(game, [2, 3], "cannibalise", target="meal")  # D66 23: stays
    assert game.fighter("meal")["state"] == "on_board"
    assert "starving" not in conds(game, "hungry")
    assert not game.can("cannibalise", target="meal")  # no longer Starving


def test_starving_strength_penalty_unarmed():
    """§4.3 Starving: Strength -1 for unarmed attacks (S3 -> S2 against T3 wounds on 5+)."""
    game = make(u(0, "hungry", (2, 2), conditions=["starving"], facing="E"), u(1, "foe", (3, 2), facing="W"))
    game.activate("hungry")  # no Prone and Seriously Injured fighter near: no Willpower test
    play(game, [4, 4, 1], "fight", target="foe")  # hit 4, wound roll 4 (needs 5: fails), reaction misses
    w = by(game, "wound", "hungry")[0]
    assert w.fields["strength"] == 2 and w.fields["need"] == 5 and w.fields["wounded"] == 0


# ---------------------------------------------------------------- Intoxicated
def test_intoxicated_flag():
    """§4.3 Intoxicated: a flag that the rule causing it gives meaning to; set and cleared."""
    game = make(u(0, "a", (2, 2), conditions=["intoxicated"]), u(1, "b", (5, 2)))
    assert conds(game, "a") == ["intoxicated"]
    s, stc = st(game)
    assert C.clear_intoxicated(s, stc, 0, game.fid("a"), -1)
    assert conds(game, "a") == []


def test_unknown_condition_rejected():
    """Scenario API: an unknown condition name is refused with the allowed names."""
    with pytest.raises(ValueError, match="unknown condition 'onfire'.*blaze"):
        make(u(0, "a", (2, 2), conditions=["onfire"]), u(1, "b", (5, 2)))


# ---------------------------------------------------------------- Mounted
def test_mounted_knocked_down_instead_of_pinned():
    """§4.3 Mounted, I get knocked down: hit by a ranged attack it tests Initiative instead of being
    pinned; a failure means an automatic hit by distance moved (0-5": S3 AP- D1), then Prone and Pinned."""
    game = make(u(0, "gun", (0, 2), ["autogun"], facing="E"), u(1, "rider", (5, 2), conditions=["mounted"], w=3))
    game.activate("gun")
    # hit 6; firepower 1 (1 hole); Initiative 2 < 4 fails; knock-down hit: wound 4 (S3 v T3), save 1 fails;
    # then the autogun hit: wound 1
    game.script_dice([6, 1, 2, 4, 1, 1])
    game.act("shoot", weapon=0, target="rider")
    assert game.dice_left() == 0
    kd = [e for e in by(game, "init", "rider") if e.fields["reason"] == 7][0]
    assert kd.fields["passed"] == 0
    assert game.fighter("rider")["posture"] == "pinned"
    assert game.fighter("rider")["wounds"] == 2


def test_mounted_passes_and_stays_standing():
    """§4.3 Mounted: a passed Initiative test keeps it Standing and Active."""
    game = make(u(0, "gun", (0, 2), ["autogun"], facing="E"), u(1, "rider", (5, 2), conditions=["mounted"]))
    game.activate("gun")
    game.script_dice([6, 1, 5, 1])  # hit, firepower, Initiative 5 passes, wound roll 1
    game.act("shoot", weapon=0, target="rider")
    assert game.dice_left() == 0
    assert game.fighter("rider")["posture"] == "standing"
    assert not game.events("pinned")


def test_mounted_quick_retreat_and_stand_up():
    """§4.3 Mounted: Quick Retreat +2 to the Retreat test; Stand Up needs an Initiative test."""
    game = make(u(0, "rider", (2, 2), ["fighting_knife"], conditions=["mounted"]),
                u(1, "foe", (3, 2), ["fighting_knife"]))
    game.activate("rider")
    game.script_dice([2, 1, 1])  # Retreat: need 4 - 2 = 2: passes; foe's Initiative 1 fails; D6 = 1"
    game.act("retreat", cell=(0, 2))
    assert by(game, "init", "rider")[0].fields["need"] == 2
    assert game.fighter("rider")["cell"] == (1, 2)
    game2 = make(u(0, "rider", (2, 2), conditions=["mounted"], posture="pinned"), u(1, "foe", (8, 2)))
    game2.activate("rider")
    play(game2, [3], "stand_up")  # Initiative 3 < 4: the action is wasted
    assert game2.fighter("rider")["posture"] == "pinned"
    assert not game2.can("stand_up")


# ---------------------------------------------------------------- observations
def test_encoders_expose_conditions():
    """§4.3 conditions in the observations (docs/api.md): entity/flat fighter columns cond_*
    and `controlled`, spatial channels blaze / blind / webbed / insane / other_conditions."""
    from necro_env.envs.encoders import N_BOARD, EntityEncoder, SpatialEncoder, _F, _S

    game = make(u(0, "a", (2, 2), conditions=["blaze", "gunked"]), u(1, "b", (5, 2), conditions=["webbed"]))
    rows = EntityEncoder().encode(game, 0)["fighters"]
    ra, rb = 0, game.dims.max_fighters  # a is gang 0 slot 0; b is gang 1 slot 0 (relative row MF)
    assert rows[ra, _F["cond_blaze"]] == 1 and rows[ra, _F["cond_gunked"]] == 1
    assert rows[ra, _F["cond_webbed"]] == 0 and rows[rb, _F["cond_webbed"]] == 1
    sp = SpatialEncoder().encode(game, 0)
    assert sp[N_BOARD + _S["blaze"], 2, 2] == 1 and sp[N_BOARD + _S["other_conditions"], 2, 2] == 1
    assert sp[N_BOARD + _S["webbed"], 2, 5] == 1 and sp[N_BOARD + _S["blaze"], 2, 5] == 0
