"""Moving fighters on the grid (rules 1.2, 6.1-6.3, 6.2 charge).

Reachability runs ``core.reach.dijkstra`` over masks built here:
- walls, closed doors, loot caskets and enemy fighters cannot be entered;
- obstacles cost 1" extra to cross and cannot be ended on;
- friendly fighters may be passed through but not ended on;
- the 1" rule: a fighter may not enter a cell adjacent to an enemy that is
  Standing or Prone and Pinned (Seriously Injured enemies do not count);
  a charger may enter the cells adjacent to its target, as its last step.
Budgets and costs are in half-inches (orthogonal step 2, diagonal 3).
"""
import numpy as np
from numba import njit

from ...core.reach import dijkstra
from ...core.terrain import TER_OBSTACLE
from .events import E_MOVE, E_STANDUP_ENGAGED, emit
from .query import cell_solid, gang_of, standing
from .state import (
    CK_STATE, CK_X, CK_Y, FI_FACING, FI_MOVED, FI_POSTURE, FI_STATE, FI_STOOD, FI_X, FI_Y, FS_ON, PO_PINNED, PO_SI,
    PO_STANDING,
)

OBSTACLE_EXTRA = 2  # 1" in half-inches

MODE_NORMAL = 0
MODE_CHARGE = 1


@njit(cache=True)
def build_masks(s, st, b, f, mode, target, enter, solid, extra, terminal, endable):
    h, w = st.terrain.shape
    ga = gang_of(s, b, f)
    for y in range(h):
        for x in range(w):
            c = y * w + x
            sol = cell_solid(s, st, b, x, y)
            solid[c] = sol
            enter[c] = not sol
            extra[c] = OBSTACLE_EXTRA if st.terrain[y, x] == TER_OBSTACLE else 0
            terminal[c] = False
            endable[c] = (not sol) and st.terrain[y, x] != TER_OBSTACLE
    for k in range(s.casket.shape[1]):
        if s.casket[b, k, CK_STATE] != 0:
            c = s.casket[b, k, CK_Y] * w + s.casket[b, k, CK_X]
            enter[c] = False
            endable[c] = False
    nf = s.fi.shape[1]
    for e in range(nf):
        if s.fi[b, e, FI_STATE] != FS_ON or e == f:
            continue
        ex = s.fi[b, e, FI_X]
        ey = s.fi[b, e, FI_Y]
        c = ey * w + ex
        endable[c] = False
        if gang_of(s, b, e) == ga:
            continue
        enter[c] = False
    # the 1" rule around blocking enemies
    for e in range(nf):
        if s.fi[b, e, FI_STATE] != FS_ON or gang_of(s, b, e) == ga:
            continue
        if s.fi[b, e, FI_POSTURE] == PO_SI:
            continue
        ex = s.fi[b, e, FI_X]
        ey = s.fi[b, e, FI_Y]
        for dy in range(-1, 2):
            for dx in range(-1, 2):
                x = ex + dx
                y = ey + dy
                if (dx == 0 and dy == 0) or x < 0 or y < 0 or x >= w or y >= h:
                    continue
                c = y * w + x
                enter[c] = False
                endable[c] = False
    if mode == MODE_CHARGE:
        # base-contact cells around the target: a charge may end there (its last step),
        # even next to other enemies, if the cell is free standable floor
        tx = s.fi[b, target, FI_X]
        ty = s.fi[b, target, FI_Y]
        for dy in range(-1, 2):
            for dx in range(-1, 2):
                x = tx + dx
                y = ty + dy
                if (dx == 0 and dy == 0) or x < 0 or y < 0 or x >= w or y >= h:
                    continue
                if cell_free_endable(s, st, b, x, y) or (x == s.fi[b, f, FI_X] and y == s.fi[b, f, FI_Y]):
                    c = y * w + x
                    terminal[c] = True
                    enter[c] = True
                    endable[c] = True


@njit(cache=True)
def reach(s, st, b, f, budget, mode, target, dist, prev, endable):
    h, w = st.terrain.shape
    n = h * w
    enter = np.empty(n, np.bool_)
    solid = np.empty(n, np.bool_)
    extra = np.empty(n, np.int32)
    terminal = np.empty(n, np.bool_)
    build_masks(s, st, b, f, mode, target, enter, solid, extra, terminal, endable)
    start = s.fi[b, f, FI_Y] * w + s.fi[b, f, FI_X]
    dijkstra(w, h, start, budget, enter, solid, extra, terminal, dist, prev)
    # a fighter may always stay where it is, but a move must go somewhere
    endable[start] = False


@njit(cache=True)
def reach_simple(s, st, b, f, budget):
    """Cells f can end a normal move in within ``budget`` half-inches."""
    n = st.terrain.shape[0] * st.terrain.shape[1]
    dist = np.empty(n, np.int32)
    prev = np.empty(n, np.int32)
    endable = np.empty(n, np.bool_)
    reach(s, st, b, f, budget, MODE_NORMAL, -1, dist, prev, endable)
    ok = np.zeros(n, np.bool_)
    for c in range(n):
        ok[c] = endable[c] and dist[c] <= budget
    return ok, dist


@njit(cache=True)
def facing_towards(dx, dy):
    """Nearest of the 8 facings to the vector (dx, dy); 0 (N) for (0, 0)."""
    if dx == 0 and dy == 0:
        return 0
    ang = np.arctan2(float(dx), float(-dy))  # 0 = north, clockwise
    k = int(np.round(ang / (np.pi / 4.0))) % 8
    return k


@njit(cache=True, inline="always")
def place(s, st, b, f, x, y, cost, kind):
    """Move fighter f to (x, y), facing along its last step; emits E_MOVE."""
    w = st.terrain.shape[1]
    ox = s.fi[b, f, FI_X]
    oy = s.fi[b, f, FI_Y]
    emit(s, b, E_MOVE, f, -1, oy * w + ox, y * w + x, cost, kind, 0)
    if s.fi[b, f, FI_POSTURE] == PO_STANDING and (ox != x or oy != y):
        s.fi[b, f, FI_FACING] = facing_towards(x - ox, y - oy)
    s.fi[b, f, FI_X] = x
    s.fi[b, f, FI_Y] = y
    s.fi[b, f, FI_MOVED] += cost  # half-inches moved this activation (Mounted knock-down, 4.3)


@njit(cache=True)
def path_stop(prev, start, goal, dist, budget, endable):
    """Walk the shortest path start->goal and return the farthest endable cell within budget."""
    # collect the path backwards
    n = prev.shape[0]
    path = np.empty(n, np.int32)
    m = 0
    c = goal
    while c != -1 and m < n:
        path[m] = c
        m += 1
        if c == start:
            break
        c = prev[c]
    best = start
    for i in range(m - 1, -1, -1):
        c = path[i]
        if dist[c] > budget:
            break
        if endable[c]:
            best = c
    return best


@njit(cache=True)
def normalize_engagement(s, b):
    """A Prone and Pinned fighter in base contact with a Standing enemy stands up, Engaged (rules 4.1)."""
    nf = s.fi.shape[1]
    changed = True
    while changed:
        changed = False
        for f in range(nf):
            if s.fi[b, f, FI_STATE] != FS_ON or s.fi[b, f, FI_POSTURE] != PO_PINNED:
                continue
            for e in range(nf):
                if e != f and standing(s, b, e) and gang_of(s, b, e) != gang_of(s, b, f):
                    if max(abs(s.fi[b, f, FI_X] - s.fi[b, e, FI_X]), abs(s.fi[b, f, FI_Y] - s.fi[b, e, FI_Y])) == 1:
                        s.fi[b, f, FI_POSTURE] = PO_STANDING
                        s.fi[b, f, FI_STOOD] = 1
                        s.fi[b, f, FI_FACING] = facing_towards(s.fi[b, e, FI_X] - s.fi[b, f, FI_X],
                                                                s.fi[b, e, FI_Y] - s.fi[b, f, FI_Y])
                        emit(s, b, E_STANDUP_ENGAGED, f, e, 0, 0, 0, 0, 0)
                        changed = True
                        break


@njit(cache=True)
def cell_free_endable(s, st, b, x, y):
    h, w = st.terrain.shape
    if x < 0 or y < 0 or x >= w or y >= h:
        return False
    if cell_solid(s, st, b, x, y) or st.terrain[y, x] == TER_OBSTACLE:
        return False
    for k in range(s.casket.shape[1]):
        if s.casket[b, k, CK_STATE] != 0 and s.casket[b, k, CK_X] == x and s.casket[b, k, CK_Y] == y:
            return False
    for e in range(s.fi.shape[1]):
        if s.fi[b, e, FI_STATE] == FS_ON and s.fi[b, e, FI_X] == x and s.fi[b, e, FI_Y] == y:
            return False
    return True


@njit(cache=True)
def near_blocking_enemy(s, b, f, x, y):
    """Would (x, y) put f within 1" (adjacent) of a Standing or Pinned enemy?"""
    ga = gang_of(s, b, f)
    for e in range(s.fi.shape[1]):
        if s.fi[b, e, FI_STATE] != FS_ON or gang_of(s, b, e) == ga or s.fi[b, e, FI_POSTURE] == PO_SI:
            continue
        if max(abs(x - s.fi[b, e, FI_X]), abs(y - s.fi[b, e, FI_Y])) <= 1:
            return True
    return False
