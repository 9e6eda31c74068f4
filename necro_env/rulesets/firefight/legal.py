"""Which decisions are legal now (DESIGN.md §5): the exact mask, and the queries the step shares.

Every query here is also what the step does (the step calls the same plan and uses its result), so
an index is unmasked iff the step can carry it out.
"""
import numpy as np

from ...core.jit import njit
from .casting import help_left, spell_target_unit
from .codec import (
    A_ACTION, A_CAST, A_CELL, A_EDGE, A_HELP, A_HOLD_BACK, A_NO_TARGET, A_PASS, A_SELECT, A_STRIKE, A_TARGET, HELP_MAX,
)
from .constants import (
    ACT_ADVANCE, ACT_CHARGE, ACT_HOLD, ACT_IDLE, ACT_RUSH, ADVANCE_IN, CHARGE_IN, FAST_ADVANCE,
    FAST_RUSH, FIFTHS, OBJ_GAP_IN, R_AMBUSH, R_FAST, R_IMMOBILE, R_SCOUT, R_SLOW, RUSH_IN, TF_IMPASSABLE, US_AMBUSH,
    US_ON, US_SCOUT, US_WAITING,
)
from .grid import SPIRAL, SPIRAL_D2, unit_dist2
from .movement import (
    MODE_AMBUSH, MODE_BAND, MODE_ZONE, cap_of, connected, fill_free, move_at, offsets_reach, open_fits, open_formation,
    place_at, plan_charge, plan_move, prepare, prepare_place, stay_ok, unit_offsets,
)
from .pushes import push_cells
from .seam import can_cast, can_target
from .spells import N_SPELLS
from .state import (
    DK_ACTION, DK_AMBUSH_CELL, DK_AMBUSH_UNIT, DK_CHARGE_TARGET, DK_CHOOSE_EDGE, DK_DEPLOY_CELL, DK_DEPLOY_UNIT,
    DK_CAST, DK_FREE_MOVE, DK_HELP, DK_MOVE_CELL, DK_PLACE_OBJ, DK_PUSH, DK_SCOUT_CELL, DK_SCOUT_UNIT, DK_SELECT, DK_SHOOT_TARGET,
    DK_STRIKE_BACK, G_ACTIVE, G_DK, G_DONE, G_DPLAYER, G_FREE, G_FREE_IN, G_HELP_NEXT, G_MU, G_PUSHED, G_WSLOT, G_ZONE0, M_X,
    M_Y, O_ON, O_X, O_Y, U_ACTION, U_ACTIVATED, U_RULES, U_SHAKEN, U_SIDE, U_STATE, W_ID, W_RANGE, W_TARGET,
)


@njit(cache=True)
def zone_of(s, b, side):
    """Board edge (Static.zone) of a side's deployment zone (§2.5)."""
    z = s.g[b, G_ZONE0]
    return z if side == 0 else 1 - z


@njit(cache=True)
def move_inches(s, b, u, action):
    """Inches of an Advance, Rush or Charge with Fast / Slow (§3.1, §10)."""
    r = s.u[b, u, U_RULES]
    fast = (r & R_FAST) != 0
    slow = (r & R_SLOW) != 0
    if action == ACT_ADVANCE:
        return ADVANCE_IN + (FAST_ADVANCE if fast else 0) - (FAST_ADVANCE if slow else 0)
    base = RUSH_IN if action == ACT_RUSH else CHARGE_IN
    return base + (FAST_RUSH if fast else 0) - (FAST_RUSH if slow else 0)


@njit(cache=True)
def move_cells(st, s, b, u, allow, sc, mask, base, first_only):
    """Mark the legal anchor destinations of unit u's move of ``allow`` fifths; returns how many (the first only
    when ``first_only``)."""
    h, w = st.flags.shape
    n = prepare(st, s, b, u, allow, False, sc)
    a = sc.order[0]
    ax = np.int64(s.m[b, u, a, M_X])
    ay = np.int64(s.m[b, u, a, M_Y])
    radius = allow // FIFTHS + 1
    count = 0
    fl = st.flags.ravel()
    mrow = s.m[b, u]
    cap = cap_of(s, b, u, allow)
    conn = connected(s, b)
    offx = np.empty(max(n, 1), np.int64)
    offy = np.empty(max(n, 1), np.int64)
    shortcut = unit_offsets(mrow, sc.order, n, offx, offy, conn)
    for k in range(SPIRAL.shape[0]):
        if SPIRAL_D2[k] > radius * radius:
            break
        x = ax + SPIRAL[k, 0]
        y = ay + SPIRAL[k, 1]
        if x < 0 or y < 0 or x >= w or y >= h:
            continue
        c = y * w + x
        if sc.dist[0, c] > allow and sc.dist[0, h * w + c] > allow:
            continue
        if (shortcut and offsets_reach(fl, sc.occ, sc.taken, sc.near, sc.dist, offx, offy, n, x, y, allow, cap, w, h)) \
                or move_at(fl, sc.occ, sc.near, sc.taken, sc.dist, sc.px, sc.py, sc.pc, sc.pn, sc.order, mrow, n, c,
                           allow, cap, conn, w, h) >= 0:
            count += 1
            if base >= 0:
                mask[base + c] = True
            if first_only:
                return count
    return count


@njit(cache=True)
def can_charge(st, s, b, u, v, sc):
    """§4.2, §13.1: a model within charge distance of unit v (12", Fast 16", Slow 8", whatever the terrain), and a
    charge move that keeps the unit coherent (movement.plan_charge)."""
    if s.u[b, v, U_STATE] != US_ON or s.u[b, v, U_SIDE] == s.u[b, u, U_SIDE]:
        return False
    inches = move_inches(s, b, u, ACT_CHARGE)
    if unit_dist2(s, b, u, v) > (inches + 1) * (inches + 1):
        return False
    n = prepare(st, s, b, u, inches * FIFTHS, True, sc)
    return plan_charge(st, s, b, u, v, inches * FIFTHS, sc, n, False) >= 0


@njit(cache=True)
def chosen_targets(s, b, u, upto, t0):
    """Distinct targets chosen by weapon slots before ``upto``: (count, first, second)."""
    n = 0
    t1 = -1
    t2 = -1
    for k in range(upto):
        t = s.w[b, u, k, W_TARGET]
        if t >= 0 and t != t1 and t != t2:
            if n == 0:
                t1 = t
            else:
                t2 = t
            n += 1
    return n, t1, t2


@njit(cache=True)
def target_ok(st, s, b, u, slot, v):
    """May weapon slot ``slot`` of unit u fire at unit v: an enemy on the table in range and sight, and at most two
    different targets for the unit (§5.1; the unit-wide subset of §13.1's per-model rule, docs/rules_firefight.md)."""
    if v < 0 or s.u[b, v, U_STATE] != US_ON or s.u[b, v, U_SIDE] == s.u[b, u, U_SIDE]:
        return False
    n, t1, t2 = chosen_targets(s, b, u, slot, 0)
    if n >= 2 and v != t1 and v != t2:
        return False
    return can_target(s, st, b, u, slot, v)


@njit(cache=True)
def slot_has_target(st, s, b, u, slot):
    if s.w[b, u, slot, W_ID] < 0 or s.w[b, u, slot, W_RANGE] <= 0:
        return False
    mu = s.g[b, G_MU]
    other = 1 - s.u[b, u, U_SIDE]
    for i in range(mu):
        if target_ok(st, s, b, u, slot, other * mu + i):
            return True
    return False


@njit(cache=True)
def obj_cell_ok(zarr, fl, obj, c, w):
    """§2.4: outside both deployment zones, more than 9" from every other marker (and not impassable). (Static.zone
    and .flags ravelled, the game's State.obj rows: called once per cell.)"""
    if zarr[c] >= 0 or (fl[c] & TF_IMPASSABLE):
        return False
    x = c % w
    y = c // w
    r = OBJ_GAP_IN + 1
    for k in range(obj.shape[0]):
        if obj[k, O_ON]:
            dx = x - obj[k, O_X]
            dy = y - obj[k, O_Y]
            if dx * dx + dy * dy <= r * r:
                return False
    return True


@njit(cache=True)
def place_cells(st, s, b, u, mode, sc, mask, base, first_only):
    """Mark the legal anchor cells of placing unit u (deployment, Scout, Ambush); returns how many."""
    h, w = st.flags.shape
    zone = zone_of(s, b, s.u[b, u, U_SIDE])
    n = prepare_place(st, s, b, u, mode, sc)
    count = 0
    fl = st.flags.ravel()
    zarr = st.zone.ravel()
    band = st.band.ravel()
    conn = connected(s, b)
    ox = np.empty(max(n, 1), np.int64)
    oy = np.empty(max(n, 1), np.int64)
    # the open formation's shortcut needs the whole region's free cells: worth it for a whole mask, not for the
    # first legal anchor (unit_selectable), which place_at finds at once where a unit can be placed
    shortcut = not first_only and n > 0 and open_formation(n, ox, oy, conn)
    if shortcut:
        fill_free(fl, zarr, band, sc.far, sc.occ, sc.taken, sc.near, mode, zone, sc.free)
    for c in range(h * w):
        if mode == MODE_ZONE and zarr[c] != zone:
            continue
        if mode == MODE_BAND and band[c] != zone:
            continue
        fits = open_fits(sc.free, ox, oy, n, c, w, h) if shortcut else 0
        if fits > 0 or (fits == 0 and place_at(fl, zarr, band, sc.far, sc.occ, sc.near, sc.taken, sc.px, sc.py, sc.pc,
                                               sc.pn, c, mode, zone, n, conn, w, h) >= 0):
            count += 1
            if base >= 0:
                mask[base + c] = True
            if first_only:
                return count
    return count


@njit(cache=True)
def can_act(s, b, u):
    return s.u[b, u, U_STATE] == US_ON and s.u[b, u, U_ACTIVATED] == 0


@njit(cache=True)
def action_ok(st, s, b, u, act, sc):
    """§3.1, §7.2, §10: a Shaken unit may only idle; Immobile only Hold; a move needs a legal destination, a charge a
    target."""
    shaken = s.u[b, u, U_SHAKEN] != 0
    if act == ACT_IDLE:
        return shaken
    if shaken:
        return False
    if act == ACT_HOLD:
        return True
    if s.u[b, u, U_RULES] & R_IMMOBILE:
        return False
    if act == ACT_CHARGE:
        mu = s.g[b, G_MU]
        other = 1 - s.u[b, u, U_SIDE]
        for i in range(mu):
            if can_charge(st, s, b, u, other * mu + i, sc):
                return True
        return False
    return can_move(st, s, b, u, move_inches(s, b, u, act) * FIFTHS, sc)


@njit(cache=True)
def can_move(st, s, b, u, allow, sc):
    """Has unit u a legal destination? Staying put (a move of 0", paths searched no farther) almost always is, so it
    is tried before the full search, first without any path search (``stay_ok``)."""
    if stay_ok(st, s, b, u, sc):
        return True
    h, w = st.flags.shape
    n = prepare(st, s, b, u, 0, False, sc)
    a = sc.order[0]
    if plan_move(st, s, b, u, np.int64(s.m[b, u, a, M_Y]) * w + np.int64(s.m[b, u, a, M_X]), allow, sc, n) >= 0:
        return True
    return move_cells(st, s, b, u, allow, sc, sc.taken, -1, True) > 0


@njit(cache=True)
def fill_mask(s, st, b, lay, mask, sc):
    """The exact mask of game b's current decision into mask[b]; returns the number of legal actions."""
    row = mask[b]
    row[:] = False
    if s.g[b, G_DONE]:
        return 0
    dk = s.g[b, G_DK]
    side = s.g[b, G_DPLAYER]
    mu = s.g[b, G_MU]
    u = s.g[b, G_ACTIVE]
    if dk == DK_CHOOSE_EDGE:
        row[lay[A_EDGE]] = True
        row[lay[A_EDGE] + 1] = True
    elif dk == DK_PLACE_OBJ:
        h, w = st.flags.shape
        zarr = st.zone.ravel()
        fl = st.flags.ravel()
        obj = s.obj[b]
        for c in range(h * w):
            if obj_cell_ok(zarr, fl, obj, c, w):
                row[lay[A_CELL] + c] = True
    elif dk == DK_DEPLOY_UNIT or dk == DK_SCOUT_UNIT or dk == DK_AMBUSH_UNIT or dk == DK_SELECT:
        for i in range(mu):
            if unit_selectable(st, s, b, side * mu + i, dk, sc):
                row[lay[A_SELECT] + i] = True
        if dk == DK_AMBUSH_UNIT:
            row[lay[A_PASS]] = True
    elif dk == DK_DEPLOY_CELL:
        place_cells(st, s, b, u, MODE_ZONE, sc, row, lay[A_CELL], False)
        if s.u[b, u, U_RULES] & (R_SCOUT | R_AMBUSH):
            row[lay[A_HOLD_BACK]] = True
    elif dk == DK_SCOUT_CELL:
        place_cells(st, s, b, u, MODE_BAND, sc, row, lay[A_CELL], False)
    elif dk == DK_AMBUSH_CELL:
        place_cells(st, s, b, u, MODE_AMBUSH, sc, row, lay[A_CELL], False)
    elif dk == DK_ACTION:
        for act in range(5):
            if action_ok(st, s, b, u, act, sc):
                row[lay[A_ACTION] + act] = True
    elif dk == DK_MOVE_CELL:
        move_cells(st, s, b, u, move_inches(s, b, u, s.u[b, u, U_ACTION]) * FIFTHS, sc, row, lay[A_CELL], False)
    elif dk == DK_SHOOT_TARGET:
        other = 1 - s.u[b, u, U_SIDE]
        for i in range(mu):
            if target_ok(st, s, b, u, s.g[b, G_WSLOT], other * mu + i):
                row[lay[A_TARGET] + i] = True
        row[lay[A_NO_TARGET]] = True
    elif dk == DK_CHARGE_TARGET:
        other = 1 - s.u[b, u, U_SIDE]
        for i in range(mu):
            if can_charge(st, s, b, u, other * mu + i, sc):
                row[lay[A_TARGET] + i] = True
    elif dk == DK_STRIKE_BACK:
        row[lay[A_STRIKE]] = True
        row[lay[A_STRIKE] + 1] = True
    elif dk == DK_CAST:
        cast_mask(st, s, b, u, side, row, lay[A_CAST])
        row[lay[A_PASS]] = True
    elif dk == DK_HELP:
        n = help_left(s, b, s.g[b, G_HELP_NEXT], u)
        for k in range(-n, n + 1):
            row[lay[A_HELP] + HELP_MAX + k] = True
    elif dk == DK_PUSH:
        push_cells(st, s, b, s.g[b, G_PUSHED], row, lay[A_CELL])
        row[lay[A_PASS]] = True
    elif dk == DK_FREE_MOVE:
        move_cells(st, s, b, s.g[b, G_FREE], s.g[b, G_FREE_IN] * FIFTHS, sc, row, lay[A_CELL], False)
        row[lay[A_PASS]] = True
    n = 0
    for k in range(row.shape[0]):
        if row[k]:
            n += 1
    return n


@njit(cache=True)
def unit_selectable(st, s, b, u, dk, sc):
    if dk == DK_SELECT:
        return can_act(s, b, u)
    if dk == DK_DEPLOY_UNIT:
        if s.u[b, u, U_STATE] != US_WAITING:
            return False
        if s.u[b, u, U_RULES] & (R_SCOUT | R_AMBUSH):
            return True
        return place_cells(st, s, b, u, MODE_ZONE, sc, sc.taken, -1, True) > 0
    if dk == DK_SCOUT_UNIT:
        return s.u[b, u, U_STATE] == US_SCOUT and place_cells(st, s, b, u, MODE_BAND, sc, sc.taken, -1, True) > 0
    if dk == DK_AMBUSH_UNIT:
        return s.u[b, u, U_STATE] == US_AMBUSH and place_cells(st, s, b, u, MODE_AMBUSH, sc, sc.taken, -1, True) > 0
    return False


@njit(cache=True)
def cast_mask(st, s, b, u, side, row, base):
    """DK_CAST: every spell of unit u at every unit it may try it on (spells.can_cast)."""
    mu2 = 2 * s.g[b, G_MU]
    for spell in range(N_SPELLS):
        for r in range(mu2):
            if can_cast(s, st, b, u, spell, spell_target_unit(s, b, side, r)):
                row[base + spell * mu2 + r] = True
