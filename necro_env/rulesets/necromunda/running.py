"""Running for Cover (rules 10.3): where a Broken fighter runs, and the Engaged case."""
import numpy as np
from ...core.jit import njit

from .combat import close_combat_attacks, reactions
from .constants import CH_CL
from .dice import d6, two_d6
from .events import E_INIT, E_REACTION, E_RETREAT, E_RFC, E_SELF_RALLY, MK_RETREAT, MK_RUN_FOR_COVER, emit
from .movement import MODE_NORMAL, place, reach
from .conditions import can_react
from .query import (
    clear_rays_cells, cover_grade, engaged_with, gang_of, half_movement, initiative, is_engaged, movement, within_f,
)
from .state import FI_BROKEN, FI_CH, FI_POSTURE, FI_STATE, FI_X, FI_Y, FS_ON, PO_STANDING
from .variant import capable

INIT_RFC = 1
INIT_RFC_REACTION = 2
INIT_HL_BROKEN_RETREAT = 6


@njit(cache=True)
def cell_score(s, st, b, f, x, y):
    """Lexicographic key of a destination: (more than 3" from every enemy, out of every
    enemy's sight, cover against the enemies that see it, distance to the nearest enemy)."""
    g = gang_of(s, b, f)
    near = 0
    seen = 0
    worst_cover = 2
    mind2 = 1 << 30
    for e in range(s.fi.shape[1]):
        if s.fi[b, e, FI_STATE] != FS_ON or gang_of(s, b, e) == g:
            continue
        dx = x - s.fi[b, e, FI_X]
        dy = y - s.fi[b, e, FI_Y]
        d2 = dx * dx + dy * dy
        if d2 < mind2:
            mind2 = d2
        if d2 <= 16:  # gap <= 3"
            near = 1
        n = clear_rays_cells(s, st, b, s.fi[b, e, FI_X], s.fi[b, e, FI_Y], x, y, gang_of(s, b, e), e, f, False)
        cg = cover_grade(n)
        if cg < 3:
            seen = 1
            if cg < worst_cover:
                worst_cover = cg
    return 1 - near, 1 - seen, worst_cover, mind2


@njit(cache=True)
def best_cover_cell(s, st, b, f, budget):
    h, w = st.terrain.shape
    n = h * w
    dist = np.empty(n, np.int32)
    prev = np.empty(n, np.int32)
    endable = np.empty(n, np.bool_)
    reach(s, st, b, f, budget, MODE_NORMAL, -1, dist, prev, endable)
    start = s.fi[b, f, FI_Y] * w + s.fi[b, f, FI_X]
    best = start
    k0, k1, k2, k3 = cell_score(s, st, b, f, s.fi[b, f, FI_X], s.fi[b, f, FI_Y])
    for c in range(n):
        if c == start or not endable[c] or dist[c] > budget:
            continue
        a0, a1, a2, a3 = cell_score(s, st, b, f, c % w, c // w)
        if (a0, a1, a2, a3) > (k0, k1, k2, k3):
            k0, k1, k2, k3 = a0, a1, a2, a3
            best = c
    return best, dist[best] if best != start else 0


@njit(cache=True)
def run_for_cover(s, st, b, f):
    """A Broken fighter's Running for Cover, including the Standing and Engaged case."""
    if s.fi[b, f, FI_STATE] != FS_ON:
        return
    w = st.terrain.shape[1]
    if is_engaged(s, b, f):
        r = d6(s, b)
        need = initiative(s, st, b, f)
        passed = r >= need
        emit(s, b, E_INIT, f, -1, r, need, 1 if passed else 0, INIT_RFC, 0)
        for e in range(s.fi.shape[1]):
            if s.fi[b, f, FI_STATE] != FS_ON:
                break
            if engaged_with(s, b, e, f) and can_react(s, b, e):
                re = d6(s, b)
                ne = initiative(s, st, b, e)
                ok = re >= ne
                emit(s, b, E_INIT, e, f, re, ne, 1 if ok else 0, INIT_RFC_REACTION, 0)
                if ok:
                    emit(s, b, E_REACTION, e, f, 0, 0, 0, 0, 0)
                    close_combat_attacks(s, st, b, e, f, False, True, 0)
        if not passed or s.fi[b, f, FI_STATE] != FS_ON or s.fi[b, f, FI_POSTURE] != PO_STANDING:
            return
    if s.fi[b, f, FI_POSTURE] == PO_STANDING:
        allowance = two_d6(s, b)
    else:
        allowance = half_movement(s, b, f)  # halved before Gunked's -1" (3.2, 4.3)
    start = s.fi[b, f, FI_Y] * w + s.fi[b, f, FI_X]
    c, cost = best_cover_cell(s, st, b, f, 2 * allowance)
    emit(s, b, E_RFC, f, -1, start, c, allowance, 0, 0)
    if c != start:
        place(s, st, b, f, c % w, c // w, cost, MK_RUN_FOR_COVER)


@njit(cache=True)
def hl_broken_activation(s, st, b, f):
    """House Legacy Broken fighter's activation (10.4): Run for Cover (Basic) if Active, Prone
    or Seriously Injured, Retreat (Basic) if Engaged; then its activation ends, and at its end
    it takes a Cool test, +1 per capable friend within 3", to stop being Broken.

    Its Retreat is the [HL] Retreat: an Initiative test; a pass moves it up to M to the cell
    Running for Cover would choose; a fail draws reaction attacks from every enemy in base
    contact and it stays (docs/rules.md, 10.4)."""
    if s.fi[b, f, FI_STATE] != FS_ON:
        return
    w = st.terrain.shape[1]
    if is_engaged(s, b, f):
        r = d6(s, b)
        need = initiative(s, st, b, f)
        passed = r >= need
        emit(s, b, E_INIT, f, -1, r, need, 1 if passed else 0, INIT_HL_BROKEN_RETREAT, 0)
        if passed:
            allowance = movement(s, b, f)
            emit(s, b, E_RETREAT, f, -1, 0, allowance, 0, 0, 0)
            start = s.fi[b, f, FI_Y] * w + s.fi[b, f, FI_X]
            c, cost = best_cover_cell(s, st, b, f, 2 * allowance)
            emit(s, b, E_RFC, f, -1, start, c, allowance, 1, 0)
            if c != start:
                place(s, st, b, f, c % w, c // w, cost, MK_RETREAT)
        else:
            reactions(s, st, b, f, -1)  # every enemy in base contact attacks (10.4)
    else:
        run_for_cover(s, st, b, f)
    hl_self_rally(s, b, f)


@njit(cache=True)
def hl_self_rally(s, b, f):
    """[HL] 10.4: Cool test (2D6) + 1 per capable friend within 3" >= Cl: no longer Broken."""
    if s.fi[b, f, FI_STATE] != FS_ON or not s.fi[b, f, FI_BROKEN]:
        return
    g = gang_of(s, b, f)
    bonus = 0
    for o in range(s.fi.shape[1]):
        if o != f and gang_of(s, b, o) == g and capable(s, b, o) and within_f(s, b, f, o, 3.0):
            bonus += 1
    r = two_d6(s, b)
    need = s.fi[b, f, FI_CH + CH_CL]
    ok = r + bonus >= need
    emit(s, b, E_SELF_RALLY, f, -1, r + bonus, need, 1 if ok else 0, 0, 0)
    if ok:
        s.fi[b, f, FI_BROKEN] = 0
