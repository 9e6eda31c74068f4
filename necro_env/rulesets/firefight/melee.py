"""Melee resolution (rules digest §6 steps 3-7, the melee rules of §10).

The engine makes the charge move and the defenders' close-in, then calls ``charge_attacks``, asks the
defender whether to strike back (``can_strike_back`` / ``strike_back``) and calls ``aftermath``.

Reach (§6 step 4, §12.7): a model attacks when a model of the other unit is within 2" horizontally
(§12.2 distance: centre distance at most 3 cells) and within 4" vertically (floor heights ``M_Z``,
the seed's «2" w poziomie i 4" w pionie»). Only the two units of the charge fight (§13 Q32). Every model
in reach attacks with every melee weapon of its unit: Quality test per Attack (``U_QUALITY``;
Reliable 2+), then Defense without cover (§6 step 4), wounds and wound effects as in shooting.

Order (§6): (3) Counter: the charged unit's Counter weapons strike first, before the charger, and do not
strike again in its strike-back (reading of «uderza jako pierwszy tą bronią»); a Counter strike alone
does not make the unit fatigued (§13.1 open question, our choice). (4) The charger: Deadly weapons,
then Impact(X): X dice per charging model in reach unless the charger is fatigued, one die fewer per
model of the charged unit with a Counter weapon (§13 Q17), each 2+ a hit (AP 0), then its other
weapons; Furious and Thrust apply (it charges). (5) The optional strike-back. Each of (3), (4), (5) is
one batch (§13 Q6) with one wound-effect roll per unit at its end, and the attacker's Fear(X) added
there (§10 Fear, §13 Q16). A charger made Shaken by a Counter strike still attacks but counts as
fatigued, as a Shaken defender strikes back (§7.2; §13.1 leaves it open).

Fatigue (§6 step 7, §13 Q12): a fatigued unit hits only on unmodified 6s in melee and rolls no Impact;
it is gained after the melee: ``strike_back`` marks the defender (U_STRUCK, U_FATIGUED) and
``aftermath`` the charger. A Shaken unit counts as fatigued (§7.2).

``aftermath`` returns what the engine moves next (§6 step 6):

- ``AM_ATTACKER_BACK`` (0): both stand; the charger must move back to 1" away (if possible); the
  charged unit does not move.
- ``AM_ATTACKER_FREE`` (1): the charged unit was destroyed; the charger may move up to 3".
- ``AM_DEFENDER_FREE`` (2): the charger was destroyed; the charged unit may move up to 3".
- ``AM_BOTH_DESTROYED`` (3): both units are gone; nobody moves.

The numbers are those the engine's seam.py already uses (AFTER_FALL_BACK 0, AFTER_ATTACKER_FREE 1,
AFTER_DEFENDER_FREE 2, AFTER_NONE 3).
"""
import numpy as np

from ...core.jit import njit
from .attack import deliver, hit_rolls
from .combat_events import E_COUNTER, E_FATIGUED, E_HITS, E_IMPACT
from .constants import (
    MELEE_REACH_IN, MELEE_REACH_Z, R_COUNTER, R_FURIOUS, R_RELIABLE, R_SURGE, R_THRUST, US_ON,
)
from .dice import d6, passes
from .events import emit
from .grid import within
from .state import (
    M_ALIVE, M_X, M_Y, M_Z, U_FATIGUED, U_FEAR, U_IMPACT, U_N, U_QUALITY, U_RULES, U_SHAKEN, U_STATE, U_STRUCK,
    W_AP, W_ATTACKS, W_BLAST, W_COUNT, W_DEADLY, W_ID, W_RANGE, W_RULES,
)
from .wounds import finish_batch, new_touched

AM_ATTACKER_BACK = 0
AM_ATTACKER_FREE = 1
AM_DEFENDER_FREE = 2
AM_BOTH_DESTROYED = 3
AFTERMATH_NAMES = ("attacker_falls_back", "attacker_may_move", "defender_may_move", "both_destroyed")

# which melee weapons strike
ALL = 0  # every melee weapon (the charger)
COUNTER_ONLY = 1  # the charged unit's Counter weapons, first (§6 step 3)
NO_COUNTER = 2  # the strike-back: the Counter weapons have already struck

IMPACT_NEED = 2  # §10 Impact: each 2+ is a hit
FATIGUE_CHARGED = 1
FATIGUE_STRUCK = 2


@njit(cache=True)
def model_in_reach(s, b, u, i, v):
    """Is model i of unit u within 2" horizontally and 4" vertically of a model of unit v (§6 step 4)?"""
    x0 = np.int64(s.m[b, u, i, M_X])
    y0 = np.int64(s.m[b, u, i, M_Y])
    z0 = np.int64(s.m[b, u, i, M_Z])
    for j in range(s.m.shape[2]):
        if s.m[b, v, j, M_ALIVE] and abs(np.int64(s.m[b, v, j, M_Z]) - z0) <= MELEE_REACH_Z and within(
                x0, y0, np.int64(s.m[b, v, j, M_X]), np.int64(s.m[b, v, j, M_Y]), MELEE_REACH_IN):
            return True
    return False


@njit(cache=True)
def models_in_reach(s, b, u, v):
    n = 0
    for i in range(s.m.shape[2]):
        if s.m[b, u, i, M_ALIVE] and model_in_reach(s, b, u, i, v):
            n += 1
    return n


@njit(cache=True)
def _melee_slot(s, b, u, k, which):
    if s.w[b, u, k, W_ID] < 0 or s.w[b, u, k, W_RANGE] != 0 or s.w[b, u, k, W_COUNT] <= 0:
        return False
    counter = (s.w[b, u, k, W_RULES] & R_COUNTER) != 0
    return which == ALL or (which == COUNTER_ONLY) == counter


@njit(cache=True)
def has_counter(s, b, u):
    for k in range(s.w.shape[2]):
        if _melee_slot(s, b, u, k, COUNTER_ONLY):
            return True
    return False


@njit(cache=True)
def _fatigued(s, b, u):
    return s.u[b, u, U_FATIGUED] != 0 or s.u[b, u, U_SHAKEN] != 0


@njit(cache=True)
def _strike_slot(s, b, u, v, k, n_reach, charging, six_only, touched):
    """Slot k of unit u strikes unit v (§6 step 4): hits, then ``attack.deliver`` without cover."""
    wr = s.w[b, u, k, W_RULES]
    thrust = 1 if charging and ((wr | s.u[b, u, U_RULES]) & R_THRUST) else 0
    q = 2 if wr & R_RELIABLE else s.u[b, u, U_QUALITY]
    extra = (1 if wr & R_SURGE else 0) + (1 if charging and s.u[b, u, U_RULES] & R_FURIOUS else 0)
    mod = thrust  # melee has no negative hit modifier (fatigue is not one), so Unstoppable changes nothing here
    dice = n_reach * np.int64(s.w[b, u, k, W_ATTACKS])
    hits, sixes = hit_rolls(s, b, dice, q, mod, six_only, extra)
    emit(s, b, E_HITS, u, v, k, dice, hits, 6 if six_only else q, mod)
    deliver(s, b, u, k, v, hits, sixes, np.int64(s.w[b, u, k, W_AP]) + thrust, wr,
            np.int64(s.w[b, u, k, W_DEADLY]), np.int64(s.w[b, u, k, W_BLAST]), 0, touched)


@njit(cache=True)
def _strikes(s, b, u, v, which, charging, six_only, deadly_pass, touched):
    """The melee weapons of u selected by ``which`` and with or without Deadly (``deadly_pass``) strike v."""
    n_reach = models_in_reach(s, b, u, v)
    for k in range(s.w.shape[2]):
        if s.u[b, v, U_STATE] != US_ON or n_reach == 0:
            return
        if _melee_slot(s, b, u, k, which) and (s.w[b, u, k, W_DEADLY] > 0) == deadly_pass:
            _strike_slot(s, b, u, v, k, n_reach, charging, six_only, touched)


@njit(cache=True)
def _impact(s, b, att, dfd, touched):
    """Impact(X) (§10): X dice per charging model in reach, minus one per Counter model of the charged unit."""
    x = np.int64(s.u[b, att, U_IMPACT])
    if x <= 0 or _fatigued(s, b, att) or s.u[b, dfd, U_STATE] != US_ON:
        return
    counter = np.int64(s.u[b, dfd, U_N]) if has_counter(s, b, dfd) else 0
    dice = max(x * models_in_reach(s, b, att, dfd) - counter, 0)
    hits = 0
    for _ in range(dice):
        if passes(d6(s, b), IMPACT_NEED, 0):
            hits += 1
    emit(s, b, E_IMPACT, att, dfd, dice, hits, min(counter, x * models_in_reach(s, b, att, dfd)), 0, 0)
    deliver(s, b, att, -1, dfd, hits, 0, 0, 0, 0, 0, 0, touched)


@njit(cache=True)
def _batch(s, b, u, v, which, charging, impact):
    """One attack step of unit u on unit v (module docstring): Deadly weapons, Impact, the rest."""
    if s.u[b, u, U_STATE] != US_ON or s.u[b, v, U_STATE] != US_ON:
        return
    touched = new_touched(s)
    six_only = _fatigued(s, b, u)
    _strikes(s, b, u, v, which, charging, six_only, True, touched)
    if impact:
        _impact(s, b, u, v, touched)
    _strikes(s, b, u, v, which, charging, six_only, False, touched)
    finish_batch(s, b, touched, u, np.int64(s.u[b, u, U_FEAR]))


@njit(cache=True)
def charge_attacks(s, b, attacker, defender):
    """§6 steps 3-4 after the charge move and the close-in: Counter first, then the charger's attacks."""
    if has_counter(s, b, defender) and models_in_reach(s, b, defender, attacker) > 0 \
            and s.u[b, defender, U_STATE] == US_ON:
        emit(s, b, E_COUNTER, defender, attacker, 0, 0, 0, 0, 0)
        _batch(s, b, defender, attacker, COUNTER_ONLY, False, False)
    _batch(s, b, attacker, defender, ALL, True, True)


@njit(cache=True)
def can_strike_back(s, b, defender, attacker):
    """May the charged unit strike back now (§6 step 5): both stand, and a model of it in reach has a melee
    weapon that has not struck already (Counter weapons struck first)."""
    if s.u[b, defender, U_STATE] != US_ON or s.u[b, attacker, U_STATE] != US_ON:
        return False
    for k in range(s.w.shape[2]):
        if _melee_slot(s, b, defender, k, NO_COUNTER):
            return models_in_reach(s, b, defender, attacker) > 0
    return False


@njit(cache=True)
def _fatigue(s, b, u, why):
    if s.u[b, u, U_STATE] == US_ON and s.u[b, u, U_FATIGUED] == 0:
        s.u[b, u, U_FATIGUED] = 1
        emit(s, b, E_FATIGUED, -1, u, why, 0, 0, 0, 0)


@njit(cache=True)
def strike_back(s, b, defender, attacker):
    """§6 step 5: the charged unit's models in reach attack; it is fatigued afterwards (§6 step 7)."""
    if not can_strike_back(s, b, defender, attacker):
        return
    _batch(s, b, defender, attacker, NO_COUNTER, False, False)
    s.u[b, defender, U_STRUCK] = 1
    _fatigue(s, b, defender, FATIGUE_STRUCK)


@njit(cache=True)
def aftermath(s, b, attacker, defender):
    """§6 steps 6-7: the charger becomes fatigued; returns the AM_* code (module docstring)."""
    _fatigue(s, b, attacker, FATIGUE_CHARGED)
    a_on = s.u[b, attacker, U_STATE] == US_ON
    d_on = s.u[b, defender, U_STATE] == US_ON
    if a_on and d_on:
        return AM_ATTACKER_BACK
    if a_on:
        return AM_ATTACKER_FREE
    if d_on:
        return AM_DEFENDER_FREE
    return AM_BOTH_DESTROYED
