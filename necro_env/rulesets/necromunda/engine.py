"""The decision loop (DESIGN.md section 4): apply one decision, then run everything
that is not a player's choice until the next decision point.

``step(s, st, b, lay, a, mask)`` assumes ``a`` is legal (the mask said so);
``advance`` runs the automatic procedures and writes the next mask.
"""
import numpy as np
from ...core.jit import njit

from ...core.terrain import DOOR_CLOSED, DOOR_OPEN
from .actions import (
    carried_casket, carried_friend, carry_inches, charge_allowance, retreat_budget, spend, twin_sidearms, unwieldy,
)
from .codec import (
    A_AIM, A_BLIND_FIRE, A_BOTTLE, A_BYPASS_CASKET, A_CANNIBALISE, A_CARRY_CASKET, A_CARRY_FIGHTER, A_CHARGE,
    A_CONSOLIDATE, A_COUP, A_CRAWL, A_CRAWL_DUCT, A_END, A_FIGHT, A_FIRE_DUCT, A_FLEE, A_FORCE_DOOR, A_GROUP,
    A_MOVE, A_OPEN_DOOR, A_RELOAD, A_RETREAT, A_SHOOT, A_SHOOT_CELL, A_SHOOT_TWIN, A_SMASH_CASKET, A_STAND_UP,
    A_TAKE_COVER, A_TERMINAL, A_TURN, decode, A_GO_PRONE, A_DEMOLISH, A_RIDE_BY,
)
from .combat import close_combat_attacks, coup_de_grace, fight, reactions
from .constants import CH_INT, CH_S
from .dice import d3, d6, two_d6
from .events import (
    E_ACTION, E_ACTIVATE, E_CASKET, E_CHARGE, E_CONSOLIDATE, E_DOOR, E_DUCT, E_END_ACT, E_FORCE, E_GAME_END,
    E_HARD_TARGET, E_INIT, E_INTEL, E_REACTION, E_RETREAT, E_STAND, E_TURN, MK_CARRY, MK_CHARGE, MK_CONSOLIDATE,
    MK_CRAWL, MK_MOVE, MK_MOVED, MK_RETREAT, MK_TAKE_COVER, emit,
)
from .group import begin_naming, clear_group, group_pending, name_member
from .legal import fill_mask, rel_to_global
from .movement import (
    MODE_CHARGE, MODE_NORMAL, edge_hazards, facing_towards, has_levels, move_levels, normalize_engagement, path_stop,
    place, reach,
)
from .nerve import queue_pop
from .phases import (
    bottle_check, flee_tests, gang_at, needs_bottle_check, priority_phase, rally, recovery, voluntary_retreat,
)
from .query import clear_rays, engaged_with, gang_of, half_movement, initiative, is_engaged, movement
from .conditions import announce_start_conditions, can_react, charge_d3_allowed, end_of_round, quick_retreat, strength_penalty
from .running import hl_broken_activation, run_for_cover
from .condition_effects import activation_effects, activation_over, blaze_finish, cannibalise, mounted_stand_up
from .templates import graviton_end_phase, smoke_end_phase
from .demolitions import demolish
from .ride_by import ride_by, ride_by_finish
from .shooting import blast_profile, face_target, fire_through_ductway, shoot, shoot_cell, shoot_twin
from .state import (
    CK_STATE, CK_X, CK_Y, DK_ACTION, DK_BOTTLE, DK_FLEE, DK_FOLLOWUP, DK_NONE, DK_SELECT, DR_STATE, END_BOTTLE,
    END_DONE, END_FLEE, END_RALLY, END_RECOVERY, FI_ACTS, FI_AIMED, FI_BASIC, FI_BROKEN, FI_CH,
    FI_FACING, FI_FREE, FI_POSTURE, FI_READY, FI_STATE, FI_TURN, FI_X, FI_Y, FI_Z, FS_ON, G_ACTIVE, G_DGANG, G_DK,
    G_DONE, G_ENDGANG, G_ENDSTEP, G_EVN, G_EVOVF, G_FU, G_FUM0, G_FUM1, G_MF, G_NDEC, G_NGANGS, G_PHASE, G_QN,
    G_ROUND, G_ROUND_LIMIT, G_TRUNC, G_TURN, G_WINNER, GG_BOTTLE_ASKED, GG_BOTTLED, GG_FLEE_ASKED, GG_OUT,
    GG_RETREATED, GG_VOLBOTTLE, PH_ACTION, PH_END, PH_OVER, PH_PRIORITY, PO_PINNED, PO_SI, PO_STANDING,
    DK_CHARGE_FIGHT, DK_GROUP, FI_CTRL, FI_HL, G_CHF, G_CHFM, G_GGANG, G_GNAME, G_GROUP, HL_HARD, HL_MOVED, HL_NERVE,
    DK_BLAZE_PRONE, DK_RIDE_BY, G_BLZ, G_RB,
)
from .variant import clear_lost_hard_targets, house_legacy
from .weapons import reload

CASKET_CLOSED = 1
CASKET_OPEN = 2

END_REASON_ONE_LEFT = 0
END_REASON_ROUND_LIMIT = 1


# ------------------------------------------------------------------ game end
@njit(cache=True)
def in_battle(s, b, g):
    """A gang is still fighting while it has a fighter on the battlefield that is not
    Prone and Seriously Injured and it has not retreated (docs/rules.md, scenario)."""
    if s.gang[b, g, GG_RETREATED]:
        return False
    mf = s.g[b, G_MF]
    for i in range(mf):
        f = g * mf + i
        if s.fi[b, f, FI_STATE] == FS_ON and s.fi[b, f, FI_POSTURE] != PO_SI:
            return True
    return False


@njit(cache=True)
def check_end(s, b):
    ng = s.g[b, G_NGANGS]
    alive = 0
    last = -1
    for g in range(ng):
        if in_battle(s, b, g):
            alive += 1
            last = g
        else:
            s.gang[b, g, GG_OUT] = 1
    if alive <= 1:
        s.g[b, G_DONE] = 1
        s.g[b, G_WINNER] = last
        s.g[b, G_PHASE] = PH_OVER
        s.g[b, G_ACTIVE] = -1
        emit(s, b, E_GAME_END, last, -1, END_REASON_ONE_LEFT, 0, 0, 0, 0)
        return True
    return False


# ------------------------------------------------------------------ activations
@njit(cache=True)
def start_activation(s, b, f):
    s.fi[b, f, FI_READY] = 0
    s.fi[b, f, FI_ACTS] = 2
    s.fi[b, f, FI_BASIC] = 0
    s.fi[b, f, FI_FREE] = 0
    s.fi[b, f, FI_AIMED] = 0
    s.fi[b, f, FI_TURN] = 1 if s.fi[b, f, FI_POSTURE] == PO_STANDING else 0
    s.g[b, G_ACTIVE] = f
    if house_legacy(s, b):
        # a Hard Target loses the condition when it activates (4.5); Nerve tests are limited to
        # one per fighter per turn, a turn being one fighter's activation (10.4)
        s.fi[b, f, FI_HL] &= ~(HL_HARD | HL_MOVED)
        for o in range(s.fi.shape[1]):
            s.fi[b, o, FI_HL] &= ~HL_NERVE
    emit(s, b, E_ACTIVATE, f, -1, s.g[b, G_ROUND], 0, 0, 0, 0)


@njit(cache=True)
def end_activation(s, b):
    f = s.g[b, G_ACTIVE]
    if f >= 0:
        s.fi[b, f, FI_ACTS] = 0
        s.fi[b, f, FI_TURN] = 0
        emit(s, b, E_END_ACT, f, -1, 0, 0, 0, 0, 0)
        activation_over(s, b, f)  # Insane: control ends, Willpower test (4.3)
    s.g[b, G_ACTIVE] = -1
    if s.g[b, G_GGANG] < 0:
        # while a group activation is in progress the turn stays with its gang (2.4)
        s.g[b, G_TURN] = (s.g[b, G_TURN] + 1) % s.g[b, G_NGANGS]


@njit(cache=True)
def gang_has_ready(s, b, g):
    mf = s.g[b, G_MF]
    for i in range(mf):
        f = g * mf + i
        if s.fi[b, f, FI_STATE] == FS_ON and s.fi[b, f, FI_READY]:
            return True
    return False


@njit(cache=True)
def next_gang(s, b):
    ng = s.g[b, G_NGANGS]
    for i in range(ng):
        pos = (s.g[b, G_TURN] + i) % ng
        g = gang_at(s, b, pos)
        # a gang out of the battle (2.6, e.g. only Seriously Injured fighters left in a free-for-all)
        # no longer activates
        if not s.gang[b, g, GG_OUT] and gang_has_ready(s, b, g):
            s.g[b, G_TURN] = pos
            return g
    return -1


# ------------------------------------------------------------------ action resolution
@njit(cache=True)
def do_move(s, st, b, f, cell, budget, kind):
    h, w = st.terrain.shape
    n = h * w
    dist = np.empty(n, np.int32)
    prev = np.empty(n, np.int32)
    endable = np.empty(n, np.bool_)
    if has_levels(st):
        return move_levels(s, st, b, f, cell, budget, kind)  # climbing, jumping, leaping (6.4-6.6)
    reach(s, st, b, f, budget, MODE_NORMAL, -1, dist, prev, endable)
    start = s.fi[b, f, FI_Y] * w + s.fi[b, f, FI_X]
    if cell != start:
        place(s, st, b, f, cell % w, cell // w, dist[cell], kind)
    return prev[cell]


@njit(cache=True)
def do_charge(s, st, b, f, t):
    """Charge (5.2, 6.2): M + D3, shortest path into base contact, else stop 1" away; then the free Fight."""
    h, w = st.terrain.shape
    n = h * w
    had_los = clear_rays(s, st, b, f, t, False) > 0
    hl = house_legacy(s, b)
    roll = d3(s, b) if (not hl and charge_d3_allowed(s, b, f)) else 0  # Gunked: no D3 (4.3)
    allowance = charge_allowance(s, st, b, f, roll)
    if hl and s.fi[b, f, FI_POSTURE] != PO_STANDING:
        s.fi[b, f, FI_POSTURE] = PO_STANDING  # [HL] a Prone and Pinned fighter may charge: it gets up to run
        emit(s, b, E_STAND, f, -1, s.fi[b, f, FI_FACING], 1, 0, 0, 0)
    dist = np.empty(n, np.int32)
    prev = np.empty(n, np.int32)
    endable = np.empty(n, np.bool_)
    reach(s, st, b, f, 2 * max(allowance, charge_allowance(s, st, b, f, 3)), MODE_CHARGE, t, dist, prev, endable)
    start = s.fi[b, f, FI_Y] * w + s.fi[b, f, FI_X]
    tx = s.fi[b, t, FI_X]
    ty = s.fi[b, t, FI_Y]
    goal = -1
    if max(abs(tx - s.fi[b, f, FI_X]), abs(ty - s.fi[b, f, FI_Y])) == 1 and s.fi[b, t, FI_Z] == s.fi[b, f, FI_Z]:
        goal = start
    else:
        bd = 1 << 29
        for c in range(n):
            if endable[c] and max(abs(c % w - tx), abs(c // w - ty)) == 1 and dist[c] < bd:
                bd = dist[c]
                goal = c
    reached = False
    if goal == start:
        reached = True
    elif goal >= 0:
        if dist[goal] <= 2 * allowance:
            place(s, st, b, f, goal % w, goal // w, dist[goal], MK_CHARGE)
            reached = True
        else:
            stop = path_stop(prev, start, goal, dist, 2 * allowance, endable)
            # the stop cell must not be a contact cell (contact is only reachable in full)
            if stop != start:
                place(s, st, b, f, stop % w, stop // w, dist[stop], MK_CHARGE)
    emit(s, b, E_CHARGE, f, t, roll, allowance, 1 if reached else 0, 0, 0)
    if reached:
        s.fi[b, f, FI_FACING] = facing_towards(tx - s.fi[b, f, FI_X], ty - s.fi[b, f, FI_Y])
    normalize_engagement(s, b)
    s.fi[b, f, FI_TURN] = 0
    if s.fi[b, f, FI_STATE] != FS_ON:
        return
    if is_engaged(s, b, f):
        if hl:
            # [HL] the free Fight after a charge is optional: the player decides (DK_CHARGE_FIGHT)
            s.g[b, G_CHF] = f
            s.g[b, G_CHFM] = 0 if had_los else -1
            return
        target = t if engaged_with(s, b, f, t) else -1
        if target < 0:
            for e in range(s.fi.shape[1]):
                if engaged_with(s, b, f, e):
                    target = e
                    break
        start_fight(s, st, b, f, target, True, 0 if had_los else -1)
    elif reached and s.fi[b, t, FI_POSTURE] == PO_SI:
        coup_de_grace(s, b, f, t)


@njit(cache=True)
def start_fight(s, st, b, f, t, charging, mod):
    """A Fight (free after a charge, or Basic): attacks, reactions, then the follow-up decision."""
    nf = s.fi.shape[1]
    eng = np.zeros(nf, np.bool_)
    m0 = 0
    m1 = 0
    for e in range(nf):
        if engaged_with(s, b, f, e):
            eng[e] = True
            if e < 31:
                m0 |= 1 << e
            else:
                m1 |= 1 << (e - 31)
    fight(s, st, b, f, t, charging, mod, eng)
    s.g[b, G_FU] = f
    s.g[b, G_FUM0] = m0
    s.g[b, G_FUM1] = m1


@njit(cache=True)
def do_retreat(s, st, b, f, cell):
    """Retreat (5.2): Initiative test; engaged enemies that pass an Initiative test make reaction
    attacks first; on a pass the retreater then moves up to D6" towards the chosen cell.
    House Legacy (5.3): pass = move up to M, unharmed; fail = every enemy in base contact makes
    reaction attacks and the retreater stays."""
    w = st.terrain.shape[1]
    r = d6(s, b)
    need = initiative(s, st, b, f) - quick_retreat(s, b, f)  # Mounted: +2 (4.3)
    passed = r >= need
    emit(s, b, E_INIT, f, -1, r, need, 1 if passed else 0, 4, 0)
    if house_legacy(s, b):
        hl_retreat(s, st, b, f, cell, passed)
        return
    for e in range(s.fi.shape[1]):
        if s.fi[b, f, FI_STATE] != FS_ON or s.fi[b, f, FI_POSTURE] != PO_STANDING:
            break
        if engaged_with(s, b, e, f) and can_react(s, b, e):
            re = d6(s, b)
            ne = initiative(s, st, b, e)
            ok = re >= ne
            emit(s, b, E_INIT, e, f, re, ne, 1 if ok else 0, 5, 0)
            if ok:
                emit(s, b, E_REACTION, e, f, 0, 0, 0, 0, 0)
                close_combat_attacks(s, st, b, e, f, False, True, 0)
    if not passed or s.fi[b, f, FI_STATE] != FS_ON or s.fi[b, f, FI_POSTURE] != PO_STANDING:
        return
    allowance = d6(s, b)
    emit(s, b, E_RETREAT, f, -1, allowance, allowance, 0, 0, 0)
    dist, prev, endable = retreat_search(s, st, b, f)
    start = s.fi[b, f, FI_Y] * w + s.fi[b, f, FI_X]
    stop = path_stop(prev, start, cell, dist, 2 * allowance, endable)
    if stop != start:
        place(s, st, b, f, stop % w, stop // w, dist[stop], MK_RETREAT)
    s.fi[b, f, FI_TURN] = 1


@njit(cache=True)
def hl_retreat(s, st, b, f, cell, passed):
    w = st.terrain.shape[1]
    if not passed:
        reactions(s, st, b, f, -1)  # every enemy in base contact attacks (5.3)
        return
    allowance = movement(s, b, f)
    emit(s, b, E_RETREAT, f, -1, 0, allowance, 0, 0, 0)
    dist, prev, endable = retreat_search(s, st, b, f)
    start = s.fi[b, f, FI_Y] * w + s.fi[b, f, FI_X]
    if cell != start and endable[cell]:
        place(s, st, b, f, cell % w, cell // w, dist[cell], MK_RETREAT)
    s.fi[b, f, FI_TURN] = 1


@njit(cache=True, separate=False)  # linked into both Retreats, as the code it replaced was (core.separate)
def retreat_search(s, st, b, f):
    """(dist, prev, endable) of a normal-mode search at the Retreat budget, the search the mask's
    Retreat cells come from (legal.engaged_mask), so the move matches the mask."""
    n = st.terrain.shape[0] * st.terrain.shape[1]
    dist = np.empty(n, np.int32)
    prev = np.empty(n, np.int32)
    endable = np.empty(n, np.bool_)
    reach(s, st, b, f, retreat_budget(s, b, f), MODE_NORMAL, -1, dist, prev, endable)
    return dist, prev, endable


@njit(cache=True)
def set_door(s, b, d, f, state):
    s.door[b, d, DR_STATE] = state
    emit(s, b, E_DOOR, f, -1, d, state, 0, 0, 0)


@njit(cache=True)
def toggle_door(s, b, d, f):
    if s.door[b, d, DR_STATE] == DOOR_OPEN:
        set_door(s, b, d, f, DOOR_CLOSED)
    else:
        set_door(s, b, d, f, DOOR_OPEN)


@njit(cache=True)
def int_test(s, b, f, mod):
    r = two_d6(s, b)
    need = s.fi[b, f, FI_CH + CH_INT] - mod
    ok = r >= need
    emit(s, b, E_INTEL, f, -1, r, need, 1 if ok else 0, 0, 0)
    return ok


@njit(cache=True)
def hl_before_action(s, b, f, kind):
    """[HL] 5.3 Aim: its +1 applies only if the very next action is a Shoot. 4.5: only two Moves
    *in a row* make a Hard Target, so any other action breaks the sequence."""
    if kind != A_SHOOT and kind != A_SHOOT_TWIN:
        s.fi[b, f, FI_AIMED] = 0
    if kind != A_MOVE:
        s.fi[b, f, FI_HL] &= ~HL_MOVED


@njit(cache=True)
def hl_after_move(s, b, f):
    """[HL] 4.5: a second Move (Simple) in a row that does not end Engaged gives Hard Target."""
    if s.fi[b, f, FI_STATE] != FS_ON:
        return
    if (s.fi[b, f, FI_HL] & HL_MOVED) and not is_engaged(s, b, f) and s.fi[b, f, FI_POSTURE] == PO_STANDING:
        if (s.fi[b, f, FI_HL] & HL_HARD) == 0:
            emit(s, b, E_HARD_TARGET, f, -1, 0, 0, 0, 0, 0)
        s.fi[b, f, FI_HL] |= HL_HARD
    s.fi[b, f, FI_HL] |= HL_MOVED


@njit(cache=True)
def apply_action(s, st, b, lay, kind, p1, p2):
    """Resolve one decision of the active fighter (DK_ACTION): end the activation, the free turn
    (1.3), an attack with a weapon profile (its cost depends on the profile: Unwieldy, 12), or an
    action whose cost its kind alone sets."""
    f = s.g[b, G_ACTIVE]
    emit(s, b, E_ACTION, f, -1, kind, p1, p2, 0, 0)
    if kind == A_END:
        end_activation(s, b)
        return
    if kind == A_TURN:
        s.fi[b, f, FI_FACING] = p1
        s.fi[b, f, FI_TURN] = 0
        emit(s, b, E_TURN, f, -1, p1, 0, 0, 0, 0)
        return
    if house_legacy(s, b):
        hl_before_action(s, b, f, kind)
    if is_profile_shot(kind):
        resolve_shot(s, st, b, f, kind, p1, p2)
    else:
        spend(s, b, f, kind, False)
        keep_turn = False
        if is_move_action(kind):
            keep_turn = resolve_move(s, st, b, f, kind, p1)
        elif is_terrain_action(kind):
            resolve_terrain(s, st, b, f, kind, p1)
        else:
            resolve_combat(s, st, b, f, kind, p1)
        if s.fi[b, f, FI_STATE] == FS_ON:
            # the free turn (1.3) is left after a move that ends Standing; any other action spends it
            s.fi[b, f, FI_TURN] = 1 if (keep_turn and s.fi[b, f, FI_POSTURE] == PO_STANDING) else 0
    normalize_engagement(s, b)  # a knocked-back or moved fighter may end in contact (4.1)


@njit(cache=True)
def is_profile_shot(kind):
    """The actions that name a weapon profile, whose Unwieldy trait makes them Double (12)."""
    return kind == A_SHOOT or kind == A_FIRE_DUCT or kind == A_BLIND_FIRE or kind == A_SHOOT_CELL


@njit(cache=True)
def is_move_action(kind):
    return (kind == A_MOVE or kind == A_TAKE_COVER or kind == A_CRAWL or kind == A_CARRY_CASKET
            or kind == A_CARRY_FIGHTER or kind == A_CRAWL_DUCT or kind == A_RETREAT or kind == A_STAND_UP)


@njit(cache=True)
def is_terrain_action(kind):
    return (kind == A_OPEN_DOOR or kind == A_TERMINAL or kind == A_FORCE_DOOR or kind == A_DEMOLISH
            or kind == A_SMASH_CASKET or kind == A_BYPASS_CASKET)


@njit(cache=True, separate=False)  # linked into apply_action, as the code it replaced was (core.separate)
def resolve_shot(s, st, b, f, kind, p1, p2):
    """Shoot, Blind Fire (any arc, -2 to hit: 7.8), Fire Through a Ductway (5.2) at a fighter
    (p1 = item * 2 + profile, p2 = target), or a Blast / Smoke at a point (7.9: p1 = item, p2 = cell)."""
    if kind == A_SHOOT_CELL:
        w = st.terrain.shape[1]
        prof = blast_profile(s, st, b, f, p1)
        spend(s, b, f, kind, unwieldy(st, s.wp[b, f, p1, 0], prof))
        shoot_cell(s, st, b, f, p1, prof, p2 % w, p2 // w)
        return
    item = p1 // 2
    prof = p1 % 2
    t = rel_to_global(s, b, gang_of(s, b, f), p2)
    spend(s, b, f, kind, kind == A_SHOOT and unwieldy(st, s.wp[b, f, item, 0], prof))
    if kind == A_FIRE_DUCT:
        s.fi[b, f, FI_TURN] = 0
        fire_through_ductway(s, st, b, f, item, prof, t)
    else:
        blind = kind == A_BLIND_FIRE
        shoot(s, st, b, f, item, prof, t, blind, -2 if blind else 0)


@njit(cache=True, separate=False)  # linked into apply_action, as the code it replaced was (core.separate)
def resolve_move(s, st, b, f, kind, cell):
    """The moving actions (6.1-6.7, 5.2); returns whether the free turn (1.3) is left: after a
    Move, a Carry, a ductway crawl, a Retreat and standing up, not after Take Cover or a Crawl."""
    if kind == A_MOVE:
        do_move(s, st, b, f, cell, 2 * movement(s, b, f), MK_MOVE)
        if house_legacy(s, b):
            hl_after_move(s, b, f)
        return True
    if kind == A_TAKE_COVER:
        do_move(s, st, b, f, cell, 2 * half_movement(s, b, f), MK_TAKE_COVER)  # halved before Gunked's -1" (3.2)
        s.fi[b, f, FI_POSTURE] = PO_PINNED
        return False
    if kind == A_CRAWL:
        do_move(s, st, b, f, cell, 2 * half_movement(s, b, f), MK_CRAWL)  # halved before Gunked's -1" (3.2)
        return False
    if kind == A_CARRY_CASKET or kind == A_CARRY_FIGHTER:
        carry(s, st, b, f, kind == A_CARRY_FIGHTER, cell)
    elif kind == A_CRAWL_DUCT:
        crawl_duct(s, st, b, f, cell)
    elif kind == A_RETREAT:
        do_retreat(s, st, b, f, cell)
    elif not mounted_stand_up(s, st, b, f):  # Stand Up; Mounted: an Initiative test or it is wasted (4.3)
        return False
    else:
        s.fi[b, f, FI_POSTURE] = PO_STANDING
        emit(s, b, E_STAND, f, -1, s.fi[b, f, FI_FACING], 0, 0, 0, 0)
    return True


@njit(cache=True, separate=False)  # linked into apply_action, as the code it replaced was (core.separate)
def carry(s, st, b, f, friend, cell):
    """Carry a loot casket or ([HL] 5.3) a Seriously Injured friend: what is carried is chosen
    before the carrier moves, as in the mask, and is put down in the last cell the carrier left."""
    w = st.terrain.shape[1]
    k = carried_friend(s, st, b, f) if friend else carried_casket(s, st, b, f)
    pv = do_move(s, st, b, f, cell, 2 * carry_inches(s, b, f), MK_CARRY)
    if k < 0 or pv < 0:
        return
    if friend:
        place(s, st, b, k, pv % w, pv // w, 0, MK_MOVED)
    else:
        s.casket[b, k, CK_X] = pv % w
        s.casket[b, k, CK_Y] = pv // w
        emit(s, b, E_CASKET, f, -1, k, -1, pv, 0, 0)


@njit(cache=True, separate=False)  # linked into apply_action, as the code it replaced was (core.separate)
def crawl_duct(s, st, b, f, cell):
    """Crawl Through a Ductway (5.2): out at a cell near the far end, whatever its height."""
    w = st.terrain.shape[1]
    emit(s, b, E_DUCT, f, -1, s.fi[b, f, FI_Y] * w + s.fi[b, f, FI_X], cell, 0, 0, 0)
    s.fi[b, f, FI_X] = cell % w
    s.fi[b, f, FI_Y] = cell // w
    s.fi[b, f, FI_Z] = st.height[cell // w, cell % w]


@njit(cache=True, separate=False)  # linked into apply_action, as the code it replaced was (core.separate)
def resolve_terrain(s, st, b, f, kind, p1):
    """Doors (5.2: Operate Door, Access Terminal, Force Door; 12 Demolitions) and loot caskets
    (Smash Open, Bypass Lock); p1 is the door or the casket."""
    if kind == A_OPEN_DOOR:
        toggle_door(s, b, p1, f)
    elif kind == A_TERMINAL:
        if int_test(s, b, f, -2):
            toggle_door(s, b, p1, f)
    elif kind == A_FORCE_DOOR:
        force_door(s, st, b, f, p1)
    elif kind == A_DEMOLISH:
        demolish(s, st, b, f, p1)
    else:
        open_casket(s, b, f, p1, kind == A_SMASH_CASKET)


@njit(cache=True, separate=False)  # linked into apply_action, as the code it replaced was (core.separate)
def force_door(s, st, b, f, d):
    """Force Door (5.2): D6 + S, +2 for each friend next to the door, opens it on 9 or more."""
    me = gang_of(s, b, f)
    r = d6(s, b)
    helpers = 0
    for o in range(s.fi.shape[1]):
        if o != f and s.fi[b, o, FI_STATE] == FS_ON and gang_of(s, b, o) == me:
            if max(abs(s.fi[b, o, FI_X] - st.door_xy[d, 0]), abs(s.fi[b, o, FI_Y] - st.door_xy[d, 1])) == 1:
                helpers += 1
    total = r + s.fi[b, f, FI_CH + CH_S] - strength_penalty(s, b, f) + 2 * helpers  # Starving -1 S
    ok = total >= 9
    emit(s, b, E_FORCE, f, -1, r, total, 1 if ok else 0, 0, 0)
    if ok:
        set_door(s, b, d, f, DOOR_OPEN)


@njit(cache=True, separate=False)  # linked into apply_action, as the code it replaced was (core.separate)
def open_casket(s, b, f, k, smash):
    """Smash Open (D6 + S >= 6) or Bypass Lock (an Intelligence test) loot casket k."""
    if smash:
        r = d6(s, b)
        ok = r + s.fi[b, f, FI_CH + CH_S] - strength_penalty(s, b, f) >= 6  # Starving -1 S (4.3)
        emit(s, b, E_CASKET, f, -1, k, 1 if ok else 0, r, 6, 0)
    else:
        ok = int_test(s, b, f, 0)
        emit(s, b, E_CASKET, f, -1, k, 1 if ok else 0, 0, 0, 0)
    if ok:
        s.casket[b, k, CK_STATE] = CASKET_OPEN


@njit(cache=True, separate=False)  # linked into apply_action, as the code it replaced was (core.separate)
def resolve_combat(s, st, b, f, kind, p1):
    """Aim, Reload (7.6; Combi parts reload separately, 12) and the actions against an enemy
    (or, Cannibalise, any Seriously Injured fighter): p1 is the target, relative to f's gang."""
    if kind == A_AIM:
        s.fi[b, f, FI_AIMED] = 1
        return
    if kind == A_RELOAD:
        reload(s, st, b, f, p1)
        return
    t = rel_to_global(s, b, gang_of(s, b, f), p1)
    if kind == A_CHARGE:
        do_charge(s, st, b, f, t)
    elif kind == A_RIDE_BY:
        ride_by(s, st, b, f, t)  # then DK_RIDE_BY finishes the Move (4.3 Mounted)
    elif kind == A_SHOOT_TWIN:
        i1, q1, i2, q2 = twin_sidearms(s, st, b, f)
        shoot_twin(s, st, b, f, i1, q1, i2, q2, t)
    elif kind == A_FIGHT:
        if not is_engaged(s, b, f):
            face_target(s, b, f, t)  # a Versatile fight from Standing and Active: the free turn, if still allowed
        start_fight(s, st, b, f, t, False, 0)
    elif kind == A_COUP:
        coup_de_grace(s, b, f, t)
    elif kind == A_CANNIBALISE:
        cannibalise(s, b, f, t)


@njit(cache=True)
def apply_followup(s, st, b, kind, p1):
    f = s.g[b, G_FU]
    me = gang_of(s, b, f)
    w = st.terrain.shape[1]
    emit(s, b, E_ACTION, f, -1, kind, p1, 0, 1, 0)
    s.g[b, G_FU] = -1
    if kind == A_COUP:
        coup_de_grace(s, b, f, rel_to_global(s, b, me, p1))
    elif kind == A_CONSOLIDATE:
        ox = s.fi[b, f, FI_X]
        oy = s.fi[b, f, FI_Y]
        do_move(s, st, b, f, p1, 4, MK_CONSOLIDATE)
        emit(s, b, E_CONSOLIDATE, f, -1, oy * w + ox, p1, 0, 0, 0)
        normalize_engagement(s, b)
        if house_legacy(s, b) and s.fi[b, f, FI_STATE] == FS_ON and not is_engaged(s, b, f):
            # [HL] 4.5: Consolidate after a successful Fight, not ending Engaged, gives Hard Target
            s.fi[b, f, FI_HL] |= HL_HARD
            emit(s, b, E_HARD_TARGET, f, -1, 1, 0, 0, 0, 0)


@njit(cache=True)
def end_ride_by(s, st, b, kind, cell):
    """DK_RIDE_BY (4.3 Mounted): ``move`` on to ``cell`` or stay (``end``); like any Move, the
    rider may then turn."""
    f = s.g[b, G_RB] - 1
    if kind == A_MOVE:
        ride_by_finish(s, st, b, f, cell)
    s.g[b, G_RB] = 0
    if s.fi[b, f, FI_STATE] == FS_ON:
        s.fi[b, f, FI_TURN] = 1 if s.fi[b, f, FI_POSTURE] == PO_STANDING else 0
    normalize_engagement(s, b)


# ------------------------------------------------------------------ the loop
@njit(cache=True)
def active_can_continue(s, b):
    f = s.g[b, G_ACTIVE]
    if f < 0 or s.fi[b, f, FI_STATE] != FS_ON or s.fi[b, f, FI_BROKEN]:
        return False
    return s.fi[b, f, FI_ACTS] > 0 or s.fi[b, f, FI_TURN] == 1


@njit(cache=True)
def end_phase(s, st, b):
    """Runs the End phase steps; returns True when it stopped for a decision."""
    ng = s.g[b, G_NGANGS]
    while s.g[b, G_ENDSTEP] < END_DONE:
        step_ = s.g[b, G_ENDSTEP]
        if step_ == END_BOTTLE:
            while s.g[b, G_ENDGANG] < ng:
                g = gang_at(s, b, s.g[b, G_ENDGANG])
                if needs_bottle_check(s, b, g):
                    if not s.gang[b, g, GG_BOTTLE_ASKED]:
                        s.g[b, G_DK] = DK_BOTTLE
                        s.g[b, G_DGANG] = g
                        return True
                    bottle_check(s, b, g)
                s.g[b, G_ENDGANG] += 1
        elif step_ == END_FLEE:
            for pos in range(ng):
                g = gang_at(s, b, pos)
                if s.gang[b, g, GG_BOTTLED] and not s.gang[b, g, GG_OUT]:
                    flee_tests(s, b, g)
        elif step_ == END_RECOVERY:
            assisted = np.zeros(s.fi.shape[1], np.int64)
            for pos in range(ng):
                if not s.gang[b, gang_at(s, b, pos), GG_OUT]:
                    recovery(s, b, gang_at(s, b, pos), assisted)
        elif step_ == END_RALLY:
            for pos in range(ng):
                if not s.gang[b, gang_at(s, b, pos), GG_OUT]:
                    rally(s, b, gang_at(s, b, pos))
            smoke_end_phase(s, st, b)  # smoke clouds dissipate on 1-4 (12 Smoke)
            graviton_end_phase(s, b)  # Graviton Pulse markers are removed (12)
        # a fighter Broken during the End phase (Nerve test after a Recovery Out of Action)
        # runs for cover at once (10.1), before the Rally step
        while s.g[b, G_QN] > 0:
            fq = queue_pop(s, b)
            if s.fi[b, fq, FI_STATE] == FS_ON and s.fi[b, fq, FI_BROKEN]:
                run_for_cover(s, st, b, fq)
                normalize_engagement(s, b)
        s.g[b, G_ENDSTEP] = step_ + 1
        s.g[b, G_ENDGANG] = 0
        if check_end(s, b):
            return False
    for g in range(ng):
        s.gang[b, g, GG_BOTTLE_ASKED] = 0
        s.gang[b, g, GG_VOLBOTTLE] = 0
    end_of_round(s, st, b)  # Concussion ends (4.3)
    return False


# The decisions an earlier step can leave owed, in the order advance asks them: a burning
# fighter's go-Prone choice (4.3 Blaze), the end of a Ride By (4.3 Mounted), the follow-up of a
# Fight (8.1 step 8), [HL] the optional Fight after a charge (5.3), naming a group (2.4), and
# last the active fighter's next action. Each is skipped when its only option is to decline.
OWED = (DK_BLAZE_PRONE, DK_RIDE_BY, DK_FOLLOWUP, DK_CHARGE_FIGHT, DK_GROUP, DK_ACTION)


@njit(cache=True, separate=False)  # linked into advance, as the code it replaced was (core.separate)
def owed_fighter(s, b, dk):
    """The fighter whose player owes decision ``dk`` (one of OWED), or -1 when it is not owed."""
    if dk == DK_BLAZE_PRONE:
        return s.g[b, G_BLZ] - 1 if s.g[b, G_BLZ] > 0 else -1
    if dk == DK_RIDE_BY:
        return s.g[b, G_RB] - 1 if s.g[b, G_RB] > 0 else -1
    if dk == DK_FOLLOWUP:
        return s.g[b, G_FU] if s.g[b, G_FU] >= 0 else -1
    if dk == DK_CHARGE_FIGHT:
        return s.g[b, G_CHF] if s.g[b, G_CHF] >= 0 else -1
    if dk == DK_GROUP:
        return s.g[b, G_ACTIVE] if s.g[b, G_GNAME] else -1
    return s.g[b, G_ACTIVE] if s.g[b, G_ACTIVE] >= 0 else -1


@njit(cache=True, separate=False)  # linked into advance, as the code it replaced was (core.separate)
def decline(s, st, b, dk):
    """What declining owed decision ``dk`` does (its A_END), when the player has no other option."""
    if dk == DK_RIDE_BY:
        end_ride_by(s, st, b, A_END, 0)  # the rider stays at the pause cell
    elif dk == DK_FOLLOWUP:
        s.g[b, G_FU] = -1
    elif dk == DK_CHARGE_FIGHT:
        s.g[b, G_CHF] = -1
    elif dk == DK_GROUP:
        s.g[b, G_GNAME] = 0
    elif dk == DK_ACTION:
        end_activation(s, b)


@njit(cache=True, separate=False)  # linked into advance, as the code it replaced was (core.separate)
def ask(s, st, b, lay, mask, dk, g):
    """Gang g must make decision dk: write its mask; returns the number of legal actions."""
    s.g[b, G_DK] = dk
    s.g[b, G_DGANG] = g
    return fill_mask(s, st, b, lay, mask)


AGAIN = -1  # action_phase / ask_owed: no decision yet, run the next piece of automatic work
NOT_OWED = -2  # ask_owed: no decision is owed


@njit(cache=True, separate=False)  # linked into advance, as the code it replaced was (core.separate)
def ask_owed(s, st, b, lay, mask):
    """The first owed decision (OWED): ask it when it has more than one option and return its number
    of legal actions, else decline it and return AGAIN; NOT_OWED when none is owed."""
    for dk in OWED:
        f = owed_fighter(s, b, dk)
        if f < 0:
            continue
        # the active fighter with no action left (or Broken, or out) ends its activation unasked
        if dk != DK_ACTION or active_can_continue(s, b):
            n = ask(s, st, b, lay, mask, dk, gang_of(s, b, f))
            if n > 1:
                return n
        decline(s, st, b, dk)
        return AGAIN
    return NOT_OWED


@njit(cache=True, separate=False)  # linked into advance, as the code it replaced was (core.separate)
def gang_to_flee(s, b):
    """A bottled gang not yet asked whether it flees the battle this round (11.2), or -1."""
    for pos in range(s.g[b, G_NGANGS]):
        g = gang_at(s, b, pos)
        if (s.gang[b, g, GG_BOTTLED] and not s.gang[b, g, GG_OUT] and not s.gang[b, g, GG_RETREATED]
                and not s.gang[b, g, GG_FLEE_ASKED]):
            return g
    return -1


@njit(cache=True, separate=False)  # linked into advance, as the code it replaced was (core.separate)
def next_activation(s, st, b, lay, mask):
    """Ask for the next fighter to activate: a named member of the group activation in progress
    (2.4), else a Ready fighter of the next gang in turn. With none left, start the End phase and
    return AGAIN; else the number of legal actions."""
    if s.g[b, G_GGANG] >= 0:
        if group_pending(s, b) != 0:
            return ask(s, st, b, lay, mask, DK_SELECT, s.g[b, G_GGANG])
        clear_group(s, b)
        s.g[b, G_TURN] = (s.g[b, G_TURN] + 1) % s.g[b, G_NGANGS]
    g = next_gang(s, b)
    if g >= 0:
        return ask(s, st, b, lay, mask, DK_SELECT, g)
    for o in range(s.fi.shape[1]):
        s.fi[b, o, FI_HL] &= ~HL_NERVE  # [HL] the End phase is a new "turn" for Nerve tests
    s.g[b, G_PHASE] = PH_END
    s.g[b, G_ENDSTEP] = END_BOTTLE
    s.g[b, G_ENDGANG] = 0
    return AGAIN


@njit(cache=True, separate=False)  # linked into advance, as the code it replaced was (core.separate)
def action_phase(s, st, b, lay, mask):
    """One piece of the Action phase's automatic work, in the order the rules nest them: a queued
    fighter Runs for Cover, the game may end, an owed decision, a bottled gang's flee choice, the
    next activation. Returns the number of legal actions when a player must decide, else AGAIN."""
    if s.g[b, G_QN] > 0:
        f = queue_pop(s, b)
        if s.fi[b, f, FI_STATE] == FS_ON and s.fi[b, f, FI_BROKEN]:
            run_for_cover(s, st, b, f)
            normalize_engagement(s, b)
        return AGAIN
    if check_end(s, b):
        return AGAIN
    n = ask_owed(s, st, b, lay, mask)
    if n != NOT_OWED:
        return n
    g = gang_to_flee(s, b)
    if g >= 0:
        return ask(s, st, b, lay, mask, DK_FLEE, g)
    return next_activation(s, st, b, lay, mask)


@njit(cache=True, separate=False)  # linked into advance, as the code it replaced was (core.separate)
def end_of_round_or_game(s, b):
    """After the End phase: the round limit ends the game as a draw (2.6), else the next round's
    Priority phase."""
    if s.g[b, G_ROUND] >= s.g[b, G_ROUND_LIMIT]:
        s.g[b, G_DONE] = 1
        s.g[b, G_TRUNC] = 1
        s.g[b, G_WINNER] = -1
        s.g[b, G_PHASE] = PH_OVER
        emit(s, b, E_GAME_END, -1, -1, END_REASON_ROUND_LIMIT, 0, 0, 0, 0)
    else:
        s.g[b, G_PHASE] = PH_PRIORITY


@njit(cache=True)
def advance(s, st, b, lay, mask):
    """Run automatic procedures until a player must decide; write the mask. Returns the
    number of legal actions (0 when the game is over). Each pass does one piece of work and then
    looks again at the phase, since any piece may end the game."""
    while True:
        if s.g[b, G_DONE]:
            s.g[b, G_DK] = DK_NONE
            return fill_mask(s, st, b, lay, mask)
        ph = s.g[b, G_PHASE]
        if ph == PH_PRIORITY:
            clear_group(s, b)
            priority_phase(s, b)
            s.g[b, G_PHASE] = PH_ACTION
            s.g[b, G_TURN] = 0
            s.g[b, G_ACTIVE] = -1
        elif ph == PH_ACTION:
            n = action_phase(s, st, b, lay, mask)
            if n != AGAIN:
                return n
        elif ph == PH_END:
            if end_phase(s, st, b):
                return fill_mask(s, st, b, lay, mask)
            if not s.g[b, G_DONE]:
                end_of_round_or_game(s, b)
        else:
            return 0


@njit(cache=True)
def step(s, st, b, lay, a, mask):
    """Apply legal action ``a`` for game b and advance to the next decision.
    Clears the event buffer first; returns the number of legal next actions."""
    s.g[b, G_EVN] = 0
    s.g[b, G_EVOVF] = 0
    s.g[b, G_NDEC] += 1
    kind, p1, p2 = decode(lay, s.fi.shape[1], a)
    dk = s.g[b, G_DK]
    levels = has_levels(st)  # the falling hazard (6.7) exists only on boards with levels
    was_standing = standing_fighters(s, b, levels)
    resolve_decision(s, st, b, lay, dk, kind, p1, p2)
    if levels:
        # falling hazard (6.7): Take Cover never causes a fall (docs/rules.md)
        edge_hazards(s, st, b, was_standing, s.g[b, G_ACTIVE] if (dk == DK_ACTION and kind == A_TAKE_COVER) else -1)
    if house_legacy(s, b):
        clear_lost_hard_targets(s, b)
    return advance(s, st, b, lay, mask)


@njit(cache=True, separate=False)  # linked into step, as the code it replaced was (core.separate)
def standing_fighters(s, b, levels):
    """Which fighters stand on the battlefield before a decision (the falling hazard, 6.7, looks
    at who was standing); an empty array on a board without levels, where nobody falls."""
    nf = s.fi.shape[1]
    was_standing = np.zeros(nf if levels else 0, np.bool_)
    for f in range(was_standing.shape[0]):
        was_standing[f] = s.fi[b, f, FI_STATE] == FS_ON and s.fi[b, f, FI_POSTURE] == PO_STANDING
    return was_standing


@njit(cache=True, separate=False)  # linked into step, as the code it replaced was (core.separate)
def resolve_decision(s, st, b, lay, dk, kind, p1, p2):
    """Resolve the answer (kind, p1, p2) to decision ``dk`` (state.DK_*)."""
    if dk == DK_ACTION:
        apply_action(s, st, b, lay, kind, p1, p2)
    elif dk == DK_SELECT:
        select_fighter(s, st, b, p1)
    elif dk == DK_FOLLOWUP:
        apply_followup(s, st, b, kind, p1)
    elif dk == DK_GROUP:
        if kind == A_GROUP:
            name_member(s, b, p1)
        else:
            s.g[b, G_GNAME] = 0  # the group is complete
    elif dk == DK_CHARGE_FIGHT:
        charge_fight(s, st, b, kind, p1)
    elif dk == DK_RIDE_BY:
        emit(s, b, E_ACTION, s.g[b, G_RB] - 1, -1, kind, p1, 0, 3, 0)
        end_ride_by(s, st, b, kind, p1)
    elif dk == DK_BLAZE_PRONE:
        blaze_finish(s, st, b, kind == A_GO_PRONE)  # then the roll to put the fire out (4.3 Blaze)
        end_activation(s, b)
    elif dk == DK_BOTTLE:
        g = s.g[b, G_DGANG]
        s.gang[b, g, GG_BOTTLE_ASKED] = 1
        s.gang[b, g, GG_VOLBOTTLE] = 1 if kind == A_BOTTLE else 0
    elif dk == DK_FLEE:
        g = s.g[b, G_DGANG]
        s.gang[b, g, GG_FLEE_ASKED] = 1
        if kind == A_FLEE:
            voluntary_retreat(s, st, b, g)


@njit(cache=True, separate=False)  # linked into step, as the code it replaced was (core.separate)
def select_fighter(s, st, b, slot):
    """DK_SELECT: the fighter in ``slot`` of the deciding gang activates (2.3). Conditions may take
    its activation (4.3: Blaze, an Insane fighter fleeing, a Starving fighter's compelled charge);
    a Broken fighter's activation is its Running for Cover (10.2; House Legacy: Run for Cover or
    Retreat, then a Cool test to rally, 10.4); else it may name a group (2.4)."""
    f = s.g[b, G_DGANG] * s.g[b, G_MF] + slot
    if s.g[b, G_GGANG] >= 0:
        s.g[b, G_GROUP] &= ~(1 << slot)  # a group member takes its turn
    start_activation(s, b, f)
    if activation_effects(s, st, b, f):
        normalize_engagement(s, b)
        if s.g[b, G_BLZ] == 0:  # else the Blaze go-Prone decision comes first (DK_BLAZE_PRONE)
            end_activation(s, b)
    elif s.fi[b, f, FI_BROKEN]:
        if house_legacy(s, b):
            hl_broken_activation(s, st, b, f)
        else:
            run_for_cover(s, st, b, f)
        normalize_engagement(s, b)
        end_activation(s, b)
    elif s.fi[b, f, FI_CTRL] == 0:  # a fighter the opponent controls (Insane) leads no group
        begin_naming(s, b, f)


@njit(cache=True, separate=False)  # linked into step, as the code it replaced was (core.separate)
def charge_fight(s, st, b, kind, p1):
    """DK_CHARGE_FIGHT ([HL] 5.3): the charger takes its free Fight against p1, or declines."""
    f = s.g[b, G_CHF]
    s.g[b, G_CHF] = -1
    if kind == A_FIGHT:
        emit(s, b, E_ACTION, f, -1, kind, p1, 0, 2, 0)
        start_fight(s, st, b, f, rel_to_global(s, b, gang_of(s, b, f), p1), True, s.g[b, G_CHFM])


@njit(cache=True)
def begin(s, st, b, lay, mask):
    """Start a freshly set-up game: the first Priority phase and the first decision."""
    s.g[b, G_EVN] = 0
    s.g[b, G_PHASE] = PH_PRIORITY
    s.g[b, G_FU] = -1
    s.g[b, G_CHF] = -1
    s.g[b, G_ACTIVE] = -1
    clear_group(s, b)
    announce_start_conditions(s, b)  # conditions from before the battle (4.3)
    return advance(s, st, b, lay, mask)
