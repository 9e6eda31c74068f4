"""Action types, status requirements and the shared conditions of the action catalogue
(rules 5.1, 5.2). Used by both the legality mask and the resolution code."""
from ...core.jit import njit

from ...core.terrain import DOOR_CLOSED, DOOR_DESTROYED, DOOR_OPEN
from .codec import (
    A_AIM, A_BLIND_FIRE, A_BYPASS_CASKET, A_CARRY_CASKET, A_CHARGE, A_COUP, A_CRAWL, A_CRAWL_DUCT, A_FIGHT,
    A_FIRE_DUCT, A_FORCE_DOOR, A_MOVE, A_OPEN_DOOR, A_RELOAD, A_RETREAT, A_SHOOT, A_SHOOT_TWIN, A_SMASH_CASKET,
    A_SHOOT_CELL, A_STAND_UP, A_TAKE_COVER, A_TERMINAL, A_CARRY_FIGHTER, A_CANNIBALISE, A_DEMOLISH, A_RIDE_BY,
)
from .constants import AF_CHARGE_PENALTY, CH_S, PF_TRAITS, T_SIDEARM, T_UNWIELDY
from .query import cell_solid, fighter_at, is_engaged, movement, movement_parts, with_modifiers
from .state import (
    CK_STATE, CK_X, CK_Y, DR_STATE, FI_ACTS, FI_ARMOUR, FI_BASIC, FI_BROKEN, FI_CH, FI_POSTURE, FI_STATE, FI_X,
    FI_Y, FS_ON, PO_PINNED, PO_SI, PO_STANDING, WP_ID, G_MF,
)
from .variant import house_legacy
from .weapons import can_shoot_with

TYPE_FREE = 0
TYPE_SIMPLE = 1
TYPE_BASIC = 2
TYPE_DOUBLE = 3


@njit(cache=True, inline="always")
def action_type(kind):
    if (kind == A_MOVE or kind == A_RELOAD or kind == A_COUP or kind == A_OPEN_DOOR or kind == A_CARRY_CASKET
            or kind == A_CARRY_FIGHTER or kind == A_RIDE_BY):
        return TYPE_SIMPLE
    if kind == A_CHARGE or kind == A_CRAWL_DUCT or kind == A_CRAWL or kind == A_BLIND_FIRE:
        return TYPE_DOUBLE
    if (kind == A_TAKE_COVER or kind == A_SHOOT or kind == A_SHOOT_TWIN or kind == A_AIM or kind == A_TERMINAL
            or kind == A_FORCE_DOOR or kind == A_SMASH_CASKET or kind == A_BYPASS_CASKET or kind == A_FIRE_DUCT
            or kind == A_FIGHT or kind == A_RETREAT or kind == A_STAND_UP or kind == A_SHOOT_CELL
            or kind == A_CANNIBALISE or kind == A_DEMOLISH):
        return TYPE_BASIC
    return TYPE_FREE


@njit(cache=True, inline="always")
def basic_bit(kind):
    """Bit of FI_BASIC recording that this Basic action was taken (Shoot and twin Shoot share one).
    FI_BASIC is int16: Retreat and Stand Up reuse the unused slots of twin Shoot and Reload
    (their plain offsets, bits 15 and 16, do not fit)."""
    if kind == A_SHOOT_TWIN or kind == A_SHOOT_CELL:
        kind = A_SHOOT
    elif kind == A_RETREAT:
        kind = A_SHOOT_TWIN
    elif kind == A_STAND_UP:
        kind = A_RELOAD
    elif kind == A_CANNIBALISE:
        kind = A_COUP  # Coup de Grace is Simple: its slot is free
    elif kind == A_DEMOLISH:
        kind = A_OPEN_DOOR  # Operate Door is Simple: its slot is free
    return 1 << (kind - A_TAKE_COVER)


@njit(cache=True)
def can_afford(s, b, f, kind, unwieldy):
    acts = s.fi[b, f, FI_ACTS]
    t = action_type(kind)
    if t == TYPE_BASIC and unwieldy:
        t = TYPE_DOUBLE  # Unwieldy: Shoot is a Double action (12)
        if s.fi[b, f, FI_BASIC] & basic_bit(kind):
            return False
    if t == TYPE_SIMPLE:
        return acts >= 1
    if t == TYPE_BASIC:
        return acts >= 1 and (s.fi[b, f, FI_BASIC] & basic_bit(kind)) == 0
    if t == TYPE_DOUBLE:
        return acts >= 2
    return True


@njit(cache=True)
def spend(s, b, f, kind, unwieldy):
    t = action_type(kind)
    if t == TYPE_BASIC and unwieldy:
        t = TYPE_DOUBLE
        s.fi[b, f, FI_BASIC] |= basic_bit(kind)
    if t == TYPE_SIMPLE:
        s.fi[b, f, FI_ACTS] -= 1
    elif t == TYPE_BASIC:
        s.fi[b, f, FI_ACTS] -= 1
        s.fi[b, f, FI_BASIC] |= basic_bit(kind)
    elif t == TYPE_DOUBLE:
        s.fi[b, f, FI_ACTS] = 0
    if s.fi[b, f, FI_ACTS] < 0:
        s.fi[b, f, FI_ACTS] = 0


# ------------------------------------------------------------------ statuses (4.1)
@njit(cache=True)
def status_sa(s, b, f):
    return (s.fi[b, f, FI_STATE] == FS_ON and s.fi[b, f, FI_POSTURE] == PO_STANDING
            and not s.fi[b, f, FI_BROKEN] and not is_engaged(s, b, f))


@njit(cache=True)
def status_se(s, b, f):
    return (s.fi[b, f, FI_STATE] == FS_ON and s.fi[b, f, FI_POSTURE] == PO_STANDING
            and not s.fi[b, f, FI_BROKEN] and is_engaged(s, b, f))


@njit(cache=True)
def status_pp(s, b, f):
    return s.fi[b, f, FI_STATE] == FS_ON and s.fi[b, f, FI_POSTURE] == PO_PINNED and not s.fi[b, f, FI_BROKEN]


@njit(cache=True)
def status_psi(s, b, f):
    return s.fi[b, f, FI_STATE] == FS_ON and s.fi[b, f, FI_POSTURE] == PO_SI and not s.fi[b, f, FI_BROKEN]


# ------------------------------------------------------------------ proximity helpers
@njit(cache=True)
def within1_cell(x0, y0, x1, y1):
    """gap <= 1" between two cells (centre distance <= 2)."""
    dx = x1 - x0
    dy = y1 - y0
    return dx * dx + dy * dy <= 4


@njit(cache=True)
def clear_within1(s, st, b, x0, y0, x1, y1):
    """gap <= 1" between two cells, not measured through a wall or closed door (1.1, 1.4):
    two cells apart orthogonally, the cell between must not be solid; diagonal neighbours
    touch at a corner unless both cells beside that corner are solid."""
    dx = x1 - x0
    dy = y1 - y0
    d2 = dx * dx + dy * dy
    if d2 > 4:
        return False
    if d2 == 4:
        return not cell_solid(s, st, b, x0 + dx // 2, y0 + dy // 2)
    if d2 == 2:
        return not (cell_solid(s, st, b, x1, y0) and cell_solid(s, st, b, x0, y1))
    return True


@njit(cache=True)
def door_near(s, st, b, f, d):
    return clear_within1(s, st, b, s.fi[b, f, FI_X], s.fi[b, f, FI_Y], st.door_xy[d, 0], st.door_xy[d, 1])


@njit(cache=True)
def door_operable(s, st, b, d):
    """Operate Door (6.8): an unlocked door; closing needs its cell to be empty."""
    ds = s.door[b, d, DR_STATE]
    if ds == DOOR_CLOSED:
        return True
    if ds == DOOR_OPEN:
        return fighter_at(s, b, st.door_xy[d, 0], st.door_xy[d, 1]) < 0
    return False


@njit(cache=True)
def terminal_usable(s, st, b, f, d):
    """Access Terminal (5.2): f is within 1" of a terminal of door d, which can be toggled."""
    near = False  # the cheap test first: most doors have no terminal near f
    for i in range(st.term.shape[0]):
        if st.term[i, 2] == d and clear_within1(s, st, b, s.fi[b, f, FI_X], s.fi[b, f, FI_Y], st.term[i, 0],
                                                st.term[i, 1]):
            near = True
            break
    if not near:
        return False
    ds = s.door[b, d, DR_STATE]
    if ds == DOOR_DESTROYED:
        return False
    return not (ds == DOOR_OPEN and fighter_at(s, b, st.door_xy[d, 0], st.door_xy[d, 1]) >= 0)


@njit(cache=True)
def casket_near(s, st, b, f, k):
    if s.casket[b, k, CK_STATE] == 0:
        return False
    return clear_within1(s, st, b, s.fi[b, f, FI_X], s.fi[b, f, FI_Y], s.casket[b, k, CK_X], s.casket[b, k, CK_Y])


@njit(cache=True)
def duct_far_end(s, st, b, f, u):
    """If f is within 1" of an end of ductway u, the other end's cell (x, y); else (-1, -1)."""
    x = s.fi[b, f, FI_X]
    y = s.fi[b, f, FI_Y]
    if clear_within1(s, st, b, x, y, st.duct[u, 0], st.duct[u, 1]):
        return st.duct[u, 2], st.duct[u, 3]
    if clear_within1(s, st, b, x, y, st.duct[u, 2], st.duct[u, 3]):
        return st.duct[u, 0], st.duct[u, 1]
    return -1, -1


@njit(cache=True)
def unwieldy(st, wid, p):
    return (st.wprof[wid, p, PF_TRAITS] & T_UNWIELDY) != 0


@njit(cache=True)
def twin_sidearms(s, st, b, f):
    """Two usable Sidearm profiles on different items: (i1, p1, i2, p2) or i1 = -1."""
    found = 0
    i1 = -1
    p1 = 0
    i2 = -1
    p2 = 0
    for it in range(s.wp.shape[2]):
        wid = s.wp[b, f, it, WP_ID]
        if wid < 0:
            continue
        for p in range(st.wprof.shape[1]):
            if can_shoot_with(s, st, b, f, it, p) and (st.wprof[wid, p, PF_TRAITS] & T_SIDEARM):
                if found == 0:
                    i1 = it
                    p1 = p
                else:
                    i2 = it
                    p2 = p
                found += 1
                break
        if found >= 2:
            return i1, p1, i2, p2
    return -1, 0, -1, 0


# ------------------------------------------------------------------ House Legacy differences (5.3)
@njit(cache=True)
def charge_allowance(s, st, b, f, d3_roll):
    """Charge move in inches (5.2 / 5.3). Core: M + D3. House Legacy: 2 x M capped at 12", or
    at M when the charger starts Prone (no dice). Heavy armour's charge penalty applies to both.

    3.2 [HL]: the doubling (with its cap, part of the same sentence of the seed) applies to the
    Movement characteristic, the additive modifiers (Gunked -1", 4.3; the armour penalty) after
    it: a Gunked M5 charges 2 x 5 - 1 = 9", not 2 x 4 = 8"."""
    m, add = movement_parts(s, b, f)
    if house_legacy(s, b):
        base = with_modifiers(m if s.fi[b, f, FI_POSTURE] != PO_STANDING else min(2 * m, 12), add)
    else:
        base = with_modifiers(m, add) + d3_roll
    return base - st.armour[s.fi[b, f, FI_ARMOUR], AF_CHARGE_PENALTY]


@njit(cache=True)
def carry_inches(s, b, f):
    """Carry (5.2 / 5.3): core moves the fighter its M; House Legacy the lower of M and S."""
    m = movement(s, b, f)
    if house_legacy(s, b):
        return min(m, s.fi[b, f, FI_CH + CH_S])
    return m


@njit(cache=True)
def retreat_budget(s, b, f):
    """Retreat destination range in half-inches: core D6" (at most 6"), House Legacy the full M."""
    if house_legacy(s, b):
        return 2 * movement(s, b, f)
    return 12


@njit(cache=True)
def carried_casket(s, st, b, f):
    """The loot casket f would carry: the first within 1" and not behind a wall (casket_near), or -1."""
    for k in range(s.casket.shape[1]):
        if casket_near(s, st, b, f, k):
            return k
    return -1


@njit(cache=True)
def carried_friend(s, st, b, f):
    """[HL] 5.3 Carry: the Seriously Injured friend within 1" that f would carry (the lowest
    fighter index when there are several), or -1."""
    g = f // s.g[b, G_MF]
    for o in range(s.fi.shape[1]):
        if (o != f and o // s.g[b, G_MF] == g and s.fi[b, o, FI_STATE] == FS_ON and s.fi[b, o, FI_POSTURE] == PO_SI
                and clear_within1(s, st, b, s.fi[b, f, FI_X], s.fi[b, f, FI_Y], s.fi[b, o, FI_X], s.fi[b, o, FI_Y])):
            return o
    return -1
