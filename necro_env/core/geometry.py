"""Grid geometry: gaps, vision arcs, line-of-sight tables and ray tests.

Conventions (rules sections 1.2-1.4; decisions in docs/rules.md):
- a cell (x, y) has its centre at (x + 0.5, y + 0.5); arrays are [y, x];
  a flat cell index is ``y * W + x``;
- gap between two fighters = max(0, centre distance - 1) (base edge to base edge);
- line of sight: five rays from the observer's centre to the target's centre
  and to four points 0.4" from it along the axes. A ray is blocked by a wall
  or closed-door cell it crosses, by an obstacle cell it crosses (unless the
  obstacle touches the observer), and by a Standing model whose base it
  crosses. 0 rays clear -> no LOS; 5 clear -> in the open; 3-4 clear ->
  partial cover; 1-2 clear -> full cover. Obstacles give cover but never take
  line of sight away: if every ray is blocked, some only by obstacles, the
  target is in full cover (``query.clear_rays_cells``).

The static part of every ray (walls, obstacles, doors) is precomputed per
pair of cells by ``build_los_tables``; models are tested on the fly.

Levels (docs/rules.md 1.2, 1.4): each cell has a floor height; a raised cell is a
solid block from 0 up to its height. Rays run in 3D from the observer's eye
(``EYE_Z`` = 1" above its floor) to points ``AIM_Z`` = 0.5" above the target's
floor. A crossed cell blocks a ray like a wall where the ray passes below its
floor height; an obstacle gives cover where the ray passes below its top
(``OBSTACLE_Z`` = 2" above its floor). With all heights 0 the tables are those
of the flat 2D test. A Standing model blocks a ray that passes through its base
(radius 0.5") within its height band, from its floor up to ``MODEL_Z`` = 1.5"
above it (``ray_blocked_by_model_3d``); on a flat board every ray through a base
runs between 0.5" and 1" and is blocked, as in 2D.
"""
import math

import numpy as np
from .jit import njit

from .terrain import TER_DOOR, TER_OBSTACLE, TER_WALL

N_RAYS = 5
RAY_OX = np.array([0.0, -0.4, 0.4, 0.0, 0.0])
RAY_OY = np.array([0.0, 0.0, 0.0, -0.4, 0.4])
EPS = 0.02  # a ray grazing a cell corner by less than this does not cross it

COVER_NONE = 0
COVER_PARTIAL = 1
COVER_FULL = 2
NO_LOS = 3

EYE_Z = 1.0  # observer's eye above its floor (inches)
AIM_Z = 0.5  # ray end points above the target's floor
OBSTACLE_Z = 2.0  # an obstacle is up to 2" high (rules 6.3)
MODEL_Z = 1.5  # a Standing model fills its base from its floor up to 1.5" (docs/rules.md 1.4)





def build_arc_table(height, width):
    """arc[dy + H - 1, dx + W - 1, facing] = 1 if offset (dx, dy) lies in the 90 degree arc.

    A target counts as inside when the angle between the facing and the
    centre-to-centre vector is at most 45 deg + asin(0.5 / d) (its base
    overlaps the wedge). Facing k points at FACING_DX[k], FACING_DY[k].
    """
    from .terrain import FACING_DX, FACING_DY

    arc = np.zeros((2 * height - 1, 2 * width - 1, 8), np.uint8)
    for dy in range(-(height - 1), height):
        for dx in range(-(width - 1), width):
            d = math.hypot(dx, dy)
            if d == 0:
                continue
            lim = math.radians(45.0) + math.asin(min(1.0, 0.5 / d))
            for k in range(8):
                fx, fy = FACING_DX[k], FACING_DY[k]
                cosang = (dx * fx + dy * fy) / (d * math.hypot(fx, fy))
                ang = math.acos(max(-1.0, min(1.0, cosang)))
                if ang <= lim + 1e-9:
                    arc[dy + height - 1, dx + width - 1, k] = 1
    return arc


@njit(cache=True)
def _ray_cells(x0, y0, x1, y1, width, height, out):
    """Cells whose square (shrunk by EPS) the segment crosses. Returns count."""
    n = 0
    xmin = min(x0, x1)
    xmax = max(x0, x1)
    cx0 = int(math.floor(xmin))
    cx1 = int(math.floor(xmax))
    for cx in range(cx0, cx1 + 1):
        if cx < 0 or cx >= width:
            continue
        lo = max(xmin, cx + EPS)
        hi = min(xmax, cx + 1 - EPS)
        if lo > hi:
            continue
        if x1 != x0:
            ya = y0 + (y1 - y0) * (lo - x0) / (x1 - x0)
            yb = y0 + (y1 - y0) * (hi - x0) / (x1 - x0)
        else:
            ya = y0
            yb = y1
        ylo = min(ya, yb)
        yhi = max(ya, yb)
        cy_a = int(math.ceil(ylo - 1 + EPS))
        cy_b = int(math.floor(yhi - EPS))
        for cy in range(cy_a, cy_b + 1):
            if cy < 0 or cy >= height:
                continue
            out[n, 0] = cx
            out[n, 1] = cy
            n += 1
    return n


@njit(cache=True)
def seg_min_z_in_cell(x0, y0, z0, x1, y1, z1, cx, cy):
    """Lowest height of the 3D segment over the part of it above cell (cx, cy) (Liang-Barsky clip)."""
    t0 = 0.0
    t1 = 1.0
    dx = x1 - x0
    dy = y1 - y0
    for i in range(4):
        if i == 0:
            p, q = -dx, x0 - cx
        elif i == 1:
            p, q = dx, cx + 1.0 - x0
        elif i == 2:
            p, q = -dy, y0 - cy
        else:
            p, q = dy, cy + 1.0 - y0
        if p == 0.0:
            continue
        r = q / p
        if p < 0.0:
            if r > t0:
                t0 = r
        else:
            if r < t1:
                t1 = r
    if t0 > t1:
        mid = 0.5 * (t0 + t1)
        t0 = mid
        t1 = mid
    za = z0 + (z1 - z0) * t0
    zb = z0 + (z1 - z0) * t1
    return min(za, zb)


@njit(cache=True)
def gap3(ax, ay, az, bx, by, bz):
    """Base edge to base edge between cells a and b with floor heights az, bz (rules 1.2)."""
    d = math.sqrt(float((ax - bx) ** 2 + (ay - by) ** 2 + (az - bz) ** 2)) - 1.0
    return max(0.0, d)


@njit(cache=True)
def build_los_tables(terrain, door_of_cell, heights):
    """Static ray blockers for every ordered pair of cells.

    Returns (wall, obst, door): wall[a, t] bit k = ray k crosses a wall (or passes
    below the floor of a raised cell); obst[a, t] bit k = ray k crosses an obstacle
    not touching a (below its top); door[a, t, k] = bit mask of door indices ray k crosses.
    """
    h, w = terrain.shape
    n = h * w
    wall = np.zeros((n, n), np.uint8)
    obst = np.zeros((n, n), np.uint8)
    door = np.zeros((n, n, N_RAYS), np.uint32)
    buf = np.zeros((4 * (h + w) + 8, 2), np.int64)
    for a in range(n):
        ax = a % w
        ay = a // w
        if terrain[ay, ax] == TER_WALL:
            continue
        for t in range(n):
            if t == a:
                continue
            tx = t % w
            ty = t // w
            if terrain[ty, tx] == TER_WALL:
                continue
            z0 = heights[ay, ax] + EYE_Z
            z1 = heights[ty, tx] + AIM_Z
            for k in range(N_RAYS):
                ex = tx + 0.5 + RAY_OX[k]
                ey = ty + 0.5 + RAY_OY[k]
                m = _ray_cells(ax + 0.5, ay + 0.5, ex, ey, w, h, buf)
                for i in range(m):
                    cx = buf[i, 0]
                    cy = buf[i, 1]
                    if (cx == ax and cy == ay) or (cx == tx and cy == ty):
                        continue
                    ter = terrain[cy, cx]
                    hc = heights[cy, cx]
                    if ter == TER_WALL:
                        wall[a, t] |= np.uint8(1 << k)
                        continue
                    zmin = 99.0
                    if hc > 0 or ter == TER_OBSTACLE:
                        zmin = seg_min_z_in_cell(ax + 0.5, ay + 0.5, z0, ex, ey, z1, cx, cy)
                    if hc > 0 and zmin < hc:
                        wall[a, t] |= np.uint8(1 << k)
                    elif ter == TER_OBSTACLE:
                        if max(abs(cx - ax), abs(cy - ay)) > 1 and zmin < hc + OBSTACLE_Z:
                            obst[a, t] |= np.uint8(1 << k)
                    elif ter == TER_DOOR:
                        di = door_of_cell[cy, cx]
                        if di >= 0:
                            door[a, t, k] |= np.uint32(1) << np.uint32(di)
    return wall, obst, door


@njit(cache=True)
def point_segment_dist2(px, py, x0, y0, x1, y1):
    dx = x1 - x0
    dy = y1 - y0
    l2 = dx * dx + dy * dy
    if l2 == 0.0:
        ex = px - x0
        ey = py - y0
        return ex * ex + ey * ey
    u = ((px - x0) * dx + (py - y0) * dy) / l2
    if u < 0.0:
        u = 0.0
    elif u > 1.0:
        u = 1.0
    ex = px - (x0 + u * dx)
    ey = py - (y0 + u * dy)
    return ex * ex + ey * ey


@njit(cache=True)
def ray_blocked_by_model(ax, ay, tx, ty, k, mx, my):
    """Does ray k from cell a to cell t pass through the base (radius 0.5) of a model at cell m?"""
    d2 = point_segment_dist2(mx + 0.5, my + 0.5, ax + 0.5, ay + 0.5, tx + 0.5 + RAY_OX[k], ty + 0.5 + RAY_OY[k])
    return d2 < 0.25 - 1e-9


@njit(cache=True)
def ray_blocked_by_model_3d(ax, ay, az, tx, ty, tz, k, mx, my, mz):
    """Does ray k from cell a (height az at its start) to cell t (height tz at its end) pass
    through the body of a model at cell m standing on floor height mz: inside its base (radius
    0.5") and, there, between mz and mz + MODEL_Z (rules 1.4 with levels, docs/rules.md)?"""
    if not ray_blocked_by_model(ax, ay, tx, ty, k, mx, my):
        return False
    x0 = ax + 0.5
    y0 = ay + 0.5
    dx = tx + 0.5 + RAY_OX[k] - x0
    dy = ty + 0.5 + RAY_OY[k] - y0
    fx = x0 - (mx + 0.5)
    fy = y0 - (my + 0.5)
    qa = dx * dx + dy * dy
    if qa == 0.0:
        return False
    qb = 2.0 * (fx * dx + fy * dy)
    qc = fx * fx + fy * fy - 0.25
    disc = max(qb * qb - 4.0 * qa * qc, 0.0)
    r = math.sqrt(disc)
    u0 = min(max((-qb - r) / (2.0 * qa), 0.0), 1.0)
    u1 = min(max((-qb + r) / (2.0 * qa), 0.0), 1.0)
    za = az + (tz - az) * u0
    zb = az + (tz - az) * u1
    return min(za, zb) < mz + MODEL_Z - 1e-9 and max(za, zb) > mz + 1e-9
