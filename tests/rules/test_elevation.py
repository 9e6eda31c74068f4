"""Boards with levels: distances, line of sight and cover across heights, base contact and the 1"
rule across height differences (rules §1.2, §1.4, §6.1; decisions in docs/rules.md §1.2 and §1.4).

Grid model: one floor height per cell (whole inches). A raised cell is solid from the ground up to
its height; rays run from 1" above the observer's floor to 0.5" above the target's floor.
"""
import numpy as np

from necro_env.core.geometry import build_los_tables
from necro_env.rulesets.necromunda.query import clear_rays, cover_grade, engaged_with, within_f
from necro_env.testing import board
from tests.rules.scenario_helpers import make, u

FLAT = "\n".join(["." * 10] * 6)


def lvl(heights, ascii_map=FLAT):
    return board(ascii_map, heights=heights)


def rows(*cols_heights, width=10, n=6):
    """A heights string: every row the same, given as {column: height}."""
    r = ["0"] * width
    for col, h in cols_heights:
        r[col] = h
    return "\n".join(["".join(r)] * n)


def legal_kinds(game):
    return {game.describe(i).kind for i in game.legal_actions()}


def move_cells(game):
    return {a.cell for a in (game.describe(i) for i in game.legal_actions()) if a.kind == "move"}


def grade(game, a, t):
    return cover_grade(clear_rays(game.state, game.static, 0, game.fid(a), game.fid(t), False))


# ------------------------------------------------------------------ gap (1.2)
def test_gap_counts_the_height_difference():
    """§1.2: gap = sqrt(dx² + dy² + dz²) - 1. Two cells apart on the same level the gap is 1"; with the
    target 3" higher it is sqrt(4 + 9) - 1 = 2.6": within 3" but not within 2"."""
    game = make(u(0, "a", (2, 2)), u(1, "b", (4, 2)), board_=lvl(rows((4, "3"))))
    s, fa, fb = game.state, game.fid("a"), game.fid("b")
    assert within_f(s, 0, fa, fb, 3.0) and not within_f(s, 0, fa, fb, 2.0)
    flat = make(u(0, "a", (2, 2)), u(1, "b", (4, 2)))
    assert within_f(flat.state, 0, flat.fid("a"), flat.fid("b"), 1.0)


# ------------------------------------------------------------------ line of sight and cover (1.4)
def test_raised_block_blocks_line_of_sight_between_ground_fighters():
    """§1.4: solid terrain blocks LOS; a 2" raised block between two fighters on the ground hides them
    from each other completely (no ray passes)."""
    game = make(u(0, "shooter", (0, 2), ["lasgun"], facing="E"), u(1, "target", (8, 2)),
                board_=lvl(rows((4, "2"), (5, "2"))))
    assert grade(game, "shooter", "target") == 3
    game.activate("shooter")
    assert "shoot" not in legal_kinds(game)


def test_shooter_on_a_tower_sees_over_a_lower_block():
    """§1.4 with heights: from a 4" tower the rays pass over a 2" block 3 cells away: the target is in
    the open."""
    game = make(u(0, "shooter", (0, 2), ["lasgun"], facing="E"), u(1, "target", (8, 2)),
                board_=lvl(rows((0, "4"), (3, "2"))))
    assert grade(game, "shooter", "target") == 0
    game.activate("shooter")
    assert "shoot" in legal_kinds(game)


def test_height_reduces_cover_from_an_obstacle():
    """§1.4 with heights: a target 2 cells behind an obstacle is in full cover from the ground (all five
    rays cross it below its 2" top) but only in partial cover from a 6" tower."""
    omap = "\n".join(["." * 10] * 2 + ["......o..."] + ["." * 10] * 3)
    ground = make(u(0, "shooter", (2, 2), ["lasgun"], facing="E"), u(1, "target", (8, 2)), board_=board(omap))
    assert grade(ground, "shooter", "target") == 2
    tower = make(u(0, "shooter", (2, 2), ["lasgun"], facing="E"), u(1, "target", (8, 2)),
                 board_=lvl(rows((2, "6")), omap))
    assert grade(tower, "shooter", "target") == 1


def test_target_back_from_a_platform_edge_is_hidden_from_below():
    """§1.4 with heights: the platform itself hides what stands well back from its edge: a target 3
    cells behind the edge of a 3" platform, seen from the ground 2 cells in front of the wall, has no
    LOS; at the edge it is visible."""
    h = rows((5, "3"), (6, "3"), (7, "3"), (8, "3"), (9, "3"))
    back = make(u(0, "shooter", (2, 2), ["lasgun"], facing="E"), u(1, "target", (8, 2)), board_=lvl(h))
    assert grade(back, "shooter", "target") == 3
    edge = make(u(0, "shooter", (2, 2), ["lasgun"], facing="E"), u(1, "target", (5, 2)), board_=lvl(h))
    assert grade(edge, "shooter", "target") == 0


def test_flat_heights_leave_the_tables_unchanged():
    """§1.4: with every height 0 the height-aware tables equal the flat 2D test's (walls, obstacles)."""
    terrain = np.zeros((5, 7), np.int8)
    terrain[2, 3] = 1  # wall
    terrain[1, 4] = 2  # obstacle
    doors = np.full((5, 7), -1, np.int16)
    wall, obst, _ = build_los_tables(terrain, doors, np.zeros((5, 7), np.int8))
    # a ray from (0, 2) to (6, 2) crosses the wall; from (0, 1) to (6, 1) crosses the obstacle only
    assert wall[2 * 7 + 0, 2 * 7 + 6] != 0
    assert wall[1 * 7 + 0, 1 * 7 + 6] == 0 and obst[1 * 7 + 0, 1 * 7 + 6] == 0b11111


# ------------------------------------------------------------------ base contact and the 1" rule (1.2, 6.1)
def test_no_base_contact_across_a_height_difference():
    """§1.2 base contact (docs/rules.md): neighbouring cells on different floor heights are not in base
    contact, so the fighters are not Engaged and may shoot."""
    game = make(u(0, "low", (2, 2), ["lasgun"], facing="E"), u(1, "high", (3, 2)), board_=lvl(rows((3, "1"))))
    assert not engaged_with(game.state, 0, game.fid("low"), game.fid("high"))
    same = make(u(0, "low", (2, 2), ["lasgun"], facing="E"), u(1, "high", (3, 2)))
    assert engaged_with(same.state, 0, same.fid("low"), same.fid("high"))
    game.activate("low")
    assert "fight" not in legal_kinds(game) and "shoot" in legal_kinds(game)


def test_one_inch_rule_counts_the_height_difference():
    """§6.1 1" rule with §1.2 gap: an enemy 1" above a neighbouring cell is within 1" (gap 0.41"), so
    the cell is closed; an enemy 2" above is 1.24" away, so the cell is open."""
    one = make(u(0, "mover", (1, 2)), u(1, "foe", (5, 2)), board_=lvl(rows((5, "1"))))
    one.activate("mover")
    assert (4, 2) not in move_cells(one)
    two = make(u(0, "mover", (1, 2)), u(1, "foe", (5, 2)), board_=lvl(rows((5, "2"))))
    two.activate("mover")
    assert (4, 2) in move_cells(two)


def test_charge_ends_on_the_targets_level():
    """§6.2 with levels (docs/rules.md): a charge must end in base contact on the target's floor
    height: the charger climbs the 1" platform instead of stopping at its foot."""
    h = rows((4, "1"), (5, "1"), (6, "1"))
    game = make(u(0, "charger", (1, 2), ["fighting_knife"]), u(1, "target", (5, 2)), board_=lvl(h))
    game.activate("charger")
    game.script_dice([6] + [1] * 12)  # D3 = 3: allowance 8"; then the fight's dice (all misses)
    game.act("charge", target="target")
    cx, cy = game.fighter("charger")["cell"]
    assert cx in (4, 6) or cy != 2
    assert game.board.heights[cy, cx] == 1
    assert max(abs(cx - 5), abs(cy - 2)) == 1
    assert game.events("charge")[0].fields["reached"] == 1
