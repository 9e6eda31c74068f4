"""Unit moves (§3.1, §4, §6, §9, §12.3): plans that the mask and the step share.

Every move is planned by one function that both the mask (is this destination legal?) and the step
(move there) call, so the mask is exact by construction. A plan fills ``sc.px/py`` (cells),
``sc.pc`` (path cost in fifths), ``sc.pn`` (the path's end node) and ``sc.order`` (model slot of each
row; row 0 is the anchor, the unit's first living model), and returns the number of rows, or -1.

- ``plan_move`` (Advance, Rush, the survivor's free move; §12.3): the anchor walks to the chosen
  cell; every other model takes its old offset from the anchor, or the nearest legal cell to that
  spot it can walk to; if the unit is then not coherent, a compact formation around the anchor is
  tried (each model the nearest reachable cell that keeps the models placed so far coherent).
- ``plan_charge`` (§6 steps 1-2, §12.7): each model, closest to the target first, walks to the
  reachable cell nearest to the target (base contact counts as 0) that keeps the unit coherent;
  the defenders' close-in is the same with 3".
- ``plan_away`` (§6 step 6): the charger moves back until no model is within 1" of another unit.
- ``plan_place`` (deployment, Scout, Ambush; §2.5, §10): a compact formation around the anchor cell
  inside the allowed region.
The difficult-terrain cap (§9, §13 Q20) is unit-wide: when any model's path touches difficult
terrain, every model must have walked at most 6" (``cap``); a plan first lets each model take its
cheapest path and re-plans under the cap when that rule is broken.
"""
import numpy as np

from ...core.jit import njit
from .constants import (
    AMBUSH_GAP_IN, DIFFICULT_CAP_IN, FIFTHS, OPT_COHERENCY_CONNECTED, OPT_KEEP_AWAY_END_ONLY,
    R_FLYING, R_STRIDER, TF_IMPASSABLE, US_ON,
)
from .grid import SPIRAL, SPIRAL_D2, coherent_xy, dist2, enemy_only, fill_zones, fits_so_far
from .paths import INF, model_paths
from .state import G_OPTS, M_ALIVE, M_X, M_Y, M_Z, U_RULES, U_SIDE, U_SIZE, U_STATE

MODE_ZONE = 0  # the own deployment zone (§2.5)
MODE_BAND = 1  # within 12" of the own zone (Scout, §10, §13 Q24)
MODE_AMBUSH = 2  # more than 9" from every enemy model (Ambush, §10)


@njit(cache=True)
def living(s, b, u, order):
    """Slots of unit u's living models into order[]; returns their count (order[0] is the anchor)."""
    n = 0
    for i in range(s.m.shape[2]):
        if s.m[b, u, i, M_ALIVE]:
            order[n] = i
            n += 1
    return n


@njit(cache=True)
def cap_of(s, b, u, allow):
    """The unit-wide cap of a move through difficult terrain (§9): 6", unless Strider or Flying ignore it (§10)."""
    if s.u[b, u, U_RULES] & (R_STRIDER | R_FLYING):
        return allow
    return min(allow, DIFFICULT_CAP_IN * FIFTHS)


@njit(cache=True)
def prepare(st, s, b, u, limit, charge, sc):
    """Zones and every living model's paths for a move of up to ``limit`` fifths; returns the model count."""
    h, w = st.flags.shape
    fill_zones(s, b, u, w, h, enemy_only(s, b), sc.occ, sc.near)
    keep_path = not charge and (s.g[b, G_OPTS] & OPT_KEEP_AWAY_END_ONLY) == 0
    n = living(s, b, u, sc.order)
    for r in range(n):
        model_paths(st, s, b, u, sc.order[r], limit, keep_path, sc.occ, sc.near, sc.heap,
                    sc.dist[r], sc.par[r], sc.dng[r])
    return n


@njit(cache=True)
def reach(sc, r, c, hw, allow, cap, capall):
    """(cost, node) of row r's model walking to cell c, or (-1, -1) (module docstring: the cap)."""
    d0 = sc.dist[r, c]
    d1 = sc.dist[r, hw + c]
    if capall:
        if d0 <= d1 and d0 <= cap:
            return d0, c
        if d1 <= cap:
            return d1, hw + c
        return -1, -1
    if d0 <= allow:
        return d0, c
    if d1 <= cap:
        return d1, hw + c
    return -1, -1


@njit(cache=True)
def end_ok(st, sc, c, keep):
    """May a model end its move in cell c: passable, empty, not used by this plan, and (``keep``) outside the 1" zone?"""
    if st.flags.ravel()[c] & TF_IMPASSABLE:
        return False
    if sc.occ[c] != 0 or sc.taken[c] != 0:
        return False
    if keep and sc.near[c]:
        return False
    return True


@njit(cache=True)
def _clear_taken(sc, n, w):
    for r in range(n):
        sc.taken[sc.py[r] * w + sc.px[r]] = 0


@njit(cache=True)
def _put(sc, r, x, y, cost, node, w):
    sc.px[r] = x
    sc.py[r] = y
    sc.pc[r] = cost
    sc.pn[r] = node
    sc.taken[y * w + x] = 1


@njit(cache=True)
def _nearest(st, sc, r, tx, ty, n_placed, allow, cap, capall, keep, coherent, radius):
    """Place row r on the reachable legal cell nearest to (tx, ty) (spiral order); False if none."""
    h, w = st.flags.shape
    hw = h * w
    for k in range(SPIRAL.shape[0]):
        if SPIRAL_D2[k] > radius * radius:
            break
        x = tx + SPIRAL[k, 0]
        y = ty + SPIRAL[k, 1]
        if x < 0 or y < 0 or x >= w or y >= h:
            continue
        c = y * w + x
        if not end_ok(st, sc, c, keep):
            continue
        cost, node = reach(sc, r, c, hw, allow, cap, capall)
        if cost < 0:
            continue
        if coherent and not fits_so_far(sc.px, sc.py, n_placed, x, y):
            continue
        _put(sc, r, x, y, cost, node, w)
        return True
    return False


@njit(cache=True)
def _formation(st, s, b, u, sc, n, dest, allow, cap, capall, compact):
    """One try of plan_move: offsets (compact False) or a compact formation (True); True if all n rows placed."""
    h, w = st.flags.shape
    hw = h * w
    ax = dest % w
    ay = dest // w
    if not end_ok(st, sc, dest, True):
        return False
    cost, node = reach(sc, 0, dest, hw, allow, cap, capall)
    if cost < 0:
        return False
    _put(sc, 0, ax, ay, cost, node, w)
    a = sc.order[0]
    ox = np.int64(s.m[b, u, a, M_X])
    oy = np.int64(s.m[b, u, a, M_Y])
    radius = allow // FIFTHS + 8
    for r in range(1, n):
        i = sc.order[r]
        if compact:
            ok = _nearest(st, sc, r, ax, ay, r, allow, cap, capall, True, True, radius)
        else:
            tx = ax + np.int64(s.m[b, u, i, M_X]) - ox
            ty = ay + np.int64(s.m[b, u, i, M_Y]) - oy
            ok = _nearest(st, sc, r, tx, ty, r, allow, cap, capall, True, False, radius)
        if not ok:
            _clear_taken(sc, r, w)
            return False
    _clear_taken(sc, n, w)
    return coherent_xy(sc.px, sc.py, n, (s.g[b, G_OPTS] & OPT_COHERENCY_CONNECTED) != 0)


@njit(cache=True)
def _within_cap(sc, n, hw, allow, cap):
    """The unit-wide difficult cap (§9): fine unless a row walked a dirty path and some row walked more than cap."""
    dirty = False
    over = False
    for r in range(n):
        if sc.pn[r] >= hw:
            dirty = True
        if sc.pc[r] > cap:
            over = True
    return not (dirty and over)


@njit(cache=True)
def plan_move(st, s, b, u, dest, allow, sc, n):
    """Plan unit u's move with its anchor to cell ``dest`` within ``allow`` fifths (module docstring).
    ``prepare`` must have run for this unit and allowance; returns n or -1."""
    h, w = st.flags.shape
    hw = h * w
    cap = cap_of(s, b, u, allow)
    for capall in (False, True):
        for compact in (False, True):
            if _formation(st, s, b, u, sc, n, dest, allow, cap, capall, compact):
                if capall or _within_cap(sc, n, hw, allow, cap):
                    return n
                break  # the cap is broken: plan again with every model under it
    return -1


@njit(cache=True)
def _closest_to(s, b, v, x, y):
    """Squared centre distance from (x, y) to the nearest model of unit v."""
    best = INF
    for j in range(s.m.shape[2]):
        if s.m[b, v, j, M_ALIVE]:
            d = dist2(x, y, np.int64(s.m[b, v, j, M_X]), np.int64(s.m[b, v, j, M_Y]))
            if d < best:
                best = d
    return best


@njit(cache=True)
def _sort_rows(s, b, u, v, sc, n, far_first):
    """Order rows by the model's distance to unit v (closest first, or farthest first)."""
    for r in range(1, n):
        j = r
        while j > 0:
            i0 = sc.order[j - 1]
            i1 = sc.order[j]
            d0 = _closest_to(s, b, v, np.int64(s.m[b, u, i0, M_X]), np.int64(s.m[b, u, i0, M_Y]))
            d1 = _closest_to(s, b, v, np.int64(s.m[b, u, i1, M_X]), np.int64(s.m[b, u, i1, M_Y]))
            if (d1 < d0) != far_first and d1 != d0:
                sc.order[j - 1] = i1
                sc.order[j] = i0
                # the path tables follow their rows
                _swap_rows(sc, j - 1, j)
                j -= 1
            else:
                break


@njit(cache=True)
def _swap_rows(sc, r0, r1):
    for k in range(sc.dist.shape[1]):
        t = sc.dist[r0, k]
        sc.dist[r0, k] = sc.dist[r1, k]
        sc.dist[r1, k] = t
        t = sc.par[r0, k]
        sc.par[r0, k] = sc.par[r1, k]
        sc.par[r1, k] = t
        t2 = sc.dng[r0, k]
        sc.dng[r0, k] = sc.dng[r1, k]
        sc.dng[r1, k] = t2


@njit(cache=True)
def _toward(st, s, b, u, v, sc, n, allow, cap, capall, away):
    """Each row in turn to its best reachable cell: toward unit v (contact counts as 0), or (away) the cheapest cell
    outside the 1" zone; the unit stays coherent. Returns False if a row finds no cell."""
    h, w = st.flags.shape
    hw = h * w
    for r in range(n):
        i = sc.order[r]
        mx = np.int64(s.m[b, u, i, M_X])
        my = np.int64(s.m[b, u, i, M_Y])
        radius = allow // FIFTHS + 1
        best = INF
        bx = -1
        by = -1
        bcost = 0
        bnode = 0
        for k in range(SPIRAL.shape[0]):
            if SPIRAL_D2[k] > radius * radius:
                break
            x = mx + SPIRAL[k, 0]
            y = my + SPIRAL[k, 1]
            if x < 0 or y < 0 or x >= w or y >= h:
                continue
            c = y * w + x
            if not end_ok(st, sc, c, away):
                continue
            cost, node = reach(sc, r, c, hw, allow, cap, capall)
            if cost < 0 or not fits_so_far(sc.px, sc.py, r, x, y):
                continue
            if away:
                score = cost
            else:
                d = _closest_to(s, b, v, x, y)
                score = (0 if d <= 2 else d) * 4096 + cost
            if score < best:
                best = score
                bx = x
                by = y
                bcost = cost
                bnode = node
        if bx < 0:
            _clear_taken(sc, r, w)
            return False
        _put(sc, r, bx, by, bcost, bnode, w)
    _clear_taken(sc, n, w)
    return coherent_xy(sc.px, sc.py, n, (s.g[b, G_OPTS] & OPT_COHERENCY_CONNECTED) != 0)


@njit(cache=True)
def plan_charge(st, s, b, u, v, allow, sc, n, away):
    """Plan unit u's charge (or close-in) toward unit v, or (away) its move back out of 1"; n or -1."""
    h, w = st.flags.shape
    _sort_rows(s, b, u, v, sc, n, away)
    cap = cap_of(s, b, u, allow)
    for capall in (False, True):
        if _toward(st, s, b, u, v, sc, n, allow, cap, capall, away):
            if capall or _within_cap(sc, n, h * w, allow, cap):
                return n
    return -1


@njit(cache=True)
def region_ok(st, s, b, u, sc, c, mode, zone):
    """Is cell c inside the placement region of ``mode`` for a unit deploying in ``zone``?"""
    if mode == MODE_ZONE:
        return st.zone.ravel()[c] == zone
    if mode == MODE_BAND:
        return st.band.ravel()[c] == zone
    return sc.far[c] != 0


@njit(cache=True)
def fill_far(s, b, u, w, far):
    """Cells more than 9" from every enemy model (§10 Ambush)."""
    far[:] = 1
    side = s.u[b, u, U_SIDE]
    r = AMBUSH_GAP_IN + 1
    hw = far.shape[0]
    h = hw // w
    for v in range(s.u.shape[1]):
        if s.u[b, v, U_SIDE] == side or s.u[b, v, U_STATE] != US_ON:
            continue
        for j in range(s.m.shape[2]):
            if s.m[b, v, j, M_ALIVE] == 0:
                continue
            x = np.int64(s.m[b, v, j, M_X])
            y = np.int64(s.m[b, v, j, M_Y])
            for dy in range(-r, r + 1):
                for dx in range(-r, r + 1):
                    if dx * dx + dy * dy <= r * r and 0 <= x + dx < w and 0 <= y + dy < h:
                        far[(y + dy) * w + x + dx] = 0


@njit(cache=True)
def prepare_place(st, s, b, u, mode, sc):
    """Zones for placing unit u; returns the number of models to place (all of its models)."""
    h, w = st.flags.shape
    fill_zones(s, b, u, w, h, enemy_only(s, b), sc.occ, sc.near)
    if mode == MODE_AMBUSH:
        fill_far(s, b, u, w, sc.far)
    n = 0
    for i in range(s.m.shape[2]):
        if i < s.u[b, u, U_SIZE]:  # every model of a unit being placed
            sc.order[n] = i
            n += 1
    return n


@njit(cache=True)
def plan_place(st, s, b, u, anchor, mode, zone, sc, n):
    """A compact formation of n models around cell ``anchor`` inside the region; n or -1."""
    h, w = st.flags.shape
    if not end_ok(st, sc, anchor, True) or not region_ok(st, s, b, u, sc, anchor, mode, zone):
        return -1
    _put(sc, 0, anchor % w, anchor // w, 0, anchor, w)
    ax = anchor % w
    ay = anchor // w
    for r in range(1, n):
        placed = False
        for k in range(SPIRAL.shape[0]):
            if SPIRAL_D2[k] > 64:  # every model within 6" of the anchor (§4.1)
                break
            x = ax + SPIRAL[k, 0]
            y = ay + SPIRAL[k, 1]
            if x < 0 or y < 0 or x >= w or y >= h:
                continue
            c = y * w + x
            if end_ok(st, sc, c, True) and region_ok(st, s, b, u, sc, c, mode, zone) \
                    and fits_so_far(sc.px, sc.py, r, x, y):
                _put(sc, r, x, y, 0, c, w)
                placed = True
                break
        if not placed:
            _clear_taken(sc, r, w)
            return -1
    _clear_taken(sc, n, w)
    if not coherent_xy(sc.px, sc.py, n, (s.g[b, G_OPTS] & OPT_COHERENCY_CONNECTED) != 0):
        return -1
    return n


@njit(cache=True)
def apply_plan(st, s, b, u, sc, n, walked):
    """Move the planned rows' models to their cells (floor height with them); returns how many crossed
    dangerous terrain on their way (§9; ``walked``: the rows came from paths, not a placement)."""
    h, w = st.flags.shape
    hz = st.height.ravel()
    crossed = 0
    for r in range(n):
        i = sc.order[r]
        s.m[b, u, i, M_X] = sc.px[r]
        s.m[b, u, i, M_Y] = sc.py[r]
        s.m[b, u, i, M_Z] = hz[sc.py[r] * w + sc.px[r]]
        s.m[b, u, i, M_ALIVE] = 1
        if walked and sc.dng[r, sc.pn[r]]:
            crossed += 1
    return crossed
