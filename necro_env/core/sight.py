"""Line of sight and cover for any ruleset: a compiled supercover walk over per-cell flags.

Why (2026-12-01). Necromunda precomputes its five-ray line of sight for every pair of cells
(``core.geometry.build_los_tables``): 22 bytes a pair, 7.3 MB on its 24x24 boards, but 116.8 MB
on Firefight's 48x48 board and 262.8 MB on WFB6's 72x48 one. Here one sight line is answered by
walking the cells it crosses, over three bytes of static data a cell: 6,912 bytes at 48x48 and
10,368 at 72x48. ``build_pair_bits`` packs the walk's answers into a bit per pair of cells
(1.49 MB a plane at 72x48) for boards whose sight depends on nothing that moves.
``benchmarks/sight.py`` measures both against Necromunda's tables. Necromunda keeps its tables.

Conventions (as core/geometry.py): a cell (x, y) has its centre at (x + 0.5, y + 0.5); arrays
are indexed [y, x]; a flat cell index is ``y * W + x``. A sight line runs from the centre of the
observer's cell to the centre of the target's cell (Firefight §12.5, WFB6 §24.8).

Board data: ``cells``, uint8 [3, H, W], built and checked by ``make_cells``:

- ``cells[PLANE_FLAGS]``, bits of each cell:
  ``SF_BLOCKS`` (1) blocks sight (Firefight's sight-blocking pieces, WFB6's buildings);
  ``SF_COVER`` (2) gives cover to what is behind or in it (Firefight's cover terrain, WFB6's soft
  cover); ``SF_THIN`` (4) thins sight: a line crossing more than ``thin_limit`` such cells is
  blocked (WFB6's wood, more than 2"); ``SF_HARD`` (8) a second grade of cover (WFB6's hard
  cover). Only SF_BLOCKS and SF_THIN act on the walk; every bit, these and the free ones 16-128
  a ruleset may give a meaning, is reported in the result.
- ``cells[PLANE_FLOOR]``: the floor height a model in the cell stands on (0-255, whole units: inches
  for Firefight, levels for WFB6).
- ``cells[PLANE_TOP]``: the height of the top of whatever fills the cell (at least its floor; a
  hill cell has top = floor, a 3" ruin wall on the ground floor 0 and top 3). Heights act only
  under a height rule (below).

Which cells a line meets. A cell is *crossed* when the segment passes through the inside of its
square, *touched* when it meets the square only at a corner. A touch happens at a grid corner the
segment passes through, which it does exactly when the direction (dx, dy), divided by its greatest
common divisor, has both components odd; the two cells touched there lie on either side of the
segment. The supercover (``supercover``) is the crossed cells and the touched ones.

Rules: ``rules``, float64 [R_LEN], built and checked by ``make_rules``:

- the corner rule (Firefight §12.5: "a cell that only touches the line at a corner blocks
  (conservative) or not (permissive), set by config. Default permissive"):
  ``CORNER_PERMISSIVE`` (default) a touch counts for nothing; ``CORNER_CONSERVATIVE`` each touched
  cell counts as crossed (blocking, cover, heights); ``CORNER_PINCH`` the two cells of one corner
  count as one cell with the flags both have and the lower top, so the line squeezes between
  two cells unless both block: a diagonal wall drawn as a staircase of cells is closed, while
  the corner of a lone pillar does not block (permissive sees through such a staircase,
  conservative loses every line that grazes a pillar). Touches never count toward ``thin_limit``:
  a line has no length in a cell it only touches.
- ``SKIP_END``: the target's cell is left out of the reported flags (by default it is in:
  Firefight's cover counts the target's own cell, WFB6's "on the LOS line or in the target's own
  cell").
- heights: ``HEIGHT_LEVEL`` a cell between blocks when its top is higher than both ends' floors
  (WFB6 §24.8: "a hill cell of higher level than both ends"); ``HEIGHT_LINE`` a cell between
  blocks where the 3D line, from ``eye_z`` above the observer's floor to ``aim_z`` above the
  target's floor, passes below its top (Necromunda's levels test, geometry.seg_min_z_in_cell); by
  default heights are ignored.

The walk (``sight``) steps from the observer's cell to the target's in exact integer arithmetic
and returns an int: bits 0-7 are the OR of the flags of the cells it counted (crossed cells and,
under a corner rule, touched ones; never the observer's cell; the target's unless ``SKIP_END``),
and ``SIGHT_BLOCKED`` (256) is set when a cell strictly between the two ends blocks: SF_BLOCKS,
more than ``thin_limit`` SF_THIN cells, or a height rule. The ends themselves never block (a model
standing in a ruin is seen; that the ruin covers it is in the flags). The walk stops at the first
block, so the flags of a blocked line are those met before it. The same cell sees itself; cells
side by side always see each other (no cell between), and so do diagonal neighbours under the
permissive rule. Blocking is symmetric (a to b as b to a) except under HEIGHT_LINE with
``eye_z != aim_z``; so are the flags of a clear line with SKIP_END.

Models, smoke and anything else that moves are not in ``cells``: a ruleset adds them by testing
the cells of ``supercover`` against its own state. Compiled functions do not check their input
(they run in the rules' inner loops): ``cells`` and ``rules`` come from the builders (``cells`` is
C-contiguous), the cells asked about from the board. No compiled function allocates but
``build_pair_bits``.
"""
from __future__ import annotations

import numpy as np

from .geometry import seg_min_z_in_cell
from .jit import njit

# ------------------------------------------------------------------ board data
PLANE_FLAGS = 0
PLANE_FLOOR = 1
PLANE_TOP = 2
N_PLANES = 3

SF_BLOCKS = 1
SF_COVER = 2
SF_THIN = 4
SF_HARD = 8

SIGHT_BLOCKED = 256  # result bit; bits 0-7 are flags

# ------------------------------------------------------------------ rules
R_OPTS = 0  # option bits below
R_EYE = 1  # eye_z: the observer's eye above its floor (HEIGHT_LINE)
R_AIM = 2  # aim_z: the point aimed at above the target's floor (HEIGHT_LINE)
R_THIN = 3  # thin_limit: SF_THIN cells a line may cross and stay clear
R_LEN = 4

CORNER_PERMISSIVE = 0
CORNER_CONSERVATIVE = 1
CORNER_PINCH = 2
CORNER_MASK = 3
SKIP_END = 4
HEIGHT_LEVEL = 8
HEIGHT_LINE = 16
HEIGHT_MASK = HEIGHT_LEVEL | HEIGHT_LINE

CORNERS = {"permissive": CORNER_PERMISSIVE, "conservative": CORNER_CONSERVATIVE, "pinch": CORNER_PINCH}
HEIGHTS = {"off": 0, "level": HEIGHT_LEVEL, "line": HEIGHT_LINE}

TOUCHED = 1  # supercover kind of a cell met only at a corner (0: crossed, or an end)
Z_EPS = 1e-9  # a line exactly at a top grazes it and stays clear


def make_cells(flags, floor=None, top=None) -> np.ndarray:
    """The board data of the walk, uint8 [3, H, W] (module docstring), from per-cell arrays [H, W]
    of whole numbers 0-255: ``flags`` (SF_* bits), ``floor`` (default 0) and ``top`` (default the
    floor; never below it). Raises ValueError naming the bad value and what is allowed."""
    flags = _plane("flags", flags, None)
    floor = _plane("floor", np.zeros_like(flags) if floor is None else floor, flags.shape)
    top = floor.copy() if top is None else _plane("top", top, flags.shape)
    low = np.argwhere(top < floor)
    if len(low):
        y, x = (int(v) for v in low[0])
        raise ValueError(f"top {int(top[y, x])} of cell (x={x}, y={y}) is below its floor {int(floor[y, x])}: "
                         f"a cell's top must be at least its floor")
    return np.ascontiguousarray(np.stack([flags, floor, top]).astype(np.uint8))


def _plane(name, a, shape):
    arr = np.asarray(a)
    if arr.ndim != 2 or 0 in arr.shape:
        raise ValueError(f"{name} must be a non-empty 2-D array [H, W], got shape {arr.shape}")
    if shape is not None and arr.shape != shape:
        raise ValueError(f"{name} has shape {arr.shape}: it must match flags' {shape}")
    if arr.dtype.kind not in "iub":
        raise ValueError(f"{name} must hold whole numbers 0-255, got dtype {arr.dtype}")
    bad = np.argwhere((arr < 0) | (arr > 255))
    if len(bad):
        y, x = (int(v) for v in bad[0])
        raise ValueError(f"{name} {int(arr[y, x])} at cell (x={x}, y={y}) is outside 0-255")
    return arr.astype(np.int64)


def make_rules(corner="permissive", skip_end=False, heights="off", eye_z=1.0, aim_z=1.0,
               thin_limit=255) -> np.ndarray:
    """The walk's rules, float64 [R_LEN] (module docstring). ``corner`` one of CORNERS, ``heights``
    one of HEIGHTS, ``eye_z`` / ``aim_z`` heights above the floor (0-100), ``thin_limit`` the SF_THIN
    cells a clear line may cross (0-255; WFB6's wood: 2). Raises ValueError naming the bad value."""
    if corner not in CORNERS:
        raise ValueError(f"corner rule {corner!r} is not one of {sorted(CORNERS)}")
    if heights not in HEIGHTS:
        raise ValueError(f"height rule {heights!r} is not one of {sorted(HEIGHTS)}")
    if not isinstance(skip_end, (bool, np.bool_)):
        raise ValueError(f"skip_end must be True or False, got {skip_end!r}")
    for name, z in (("eye_z", eye_z), ("aim_z", aim_z)):
        if isinstance(z, (bool, np.bool_)) or not isinstance(z, (int, float, np.integer, np.floating)) \
                or not 0.0 <= float(z) <= 100.0:
            raise ValueError(f"{name} {z!r} must be a number from 0 to 100 (height above the floor)")
    if isinstance(thin_limit, (bool, np.bool_)) or not isinstance(thin_limit, (int, np.integer)) \
            or not 0 <= thin_limit <= 255:
        raise ValueError(f"thin_limit {thin_limit!r} must be a whole number from 0 to 255")
    opts = CORNERS[corner] | (SKIP_END if skip_end else 0) | HEIGHTS[heights]
    return np.array([opts, float(eye_z), float(aim_z), thin_limit], np.float64)


def max_cells(height: int, width: int) -> int:
    """Rows ``supercover`` may write on an H x W board: one per cell crossed (at most one per grid
    line crossed, and the start) and two per corner passed, fewer than 2 (H + W) + 1."""
    return 2 * (height + width) + 1


# ------------------------------------------------------------------ the walk
@njit(cache=True)
def _too_high(cells, rules, hmode, top, x0, y0, x1, y1, cx, cy):
    """Does a cell (cx, cy) whose top is ``top`` block the line from (x0, y0) to (x1, y1) under the
    height rule ``hmode`` (module docstring)? For a touched cell, (cx, cy) is either cell of the
    corner: the line meets both at one point."""
    f0 = int(cells[PLANE_FLOOR, y0, x0])
    f1 = int(cells[PLANE_FLOOR, y1, x1])
    if hmode == HEIGHT_LEVEL:
        return top > max(f0, f1)
    za = f0 + rules[R_EYE]
    zt = f1 + rules[R_AIM]
    bar = top - Z_EPS
    if bar <= min(za, zt):  # the line never dips to the top
        return False
    if bar > max(za, zt):  # the whole line is below it
        return True
    return seg_min_z_in_cell(x0 + 0.5, y0 + 0.5, za, x1 + 0.5, y1 + 0.5, zt, cx, cy) < bar


@njit(cache=True)
def _corner(cells, corner, ax, ay, bx, by):
    """(flags, top) that the corner touching cells a and b counts for under a corner rule."""
    fa = int(cells[PLANE_FLAGS, ay, ax])  # ints: uint8 arithmetic would wrap under NUMBA_DISABLE_JIT
    fb = int(cells[PLANE_FLAGS, by, bx])
    ta = int(cells[PLANE_TOP, ay, ax])
    tb = int(cells[PLANE_TOP, by, bx])
    if corner == CORNER_CONSERVATIVE:
        return fa | fb, max(ta, tb)
    return fa & fb, min(ta, tb)


@njit(cache=True, separate=False)  # the inner loop of every sight query: linked into its callers
def sight(cells, rules, x0, y0, x1, y1):
    """Line of sight from cell (x0, y0) to cell (x1, y1): the OR of the flags met, plus
    SIGHT_BLOCKED if the line is blocked (module docstring).

    The walk crosses the nx = |x1 - x0| vertical and ny = |y1 - y0| horizontal grid lines between
    the two centres in order: the next vertical one at t = (2 ix + 1) / (2 nx) after ix of them,
    the next horizontal one at (2 iy + 1) / (2 ny); ``err`` = (2 ix + 1) ny - (2 iy + 1) nx compares
    the two exactly (negative: the vertical one first, zero: both at a grid corner)."""
    opts = int(rules[R_OPTS])
    corner = opts & CORNER_MASK
    hmode = opts & HEIGHT_MASK
    thin_limit = int(rules[R_THIN])
    nx = abs(x1 - x0)
    ny = abs(y1 - y0)
    sx = 1 if x1 > x0 else -1
    sy = 1 if y1 > y0 else -1
    x = x0
    y = y0
    err = ny - nx
    rem = nx + ny  # grid lines left to cross
    seen = 0
    thin = 0
    while rem > 0:
        if err < 0:  # a branch per step measured faster than branch-free stepping (2026-12-01)
            x += sx
            err += 2 * ny
            rem -= 1
        elif err > 0:
            y += sy
            err -= 2 * nx
            rem -= 1
        else:
            if corner != CORNER_PERMISSIVE:
                f, top = _corner(cells, corner, x + sx, y, x, y + sy)
                seen |= f
                if f & SF_BLOCKS or (hmode != 0 and _too_high(cells, rules, hmode, top, x0, y0, x1, y1, x, y + sy)):
                    return seen | SIGHT_BLOCKED
            x += sx
            y += sy
            err += 2 * (ny - nx)
            rem -= 2
        f = int(cells[PLANE_FLAGS, y, x])  # an int: seen | SIGHT_BLOCKED must not wrap as uint8 in plain Python
        if rem == 0:
            return seen if opts & SKIP_END else seen | f
        seen |= f
        if f & (SF_BLOCKS | SF_THIN) or hmode != 0:  # one test for the usual open cell
            if f & SF_BLOCKS:
                return seen | SIGHT_BLOCKED
            if f & SF_THIN:
                thin += 1
                if thin > thin_limit:
                    return seen | SIGHT_BLOCKED
            if hmode != 0 and _too_high(cells, rules, hmode, int(cells[PLANE_TOP, y, x]), x0, y0, x1, y1, x, y):
                return seen | SIGHT_BLOCKED
    return seen


@njit(cache=True)
def sight_many(cells, rules, x0, y0, tx, ty, n, out):
    """``out[i] = sight(cells, rules, x0, y0, tx[i], ty[i])`` for i < n: one observer against many
    targets (a mask's shooting targets), into the caller's buffer (integers of 16 bits or more)."""
    for i in range(n):
        out[i] = sight(cells, rules, x0, y0, tx[i], ty[i])


@njit(cache=True)
def sight_field(cells, rules, x0, y0, out):
    """``out[y, x] = sight(cells, rules, x0, y0, x, y)`` for every cell of the board (``out`` [H, W],
    integers of 16 bits or more)."""
    for y in range(cells.shape[1]):
        for x in range(cells.shape[2]):
            out[y, x] = sight(cells, rules, x0, y0, x, y)


@njit(cache=True)
def supercover(x0, y0, x1, y1, out):
    """The cells the segment between the centres of (x0, y0) and (x1, y1) meets, in order from the
    start to the end: ``out[i] = (x, y, kind)``, kind 0 for a crossed cell (and both ends) or
    TOUCHED for a cell met only at a corner (the two of one corner in a row). Returns the count;
    ``out`` needs ``max_cells(H, W)`` rows. What a ruleset walks to test models or smoke. The
    steps are those of ``sight``."""
    nx = abs(x1 - x0)
    ny = abs(y1 - y0)
    sx = 1 if x1 > x0 else -1
    sy = 1 if y1 > y0 else -1
    x = x0
    y = y0
    err = ny - nx
    n = _put(out, 0, x, y, 0)
    while x != x1 or y != y1:
        if err < 0:
            x += sx
            err += 2 * ny
        elif err > 0:
            y += sy
            err -= 2 * nx
        else:
            n = _put(out, n, x + sx, y, TOUCHED)
            n = _put(out, n, x, y + sy, TOUCHED)
            x += sx
            y += sy
            err += 2 * (ny - nx)
        n = _put(out, n, x, y, 0)
    return n


@njit(cache=True)
def _put(out, n, x, y, kind):
    out[n, 0] = x
    out[n, 1] = y
    out[n, 2] = kind
    return n + 1


# ------------------------------------------------------------------ a table of the walk's answers
def pair_bits_bytes(height: int, width: int, planes: int) -> int:
    """Bytes of ``build_pair_bits``'s table: ``planes`` bits per ordered pair of cells."""
    n = height * width
    return planes * n * ((n + 7) // 8)


@njit(cache=True)
def build_pair_bits(cells, rules, report):
    """The walk's answers for every ordered pair of cells, a bit each, uint8 [planes, n, ceil(n / 8)]
    (n = H * W): plane 0 holds SIGHT_BLOCKED, then one plane per bit of the flags mask ``report``
    from the lowest (e.g. report = SF_COVER: plane 1 says a cover cell was met). Valid while
    ``cells`` and ``rules`` are; a blocked pair's flag planes hold what the walk met before the
    block. Read with ``pair_bit``."""
    h = cells.shape[1]
    w = cells.shape[2]
    n = h * w
    bits = np.zeros((1 + _popcount(report), n, (n + 7) // 8), np.uint8)
    for a in range(n):
        for t in range(n):
            r = sight(cells, rules, a % w, a // w, t % w, t // w)
            byte = t >> 3
            bit = np.uint8(1 << (t & 7))
            if r & SIGHT_BLOCKED:
                bits[0, a, byte] |= bit
            p = 1
            for b in range(8):
                if report & (1 << b):
                    if r & (1 << b):
                        bits[p, a, byte] |= bit
                    p += 1
    return bits


@njit(cache=True)
def _popcount(v):
    c = 0
    while v:
        c += v & 1
        v >>= 1
    return c


@njit(cache=True)
def pair_bit(bits, plane, a, t):
    """Bit ``plane`` of the pair (flat cells a, t) in a ``build_pair_bits`` table: 0 or 1."""
    return (bits[plane, a, t >> 3] >> (t & 7)) & 1
