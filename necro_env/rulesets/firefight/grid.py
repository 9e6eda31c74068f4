"""Grid helpers of Firefight's engine: distances, occupancy, the 1" zone and coherency (§4, §12.2, §12.4).

Distances (§12.2): two models are ``centre distance - 1`` inches apart, so "within X inches" is
``dx*dx + dy*dy <= (X + 1) ** 2`` (``within``). Scratch arrays (``Scratch``) are made once per game
by ``new_scratch`` and reused by every move, so the hot path allocates nothing.
"""
from collections import namedtuple

import numpy as np

from ...core.jit import njit
from .constants import (
    COHERENCY_NEAR_IN, COHERENCY_SPREAD_IN, KEEP_AWAY_IN, OPT_COHERENCY_CONNECTED, OPT_KEEP_AWAY_ENEMY_ONLY,
    US_ON,
)
from .state import G_MU, G_OPTS, M_ALIVE, M_X, M_Y, NM, U_SIDE, U_STATE

# cells by growing distance from a centre: (dx, dy) sorted by dx*dx + dy*dy, then dy, then dx (a spiral)
_R = 24
_offs = [(dx, dy) for dy in range(-_R, _R + 1) for dx in range(-_R, _R + 1) if dx * dx + dy * dy <= _R * _R]
_offs.sort(key=lambda o: (o[0] * o[0] + o[1] * o[1], o[1], o[0]))
SPIRAL = np.array(_offs, np.int64)  # [N, 2]
SPIRAL_D2 = SPIRAL[:, 0] * SPIRAL[:, 0] + SPIRAL[:, 1] * SPIRAL[:, 1]

INF = 1 << 29  # an unreached path cost

# neighbour directions: 4 straight, then 4 diagonal
DX8 = np.array([1, -1, 0, 0, 1, 1, -1, -1], np.int64)
DY8 = np.array([0, 0, 1, -1, 1, -1, 1, -1], np.int64)

Scratch = namedtuple("Scratch", "dist par dng occ near taken far heap px py pc pn order drops bhead blocked "
                                 "free box memo memo_u memo_m")
MAX_COST = 1024  # path buckets: a move of up to 204" (paths.model_paths)


def new_scratch(hw, max_models, max_units):
    """The reusable arrays of the movement code for one board of ``hw`` cells (a scratch serves one board: the
    path tables it keeps between the mask and the step, movement.prepare, assume the board's tables fixed)."""
    return Scratch(
        dist=np.full((max_models, 2 * hw), INF, np.int32),  # path cost per model, per (layer, cell); INF unreached
        par=np.zeros((max_models, 2 * hw), np.int32),  # parent node on that path
        dng=np.zeros((max_models, 2 * hw), np.int8),  # 1 if that path crosses dangerous terrain
        occ=np.zeros(hw, np.int32),  # 1 + unit whose model stands in the cell, 0 none
        near=np.zeros(hw, np.int8),  # 1 if the cell is within 1" of a model the 1" rule counts
        taken=np.zeros(hw, np.int8),  # cells a placement being planned has used
        far=np.zeros(hw, np.int8),  # cells more than 9" from every enemy model (Ambush, §10)
        heap=np.zeros(34 * hw + 16, np.int64),  # path search entries: at most 16 edges from each of 2 * HW nodes
        px=np.zeros(max_models, np.int64),  # planned cells
        py=np.zeros(max_models, np.int64),
        pc=np.zeros(max_models, np.int64),  # planned path cost (fifths)
        pn=np.zeros(max_models, np.int64),  # planned path's end node (layer * HW + cell)
        order=np.zeros(max_models, np.int64),  # model slot of each planned row
        drops=np.zeros(64, np.int64),  # jumps of one path (§11.2)
        bhead=np.full(MAX_COST, -1, np.int64),  # path search: first entry of each cost's bucket, -1 empty
        blocked=np.zeros(hw, np.int8),  # cells the moving unit's walkers may not enter (paths.blocked_cells)
        free=np.zeros(hw, np.int8),  # cells a placed model may stand on (movement.fill_free)
        box=np.tile(np.array([0, 0, -1, -1], np.int64), (max_models, 1)),  # each row's last search area (none yet)
        # what the path tables were searched for (movement.prepare): [valid, game, unit, limit, keep_path, options,
        # units per side, the unit's rules], every unit's (state, side) and every model row of that game
        memo=np.zeros(8, np.int64),
        memo_u=np.zeros((2 * max_units, 2), np.int32),
        memo_m=np.zeros((2 * max_units, max_models, NM), np.int16),
    )


@njit(cache=True)
def within(x0, y0, x1, y1, inches):
    """Are the models in cells (x0, y0) and (x1, y1) within ``inches`` of each other (§12.2)?"""
    dx = x1 - x0
    dy = y1 - y0
    r = inches + 1
    return dx * dx + dy * dy <= r * r


@njit(cache=True)
def dist2(x0, y0, x1, y1):
    dx = x1 - x0
    dy = y1 - y0
    return dx * dx + dy * dy


@njit(cache=True)
def unit_dist2(s, b, u, v):
    """The smallest squared centre distance between a model of unit u and one of unit v."""
    best = 1 << 30
    mm = s.m.shape[2]
    for i in range(mm):
        if s.m[b, u, i, M_ALIVE] == 0:
            continue
        for j in range(mm):
            if s.m[b, v, j, M_ALIVE] == 0:
                continue
            d = dist2(np.int64(s.m[b, u, i, M_X]), np.int64(s.m[b, u, i, M_Y]),
                      np.int64(s.m[b, v, j, M_X]), np.int64(s.m[b, v, j, M_Y]))
            if d < best:
                best = d
    return best


@njit(cache=True)
def fill_zones(s, b, u, w, h, enemy_only, occ, near):
    """occ: 1 + the unit standing in each cell (unit u's own models left out); near: cells within 1" of a model
    of another unit (§4.2; only enemy units when ``enemy_only``)."""
    occ[:] = 0
    near[:] = 0
    side = s.u[b, u, U_SIDE]
    r = KEEP_AWAY_IN + 1
    for v in range(2 * s.g[b, G_MU]):
        if v == u or s.u[b, v, U_STATE] != US_ON:
            continue
        counts = not (enemy_only and s.u[b, v, U_SIDE] == side)
        for i in range(s.m.shape[2]):
            if s.m[b, v, i, M_ALIVE] == 0:
                continue
            x = np.int64(s.m[b, v, i, M_X])
            y = np.int64(s.m[b, v, i, M_Y])
            occ[y * w + x] = v + 1
            if not counts:
                continue
            for dy in range(-r, r + 1):
                for dx in range(-r, r + 1):
                    if dx * dx + dy * dy <= r * r and 0 <= x + dx < w and 0 <= y + dy < h:
                        near[(y + dy) * w + x + dx] = 1


@njit(cache=True)
def enemy_only(s, b):
    return (s.g[b, G_OPTS] & OPT_KEEP_AWAY_ENEMY_ONLY) != 0


@njit(cache=True)
def coherent_xy(px, py, n, connected):
    """§4.1 / §12.4 on planned cells: each model within 1" of another and within 6" of all (n > 1)."""
    if n <= 1:
        return True
    rn = COHERENCY_NEAR_IN + 1
    rs = COHERENCY_SPREAD_IN + 1
    for i in range(n):
        has = False
        for j in range(n):
            if i == j:
                continue
            d = dist2(px[i], py[i], px[j], py[j])
            if d > rs * rs:
                return False
            if d <= rn * rn:
                has = True
        if not has:
            return False
    if connected:
        return _connected(px, py, n)
    return True


@njit(cache=True)
def _connected(px, py, n):
    """The §13 Q11 switch: the 'within 1"' links join every model into one chain."""
    seen = np.zeros(n, np.int8)
    stack = np.zeros(n, np.int64)
    seen[0] = 1
    stack[0] = 0
    top = 1
    count = 1
    rn = COHERENCY_NEAR_IN + 1
    while top > 0:
        top -= 1
        i = stack[top]
        for j in range(n):
            if seen[j] == 0 and dist2(px[i], py[i], px[j], py[j]) <= rn * rn:
                seen[j] = 1
                stack[top] = j
                top += 1
                count += 1
    return count == n


@njit(cache=True)
def unit_coherent(s, b, u):
    """Is unit u coherent where it stands now (§4.1)?"""
    mm = s.m.shape[2]
    px = np.zeros(mm, np.int64)
    py = np.zeros(mm, np.int64)
    n = 0
    for i in range(mm):
        if s.m[b, u, i, M_ALIVE]:
            px[n] = s.m[b, u, i, M_X]
            py[n] = s.m[b, u, i, M_Y]
            n += 1
    return coherent_xy(px, py, n, (s.g[b, G_OPTS] & OPT_COHERENCY_CONNECTED) != 0)


@njit(cache=True)
def fits_so_far(px, py, n, x, y):
    """Can a model go to (x, y) next to the n models placed so far and keep them coherent (§4.1):
    within 1" of one of them and within 6" of all?"""
    if n == 0:
        return True
    rn = COHERENCY_NEAR_IN + 1
    rs = COHERENCY_SPREAD_IN + 1
    has = False
    for j in range(n):
        d = dist2(px[j], py[j], x, y)
        if d > rs * rs:
            return False
        if d <= rn * rn:
            has = True
    return has
