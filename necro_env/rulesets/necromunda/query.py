"""Read-only questions about a game: who is where, engaged, visible, in cover."""
import numpy as np
from ...core.jit import njit

from ...core.geometry import AIM_Z, EYE_Z, N_RAYS, ray_blocked_by_model, ray_blocked_by_model_3d
from ...core.terrain import DOOR_CLOSED, DOOR_LOCKED, TER_DOOR, TER_WALL
from .constants import AF_INIT_PENALTY, CH_I, CH_M, CH_T
from .templates import smoke_blocks
from .state import (
    C_CONCUSSION, C_GUNKED, FI_COND, FI_CTRL,
    DR_STATE, FI_ARMOUR, FI_CH, FI_FLESH, FI_POSTURE, FI_STATE, FI_X, FI_Y, FI_Z, FS_ON, G_MF, PO_STANDING,
)


@njit(cache=True, inline="always")
def gang_of(s, b, f):
    """The gang f fights for: its own, or the gang controlling it while Insane (4.3, FI_CTRL)."""
    c = s.fi[b, f, FI_CTRL]
    if c > 0:
        return c - 1
    return f // s.g[b, G_MF]


@njit(cache=True)
def n_fighters(s):
    return s.fi.shape[1]


@njit(cache=True)
def on_board(s, b, f):
    return s.fi[b, f, FI_STATE] == FS_ON


@njit(cache=True, inline="always")
def standing(s, b, f):
    return s.fi[b, f, FI_STATE] == FS_ON and s.fi[b, f, FI_POSTURE] == PO_STANDING


@njit(cache=True, inline="always")
def is_enemy(s, b, f, e):
    return gang_of(s, b, f) != gang_of(s, b, e)


@njit(cache=True, inline="always")
def cheb(s, b, f, e):
    return max(abs(s.fi[b, f, FI_X] - s.fi[b, e, FI_X]), abs(s.fi[b, f, FI_Y] - s.fi[b, e, FI_Y]))


@njit(cache=True, inline="always")
def dist2(s, b, f, e):
    """Squared centre distance, with the floor-height difference (rules 1.2 gap; 0 on flat boards)."""
    dx = s.fi[b, f, FI_X] - s.fi[b, e, FI_X]
    dy = s.fi[b, f, FI_Y] - s.fi[b, e, FI_Y]
    dz = s.fi[b, f, FI_Z] - s.fi[b, e, FI_Z]
    return dx * dx + dy * dy + dz * dz


@njit(cache=True)
def within_f(s, b, f, e, inches):
    """gap(f, e) <= inches (rules 1.2)."""
    r = inches + 1.0
    return dist2(s, b, f, e) <= r * r + 1e-9



@njit(cache=True)
def engaged_with(s, b, f, e):
    """f and e are both Standing enemies in base contact (rules 4.1)."""
    return (standing(s, b, f) and standing(s, b, e) and is_enemy(s, b, f, e) and cheb(s, b, f, e) == 1
            and s.fi[b, f, FI_Z] == s.fi[b, e, FI_Z])  # base contact: same floor height (docs/rules.md 1.2)


@njit(cache=True)
def is_engaged(s, b, f):
    if not standing(s, b, f):
        return False
    for e in range(s.fi.shape[1]):
        if e != f and engaged_with(s, b, f, e):
            return True
    return False


@njit(cache=True)
def count_engaged_enemies(s, b, f):
    n = 0
    for e in range(s.fi.shape[1]):
        if e != f and engaged_with(s, b, f, e):
            n += 1
    return n


@njit(cache=True)
def toughness(s, b, f):
    return s.fi[b, f, FI_CH + CH_T] - s.fi[b, f, FI_FLESH]


@njit(cache=True)
def initiative(s, st, b, f):
    """Initiative target number including armour penalties and conditions (Concussion +2,
    Gunked +1; 4.3) (higher is worse, max 6)."""
    v = s.fi[b, f, FI_CH + CH_I] + st.armour[s.fi[b, f, FI_ARMOUR], AF_INIT_PENALTY]
    c = s.fi[b, f, FI_COND]
    if c & C_CONCUSSION:
        v += 2
    if c & C_GUNKED:
        v += 1
    return min(v, 6)


# Movement modifiers come in two kinds: a rule that doubles or halves Movement (House Legacy's
# Charge, Take Cover, Crawl, Running for Cover from Prone) and additive ones (Gunked -1", 4.3).
# 3.2 [HL]: multiplication and division first, then addition and subtraction, so every mover
# scales the base characteristic (movement_parts) and adds the modifiers after (with_modifiers).
@njit(cache=True, inline="always")
def movement_parts(s, b, f):
    """(the Movement characteristic, the sum of its additive modifiers: Gunked -1", 4.3)."""
    add = -1 if s.fi[b, f, FI_COND] & C_GUNKED else 0
    return s.fi[b, f, FI_CH + CH_M], add


@njit(cache=True, inline="always")
def with_modifiers(inches, add):
    """A (scaled) Movement in inches plus the additive modifiers; a reduced one is at least 1"
    (Gunked's minimum, 4.3)."""
    return max(1, inches + add) if add < 0 else inches + add


@njit(cache=True)
def movement(s, b, f):
    """Movement after conditions: Gunked -1" (minimum 1"; 4.3)."""
    m, add = movement_parts(s, b, f)
    return with_modifiers(m, add)


@njit(cache=True)
def half_movement(s, b, f):
    """Half Movement rounded up (1.2; Take Cover, Crawl, Running for Cover from Prone), halved
    before the additive modifiers (3.2): Gunked M6 gives 3 - 1 = 2", not half of 5"."""
    m, add = movement_parts(s, b, f)
    return with_modifiers((m + 1) // 2, add)


@njit(cache=True, inline="always")
def cell_solid(s, st, b, x, y):
    """Wall or closed door: blocks movement, sight and measurement."""
    t = st.terrain[y, x]
    if t == TER_WALL:
        return True
    if t == TER_DOOR:
        d = st.door_of_cell[y, x]
        ds = s.door[b, d, DR_STATE]
        return ds == DOOR_CLOSED or ds == DOOR_LOCKED
    return False


@njit(cache=True)
def closed_door_mask(s, st, b):
    m = np.uint32(0)
    for d in range(st.door_xy.shape[0]):
        ds = s.door[b, d, DR_STATE]
        if ds == DOOR_CLOSED or ds == DOOR_LOCKED:
            m |= np.uint32(1) << np.uint32(d)
    return m


@njit(cache=True)
def fighter_at(s, b, x, y):
    for f in range(s.fi.shape[1]):
        if s.fi[b, f, FI_STATE] == FS_ON and s.fi[b, f, FI_X] == x and s.fi[b, f, FI_Y] == y:
            return f
    return -1


@njit(cache=True)
def in_arc(s, st, b, f, x, y, facing):
    h = st.terrain.shape[0]
    w = st.terrain.shape[1]
    dx = x - s.fi[b, f, FI_X]
    dy = y - s.fi[b, f, FI_Y]
    if dx == 0 and dy == 0:
        return False
    return st.arc[dy + h - 1, dx + w - 1, facing] == 1


ALL_RAYS = (1 << N_RAYS) - 1  # los_wall / los_obst bits of every ray


@njit(cache=True, separate=False)  # tens of calls per decision: linked, not called separately (core.separate)
def clear_rays_cells(s, st, b, ax, ay, tx, ty, ga, skip1, skip2, ignore_models):
    """Clear rays (of 5) from cell (ax, ay) to cell (tx, ty) for an observer of gang ga.

    Standing models block rays, except skip1/skip2 (observer and target) and
    fighters of gang ga in base contact with the observer cell (rules 1.4).
    Obstacles only give cover: they never take line of sight away ([KO] 2D rule:
    only walls and closed doors block it), so when every ray is blocked but at
    least one only by obstacles the result is 1 (full cover, not "no LOS").
    """
    w = st.terrain.shape[1]
    ca = ay * w + ax
    ct = ty * w + tx
    if ca == ct:
        return N_RAYS
    wall = st.los_wall[ca, ct]
    if wall == ALL_RAYS:  # every ray crosses a wall: no line of sight whatever else is there
        return 0
    if smoke_blocks(s, b, w, ax, ay, tx, ty):  # smoke clouds block sight into, out of and through them (12)
        return 0
    lv = st.levels[0] != 0  # boards with levels: a model blocks only within its height band (1.4)
    az = st.height[ay, ax] + EYE_Z
    tz = st.height[ty, tx] + AIM_Z
    obst = st.los_obst[ca, ct]
    # rays not crossing a wall or a closed door (the door states are read only if a door is crossed)
    open_rays = 0
    closed = np.uint32(0)
    closed_known = False
    for k in range(N_RAYS):
        bit = 1 << k
        if wall & bit:
            continue
        doors = st.los_door[ca, ct, k]
        if doors != 0:
            if not closed_known:
                closed = closed_door_mask(s, st, b)
                closed_known = True
            if doors & closed:
                continue
        open_rays |= bit
    if open_rays != 0 and not ignore_models:
        # Standing models whose base a ray crosses block it; a model centred outside the box
        # spanned by the two cells (grown by a cell) is more than 0.5" from every ray
        x0 = min(ax, tx) - 1
        x1 = max(ax, tx) + 1
        y0 = min(ay, ty) - 1
        y1 = max(ay, ty) + 1
        for m in range(s.fi.shape[1]):
            if m == skip1 or m == skip2 or not standing(s, b, m):
                continue
            mx = s.fi[b, m, FI_X]
            my = s.fi[b, m, FI_Y]
            if mx < x0 or mx > x1 or my < y0 or my > y1:
                continue
            if (mx == ax and my == ay) or (mx == tx and my == ty):
                continue
            if gang_of(s, b, m) == ga and max(abs(mx - ax), abs(my - ay)) == 1:
                continue
            for k in range(N_RAYS):
                bit = 1 << k
                if not open_rays & bit:
                    continue
                if lv:
                    if ray_blocked_by_model_3d(ax, ay, az, tx, ty, tz, k, mx, my, st.height[my, mx]):
                        open_rays &= ~bit
                elif ray_blocked_by_model(ax, ay, tx, ty, k, mx, my):
                    open_rays &= ~bit
            if open_rays == 0:
                break
    n = 0
    soft = False  # a ray blocked by obstacles only
    for k in range(N_RAYS):
        bit = 1 << k
        if not open_rays & bit:
            continue
        if obst & bit:
            soft = True
            continue
        n += 1
    if n == 0 and soft:
        return 1
    return n


@njit(cache=True)
def clear_rays(s, st, b, a, t, ignore_models):
    """Number of the 5 rays from fighter a to fighter t that are clear (rules 1.4)."""
    return clear_rays_cells(s, st, b, s.fi[b, a, FI_X], s.fi[b, a, FI_Y], s.fi[b, t, FI_X], s.fi[b, t, FI_Y],
                            gang_of(s, b, a), a, t, ignore_models)


@njit(cache=True)
def cover_grade(nclear):
    """0 open, 1 partial, 2 full, 3 no line of sight (rules 1.4 SUGGESTION)."""
    if nclear == 0:
        return 3
    if nclear == N_RAYS:
        return 0
    if nclear >= 3:
        return 1
    return 2
