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
from .paths import INF, blocked_cells, model_paths
from .state import G_MU, G_OPTS, M_ALIVE, M_X, M_Y, M_Z, U_RULES, U_SIDE, U_SIZE, U_STATE

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
    """Zones and every living model's paths for a move of up to ``limit`` fifths; returns the model count.
    A move's paths are kept (``sc.memo``): the step that carries out a move searches what the destination mask
    searched a decision before, and finds the tables still valid when nothing they depend on has changed."""
    h, w = st.flags.shape
    fill_zones(s, b, u, w, h, enemy_only(s, b), sc.occ, sc.near)
    keep_path = not charge and (s.g[b, G_OPTS] & OPT_KEEP_AWAY_END_ONLY) == 0
    n = living(s, b, u, sc.order)
    if not charge and _paths_kept(s, b, u, limit, keep_path, sc):
        return n
    blocked_cells(s, b, u, keep_path, sc.occ, sc.near, sc.blocked, limit, w)
    for r in range(n):
        model_paths(st, s, b, u, sc.order[r], limit, sc, sc.dist[r], sc.par[r], sc.dng[r], sc.box[r])
    _keep_paths(s, b, u, limit, keep_path, sc, not charge)  # a charge's rows are reordered (_sort_rows)
    return n


@njit(cache=True)
def _paths_key(s, b, u, limit, keep_path, k):
    """The memo's key (grid.Scratch.memo): the search's parameters and what it reads of the game besides cells."""
    k[1] = b
    k[2] = u
    k[3] = limit
    k[4] = keep_path
    k[5] = s.g[b, G_OPTS]
    k[6] = s.g[b, G_MU]
    k[7] = s.u[b, u, U_RULES]


@njit(cache=True)
def _keep_paths(s, b, u, limit, keep_path, sc, valid):
    """Remember what the path tables were searched for (or, ``valid`` False, that they match nothing)."""
    sc.memo[0] = 1 if valid else 0
    if not valid:
        return
    _paths_key(s, b, u, limit, keep_path, sc.memo)
    for v in range(s.u.shape[1]):
        sc.memo_u[v, 0] = s.u[b, v, U_STATE]
        sc.memo_u[v, 1] = s.u[b, v, U_SIDE]
    sc.memo_m[:] = s.m[b]


@njit(cache=True)
def _paths_kept(s, b, u, limit, keep_path, sc):
    """Do the path tables hold this search's result: same parameters, every unit's state and side and every model's
    cell and life as when they were searched? (The occupancy, the 1" zone and the paths depend on nothing else.)"""
    k = sc.memo
    if k[0] == 0 or k[1] != b or k[2] != u or k[3] != limit or k[4] != keep_path or k[5] != s.g[b, G_OPTS] \
            or k[6] != s.g[b, G_MU] or k[7] != s.u[b, u, U_RULES]:
        return False
    for v in range(s.u.shape[1]):
        if sc.memo_u[v, 0] != s.u[b, v, U_STATE] or sc.memo_u[v, 1] != s.u[b, v, U_SIDE]:
            return False
    mb = s.m[b]
    for v in range(mb.shape[0]):
        for i in range(mb.shape[1]):
            for f in range(mb.shape[2]):
                if sc.memo_m[v, i, f] != mb[v, i, f]:
                    return False
    return True


@njit(cache=True)
def reach(dist, c, hw, allow, cap, capall):
    """(cost, node) of a model walking to cell c on its path table ``dist`` (a row of sc.dist), or (-1, -1)
    (module docstring: the cap)."""
    d0 = dist[c]
    d1 = dist[hw + c]
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


# The helpers below run once per cell a mask or a plan tries, so they take single arrays, never the State,
# Static or Scratch tuples: a call copies every array of a tuple it is passed (about 2 ns an array), which
# made the tuples cost more than the search itself (measured 2026-12-02).

@njit(cache=True)
def end_ok(fl, occ, taken, near, c, keep):
    """May a model end its move in cell c: passable, empty, not used by this plan, and (``keep``) outside the 1" zone?"""
    if fl[c] & TF_IMPASSABLE:
        return False
    if occ[c] != 0 or taken[c] != 0:
        return False
    if keep and near[c]:
        return False
    return True


@njit(cache=True)
def _clear_taken(taken, px, py, n, w):
    for r in range(n):
        taken[py[r] * w + px[r]] = 0


@njit(cache=True)
def _put(px, py, pc, pn, taken, r, x, y, cost, node, w):
    px[r] = x
    py[r] = y
    pc[r] = cost
    pn[r] = node
    taken[y * w + x] = 1


@njit(cache=True)
def _nearest(fl, occ, near, taken, dist, px, py, pc, pn, r, tx, ty, allow, cap, capall, coherent, radius, w, h):
    """Place row r (path table ``dist``) on the reachable legal cell nearest to (tx, ty) (spiral order) outside the
    1" zone; False if none."""
    hw = h * w
    for k in range(SPIRAL.shape[0]):
        if SPIRAL_D2[k] > radius * radius:
            break
        x = tx + SPIRAL[k, 0]
        y = ty + SPIRAL[k, 1]
        if x < 0 or y < 0 or x >= w or y >= h:
            continue
        c = y * w + x
        if not end_ok(fl, occ, taken, near, c, True):
            continue
        cost, node = reach(dist, c, hw, allow, cap, capall)
        if cost < 0:
            continue
        if coherent and not fits_so_far(px, py, r, x, y):
            continue
        _put(px, py, pc, pn, taken, r, x, y, cost, node, w)
        return True
    return False


@njit(cache=True, separate=False)  # once per cell of a destination mask: a call would cost more than the work
def _formation(fl, occ, near, taken, dist, px, py, pc, pn, order, mrow, n, dest, allow, cap, capall, compact,
               connected, w, h):
    """One try of move_at: offsets (compact False) or a compact formation (True); True if all n rows placed.
    ``mrow``: the unit's model rows (State.m[b, u])."""
    hw = h * w
    ax = dest % w
    ay = dest // w
    if not end_ok(fl, occ, taken, near, dest, True):
        return False
    cost, node = reach(dist[0], dest, hw, allow, cap, capall)
    if cost < 0:
        return False
    _put(px, py, pc, pn, taken, 0, ax, ay, cost, node, w)
    a = order[0]
    ox = np.int64(mrow[a, M_X])
    oy = np.int64(mrow[a, M_Y])
    radius = allow // FIFTHS + 8
    for r in range(1, n):
        i = order[r]
        if compact:
            tx = ax
            ty = ay
        else:
            tx = ax + np.int64(mrow[i, M_X]) - ox
            ty = ay + np.int64(mrow[i, M_Y]) - oy
        if not _nearest(fl, occ, near, taken, dist[r], px, py, pc, pn, r, tx, ty, allow, cap, capall, compact,
                        radius, w, h):
            _clear_taken(taken, px, py, r, w)
            return False
    _clear_taken(taken, px, py, n, w)
    return coherent_xy(px, py, n, connected)


@njit(cache=True)
def _within_cap(pc, pn, n, hw, cap):
    """The unit-wide difficult cap (§9): fine unless a row walked a dirty path and some row walked more than cap."""
    dirty = False
    over = False
    for r in range(n):
        if pn[r] >= hw:
            dirty = True
        if pc[r] > cap:
            over = True
    return not (dirty and over)


@njit(cache=True)
def move_at(fl, occ, near, taken, dist, px, py, pc, pn, order, mrow, n, dest, allow, cap, connected, w, h):
    """``plan_move`` on single arrays (the destination mask calls it once per cell); n or -1."""
    hw = h * w
    for capall in (False, True):
        for compact in (False, True):
            if _formation(fl, occ, near, taken, dist, px, py, pc, pn, order, mrow, n, dest, allow, cap, capall,
                          compact, connected, w, h):
                if capall or _within_cap(pc, pn, n, hw, cap):
                    return n
                break  # the cap is broken: plan again with every model under it
    return -1


@njit(cache=True)
def stay_ok(st, s, b, u, sc):
    """Is staying put a legal move of unit u? True when every model's own cell is one it may end a move in and the
    unit is coherent where it stands: then ``plan_move`` to the anchor's own cell places every model on its own cell
    at cost 0 on its first try, whatever the allowance (a model in difficult terrain starts on the difficult layer
    at cost 0, within any cap). False: let the path search decide."""
    h, w = st.flags.shape
    fill_zones(s, b, u, w, h, enemy_only(s, b), sc.occ, sc.near)
    n = living(s, b, u, sc.order)
    if n == 0:
        return False
    fl = st.flags.ravel()
    for r in range(n):
        x = np.int64(s.m[b, u, sc.order[r], M_X])
        y = np.int64(s.m[b, u, sc.order[r], M_Y])
        if not end_ok(fl, sc.occ, sc.taken, sc.near, y * w + x, True):
            return False
        sc.px[r] = x
        sc.py[r] = y
    return coherent_xy(sc.px, sc.py, n, connected(s, b))


@njit(cache=True)
def unit_offsets(mrow, order, n, offx, offy, conn):
    """Each row's model's offset from the anchor into offx/offy; True if the unit keeps them coherent (then a
    destination mask may try ``offsets_reach`` before ``move_at``)."""
    a = order[0]
    for r in range(n):
        offx[r] = np.int64(mrow[order[r], M_X]) - np.int64(mrow[a, M_X])
        offy[r] = np.int64(mrow[order[r], M_Y]) - np.int64(mrow[a, M_Y])
    return n > 0 and coherent_xy(offx, offy, n, conn)


@njit(cache=True)
def offsets_reach(fl, occ, taken, near, dist, offx, offy, n, x, y, allow, cap, w, h):
    """Can every model walk to its own offset from an anchor at (x, y), within the cap? Then ``move_at``'s first try
    (offsets, every model in its target cell, the spiral's first cell) succeeds as it stands and the move is legal;
    otherwise move_at decides. The offsets must be coherent (``unit_offsets``)."""
    hw = h * w
    dirty = False
    over = False
    for r in range(n):
        tx = x + offx[r]
        ty = y + offy[r]
        if tx < 0 or ty < 0 or tx >= w or ty >= h:
            return False
        c = ty * w + tx
        if not end_ok(fl, occ, taken, near, c, True):
            return False
        cost, node = reach(dist[r], c, hw, allow, cap, False)
        if cost < 0:
            return False
        if node >= hw:
            dirty = True
        if cost > cap:
            over = True
    return not (dirty and over)


@njit(cache=True)
def plan_move(st, s, b, u, dest, allow, sc, n):
    """Plan unit u's move with its anchor to cell ``dest`` within ``allow`` fifths (module docstring).
    ``prepare`` must have run for this unit and allowance; returns n or -1."""
    h, w = st.flags.shape
    return move_at(st.flags.ravel(), sc.occ, sc.near, sc.taken, sc.dist, sc.px, sc.py, sc.pc, sc.pn, sc.order,
                   s.m[b, u], n, dest, allow, cap_of(s, b, u, allow), connected(s, b), w, h)


@njit(cache=True)
def connected(s, b):
    """The §13 Q11 switch: must the 1" links join every model into one chain?"""
    return (s.g[b, G_OPTS] & OPT_COHERENCY_CONNECTED) != 0


@njit(cache=True)
def _closest_to(mv, x, y):
    """Squared centre distance from (x, y) to the nearest model of a unit (its model rows ``mv``)."""
    best = INF
    for j in range(mv.shape[0]):
        if mv[j, M_ALIVE]:
            d = dist2(x, y, np.int64(mv[j, M_X]), np.int64(mv[j, M_Y]))
            if d < best:
                best = d
    return best


@njit(cache=True)
def _sort_rows(s, b, u, v, sc, n, far_first):
    """Order rows by the model's distance to unit v (closest first, or farthest first)."""
    mu = s.m[b, u]
    mv = s.m[b, v]
    for r in range(1, n):
        j = r
        while j > 0:
            i0 = sc.order[j - 1]
            i1 = sc.order[j]
            d0 = _closest_to(mv, np.int64(mu[i0, M_X]), np.int64(mu[i0, M_Y]))
            d1 = _closest_to(mv, np.int64(mu[i1, M_X]), np.int64(mu[i1, M_Y]))
            if (d1 < d0) != far_first and d1 != d0:
                sc.memo[0] = 0  # the kept paths' rows move (prepare)
                sc.order[j - 1] = i1
                sc.order[j] = i0
                # the path tables follow their rows
                _swap_rows(sc.dist, sc.par, sc.dng, sc.box, j - 1, j)
                j -= 1
            else:
                break


@njit(cache=True)
def _swap_rows(dist, par, dng, box, r0, r1):
    for k in range(box.shape[1]):
        t = box[r0, k]
        box[r0, k] = box[r1, k]
        box[r1, k] = t
    for k in range(dist.shape[1]):
        t = dist[r0, k]
        dist[r0, k] = dist[r1, k]
        dist[r1, k] = t
        t = par[r0, k]
        par[r0, k] = par[r1, k]
        par[r1, k] = t
        t2 = dng[r0, k]
        dng[r0, k] = dng[r1, k]
        dng[r1, k] = t2


@njit(cache=True)
def _toward(fl, occ, near, taken, dist, px, py, pc, pn, order, mrow, mv, n, allow, cap, capall, away, conn, w, h):
    """Each row in turn to its best reachable cell: toward unit v (its model rows ``mv``; contact counts as 0), or
    (away) the cheapest cell outside the 1" zone; the unit stays coherent. Returns False if a row finds no cell."""
    hw = h * w
    for r in range(n):
        i = order[r]
        mx = np.int64(mrow[i, M_X])
        my = np.int64(mrow[i, M_Y])
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
            if not end_ok(fl, occ, taken, near, c, away):
                continue
            cost, node = reach(dist[r], c, hw, allow, cap, capall)
            if cost < 0 or not fits_so_far(px, py, r, x, y):
                continue
            if away:
                score = cost
            else:
                d = _closest_to(mv, x, y)
                score = (0 if d <= 2 else d) * 4096 + cost
            if score < best:
                best = score
                bx = x
                by = y
                bcost = cost
                bnode = node
        if bx < 0:
            _clear_taken(taken, px, py, r, w)
            return False
        _put(px, py, pc, pn, taken, r, bx, by, bcost, bnode, w)
    _clear_taken(taken, px, py, n, w)
    return coherent_xy(px, py, n, conn)


@njit(cache=True)
def plan_charge(st, s, b, u, v, allow, sc, n, away):
    """Plan unit u's charge (or close-in) toward unit v, or (away) its move back out of 1"; n or -1."""
    h, w = st.flags.shape
    _sort_rows(s, b, u, v, sc, n, away)
    cap = cap_of(s, b, u, allow)
    fl = st.flags.ravel()
    conn = connected(s, b)
    for capall in (False, True):
        if _toward(fl, sc.occ, sc.near, sc.taken, sc.dist, sc.px, sc.py, sc.pc, sc.pn, sc.order, s.m[b, u],
                   s.m[b, v], n, allow, cap, capall, away, conn, w, h):
            if capall or _within_cap(sc.pc, sc.pn, n, h * w, cap):
                return n
    return -1


@njit(cache=True)
def region_ok(zarr, band, far, c, mode, zone):
    """Is cell c inside the placement region of ``mode`` for a unit deploying in ``zone``? (Static.zone and .band
    ravelled, Scratch.far)"""
    if mode == MODE_ZONE:
        return zarr[c] == zone
    if mode == MODE_BAND:
        return band[c] == zone
    return far[c] != 0


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
def place_at(fl, zarr, band, far, occ, near, taken, px, py, pc, pn, anchor, mode, zone, n, conn, w, h):
    """``plan_place`` on single arrays (the placement masks call it once per cell); n or -1."""
    if not end_ok(fl, occ, taken, near, anchor, True) or not region_ok(zarr, band, far, anchor, mode, zone):
        return -1
    _put(px, py, pc, pn, taken, 0, anchor % w, anchor // w, 0, anchor, w)
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
            if end_ok(fl, occ, taken, near, c, True) and region_ok(zarr, band, far, c, mode, zone) \
                    and fits_so_far(px, py, r, x, y):
                _put(px, py, pc, pn, taken, r, x, y, 0, c, w)
                placed = True
                break
        if not placed:
            _clear_taken(taken, px, py, r, w)
            return -1
    _clear_taken(taken, px, py, n, w)
    if not coherent_xy(px, py, n, conn):
        return -1
    return n


@njit(cache=True)
def open_formation(n, ox, oy, conn):
    """The formation ``place_at`` builds around an anchor at (0, 0) when every cell near it is free, as offsets into
    ox/oy; False if it would not be coherent. Where all of its cells are free around an anchor, place_at builds
    exactly it (each model takes the first cell in spiral order that is free and fits; more occupied cells only
    reject more), so a mask can accept that anchor without the search (``open_fits``)."""
    ox[0] = 0
    oy[0] = 0
    for r in range(1, n):
        placed = False
        for k in range(SPIRAL.shape[0]):
            if SPIRAL_D2[k] > 64:  # as place_at
                break
            x = SPIRAL[k, 0]
            y = SPIRAL[k, 1]
            used = False
            for j in range(r):
                if ox[j] == x and oy[j] == y:
                    used = True
            if not used and fits_so_far(ox, oy, r, x, y):
                ox[r] = x
                oy[r] = y
                placed = True
                break
        if not placed:
            return False
    return coherent_xy(ox, oy, n, conn)


@njit(cache=True)
def fill_free(fl, zarr, band, far, occ, taken, near, mode, zone, free):
    """free[c] = 1 where a placed model may stand: ``end_ok`` outside the 1" zone and inside the region."""
    for c in range(free.shape[0]):
        free[c] = 1 if region_ok(zarr, band, far, c, mode, zone) and end_ok(fl, occ, taken, near, c, True) else 0


@njit(cache=True)
def open_fits(free, ox, oy, n, anchor, w, h):
    """1 if all cells of the open formation (ox, oy) around ``anchor`` are on the board and free (``fill_free``;
    place_at succeeds), -1 if the anchor's own cell is not (place_at fails at once), else 0 (place_at decides)."""
    ax = anchor % w
    ay = anchor // w
    for r in range(n):
        x = ax + ox[r]
        y = ay + oy[r]
        if x < 0 or y < 0 or x >= w or y >= h:
            return 0
        if not free[y * w + x]:
            return -1 if r == 0 else 0
    return 1


@njit(cache=True)
def plan_place(st, s, b, u, anchor, mode, zone, sc, n):
    """A compact formation of n models around cell ``anchor`` inside the region; n or -1."""
    h, w = st.flags.shape
    return place_at(st.flags.ravel(), st.zone.ravel(), st.band.ravel(), sc.far, sc.occ, sc.near, sc.taken, sc.px,
                    sc.py, sc.pc, sc.pn, anchor, mode, zone, n, connected(s, b), w, h)


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
