"""Wounds, wound markers, the wound-effect roll and casualties (rules digest §7, §10 Tough/Regeneration).

An attack step is one *batch* (§13 Q6: all of a unit's shooting in an activation, the charger's
melee with its Impact hits, a Counter strike, a strike-back, one dangerous-terrain test, one fall).
Within a batch each wound is a *packet* on one model (``wound_packet``): an ordinary wound is a
packet of 1, a Deadly(X) wound a packet of X (§10 Deadly, §13 Q14). While a unit has more than one
model a packet kills one model and nothing carries over (§7.3); the last model keeps the packet as
wound markers. When the batch ends (``finish_batch``) every unit whose last model took markers in it
makes one wound-effect roll (§7.1): D6 + markers (+1 if Shaken, + the attacker's Fear(X) in melee);
Knocked Out on 5 + X or more with Tough(X) (6+ without), Shaken below; Tough(X) rolls only from X
markers on. Wound markers stay for the whole game (§13 Q7).

Which model a wound kills (§12.3 default, §13 Q5): the model farthest from the attacking unit whose
removal leaves the rest coherent (§4.1); if none does, the farthest; without an attacker (terrain,
falls) the last living model in slot order that keeps the rest coherent. ``touched`` is the batch's
scratch: one int64 per unit slot, bit 1 "took a wound", bit 2 "its last model took markers".
"""
import numpy as np

from ...core.jit import njit
from .combat_events import (
    E_DEFENSE, E_DEFENSE_REROLL, E_DESTROYED, E_REGENERATION, E_REMOVED, E_SHAKEN, E_WOUND_EFFECT, E_WOUNDS, RM_FALL,
    RM_KNOCKED_OUT, RM_ROUTED, RM_WOUND, SH_WOUND, WE_KNOCKED_OUT, WE_NO_ROLL, WE_SHAKEN,
)
from .constants import OPT_COHERENCY_CONNECTED, R_REGENERATION, US_DEAD, US_ON, US_ROUTED
from .dice import d6, passes
from .events import emit
from .grid import coherent_xy, dist2
from .state import (
    G_MU, G_OPTS, M_ALIVE, M_WOUNDS, M_X, M_Y, U_DEFENSE, U_N, U_RULES, U_SHAKEN, U_STATE, U_TOUGH, W_COUNT, W_ID,
)

TOOK_WOUND = 1
LAST_MARKED = 2
REGEN_NEED = 5  # Regeneration ignores a wound on 5+ (§10)


@njit(cache=True)
def new_touched(s):
    """The scratch of one batch (module docstring)."""
    return np.zeros(2 * s.g[0, G_MU], np.int64)


@njit(cache=True)
def last_model(s, b, u):
    """The slot of the unit's first living model (its only one when U_N is 1), -1 if none."""
    for i in range(s.m.shape[2]):
        if s.m[b, u, i, M_ALIVE]:
            return i
    return -1


@njit(cache=True)
def _far_from(s, b, u, i, attacker):
    """Squared distance from model i of unit u to the attacker's closest living model."""
    best = 1 << 30
    for j in range(s.m.shape[2]):
        if s.m[b, attacker, j, M_ALIVE]:
            d = dist2(np.int64(s.m[b, u, i, M_X]), np.int64(s.m[b, u, i, M_Y]),
                      np.int64(s.m[b, attacker, j, M_X]), np.int64(s.m[b, attacker, j, M_Y]))
            best = min(best, d)
    return best


@njit(cache=True)
def _coherent_without(s, b, u, skip):
    mm = s.m.shape[2]
    px = np.zeros(mm, np.int64)
    py = np.zeros(mm, np.int64)
    n = 0
    for i in range(mm):
        if s.m[b, u, i, M_ALIVE] and i != skip:
            px[n] = s.m[b, u, i, M_X]
            py[n] = s.m[b, u, i, M_Y]
            n += 1
    return coherent_xy(px, py, n, (s.g[b, G_OPTS] & OPT_COHERENCY_CONNECTED) != 0)


@njit(cache=True)
def pick_casualty(s, b, u, attacker):
    """The model a wound kills (module docstring, §12.3): farthest from the attacker among those whose
    removal keeps the unit coherent."""
    best, best_key, fallback, fallback_key = -1, -1, -1, -1
    for i in range(s.m.shape[2]):
        if s.m[b, u, i, M_ALIVE] == 0:
            continue
        key = _far_from(s, b, u, i, attacker) if attacker >= 0 else i
        if key >= fallback_key:
            fallback, fallback_key = i, key
        if key >= best_key and _coherent_without(s, b, u, i):
            best, best_key = i, key
    return best if best >= 0 else fallback


@njit(cache=True)
def remove_model(s, b, u, i, attacker, reason):
    """Take model i of unit u off the table; the unit is destroyed (routed for RM_ROUTED) with its last."""
    s.m[b, u, i, M_ALIVE] = 0
    n = s.u[b, u, U_N] - 1
    s.u[b, u, U_N] = n
    for k in range(s.w.shape[2]):
        if s.w[b, u, k, W_ID] >= 0 and s.w[b, u, k, W_COUNT] > n:
            s.w[b, u, k, W_COUNT] = n  # every living model carries the unit's weapons (§14)
    emit(s, b, E_REMOVED, attacker, u, i, reason, 0, 0, 0)
    if n == 0:
        s.u[b, u, U_STATE] = US_ROUTED if reason == RM_ROUTED else US_DEAD
        emit(s, b, E_DESTROYED, attacker, u, reason, 0, 0, 0, 0)


@njit(cache=True)
def wound_packet(s, b, u, k, attacker, touched):
    """k wounds on one model of unit u (module docstring): kills a model while more than one is left,
    else adds k markers to the last."""
    if k <= 0 or s.u[b, u, U_STATE] != US_ON:
        return
    touched[u] |= TOOK_WOUND
    if s.u[b, u, U_N] > 1:
        remove_model(s, b, u, pick_casualty(s, b, u, attacker), attacker, RM_WOUND)
        return
    i = last_model(s, b, u)
    s.m[b, u, i, M_WOUNDS] += k
    touched[u] |= LAST_MARKED


@njit(cache=True)
def regenerate(s, b, u, k, ignored):
    """Regeneration (§10): a unit whose models all have it ignores each wound on 5+; ``ignored`` when the
    weapon has Bane, Rending or Unstoppable. Returns the wounds left."""
    if k <= 0 or ignored or (s.u[b, u, U_RULES] & R_REGENERATION) == 0:
        return k
    saved = 0
    for _ in range(k):
        if d6(s, b) >= REGEN_NEED:
            saved += 1
    emit(s, b, E_REGENERATION, -1, u, k, saved, 0, 0, 0)
    return k - saved


@njit(cache=True)
def wound_effect(s, b, u, attacker, fear):
    """The last model's wound-effect roll (§7.1, §7.2, §10 Tough and Fear). Returns WE_*."""
    i = last_model(s, b, u)
    markers = np.int64(s.m[b, u, i, M_WOUNDS])
    tough = np.int64(s.u[b, u, U_TOUGH])
    need = 5 + max(tough, 1)
    if tough > 0 and markers < tough:
        emit(s, b, E_WOUND_EFFECT, attacker, u, 0, 0, markers, WE_NO_ROLL, need)
        return WE_NO_ROLL
    face = d6(s, b)
    total = face + markers + s.u[b, u, U_SHAKEN] + fear
    if total >= need:
        emit(s, b, E_WOUND_EFFECT, attacker, u, face, total, markers, WE_KNOCKED_OUT, need)
        remove_model(s, b, u, i, attacker, RM_KNOCKED_OUT)
        return WE_KNOCKED_OUT
    emit(s, b, E_WOUND_EFFECT, attacker, u, face, total, markers, WE_SHAKEN, need)
    make_shaken(s, b, u, SH_WOUND)
    return WE_SHAKEN


@njit(cache=True)
def make_shaken(s, b, u, cause):
    if s.u[b, u, U_SHAKEN] == 0:
        s.u[b, u, U_SHAKEN] = 1
        emit(s, b, E_SHAKEN, -1, u, cause, 0, 0, 0, 0)


@njit(cache=True)
def finish_batch(s, b, touched, attacker, fear):
    """End of a batch: one wound-effect roll per unit whose last model took markers (§7.1, §13 Q6).
    ``fear``: the attacker's Fear(X) in melee, 0 otherwise (only for a unit it wounded, §10 Fear)."""
    for u in range(touched.shape[0]):
        if touched[u] & LAST_MARKED and s.u[b, u, U_STATE] == US_ON:
            wound_effect(s, b, u, attacker, fear if touched[u] & TOOK_WOUND else 0)
        touched[u] = 0


@njit(cache=True)
def wounds_to(s, b, u, n, attacker, touched, regen_ignored):
    """n ordinary wounds (packets of 1) to unit u inside a batch, after Regeneration. Returns the wounds taken."""
    left = regenerate(s, b, u, n, regen_ignored)
    if n > 0:
        emit(s, b, E_WOUNDS, attacker, u, left, n - left, 0, 0, 0)
    for _ in range(left):
        wound_packet(s, b, u, 1, attacker, touched)
    return left


@njit(cache=True)
def apply_wounds(s, b, unit, n, ap_ignored):
    """n wounds from no attacker (dangerous terrain, falls of a last model after its Defense roll) as one
    batch. ``ap_ignored``: kept by the engine's call; these are wounds, past any Defense roll, so AP has
    nothing left to change. Returns the models removed (a Knocked Out last model counts)."""
    before = s.u[b, unit, U_N]
    touched = new_touched(s)
    wounds_to(s, b, unit, n, -1, touched, False)
    finish_batch(s, b, touched, -1, 0)
    return before - s.u[b, unit, U_N]


@njit(cache=True)
def defense_rolls(s, b, u, n, ap, cover, attacker, slot, bane):
    """n hits against unit u: one Defense roll each, need = Defense, modifier cover - AP (§5.2, natural
    6 blocks and natural 1 fails, §1). ``bane``: a natural 6 is re-rolled once, and the second roll
    stands even if it is a 6 again (§10 Bane; §13.1 leaves that open). Returns the hits not blocked."""
    need = s.u[b, u, U_DEFENSE]
    mod = cover - ap
    blocked = 0
    rerolled = 0
    for _ in range(n):
        face = d6(s, b)
        if bane and face == 6:
            rerolled += 1
            face = d6(s, b)
        if passes(face, need, mod):
            blocked += 1
    if rerolled > 0:
        emit(s, b, E_DEFENSE_REROLL, attacker, u, rerolled, 0, 0, 0, 0)
    if n > 0:
        emit(s, b, E_DEFENSE, attacker, u, slot, n, blocked, need, mod)
    return n - blocked


@njit(cache=True)
def take_hits(s, b, unit, n, ap, attacker):
    """n hits with AP(ap) and no special rule, no cover, as one batch (a fall's hit, a spell's hits).
    Returns the models removed."""
    if s.u[b, unit, U_STATE] != US_ON:
        return 0
    before = s.u[b, unit, U_N]
    touched = new_touched(s)
    wounds_to(s, b, unit, defense_rolls(s, b, unit, n, ap, 0, attacker, -1, False), attacker, touched, False)
    finish_batch(s, b, touched, attacker, 0)
    return before - s.u[b, unit, U_N]


@njit(cache=True)
def fall(s, b, unit, model, ap):
    """A fall of model ``model`` (§11.3): in a multi-model unit it dies outright; a last model takes
    1 hit with AP(ap). Returns the models removed."""
    if s.u[b, unit, U_STATE] != US_ON or s.m[b, unit, model, M_ALIVE] == 0:
        return 0
    if s.u[b, unit, U_N] > 1:
        remove_model(s, b, unit, model, -1, RM_FALL)
        return 1
    return take_hits(s, b, unit, 1, ap, -1)
