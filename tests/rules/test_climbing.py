"""Climbing, ladders and stairs, gaps and leaps on boards with levels (rules §6.4, §6.5).

Grid model (docs/rules.md §1.2): one floor height per cell in whole inches. Budgets are in
half-inches: an orthogonal step costs 2 (1"); climbing adds 4 per inch (2" per 1"), 2 per inch
by ladder or stairs. A Move may leap a gap wider than 1" only with an Initiative test.
"""
from necro_env.testing import board
from tests.rules.scenario_helpers import by, make, play, u

FLAT = "\n".join(["." * 10] * 6)


def lvl(heights, ascii_map=FLAT):
    return board(ascii_map, heights=heights)


def move_cells(game):
    return {a.cell for a in (game.describe(i) for i in game.legal_actions()) if a.kind == "move"}


# columns 3..5 form a platform 2" high
STEP2 = lvl("\n".join(["0002220000"] * 6))


def test_climbing_costs_two_inches_per_inch():
    """§6.4: each 1" climbed costs 2" of movement. An M5 fighter 1 cell from a 2" platform reaches
    it (1" + 4" = 5"), one cell further back it cannot (2" + 4" = 6" > 5")."""
    game = make(u(0, "climber", (2, 2)), u(1, "foe", (8, 5)), board_=STEP2)
    game.activate("climber")
    assert (3, 2) in move_cells(game)
    play(game, [], "move", cell=(3, 2))
    mv = by(game, "move", "climber")[-1]
    assert mv.fields["cost_half_inches"] == 10
    assert game.fighter("climber")["cell"] == (3, 2)
    assert not game.events("init")  # climbing needs no test

    far = make(u(0, "climber", (1, 2)), u(1, "foe", (8, 5)), board_=STEP2)
    far.activate("climber")
    cells = move_cells(far)
    assert (2, 2) in cells and (3, 2) not in cells


def test_climbing_down_costs_the_same_and_needs_no_test():
    """§6.4: a fighter may climb down a vertical surface at 2" per 1"; within its allowance the Move
    climbs (no Initiative test) rather than jumping."""
    game = make(u(0, "climber", (3, 2)), u(1, "foe", (8, 5)), board_=STEP2)
    game.activate("climber")
    play(game, [], "move", cell=(2, 2))  # 1" + 4" climb down = 5" = M
    assert by(game, "move", "climber")[-1].fields["cost_half_inches"] == 10
    assert game.fighter("climber")["cell"] == (2, 2)
    assert not game.events("init") and not game.events("fall")


def test_ladder_climbs_at_normal_cost():
    """§6.4 Ladders and stairs: climbing between levels by ladder costs no extra movement (1" per 1").
    With a ladder at the foot of the platform an M5 fighter 2 cells away climbs up and walks on."""
    b = lvl("\n".join(["0002220000"] * 6), "\n".join(["." * 10] * 2 + ["..H......."] + ["." * 10] * 3))
    game = make(u(0, "climber", (0, 2)), u(1, "foe", (8, 5)), board_=b)
    game.activate("climber")
    cells = move_cells(game)
    # 1" + 1" + (1" + 2" ladder) = 5": (3, 2) reachable; one more step is not
    assert (3, 2) in cells and (4, 2) not in cells
    play(game, [], "move", cell=(3, 2))
    assert by(game, "move", "climber")[-1].fields["cost_half_inches"] == 10


def test_stairs_climb_at_normal_cost():
    """§6.4 Ladders and stairs: stairs ('S') work as a ladder does."""
    b = lvl("\n".join(["0002220000"] * 6), "\n".join(["." * 10] * 2 + ["...S......"] + ["." * 10] * 3))
    game = make(u(0, "climber", (1, 2)), u(1, "foe", (8, 5)), board_=b)
    game.activate("climber")
    # (1,2)->(2,2) 1", (2,2)->(3,2) stairs 1" + 2", (3,2)->(4,2) 1" = 5"
    assert (4, 2) in move_cells(game)


# two platforms 3" high: columns 0..3 and 5..9, a 1" gap at column 4
GAP1 = lvl("\n".join(["3333033333"] * 6))
# columns 0..3 and 6..9, a 2" gap at columns 4-5
GAP2 = lvl("\n".join(["3333003333"] * 6))


def test_gap_no_wider_than_the_base_is_crossed_as_part_of_a_move():
    """§6.5: a gap no wider than the base (1") is crossed in a normal move: no test, and it costs only
    the distance across."""
    game = make(u(0, "runner", (3, 2)), u(1, "foe", (8, 5)), board_=GAP1)
    game.activate("runner")
    play(game, [], "move", cell=(5, 2))
    assert game.fighter("runner")["cell"] == (5, 2)
    assert by(game, "move", "runner")[-1].fields["cost_half_inches"] == 4
    assert not game.events("init") and not game.events("fall")


def test_wider_gap_is_leapt_with_an_initiative_test():
    """§6.5: a wider gap may be leapt: stop at the edge and take an Initiative test (I 4+); on a pass
    the fighter crosses and keeps moving."""
    game = make(u(0, "runner", (3, 2)), u(1, "foe", (8, 5)), board_=GAP2)
    game.activate("runner")
    assert (7, 2) in move_cells(game)
    play(game, [4], "move", cell=(7, 2))
    init = by(game, "init", "runner")
    assert len(init) == 1 and init[0].fields["passed"] == 1 and init[0].fields["reason"] == 7
    assert init[0].fields["need"] == 4
    assert game.fighter("runner")["cell"] == (7, 2)
    assert game.fighter("runner")["posture"] == "standing"


def test_failed_leap_falls_into_the_gap():
    """§6.5: on a failed leap the fighter falls straight down to the level below (the gap cell next to
    its take-off cell) and takes a falling hit (3" -> S3, §6.7); it is Prone and Pinned."""
    game = make(u(0, "runner", (2, 2), t=7, armour="none"), u(1, "foe", (8, 5)), board_=GAP2)
    game.activate("runner")
    play(game, [3, 5], "move", cell=(7, 2))  # Initiative 3 fails; wound roll 5 fails (S3 vs T7 needs 6)
    fall = by(game, "fall", "runner")
    assert len(fall) == 1 and fall[0].fields["height"] == 3
    assert game.fighter("runner")["cell"] == (4, 2)
    assert game.fighter("runner")["posture"] == "pinned"
    wound = game.events("wound")[0]
    assert wound.fields["strength"] == 3 and wound.fields["need"] == 6
    # the fighter moved to the edge (1") before the test
    assert by(game, "move", "runner")[0].fields["to_cell"] == 2 * 10 + 3


def test_leap_is_only_used_when_no_safe_route_is_in_reach():
    """§6.4/§6.5 (docs/rules.md): a Move takes the safe route (climbing) when it fits the allowance and
    only leaps or jumps otherwise: across 3" platforms an M12 fighter must leap (test); across 1"
    platforms it climbs down and up instead (no test)."""
    b = lvl("\n".join(["3333003333"] * 6))
    game = make(u(0, "runner", (3, 2), m=12), u(1, "foe", (8, 5)), board_=b)
    game.activate("runner")
    # safe route: down (1" + 6") + 1" + up (1" + 6") = 15" > 12": leap needed
    play(game, [6], "move", cell=(6, 2))
    assert len(by(game, "init", "runner")) == 1
    game2 = make(u(0, "runner", (3, 2), m=12), u(1, "foe", (8, 5)),
                 board_=lvl("\n".join(["1111001111"] * 6)))
    game2.activate("runner")
    # safe route: down 1" + 2" climb, 1", up 1" + 2" = 7" <= 12": no test
    play(game2, [], "move", cell=(6, 2))
    assert not game2.events("init")
    assert game2.fighter("runner")["cell"] == (6, 2)
