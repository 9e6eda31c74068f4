"""Vision arc, line of sight and cover (rules §1.3, §1.4).

Five rays run from the observer's cell centre to the target's centre and to four points
0.4" from it along the axes; 5 clear = in the open, 3-4 = partial cover, 1-2 = full cover,
0 = no line of sight (§1.4 SUGGESTION).
"""
import math

import pytest

from necro_env.core.geometry import build_arc_table
from necro_env.core.terrain import FACING_DX, FACING_DY, FACING_NAMES
from necro_env.rulesets.necromunda.query import clear_rays, cover_grade, in_arc
from necro_env.testing import board, fighter, gang, scenario


def legal(game, kind):
    return [a for a in (game.describe(i) for i in game.legal_actions()) if a.kind == kind]


def make(bmap, shooter_cell, target_cell, *, others=(), facing="E", target_kw=None, shooter_kw=None):
    """Gang a: "shooter" (+ friends "f*"); gang b: "target" (+ enemies "e*"); others are
    (name, cell, kw)."""
    friends = [fighter("orlock", "ganger", [], name=n) for n, _, _ in others if n.startswith("f")]
    enemies = [fighter("goliath", "ganger", [], name=n) for n, _, _ in others if n.startswith("e")]
    g0 = gang("a", fighter("orlock", "ganger", ["lasgun"], name="shooter"), *friends)
    g1 = gang("b", fighter("goliath", "ganger", [], name="target"), *enemies)
    return scenario(board(bmap), [g0, g1], [
        dict(fighter="shooter", cell=shooter_cell, facing=facing, **(shooter_kw or {})),
        dict(fighter="target", cell=target_cell, **(target_kw or {})),
        *[dict(fighter=n, cell=c, **kw) for n, c, kw in others],
    ])


def rays(game, a="shooter", t="target"):
    return clear_rays(game.state, game.static, 0, game.fid(a), game.fid(t), False)


def shootable(game):
    return {a.target for a in legal(game, "shoot")}


OPEN = '''
    .........
    .........
    .........
    .........
    .........
'''


# ------------------------------------------------------------------ vision arc (1.3)
@pytest.mark.parametrize("k", range(8))
def test_vision_arc_is_90_degrees_for_each_of_8_facings(k):
    """§1.3: a 90° arc to the front: straight ahead and exactly 45° off (the wedge edge) are in;
    90° off and behind are out. Checked for all 8 facings from the centre of a 9x9 board."""
    b = '\n'.join(['.........'] * 9)
    game = make(b, (4, 4), (0, 0), facing=FACING_NAMES[k])
    s, st = game.state, game.static
    f = game.fid("shooter")
    fx, fy = FACING_DX[k], FACING_DY[k]
    lx, ly = fy, -fx  # 90 degrees to the left

    def inside(dx, dy):
        return bool(in_arc(s, st, 0, f, 4 + dx, 4 + dy, k))

    assert inside(2 * fx, 2 * fy)
    # 45 degrees off: the diagonal neighbours of the facing direction
    if fx and fy:  # diagonal facing: the two orthogonal directions it lies between
        assert inside(3 * fx, 0) and inside(0, 3 * fy)
    else:
        assert inside(3 * fx + 3 * lx, 3 * fy + 3 * ly) and inside(3 * fx - 3 * lx, 3 * fy - 3 * ly)
    assert not inside(3 * lx, 3 * ly) and not inside(-3 * lx, -3 * ly)  # 90 degrees off
    assert not inside(-2 * fx, -2 * fy)  # behind


def test_vision_arc_partial_overlap_tolerance_on_the_grid():
    """§1.3 SUGGESTION: inside iff the angle is <= 45° + asin(0.5 / d) (the base overlaps the
    wedge). With 8 facings no cell centre falls in that tolerance band: the arc is exactly
    the cells within 45° of the facing, edge included; e.g. offset (2, -1) from a N-facing
    fighter (63.4° > 57.9°) is out, (3, -3) (45°) is in."""
    arc = build_arc_table(12, 12)
    for k in range(8):
        fx, fy = FACING_DX[k], FACING_DY[k]
        for dy in range(-11, 12):
            for dx in range(-11, 12):
                if dx == 0 and dy == 0:
                    continue
                cos = (dx * fx + dy * fy) / (math.hypot(dx, dy) * math.hypot(fx, fy))
                wedge = math.degrees(math.acos(max(-1.0, min(1.0, cos)))) <= 45 + 1e-9
                assert arc[dy + 11, dx + 11, k] == int(wedge), (k, dx, dy)
    assert arc[-1 + 11, 2 + 11, 0] == 0 and arc[-3 + 11, 3 + 11, 0] == 1


def test_shooting_needs_the_target_in_the_arc_once_the_free_turn_is_gone():
    """§1.3 / §7.2: an eligible target must be in the vision arc. At activation start the fighter
    may still turn (and turns to face its target when it shoots); after Aim it may not."""
    game = make(OPEN, (4, 2), (0, 2), facing="E")  # target behind
    game.activate("shooter")
    assert shootable(game) == {(1, 0)}
    game.act("aim")
    assert shootable(game) == set()

    game = make(OPEN, (4, 2), (0, 2), facing="E")
    game.activate("shooter")
    game.script_dice([1] * 6)
    game.act("shoot", weapon=0, target="target")
    assert game.fighter("shooter")["facing"] == "W"


def test_prone_fighters_have_no_vision_arc():
    """§1.3: Prone fighters have no facing and no vision arc (only Blind Fire, 360°, §5.2)."""
    game = make(OPEN, (4, 2), (7, 2), facing="E", shooter_kw=dict(posture="pinned"))
    game.activate("shooter")
    assert legal(game, "shoot") == []
    assert [a.target for a in legal(game, "blind_fire")] == [(1, 0)]


# ------------------------------------------------------------------ terrain blocks LOS (1.4)
def test_walls_block_line_of_sight():
    """§1.4: solid terrain always blocks line of sight."""
    game = make('''
        .........
        ....#....
        .........
    ''', (0, 1), (8, 1))
    assert rays(game) == 0
    assert cover_grade(0) == 3
    game.activate("shooter")
    assert shootable(game) == set()


@pytest.mark.parametrize("door, clear", [("+", 0), ("L", 0), ("/", 5)])
def test_closed_doors_block_line_of_sight_open_doors_do_not(door, clear):
    """§1.4 / §6.8: closed (and locked) doors block line of sight like walls; open doors do not."""
    game = make(f'''
        ....#....
        ....{door}....
        ....#....
    ''', (0, 1), (8, 1))
    assert rays(game) == clear


# ------------------------------------------------------------------ models (1.4)
@pytest.mark.parametrize("posture, clear", [("standing", 0), ("pinned", 5), ("seriously_injured", 5)])
def test_standing_models_block_rays_prone_ones_do_not(posture, clear):
    """§1.4: Standing models block rays; Prone fighters (Pinned or Seriously Injured) never block
    line of sight."""
    game = make(OPEN, (0, 2), (6, 2), others=[("e_block", (3, 2), dict(posture=posture))])
    assert rays(game) == clear
    game.activate("shooter")
    assert ((1, 0) in shootable(game)) == (clear > 0)


def test_friendly_fighter_in_base_contact_with_the_shooter_is_ignored():
    """§1.4: friendly fighters in base contact with the attacker are ignored; a friend further
    along the line blocks like any Standing model."""
    game = make(OPEN, (0, 2), (6, 2), others=[("f_pal", (1, 2), {})])
    assert rays(game) == 5
    game = make(OPEN, (0, 2), (6, 2), others=[("f_pal", (2, 2), {})])
    assert rays(game) == 0


@pytest.mark.parametrize("target, blocker, clear", [((7, 3), (3, 2), 4), ((6, 3), (3, 1), 2)])
def test_standing_model_partly_in_the_way_gives_cover(target, blocker, clear):
    """§1.4: a Standing model hiding part of the target gives cover: partial when it blocks 1 ray,
    full when it blocks 3 (e.g. from (0, 0) to (6, 3), a model at (3, 1) is within 0.5" of the
    centre ray and of the rays to the target's right and lower sample points)."""
    game = make(OPEN, (0, 0), target, others=[("e_block", blocker, {})])
    assert rays(game) == clear
    game2 = make(OPEN, (0, 0), target, others=[("e_block", blocker, dict(posture="pinned"))])
    assert rays(game2) == 5


# ------------------------------------------------------------------ cover grades (1.4)
CORNER = '''
    .........
    .........
    .........
    .......#.
    .........
'''


@pytest.mark.parametrize("shooter, clear, grade", [((0, 3), 5, 0), ((0, 2), 4, 1), ((0, 1), 2, 2)])
def test_cover_grade_from_blocked_rays(shooter, clear, grade):
    """§1.4 SUGGESTION: a target diagonally behind a wall corner is in the open, in partial cover
    (1-2 rays blocked) or in full cover (3-4 blocked) depending on the angle."""
    game = make(CORNER, shooter, (8, 4))
    assert rays(game) == clear
    assert cover_grade(clear) == grade


def test_cover_grade_reaches_the_shot():
    """§1.4 / §7.4: the cover grade is used by the shot (full cover: -2, lasgun short +1 => -1)."""
    game = make(CORNER, (0, 1), (8, 4))
    game.activate("shooter")
    game.script_dice([1] * 6)
    game.act("shoot", weapon=0, target="target")
    shot = game.events("shot")[0].fields
    assert shot["cover"] == 2 and shot["modifier"] == -1


# ------------------------------------------------------------------ obstacles (1.4, 6.3)
BARRICADE = '''
    .........
    .........
    .....o...
    .........
    .........
'''


def test_obstacle_next_to_the_target_gives_full_cover_but_keeps_line_of_sight():
    """§1.4: an obstacle between shooter and target blocks rays (cover), but it is not solid
    terrain: with every ray crossing it the target is in full cover, still visible
    ([KO] 2D rule: only walls and closed doors block line of sight)."""
    game = make(BARRICADE, (0, 2), (6, 2))
    assert rays(game) == 1
    assert cover_grade(rays(game)) == 2
    game.activate("shooter")
    assert shootable(game) == {(1, 0)}


def test_obstacle_partly_in_the_way_gives_partial_cover():
    """§1.4: an obstacle hiding only part of the target gives partial cover."""
    game = make(BARRICADE, (0, 2), (6, 3))
    assert rays(game) == 4
    assert cover_grade(4) == 1


@pytest.mark.parametrize("shooter", [(4, 2), (4, 1), (4, 3)])
def test_obstacle_touching_the_shooter_gives_no_cover(shooter):
    """§1.4 SUGGESTION: an obstacle in base contact with the shooter (orthogonally or
    diagonally) does not block its rays: the shooter fires over its own barricade."""
    game = make(BARRICADE, shooter, (7, 2))
    assert rays(game) == 5


def test_obstacle_does_not_hide_a_standing_fighter_but_a_prone_one_in_cover_is_hidden():
    """§1.4 / §7.2 fighters in hiding: behind the barricade a Standing target can be shot (full
    cover); a Prone target in cover cannot be targeted."""
    game = make(BARRICADE, (0, 2), (6, 2), target_kw=dict(posture="pinned"),
                others=[("e_sentry", (8, 4), {})])
    game.activate("shooter")
    assert (1, 0) not in shootable(game)
