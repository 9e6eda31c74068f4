"""Ride By (rules 4.3 Mounted; docs/rules.md): during a Move (Simple) a Mounted fighter may pass
within 1" of a single enemy model and pause to make one close combat attack against it; that
enemy may try one reaction attack.

On the grid the Move is split in two decisions, which keeps the action space small and the mask
exact:

1. ``ride_by`` <enemy> (A_RIDE_BY, a Move): the rider moves by the cheapest path (as a Charge
   path: the 1" rule of every other enemy holds) to a free cell in base contact with that enemy,
   within its Movement, and not within 1" of any other enemy; it makes one attack (one Attack
   dice, its best close combat weapon: Hands Full); the enemy, if it can react, makes one attack
   back. If that reaction hits the rider, the rider takes the "I get knocked down" test with the
   inches moved so far this activation.
   With a usable Versatile weapon the pause cell may instead be a cell from which that weapon's
   Long range reaches the enemy, in line of sight ("or when within Long range of a Versatile
   weapon"); the attack is then made with the Versatile weapon, and the enemy reacts only if its
   own Versatile weapon reaches back (12 Versatile).
2. DK_RIDE_BY: the rider finishes the Move: ``move`` to a cell reachable with the Movement left
   (the Move rules from the pause cell, jumping down and leaping gaps included, except that it
   may pass through the attacked enemy's 1" zone without ending in it: movement.MODE_RIDE_BY),
   or ``end`` to stay at the pause cell.
"""
import numpy as np
from ...core.jit import njit

from .combat import assists, best_melee, parry_count, versatile_reach, versatile_reach_at, weapon_attacks
from .condition_effects import mounted_knockdown
from .conditions import can_react, has_cond
from .constants import PF_LONG, PF_TRAITS, T_KNOCKBACK, T_POWER, T_VERSATILE
from .events import E_ASSIST, E_ATTACKS, E_HIT, E_REACTION, E_RIDE_BY, MK_MOVE, emit
from .movement import (
    MODE_CHARGE, MODE_RIDE_BY, facing_towards, has_levels, move_levels_mode, near_other_enemy, place, reach,
)
from .query import clear_rays_cells, gang_of, in_arc, movement
from .state import (
    C_MOUNTED, EV_ACTOR, EV_C, EV_KIND, EV_TARGET, FI_DISARMED, FI_FACING, FI_POSTURE, FI_STATE, FI_X, FI_Y, FS_ON,
    G_EVN, G_RB, G_RBB, G_RBT, PO_STANDING, WP_ID,
)

MOD_TURN = -1


@njit(cache=True)
def ride_by_goal(s, st, b, f, t, budget, dist, prev, endable):
    """The pause cell of f's Ride By against t: the cheapest free cell in base contact with t (same
    floor height) within ``budget`` half-inches, not within 1" of another enemy; -1 if none. Fills
    dist / prev / endable with the Charge-mode search toward t."""
    if (s.fi[b, t, FI_STATE] != FS_ON or s.fi[b, t, FI_POSTURE] != PO_STANDING
            or gang_of(s, b, t) == gang_of(s, b, f)):
        return -1
    h, w = st.terrain.shape
    reach(s, st, b, f, budget, MODE_CHARGE, t, dist, prev, endable)
    tx = s.fi[b, t, FI_X]
    ty = s.fi[b, t, FI_Y]
    best = -1
    bd = budget + 1
    for k in range(8):
        x = tx + (0, 1, 0, -1, 1, 1, -1, -1)[k]
        y = ty + (-1, 0, 1, 0, -1, 1, 1, -1)[k]
        if x < 0 or y < 0 or x >= w or y >= h:
            continue
        c = y * w + x
        if not endable[c] or dist[c] >= bd:
            continue
        if near_other_enemy(s, b, f, t, x, y):
            continue
        best = c
        bd = dist[c]
    # "or when within Long range of a Versatile weapon" (4.3): a cell from which a usable Versatile
    # weapon reaches t, in line of sight; the start cell too (the pause comes first, then the Move)
    if not has_versatile(s, st, b, f):
        return best
    start = s.fi[b, f, FI_Y] * w + s.fi[b, f, FI_X]
    if versatile_pause_ok(s, st, b, f, t, start % w, start // w):
        return start
    for c in range(h * w):
        if endable[c] and dist[c] < bd and versatile_pause_ok(s, st, b, f, t, c % w, c // w):
            best = c
            bd = dist[c]
    return best


@njit(cache=True)
def versatile_pause_ok(s, st, b, f, t, x, y):
    """May f pause at (x, y) to attack t at Versatile reach (4.3 Ride By, 12 Versatile): not in
    base contact (that is the ordinary pause), not within 1" of another enemy, a usable Versatile
    weapon reaching t from there, and t in line of sight."""
    if max(abs(x - s.fi[b, t, FI_X]), abs(y - s.fi[b, t, FI_Y])) <= 1 or near_other_enemy(s, b, f, t, x, y):
        return False
    if versatile_reach_at(s, st, b, f, t, x, y)[0] < 0:
        return False
    return clear_rays_cells(s, st, b, x, y, s.fi[b, t, FI_X], s.fi[b, t, FI_Y], gang_of(s, b, f), f, t, False) > 0


@njit(cache=True)
def has_versatile(s, st, b, f):
    """Does f carry a usable Versatile Melee profile with a Long range (12 Versatile)?"""
    for it in range(s.wp.shape[2]):
        wid = s.wp[b, f, it, WP_ID]
        if wid < 0:
            continue
        for p in range(st.wprof.shape[1]):
            if (st.wprof[wid, p, PF_TRAITS] & T_VERSATILE) != 0 and st.wprof[wid, p, PF_LONG] > 0:
                return True
    return False


@njit(cache=True)
def ride_by_legal(s, st, b, f, t):
    """May f (Standing and Active, with a Move left: checked by the mask) Ride By t?"""
    if not has_cond(s, b, f, C_MOUNTED):
        return False
    n = st.terrain.shape[0] * st.terrain.shape[1]
    dist = np.empty(n, np.int32)
    prev = np.empty(n, np.int32)
    endable = np.empty(n, np.bool_)
    return ride_by_goal(s, st, b, f, t, 2 * movement(s, b, f), dist, prev, endable) >= 0


@njit(cache=True)
def one_attack(s, st, b, f, t, reaction):
    """One close combat attack (one Attack dice) of f against t with f's best close combat weapon
    (rules 8.1: turn to face at -1, assists and interference, parry). Returns (hit, whether the
    weapon has Knockback)."""
    if s.fi[b, f, FI_STATE] != FS_ON or s.fi[b, t, FI_STATE] != FS_ON:
        return False, False
    mod = 0
    tx = s.fi[b, t, FI_X]
    ty = s.fi[b, t, FI_Y]
    if not in_arc(s, st, b, f, tx, ty, s.fi[b, f, FI_FACING]):
        mod += MOD_TURN
        s.fi[b, f, FI_FACING] = facing_towards(tx - s.fi[b, f, FI_X], ty - s.fi[b, f, FI_Y])
    i1, p1, _ = best_melee(s, st, b, f, -1, True)
    if max(abs(tx - s.fi[b, f, FI_X]), abs(ty - s.fi[b, f, FI_Y])) > 1:
        i1, p1 = versatile_reach(s, st, b, f, t)  # at Versatile reach only that weapon reaches (12)
        if i1 < 0:
            return False, False
    if reaction and s.fi[b, f, FI_DISARMED]:
        i1 = -1
    ast, inter = assists(s, b, f, t)
    mod += ast - inter
    emit(s, b, E_ASSIST, f, t, ast, inter, 0, 0, 0)
    emit(s, b, E_ATTACKS, f, t, 1, s.wp[b, f, i1, WP_ID] if i1 >= 0 else -1, -1, mod, 0)
    power = i1 >= 0 and (st.wprof[s.wp[b, f, i1, WP_ID], p1, PF_TRAITS] & T_POWER) != 0
    kb = i1 >= 0 and (st.wprof[s.wp[b, f, i1, WP_ID], p1, PF_TRAITS] & T_KNOCKBACK) != 0
    n0 = s.g[b, G_EVN]
    weapon_attacks(s, st, b, f, t, i1, p1, 1, mod, parry_count(s, st, b, t, power))
    hit = False
    for i in range(n0, min(s.g[b, G_EVN], s.ev.shape[1])):  # the last hit roll counts (after a parry)
        if s.ev[b, i, EV_KIND] == E_HIT and s.ev[b, i, EV_ACTOR] == f and s.ev[b, i, EV_TARGET] == t:
            hit = s.ev[b, i, EV_C] == 1
    return hit, kb


@njit(cache=True)
def goal_contact(s, b, f, t):
    """f and t are in base contact (adjacent cells; the pause cell shares t's floor)."""
    return max(abs(s.fi[b, t, FI_X] - s.fi[b, f, FI_X]), abs(s.fi[b, t, FI_Y] - s.fi[b, f, FI_Y])) <= 1


@njit(cache=True)
def ride_by(s, st, b, f, t):
    """A_RIDE_BY: move to the pause cell, one attack, one reaction, then DK_RIDE_BY (G_RB) unless
    the rider can no longer move (knocked down, Seriously Injured or out of action)."""
    h, w = st.terrain.shape
    n = h * w
    dist = np.empty(n, np.int32)
    prev = np.empty(n, np.int32)
    endable = np.empty(n, np.bool_)
    budget = 2 * movement(s, b, f)
    goal = ride_by_goal(s, st, b, f, t, budget, dist, prev, endable)
    if goal < 0:
        return
    start = s.fi[b, f, FI_Y] * w + s.fi[b, f, FI_X]
    cost = 0 if goal == start else dist[goal]
    emit(s, b, E_RIDE_BY, f, t, start, goal, budget - cost, 0, 0)
    if goal != start:
        place(s, st, b, f, goal % w, goal // w, cost, MK_MOVE)
    one_attack(s, st, b, f, t, False)
    reach_back = goal_contact(s, b, f, t) or versatile_reach(s, st, b, t, f)[0] >= 0
    if (s.fi[b, t, FI_STATE] == FS_ON and s.fi[b, t, FI_POSTURE] == PO_STANDING and can_react(s, b, t)
            and s.fi[b, f, FI_STATE] == FS_ON and reach_back):
        emit(s, b, E_REACTION, t, f, 0, 0, 0, 0, 0)
        hit, kb = one_attack(s, st, b, t, f, True)
        if hit and s.fi[b, f, FI_STATE] == FS_ON and s.fi[b, f, FI_POSTURE] == PO_STANDING:
            mounted_knockdown(s, st, b, t, f, kb)  # with this activation's inches; -1 for Knockback (4.3)
    if s.fi[b, f, FI_STATE] == FS_ON and s.fi[b, f, FI_POSTURE] == PO_STANDING:
        s.g[b, G_RB] = f + 1
        s.g[b, G_RBB] = budget - cost
        s.g[b, G_RBT] = t


@njit(cache=True)
def ride_by_cells(s, st, b, f, dist, prev, endable):
    """Cells the rider may finish its Ride By move in (DK_RIDE_BY): a Move from the pause cell with
    the half-inches left, which may pass through (not end in) the attacked enemy's 1" zone.
    Fills dist / prev / endable; returns the budget."""
    budget = s.g[b, G_RBB]
    reach(s, st, b, f, budget, MODE_RIDE_BY, s.g[b, G_RBT], dist, prev, endable)
    return budget


@njit(cache=True)
def ride_by_finish(s, st, b, f, cell):
    """DK_RIDE_BY ``move``: the rider goes on to ``cell`` (one of ``ride_by_cells``) as a Move
    does: its cheapest safe path, else (boards with levels) the route that jumps down or leaps,
    with the Initiative tests and falls of movement.move_levels (6.5-6.7)."""
    if has_levels(st):
        if endable_ride_by(s, st, b, f, cell):
            move_levels_mode(s, st, b, f, cell, s.g[b, G_RBB], 0, MODE_RIDE_BY, s.g[b, G_RBT])
        return
    h, w = st.terrain.shape
    n = h * w
    dist = np.empty(n, np.int32)
    prev = np.empty(n, np.int32)
    endable = np.empty(n, np.bool_)
    ride_by_cells(s, st, b, f, dist, prev, endable)
    start = s.fi[b, f, FI_Y] * w + s.fi[b, f, FI_X]
    if cell != start and endable[cell] and dist[cell] <= s.g[b, G_RBB]:
        place(s, st, b, f, cell % w, cell // w, dist[cell], MK_MOVE)


@njit(cache=True)
def endable_ride_by(s, st, b, f, cell):
    """Is ``cell`` one of ``ride_by_cells`` (the DK_RIDE_BY mask)?"""
    n = st.terrain.shape[0] * st.terrain.shape[1]
    dist = np.empty(n, np.int32)
    prev = np.empty(n, np.int32)
    endable = np.empty(n, np.bool_)
    budget = ride_by_cells(s, st, b, f, dist, prev, endable)
    return endable[cell] and dist[cell] <= budget
