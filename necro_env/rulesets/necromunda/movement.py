"""Moving fighters on the grid (rules 1.2, 6.1-6.3, 6.2 charge).

Reachability runs ``core.reach.dijkstra`` over masks built here:
- walls, closed doors, loot caskets and enemy fighters cannot be entered;
- obstacles cost 1" extra to cross and cannot be ended on;
- friendly fighters may be passed through but not ended on;
- the 1" rule: a fighter may not enter a cell adjacent to an enemy that is
  Standing or Prone and Pinned (Seriously Injured enemies do not count);
  a charger may enter the cells adjacent to its target, as its last step.
Budgets and costs are in half-inches (orthogonal step 2, diagonal 3).

Boards with levels (rules 6.4-6.7, docs/rules.md) search with
``core.reach.dijkstra_levels``: climbing costs 2" per 1" (1" by ladder or
stairs), a 1" gap is crossed freely; the 1" rule and base contact only count
enemies less than 2" above or below (gap < 1). A Move (``MODE_JUMP``) may also
jump down and leap wider gaps when no safe route is within the allowance;
``move_levels`` then rolls the Initiative tests along the route, and ``fall``
resolves falls (damage table 6.7). ``edge_hazards`` tests fighters that went
Prone next to a drop.
"""
import numpy as np
from ...core.jit import njit

from ...core.reach import HOW_JUMP, HOW_LEAP, SLOW, dijkstra, dijkstra_levels
from ...core.terrain import DOOR_CLOSED, DOOR_LOCKED, FEAT_LADDER, FEAT_RAILING, FEAT_STAIRS, TER_OBSTACLE, TER_WALL
from .damage import resolve_hit
from .dice import d6
from .events import E_FALL, E_INIT, E_MOVE, E_PINNED, E_STANDUP_ENGAGED, emit
from .query import cell_solid, gang_of, initiative, standing
from .templates import under_blast
from .variant import house_legacy
from .state import (
    CK_STATE, CK_X, CK_Y, DR_STATE, EV_ACTOR, EV_KIND, FI_ACTS, FI_FACING, FI_MOVED, FI_POSTURE, FI_STATE, FI_STOOD, FI_TURN,
    FI_X, FI_Y, FI_Z, FS_ON, G_EVN,
    PO_PINNED, PO_SI, PO_STANDING, C_MOUNTED, FI_COND, G_GRAV0, G_GRAVD0, N_GRAV,
)

OBSTACLE_EXTRA = 2  # 1" in half-inches

MODE_NORMAL = 0
MODE_CHARGE = 1
MODE_JUMP = 2  # a Move: may jump down and leap gaps when no safe route is within the allowance
MODE_RIDE_BY = 3  # the rest of a Ride By move (4.3 Mounted): may pass through the target's 1" zone, not end in it

# E_INIT reasons of the level rules
INIT_JUMP = 6  # jumping down (6.6)
INIT_LEAP = 7  # leaping a gap (6.5)
INIT_EDGE = 8  # went Prone within 1/2" of an edge (6.7)

# Falling damage (6.7): height fallen (inches, rounded up) -> S, AP (as added to the save), D
FALL_MIN = 3


@njit(cache=True, inline="always")
def fall_profile(height):
    if height >= 10:
        return 9, 3, 3
    if height >= 8:
        return 7, 2, 2
    if height >= 6:
        return 5, 1, 1
    return 3, 0, 1


@njit(cache=True)
def has_levels(st):
    """Does the board have raised cells? (computed once in game.build_static: the mask and
    every step ask)"""
    return st.levels[0] != 0


@njit(cache=True, inline="always")
def near_z(s, b, e, st, x, y):
    """Is cell (x, y) less than 2" above or below fighter e's floor (so adjacency means gap < 1)?"""
    return abs(st.height[y, x] - s.fi[b, e, FI_Z]) < 2


@njit(cache=True)
def build_masks(s, st, b, f, mode, target, enter, solid, extra, terminal, endable):
    h, w = st.terrain.shape
    ga = gang_of(s, b, f)
    # terrain first, without branches (door cells as floor), then the closed and locked doors:
    # the same masks as ``query.cell_solid`` per cell (tests/properties/test_mask_fast_paths.py).
    # ``ter`` bound once: read as ``st.terrain`` inside the loop, LLVM does not vectorise it
    # (1.4 us instead of 0.12 us on 24 x 24, benchmarks/mask_parts.py build_masks)
    ter = st.terrain
    for y in range(h):
        for x in range(w):
            c = y * w + x
            t = ter[y, x]
            sol = t == TER_WALL
            ob = t == TER_OBSTACLE
            solid[c] = sol
            enter[c] = not sol
            extra[c] = OBSTACLE_EXTRA if ob else 0
            terminal[c] = False
            endable[c] = not (sol or ob)
    for d in range(st.door_xy.shape[0]):
        ds = s.door[b, d, DR_STATE]
        if (ds == DOOR_CLOSED or ds == DOOR_LOCKED) and st.door_xy[d, 0] >= 0:
            c = st.door_xy[d, 1] * w + st.door_xy[d, 0]
            solid[c] = True
            enter[c] = False
            endable[c] = False
    for k in range(s.casket.shape[1]):
        if s.casket[b, k, CK_STATE] != 0:
            c = s.casket[b, k, CK_Y] * w + s.casket[b, k, CK_X]
            enter[c] = False
            endable[c] = False
    slow_graviton(s, b, w, h, extra)
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
                if not near_z(s, b, e, st, x, y):
                    continue
                c = y * w + x
                enter[c] = False
                endable[c] = False
    if mode == MODE_RIDE_BY:
        # Ride By (4.3 Mounted): the rider passes within 1" of the enemy it attacked
        tx = s.fi[b, target, FI_X]
        ty = s.fi[b, target, FI_Y]
        for dy in range(-1, 2):
            for dx in range(-1, 2):
                x = tx + dx
                y = ty + dy
                if (dx == 0 and dy == 0) or x < 0 or y < 0 or x >= w or y >= h:
                    continue
                if cell_free_endable(s, st, b, x, y) and not near_other_enemy(s, b, f, target, x, y):
                    enter[y * w + x] = True
                    endable[y * w + x] = False
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
                if st.height[y, x] != s.fi[b, target, FI_Z]:
                    endable[y * w + x] = False  # base contact needs the same floor height (docs/rules.md 1.2)
                    continue
                if cell_free_endable(s, st, b, x, y) or (x == s.fi[b, f, FI_X] and y == s.fi[b, f, FI_Y]):
                    c = y * w + x
                    terminal[c] = True
                    enter[c] = True
                    endable[c] = True


@njit(cache=True)
def slow_graviton(s, b, w, h, extra):
    """Graviton Pulse markers (12): moving through one costs 2" per 1", so a step into a cell
    inside a marker (``templates.in_graviton``) carries core.reach.SLOW."""
    for i in range(N_GRAV):
        c0 = s.g[b, G_GRAV0 + i] - 1
        if c0 < 0:
            continue
        dm = s.g[b, G_GRAVD0 + i]
        r = dm // 2 + 1
        for y in range(max(0, c0 // w - r), min(h, c0 // w + r + 1)):
            for x in range(max(0, c0 % w - r), min(w, c0 % w + r + 1)):
                if under_blast(dm, x - c0 % w, y - c0 // w):
                    extra[y * w + x] |= SLOW


@njit(cache=True, inline="always")
def grounded(s, b, f):
    """Grounded (4.3 Mounted): a Mounted fighter cannot climb."""
    return (s.fi[b, f, FI_COND] & C_MOUNTED) != 0


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
    if not has_levels(st):
        dijkstra(w, h, start, budget, enter, solid, extra, terminal, dist, prev)
    else:
        hgt, easy = level_arrays(st)
        how = np.empty(n, np.int8)
        gr = grounded(s, b, f)
        dijkstra_levels(w, h, start, budget, enter, solid, extra, terminal, dist, prev, hgt, easy, False, how, gr)
        if mode == MODE_JUMP or mode == MODE_RIDE_BY:
            # cells no safe route reaches within the allowance may be reached by jumping/leaping
            # (a Move, and the rest of a Ride By Move, 4.3 Mounted)
            dist2 = np.empty(n, np.int32)
            prev2 = np.empty(n, np.int32)
            dijkstra_levels(w, h, start, budget, enter, solid, extra, terminal, dist2, prev2, hgt, easy, True, how, gr)
            for c in range(n):
                if dist[c] > budget and dist2[c] <= budget:
                    dist[c] = dist2[c]
                    prev[c] = prev2[c]
    # a fighter may always stay where it is, but a move must go somewhere
    endable[start] = False


@njit(cache=True)
def level_arrays(st):
    """Flat per-cell floor heights and ladder/stairs flags for dijkstra_levels."""
    h, w = st.height.shape
    hgt = np.empty(h * w, np.int32)
    easy = np.empty(h * w, np.bool_)
    for y in range(h):
        for x in range(w):
            hgt[y * w + x] = st.height[y, x]
            easy[y * w + x] = (st.feat[y, x] & (FEAT_LADDER | FEAT_STAIRS)) != 0
    return hgt, easy


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


@njit(cache=True)
def place(s, st, b, f, x, y, cost, kind):
    """Move fighter f to (x, y), facing along its last step; emits E_MOVE with ``kind``, why it moved
    (events.MK_*)."""
    w = st.terrain.shape[1]
    ox = s.fi[b, f, FI_X]
    oy = s.fi[b, f, FI_Y]
    emit(s, b, E_MOVE, f, -1, oy * w + ox, y * w + x, cost, kind, 0)
    if s.fi[b, f, FI_POSTURE] == PO_STANDING and (ox != x or oy != y):
        s.fi[b, f, FI_FACING] = facing_towards(x - ox, y - oy)
    s.fi[b, f, FI_X] = x
    s.fi[b, f, FI_Y] = y
    s.fi[b, f, FI_Z] = st.height[y, x]
    s.fi[b, f, FI_MOVED] += cost  # half-inches moved this activation (Mounted knock-down, 4.3)


@njit(cache=True)
def trace_path(prev, start, goal, path):
    """The shortest path start->goal from ``prev``, backwards: path[0] = goal ...
    path[m - 1] = start. Returns m."""
    m = 0
    c = goal
    while c != -1 and m < path.shape[0]:
        path[m] = c
        m += 1
        if c == start:
            break
        c = prev[c]
    return m


@njit(cache=True)
def path_stop(prev, start, goal, dist, budget, endable):
    """Walk the shortest path start->goal and return the farthest endable cell within budget."""
    path = np.empty(prev.shape[0], np.int32)
    m = trace_path(prev, start, goal, path)
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
                    if max(abs(s.fi[b, f, FI_X] - s.fi[b, e, FI_X]), abs(s.fi[b, f, FI_Y] - s.fi[b, e, FI_Y])) == 1 \
                            and s.fi[b, f, FI_Z] == s.fi[b, e, FI_Z]:
                        s.fi[b, f, FI_POSTURE] = PO_STANDING
                        s.fi[b, f, FI_STOOD] = 1
                        s.fi[b, f, FI_FACING] = facing_towards(s.fi[b, e, FI_X] - s.fi[b, f, FI_X],
                                                                s.fi[b, e, FI_Y] - s.fi[b, f, FI_Y])
                        if house_legacy(s, b):
                            # [HL] 4.4: the enemy's player picks the facing: away from the enemy
                            s.fi[b, f, FI_FACING] = (s.fi[b, f, FI_FACING] + 4) % 8
                        emit(s, b, E_STANDUP_ENGAGED, f, e, 0, 0, 0, 0, 0)
                        changed = True
                        break


@njit(cache=True, separate=False)  # called per candidate cell: linked, not called separately (core.separate)
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
def near_other_enemy(s, b, f, t, x, y):
    """Would (x, y) be within 1" (adjacent) of a Standing or Pinned enemy of f other than t?"""
    ga = gang_of(s, b, f)
    for e in range(s.fi.shape[1]):
        if e == t or s.fi[b, e, FI_STATE] != FS_ON or gang_of(s, b, e) == ga or s.fi[b, e, FI_POSTURE] == PO_SI:
            continue
        if max(abs(x - s.fi[b, e, FI_X]), abs(y - s.fi[b, e, FI_Y])) <= 1:
            return True
    return False


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


# ------------------------------------------------------------------ levels: jumping, leaping, falling
@njit(cache=True)
def edge_drop(st, x, y):
    """The lower neighbour a fighter at (x, y) would fall to (rules 6.7: within 1/2" of an edge means
    an 8-neighbour at least 1" lower) and the drop in inches; (-1, 0) if none. The deepest drop is
    taken, orthogonal neighbours first on ties."""
    h, w = st.height.shape
    best = -1
    drop = 0
    for k in range(8):
        nx = x + (0, 1, 0, -1, 1, 1, -1, -1)[k]
        ny = y + (-1, 0, 1, 0, -1, 1, 1, -1)[k]
        if nx < 0 or ny < 0 or nx >= w or ny >= h or st.terrain[ny, nx] == TER_WALL:
            continue
        d = st.height[y, x] - st.height[ny, nx]
        if d >= 1 and d > drop:
            drop = d
            best = ny * w + nx
    return best, drop


@njit(cache=True)
def level_test(s, st, b, f, mod, reason):
    """Initiative test of the level rules: D6 + mod >= Initiative, a natural 1 always fails."""
    r = d6(s, b)
    need = initiative(s, st, b, f) - mod
    ok = r != 1 and r >= need
    emit(s, b, E_INIT, f, -1, r, need, 1 if ok else 0, reason, 0)
    return ok


@njit(cache=True)
def nearest_free(s, st, b, f, x, y, avoid):
    """Nearest free standable cell to (x, y) (ring by ring, reading order), not adjacent to ``avoid``
    when avoid >= 0; (x, y) itself if free."""
    h, w = st.terrain.shape
    for r in range(max(h, w)):
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                if max(abs(dx), abs(dy)) != r:
                    continue
                cx = x + dx
                cy = y + dy
                if cx == s.fi[b, f, FI_X] and cy == s.fi[b, f, FI_Y]:
                    free = cx >= 0 and cy >= 0 and cx < w and cy < h
                else:
                    free = cell_free_endable(s, st, b, cx, cy)
                if not free:
                    continue
                if avoid >= 0 and max(abs(cx - s.fi[b, avoid, FI_X]), abs(cy - s.fi[b, avoid, FI_Y])) <= 1:
                    continue
                return int(cx), int(cy)
    return int(x), int(y)


@njit(cache=True)
def fall(s, st, b, f, land, height):
    """f falls ``height`` inches into cell ``land`` (rules 6.7): Prone and Pinned, its activation ends;
    3"+ gives a hit from the falling table (also to a fighter landed on, who is Pinned too); the faller
    is moved off a fighter it landed on (then 1" away from an enemy if neither is Seriously Injured);
    landing next to a drop means another Initiative test or a further fall."""
    w = st.terrain.shape[1]
    for _ in range(4):
        lx = land % w
        ly = land // w
        other = -1
        for e in range(s.fi.shape[1]):
            if e != f and s.fi[b, e, FI_STATE] == FS_ON and s.fi[b, e, FI_X] == lx and s.fi[b, e, FI_Y] == ly:
                other = e
        if other >= 0:
            lx, ly = nearest_free(s, st, b, f, lx, ly, -1)
        emit(s, b, E_FALL, f, other, s.fi[b, f, FI_Y] * w + s.fi[b, f, FI_X], ly * w + lx, height, other, 0)
        s.fi[b, f, FI_X] = lx
        s.fi[b, f, FI_Y] = ly
        s.fi[b, f, FI_Z] = st.height[ly, lx]
        if s.fi[b, f, FI_POSTURE] == PO_STANDING:
            s.fi[b, f, FI_POSTURE] = PO_PINNED
            emit(s, b, E_PINNED, f, -1, 0, 0, 0, 0, 0)
        s.fi[b, f, FI_ACTS] = 0
        s.fi[b, f, FI_TURN] = 0
        if other >= 0 and s.fi[b, other, FI_POSTURE] == PO_STANDING:
            s.fi[b, other, FI_POSTURE] = PO_PINNED
            emit(s, b, E_PINNED, other, -1, 0, 0, 0, 0, 0)
        if height >= FALL_MIN:
            S, ap, dmg = fall_profile(height)
            resolve_hit(s, st, b, -1, f, S, ap, dmg, 0, 0, False, lx, ly, False)
            if other >= 0:
                resolve_hit(s, st, b, -1, other, S, ap, dmg, 0, 0, False, lx, ly, False)
        if s.fi[b, f, FI_STATE] != FS_ON:
            return
        if (other >= 0 and gang_of(s, b, other) != gang_of(s, b, f) and s.fi[b, other, FI_STATE] == FS_ON
                and s.fi[b, f, FI_POSTURE] != PO_SI and s.fi[b, other, FI_POSTURE] != PO_SI):
            nx, ny = nearest_free(s, st, b, f, s.fi[b, f, FI_X], s.fi[b, f, FI_Y], other)
            s.fi[b, f, FI_X] = nx
            s.fi[b, f, FI_Y] = ny
            s.fi[b, f, FI_Z] = st.height[ny, nx]
        nxt, drop = edge_drop(st, s.fi[b, f, FI_X], s.fi[b, f, FI_Y])
        if nxt < 0:
            return
        bonus = 1 if st.feat[s.fi[b, f, FI_Y], s.fi[b, f, FI_X]] & FEAT_RAILING else 0
        if level_test(s, st, b, f, bonus, INIT_EDGE):
            return
        land = nxt
        height = drop


@njit(cache=True)
def move_levels(s, st, b, f, cell, budget, kind):
    """A Move on a board with levels (6.4-6.6): the safe route if it is within the allowance, else the
    route with jumps down / leaps, rolling an Initiative test at each (jump: -1 per 2" beyond the first
    2"); a failure is a fall (a failed leap drops into the gap next to the take-off cell). Returns the
    cell the fighter left last (as do_move) or -1."""
    return move_levels_mode(s, st, b, f, cell, budget, kind, MODE_NORMAL, -1)


@njit(cache=True)
def move_levels_mode(s, st, b, f, cell, budget, kind, mode, target):
    """``move_levels`` over the masks of ``mode`` (MODE_NORMAL for a Move; MODE_RIDE_BY with the
    attacked enemy ``target`` for the rest of a Ride By Move, 4.3 Mounted)."""
    h, w = st.terrain.shape
    n = h * w
    dist = np.empty(n, np.int32)
    prev = np.empty(n, np.int32)
    endable = np.empty(n, np.bool_)
    enter = np.empty(n, np.bool_)
    solid = np.empty(n, np.bool_)
    extra = np.empty(n, np.int32)
    terminal = np.empty(n, np.bool_)
    how = np.empty(n, np.int8)
    build_masks(s, st, b, f, mode, target, enter, solid, extra, terminal, endable)
    start = s.fi[b, f, FI_Y] * w + s.fi[b, f, FI_X]
    hgt, easy = level_arrays(st)
    gr = grounded(s, b, f)
    dijkstra_levels(w, h, start, budget, enter, solid, extra, terminal, dist, prev, hgt, easy, False, how, gr)
    if cell == start:
        return -1
    if dist[cell] <= budget:
        place(s, st, b, f, cell % w, cell // w, dist[cell], kind)
        return prev[cell]
    dijkstra_levels(w, h, start, budget, enter, solid, extra, terminal, dist, prev, hgt, easy, True, how, gr)
    path = np.empty(n, np.int32)
    m = trace_path(prev, start, cell, path)  # path[m-1] == start ... path[0] == cell
    at = start
    for i in range(m - 2, -1, -1):
        c = path[i]
        p = path[i + 1]
        hw = how[c]
        if hw != HOW_JUMP and hw != HOW_LEAP:
            continue
        if p != at:
            place(s, st, b, f, p % w, p // w, dist[p], kind)
            at = p
        if hw == HOW_JUMP:
            drop = st.height[p // w, p % w] - st.height[c // w, c % w]
            pen = (drop - 1) // 2  # -1 per further 2" beyond the first 2" (rounded up)
            if not level_test(s, st, b, f, -pen, INIT_JUMP):
                fall(s, st, b, f, c, drop)
                return p
        else:
            if not level_test(s, st, b, f, 0, INIT_LEAP):
                px = p % w
                py = p // w
                sx = 0
                if c % w > px:
                    sx = 1
                elif c % w < px:
                    sx = -1
                sy = 0
                if c // w > py:
                    sy = 1
                elif c // w < py:
                    sy = -1
                g = (py + sy) * w + px + sx
                fall(s, st, b, f, g, st.height[py, px] - st.height[py + sy, px + sx])
                return p
    place(s, st, b, f, cell % w, cell // w, dist[cell], kind)
    return path[1] if m > 1 else -1


@njit(cache=True)
def edge_hazards(s, st, b, was_standing, skip):
    """Falling hazard (6.7): each fighter that went from Standing to Prone during this step next to a
    drop (and not by Take Cover, ``skip``, nor already by falling) takes an Initiative test (+1 with a
    railing; a natural 1 fails) or falls."""
    if not has_levels(st):
        return
    nf = s.fi.shape[1]
    for f in range(nf):
        if not was_standing[f] or f == skip or s.fi[b, f, FI_STATE] != FS_ON:
            continue
        if s.fi[b, f, FI_POSTURE] == PO_STANDING:
            continue
        fell = False
        for i in range(s.g[b, G_EVN]):  # events of this step
            if s.ev[b, i, EV_KIND] == E_FALL and s.ev[b, i, EV_ACTOR] == f:
                fell = True
        if fell:
            continue
        nxt, drop = edge_drop(st, s.fi[b, f, FI_X], s.fi[b, f, FI_Y])
        if nxt < 0:
            continue
        bonus = 1 if st.feat[s.fi[b, f, FI_Y], s.fi[b, f, FI_X]] & FEAT_RAILING else 0
        if not level_test(s, st, b, f, bonus, INIT_EDGE):
            fall(s, st, b, f, nxt, drop)
