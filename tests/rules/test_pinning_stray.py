"""Pinning (rules digest 7.4) and stray shots (7.5).

Stray-shot corridor (docs/rules.md): a model is at risk when it is
engaged with the target, or when its cell centre lies within 1.5 (1" plus half a
base) of the segment between the shooter's and the target's cell centres and ahead
of the shooter (models level with or behind the shooter are not in the line of fire).
"""
import pytest

from necro_env.testing import board, fighter, gang, scenario

BOARD = """
..........
..........
..........
..........
"""


def setup(weapons=("lasgun",), target_cell=(8, 1), shooter_cell=(0, 1), friends=(), enemies=(),
          target_posture="standing"):
    """Orlock ganger (BS 4+) shooting east at an unarmoured Orlock ganger (T3, W1).
    friends / enemies: (name, cell, facing) of more unarmoured Orlock gangers."""
    a = [fighter("orlock", "ganger", list(weapons), name="shooter")]
    where = [dict(fighter="shooter", cell=shooter_cell, facing="E"),
             dict(fighter="target", cell=target_cell, posture=target_posture)]
    for name, cell, facing in friends:
        a.append(fighter("orlock", "ganger", ["fighting_knife"], name=name, armour="none"))
        where.append(dict(fighter=name, cell=cell, facing=facing))
    b = [fighter("orlock", "ganger", ["fighting_knife"], name="target", armour="none")]
    for name, cell, facing in enemies:
        b.append(fighter("orlock", "ganger", ["fighting_knife"], name=name, armour="none"))
        where.append(dict(fighter=name, cell=cell, facing=facing))
    game = scenario(board(BOARD), [gang("a", *a), gang("b", *b)], where)
    game.activate("shooter")
    return game


def kinds(game):
    return [e.kind for e in game.events()]


# ---------------------------------------------------------------- pinning (7.4)
def test_hit_standing_active_target_is_pinned_before_wounds():
    """§7.4 a Standing and Active fighter hit by a ranged attack becomes Prone and Pinned,
    before the wound roll is made (even when the wound roll then fails)."""
    game = setup()
    game.script_dice([5, 1, 1])  # hit, Firepower 1, wound roll 1 fails
    game.act("shoot", weapon=0, target="target")
    k = kinds(game)
    assert k.index("pinned") < k.index("wound")
    assert game.events("pinned")[0].actor == game.fid("target")
    assert game.fighter("target")["posture"] == "pinned"
    assert game.fighter("target")["wounds"] == 1


def test_hit_standing_engaged_target_is_not_pinned():
    """§7.4 a Standing and Engaged fighter cannot be pinned."""
    game = setup(friends=[("brawler", (9, 1), "W")])
    game.script_dice([5, 1, 1])  # hit (needs 4: +1 accuracy -1 engaged), Firepower 1, wound 1
    game.act("shoot", weapon=0, target="target")
    assert game.events("hit")[0].fields["hit"] == 1
    assert game.events("pinned") == []
    assert game.fighter("target")["posture"] == "standing"


def test_missed_target_is_not_pinned():
    """§7.4 only a hit pins."""
    game = setup()
    game.script_dice([2, 1])
    game.act("shoot", weapon=0, target="target")
    assert game.events("pinned") == []
    assert game.fighter("target")["posture"] == "standing"


def test_pinned_target_hit_again_stays_pinned():
    """§7.4 pinning applies to Standing and Active fighters; a Prone target just stays Prone."""
    game = setup(target_cell=(5, 1), target_posture="pinned")
    game.script_dice([5, 1, 1])
    game.act("shoot", weapon=0, target="target")
    assert game.events("pinned") == []
    assert game.fighter("target")["posture"] == "pinned"


# ---------------------------------------------------------------- stray shots (7.5)
def test_miss_risks_the_fighter_engaged_with_the_target():
    """§7.5 a missed shot at an engaged target may hit a fighter engaging it (here the
    shooter's own friend, 1-3 on the D6); that fighter is Engaged, so it is not pinned."""
    game = setup(friends=[("brawler", (9, 1), "W")])
    game.script_dice([3, 1, 2, 1])  # miss (needs 4), Firepower 1, stray roll 2 hits, wound roll 1
    game.act("shoot", weapon=0, target="target")
    stray = game.events("stray")
    assert [(e.target, e.fields["hit"]) for e in stray] == [(game.fid("brawler"), 1)]
    wound = game.events("wound")[0]
    assert wound.target == game.fid("brawler") and wound.fields["strength"] == 3
    assert game.fighter("brawler")["posture"] == "standing"
    assert game.dice_left() == 0


def test_models_near_the_line_of_fire_roll_closest_first_until_one_is_hit():
    """§7.5 each model at risk rolls a D6 in order of distance from the shooter: 4-6 it is
    missed and the next one rolls, 1-3 it is hit (a Standing and Active one is pinned)."""
    game = setup(friends=[("far", (6, 2), "E"), ("near", (3, 0), "E")])
    game.script_dice([2, 1, 5, 2, 1])  # miss, Firepower 1, near: 5 (safe), far: 2 (hit), wound 1
    game.act("shoot", weapon=0, target="target")
    stray = game.events("stray")
    assert [(e.target, e.fields["roll"], e.fields["hit"]) for e in stray] == [
        (game.fid("near"), 5, 0), (game.fid("far"), 2, 1)]
    assert game.fighter("far")["posture"] == "pinned"
    assert game.fighter("near")["posture"] == "standing"
    assert game.dice_left() == 0


def test_stray_shot_stops_at_the_first_model_hit():
    """§7.5 once a model at risk is hit, the models behind it roll no more."""
    game = setup(friends=[("far", (6, 2), "E"), ("near", (3, 0), "E")])
    game.script_dice([2, 1, 3, 1])  # miss, Firepower 1, near: 3 (hit), wound 1
    game.act("shoot", weapon=0, target="target")
    assert [e.target for e in game.events("stray")] == [game.fid("near")]
    assert game.fighter("far")["posture"] == "standing"
    assert game.dice_left() == 0


@pytest.mark.parametrize("cell,at_risk", [
    ((3, 0), True),    # ahead of the shooter, 1" from the line
    ((5, 3), False),   # 2" from the line: outside the corridor
    ((2, 0), True),    # diagonal front neighbour of the shooter
    ((1, 0), False),   # level with the shooter (shoulder to shoulder)
    ((1, 2), False),   # level with the shooter, other side
    ((0, 0), False),   # diagonally behind the shooter
])
def test_stray_shot_corridor(cell, at_risk):
    """§7.5 "within 1 inch of the line of fire" on the grid: centre within 1.5 of the
    shooter-target centre segment, ahead of the shooter."""
    game = setup(shooter_cell=(1, 1), friends=[("bystander", cell, "E")])
    game.script_dice([2, 1] + ([5] if at_risk else []))
    game.act("shoot", weapon=0, target="target")
    assert len(game.events("stray")) == int(at_risk)
    assert game.dice_left() == 0


def test_model_behind_the_shooter_is_not_at_risk():
    """§7.5 bullets do not fly backwards: a model in base contact behind the shooter is not
    in the line of fire (docs/rules.md)."""
    game = setup(shooter_cell=(2, 1), friends=[("behind", (1, 1), "E")])
    game.script_dice([2, 1])
    game.act("shoot", weapon=0, target="target")
    assert game.events("stray") == []
    assert game.dice_left() == 0


def test_model_just_beyond_the_target_is_at_risk():
    """§7.5 the corridor reaches 1" around the target's end of the line, so a model just
    behind the target (not engaged with it: a friend of the target) is at risk."""
    game = setup(enemies=[("rear", (9, 1), "W")])
    game.script_dice([2, 1, 6])
    game.act("shoot", weapon=0, target="target")
    assert [e.target for e in game.events("stray")] == [game.fid("rear")]


def test_each_would_be_hit_of_a_missed_rapid_fire_shot_risks_a_stray_hit():
    """§7.5 if the attack would have scored several hits (Rapid Fire: 3 holes), the stray
    procedure is repeated for each."""
    game = setup(weapons=("autogun",), friends=[("bystander", (4, 2), "E")])
    # miss, Firepower 5 (3 holes); stray 1: 4 safe; stray 2: 2 hit -> wound roll 1; stray 3: 6 safe
    game.script_dice([2, 5, 4, 2, 1, 6])
    game.act("shoot", weapon=0, target="target")
    stray = game.events("stray")
    assert [e.fields["hit"] for e in stray] == [0, 1, 0]
    assert all(e.target == game.fid("bystander") for e in stray)
    assert len(game.events("wound")) == 1
    assert game.dice_left() == 0


def test_no_stray_shots_on_a_hit():
    """§7.5 stray shots only follow a miss."""
    game = setup(friends=[("bystander", (4, 2), "E")])
    game.script_dice([5, 1, 1])
    game.act("shoot", weapon=0, target="target")
    assert game.events("stray") == []
