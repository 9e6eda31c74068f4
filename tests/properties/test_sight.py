"""core.sight: the supercover walk that answers line of sight and cover on boards of any size
(Firefight §12.5-12.6 and WFB6 §24.8 in ../shared/rules/; module docstring for the flags and rules).

The walk is checked against a slow pure-Python reference written here from the definitions:
every cell of the bounding box is clipped against the segment in exact fractions, a cell whose
open square the segment enters is crossed, one it meets at a single point is touched, and the
rules are applied to those sets. Hypothesis draws boards, flags, heights, rules and pairs; the
hand-made scenarios pin the cases the rules name (a wall, a gap, a corner under each rule, cover,
wood, hills). Nothing here measures time (benchmarks/sight.py does)."""
import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from necro_env.core import sight as S

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # benchmarks/ is a top-level folder of the checkout, not an installed package
    sys.path.insert(0, str(ROOT))

PROFILE = settings.get_profile("necro-properties")


# ------------------------------------------------------------------ the reference
def met_cells(x0, y0, x1, y1):
    """{(x, y): (kind, t_in, t_out)} for every cell whose closed square meets the segment between
    the two cell centres: kind "crossed" if the segment enters the open square, else "touched";
    [t_in, t_out] the part of the segment (t from 0 to 1) over the square. Exact (fractions)."""
    ax, ay = Fraction(2 * x0 + 1, 2), Fraction(2 * y0 + 1, 2)
    dx, dy = x1 - x0, y1 - y0
    out = {}
    for cx in range(min(x0, x1), max(x0, x1) + 1):
        for cy in range(min(y0, y1), max(y0, y1) + 1):
            lo, hi = Fraction(0), Fraction(1)
            for p0, d, c in ((ax, dx, cx), (ay, dy, cy)):
                if d == 0:
                    if not c <= p0 <= c + 1:
                        lo, hi = Fraction(1), Fraction(0)
                    continue
                ta, tb = (c - p0) / d, (c + 1 - p0) / d
                lo, hi = max(lo, min(ta, tb)), min(hi, max(ta, tb))
            if lo > hi:
                continue
            mid = (lo + hi) / 2  # the middle of the part over the closed square is inside the open one iff crossed
            mx, my = ax + dx * mid, ay + dy * mid
            inside = lo < hi and cx < mx < cx + 1 and cy < my < cy + 1
            out[(cx, cy)] = ("crossed" if inside else "touched", lo, hi)
    return out


def reference(flags, floor, top, rules, x0, y0, x1, y1):
    """(blocked, flags met) by the module docstring's rules, walking nothing: the flags are those of
    every counted cell (not only those before a block)."""
    corner, skip_end, heights, eye_z, aim_z, thin_limit = rules
    met = met_cells(x0, y0, x1, y1)
    za, zt = Fraction(int(floor[y0, x0])) + Fraction(eye_z), Fraction(int(floor[y1, x1])) + Fraction(aim_z)

    def too_high(t, lo, hi):
        if heights == "level":
            return t > max(int(floor[y0, x0]), int(floor[y1, x1]))
        if heights == "line":
            return min(za + (zt - za) * lo, za + (zt - za) * hi) < t
        return False

    seen, blocked, thin = 0, False, 0
    corners = {}
    for (cx, cy), (kind, lo, hi) in met.items():
        f, t = int(flags[cy, cx]), int(top[cy, cx])
        if (cx, cy) == (x0, y0):
            continue
        if (cx, cy) == (x1, y1):
            seen |= 0 if skip_end else f
        elif kind == "crossed":
            seen |= f
            thin += bool(f & S.SF_THIN)
            blocked |= bool(f & S.SF_BLOCKS) or too_high(t, lo, hi)
        else:
            corners.setdefault(lo, []).append((f, t, lo, hi))
    blocked |= thin > thin_limit
    for pair in corners.values():
        assert len(pair) == 2, pair  # a corner of the grid touches two cells of the segment
        (fa, ta, lo, hi), (fb, tb, _, _) = pair
        if corner == "conservative":
            f, t = fa | fb, max(ta, tb)
        elif corner == "pinch":
            f, t = fa & fb, min(ta, tb)
        else:
            continue
        seen |= f
        blocked |= bool(f & S.SF_BLOCKS) or too_high(t, lo, hi)
    return blocked, seen


# ------------------------------------------------------------------ strategies
@st.composite
def boards(draw, max_side=12):
    """(flags, floor, top) of a random board: random flag bits at a random density, heights 0-3."""
    h = draw(st.integers(1, max_side))
    w = draw(st.integers(1, max_side))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    density = draw(st.sampled_from([0.0, 0.1, 0.3, 0.6]))
    flags = np.where(rng.random((h, w)) < density, rng.integers(0, 256, (h, w)), 0)
    floor = np.where(rng.random((h, w)) < density, rng.integers(0, 4, (h, w)), 0)
    top = floor + np.where(rng.random((h, w)) < density, rng.integers(0, 4, (h, w)), 0)
    return flags, floor, top


eyes = st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.25])
rule_sets = st.tuples(st.sampled_from(list(S.CORNERS)), st.booleans(), st.sampled_from(list(S.HEIGHTS)),
                      eyes, eyes, st.integers(0, 3))


def cells_of(board):
    return S.make_cells(*board)


def compiled_rules(rules):
    corner, skip_end, heights, eye_z, aim_z, thin_limit = rules
    return S.make_rules(corner, skip_end, heights, eye_z, aim_z, thin_limit)


@st.composite
def board_and_pairs(draw, n=8):
    board = draw(boards())
    h, w = board[0].shape
    cell = st.tuples(st.integers(0, w - 1), st.integers(0, h - 1))
    return board, draw(st.lists(st.tuples(cell, cell), min_size=1, max_size=n))


# ------------------------------------------------------------------ properties
@settings(PROFILE, max_examples=300)
@given(board_and_pairs(), rule_sets)
def test_the_walk_equals_the_reference(bp, rules):
    board, pairs = bp
    cells, r = cells_of(board), compiled_rules(rules)
    for (x0, y0), (x1, y1) in pairs:
        got = int(S.sight(cells, r, x0, y0, x1, y1))
        blocked, seen = reference(*board, rules, x0, y0, x1, y1)
        assert bool(got & S.SIGHT_BLOCKED) == blocked, ((x0, y0), (x1, y1), got)
        if blocked:  # the walk stops at the first block: what it met is part of what the line meets
            assert got & 255 & ~seen == 0, ((x0, y0), (x1, y1), got, seen)
        else:
            assert got & 255 == seen, ((x0, y0), (x1, y1), got, seen)


@settings(PROFILE, max_examples=300)
@given(st.integers(0, 30), st.integers(0, 30), st.integers(0, 30), st.integers(0, 30))
def test_the_supercover_is_the_brute_force_set_in_order(x0, y0, x1, y1):
    out = np.zeros((S.max_cells(31, 31), 3), np.int64)
    n = S.supercover(x0, y0, x1, y1, out)
    listed = out[:n].tolist()
    met = met_cells(x0, y0, x1, y1)
    assert {(x, y) for x, y, k in listed if k == 0} == {c for c, v in met.items() if v[0] == "crossed"}
    assert {(x, y) for x, y, k in listed if k == S.TOUCHED} == {c for c, v in met.items() if v[0] == "touched"}
    assert n == len(met)  # each cell once
    assert [met[(x, y)][1] for x, y, _ in listed] == sorted(met[(x, y)][1] for x, y, _ in listed)
    assert listed[0][:2] == [x0, y0] and listed[-1][:2] == [x1, y1]


@settings(PROFILE, max_examples=200)
@given(board_and_pairs(), st.sampled_from(list(S.CORNERS)))
def test_a_clear_line_crosses_no_blocking_cell(bp, corner):
    """Flags only (no height rule; no thin limit on these small boards), straight from the brute-force
    sets: the permissive rule blocks on the crossed cells, the conservative one on every cell met."""
    board, pairs = bp
    cells, r = cells_of(board), S.make_rules(corner)
    flags = board[0]
    for (x0, y0), (x1, y1) in pairs:
        blocked = bool(S.sight(cells, r, x0, y0, x1, y1) & S.SIGHT_BLOCKED)
        between = {c: v[0] for c, v in met_cells(x0, y0, x1, y1).items() if c not in ((x0, y0), (x1, y1))}
        crossed = any(flags[y, x] & S.SF_BLOCKS for (x, y), kind in between.items() if kind == "crossed")
        met = any(flags[y, x] & S.SF_BLOCKS for x, y in between)
        assert blocked or not crossed
        if corner == "permissive":
            assert blocked == crossed
        elif corner == "conservative":
            assert blocked == met


@settings(PROFILE, max_examples=200)
@given(board_and_pairs(), rule_sets)
def test_blocking_is_symmetric_and_so_are_the_flags_between(bp, rules):
    board, pairs = bp
    corner, _, heights, eye_z, _, thin_limit = rules
    r = S.make_rules(corner, True, heights, eye_z, eye_z, thin_limit)  # eye and aim at one height
    cells = cells_of(board)
    for (x0, y0), (x1, y1) in pairs:
        ab = int(S.sight(cells, r, x0, y0, x1, y1))
        ba = int(S.sight(cells, r, x1, y1, x0, y0))
        assert ab & S.SIGHT_BLOCKED == ba & S.SIGHT_BLOCKED
        if not ab & S.SIGHT_BLOCKED:
            assert ab == ba


@settings(PROFILE, max_examples=200)
@given(boards(), rule_sets)
def test_neighbours_see_each_other(board, rules):
    """No cell lies between orthogonal neighbours; diagonal ones are only touched at a corner,
    which the permissive rule ignores."""
    cells, r = cells_of(board), compiled_rules(rules)
    h, w = board[0].shape
    for y in range(h):
        for x in range(w):
            for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1), (1, -1)):
                if 0 <= x + dx < w and 0 <= y + dy < h and (dx * dy == 0 or rules[0] == "permissive"):
                    assert not S.sight(cells, r, x, y, x + dx, y + dy) & S.SIGHT_BLOCKED, (x, y, dx, dy)


@settings(PROFILE, max_examples=50)
@given(st.integers(1, 20), st.integers(1, 20), st.integers(0, 3), rule_sets)
def test_on_an_empty_flat_board_everything_is_visible(h, w, level, rules):
    cells = S.make_cells(np.zeros((h, w), int), np.full((h, w), level))
    field = np.full((h, w), -1, np.int64)
    for x0, y0 in {(0, 0), (w - 1, h - 1), (w // 2, h // 2)}:
        S.sight_field(cells, compiled_rules(rules), x0, y0, field)
        assert not field.any()


@settings(PROFILE, max_examples=100)
@given(board_and_pairs(n=20), rule_sets)
def test_the_batched_forms_equal_the_single_walk(bp, rules):
    board, pairs = bp
    cells, r = cells_of(board), compiled_rules(rules)
    h, w = board[0].shape
    (x0, y0), _ = pairs[0]
    tx = np.array([p[1][0] for p in pairs], np.int64)
    ty = np.array([p[1][1] for p in pairs], np.int32)
    out = np.full(len(pairs) + 2, -7, np.int64)
    S.sight_many(cells, r, x0, y0, tx, ty, len(pairs), out)
    assert out.tolist() == [S.sight(cells, r, x0, y0, a, b) for a, b in zip(tx, ty)] + [-7, -7]
    field = np.zeros((h, w), np.int16)
    S.sight_field(cells, r, x0, y0, field)
    assert field.tolist() == [[S.sight(cells, r, x0, y0, x, y) for x in range(w)] for y in range(h)]


@settings(PROFILE, max_examples=30)
@given(boards(max_side=7), rule_sets, st.sampled_from([0, S.SF_COVER, S.SF_COVER | S.SF_HARD | 128]))
def test_the_pair_table_holds_the_walks_answers(board, rules, report):
    cells, r = cells_of(board), compiled_rules(rules)
    h, w = board[0].shape
    bits = S.build_pair_bits(cells, r, report)
    assert bits.nbytes == S.pair_bits_bytes(h, w, 1 + bin(report).count("1"))
    wanted = [b for b in range(8) if report >> b & 1]
    for a in range(h * w):
        for t in range(h * w):
            got = int(S.sight(cells, r, a % w, a // w, t % w, t // w))
            assert S.pair_bit(bits, 0, a, t) == (got & S.SIGHT_BLOCKED) >> 8
            for p, b in enumerate(wanted, 1):
                assert S.pair_bit(bits, p, a, t) == (got >> b) & 1


# ------------------------------------------------------------------ scenarios
def board_from(rows, legend):
    """flags [H, W] from strings, one per row (y = 0 first), one character a cell; '.' is 0."""
    return np.array([[legend.get(ch, 0) for ch in row] for row in rows], np.int64)


WALL = {"#": S.SF_BLOCKS, "c": S.SF_COVER, "w": S.SF_THIN, "h": S.SF_COVER | S.SF_HARD}


def test_a_wall_between_blocks_and_a_gap_in_it_does_not():
    wall = S.make_cells(board_from(["...#...", "...#...", "...#...", "...#...", "...#..."], WALL))
    gap = S.make_cells(board_from(["...#...", "...#...", ".......", "...#...", "...#..."], WALL))
    r = S.make_rules()
    assert S.sight(wall, r, 1, 2, 5, 2) == S.SIGHT_BLOCKED | S.SF_BLOCKS
    assert S.sight(gap, r, 1, 2, 5, 2) == 0
    assert S.sight(gap, r, 1, 1, 5, 3) == 0  # through (3, 2): y = 2.25 to 2.75 over x = 3 to 4
    assert S.sight(gap, r, 1, 0, 5, 2) & S.SIGHT_BLOCKED  # over (3, 1): y = 1.25 to 1.75
    assert S.sight(wall, r, 2, 2, 3, 2) == S.SF_BLOCKS  # the target's own cell never blocks; its flags are reported


@pytest.mark.parametrize("corner, staircase, pillar", [
    ("permissive", 0, 0),
    ("conservative", S.SIGHT_BLOCKED | S.SF_BLOCKS, S.SIGHT_BLOCKED | S.SF_BLOCKS),
    ("pinch", S.SIGHT_BLOCKED | S.SF_BLOCKS, 0),
])
def test_a_diagonal_corner_touch_under_each_rule(corner, staircase, pillar):
    """(1, 1) to (3, 3) passes through the grid corners (2, 2) and (3, 3): the first between the
    cells (2, 1) and (1, 2), the second between (3, 2) and (2, 3). A staircase wall fills (2, 1) and
    (1, 2); a pillar fills (2, 1) alone."""
    r = S.make_rules(corner)
    stairs = S.make_cells(board_from(["....", "..#.", ".#..", "...."], WALL))
    lone = S.make_cells(board_from(["....", "..#.", "....", "...."], WALL))
    assert S.sight(stairs, r, 1, 1, 3, 3) == staircase
    assert S.sight(lone, r, 1, 1, 3, 3) == pillar
    assert S.sight(stairs, r, 1, 1, 2, 2) == staircase  # diagonal neighbours: nothing between but the corner
    assert S.sight(stairs, r, 0, 0, 3, 3) == staircase  # (1, 1) to (2, 2) is one step of this line too


def test_cover_crossed_is_reported_except_on_the_observers_cell():
    flags = board_from(["c.c.h", "....."], WALL)
    cells = S.make_cells(flags)
    assert S.sight(cells, S.make_rules(), 0, 0, 4, 0) == S.SF_COVER | S.SF_HARD  # (2, 0) and the target's (4, 0)
    assert S.sight(cells, S.make_rules(skip_end=True), 0, 0, 4, 0) == S.SF_COVER
    assert S.sight(cells, S.make_rules(), 0, 0, 1, 0) == 0  # the observer's own cover is not in the flags
    assert S.sight(cells, S.make_rules(skip_end=True), 4, 0, 0, 0) == S.SF_COVER
    assert S.sight(cells, S.make_rules(), 0, 1, 4, 1) == 0


def test_cover_touched_at_a_corner_counts_under_the_corner_rules():
    # (1, 1) to (2, 0), diagonal neighbours: the line passes the grid corner (2, 1), which touches
    # the cells (1, 0) and (2, 1), both cover here
    cells = S.make_cells(board_from([".c.", "..c", "..."], WALL))
    assert S.sight(cells, S.make_rules("permissive"), 1, 1, 2, 0) == 0
    assert S.sight(cells, S.make_rules("conservative"), 1, 1, 2, 0) == S.SF_COVER
    assert S.sight(cells, S.make_rules("pinch"), 1, 1, 2, 0) == S.SF_COVER  # both touched cells give cover
    one = S.make_cells(board_from([".c.", "...", "..."], WALL))
    assert S.sight(one, S.make_rules("conservative"), 1, 1, 2, 0) == S.SF_COVER
    assert S.sight(one, S.make_rules("pinch"), 1, 1, 2, 0) == 0  # the pinch rule counts what both have


def test_wood_blocks_past_the_thin_limit():
    cells = S.make_cells(board_from(["www....", ".www..."], WALL))
    assert S.sight(cells, S.make_rules(thin_limit=2), 0, 1, 6, 1) == S.SF_THIN | S.SIGHT_BLOCKED
    assert S.sight(cells, S.make_rules(thin_limit=3), 0, 1, 6, 1) == S.SF_THIN
    assert S.sight(cells, S.make_rules(thin_limit=1), 0, 0, 2, 0) == S.SF_THIN  # the ends' wood does not count
    assert S.sight(cells, S.make_rules(thin_limit=0), 0, 0, 2, 0) == S.SF_THIN | S.SIGHT_BLOCKED
    assert S.sight(cells, S.make_rules(thin_limit=0), 1, 0, 2, 0) == S.SF_THIN


def test_a_hill_blocks_between_lower_ends_by_the_level_rule():
    flat = np.zeros((1, 7), int)
    floor = np.array([[0, 0, 0, 1, 1, 0, 0]])
    cells = S.make_cells(flat, floor)
    level = S.make_rules(heights="level")
    assert S.sight(cells, level, 0, 0, 6, 0) == S.SIGHT_BLOCKED
    assert S.sight(cells, level, 3, 0, 6, 0) == 0  # from the hill: it is not higher than the observer
    assert S.sight(cells, level, 0, 0, 4, 0) == 0  # onto the hill: (3, 0) is not higher than the target
    assert S.sight(cells, S.make_rules(), 0, 0, 6, 0) == 0  # heights off


def test_the_3d_line_passes_over_a_low_wall_from_a_tower():
    flat = np.zeros((1, 9), int)
    floor = np.array([[4, 0, 0, 0, 0, 0, 0, 0, 0]])
    top = np.array([[4, 0, 0, 3, 0, 0, 0, 0, 0]])
    cells = S.make_cells(flat, floor, top)
    line = S.make_rules(heights="line", eye_z=1.0, aim_z=1.0)
    # from 5" at x = 0.5 down to 1" at x = 8.5: 3.75" to 3.25" over the 3" wall at x = 3 to 4
    assert S.sight(cells, line, 0, 0, 8, 0) == 0
    assert S.sight(cells, line, 1, 0, 8, 0) == S.SIGHT_BLOCKED  # at 1" over the ground the wall blocks
    # aimed at the target's feet: 5" down to 0", 2.81" at x = 4
    assert S.sight(cells, S.make_rules(heights="line", eye_z=1.0, aim_z=0.0), 0, 0, 8, 0) == S.SIGHT_BLOCKED
    assert S.sight(cells, S.make_rules(heights="level"), 0, 0, 8, 0) == 0  # 3 is not above the tower's 4
    assert S.sight(cells, S.make_rules(), 1, 0, 8, 0) == 0  # heights off


# ------------------------------------------------------------------ builders and their errors
@pytest.mark.parametrize("call, message", [
    (lambda: S.make_rules(corner="diagonal"),
     "corner rule 'diagonal' is not one of ['conservative', 'permissive', 'pinch']"),
    (lambda: S.make_rules(heights="3d"), "height rule '3d' is not one of ['level', 'line', 'off']"),
    (lambda: S.make_rules(eye_z=-1), "eye_z -1 must be a number from 0 to 100"),
    (lambda: S.make_rules(aim_z="1"), "aim_z '1' must be a number from 0 to 100"),
    (lambda: S.make_rules(thin_limit=2.5), "thin_limit 2.5 must be a whole number from 0 to 255"),
    (lambda: S.make_rules(skip_end=1), "skip_end must be True or False, got 1"),
    (lambda: S.make_cells(np.zeros(5, int)), "flags must be a non-empty 2-D array [H, W], got shape (5,)"),
    (lambda: S.make_cells(np.full((2, 2), 256)), "flags 256 at cell (x=0, y=0) is outside 0-255"),
    (lambda: S.make_cells(np.zeros((2, 2)), None), "flags must hold whole numbers 0-255, got dtype float64"),
    (lambda: S.make_cells(np.zeros((2, 2), int), np.zeros((2, 3), int)), "floor has shape (2, 3): it must match"),
    (lambda: S.make_cells(np.zeros((2, 2), int), np.array([[0, 2], [0, 0]]), np.array([[0, 1], [0, 0]])),
     "top 1 of cell (x=1, y=0) is below its floor 2"),
])
def test_bad_input_is_refused_in_one_line(call, message):
    with pytest.raises(ValueError) as err:
        call()
    assert message in str(err.value) and "\n" not in str(err.value)


def test_the_builders_make_what_the_walk_reads():
    cells = S.make_cells(np.array([[1, 2]]), np.array([[0, 3]]))
    assert cells.dtype == np.uint8 and cells.shape == (3, 1, 2) and cells.flags.c_contiguous
    assert cells[S.PLANE_TOP].tolist() == [[0, 3]]  # the top defaults to the floor
    assert S.make_rules("pinch", True, "line", 1.5, 0.5, 2).tolist() == \
        [S.CORNER_PINCH | S.SKIP_END | S.HEIGHT_LINE, 1.5, 0.5, 2]


FIELDS = """
import numpy as np
from necro_env.core import sight as S


def fields():
    rng = np.random.default_rng(3)
    flags = rng.integers(0, 16, (9, 11)) * (rng.random((9, 11)) < 0.3)
    cells = S.make_cells(flags, rng.integers(0, 2, (9, 11)))
    out = np.zeros((9, 11), np.int64)
    res = []
    for corner in S.CORNERS:
        S.sight_field(cells, S.make_rules(corner, heights="line", thin_limit=1), 4, 5, out)
        res.append(out.tolist())
    return res
"""


def test_plain_python_gives_the_compiled_answers():
    """Under NUMBA_DISABLE_JIT=1 (docs/testing.md) the same functions run as Python."""
    run = subprocess.run([sys.executable, "-c", FIELDS + "import json\nprint(json.dumps(fields()))\n"],
                         env=dict(os.environ, NUMBA_DISABLE_JIT="1"), capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    here = {}
    exec(FIELDS, here)
    compiled = here["fields"]()
    assert json.loads(run.stdout) == compiled
    assert any(v & S.SIGHT_BLOCKED for plane in compiled for row in plane for v in row)


# ------------------------------------------------------------------ the benchmark
def test_the_benchmark_prints_the_static_bytes_it_reports(capsys):
    from benchmarks import sight as B

    B.main(["--pairs", "2000", "--seconds", "0.05", "--max-table-cells", "600"])
    out = capsys.readouterr().out
    for w, h in ((24, 24), (48, 48), (72, 48)):
        m = re.search(rf"^walk static data {w}x{h}: ([\d,]+) bytes", out, re.M)
        assert m and int(m.group(1).replace(",", "")) == 3 * h * w, out
    m = re.search(r"^Necromunda tables 24x24: ([\d,]+) bytes", out, re.M)
    assert m and int(m.group(1).replace(",", "")) == 22 * 576 ** 2, out
    m = re.search(r"^Necromunda tables 72x48 \(computed\): ([\d,]+) bytes", out, re.M)
    assert m and int(m.group(1).replace(",", "")) == 22 * 3456 ** 2, out
    assert re.search(r"^walk 72x48 pieces permissive: [\d,]+ queries/s", out, re.M), out
