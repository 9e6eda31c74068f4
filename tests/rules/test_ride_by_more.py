"""§4.3 Mounted, Ride By: the pause at a Versatile weapon's Long range ("or when within Long range of
a Versatile weapon") and the rest of the Move after the pause, which follows the Move rules
(jumping down and leaping gaps with their Initiative tests, §6.5-§6.6; never climbing: Grounded).

No weapon in configs/ has Versatile and no fighter data gives Mounted: the tests give a sword
Versatile with Long 3" in a copied weapon table (as tests/rules/test_versatile.py) and place the
riders Mounted. Fighters are Orlock gangers (WS 4+, I 4+)."""
import dataclasses

import pytest
from scenario_helpers import by, make, play, u

from necro_env.config import load_weapons
from necro_env.rulesets.necromunda.constants import PF_LONG, PF_TRAITS, T_VERSATILE
from necro_env.rulesets.necromunda.query import is_engaged
from necro_env.testing import board

WEAPONS = load_weapons()
SWORD = WEAPONS.index["sword"]


def versatile_table():
    prof = WEAPONS.profiles.copy()
    prof[SWORD, 0, PF_LONG] = 3
    prof[SWORD, 0, PF_TRAITS] |= T_VERSATILE
    return dataclasses.replace(WEAPONS, profiles=prof)


def rider_game(foe_cell=(7, 2), foe_weapons=("fighting_knife",), rider_cell=(1, 2), board_=None, **kw):
    extra = {} if board_ is None else dict(board_=board_)
    game = make(u(0, "rider", rider_cell, ["sword"], conditions=["mounted"], facing="E", m=7),
                u(1, "foe", foe_cell, list(foe_weapons), facing="W"), weapons=versatile_table(), **extra, **kw)
    game.activate("rider")
    return game


# ---------------------------------------------------------------- Versatile reach
def test_ride_by_pauses_at_versatile_reach_and_the_foe_cannot_react():
    """§4.3 Ride By "or when within Long range of a Versatile weapon" (§12 Versatile): the Versatile
    sword (Long 3") reaches the foe from (3, 2) (gap 3"), 2" into the Move, cheaper than base
    contact at (6, 2); the attack is made with the sword; the foe's knife does not reach back, so
    there is no reaction; the rider then finishes its Move with the 5" left and is not Engaged."""
    game = rider_game()
    assert game.can("ride_by", target="foe")
    play(game, [1], "ride_by", target="foe")  # the rider's hit roll 1 misses; no reaction roll
    rb = by(game, "ride_by", "rider")[0].fields
    assert rb["pause_cell"] == 2 * 10 + 3 and rb["half_inches_left"] == 14 - 4
    att = game.events("attacks")
    assert len(att) == 1 and att[0].fields["dice"] == 1 and att[0].fields["weapon1"] == SWORD
    assert game.events("reaction") == []
    assert game.decision == ("ride_by_move", 0)
    assert game.can("move", cell=(5, 0)) and not game.can("move", cell=(9, 2))  # 5" left: 3" yes, 7" no
    assert not game.can("move", cell=(6, 1))  # within 1" of the foe: may pass, not stop
    play(game, [], "end")
    assert game.fighter("rider")["cell"] == (3, 2) and not is_engaged(game.state, 0, game.fid("rider"))


def test_ride_by_at_versatile_reach_foe_with_versatile_reach_reacts():
    """§4.3 Ride By: "that enemy may try one reaction attack"; at Versatile reach it can only if its
    own Versatile weapon reaches the rider (§12 Versatile): a foe with the Versatile sword reacts
    (one Attack dice)."""
    game = rider_game(foe_weapons=("sword",))
    play(game, [1, 1], "ride_by", target="foe")  # the rider's hit roll, the reaction's hit roll
    assert len(game.events("reaction")) == 1
    assert [e.fields["dice"] for e in game.events("attacks")] == [1, 1]
    assert [e.fields["weapon1"] for e in game.events("attacks")] == [SWORD, SWORD]


def test_ride_by_already_within_versatile_reach_pauses_before_moving():
    """§4.3 Ride By: a rider already within its Versatile weapon's Long range of the foe (gap 3")
    pauses at the start of the Move (no movement first) and keeps its whole Movement (7")."""
    game = rider_game(foe_cell=(5, 2))
    play(game, [1], "ride_by", target="foe")
    rb = by(game, "ride_by", "rider")[0].fields
    assert rb["from_cell"] == rb["pause_cell"] == 2 * 10 + 1 and rb["half_inches_left"] == 14
    assert game.events("move") == []
    assert game.decision == ("ride_by_move", 0)


def test_ride_by_versatile_pause_needs_line_of_sight():
    """§4.3 Ride By at Versatile reach needs the foe in line of sight (§12 Versatile): with a wall
    across the row the cheapest reach cell in sight is taken instead, never one behind the wall."""
    walled = board("\n".join(["..........", "..........", "....#.....", "..........", "..........",
                              ".........."]))
    game = rider_game(board_=walled)
    play(game, [1], "ride_by", target="foe")
    pause = by(game, "ride_by", "rider")[0].fields["pause_cell"]
    x, y = pause % 10, pause // 10
    assert (x, y) != (3, 2) and max(abs(x - 7), abs(y - 2)) > 1  # not behind the wall; still at reach


def test_without_versatile_the_pause_is_base_contact():
    """§4.3 Ride By with a plain sword (no Versatile): the pause cell is in base contact."""
    game = make(u(0, "rider", (1, 2), ["sword"], conditions=["mounted"], facing="E", m=7),
                u(1, "foe", (7, 2), ["fighting_knife"], facing="W"))
    game.activate("rider")
    play(game, [1, 1], "ride_by", target="foe")
    assert by(game, "ride_by", "rider")[0].fields["pause_cell"] == 2 * 10 + 6


# ---------------------------------------------------------------- the rest of the Move
# a 1" high platform on the right half of the board
LEVELS = board("\n".join(["." * 10] * 6), heights="\n".join(["0000011111"] * 6))


@pytest.mark.parametrize("roll,passed", [(6, True), (1, False)])
def test_ride_by_rest_of_the_move_jumps_down_as_a_move_does(roll, passed):
    """§4.3 Ride By is a Move (Simple): after the pause the rider may leave the platform by jumping
    down (§6.6 Initiative test; a Grounded rider never climbs down), as a Move could. Pause at
    (7, 2) next to the foe on the platform; then on to (3, 2) on the ground: one jump-down test.
    A pass lands there; a failure is a fall (§6.7): Prone and Pinned below the take-off cell."""
    game = make(u(0, "rider", (9, 2), ["fighting_knife"], conditions=["mounted"], facing="W", m=7),
                u(1, "foe", (6, 2), ["fighting_knife"], facing="E"), board_=LEVELS)
    game.activate("rider")
    play(game, [1, 1], "ride_by", target="foe")
    assert by(game, "ride_by", "rider")[0].fields["pause_cell"] == 2 * 10 + 7
    assert game.decision == ("ride_by_move", 0)
    assert game.can("move", cell=(3, 2))
    play(game, [roll], "move", cell=(3, 2))
    init = game.events("init")
    assert [e.fields["reason"] for e in init] == [6]  # INIT_JUMP
    rider = game.fighter("rider")
    if passed:
        assert rider["cell"] == (3, 2) and rider["posture"] == "standing"
    else:
        assert rider["posture"] == "pinned" and len(game.events("fall")) == 1
        assert rider["cell"][0] == 4  # the ground cell next to the platform's edge
