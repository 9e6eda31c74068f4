"""§12 Demolitions (with §5.2 / §6.8 doors): a grenade with Demolitions (the krak grenade in
configs/weapons.yaml) is used in close combat against a locked door: one automatic hit. Doors
have Toughness 5 and 4 Wounds and are removed at 0 Wounds (§6.8 [N23]): the hit rolls to wound
against T5, takes the grenade's Damage off the door (no save) and the grenade makes its Ammo test."""
import pytest

from necro_env.rulesets.necromunda.state import DR_STATE, DR_WOUNDS
from necro_env.core.terrain import DOOR_DESTROYED, DOOR_LOCKED
from necro_env.testing import IllegalActionError, board

from scenario_helpers import by, make, play, u

WALLED = board("""
....#.....
....#.....
....L.....
....#.....
....#.....
....+.....
""")


def sapper(weapons=("krak_grenade",), cell=(3, 2), **kw):
    game = make(u(0, "sapper", cell, list(weapons), **kw), u(1, "foe", (8, 2)), board_=WALLED)
    game.activate("sapper")
    return game


def test_krak_grenade_damages_a_locked_door():
    """§12 Demolitions: an automatic hit (no hit roll): krak S6 against the door's T5 wounds on
    3+; Damage 2 takes the door from 4 to 2 Wounds; it stays locked; then the Ammo test (4+)."""
    game = sapper()
    assert game.can("demolish", door=0)
    play(game, [3, 4], "demolish", door=0)
    ev = by(game, "demolish", "sapper")[0].fields
    assert (ev["door"], ev["roll"], ev["need"], ev["wounds_left"], ev["door_state"]) == (0, 3, 3, 2, DOOR_LOCKED)
    assert game.events("hit") == [] and game.events("save") == []
    assert game.events("ammo")[0].fields["passed"] == 1
    assert game.state.door[0, 0, DR_WOUNDS] == 2
    assert not game.can("demolish", door=0)  # a Basic action: once per activation


def test_a_failed_wound_roll_leaves_the_door_intact():
    """§12 Demolitions: the hit still needs the wound roll (2 < 3); a failed Ammo test (3 < 4)
    uses the grenade up."""
    game = sapper()
    play(game, [2, 3], "demolish", door=0)
    assert game.state.door[0, 0, DR_WOUNDS] == 4
    assert game.fighter("sapper")["out_of_ammo"] == [0]


def test_a_door_at_zero_wounds_is_removed_and_can_be_walked_through():
    """§6.8: at 0 Wounds the door is removed (counts as open): the fighter can then move through
    its cell."""
    game = sapper()
    game.state.door[0, 0, DR_WOUNDS] = 2
    play(game, [6, 5], "demolish", door=0)
    assert game.state.door[0, 0, DR_STATE] == DOOR_DESTROYED
    assert by(game, "demolish", "sapper")[0].fields["wounds_left"] == 0
    assert game.can("move", cell=(5, 2))


def test_demolish_is_legal_only_with_a_usable_demolitions_grenade_near_a_locked_door():
    """§12 Demolitions / §5.2: not without a Demolitions grenade (frag), not Out of Ammo, not
    against an unlocked door (door 1 is closed, not locked: Operate Door opens it), and only
    within 1"."""
    assert not sapper(weapons=("frag_grenade",)).can("demolish", door=0)
    assert not sapper(out_of_ammo=[0]).can("demolish", door=0)
    game = sapper(cell=(3, 5))
    assert game.can("operate_door", door=1) and not game.can("demolish", door=1)
    game = sapper(cell=(1, 2))
    assert not game.can("demolish", door=0)
    with pytest.raises(IllegalActionError, match="locked door within 1"):
        game.act("demolish", door=0)
