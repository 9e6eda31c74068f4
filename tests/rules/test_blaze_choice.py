"""§4.3 Blaze: after the random 2D6" move a burning fighter "may choose to go Prone and Pinned at
the end of the move" — a decision of its player (DK_BLAZE_PRONE: go_prone or end), taken before
the roll to put the fire out."""
import pytest

from necro_env.testing import IllegalActionError

from scenario_helpers import by, make, u

# wound roll 3 (S3 v T3 needs 4: no wound); 2D6 = 1 + 2 = 3"; Scatter face 2 (even: +30),
# direction die 2 (60): 90 degrees = east
HIT_AND_MOVE = [3, 1, 2, 2, 2]


def burning():
    game = make(u(0, "burn", (2, 2), conditions=["blaze"]), u(1, "foe", (0, 5)))
    return game


def test_the_move_stops_for_the_choice():
    """§4.3 Blaze: after the move the burning fighter's gang decides; only go_prone and end are
    legal, and the fire roll has not been made yet."""
    game = burning()
    game.script_dice(HIT_AND_MOVE)
    game.activate("burn")
    assert game.decision == ("blaze_prone", 0)
    assert game.fighter("burn")["cell"] == (5, 2) and game.fighter("burn")["posture"] == "standing"
    assert game.events("extinguish") == []
    assert game.can("go_prone") and game.can("end")
    assert not game.can("move", cell=(6, 2))
    with pytest.raises(IllegalActionError, match="blaze_prone decision, which allows only: end, go_prone"):
        game.act("move", cell=(6, 2))


def test_going_prone_adds_two_to_put_the_fire_out():
    """§4.3 Blaze: go Prone and Pinned; the roll to put the fire out gets +2 (4 + 2 = 6: out)."""
    game = burning()
    game.script_dice(HIT_AND_MOVE + [4])
    game.activate("burn")
    game.act("go_prone")
    assert game.dice_left() == 0
    f = game.fighter("burn")
    assert f["posture"] == "pinned" and "blaze" not in f["conditions"]
    assert by(game, "blaze_prone", "burn")[0].fields["prone"] == 1
    assert by(game, "extinguish", "burn")[0].fields == {"roll": 4, "total": 6, "put_out": 1}
    assert game.active_fighter != game.fid("burn")


def test_staying_standing_keeps_the_fire_on_the_same_roll():
    """§4.3 Blaze: stay Standing (end): no +2, so the same 4 leaves the fighter burning; it
    stays Standing and Active, and its activation is over."""
    game = burning()
    game.script_dice(HIT_AND_MOVE + [4])
    game.activate("burn")
    game.act("end")
    assert game.dice_left() == 0
    f = game.fighter("burn")
    assert f["posture"] == "standing" and "blaze" in f["conditions"]
    assert by(game, "blaze_prone", "burn")[0].fields["prone"] == 0
    assert by(game, "extinguish", "burn")[0].fields == {"roll": 4, "total": 4, "put_out": 0}
    assert game.active_fighter != game.fid("burn") and not f["ready"]
    assert game.decision[0] == "select_fighter"


def test_no_choice_without_the_move():
    """§4.3 Blaze: a Prone and Pinned burning fighter stands up and does not move: no choice, the
    fire roll follows at once."""
    game = make(u(0, "burn", (2, 2), conditions=["blaze"], posture="pinned"), u(1, "foe", (0, 5)))
    game.script_dice([3, 5])  # no wound; fire roll 5 (Standing now: no +2)
    game.activate("burn")
    assert game.dice_left() == 0
    assert game.events("blaze_prone") == [] and game.decision[0] == "select_fighter"
