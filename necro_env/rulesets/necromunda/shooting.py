"""Shooting (rules 7.1-7.8): eligibility, target priority, hit rolls, Firepower,
pinning, stray shots, knockback, twin sidearms, Blind Fire, Fire Through Ductway."""
import numpy as np
from numba import njit

from ...core.geometry import point_segment_dist2
from .constants import (
    CH_BS, CH_CL, CH_S, PF_ACC_L, PF_ACC_S, PF_AP, PF_D, PF_LONG, PF_RAPID, PF_SHORT, PF_TRAITS, T_KNOCKBACK,
    T_RAPID_FIRE,
)
from .damage import resolve_hit, take_out, OOA_UNSTABLE
from .dice import d6, two_d6
from .events import E_COOL, E_HIT, E_KNOCKBACK, E_PINNED, E_SHOT, E_STRAY, emit
from .movement import cell_free_endable, facing_towards, fall
from .query import (
    cell_solid, clear_rays, cover_grade, dist2, engaged_with, gang_of, in_arc, is_engaged,
)
from .state import (
    FI_AIMED, FI_CH, FI_FACING, FI_POSTURE, FI_STATE, FI_TURN, FI_X, FI_Y, FS_ON, PO_PINNED, PO_SI, PO_STANDING,
    WP_ID,
)
from .variant import hard_target, house_legacy
from .weapons import firepower, strength

BAND_SHORT = 0
BAND_LONG = 1
BAND_OUT = 2

COOL_TARGET_PRIORITY = 1
HIT_NORMAL = 0
HIT_OUT_OF_RANGE = 1
HIT_IMPROBABLE = 2
HIT_DUCTWAY = 3

MOD_TWIN = -1
MOD_BLIND_FIRE = -2


@njit(cache=True)
def arc_ok(s, st, b, f, t, omni):
    """t is (or can be turned to be) in f's vision arc."""
    if omni or s.fi[b, f, FI_TURN]:
        return True
    if s.fi[b, f, FI_POSTURE] != PO_STANDING:
        return False
    return in_arc(s, st, b, f, s.fi[b, t, FI_X], s.fi[b, t, FI_Y], s.fi[b, f, FI_FACING])


@njit(cache=True)
def eligible(s, st, b, f, t, omni):
    """t can be targeted by a ranged attack from f: an enemy on the battlefield, in the
    vision arc and line of sight, and not hiding (Prone and in cover, rules 7.2)."""
    if t == f or s.fi[b, t, FI_STATE] != FS_ON or gang_of(s, b, t) == gang_of(s, b, f):
        return False
    if not arc_ok(s, st, b, f, t, omni):
        return False
    cg = cover_grade(clear_rays(s, st, b, f, t, False))
    if cg == 3:
        return False
    if s.fi[b, t, FI_POSTURE] != PO_STANDING and cg > 0:
        return False
    return True


@njit(cache=True)
def band(st, wid, p, d2):
    """Range band of a shot at centre distance squared d2 (gap = distance - 1)."""
    g = np.sqrt(float(d2)) - 1.0
    if g < 0:
        g = 0.0
    short = st.wprof[wid, p, PF_SHORT]
    lng = st.wprof[wid, p, PF_LONG]
    if short >= 0 and g <= short + 1e-9:
        return BAND_SHORT
    if g <= lng + 1e-9:
        return BAND_LONG
    return BAND_OUT


@njit(cache=True)
def hit_modifier(s, st, b, f, t, wid, p, bnd, cg):
    """Sum of hit-roll modifiers for f shooting t (rules 7.4), without Aim / twin / Blind Fire."""
    m = 0
    if house_legacy(s, b) and hard_target(s, b, t):
        cg = min(cg + 1, 2)  # [HL] 4.5 Hard Target: cover one grade better, at most heavy (full)
    if cg == 1:
        m -= 1
    elif cg == 2:
        m -= 2
    if bnd == BAND_SHORT:
        m += st.wprof[wid, p, PF_ACC_S]
    elif bnd == BAND_LONG:
        m += st.wprof[wid, p, PF_ACC_L]
    if is_engaged(s, b, t):
        m -= 1
    if s.fi[b, t, FI_POSTURE] != PO_STANDING and bnd == BAND_LONG:
        m -= 1
    return m



@njit(cache=True)
def needs_cool_test(s, st, b, f, t, wid, p, omni):
    """Target priority (rules 7.2): may f shoot t without a Cool test?

    Allowed freely when t is a closest eligible target, when every closer
    target is Prone and Seriously Injured, or when every closer target is
    harder to hit than t (strictly worse total hit modifier, section 14 12b).
    """
    dt = dist2(s, b, f, t)
    cgt = cover_grade(clear_rays(s, st, b, f, t, False))
    mt = hit_modifier(s, st, b, f, t, wid, p, band(st, wid, p, dt), cgt)
    for o in range(s.fi.shape[1]):
        if o == t or not eligible(s, st, b, f, o, omni):
            continue
        do = dist2(s, b, f, o)
        if do >= dt:
            continue
        if s.fi[b, o, FI_POSTURE] == PO_SI:
            continue
        cgo = cover_grade(clear_rays(s, st, b, f, o, False))
        mo = hit_modifier(s, st, b, f, o, wid, p, band(st, wid, p, do), cgo)
        if mo < mt:
            continue
        return True
    return False


@njit(cache=True)
def resolve_priority(s, st, b, f, t, wid, p, omni):
    """Cool test when needed; on a failure the shot goes to the closest eligible target."""
    if not needs_cool_test(s, st, b, f, t, wid, p, omni):
        return t
    r = two_d6(s, b)
    need = s.fi[b, f, FI_CH + CH_CL]
    ok = r >= need
    emit(s, b, E_COOL, f, t, r, need, 1 if ok else 0, COOL_TARGET_PRIORITY, 0)
    if ok:
        return t
    return fallback_target(s, st, b, f, wid, p, omni, t)


@njit(cache=True)
def fallback_target(s, st, b, f, wid, p, omni, t):
    """After a failed target-priority Cool test the shot goes to a target the shooter may
    pick without a test (rules 7.2). Among those: not Prone and Seriously Injured first,
    then the best hit modifier, then the closest (docs/rules.md)."""
    best = -1
    bkey = 0
    for o in range(s.fi.shape[1]):
        if not eligible(s, st, b, f, o, omni) or needs_cool_test(s, st, b, f, o, wid, p, omni):
            continue
        d = dist2(s, b, f, o)
        cg = cover_grade(clear_rays(s, st, b, f, o, False))
        m = hit_modifier(s, st, b, f, o, wid, p, band(st, wid, p, d), cg)
        # lexicographic (Seriously Injured last, best modifier, closest) as one integer
        key = (1 if s.fi[b, o, FI_POSTURE] == PO_SI else 0) * 100000000 + (100 - m) * 100000 + d
        if best < 0 or key < bkey:
            bkey = key
            best = o
    return best if best >= 0 else t


@njit(cache=True)
def roll_to_hit(s, b, f, t, bs, mod, reason):
    """BS test with modifiers; natural 1 misses; improbable shots (rules 7.4). Returns (hit, natural)."""
    need = bs - mod
    if need < 2:
        need = 2
    r = d6(s, b)
    if need <= 6:
        hit = r != 1 and r >= need
        emit(s, b, E_HIT, f, t, r, need, 1 if hit else 0, reason, 0)
        return hit, r
    # improbable: a 6, then a second roll against the unmodified BS
    if r != 6:
        emit(s, b, E_HIT, f, t, r, need, 0, HIT_IMPROBABLE, 0)
        return False, r
    r2 = d6(s, b)
    hit = r2 != 1 and r2 >= bs
    emit(s, b, E_HIT, f, t, r2, bs, 1 if hit else 0, HIT_IMPROBABLE, 0)
    return hit, r2


@njit(cache=True)
def pin(s, b, t):
    """A Standing and Active fighter hit by a ranged attack becomes Prone and Pinned (7.4)."""
    if s.fi[b, t, FI_STATE] == FS_ON and s.fi[b, t, FI_POSTURE] == PO_STANDING and not is_engaged(s, b, t):
        s.fi[b, t, FI_POSTURE] = PO_PINNED
        emit(s, b, E_PINNED, t, -1, 0, 0, 0, 0, 0)


@njit(cache=True)
def knockback(s, st, b, f, t, nat):
    """Knockback (12): hit roll >= target's S pushes it 1" directly away; if it cannot
    move the full 1" the hit gains +1 Damage. Returns the extra Damage."""
    if nat < s.fi[b, t, FI_CH + CH_S]:
        return 0
    w = st.terrain.shape[1]
    tx = s.fi[b, t, FI_X]
    ty = s.fi[b, t, FI_Y]
    k = facing_towards(tx - s.fi[b, f, FI_X], ty - s.fi[b, f, FI_Y])
    dx = (0, 1, 1, 1, 0, -1, -1, -1)[k]
    dy = (-1, -1, 0, 1, 1, 1, 0, -1)[k]
    nx = tx + dx
    ny = ty + dy
    free = cell_free_endable(s, st, b, nx, ny)
    if free and dx != 0 and dy != 0:
        # a diagonal push cannot squeeze between solid cells (as diagonal moves, 6.1)
        free = not (cell_solid(s, st, b, nx, ty) or cell_solid(s, st, b, tx, ny))
    if free and st.height[ny, nx] > st.height[ty, tx]:
        free = False  # pushed against a higher floor: blocked (docs/rules.md, levels)
    if free:
        emit(s, b, E_KNOCKBACK, t, f, nat, ty * w + tx, ny * w + nx, 0, 0)
        drop = st.height[ty, tx] - st.height[ny, nx]
        if drop > 0:
            fall(s, st, b, t, ny * w + nx, drop)  # knocked over an edge (6.7)
            return 0
        s.fi[b, t, FI_X] = nx
        s.fi[b, t, FI_Y] = ny
        return 0
    emit(s, b, E_KNOCKBACK, t, f, nat, ty * w + tx, ty * w + tx, 1, 0)
    return 1


@njit(cache=True)
def ranged_hits(s, st, b, f, t, wid, p, n_hits, nat, bnd):
    """Resolve n_hits of profile (wid, p) from f on t, pinning first."""
    if n_hits <= 0:
        return
    was_standing = s.fi[b, t, FI_POSTURE] == PO_STANDING
    pin(s, b, t)
    S = strength(s, st, b, f, wid, p)
    ap = st.wprof[wid, p, PF_AP]
    dmg = st.wprof[wid, p, PF_D]
    tr = st.wprof[wid, p, PF_TRAITS]
    extra = 0
    if tr & T_KNOCKBACK:
        extra = knockback(s, st, b, f, t, nat)
    for i in range(n_hits):
        short = bnd == BAND_SHORT or st.wprof[wid, p, PF_SHORT] < 0
        resolve_hit(s, st, b, f, t, S, ap, dmg + (extra if i == 0 else 0), tr, nat, short,
                    s.fi[b, f, FI_X], s.fi[b, f, FI_Y], was_standing)


@njit(cache=True)
def stray_candidates(s, st, b, f, t, out):
    """Models at risk from a missed shot, closest to the shooter first (rules 7.5)."""
    n = 0
    ax = s.fi[b, f, FI_X] + 0.5
    ay = s.fi[b, f, FI_Y] + 0.5
    tx = s.fi[b, t, FI_X] + 0.5
    ty = s.fi[b, t, FI_Y] + 0.5
    for m in range(s.fi.shape[1]):
        if m == f or m == t or s.fi[b, m, FI_STATE] != FS_ON:
            continue
        risk = engaged_with(s, b, m, t)
        if not risk:
            # within 1" of the line of fire (centre within 1.5 of the centre-to-centre segment),
            # and ahead of the shooter: models level with or behind it are not in the line of fire
            mx = s.fi[b, m, FI_X] + 0.5
            my = s.fi[b, m, FI_Y] + 0.5
            ahead = (mx - ax) * (tx - ax) + (my - ay) * (ty - ay) > 1e-9
            d2 = point_segment_dist2(mx, my, ax, ay, tx, ty)
            risk = ahead and d2 <= 1.5 * 1.5 + 1e-9
        if risk:
            out[n] = m
            n += 1
    # insertion sort by distance to the shooter
    for i in range(1, n):
        j = i
        while j > 0 and dist2(s, b, f, out[j]) < dist2(s, b, f, out[j - 1]):
            out[j], out[j - 1] = out[j - 1], out[j]
            j -= 1
    return n


@njit(cache=True)
def stray_shots(s, st, b, f, t, wid, p, n_hits, bnd):
    cand = np.empty(s.fi.shape[1], np.int64)
    for h in range(n_hits):
        n = stray_candidates(s, st, b, f, t, cand)
        for i in range(n):
            m = cand[i]
            if s.fi[b, m, FI_STATE] != FS_ON:
                continue
            r = d6(s, b)
            hit = r <= 3
            emit(s, b, E_STRAY, f, m, r, 1 if hit else 0, 0, 0, 0)
            if hit:
                ranged_hits(s, st, b, f, m, wid, p, 1, 0, bnd)
                break


@njit(cache=True)
def face_target(s, b, f, t):
    if s.fi[b, f, FI_TURN] and s.fi[b, f, FI_POSTURE] == PO_STANDING:
        s.fi[b, f, FI_FACING] = facing_towards(s.fi[b, t, FI_X] - s.fi[b, f, FI_X], s.fi[b, t, FI_Y] - s.fi[b, f, FI_Y])
    s.fi[b, f, FI_TURN] = 0


@njit(cache=True)
def attack_roll(s, st, b, f, t, item, p, mod_extra):
    """Declare, measure and roll to hit; returns (hit, natural, band). Emits E_SHOT and E_HIT."""
    wid = s.wp[b, f, item, WP_ID]
    d2 = dist2(s, b, f, t)
    bnd = band(st, wid, p, d2)
    cg = cover_grade(clear_rays(s, st, b, f, t, False))
    mod = hit_modifier(s, st, b, f, t, wid, p, bnd, cg) + mod_extra
    if s.fi[b, f, FI_AIMED]:
        mod += 1
    emit(s, b, E_SHOT, f, t, wid, p, bnd, mod, cg)
    if bnd == BAND_OUT:
        emit(s, b, E_HIT, f, t, 0, 0, 0, HIT_OUT_OF_RANGE, 0)
        return False, 0, bnd
    hit, nat = roll_to_hit(s, b, f, t, s.fi[b, f, FI_CH + CH_BS], mod, HIT_NORMAL)
    return hit, nat, bnd


@njit(cache=True)
def after_attack(s, st, b, f, t, item, p, hit, nat, bnd):
    """Firepower dice, then hits (or stray shots on a miss)."""
    wid = s.wp[b, f, item, WP_ID]
    tr = st.wprof[wid, p, PF_TRAITS]
    n_fp = st.wprof[wid, p, PF_RAPID] if (tr & T_RAPID_FIRE) else 1
    if n_fp < 1:
        n_fp = 1
    holes, unstable = firepower(s, st, b, f, item, p, n_fp)
    n_hits = holes if (tr & T_RAPID_FIRE) else 1
    if hit:
        ranged_hits(s, st, b, f, t, wid, p, n_hits, nat, bnd)
    elif bnd != BAND_OUT:
        # an out-of-range shot "hits nothing" ([CZ] 7.3): no stray shots
        stray_shots(s, st, b, f, t, wid, p, n_hits, bnd)
    if unstable:
        take_out(s, b, f, OOA_UNSTABLE)


@njit(cache=True)
def shoot(s, st, b, f, item, p, t, omni, mod_extra):
    """A Shoot (or Blind Fire) action with one weapon profile (rules 7.1-7.7)."""
    face_target(s, b, f, t)
    wid = s.wp[b, f, item, WP_ID]
    t = resolve_priority(s, st, b, f, t, wid, p, omni)
    hit, nat, bnd = attack_roll(s, st, b, f, t, item, p, mod_extra)
    after_attack(s, st, b, f, t, item, p, hit, nat, bnd)
    s.fi[b, f, FI_AIMED] = 0


@njit(cache=True)
def shoot_twin(s, st, b, f, i1, p1, i2, p2, t):
    """Two sidearms fired together (rules 7.8): both hit rolls at -1 before any hit is resolved;
    each weapon rolls its own Firepower dice (section 14 item 12a)."""
    face_target(s, b, f, t)
    wid = s.wp[b, f, i1, WP_ID]
    t = resolve_priority(s, st, b, f, t, wid, p1, False)
    h1, n1, b1 = attack_roll(s, st, b, f, t, i1, p1, MOD_TWIN)
    h2, n2, b2 = attack_roll(s, st, b, f, t, i2, p2, MOD_TWIN)
    after_attack(s, st, b, f, t, i1, p1, h1, n1, b1)
    after_attack(s, st, b, f, t, i2, p2, h2, n2, b2)
    s.fi[b, f, FI_AIMED] = 0


@njit(cache=True)
def fire_through_ductway(s, st, b, f, item, p, t):
    """Fire Through Ductway (5.2): hits on 5+ regardless of BS and modifiers."""
    wid = s.wp[b, f, item, WP_ID]
    emit(s, b, E_SHOT, f, t, wid, p, BAND_SHORT, 0, 0)
    r = d6(s, b)
    hit = r >= 5
    emit(s, b, E_HIT, f, t, r, 5, 1 if hit else 0, HIT_DUCTWAY, 0)
    tr = st.wprof[wid, p, PF_TRAITS]
    n_fp = st.wprof[wid, p, PF_RAPID] if (tr & T_RAPID_FIRE) else 1
    holes, unstable = firepower(s, st, b, f, item, p, max(1, n_fp))
    if hit:
        ranged_hits(s, st, b, f, t, wid, p, holes if (tr & T_RAPID_FIRE) else 1, r, BAND_SHORT)
    if unstable:
        take_out(s, b, f, OOA_UNSTABLE)
    s.fi[b, f, FI_AIMED] = 0
