"""Target priority (rules digest 7.2): the closest eligible target may be shot freely;
another target needs a Cool test (2D6 >= Cl), and a failure sends the shot to the
closest target the shooter may pick without a test. A closer Prone and Seriously
Injured target, or a closer target that is strictly harder to hit, may be ignored.
"""
import pytest

from necro_env.rulesets.necromunda.query import clear_rays, cover_grade
from necro_env.testing import board, fighter, gang, scenario

BOARD = """
..........
..........
..........
..........
..........
"""

COVER_BOARD = """
..........
..........
...o......
..........
..........
"""  # seen from (0, 2), a fighter at (4, 3) is in partial cover behind the obstacle


def setup(enemies, friends=(), rows=BOARD, shooter_cell=(0, 2), facing="E"):
    """Orlock ganger (Cl 7+, BS 4+, lasgun) at shooter_cell; enemies / friends:
    (name, cell, posture) of unarmoured Orlock gangers."""
    a = [fighter("orlock", "ganger", ["lasgun"], name="shooter")]
    where = [dict(fighter="shooter", cell=shooter_cell, facing=facing)]
    for name, cell, posture in friends:
        a.append(fighter("orlock", "ganger", ["fighting_knife"], name=name))
        where.append(dict(fighter=name, cell=cell, posture=posture))
    b = []
    for name, cell, posture in enemies:
        b.append(fighter("orlock", "ganger", ["fighting_knife"], name=name, armour="none"))
        where.append(dict(fighter=name, cell=cell, posture=posture))
    game = scenario(board(rows), [gang("a", *a), gang("b", *b)], where)
    game.activate("shooter")
    return game


# hit 5 (needs 3), Firepower 1, wound roll 1 (fails): the target ends Pinned, nothing else
HIT_NO_WOUND = [5, 1, 1]


def shot_target(game):
    return game.events("shot")[0].target


def test_closest_eligible_target_needs_no_cool_test():
    """§7.2 the closest eligible target can be shot without a test."""
    game = setup([("near", (3, 0), "standing"), ("far", (8, 4), "standing")])
    game.script_dice(HIT_NO_WOUND)
    game.act("shoot", weapon=0, target="near")
    assert game.events("cool") == []
    assert shot_target(game) == game.fid("near")
    assert game.dice_left() == 0


def test_farther_target_after_passed_cool_test():
    """§7.2 to shoot past the closest target the shooter passes a Cool test (2D6 >= Cl)."""
    game = setup([("near", (3, 0), "standing"), ("far", (8, 4), "standing")])
    game.script_dice([4, 3] + HIT_NO_WOUND)
    game.act("shoot", weapon=0, target="far")
    assert game.events("cool")[0].fields == {"roll": 7, "need": 7, "passed": 1, "reason": 1}
    assert shot_target(game) == game.fid("far")
    assert game.fighter("far")["posture"] == "pinned"
    assert game.fighter("near")["posture"] == "standing"


def test_failed_cool_test_redirects_the_shot_to_the_closest_target():
    """§7.2 on a failed Cool test the shooter may only shoot the closest eligible target."""
    game = setup([("near", (3, 0), "standing"), ("far", (8, 4), "standing")])
    game.script_dice([3, 3] + HIT_NO_WOUND)
    game.act("shoot", weapon=0, target="far")
    assert game.events("cool")[0].fields["passed"] == 0
    assert shot_target(game) == game.fid("near")
    assert game.fighter("near")["posture"] == "pinned"
    assert game.fighter("far")["posture"] == "standing"


def test_closer_seriously_injured_target_may_be_ignored():
    """§7.2 the closest target may be ignored if it is Prone and Seriously Injured."""
    game = setup([("down", (3, 0), "seriously_injured"), ("far", (8, 4), "standing")])
    game.script_dice(HIT_NO_WOUND)
    game.act("shoot", weapon=0, target="far")
    assert game.events("cool") == []
    assert shot_target(game) == game.fid("far")


def test_closer_pinned_target_is_not_ignorable():
    """§7.2 only a Seriously Injured closer target is free to ignore; a Pinned one in the open
    still forces the Cool test."""
    game = setup([("down", (3, 0), "pinned"), ("far", (8, 4), "standing")])
    game.script_dice([6, 6] + HIT_NO_WOUND)
    game.act("shoot", weapon=0, target="far")
    assert len(game.events("cool")) == 1 and shot_target(game) == game.fid("far")


def test_failed_cool_test_skips_a_closer_seriously_injured_target():
    """§7.2 after a failed Cool test the shot goes to the closest target that could be shot
    without a test: a Seriously Injured model still may be ignored (docs/rules.md)."""
    game = setup([("down", (2, 2), "seriously_injured"), ("near", (3, 0), "standing"),
                  ("far", (8, 4), "standing")])
    game.script_dice([1, 2] + HIT_NO_WOUND)
    game.act("shoot", weapon=0, target="far")
    assert game.events("cool")[0].fields["passed"] == 0
    assert shot_target(game) == game.fid("near")


def test_closer_engaged_target_is_harder_to_hit_and_may_be_ignored():
    """§7.2 a closer target that is harder to hit (Standing and Engaged: -1) than the
    chosen one may be ignored without a Cool test."""
    game = setup([("near", (3, 0), "standing"), ("far", (8, 4), "standing")],
                 friends=[("brawler", (4, 0), "standing")])
    game.script_dice(HIT_NO_WOUND)
    game.act("shoot", weapon=0, target="far")
    assert game.events("cool") == []
    assert shot_target(game) == game.fid("far")


def test_closer_target_in_cover_is_harder_to_hit_and_may_be_ignored():
    """§7.2 a closer target in partial cover (-1) may be ignored for one in the open."""
    game = setup([("near", (4, 3), "standing"), ("far", (7, 0), "standing")], rows=COVER_BOARD)
    s, st = game.state, game.static
    me, near, far = game.fid("shooter"), game.fid("near"), game.fid("far")
    assert cover_grade(clear_rays(s, st, 0, me, near, False)) == 1
    assert cover_grade(clear_rays(s, st, 0, me, far, False)) == 0
    game.script_dice(HIT_NO_WOUND)
    game.act("shoot", weapon=0, target="far")
    assert game.events("cool") == []
    assert game.events("shot")[0].fields["cover"] == 0


def test_equally_hard_closer_target_still_needs_the_cool_test():
    """§7.2 "harder to hit" means a strictly worse hit modifier total: when both targets are
    Standing and Engaged (-1 each) the closer one does not excuse the test."""
    game = setup([("near", (3, 0), "standing"), ("far", (8, 4), "standing")],
                 friends=[("brawler", (4, 0), "standing"), ("other", (9, 4), "standing")])
    game.script_dice([6, 5] + HIT_NO_WOUND)
    game.act("shoot", weapon=0, target="far")
    assert game.events("cool")[0].fields["passed"] == 1
    assert game.events("shot")[0].fields["modifier"] == 0  # +1 accuracy -1 engaged


def test_targets_at_equal_distance_are_both_closest():
    """§7.2 with two enemies at the same distance either is a closest target."""
    game = setup([("a1", (3, 0), "standing"), ("a2", (3, 4), "standing")])
    game.script_dice(HIT_NO_WOUND)
    game.act("shoot", weapon=0, target="a2")
    assert game.events("cool") == []
    assert shot_target(game) == game.fid("a2")


def test_hiding_closer_target_is_not_eligible_and_does_not_count():
    """§7.2 a Prone target in cover cannot be targeted, so it is no closer eligible target."""
    game = setup([("near", (4, 3), "pinned"), ("far", (7, 0), "standing")], rows=COVER_BOARD)
    game.script_dice(HIT_NO_WOUND)
    game.act("shoot", weapon=0, target="far")
    assert game.events("cool") == []


def test_priority_is_judged_in_the_arc_after_turning_to_face():
    """§1.3/§7.2 a freshly activated fighter turns to face its target first; a closer enemy
    that then lies behind it is outside the vision arc and not eligible (no Cool test)."""
    game = setup([("behind", (1, 2), "standing"), ("far", (8, 2), "standing")],
                 shooter_cell=(3, 2), facing="W")
    game.script_dice(HIT_NO_WOUND)
    game.act("shoot", weapon=0, target="far")
    assert game.events("cool") == []
    assert game.fighter("shooter")["facing"] == "E"
    assert shot_target(game) == game.fid("far")


@pytest.mark.parametrize("cl,roll,passed", [(5, [2, 3], 1), (8, [3, 4], 0)])
def test_cool_test_uses_the_shooters_cool(cl, roll, passed):
    """§3.3 a Cool test passes on 2D6 >= Cl."""
    a = [fighter("goliath", "ganger", ["lasgun"], name="shooter", cl=cl)]
    b = [fighter("orlock", "ganger", [], name="near", armour="none"),
         fighter("orlock", "ganger", [], name="far", armour="none")]
    game = scenario(board(BOARD), [gang("a", *a), gang("b", *b)], [
        dict(fighter="shooter", cell=(0, 2), facing="E"),
        dict(fighter="near", cell=(3, 0)), dict(fighter="far", cell=(8, 4))])
    game.activate("shooter")
    game.script_dice(roll + HIT_NO_WOUND)
    game.act("shoot", weapon=0, target="far")
    assert game.events("cool")[0].fields == {"roll": sum(roll), "need": cl, "passed": passed, "reason": 1}
    assert shot_target(game) == game.fid("far" if passed else "near")


def test_failed_cool_test_prefers_the_easier_of_the_free_targets():
    """§7.2 after a failed Cool test the shooter may still ignore a closest target that is
    harder to hit: the shot goes to the easiest-to-hit target it could pick without a test
    (here the Engaged closest enemy is skipped for the one in the open)."""
    game = setup([("engaged", (3, 0), "standing"), ("mid", (6, 4), "standing"), ("far", (9, 3), "standing")],
                 friends=[("brawler", (4, 0), "standing")])
    game.script_dice([1, 1] + HIT_NO_WOUND)
    game.act("shoot", weapon=0, target="far")
    assert game.events("cool")[0].fields["passed"] == 0
    assert shot_target(game) == game.fid("mid")
