"""What conditions do when a fighter activates, and the hits they cause (rules 4.3).

- ``activation_effects(s, st, b, f)``: called by the engine right after a fighter is
  activated. Blind ends; a burning fighter takes its Blaze activation; an Insane fighter
  rolls (Broken / flees / controlled by the opponent / normal); a Starving fighter near a
  Seriously Injured fighter tests Willpower and may be compelled to charge and eat it.
  Returns True when the activation is already over.
- ``activation_over(s, b, f)``: called when an activation ends: the Insane 5-6 Willpower
  test, and the end of an opponent's control.
- ``cannibalise(s, b, f, t)``: the Cannibalise action (4.3 Starving).
- ``mounted_hit(s, st, b, att, t, minus1)``: "I get knocked down" instead of being pinned.
- ``blaze_direction`` / ``blaze_move``: the random 2D6" move of a burning fighter.
See conditions.py for the state and apply/clear functions.
"""
import math

import numpy as np
from ...core.jit import njit

from .actions import charge_allowance
from .damage import resolve_hit, take_out
from .dice import d3, d6, two_d6
from .events import (
    E_BLAZE_MOVE, E_BLAZE_PRONE, E_BROKEN, E_CANNIBALISE, E_COUP, E_EXTINGUISH, E_FLEE, E_INIT, E_INSANE, MK_CHARGE,
    MK_MOVED, emit,
)
from .conditions import (
    CAUSE_ACTIVATION, CAUSE_FED, WIL_INSANE, WIL_STARVING, charge_d3_allowed, clear_cond, has_cond,
    willpower_test,
)
from .movement import cell_free_endable, MODE_NORMAL, facing_towards, near_blocking_enemy, place, reach
from .query import cell_solid, gang_of, initiative, is_engaged, within_f
from .variant import house_legacy
from .state import (
    C_BLAZE, C_BLIND, C_INSANE, C_MOUNTED, C_STARVING, C_WIL_DUE, FI_COND, FI_BROKEN,
    FI_CTRL, FI_FACING, FI_MOVED, FI_POSTURE, FI_READY, FI_STATE, FI_X, FI_Y, FS_FLED, FS_ON, G_MF, G_NGANGS, G_BLZ,
    GG_OUT, GG_RETREATED, PO_PINNED, PO_SI, PO_STANDING,
)

OOA_CANNIBALISED = 5  # E_OOA reason (damage.py uses 0-4)

INSANE_BROKEN = 0
INSANE_FLEES = 1
INSANE_CONTROLLED = 2
INSANE_NORMAL = 3

INIT_MOUNTED = 7  # E_INIT reason: Mounted "I get knocked down" test
INIT_MOUNTED_STAND = 8  # E_INIT reason: Mounted fighter standing up
E_FLEE_INSANE = 4  # E_FLEE d: fled because Insane and already Broken

# "I get knocked down" hit by inches moved (rounded up): 0-5" S3 AP- D1; 6-9" S5 AP-1 D1; 10"+ S7 AP-2 D2
KD_S = (3, 5, 7)
KD_AP = (0, 1, 2)
KD_D = (1, 1, 2)


# ------------------------------------------------------------------ Blaze
@njit(cache=True)
def blaze_direction(s, b):
    """A random direction with the Scatter dice, as templates.scatter_roll reads them: the
    Scatter die's parity and a direction die give one of 12 angles at 30-degree steps
    (0 = north, clockwise). Returns the angle in degrees."""
    face = d6(s, b)
    dr = d6(s, b)
    return (dr - 1) * 60 + (30 if face % 2 == 0 else 0)


@njit(cache=True)
def blaze_cell_ok(s, st, b, f, x, y):
    """May a burning fighter's random move enter (x, y)? Not off the board, into a wall,
    closed door, obstacle, casket or another model, nor within 1" of an enemy (4.3)."""
    own = x == s.fi[b, f, FI_X] and y == s.fi[b, f, FI_Y]  # its own cell holds only itself
    if not own and not cell_free_endable(s, st, b, x, y):
        return False
    return not near_blocking_enemy(s, b, f, x, y)


@njit(cache=True)
def blaze_move(s, st, b, f):
    """Move 2D6" along a Scatter direction, cell by cell along the straight line (sampled every
    1/4"), stopping before the first cell it may not enter (docs/rules.md, 4.3 Blaze)."""
    w = st.terrain.shape[1]
    roll = two_d6(s, b)
    ang = blaze_direction(s, b)
    fx = s.fi[b, f, FI_X]
    fy = s.fi[b, f, FI_Y]
    a = ang * math.pi / 180.0
    ux = math.sin(a)
    uy = -math.cos(a)
    bx = fx
    by = fy
    for i in range(1, roll * 4 + 1):
        x = int(math.floor(fx + ux * i * 0.25 + 0.5))
        y = int(math.floor(fy + uy * i * 0.25 + 0.5))
        if x == bx and y == by:
            continue
        if not blaze_cell_ok(s, st, b, f, x, y):
            break
        if x != bx and y != by and (cell_solid(s, st, b, x, by) or cell_solid(s, st, b, bx, y)):
            break  # no squeezing diagonally between solid cells (6.1)
        bx = x
        by = y
    emit(s, b, E_BLAZE_MOVE, f, -1, fy * w + fx, by * w + bx, roll, ang, 0)
    if bx != fx or by != fy:
        cost = 2 * max(abs(bx - fx), abs(by - fy)) + min(abs(bx - fx), abs(by - fy))
        place(s, st, b, f, bx, by, cost, MK_MOVED)
        return True
    return False


@njit(cache=True)
def extinguish(s, st, b, f):
    """D6, +1 per other Active friendly fighter within 1", +2 if Prone; 6+ puts the fire out."""
    r = d6(s, b)
    total = r
    g = gang_of(s, b, f)
    for o in range(s.fi.shape[1]):
        if (o != f and s.fi[b, o, FI_STATE] == FS_ON and gang_of(s, b, o) == g
                and s.fi[b, o, FI_POSTURE] == PO_STANDING and not is_engaged(s, b, o)
                and within_f(s, b, f, o, 1.0)):
            total += 1
    if s.fi[b, f, FI_POSTURE] != PO_STANDING:
        total += 2
    out = total >= 6
    emit(s, b, E_EXTINGUISH, f, -1, r, total, 1 if out else 0, 0, 0)
    if out:
        clear_cond(s, b, f, C_BLAZE, -1, CAUSE_ACTIVATION)


@njit(cache=True)
def blaze_activation(s, st, b, f):
    """A burning fighter's activation (4.3): an automatic S3 AP-1 D1 hit; a Prone and Pinned
    fighter stands up; a Standing and Active one moves 2D6" at random, after which its player
    decides whether it goes Prone and Pinned: the engine stops for that decision (G_BLZ,
    DK_BLAZE_PRONE) and ``blaze_finish`` completes the activation. Otherwise the roll to put
    the fire out follows at once. The activation then ends."""
    resolve_hit(s, st, b, -1, f, 3, 1, 1, 0, 0, False, s.fi[b, f, FI_X], s.fi[b, f, FI_Y], False)
    if s.fi[b, f, FI_STATE] != FS_ON:
        return
    post = s.fi[b, f, FI_POSTURE]
    if post == PO_PINNED:
        s.fi[b, f, FI_POSTURE] = PO_STANDING
    elif post == PO_STANDING and not is_engaged(s, b, f):
        blaze_move(s, st, b, f)
        if s.fi[b, f, FI_STATE] == FS_ON and s.fi[b, f, FI_POSTURE] == PO_STANDING:
            s.g[b, G_BLZ] = f + 1  # "it may choose to go Prone and Pinned at the end of the move"
            return
    extinguish(s, st, b, f)


@njit(cache=True)
def blaze_finish(s, st, b, prone):
    """The decision after a burning fighter's random move (4.3 Blaze): go Prone and Pinned
    (``prone``) or stay Standing; then the roll to put the fire out (+2 if Prone)."""
    f = s.g[b, G_BLZ] - 1
    s.g[b, G_BLZ] = 0
    emit(s, b, E_BLAZE_PRONE, f, -1, 1 if prone else 0, 0, 0, 0, 0)
    if prone:
        s.fi[b, f, FI_POSTURE] = PO_PINNED
    extinguish(s, st, b, f)
    return f


# ------------------------------------------------------------------ Insane
@njit(cache=True)
def insane_controller(s, b, f):
    """The opponent controlling an Insane fighter: the other gang with two gangs; with more,
    the winner of a D6 roll-off among the other gangs still in the battle (ties re-rolled)."""
    ng = s.g[b, G_NGANGS]
    own = f // s.g[b, G_MF]
    best = -1
    if ng == 2:
        return 1 - own
    cand = np.zeros(ng, np.bool_)
    for g in range(ng):
        cand[g] = g != own and not s.gang[b, g, GG_OUT] and not s.gang[b, g, GG_RETREATED]
    while True:
        top = 0
        rolls = np.zeros(ng, np.int64)
        for g in range(ng):
            if cand[g]:
                rolls[g] = d6(s, b)
                if rolls[g] > top:
                    top = rolls[g]
        n = 0
        for g in range(ng):
            if cand[g] and rolls[g] == top:
                n += 1
                best = g
            else:
                cand[g] = False
        if n <= 1:
            break
    if best < 0:
        best = (own + 1) % ng
    return best


@njit(cache=True)
def insane_activation(s, st, b, f):
    """Insane (4.3): D6 on activation. Returns True if the activation is over (it fled)."""
    r = d6(s, b)
    if r <= 2:
        if s.fi[b, f, FI_BROKEN]:
            emit(s, b, E_INSANE, f, -1, r, INSANE_FLEES, -1, 0, 0)
            s.fi[b, f, FI_STATE] = FS_FLED
            s.fi[b, f, FI_READY] = 0
            emit(s, b, E_FLEE, f, -1, 0, 0, 1, E_FLEE_INSANE, 0)
            return True
        emit(s, b, E_INSANE, f, -1, r, INSANE_BROKEN, -1, 0, 0)
        s.fi[b, f, FI_BROKEN] = 1  # its activation is now its Running for Cover (10.2)
        emit(s, b, E_BROKEN, f, -1, 0, 0, 0, 0, 0)
        return False
    if r <= 4:
        c = insane_controller(s, b, f)
        s.fi[b, f, FI_CTRL] = c + 1
        emit(s, b, E_INSANE, f, -1, r, INSANE_CONTROLLED, c, 0, 0)
        return False
    emit(s, b, E_INSANE, f, -1, r, INSANE_NORMAL, -1, 0, 0)
    s.fi[b, f, FI_COND] |= C_WIL_DUE
    return False


# ------------------------------------------------------------------ Starving / Cannibalise
@njit(cache=True)
def cannibalise(s, b, f, t):
    """Cannibalise (4.3): a D66 on the Lasting Injury table for the Prone and Seriously Injured
    victim; Captured (55-56), Critical Injury (61-65) or Memorable Death (66) remove it as
    Out of Action, any other result leaves it (campaign effects are out of scope). The eater
    is no longer Starving."""
    emit(s, b, E_COUP, f, t, 1, 0, 0, 0, 0)  # a = 1: a Cannibalise in place of the Coup de Grace
    s.fi[b, f, FI_FACING] = facing_towards(s.fi[b, t, FI_X] - s.fi[b, f, FI_X], s.fi[b, t, FI_Y] - s.fi[b, f, FI_Y])
    tens = d6(s, b)
    units = d6(s, b)
    roll = tens * 10 + units
    removed = roll >= 55
    emit(s, b, E_CANNIBALISE, f, t, roll, 1 if removed else 0, 0, 0, 0)
    clear_cond(s, b, f, C_STARVING, t, CAUSE_FED)
    if removed:
        take_out(s, b, t, OOA_CANNIBALISED)


@njit(cache=True)
def max_charge(s, st, b, f):
    """Maximum charge range in inches, as the Charge action's (actions.charge_allowance): M + 3 (the
    best D3; none when Gunked), House Legacy 2 x M capped at 12" (5.3 [HL]), less armour penalties."""
    return charge_allowance(s, st, b, f, 3 if charge_d3_allowed(s, b, f) else 0)


@njit(cache=True)
def starving_prey(s, st, b, f):
    """The closest Prone and Seriously Injured fighter (friend or foe) within f's maximum
    charge range, -1 if none."""
    rng = max_charge(s, st, b, f)
    best = -1
    bd = 1 << 30
    for t in range(s.fi.shape[1]):
        if t == f or s.fi[b, t, FI_STATE] != FS_ON or s.fi[b, t, FI_POSTURE] != PO_SI:
            continue
        if not within_f(s, b, f, t, float(rng)):
            continue
        dx = s.fi[b, t, FI_X] - s.fi[b, f, FI_X]
        dy = s.fi[b, t, FI_Y] - s.fi[b, f, FI_Y]
        d2 = dx * dx + dy * dy
        if d2 < bd:
            bd = d2
            best = t
    return best


@njit(cache=True)
def starving_charge(s, st, b, f, t):
    """The compelled charge (4.3 Starving), with the Charge action's allowance (actions.charge_allowance):
    M + D3" (no D3 if Gunked), House Legacy 2 x M capped at 12" with no die (5.3 [HL]), by the cheapest
    path to a cell in base contact with the victim, then Cannibalise; if no contact cell can be reached,
    move to the reachable cell closest to it."""
    h, w = st.terrain.shape
    n = h * w
    roll = d3(s, b) if (not house_legacy(s, b) and charge_d3_allowed(s, b, f)) else 0  # as engine's Charge
    allowance = charge_allowance(s, st, b, f, roll)
    dist = np.empty(n, np.int32)
    prev = np.empty(n, np.int32)
    endable = np.empty(n, np.bool_)
    reach(s, st, b, f, 2 * allowance, MODE_NORMAL, -1, dist, prev, endable)
    fx = s.fi[b, f, FI_X]
    fy = s.fi[b, f, FI_Y]
    start = fy * w + fx
    tx = s.fi[b, t, FI_X]
    ty = s.fi[b, t, FI_Y]
    goal = -1
    if max(abs(tx - fx), abs(ty - fy)) == 1:
        goal = start
    else:
        bd = 1 << 29
        for c in range(n):
            if endable[c] and dist[c] <= 2 * allowance and max(abs(c % w - tx), abs(c // w - ty)) == 1:
                if dist[c] < bd:
                    bd = dist[c]
                    goal = c
    reached = goal >= 0
    if goal < 0:
        # as close as possible: the reachable cell nearest the victim (then the cheapest)
        goal = start
        bd2 = (tx - fx) * (tx - fx) + (ty - fy) * (ty - fy)
        bc = 0
        for c in range(n):
            if endable[c] and dist[c] <= 2 * allowance:
                d2 = (c % w - tx) * (c % w - tx) + (c // w - ty) * (c // w - ty)
                if d2 < bd2 or (d2 == bd2 and dist[c] < bc):
                    bd2 = d2
                    bc = dist[c]
                    goal = c
    if goal != start:
        place(s, st, b, f, goal % w, goal // w, dist[goal], MK_CHARGE)
    if reached:
        cannibalise(s, b, f, t)


@njit(cache=True)
def starving_activation(s, st, b, f):
    """A Starving fighter activated with a Prone and Seriously Injured fighter within its
    maximum charge range must pass a Willpower test or charge it and Cannibalise it (4.3).
    Only a fighter that could charge (Standing and Active, not Broken) is compelled.
    Returns True if the compelled charge took its activation."""
    if s.fi[b, f, FI_POSTURE] != PO_STANDING or s.fi[b, f, FI_BROKEN] or is_engaged(s, b, f):
        return False
    t = starving_prey(s, st, b, f)
    if t < 0:
        return False
    if willpower_test(s, b, f, WIL_STARVING):
        return False
    starving_charge(s, st, b, f, t)
    return True


# ------------------------------------------------------------------ activation hooks
@njit(cache=True)
def activation_effects(s, st, b, f):
    """Conditions acting when f is activated (4.3), in this order: Blind ends ("until its next
    activation"); Blaze (the whole activation); Insane roll; Starving compulsion.
    Returns True when the activation is already over."""
    s.fi[b, f, FI_MOVED] = 0
    if has_cond(s, b, f, C_BLIND):
        clear_cond(s, b, f, C_BLIND, -1, CAUSE_ACTIVATION)
    if has_cond(s, b, f, C_BLAZE):
        blaze_activation(s, st, b, f)
        return True
    if has_cond(s, b, f, C_INSANE):
        if insane_activation(s, st, b, f):
            return True
    if has_cond(s, b, f, C_STARVING) and s.fi[b, f, FI_STATE] == FS_ON:
        if starving_activation(s, st, b, f):
            return True
    return s.fi[b, f, FI_STATE] != FS_ON


@njit(cache=True)
def activation_over(s, b, f):
    """End of f's activation: an opponent's control ends; Insane 5-6: Willpower test, a pass
    removes the condition (4.3)."""
    s.fi[b, f, FI_CTRL] = 0
    if s.fi[b, f, FI_COND] & C_WIL_DUE:
        s.fi[b, f, FI_COND] &= ~C_WIL_DUE
        if s.fi[b, f, FI_STATE] == FS_ON and willpower_test(s, b, f, WIL_INSANE):
            clear_cond(s, b, f, C_INSANE, -1, CAUSE_ACTIVATION)


# ------------------------------------------------------------------ Mounted
@njit(cache=True)
def mounted_hit(s, st, b, att, t, minus1):
    """Mounted, "I get knocked down" (4.3): hit by a ranged attack, a Standing Mounted fighter is
    not pinned but tests Initiative (-1 against Blast or Knockback weapons: ``minus1``). A pass
    keeps it Standing; a failure knocks it down: an automatic hit by the inches it moved in its
    last (or current) activation, rounded up (0-5" S3 AP- D1, 6-9" S5 AP-1 D1, 10"+ S7 AP-2 D2),
    then it is Prone and Pinned. Returns True if it was knocked down."""
    if s.fi[b, t, FI_STATE] != FS_ON or s.fi[b, t, FI_POSTURE] != PO_STANDING or is_engaged(s, b, t):
        return False
    return mounted_knockdown(s, st, b, att, t, minus1)


@njit(cache=True)
def mounted_knockdown(s, st, b, att, t, minus1):
    """The "I get knocked down" Initiative test and its hit (``mounted_hit``), for a Standing
    Mounted fighter whether or not it is Engaged (a Ride By reaction hit: ride_by.py)."""
    r = d6(s, b)
    need = min(initiative(s, st, b, t) + (1 if minus1 else 0), 7)
    ok = r >= need and r > 1
    inches = (s.fi[b, t, FI_MOVED] + 1) // 2
    emit(s, b, E_INIT, t, att, r, need, 1 if ok else 0, INIT_MOUNTED, inches)
    if ok:
        return False
    k = 0 if inches <= 5 else (1 if inches <= 9 else 2)
    resolve_hit(s, st, b, -1, t, KD_S[k], KD_AP[k], KD_D[k], 0, 0, False,
                s.fi[b, t, FI_X], s.fi[b, t, FI_Y], False)
    if s.fi[b, t, FI_STATE] == FS_ON and s.fi[b, t, FI_POSTURE] == PO_STANDING:
        s.fi[b, t, FI_POSTURE] = PO_PINNED
    return True


@njit(cache=True)
def mounted_stand_up(s, st, b, f):
    """A Prone and Pinned Mounted fighter must pass an Initiative test to Stand Up; a failure
    wastes the action (4.3). Returns True if it may stand."""
    if not has_cond(s, b, f, C_MOUNTED):
        return True
    r = d6(s, b)
    need = initiative(s, st, b, f)
    ok = r >= need
    emit(s, b, E_INIT, f, -1, r, need, 1 if ok else 0, INIT_MOUNTED_STAND, 0)
    return ok
