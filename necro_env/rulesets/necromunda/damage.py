"""Resolving hits (rules 9): wound roll, save, damage, Injury dice.

``resolve_hit`` takes one hit of an attack and applies everything that
follows from it, including Nerve tests for the casualty's friends.
"""
from numba import njit

from .constants import (
    AF_FRONT_SAVE, AF_SAVE, T_MELTA, T_POWER, T_RENDING, T_SCATTERSHOT, T_SHOCK, T_TOXIN,
)
from .dice import INJ_OOA, INJ_SERIOUS, d6, injury_die
from .events import (
    E_DAMAGE, E_FIELD, E_FLESH, E_INJURY, E_OOA, E_SAVE, E_SERIOUS, E_WOUND, emit,
)
from .nerve import nerve_tests
from .query import in_arc, toughness
from .state import (
    FI_ARMOUR, FI_BODYGLOVE, FI_FACING, FI_FIELD, FI_FLESH, FI_POSTURE, FI_READY, FI_STATE, FI_WOUNDS, FS_OOA, PO_SI,
)

OOA_INJURY = 0
OOA_TOUGHNESS = 1
OOA_COUP = 2
OOA_UNSTABLE = 3
OOA_RECOVERY = 4


@njit(cache=True)
def wound_target(S, T):
    """D6 needed to wound (rules 9.1)."""
    if S >= 2 * T:
        return 2
    if S > T:
        return 3
    if S == T:
        return 4
    if 2 * S <= T:
        return 6
    return 5


@njit(cache=True, inline="always")
def take_out(s, b, f, reason):
    if s.fi[b, f, FI_STATE] != 1:
        return
    s.fi[b, f, FI_STATE] = FS_OOA
    s.fi[b, f, FI_READY] = 0
    emit(s, b, E_OOA, f, -1, reason, 0, 0, 0, 0)
    nerve_tests(s, b, f)


@njit(cache=True)
def flesh_wound(s, b, f):
    s.fi[b, f, FI_FLESH] += 1
    t = toughness(s, b, f)
    emit(s, b, E_FLESH, f, -1, s.fi[b, f, FI_FLESH], t, 0, 0, 0)
    if t <= 0:
        take_out(s, b, f, OOA_TOUGHNESS)


@njit(cache=True)
def seriously_injure(s, b, f):
    s.fi[b, f, FI_POSTURE] = PO_SI
    emit(s, b, E_SERIOUS, f, -1, 0, 0, 0, 0, 0)
    nerve_tests(s, b, f)


@njit(cache=True)
def apply_injuries(s, b, f, n_ooa, n_si, n_fw):
    """Apply a set of Injury dice results: Out of Action first, then Serious Injuries, then Flesh Wounds (9.4)."""
    if n_ooa > 0:
        take_out(s, b, f, OOA_INJURY)
        return
    for i in range(n_si):
        if s.fi[b, f, FI_STATE] != 1:
            return
        if i == 0 and s.fi[b, f, FI_POSTURE] != PO_SI:
            seriously_injure(s, b, f)
        else:
            flesh_wound(s, b, f)
    for i in range(n_fw):
        if s.fi[b, f, FI_STATE] != 1:
            return
        flesh_wound(s, b, f)


@njit(cache=True)
def roll_injuries(s, b, f, n, melta):
    n_ooa = 0
    n_si = 0
    n_fw = 0
    for i in range(n):
        r, face = injury_die(s, b)
        if melta:
            r = INJ_OOA
        emit(s, b, E_INJURY, f, -1, r, face, 0, 0, 0)
        if r == INJ_OOA:
            n_ooa += 1
        elif r == INJ_SERIOUS:
            n_si += 1
        else:
            n_fw += 1
    apply_injuries(s, b, f, n_ooa, n_si, n_fw)


@njit(cache=True)
def save_target(s, st, b, tgt, ox, oy, ap, no_armour, front_arc):
    """Best available armour save target after AP (7+ = no save possible).

    ``front_arc``: the target was Standing (had a vision arc) when the attack was
    made, so front-arc armour counts even if the hit has just pinned it
    (docs/rules.md, 9.2)."""
    if no_armour:
        return 7
    arm = s.fi[b, tgt, FI_ARMOUR]
    sv = st.armour[arm, AF_SAVE]
    front = st.armour[arm, AF_FRONT_SAVE]
    if front > 0 and front_arc:
        if in_arc(s, st, b, tgt, ox, oy, s.fi[b, tgt, FI_FACING]):
            sv = min(sv, front)
    if s.fi[b, tgt, FI_BODYGLOVE]:
        sv = 6 if sv >= 7 else sv - 1
    return sv + ap


@njit(cache=True)
def field_armour(s, b, tgt):
    """Refractor field: on 5+ the hit is ignored; each time it works, a 1 burns it out."""
    if s.fi[b, tgt, FI_FIELD] != 1:
        return False
    r = d6(s, b)
    works = r >= 5
    burn = 0
    if works:
        burn = d6(s, b)
        if burn == 1:
            s.fi[b, tgt, FI_FIELD] = 2
    emit(s, b, E_FIELD, tgt, -1, r, 1 if works else 0, burn, 0, 0)
    return works


@njit(cache=True)
def resolve_hit(s, st, b, att, tgt, S, ap, dmg, traits, nat_hit, short_band, ox, oy, front_arc):
    """One hit on ``tgt``: wound roll(s), save, damage and Injury dice (rules 9).

    ``nat_hit`` is the natural hit roll (0 when there was none), ``short_band``
    whether the attack was at Short range (Melta), (ox, oy) the attack's origin
    for front-arc armour, ``front_arc`` whether the target had a front arc then.
    """
    if s.fi[b, tgt, FI_STATE] != 1:
        return
    power6 = (traits & T_POWER) != 0 and nat_hit == 6
    # one save per hit (9.2): a working field (5+, not modified by AP) is used instead of the
    # armour save when the armour save after AP is worse than 5+ (docs/rules.md, saves)
    used_field = s.fi[b, tgt, FI_FIELD] == 1 and save_target(s, st, b, tgt, ox, oy, ap, power6, front_arc) > 5
    if used_field and field_armour(s, b, tgt):
        return
    n_wound_rolls = 1
    if traits & T_SCATTERSHOT:
        n_wound_rolls = d6(s, b)
    for _ in range(n_wound_rolls):
        if s.fi[b, tgt, FI_STATE] != 1:
            return
        T = toughness(s, b, tgt)
        extra = 0
        toxin_injury = False
        if traits & T_TOXIN:
            r = d6(s, b)
            ok = r >= T or r == 6
            emit(s, b, E_WOUND, att, tgt, r, T, 1 if ok else 0, S, T)
            if not ok:
                continue
            toxin_injury = True
        elif (traits & T_SHOCK) and nat_hit == 6:
            emit(s, b, E_WOUND, att, tgt, 0, 0, 1, S, T)
        else:
            need = wound_target(S, T)
            r = d6(s, b)
            ok = r >= need
            emit(s, b, E_WOUND, att, tgt, r, need, 1 if ok else 0, S, T)
            if not ok:
                continue
            if (traits & T_RENDING) and r == 6:
                extra += 1
        # save
        sneed = 7 if used_field else save_target(s, st, b, tgt, ox, oy, ap, power6, front_arc)
        if sneed <= 6:
            r = d6(s, b)
            saved = r != 1 and r >= sneed
            emit(s, b, E_SAVE, tgt, att, r, sneed, 1 if saved else 0, r, 0)
            if saved:
                continue
        if power6:
            extra += 1
        melta = (traits & T_MELTA) != 0 and short_band
        if toxin_injury or dmg == 0:
            roll_injuries(s, b, tgt, 1, False)
            continue
        d = dmg + extra
        wb = s.fi[b, tgt, FI_WOUNDS]
        if d < wb:
            s.fi[b, tgt, FI_WOUNDS] = wb - d
            emit(s, b, E_DAMAGE, tgt, att, d, wb - d, 0, 0, 0)
            continue
        s.fi[b, tgt, FI_WOUNDS] = 0
        emit(s, b, E_DAMAGE, tgt, att, d, 0, 0, 0, 0)
        n_inj = d - wb + 1 if wb > 0 else d
        roll_injuries(s, b, tgt, n_inj, melta)
