"""Blast markers, the Flame template, scatter and smoke clouds on the grid (rules 7.9-7.11, 12).

Grid conventions (docs/rules.md, "Templates, blasts and grenades"):

- A model is under a marker or template when any part of its round 1" base overlaps it: its
  cell centre lies strictly closer than 0.5" to the marker. A Blast (X") marker centred on a
  cell centre therefore covers the 3x3 block (X = 3) or the 5x5 block (X = 5).
- The Flame template is the digest's teardrop: along the facing axis, rows 1..8 of widths
  1, 1, 3, 3, 3, 3, 3, 1. It is rasterised with the same base-overlap rule for all 8 facings
  (``FLAME_DX`` / ``FLAME_DY``, ``FLAME_N[k]`` cells for facing k): 18 cells orthogonally,
  26 diagonally.
- Scatter: three D6 — the Scatter die face (1-4 arrow, 5-6 "Hit"), a direction die and the
  distance die. The direction is one of 12 at 30 degree steps: (direction die - 1) * 60 degrees,
  +30 degrees when the Scatter face is even. 0 degrees is north (-y), clockwise.
- Smoke clouds live in the global columns G_SMOKE0.. as cell + 1 (0: no cloud).
- Graviton Pulse markers live in G_GRAV0.. as cell + 1 (0: none) with their diameter in G_GRAVD0..;
  a cell is in the marker when a base there would be under it (``under_blast``).
"""
import math

import numpy as np
from ...core.jit import njit

from ...core.geometry import point_segment_dist2
from .dice import d6
from .events import E_GRAV_GONE, E_SMOKE_GONE, emit
from .state import G_GRAV0, G_GRAVD0, G_SMOKE0, N_GRAV, N_SMOKE

# ------------------------------------------------------------------ Flame template stencils
FLAME_WIDTHS = (1, 1, 3, 3, 3, 3, 3, 1)
DIR_DX = (0, 1, 1, 1, 0, -1, -1, -1)  # facings N, NE, E, SE, S, SW, W, NW (y grows southwards)
DIR_DY = (-1, -1, 0, 1, 1, 1, 0, -1)


def _flame_cells(k):
    """Cells (dx, dy) under the Flame template aimed along facing k (base-overlap rule)."""
    ux = DIR_DX[k] / math.hypot(DIR_DX[k], DIR_DY[k])
    uy = DIR_DY[k] / math.hypot(DIR_DX[k], DIR_DY[k])
    out = []
    for dy in range(-10, 11):
        for dx in range(-10, 11):
            if dx == 0 and dy == 0:
                continue
            u = dx * ux + dy * uy
            v = -dx * uy + dy * ux
            best = 99.0
            for i, wd in enumerate(FLAME_WIDTHS, 1):
                du = max(i - 0.5 - u, 0.0, u - i - 0.5)
                dv = max(abs(v) - wd / 2.0, 0.0)
                best = min(best, math.hypot(du, dv))
            if best < 0.5 - 1e-9:
                out.append((dx, dy))
    return out


_FL = [_flame_cells(k) for k in range(8)]
FLAME_MAX = max(len(c) for c in _FL)
FLAME_N = np.array([len(c) for c in _FL], np.int64)
FLAME_DX = np.zeros((8, FLAME_MAX), np.int64)
FLAME_DY = np.zeros((8, FLAME_MAX), np.int64)
for _k, _cells in enumerate(_FL):
    for _i, (_x, _y) in enumerate(_cells):
        FLAME_DX[_k, _i] = _x
        FLAME_DY[_k, _i] = _y


def flame_stencil_text(k):
    """ASCII picture of the stencil for facing k (docs/rules.md; 'A' is the attacker)."""
    cells = set(_FL[k])
    xs = [x for x, _ in cells] + [0]
    ys = [y for _, y in cells] + [0]
    rows = []
    for y in range(min(ys), max(ys) + 1):
        rows.append("".join("A" if (x, y) == (0, 0) else ("#" if (x, y) in cells else ".")
                            for x in range(min(xs), max(xs) + 1)))
    return "\n".join(rows)


@njit(cache=True)
def in_flame(k, dx, dy):
    """Offset (dx, dy) from the attacker lies under the Flame template aimed along facing k."""
    for i in range(FLAME_N[k]):
        if FLAME_DX[k, i] == dx and FLAME_DY[k, i] == dy:
            return True
    return False


@njit(cache=True, inline="always")
def under_blast(diameter, dx, dy):
    """A base whose centre is (dx, dy) from the marker centre overlaps a Blast (X") marker:
    centre distance < X/2 + 1/2, i.e. 4 d^2 < (X + 1)^2."""
    return 4 * (dx * dx + dy * dy) < (diameter + 1) * (diameter + 1)


# ------------------------------------------------------------------ scatter (Scatter dice, 1.5)
SCATTER_ARROW_FACES = 4  # faces 1-4 arrow, 5-6 "Hit" (with a small arrow)


@njit(cache=True)
def scatter_roll(s, b):
    """Roll the Scatter die, the direction die and the distance D6.
    Returns (hit_symbol, angle_degrees, distance)."""
    face = d6(s, b)
    dr = d6(s, b)
    dist = d6(s, b)
    ang = (dr - 1) * 60 + (30 if face % 2 == 0 else 0)
    return face > SCATTER_ARROW_FACES, ang, dist


@njit(cache=True)
def angle_facing(ang):
    """The nearest of the 8 facings to a scatter angle (ties go clockwise)."""
    return ((ang + 22) // 45) % 8


@njit(cache=True)
def scatter_path(solid, cx, cy, ang, dist):
    """Move a marker centre ``dist`` inches from cell (cx, cy) along ``ang``, stopping before
    it meets a solid cell or the board edge; returns the final cell (snapped to the nearest
    cell centre). ``solid`` is a bool [h, w] array of walls and closed doors."""
    h, w = solid.shape
    a = ang * math.pi / 180.0
    ux = math.sin(a)
    uy = -math.cos(a)
    bx = cx
    by = cy
    nsteps = dist * 4
    for i in range(1, nsteps + 1):
        px = cx + ux * i * 0.25
        py = cy + uy * i * 0.25
        x = int(math.floor(px + 0.5))
        y = int(math.floor(py + 0.5))
        if x < 0 or y < 0 or x >= w or y >= h or solid[y, x]:
            break
        bx = x
        by = y
    return bx, by


# ------------------------------------------------------------------ smoke clouds (12 Smoke)
SMOKE_RADIUS = 2.5


@njit(cache=True)
def add_smoke(s, b, cell):
    """Place a smoke cloud centred on ``cell``; returns its slot (-1 if every slot is used:
    the oldest cloud is then replaced, slot 0)."""
    for i in range(N_SMOKE):
        if s.g[b, G_SMOKE0 + i] == 0:
            s.g[b, G_SMOKE0 + i] = cell + 1
            return i
    for i in range(N_SMOKE - 1):
        s.g[b, G_SMOKE0 + i] = s.g[b, G_SMOKE0 + i + 1]
    s.g[b, G_SMOKE0 + N_SMOKE - 1] = cell + 1
    return N_SMOKE - 1


@njit(cache=True)
def smoke_blocks(s, b, w, ax, ay, tx, ty):
    """A smoke cloud blocks the line between the centres of cells (ax, ay) and (tx, ty):
    the segment passes closer than 2.5" to a cloud's centre (into, out of or through it)."""
    for i in range(N_SMOKE):
        c = s.g[b, G_SMOKE0 + i] - 1
        if c < 0:
            continue
        sx = c % w
        sy = c // w
        d2 = point_segment_dist2(sx + 0.5, sy + 0.5, ax + 0.5, ay + 0.5, tx + 0.5, ty + 0.5)
        if d2 < SMOKE_RADIUS * SMOKE_RADIUS - 1e-9:
            return True
    return False


@njit(cache=True)
def smoke_end_phase(s, st, b):
    """End phase (12 Smoke): roll a D6 for each cloud; on 1-4 it dissipates."""
    for i in range(N_SMOKE):
        c = s.g[b, G_SMOKE0 + i] - 1
        if c < 0:
            continue
        r = d6(s, b)
        if r <= 4:
            s.g[b, G_SMOKE0 + i] = 0
            emit(s, b, E_SMOKE_GONE, -1, -1, c, r, 0, 0, 0)


# ------------------------------------------------------------------ Graviton Pulse markers (12)
@njit(cache=True)
def add_graviton(s, b, cell, diameter):
    """Leave a Graviton Pulse marker centred on ``cell`` until the End phase; returns its slot
    (when every slot is used the oldest marker is replaced, as for smoke)."""
    for i in range(N_GRAV):
        if s.g[b, G_GRAV0 + i] == 0:
            s.g[b, G_GRAV0 + i] = cell + 1
            s.g[b, G_GRAVD0 + i] = diameter
            return i
    for i in range(N_GRAV - 1):
        s.g[b, G_GRAV0 + i] = s.g[b, G_GRAV0 + i + 1]
        s.g[b, G_GRAVD0 + i] = s.g[b, G_GRAVD0 + i + 1]
    s.g[b, G_GRAV0 + N_GRAV - 1] = cell + 1
    s.g[b, G_GRAVD0 + N_GRAV - 1] = diameter
    return N_GRAV - 1


@njit(cache=True)
def in_graviton(s, b, w, x, y):
    """Is cell (x, y) inside a Graviton Pulse marker (a base there would be under it)?"""
    for i in range(N_GRAV):
        c = s.g[b, G_GRAV0 + i] - 1
        if c >= 0 and under_blast(s.g[b, G_GRAVD0 + i], x - c % w, y - c // w):
            return True
    return False


@njit(cache=True)
def graviton_end_phase(s, b):
    """End phase (12 Graviton Pulse): every marker is removed."""
    for i in range(N_GRAV):
        c = s.g[b, G_GRAV0 + i] - 1
        if c >= 0:
            emit(s, b, E_GRAV_GONE, -1, -1, c, s.g[b, G_GRAVD0 + i], 0, 0, 0)
            s.g[b, G_GRAV0 + i] = 0
            s.g[b, G_GRAVD0 + i] = 0
