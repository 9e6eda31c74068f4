"""Jumping down, falling and the falling hazard (rules §6.6, §6.7).

Initiative tests of the level rules (docs/rules.md §6.6-§6.7): D6 + modifier >= Initiative, a
natural 1 always fails. Jumping down: -1 for every 2" of drop beyond the first 2" (rounded up).
A fall of 3"+ gives one hit from the falling table; the faller is Prone and Pinned and its
activation ends.
"""
import pytest

from necro_env.rulesets.necromunda.movement import fall_profile
from necro_env.testing import board
from tests.rules.scenario_helpers import by, make, play, u

FLAT = "\n".join(["." * 10] * 6)


def lvl(heights, ascii_map=FLAT):
    return board(ascii_map, heights=heights)


def plat(h):
    """Columns 3..5 raised h inches (h as a height character)."""
    return lvl("\n".join([f"000{h}{h}{h}0000"] * 6))


# ------------------------------------------------------------------ jumping down (6.6)
def test_jump_down_passed_initiative_test():
    """§6.6: a Move that drops more than 1/2" without climbing is a jump down: Initiative test with -1
    for a 3" drop (2" free, then -1 per 2" rounded up): Orlock I 4+ needs 5. On a pass it lands and
    moves on, Standing. (Climbing down 3" would cost 7" > M5, so the Move jumps.)"""
    game = make(u(0, "jumper", (3, 2)), u(1, "foe", (8, 5)), board_=plat(3))
    game.activate("jumper")
    assert (1, 2) in {a.cell for a in (game.describe(i) for i in game.legal_actions()) if a.kind == "move"}
    play(game, [5], "move", cell=(1, 2))
    init = by(game, "init", "jumper")
    assert [(e.fields["roll"], e.fields["need"], e.fields["passed"], e.fields["reason"]) for e in init] == [
        (5, 5, 1, 6)]
    assert game.fighter("jumper")["cell"] == (1, 2)
    assert game.fighter("jumper")["posture"] == "standing"


def test_jump_down_failed_falls_and_ends_activation():
    """§6.6/§6.7: a failed jump is a fall: Prone and Pinned where it jumped to, a 3" fall hit (S3),
    and the activation ends at once."""
    game = make(u(0, "jumper", (3, 2), t=7, armour="none"), u(1, "foe", (8, 5)), board_=plat(3))
    game.activate("jumper")
    play(game, [4, 5], "move", cell=(1, 2))  # 4 < 5 fails; wound 5 fails (S3 vs T7 needs 6)
    fall = by(game, "fall", "jumper")
    assert len(fall) == 1 and fall[0].fields["height"] == 3 and fall[0].fields["to_cell"] == 2 * 10 + 2
    assert game.fighter("jumper")["cell"] == (2, 2)
    assert game.fighter("jumper")["posture"] == "pinned"
    assert game.events("wound")[0].fields["strength"] == 3
    assert by(game, "end_act", "jumper")


def test_jump_down_modifier_grows_with_the_drop():
    """§6.6 example: a 5" drop = 2" free + 3" more -> -2: I 4+ needs 6."""
    game = make(u(0, "jumper", (3, 2)), u(1, "foe", (8, 5)), board_=plat(5))
    game.activate("jumper")
    play(game, [6], "move", cell=(2, 2))
    init = by(game, "init", "jumper")[0]
    assert init.fields["need"] == 6 and init.fields["passed"] == 1


def test_fall_under_3_inches_does_no_damage():
    """§6.7: only a fall of 3" or more inflicts a hit; a failed 2" jump just leaves the fighter Prone and
    Pinned. (The natural 1 fails although no modifier applies.)"""
    game = make(u(0, "jumper", (3, 2)), u(1, "foe", (8, 5)), board_=plat(2))
    game.activate("jumper")
    # climbing down 2" costs 1" + 4" = 5" = M, so a jump only happens for a farther cell
    play(game, [1], "move", cell=(1, 2))
    assert by(game, "fall", "jumper")[0].fields["height"] == 2
    assert not game.events("wound")
    assert game.fighter("jumper")["posture"] == "pinned"


# ------------------------------------------------------------------ falling damage table (6.7)
@pytest.mark.parametrize("height,profile", [
    (3, (3, 0, 1)), (5, (3, 0, 1)), (6, (5, 1, 1)), (7, (5, 1, 1)), (8, (7, 2, 2)), (9, (7, 2, 2)),
    (10, (9, 3, 3)), (15, (9, 3, 3)),
])
def test_falling_damage_table(height, profile):
    """§6.7 table: 3-5" S3 AP- D1; 6-7" S5 AP-1 D1; 8-9" S7 AP-2 D2; 10"+ S9 AP-3 D3 (AP as added to
    the save roll's target)."""
    assert tuple(fall_profile(height)) == profile


def test_six_inch_fall_hits_at_s5_ap1():
    """§6.7: a 6" fall is S5, AP -1: the save of mesh armour (5+) becomes 6+."""
    game = make(u(0, "jumper", (3, 2), t=5), u(1, "foe", (8, 5)), board_=plat(6))
    game.activate("jumper")
    # a 6" jump needs 4 + 2 = 6: the 1 fails
    play(game, [1, 4, 6], "move", cell=(2, 2))  # test fails; wound 4 (S5 vs T5 needs 4); save 6 (needs 6)
    wound = game.events("wound")[0]
    assert wound.fields["strength"] == 5 and wound.fields["wounded"] == 1
    save = game.events("save")[0]
    assert save.fields["need"] == 6 and save.fields["saved"] == 1


def test_eight_inch_fall_does_two_damage():
    """§6.7: an 8" fall is S7 AP-2 D2."""
    game = make(u(0, "jumper", (3, 2), t=7, w=3, armour="none"), u(1, "foe", (8, 5)), board_=plat(8))
    game.activate("jumper")
    play(game, [6, 4], "move", cell=(2, 2))  # 8" drop: need 4 + 3 = 7, even a 6 fails; wound 4 (S7 = T7)
    dmg = game.events("damage")[0]
    assert dmg.fields["damage"] == 2 and dmg.fields["wounds_left"] == 1


def test_landing_on_a_fighter_pins_and_hits_both():
    """§6.7: a faller landing on another fighter: that fighter also becomes Prone and Pinned and takes
    an identical hit; the faller is moved off by the shortest route."""
    game = make(u(0, "jumper", (3, 2), t=7, armour="none"), u(0, "friend", (2, 2), t=7, armour="none"),
                u(1, "foe", (8, 5)), board_=plat(3))
    game.activate("jumper")
    play(game, [2, 1, 1], "move", cell=(1, 2))  # test fails; wound rolls for the faller, then the friend
    fall = by(game, "fall", "jumper")[0]
    assert fall.fields["landed_on"] == game.fid("friend")
    assert game.fighter("friend")["posture"] == "pinned"
    assert game.fighter("jumper")["posture"] == "pinned"
    assert game.fighter("jumper")["cell"] != (2, 2)
    assert game.fighter("friend")["cell"] == (2, 2)
    wounds = game.events("wound")
    assert [w.target for w in wounds] == [game.fid("jumper"), game.fid("friend")]


# ------------------------------------------------------------------ falling hazard (6.7)
EDGE = "\n".join(["0000000333"] * 4)
FLAT4 = "\n".join(["." * 10] * 4)


def shot_at_edge(dice, target_map=None):
    """An Orlock shooter on the ground at (0, 1) pins a target standing at the edge of a 3" platform
    (cell (7, 1), the drop to the west)."""
    b = lvl(EDGE, target_map or FLAT4)
    game = make(u(0, "shooter", (0, 1), ["lasgun"], facing="E"),
                u(1, "target", (7, 1), t=7, armour="none"), board_=b, spares=False)
    game.activate("shooter")
    play(game, dice, "shoot", weapon=0, target="target")
    return game


def test_going_prone_at_an_edge_risks_a_fall():
    """§6.7 falling hazard: a fighter going from Standing to Prone within 1/2" of an edge takes an
    Initiative test; on a failure it falls (here 3", S3 hit)."""
    game = shot_at_edge([6, 1, 1, 3, 1])  # hit, Firepower 1, wound 1 fails; hazard 3 < 4; fall wound 1
    init = by(game, "init", "target")
    assert len(init) == 1 and init[0].fields["reason"] == 8 and init[0].fields["passed"] == 0
    assert by(game, "fall", "target")[0].fields["height"] == 3
    assert game.fighter("target")["cell"] == (6, 1)


def test_passing_the_hazard_test_stays_on_the_platform():
    """§6.7: on a pass nothing happens."""
    game = shot_at_edge([6, 1, 1, 4])
    assert by(game, "init", "target")[0].fields["passed"] == 1
    assert game.fighter("target")["cell"] == (7, 1)


def test_railing_gives_plus_one():
    """§6.7 railings: a railing at least 1/2" high along the edge gives +1 to the test: a 3 passes."""
    railed = "\n".join(["." * 10, ".......r..", "." * 10, "." * 10])
    game = shot_at_edge([6, 1, 1, 3], railed)
    init = by(game, "init", "target")[0]
    assert init.fields["passed"] == 1 and init.fields["need"] == 3
    assert not game.events("fall")


def test_railing_natural_one_still_falls():
    """§6.7: failure *or a natural 1* means the fighter falls, railing or not."""
    railed = "\n".join(["." * 10, ".......r..", "." * 10, "." * 10])
    game = shot_at_edge([6, 1, 1, 1, 1], railed)
    assert by(game, "init", "target")[0].fields["passed"] == 0
    assert by(game, "fall", "target")


def test_no_hazard_away_from_edges():
    """§6.7: only within 1/2" of an edge: a target one cell back from the drop is not tested."""
    b = lvl(EDGE, FLAT4)
    game = make(u(0, "shooter", (0, 1), ["lasgun"], facing="E"),
                u(1, "target", (8, 1), t=7, armour="none"), board_=b, spares=False)
    game.activate("shooter")
    play(game, [6, 1, 1], "shoot", weapon=0, target="target")
    assert game.fighter("target")["posture"] == "pinned"
    assert not game.events("init")


def test_take_cover_never_causes_a_fall():
    """§6.7 ([HL], docs/rules.md): going Prone by Take Cover does not risk a fall."""
    b = lvl(EDGE, FLAT4)
    game = make(u(0, "hider", (7, 1)), u(1, "foe", (0, 3)), board_=b, spares=False)
    game.activate("hider")
    play(game, [], "take_cover", cell=(7, 1))
    assert game.fighter("hider")["posture"] == "pinned"
    assert not game.events("init") and not game.events("fall")


def test_knockback_over_an_edge_is_a_fall():
    """§6.7 with Knockback (§12, docs/rules.md): a fighter knocked back off a platform falls to the
    level below (here 3": S3 hit), Prone and Pinned."""
    b = lvl(EDGE, FLAT4)
    game = make(u(0, "shooter", (9, 1), ["shotgun"], facing="W"),
                u(1, "target", (7, 1), t=7, armour="none"), board_=b, spares=False)
    game.activate("shooter")
    # hit 6 (>= S3: knockback), Firepower 1; fall hit wound 1 (S3 vs T7); shot wound 1 (S4 vs T7)
    play(game, [6, 1, 1, 1], "shoot", weapon=0, target="target")
    fall = by(game, "fall", "target")
    assert len(fall) == 1 and fall[0].fields["height"] == 3
    assert game.fighter("target")["cell"] == (6, 1)
    assert [w.fields["strength"] for w in game.events("wound")] == [3, 4]
