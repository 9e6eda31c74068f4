"""Shooting (rules digest §5, cover from §9 and §12.6, the shooting rules of §10).

The engine writes each ranged weapon slot's target in ``W_TARGET`` (-1 none) and calls ``resolve``;
``can_target`` is the mask's test and ``resolve`` fires exactly the slots it accepts.

Who fires (§5.1, §12.5): a model of the unit fires a weapon at the slot's target when one of the
target's living models is within the weapon's range (§12.2 distance) and in its line of sight
(core.sight's walk; models do not block, §13 Q4; Indirect needs no sight). Every living model
carries every weapon of its unit (§14), so a slot fires ``models firing x Attacks`` dice. Which
models fire is fixed before any dice, so casualties of one weapon do not change who fires the next.

Targets (§5.1, §13.1): the engine offers one target per weapon slot for the whole unit, at most two
distinct targets in one activation (the documented subset §13.1 allows); ``resolve`` ignores slots
naming a third target. Weapons with Deadly are resolved first (§5.2); all the shooting of one
activation is one batch (§13 Q6): each unit hit makes one wound-effect roll at the end.

Hit modifiers (§10): Indirect -1 after an Advance (§13 Q22), Stealth -1 for a model more than 9" from
the target unit (all its models have Stealth: it is a unit rule), Unstoppable drops negative
modifiers; Reliable makes the Quality 2+; Relentless (unit) and Surge (weapon) add a hit per natural
6, Relentless only from models more than 9" away. Ranged Quality is ``U_RQUALITY`` (army rules, §14).

Cover (§9, §12.6, §13 Q21): a target model is in cover when its own cell is cover terrain, or the
sight line from the shooting unit's model closest to it crosses cover or sight-blocking cells; the
unit is in cover when strictly more than half of its living models are. Blast ignores cover;
Indirect ignores what sight-blocking cells give (the seed: «ignorując przy tym osłony zapewniane
przez elementy blokujące pole widzenia»), not cover terrain, where the digest's §12.6 drops both.

Board data: ``st`` is the engine's ``Static``; it is a trailing argument with a default because the
engine's contract named ``(s, b, unit)``. Without it (None) the board counts as open ground: every
line is clear and nothing gives cover.
"""
import numpy as np

from ...core.jit import njit
from ...core.sight import SF_BLOCKS, SF_COVER, SIGHT_BLOCKED, sight
from .attack import deliver, hit_rolls
from .combat_events import E_HITS
from .constants import (
    ACT_ADVANCE, R_INDIRECT, R_LIMITED, R_RELENTLESS, R_RELIABLE, R_STEALTH, R_SURGE, R_UNSTOPPABLE, TF_COVER, US_ON,
)
from .events import emit
from .grid import dist2, within
from .state import (
    M_ALIVE, M_X, M_Y, U_ACTION, U_RQUALITY, U_RULES, U_SIDE, U_STATE, W_AP, W_ATTACKS, W_BLAST, W_COUNT, W_DEADLY,
    W_ID, W_RANGE, W_RULES, W_TARGET, W_USED,
)
from .wounds import finish_batch, new_touched

FAR_IN = 9  # Stealth and Relentless: "more than 9" away" (§10)
MAX_TARGETS = 2  # §5.1


@njit(cache=True)
def line_flags(st, x0, y0, x1, y1):
    """core.sight's walk from a shooter's cell to a target's; 0 (clear, no flags) without board data."""
    if st is None:
        return 0
    return sight(st.sight, st.sight_rules, x0, y0, x1, y1)


@njit(cache=True)
def _xy(s, b, u, i):
    return np.int64(s.m[b, u, i, M_X]), np.int64(s.m[b, u, i, M_Y])


@njit(cache=True)
def model_fires(s, b, st, u, i, t, rng, indirect):
    """Does model i of unit u have a model of unit t within ``rng`` inches and (unless Indirect) in sight?
    Returns (fires, far): far when t's closest model is more than 9" away (Stealth, Relentless)."""
    x0, y0 = _xy(s, b, u, i)
    fires = False
    near = 1 << 30
    for j in range(s.m.shape[2]):
        if s.m[b, t, j, M_ALIVE] == 0:
            continue
        x1, y1 = _xy(s, b, t, j)
        near = min(near, dist2(x0, y0, x1, y1))
        if not fires and within(x0, y0, x1, y1, rng):
            fires = indirect or (line_flags(st, x0, y0, x1, y1) & SIGHT_BLOCKED) == 0
    return fires, near > (FAR_IN + 1) * (FAR_IN + 1)


@njit(cache=True)
def firing_models(s, b, st, u, k, t):
    """Models of unit u that fire weapon slot k at unit t: (near, far) counts (module docstring)."""
    indirect = (s.w[b, u, k, W_RULES] & R_INDIRECT) != 0
    rng = np.int64(s.w[b, u, k, W_RANGE])
    n_near = 0
    n_far = 0
    for i in range(s.m.shape[2]):
        if s.m[b, u, i, M_ALIVE]:
            fires, far = model_fires(s, b, st, u, i, t, rng, indirect)
            if fires:
                if far:
                    n_far += 1
                else:
                    n_near += 1
    return n_near, n_far


@njit(cache=True)
def slot_ready(s, b, unit, k):
    """A ranged weapon slot that can fire: a weapon, a range, carried, and not a spent Limited weapon."""
    if k < 0 or k >= s.w.shape[2] or s.w[b, unit, k, W_ID] < 0:
        return False
    if s.w[b, unit, k, W_RANGE] <= 0 or s.w[b, unit, k, W_COUNT] <= 0:
        return False
    return not (s.w[b, unit, k, W_RULES] & R_LIMITED and s.w[b, unit, k, W_USED])


@njit(cache=True)
def can_target(s, b, unit, weapon_slot, target_unit, st=None):
    """May ``unit`` fire ``weapon_slot`` at ``target_unit`` now: an enemy unit on the table with at least
    one model in range and sight of one of the unit's models (§5.1, §12.5)."""
    if s.u[b, unit, U_STATE] != US_ON or not slot_ready(s, b, unit, weapon_slot):
        return False
    t = target_unit
    if t < 0 or t >= s.u.shape[1] or s.u[b, t, U_STATE] != US_ON or s.u[b, t, U_SIDE] == s.u[b, unit, U_SIDE]:
        return False
    n_near, n_far = firing_models(s, b, st, unit, weapon_slot, t)
    return n_near + n_far > 0


@njit(cache=True)
def model_in_cover(s, b, st, u, t, j, indirect):
    """Is model j of target unit t in cover against unit u (§12.6)?"""
    if st is None:
        return False
    x1, y1 = _xy(s, b, t, j)
    if st.flags[y1, x1] & TF_COVER:
        return True
    best = -1
    best_d = 1 << 30
    for i in range(s.m.shape[2]):  # the shooting unit's model closest to this target model
        if s.m[b, u, i, M_ALIVE]:
            x0, y0 = _xy(s, b, u, i)
            d = dist2(x0, y0, x1, y1)
            if d < best_d:
                best, best_d = i, d
    if best < 0:
        return False
    x0, y0 = _xy(s, b, u, best)
    f = line_flags(st, x0, y0, x1, y1)
    bits = SF_COVER if indirect else SF_COVER | SF_BLOCKS
    return (f & bits) != 0


@njit(cache=True)
def unit_in_cover(s, b, st, u, t, indirect):
    """§9 / §13 Q21: strictly more than half of t's living models in cover."""
    n = 0
    inside = 0
    for j in range(s.m.shape[2]):
        if s.m[b, t, j, M_ALIVE]:
            n += 1
            if model_in_cover(s, b, st, u, t, j, indirect):
                inside += 1
    return 2 * inside > n


@njit(cache=True)
def _accepted(s, b, st, unit, fire_near, fire_far, cover):
    """Fills per slot the models firing (near / far) and the target's cover; returns the slots that fire."""
    t1 = -1
    t2 = -1
    n = 0
    for k in range(s.w.shape[2]):
        fire_near[k] = 0
        fire_far[k] = 0
        t = s.w[b, unit, k, W_TARGET]
        if t < 0 or not can_target(s, b, unit, k, t, st):
            continue
        if t != t1 and t != t2:
            if t1 < 0:
                t1 = t
            elif t2 < 0:
                t2 = t
            else:
                continue  # a third distinct target (§5.1)
        fire_near[k], fire_far[k] = firing_models(s, b, st, unit, k, t)
        cover[k] = 1 if unit_in_cover(s, b, st, unit, t, (s.w[b, unit, k, W_RULES] & R_INDIRECT) != 0) else 0
        n += 1
    return n


@njit(cache=True)
def _fire_slot(s, b, unit, k, n_near, n_far, cover, touched):
    """One weapon slot's hit rolls and their delivery. Its target still stands: a unit's last model only
    rolls for its wound effect when the whole batch is over (wounds.py)."""
    t = s.w[b, unit, k, W_TARGET]
    wr = s.w[b, unit, k, W_RULES]
    q = 2 if wr & R_RELIABLE else s.u[b, unit, U_RQUALITY]
    mod = -1 if (wr & R_INDIRECT and s.u[b, unit, U_ACTION] == ACT_ADVANCE) else 0
    stealth = 1 if s.u[b, t, U_RULES] & R_STEALTH else 0
    mod_far = mod - stealth
    if wr & R_UNSTOPPABLE:
        mod, mod_far = max(mod, 0), max(mod_far, 0)
    surge = 1 if wr & R_SURGE else 0
    relentless = 1 if s.u[b, unit, U_RULES] & R_RELENTLESS else 0
    attacks = np.int64(s.w[b, unit, k, W_ATTACKS])
    h1, six1 = hit_rolls(s, b, n_near * attacks, q, mod, False, surge)
    if n_near > 0:
        emit(s, b, E_HITS, unit, t, k, n_near * attacks, h1, q, mod)
    h2, six2 = hit_rolls(s, b, n_far * attacks, q, mod_far, False, surge + relentless)
    if n_far > 0:
        emit(s, b, E_HITS, unit, t, k, n_far * attacks, h2, q, mod_far)
    deliver(s, b, unit, k, t, h1 + h2, six1 + six2, np.int64(s.w[b, unit, k, W_AP]), wr,
            np.int64(s.w[b, unit, k, W_DEADLY]), np.int64(s.w[b, unit, k, W_BLAST]), cover, touched)
    if wr & R_LIMITED:
        s.w[b, unit, k, W_USED] = 1


@njit(cache=True)
def resolve(s, b, unit, st=None):
    """Fire the unit's weapon slots at their targets (module docstring), Deadly weapons first, remove
    casualties, make the wound-effect rolls, and clear the targets. Returns the slots that fired."""
    nw = s.w.shape[2]
    fire_near = np.zeros(nw, np.int64)
    fire_far = np.zeros(nw, np.int64)
    cover = np.zeros(nw, np.int64)
    fired = _accepted(s, b, st, unit, fire_near, fire_far, cover)
    touched = new_touched(s)
    for deadly_pass in (True, False):
        for k in range(nw):
            if fire_near[k] + fire_far[k] > 0 and (s.w[b, unit, k, W_DEADLY] > 0) == deadly_pass:
                _fire_slot(s, b, unit, k, fire_near[k], fire_far[k], cover[k], touched)
    finish_batch(s, b, touched, unit, 0)
    for k in range(nw):
        s.w[b, unit, k, W_TARGET] = -1
    return fired
