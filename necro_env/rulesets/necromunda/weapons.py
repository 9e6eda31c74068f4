"""Weapon profile look-ups and the ammunition rules (rules 7.6, 12)."""
import numpy as np
from ...core.jit import njit

from .constants import (
    CH_S, LONG_GRENADE, LONG_MELEE, PF_AMMO, PF_LONG, PF_S, PF_S_USER, PF_SHORT, PF_TRAITS, PF_TRAITS2, PF_VALID,
    T2_COMBI, T_LIMITED,
    T_NOT_YET, T_PLENTIFUL, T_SCARCE, T_UNSTABLE,
)
from .dice import FP_AMMO_FACE, FP_HOLES, d6
from .events import E_AMMO, E_FIREPOWER, E_RELOAD, E_UNSTABLE, emit
from .state import FI_CH, WP_DEAD, WP_ID, WP_JAMMED, WP_OOA


@njit(cache=True)
def weapon_id(s, b, f, item):
    if item < 0 or item >= s.wp.shape[2]:
        return -1
    return s.wp[b, f, item, WP_ID]


@njit(cache=True)
def profile_exists(s, st, b, f, item, p):
    wid = weapon_id(s, b, f, item)
    if wid < 0 or p < 0 or p >= st.wprof.shape[1]:
        return False
    return st.wprof[wid, p, PF_VALID] == 1


@njit(cache=True)
def profile_usable(s, st, b, f, item, p):
    """Profile exists, is not Out of Ammo / jammed / used up, and its rules are implemented."""
    if not profile_exists(s, st, b, f, item, p):
        return False
    wid = s.wp[b, f, item, WP_ID]
    if st.wprof[wid, p, PF_TRAITS] & T_NOT_YET:
        return False
    dead = s.wp[b, f, item, WP_DEAD]
    if dead & WP_JAMMED or dead & (1 << p):
        return False
    return True


@njit(cache=True)
def can_shoot_with(s, st, b, f, item, p):
    if not profile_usable(s, st, b, f, item, p):
        return False
    wid = s.wp[b, f, item, WP_ID]
    if st.wprof[wid, p, PF_LONG] == LONG_MELEE or st.wprof[wid, p, PF_LONG] == 0:
        return False
    return loaded(s, st, b, f, item, p)


@njit(cache=True)
def is_combi(st, wid):
    """Combi (12): a weapon whose profiles are two weapons that track ammo separately (the trait
    on either profile makes the weapon Combi)."""
    c = (np.int64(T2_COMBI) >> 32)
    for p in range(st.wprof.shape[1]):
        if st.wprof[wid, p, PF_VALID] == 1 and (np.int64(st.wprof[wid, p, PF_TRAITS2]) & c) != 0:
            return True
    return False


@njit(cache=True)
def loaded(s, st, b, f, item, p):
    """Profile p of the item is not Out of Ammo. WP_OOA is 0/1 for the whole weapon (7.6); for a
    Combi weapon it holds one bit per part (bit p), as the parts track ammo separately (12)."""
    wid = s.wp[b, f, item, WP_ID]
    if wid >= 0 and is_combi(st, wid):
        return (s.wp[b, f, item, WP_OOA] & (1 << p)) == 0
    return s.wp[b, f, item, WP_OOA] == 0


@njit(cache=True)
def ammo_roll(s, st, b, f, item, p):
    """One Ammo test (D6 >= Ammo, 7.6), emitted as E_AMMO; a Combi weapon rolls it twice and the
    worse (lower) roll counts (12). Returns whether it passed."""
    wid = s.wp[b, f, item, WP_ID]
    need = st.wprof[wid, p, PF_AMMO]
    r = d6(s, b)
    if is_combi(st, wid):
        r2 = d6(s, b)
        if r2 < r:
            r = r2
    ok = r >= need
    emit(s, b, E_AMMO, f, -1, r, need, 1 if ok else 0, item, 0)
    return ok


@njit(cache=True)
def long_range(s, st, b, f, wid, p):
    """Long range in inches: as printed, or S x the multiplier for a grenade (12 Grenade);
    0 for a Flame template or a melee-only profile."""
    lng = st.wprof[wid, p, PF_LONG]
    if lng == LONG_GRENADE:
        return s.fi[b, f, FI_CH + CH_S] * st.wprof[wid, p, PF_SHORT]
    return lng if lng > 0 else 0


@njit(cache=True)
def grenade_ammo(s, st, b, f, item, p):
    """Grenade (12): no Firepower dice; after the attack an automatic Ammo test. On a failure
    that grenade is used up for the battle."""
    ok = ammo_roll(s, st, b, f, item, p)
    if not ok:
        s.wp[b, f, item, WP_OOA] = 1
        s.wp[b, f, item, WP_DEAD] |= WP_JAMMED
    return ok


@njit(cache=True, inline="always")
def strength(s, st, b, f, wid, p):
    v = st.wprof[wid, p, PF_S]
    if st.wprof[wid, p, PF_S_USER]:
        v += s.fi[b, f, FI_CH + CH_S]
    return v





@njit(cache=True, inline="always")
def fail_ammo(s, st, b, f, item, p, failures):
    """Apply failed Ammo tests: Out of Ammo; two or more failures jam the weapon;
    a Scarce or Limited profile is used up (rules 7.6, 7.7). Combi (12): only the failing part
    runs Out of Ammo, and a Scarce part is used up without the other."""
    wid = s.wp[b, f, item, WP_ID]
    combi = is_combi(st, wid)
    if combi:
        s.wp[b, f, item, WP_OOA] |= (1 << p)
    else:
        s.wp[b, f, item, WP_OOA] = 1
    tr = st.wprof[wid, p, PF_TRAITS]
    if failures >= 2:
        s.wp[b, f, item, WP_DEAD] |= WP_JAMMED
    if combi and (tr & (T_SCARCE | T_LIMITED)):
        s.wp[b, f, item, WP_DEAD] |= (1 << p)
    elif tr & T_SCARCE:
        s.wp[b, f, item, WP_DEAD] |= WP_JAMMED  # Scarce weapons cannot be reloaded at all
    elif tr & T_LIMITED:
        s.wp[b, f, item, WP_DEAD] |= (1 << p)


@njit(cache=True)
def firepower(s, st, b, f, item, p, n_dice):
    """Roll n Firepower dice; make an Ammo test per Ammo symbol (and the Unstable roll).

    Returns (holes, firer_out_of_action). The attack itself is resolved
    normally whatever the ammo result (rules 7.6).
    """
    wid = s.wp[b, f, item, WP_ID]
    holes = 0
    fails = 0
    unstable_ooa = False
    for i in range(n_dice):
        face = d6(s, b)
        h = FP_HOLES[face]
        ammo = face == FP_AMMO_FACE
        emit(s, b, E_FIREPOWER, f, -1, face, h, 1 if ammo else 0, 0, 0)
        holes += h
        if ammo:
            ok = ammo_roll(s, st, b, f, item, p)
            if not ok:
                fails += 1
            if st.wprof[wid, p, PF_TRAITS] & T_UNSTABLE:
                u = d6(s, b)
                emit(s, b, E_UNSTABLE, f, -1, u, 1 if u <= 3 else 0, 0, 0, 0)
                if u <= 3:
                    unstable_ooa = True
    if fails > 0:
        fail_ammo(s, st, b, f, item, p, fails)
    return holes, unstable_ooa


@njit(cache=True)
def reload_profile(s, st, b, f, item):
    """Profile used for a Reload: the usable one with the easiest Ammo value (docs/rules.md, 7.6).
    Scarce profiles cannot be reloaded at all ([N23]); -1 when no profile can reload. A Combi
    weapon reloads one part that is Out of Ammo per Reload (docs/rules.md, 12)."""
    wid = s.wp[b, f, item, WP_ID]
    combi = is_combi(st, wid)
    best = -1
    best_need = 99
    for p in range(st.wprof.shape[1]):
        if not profile_usable(s, st, b, f, item, p):
            continue
        if combi and loaded(s, st, b, f, item, p):
            continue
        if st.wprof[wid, p, PF_TRAITS] & T_SCARCE:
            continue
        if st.wprof[wid, p, PF_TRAITS] & T_PLENTIFUL:
            return p
        need = st.wprof[wid, p, PF_AMMO]
        if need < best_need:
            best_need = need
            best = p
    return best


@njit(cache=True)
def can_reload(s, st, b, f, item):
    if weapon_id(s, b, f, item) < 0 or s.wp[b, f, item, WP_OOA] == 0:
        return False
    return reload_profile(s, st, b, f, item) >= 0


@njit(cache=True)
def reload(s, st, b, f, item):
    """A Reload action (7.6): an Ammo test with the reload profile (none if Plentiful; a Combi part
    rolls twice, the worse counts); a pass removes the Out of Ammo marker (for a Combi weapon,
    that part's). Emits E_RELOAD."""
    p = reload_profile(s, st, b, f, item)
    wid = s.wp[b, f, item, WP_ID]
    combi = is_combi(st, wid)
    if plentiful(st, wid, p):
        ok = True
        r = 0
    else:
        r = d6(s, b)
        if combi:
            r2 = d6(s, b)
            if r2 < r:
                r = r2
        ok = r >= st.wprof[wid, p, PF_AMMO]
    emit(s, b, E_RELOAD, f, -1, item, r, 1 if ok else 0, 0, 0)
    if ok:
        if combi:
            s.wp[b, f, item, WP_OOA] &= ~(1 << p)
        else:
            s.wp[b, f, item, WP_OOA] = 0


@njit(cache=True)
def plentiful(st, wid, p):
    return (st.wprof[wid, p, PF_TRAITS] & T_PLENTIFUL) != 0


@njit(cache=True, inline="always")
def traits_of(st, wid, p):
    """A profile's traits as one int64: the T_* bits of PF_TRAITS and the T2_* bits (PF_TRAITS2 << 32)."""
    return np.int64(st.wprof[wid, p, PF_TRAITS]) | (np.int64(st.wprof[wid, p, PF_TRAITS2]) << 32)
