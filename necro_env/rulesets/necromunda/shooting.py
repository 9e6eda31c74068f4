"""Shooting (rules 7.1-7.8): eligibility, target priority, hit rolls, Firepower,
pinning, stray shots, knockback, twin sidearms, Blind Fire, Fire Through Ductway."""
import numpy as np
from ...core.jit import njit

from ...core.geometry import N_RAYS, point_segment_dist2
from .actions import clear_within1, duct_far_end
from .condition_effects import mounted_hit
from .conditions import blaze_trait, has_cond
from .constants import (
    CH_BS, CH_CL, CH_S, LONG_GRENADE, LONG_TEMPLATE, PF_ACC_L, PF_ACC_S, PF_AP, PF_BLAST, PF_D, PF_LONG, PF_RAPID,
    PF_SHORT, PF_TRAITS, T_BLAST, T_BLAZE, T_GAS, T_GRENADE, T_KNOCKBACK, T_RAPID_FIRE, T_SMOKE, T_TEMPLATE,
    T2_DRAG, T2_IMPALE, T2_MASTER_CRAFTED, T2_RECKLESS,
    T2_GRAVITON,
)
from .damage import (
    HIT_UNSAVED, TR_DRAG, TR_IMPALE, TR_MASTER_CRAFTED, TR_RECKLESS, resolve_hit, resolve_hit_x, take_out,
    OOA_UNSTABLE,
)
from .dice import d3, d6, two_d6
from .events import E_BLAST, E_COOL, E_FLAME, E_HIT, E_KNOCKBACK, E_PINNED, E_SCATTER, E_SHOT, E_STRAY, E_TRAIT, emit
from .movement import cell_free_endable, facing_towards, fall
from .query import (
    ALL_RAYS, cell_solid, clear_rays, clear_rays_cells, closed_door_mask, cover_grade, dist2, engaged_with, gang_of,
    in_arc, is_engaged,
)
from .state import (
    C_MOUNTED,
    FI_AIMED, FI_CH, FI_FACING, FI_POSTURE, FI_STATE, FI_TURN, FI_X, FI_Y, FS_ON, PO_PINNED, PO_SI, PO_STANDING,
    WP_ID, FI_Z, WP_FLAGS, WPF_MC_USED, G_SMOKE0, N_SMOKE,
)
from .templates import SMOKE_RADIUS, add_graviton, add_smoke, angle_facing, in_flame, scatter_path, scatter_roll, under_blast
from .variant import hard_target, house_legacy
from .weapons import can_shoot_with, firepower, grenade_ammo, long_range, strength, traits_of

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
    return visible_target(s, st, b, f, t, omni)


@njit(cache=True)
def visible_target(s, st, b, f, t, omni):
    """``eligible`` without the enemy test: in the vision arc and line of sight, not hiding."""
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
def band_f(s, st, b, f, wid, p, d2):
    """``band`` for fighter f's profile: a grenade has no Short range and a Long range of
    S x its multiplier (12 Grenade); a Flame template has no range (7.10)."""
    lng = st.wprof[wid, p, PF_LONG]
    if lng == LONG_TEMPLATE:
        return BAND_SHORT
    if lng != LONG_GRENADE:
        return band(st, wid, p, d2)
    g = np.sqrt(float(d2)) - 1.0
    if g <= long_range(s, st, b, f, wid, p) + 1e-9:
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
    mt = hit_modifier(s, st, b, f, t, wid, p, band_f(s, st, b, f, wid, p, dt), cgt)
    for o in range(s.fi.shape[1]):
        if o == t or not eligible(s, st, b, f, o, omni):
            continue
        do = dist2(s, b, f, o)
        if do >= dt:
            continue
        if s.fi[b, o, FI_POSTURE] == PO_SI:
            continue
        cgo = cover_grade(clear_rays(s, st, b, f, o, False))
        mo = hit_modifier(s, st, b, f, o, wid, p, band_f(s, st, b, f, wid, p, do), cgo)
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
        m = hit_modifier(s, st, b, f, o, wid, p, band_f(s, st, b, f, wid, p, d), cg)
        # lexicographic (Seriously Injured last, best modifier, closest) as one integer
        key = (1 if s.fi[b, o, FI_POSTURE] == PO_SI else 0) * 100000000 + (100 - np.int64(m)) * 100000 + np.int64(d)
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
    if has_cond(s, b, t, C_MOUNTED):  # "I get knocked down" instead of pinning (4.3 Mounted)
        mounted_hit(s, st, b, f, t, (st.wprof[wid, p, PF_TRAITS] & (T_BLAST | T_KNOCKBACK)) != 0)
    else:
        pin(s, b, t)
    S = strength(s, st, b, f, wid, p)
    ap = st.wprof[wid, p, PF_AP]
    dmg = st.wprof[wid, p, PF_D]
    tr = traits_of(st, wid, p)
    extra = 0
    if tr & T_KNOCKBACK:
        extra = knockback(s, st, b, f, t, nat)
    for i in range(n_hits):
        short = bnd == BAND_SHORT or st.wprof[wid, p, PF_SHORT] < 0
        res = resolve_hit(s, st, b, f, t, S, ap, dmg + (extra if i == 0 else 0), tr, nat, short,
                          s.fi[b, f, FI_X], s.fi[b, f, FI_Y], was_standing)
        if (tr & T2_IMPALE) and res == HIT_UNSAVED:
            impale(s, st, b, f, t, wid, p, S, short)
    if tr & T2_DRAG:
        drag(s, st, b, f, t)


@njit(cache=True)
def drag(s, st, b, f, t):
    """Drag (12): if the target was hit and is still on the battlefield, the attacker rolls a D6
    (always, docs/rules.md); on a roll >= the target's S it is pulled D3" straight toward the
    attacker, one cell at a time along the 8-way direction to the attacker. The pull stops early
    at a cell that is not free to end in (a wall, another fighter: fighters are not pushed along,
    docs/rules.md), at a change of floor height, and next to the attacker. Emits E_TRAIT
    (effect = inches pulled)."""
    if s.fi[b, t, FI_STATE] != FS_ON:
        return
    if max(abs(s.fi[b, f, FI_X] - s.fi[b, t, FI_X]), abs(s.fi[b, f, FI_Y] - s.fi[b, t, FI_Y])) <= 1:
        return  # already in base contact: nothing to pull (no roll)
    r = d6(s, b)
    need = s.fi[b, t, FI_CH + CH_S]
    moved = 0
    if r >= need:
        n = d3(s, b)
        for _ in range(n):
            tx = s.fi[b, t, FI_X]
            ty = s.fi[b, t, FI_Y]
            ddx = s.fi[b, f, FI_X] - tx
            ddy = s.fi[b, f, FI_Y] - ty
            if max(abs(ddx), abs(ddy)) <= 1:
                break
            k = facing_towards(ddx, ddy)
            dx = (0, 1, 1, 1, 0, -1, -1, -1)[k]
            dy = (-1, -1, 0, 1, 1, 1, 0, -1)[k]
            nx = tx + dx
            ny = ty + dy
            if not cell_free_endable(s, st, b, nx, ny) or st.height[ny, nx] != st.height[ty, tx]:
                break
            if dx != 0 and dy != 0 and (cell_solid(s, st, b, nx, ty) or cell_solid(s, st, b, tx, ny)):
                break
            s.fi[b, t, FI_X] = nx
            s.fi[b, t, FI_Y] = ny
            s.fi[b, t, FI_Z] = st.height[ny, nx]
            moved += 1
    emit(s, b, E_TRAIT, t, f, TR_DRAG, r, need, moved, 0)


@njit(cache=True)
def impale(s, st, b, f, t, wid, p, S, short):
    """Impale (12): after a hit on t that wounded and was not saved, the line onward from t
    directly away from the attacker f: the closest model (to t) within 1" of it (centre within
    1.5 of the ray, as for stray shots, 7.5) and within the weapon's Long range of f is hit on a
    D6 of 3+ at -1 S; it goes on from each model so hit and wounded without a save while S > 0.
    A failed 3+ ends it (docs/rules.md). Each such hit pins as a ranged hit does."""
    done = np.zeros(s.fi.shape[1], np.bool_)
    done[t] = True
    fx = s.fi[b, f, FI_X] + 0.5
    fy = s.fi[b, f, FI_Y] + 0.5
    lng = long_range(s, st, b, f, wid, p)
    tr = traits_of(st, wid, p)
    cur = t
    sv = S - 1
    while sv > 0:
        cx = s.fi[b, cur, FI_X] + 0.5
        cy = s.fi[b, cur, FI_Y] + 0.5
        vx = cx - fx
        vy = cy - fy
        ln = np.sqrt(vx * vx + vy * vy)
        if ln < 1e-9:
            return
        ex = cx + vx / ln * (lng + 2.0)  # far end of the ray, past Long range
        ey = cy + vy / ln * (lng + 2.0)
        best = -1
        bd = 0.0
        for m in range(s.fi.shape[1]):
            if done[m] or m == f or s.fi[b, m, FI_STATE] != FS_ON:
                continue
            mx = s.fi[b, m, FI_X] + 0.5
            my = s.fi[b, m, FI_Y] + 0.5
            if (mx - cx) * vx + (my - cy) * vy <= 1e-9:
                continue  # not onward from the current model
            if point_segment_dist2(mx, my, cx, cy, ex, ey) > 1.5 * 1.5 + 1e-9:
                continue
            gap = np.sqrt(float(dist2(s, b, f, m))) - 1.0
            if gap > lng + 1e-9:
                continue
            d = (mx - cx) * (mx - cx) + (my - cy) * (my - cy)
            if best < 0 or d < bd:
                best = m
                bd = d
        if best < 0:
            return
        r = d6(s, b)
        ok = r >= 3
        emit(s, b, E_TRAIT, best, f, TR_IMPALE, r, 3, 1 if ok else 0, 0)
        if not ok:
            return
        done[best] = True
        was_standing = s.fi[b, best, FI_POSTURE] == PO_STANDING
        if has_cond(s, b, best, C_MOUNTED):
            mounted_hit(s, st, b, f, best, False)
        else:
            pin(s, b, best)
        res = resolve_hit(s, st, b, f, best, sv, st.wprof[wid, p, PF_AP], st.wprof[wid, p, PF_D], tr, 0, short,
                          s.fi[b, f, FI_X], s.fi[b, f, FI_Y], was_standing)
        if res != HIT_UNSAVED:
            return
        cur = best
        sv -= 1


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
    bnd = band_f(s, st, b, f, wid, p, d2)
    cg = cover_grade(clear_rays(s, st, b, f, t, False))
    mod = hit_modifier(s, st, b, f, t, wid, p, bnd, cg) + mod_extra
    if s.fi[b, f, FI_AIMED]:
        mod += 1
    emit(s, b, E_SHOT, f, t, wid, p, bnd, mod, cg)
    if bnd == BAND_OUT:
        emit(s, b, E_HIT, f, t, 0, 0, 0, HIT_OUT_OF_RANGE, 0)
        return False, 0, bnd
    hit, nat = roll_to_hit(s, b, f, t, s.fi[b, f, FI_CH + CH_BS], mod, HIT_NORMAL)
    if not hit and master_reroll(s, st, b, f, item, p, nat):
        hit, nat = roll_to_hit(s, b, f, t, s.fi[b, f, FI_CH + CH_BS], mod, HIT_NORMAL)
    return hit, nat, bnd


@njit(cache=True)
def master_reroll(s, st, b, f, item, p, first):
    """Master-crafted (12): once per battle the fighter re-rolls one failed hit roll with the
    weapon. Taken automatically on the first failed hit roll (docs/rules.md); marks it used and
    emits E_TRAIT (roll = the failed roll). Returns whether a re-roll is made."""
    if item < 0:
        return False
    wid = s.wp[b, f, item, WP_ID]
    if (traits_of(st, wid, p) & T2_MASTER_CRAFTED) == 0 or (s.wp[b, f, item, WP_FLAGS] & WPF_MC_USED):
        return False
    s.wp[b, f, item, WP_FLAGS] |= WPF_MC_USED
    emit(s, b, E_TRAIT, f, -1, TR_MASTER_CRAFTED, first, 0, 1, 0)
    return True


@njit(cache=True)
def after_attack(s, st, b, f, t, item, p, hit, nat, bnd):
    """Firepower dice, then hits (or stray shots on a miss)."""
    wid = s.wp[b, f, item, WP_ID]
    tr = st.wprof[wid, p, PF_TRAITS]
    n_fp = st.wprof[wid, p, PF_RAPID] if (tr & T_RAPID_FIRE) else 1
    if n_fp < 1:
        n_fp = 1
    holes = 1
    unstable = False
    if (tr & T_GRENADE) == 0:  # grenades roll no Firepower dice (7.6, 12 Grenade)
        holes, unstable = firepower(s, st, b, f, item, p, n_fp)
    n_hits = holes if (tr & T_RAPID_FIRE) else 1
    if hit:
        ranged_hits(s, st, b, f, t, wid, p, n_hits, nat, bnd)
    elif bnd != BAND_OUT:
        # an out-of-range shot "hits nothing" ([CZ] 7.3): no stray shots
        stray_shots(s, st, b, f, t, wid, p, n_hits, bnd)
    if tr & T_GRENADE:
        grenade_ammo(s, st, b, f, item, p)
    if unstable:
        take_out(s, b, f, OOA_UNSTABLE)


@njit(cache=True)
def shoot(s, st, b, f, item, p, t, omni, mod_extra):
    """A Shoot (or Blind Fire) action with one weapon profile (rules 7.1-7.7)."""
    face_target(s, b, f, t)
    wid = s.wp[b, f, item, WP_ID]
    tr = st.wprof[wid, p, PF_TRAITS]
    if tr & T_TEMPLATE:
        flame_attack(s, st, b, f, item, p, t)
        s.fi[b, f, FI_AIMED] = 0
        return
    t = shot_target(s, st, b, f, wid, p, omni, t)
    if tr & (T_BLAST | T_SMOKE):
        blast_attack(s, st, b, f, item, p, t, s.fi[b, t, FI_X], s.fi[b, t, FI_Y], mod_extra)
        s.fi[b, f, FI_AIMED] = 0
        return
    hit, nat, bnd = attack_roll(s, st, b, f, t, item, p, mod_extra)
    after_attack(s, st, b, f, t, item, p, hit, nat, bnd)
    s.fi[b, f, FI_AIMED] = 0


@njit(cache=True)
def random_index(s, b, n):
    """A uniformly random index in [0, n) from D6 rolls: k dice read as a base-6 number (6^k >= n),
    re-rolled while the number falls in the incomplete last block. Returns (index, last roll)."""
    if n <= 1:
        return 0, 0
    span = 6
    while span < n:
        span *= 6
    top = (span // n) * n
    while True:
        v = 0
        r = 0
        m = 1
        while m < span:
            r = d6(s, b)
            v = v * 6 + (r - 1)
            m *= 6
        if v < top:
            return v % n, r


@njit(cache=True)
def reckless_target(s, st, b, f, wid, p, omni, t):
    """Reckless (12): the target is chosen at random among all models, friend or foe, that are
    in the shooter's vision arc and line of sight, not hiding (7.2) and within range; no target
    priority. Candidates in slot order; one D6 picks among up to 6 (docs/rules.md). Keeps t when
    there is no candidate."""
    nf = s.fi.shape[1]
    cand = np.empty(nf, np.int64)
    n = 0
    for m in range(nf):
        if m == f or s.fi[b, m, FI_STATE] != FS_ON or not visible_target(s, st, b, f, m, omni):
            continue
        if band_f(s, st, b, f, wid, p, dist2(s, b, f, m)) == BAND_OUT:
            continue
        cand[n] = m
        n += 1
    return reckless_pick(s, b, f, cand, n, t)


@njit(cache=True)
def reckless_pick(s, b, f, cand, n, t):
    """Reckless (12): the random pick among the n candidates ``cand`` (slot order), emitting
    E_TRAIT; t when there is none. Shared by every shot a Reckless profile makes (Shoot, the
    twin-sidearm shot, Fire Through Ductway)."""
    if n == 0:
        return t
    i, r = random_index(s, b, n)
    emit(s, b, E_TRAIT, f, cand[i], TR_RECKLESS, r, n, cand[i], 0)
    return cand[i]


@njit(cache=True)
def is_reckless(st, wid, p):
    return (traits_of(st, wid, p) & T2_RECKLESS) != 0


@njit(cache=True)
def shot_target(s, st, b, f, wid, p, omni, t):
    """Who a shot of profile (wid, p) declared at t goes to: a Reckless profile draws its target
    at random (12), any other passes target priority (7.2)."""
    if is_reckless(st, wid, p):
        return reckless_target(s, st, b, f, wid, p, omni, t)
    return resolve_priority(s, st, b, f, t, wid, p, omni)


@njit(cache=True)
def shoot_twin(s, st, b, f, i1, p1, i2, p2, t):
    """Two sidearms fired together (rules 7.8): both hit rolls at -1 before any hit is resolved;
    each weapon rolls its own Firepower dice (section 14 item 12a)."""
    face_target(s, b, f, t)
    w1 = s.wp[b, f, i1, WP_ID]
    w2 = s.wp[b, f, i2, WP_ID]
    # one target-priority test for the action (7.2); a Reckless pistol draws its own target (12)
    t1 = shot_target(s, st, b, f, w1, p1, False, t)
    t2 = t1
    if is_reckless(st, w1, p1) or is_reckless(st, w2, p2):
        t2 = shot_target(s, st, b, f, w2, p2, False, t)
    h1, n1, b1 = attack_roll(s, st, b, f, t1, i1, p1, MOD_TWIN)  # Master-crafted: attack_roll re-rolls
    h2, n2, b2 = attack_roll(s, st, b, f, t2, i2, p2, MOD_TWIN)
    after_attack(s, st, b, f, t1, i1, p1, h1, n1, b1)
    after_attack(s, st, b, f, t2, i2, p2, h2, n2, b2)
    s.fi[b, f, FI_AIMED] = 0


@njit(cache=True)
def fire_through_ductway(s, st, b, f, item, p, t):
    """Fire Through Ductway (5.2): hits on 5+ regardless of BS and modifiers."""
    wid = s.wp[b, f, item, WP_ID]
    if st.wprof[wid, p, PF_TRAITS] & T_TEMPLATE:
        flame_through_ductway(s, st, b, f, item, p, t)
        s.fi[b, f, FI_AIMED] = 0
        return
    if is_reckless(st, wid, p):
        t = duct_reckless_target(s, st, b, f, t)
    emit(s, b, E_SHOT, f, t, wid, p, BAND_SHORT, 0, 0)
    r = d6(s, b)
    hit = r >= 5
    emit(s, b, E_HIT, f, t, r, 5, 1 if hit else 0, HIT_DUCTWAY, 0)
    if not hit and master_reroll(s, st, b, f, item, p, r):  # Master-crafted (12)
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


# ====================================================================== Blast, Flame, Smoke
# (rules 7.9-7.11, 12; grid conventions in templates.py and docs/rules.md)
PLACE_ON_TARGET = 0  # E_BLAST placement: the marker stays where it was aimed (a hit)
PLACE_SCATTERED = 1
PLACE_MISFIRE = 2  # centred on the attacker
PLACE_DUD = 3  # no marker: the attack ends
PLACE_SLID = 4  # aimed beyond Long range: slid back towards the shooter, then hit


@njit(cache=True)
def solid_between(s, st, b, ax, ay, tx, ty):
    """Solid terrain (a wall or closed door) lies on the line between two cell centres
    (the centre ray of the line-of-sight tables)."""
    w = st.terrain.shape[1]
    ca = ay * w + ax
    ct = ty * w + tx
    if ca == ct:
        return False
    if st.los_wall[ca, ct] & np.uint8(1):
        return True
    return (st.los_door[ca, ct, 0] & closed_door_mask(s, st, b)) != 0


@njit(cache=True)
def solid_grid(s, st, b):
    h, w = st.terrain.shape
    out = np.zeros((h, w), np.bool_)
    for y in range(h):
        for x in range(w):
            out[y, x] = cell_solid(s, st, b, x, y)
    return out


@njit(cache=True)
def knockback_dir(s, st, b, t, k, roll, actor):
    """Knockback (12) in facing direction k: roll >= the target's S pushes it 1"; if it cannot
    move the full 1" the hit gains +1 Damage (returned)."""
    if roll < s.fi[b, t, FI_CH + CH_S]:
        return 0
    w = st.terrain.shape[1]
    tx = s.fi[b, t, FI_X]
    ty = s.fi[b, t, FI_Y]
    dx = (0, 1, 1, 1, 0, -1, -1, -1)[k]
    dy = (-1, -1, 0, 1, 1, 1, 0, -1)[k]
    nx = tx + dx
    ny = ty + dy
    free = cell_free_endable(s, st, b, nx, ny)
    if free and dx != 0 and dy != 0:
        free = not (cell_solid(s, st, b, nx, ty) or cell_solid(s, st, b, tx, ny))
    if free:
        emit(s, b, E_KNOCKBACK, t, actor, roll, ty * w + tx, ny * w + nx, 0, 0)
        s.fi[b, t, FI_X] = nx
        s.fi[b, t, FI_Y] = ny
        return 0
    emit(s, b, E_KNOCKBACK, t, actor, roll, ty * w + tx, ty * w + tx, 1, 0)
    return 1


@njit(cache=True)
def area_hit(s, st, b, f, m, wid, p, nat, ox, oy, blast, bonus):
    """One model under a Blast marker (centre (ox, oy)) or a Flame template (origin the attacker):
    pinned unless Gas or Smoke, Knockback away from the origin (a separate D6 for Blasts, the
    Scatter dice direction when the model is on the centre), then the hit with the template
    save rules (7.11: ``bonus`` from cover; the armour's template save)."""
    if s.fi[b, m, FI_STATE] != FS_ON:
        return
    tr = st.wprof[wid, p, PF_TRAITS]
    was_standing = s.fi[b, m, FI_POSTURE] == PO_STANDING
    if (tr & (T_GAS | T_SMOKE)) == 0:
        if has_cond(s, b, m, C_MOUNTED):  # "I get knocked down" instead of pinning (4.3 Mounted)
            mounted_hit(s, st, b, f, m, (tr & (T_BLAST | T_KNOCKBACK)) != 0)
        else:
            pin(s, b, m)
    extra = 0
    if tr & T_KNOCKBACK:
        mx = s.fi[b, m, FI_X]
        my = s.fi[b, m, FI_Y]
        r = d6(s, b)
        if r < s.fi[b, m, FI_CH + CH_S]:
            k = 0
        elif mx == ox and my == oy:
            face = d6(s, b)
            dr = d6(s, b)
            k = angle_facing((dr - 1) * 60 + (30 if face % 2 == 0 else 0))
        else:
            k = facing_towards(mx - ox, my - oy)
        extra = knockback_dir(s, st, b, m, k, r, f)
    resolve_hit_x(s, st, b, f, m, strength(s, st, b, f, wid, p), st.wprof[wid, p, PF_AP],
                  st.wprof[wid, p, PF_D] + extra, traits_of(st, wid, p), nat, True, ox, oy, was_standing, True, bonus,
                  False)


@njit(cache=True)
def cover_bonus(cg):
    """Save bonus for a model hit by a Blast or Flame in cover (7.11): +1 partial, +2 full."""
    if cg == 1:
        return 1
    if cg >= 2:
        return 2
    return 0


@njit(cache=True)
def sort_by_d2(buf, key, n):
    for i in range(1, n):
        j = i
        while j > 0 and key[j] < key[j - 1]:
            key[j], key[j - 1] = key[j - 1], key[j]
            buf[j], buf[j - 1] = buf[j - 1], buf[j]
            j -= 1


AREA_BLAST = 0  # under a Blast marker: arg = diameter
AREA_FLAME = 1  # under the Flame template: arg = facing
AREA_RADIUS = 2  # centre distance squared <= arg


@njit(cache=True)
def models_in_area(s, st, b, cx, cy, shape, arg, skip, buf):
    """Fighters on the battlefield (never ``skip``) in an area around (cx, cy) with no solid
    terrain between them and (cx, cy), closest to (cx, cy) first, then slot order (the
    AREA_* shapes above). Writes them to ``buf``; returns their number."""
    nf = s.fi.shape[1]
    key = np.empty(nf, np.int64)
    n = 0
    for m in range(nf):
        if m == skip or s.fi[b, m, FI_STATE] != FS_ON:
            continue
        x = s.fi[b, m, FI_X]
        y = s.fi[b, m, FI_Y]
        dx = x - cx
        dy = y - cy
        if shape == AREA_BLAST:
            inside = under_blast(arg, dx, dy)
        elif shape == AREA_FLAME:
            inside = in_flame(arg, dx, dy)
        else:
            inside = dx * dx + dy * dy <= arg
        if not inside or solid_between(s, st, b, cx, cy, x, y):
            continue
        buf[n] = m
        key[n] = dx * dx + dy * dy
        n += 1
    sort_by_d2(buf, key, n)
    return n


@njit(cache=True)
def blaze_after(s, st, b, f, wid, p, buf, n):
    """Blaze (12): after the attack, each model hit and still on the battlefield catches fire
    on 4+ (2+ if Gunked)."""
    if st.wprof[wid, p, PF_TRAITS] & T_BLAZE:
        for i in range(n):
            if s.fi[b, buf[i], FI_STATE] == FS_ON:
                blaze_trait(s, st, b, f, buf[i])


@njit(cache=True)
def blast_hits(s, st, b, f, wid, p, cx, cy, nat):
    """Every model under the marker centred on (cx, cy), friend or foe, unless solid terrain lies
    between it and the centre (7.9 step 5), closest to the centre first (then slot order)."""
    buf = np.empty(s.fi.shape[1], np.int64)
    n = models_in_area(s, st, b, cx, cy, AREA_BLAST, st.wprof[wid, p, PF_BLAST], -1, buf)
    bon = np.zeros(n, np.int64)
    for i in range(n):  # cover from the centre, judged before any model is moved or pinned
        m = buf[i]
        cg = cover_grade(clear_rays_cells(s, st, b, cx, cy, s.fi[b, m, FI_X], s.fi[b, m, FI_Y], -1, -1, m, False))
        bon[i] = cover_bonus(cg)
    for i in range(n):
        area_hit(s, st, b, f, buf[i], wid, p, nat, cx, cy, True, bon[i])
    blaze_after(s, st, b, f, wid, p, buf, n)
    return n


@njit(cache=True)
def point_hit_modifier(st, wid, p, bnd):
    """Hit modifiers against a point on the battlefield (7.4): the range band's accuracy and
    -2 unless the weapon has Smoke."""
    m = st.wprof[wid, p, PF_ACC_S] if bnd == BAND_SHORT else st.wprof[wid, p, PF_ACC_L]
    if (st.wprof[wid, p, PF_TRAITS] & T_SMOKE) == 0:
        m -= 2
    return m


@njit(cache=True)
def blast_attack(s, st, b, f, item, p, t, cx, cy, mod_extra):
    """A Blast (or Smoke) attack aimed at model t (on its cell) or, t = -1, at the point (cx, cy)
    (rules 7.9): slide back into range, hit roll, Firepower dice (not for grenades), scatter or
    misfire on a miss, then every model under the marker is hit (Smoke: a cloud instead), then a
    grenade's automatic Ammo test."""
    wid = s.wp[b, f, item, WP_ID]
    tr = st.wprof[wid, p, PF_TRAITS]
    w = st.terrain.shape[1]
    fx = s.fi[b, f, FI_X]
    fy = s.fi[b, f, FI_Y]
    d2 = (cx - fx) * (cx - fx) + (cy - fy) * (cy - fy)
    bnd = band_f(s, st, b, f, wid, p, d2)
    place = PLACE_ON_TARGET
    if bnd == BAND_OUT:
        # 7.9 step 3: slide the centre straight back toward the shooter until it is in range
        lng = long_range(s, st, b, f, wid, p)
        dist = np.sqrt(float(d2))
        gx = cx
        gy = cy
        for i in range(1, 4 * int(dist) + 2):
            q = dist - 0.25 * i
            if q < 0:
                q = 0.0
            x = int(np.floor(fx + (cx - fx) * q / dist + 0.5))
            y = int(np.floor(fy + (cy - fy) * q / dist + 0.5))
            dd = (x - fx) * (x - fx) + (y - fy) * (y - fy)
            if np.sqrt(float(dd)) - 1.0 <= lng + 1e-9:
                gx = x
                gy = y
                break
        cx = gx
        cy = gy
        t = -1
        place = PLACE_SLID
        d2 = (cx - fx) * (cx - fx) + (cy - fy) * (cy - fy)
        bnd = band_f(s, st, b, f, wid, p, d2)
        if bnd == BAND_OUT:
            bnd = BAND_LONG
    cg = 0
    if t >= 0:
        cg = cover_grade(clear_rays(s, st, b, f, t, False))
        mod = hit_modifier(s, st, b, f, t, wid, p, bnd, cg)
    else:
        mod = point_hit_modifier(st, wid, p, bnd)
    mod += mod_extra
    if s.fi[b, f, FI_AIMED]:
        mod += 1
    emit(s, b, E_SHOT, f, t, wid, p, bnd, mod, cg)
    hit, nat = roll_to_hit(s, b, f, t, s.fi[b, f, FI_CH + CH_BS], mod, HIT_NORMAL)
    if not hit and master_reroll(s, st, b, f, item, p, nat):
        hit, nat = roll_to_hit(s, b, f, t, s.fi[b, f, FI_CH + CH_BS], mod, HIT_NORMAL)
    unstable = False
    if (tr & T_GRENADE) == 0:
        _, unstable = firepower(s, st, b, f, item, p, 1)
    if not hit:
        hs, ang, dist = scatter_roll(s, b)
        mis = 0
        if hs and dist == 1:
            mis = d6(s, b)
        emit(s, b, E_SCATTER, f, -1, 1 if hs else 0, ang, dist, cy * w + cx, mis)
        if hs and dist == 1:
            if mis >= 2:
                place = PLACE_DUD
            else:
                place = PLACE_MISFIRE
                cx = fx
                cy = fy
        else:
            place = PLACE_SCATTERED
            cx, cy = scatter_path(solid_grid(s, st, b), cx, cy, ang, dist)
    n = 0
    if place != PLACE_DUD:
        if tr & T_SMOKE:
            add_smoke(s, b, cy * w + cx)
        else:
            n = blast_hits(s, st, b, f, wid, p, cx, cy, nat)
            if traits_of(st, wid, p) & T2_GRAVITON:  # the marker stays until the End phase (12)
                add_graviton(s, b, cy * w + cx, st.wprof[wid, p, PF_BLAST])
    emit(s, b, E_BLAST, f, -1, cy * w + cx if place != PLACE_DUD else -1, st.wprof[wid, p, PF_BLAST], place, n, 0)
    if tr & T_GRENADE:
        grenade_ammo(s, st, b, f, item, p)
    if unstable:
        take_out(s, b, f, OOA_UNSTABLE)


@njit(cache=True)
def shoot_cell(s, st, b, f, item, p, cx, cy):
    """Shoot a Blast or Smoke weapon at a point (rules 7.9 step 1): no target priority."""
    if s.fi[b, f, FI_TURN] and s.fi[b, f, FI_POSTURE] == PO_STANDING:
        s.fi[b, f, FI_FACING] = facing_towards(cx - s.fi[b, f, FI_X], cy - s.fi[b, f, FI_Y])
    s.fi[b, f, FI_TURN] = 0
    blast_attack(s, st, b, f, item, p, -1, cx, cy, 0)
    s.fi[b, f, FI_AIMED] = 0


@njit(cache=True)
def blast_profile(s, st, b, f, item):
    """The profile a ``shoot_cell`` action uses: the item's first usable Blast or Smoke profile
    (-1 if none). No weapon in the data has two (docs/api.md)."""
    wid = s.wp[b, f, item, WP_ID]
    if wid < 0:
        return -1
    for p in range(st.wprof.shape[1]):
        if can_shoot_with(s, st, b, f, item, p) and (st.wprof[wid, p, PF_TRAITS] & (T_BLAST | T_SMOKE)):
            return p
    return -1


@njit(cache=True)
def point_target_ok(s, st, b, f, wid, p, x, y):
    """A point the marker of a Blast / Smoke profile may be centred on (7.9 step 2, docs/rules.md):
    a cell that is not solid, within Long range, in f's vision arc (a free turn counts) and in
    its line of sight (walls and closed doors block; models do not hide a point)."""
    if cell_solid(s, st, b, x, y):
        return False
    fx = s.fi[b, f, FI_X]
    fy = s.fi[b, f, FI_Y]
    if x == fx and y == fy:
        return False
    if not s.fi[b, f, FI_TURN] and not in_arc(s, st, b, f, x, y, s.fi[b, f, FI_FACING]):
        return False
    d2 = (x - fx) * (x - fx) + (y - fy) * (y - fy)
    if band_f(s, st, b, f, wid, p, d2) == BAND_OUT:
        return False
    return clear_rays_cells(s, st, b, fx, fy, x, y, gang_of(s, b, f), f, -1, True) > 0


@njit(cache=True)
def point_window(s, st, b, f, wid, p):
    """Cells (x0 <= x < x1, y0 <= y < y1) that may be within range of f's profile (wid, p):
    outside it ``band_f`` is BAND_OUT (gap = centre distance - 1 > Short and Long)."""
    h, w = st.terrain.shape
    if st.wprof[wid, p, PF_LONG] == LONG_TEMPLATE:
        return 0, 0, w, h
    r = max(long_range(s, st, b, f, wid, p), st.wprof[wid, p, PF_SHORT]) + 2
    fx = s.fi[b, f, FI_X]
    fy = s.fi[b, f, FI_Y]
    return max(0, fx - r), max(0, fy - r), min(w, fx + r + 1), min(h, fy + r + 1)


@njit(cache=True)
def point_targets(s, st, b, f, wid, p, out, base):
    """Set out[base + y * w + x] for every cell (x, y) where ``point_target_ok(s, st, b, f, wid,
    p, x, y)`` holds (other entries are left as they are): the same test, with what does not
    depend on the cell (the window in range, the largest squared distance in range, the closed
    doors, the smoke clouds) found once. tests/properties/test_mask_fast_paths.py pins the two."""
    h, w = st.terrain.shape
    fx = s.fi[b, f, FI_X]
    fy = s.fi[b, f, FI_Y]
    x0, y0, x1, y1 = point_window(s, st, b, f, wid, p)
    # band_f is BAND_OUT exactly above some squared distance: find it (monotone in d2)
    lo = 0
    hi = (w + h) * (w + h) + 1
    if band_f(s, st, b, f, wid, p, lo) == BAND_OUT:
        return
    while hi - lo > 1:  # invariant: lo in range, hi out of range (or beyond every cell)
        mid = (lo + hi) // 2
        if band_f(s, st, b, f, wid, p, mid) == BAND_OUT:
            hi = mid
        else:
            lo = mid
    d2max = lo
    turn = s.fi[b, f, FI_TURN] != 0
    facing = s.fi[b, f, FI_FACING]
    closed = closed_door_mask(s, st, b)
    sxs = np.empty(N_SMOKE, np.float64)
    sys_ = np.empty(N_SMOKE, np.float64)
    ns = 0
    for i in range(N_SMOKE):
        c = s.g[b, G_SMOKE0 + i] - 1
        if c >= 0:
            sxs[ns] = c % w + 0.5
            sys_[ns] = c // w + 0.5
            ns += 1
    ca = fy * w + fx
    for y in range(y0, y1):
        for x in range(x0, x1):
            if (x == fx and y == fy) or cell_solid(s, st, b, x, y):
                continue
            if (x - fx) * (x - fx) + (y - fy) * (y - fy) > d2max:
                continue
            if not turn and st.arc[y - fy + h - 1, x - fx + w - 1, facing] != 1:
                continue
            ct = y * w + x
            wall = st.los_wall[ca, ct]
            if wall == ALL_RAYS:
                continue
            hidden = False
            for i in range(ns):  # smoke clouds block sight into, out of and through them (12)
                if (point_segment_dist2(sxs[i], sys_[i], fx + 0.5, fy + 0.5, x + 0.5, y + 0.5)
                        < SMOKE_RADIUS * SMOKE_RADIUS - 1e-9):
                    hidden = True
                    break
            if hidden:
                continue
            for k in range(N_RAYS):  # a ray crossing no wall and no closed door
                if not (wall >> k) & 1 and (st.los_door[ca, ct, k] & closed) == 0:
                    out[base + ct] = True
                    break


@njit(cache=True)
def template_target_ok(s, st, b, f, t):
    """Target t may aim f's Flame template (7.10, docs/rules.md): an enemy on the battlefield
    (any status: templates skip target priority) under the template aimed along the facing
    towards it, which must be f's facing unless it may still turn, with no solid terrain
    between the two centres."""
    if t == f or s.fi[b, t, FI_STATE] != FS_ON or gang_of(s, b, t) == gang_of(s, b, f):
        return False
    if s.fi[b, f, FI_POSTURE] != PO_STANDING:
        return False
    dx = s.fi[b, t, FI_X] - s.fi[b, f, FI_X]
    dy = s.fi[b, t, FI_Y] - s.fi[b, f, FI_Y]
    k = facing_towards(dx, dy)
    if not s.fi[b, f, FI_TURN] and k != s.fi[b, f, FI_FACING]:
        return False
    if not in_flame(k, dx, dy):
        return False
    return not solid_between(s, st, b, s.fi[b, f, FI_X], s.fi[b, f, FI_Y], s.fi[b, t, FI_X], s.fi[b, t, FI_Y])


@njit(cache=True)
def flame_attack(s, st, b, f, item, p, t):
    """Flame template (7.10): aimed along the facing towards t; no target priority and no hit
    roll; the Firepower dice is rolled; every other model under the template, friend or foe, is
    hit unless solid terrain lies between it and the attacker, closest first; cover against the
    attacker improves saves (7.11); then Blaze."""
    wid = s.wp[b, f, item, WP_ID]
    fx = s.fi[b, f, FI_X]
    fy = s.fi[b, f, FI_Y]
    k = facing_towards(s.fi[b, t, FI_X] - fx, s.fi[b, t, FI_Y] - fy)
    s.fi[b, f, FI_FACING] = k
    emit(s, b, E_SHOT, f, t, wid, p, BAND_SHORT, 0, 0)
    _, unstable = firepower(s, st, b, f, item, p, 1)
    buf = np.empty(s.fi.shape[1], np.int64)
    n = models_in_area(s, st, b, fx, fy, AREA_FLAME, k, f, buf)
    bon = np.zeros(n, np.int64)
    for i in range(n):
        bon[i] = cover_bonus(cover_grade(clear_rays(s, st, b, f, buf[i], False)))
    emit(s, b, E_FLAME, f, t, k, n, 0, 0, 0)
    for i in range(n):
        area_hit(s, st, b, f, buf[i], wid, p, 0, fx, fy, False, bon[i])
    blaze_after(s, st, b, f, wid, p, buf, n)
    if unstable:
        take_out(s, b, f, OOA_UNSTABLE)


@njit(cache=True)
def duct_target_end(s, st, b, f, t):
    """The far end (x, y) of the first ductway f is within 1" of whose far end is within 1" of
    t (5.2); (-1, -1) if none."""
    for u in range(st.duct.shape[0]):
        ox, oy = duct_far_end(s, st, b, f, u)
        if ox >= 0 and clear_within1(s, st, b, ox, oy, s.fi[b, t, FI_X], s.fi[b, t, FI_Y]):
            return ox, oy
    return -1, -1


@njit(cache=True)
def duct_reckless_target(s, st, b, f, t):
    """Reckless (12) through a ductway (5.2): the target is drawn at random among all models,
    friend or foe, within 1" of the far end the shot goes through (the models such a shot may
    reach; no line of sight or range through a ductway), slot order (docs/rules.md)."""
    ex, ey = duct_target_end(s, st, b, f, t)
    nf = s.fi.shape[1]
    cand = np.empty(nf, np.int64)
    n = 0
    if ex >= 0:
        for m in range(nf):
            if (m != f and s.fi[b, m, FI_STATE] == FS_ON
                    and clear_within1(s, st, b, ex, ey, s.fi[b, m, FI_X], s.fi[b, m, FI_Y])):
                cand[n] = m
                n += 1
    return reckless_pick(s, b, f, cand, n, t)


@njit(cache=True)
def flame_through_ductway(s, st, b, f, item, p, t):
    """Fire Through Ductway with a Template weapon (5.2, [CZ]): instead of the template it
    automatically hits every model within 2" of the ductway's far end (centre distance to that
    end cell <= 3, not through walls), friend or foe, closest first; the Firepower dice is rolled;
    no cover bonus (docs/rules.md)."""
    wid = s.wp[b, f, item, WP_ID]
    ex, ey = duct_target_end(s, st, b, f, t)
    emit(s, b, E_SHOT, f, t, wid, p, BAND_SHORT, 0, 0)
    _, unstable = firepower(s, st, b, f, item, p, 1)
    buf = np.empty(s.fi.shape[1], np.int64)
    n = models_in_area(s, st, b, ex, ey, AREA_RADIUS, 9, f, buf) if ex >= 0 else 0
    emit(s, b, E_FLAME, f, t, -1, n, 0, 0, 0)
    for i in range(n):
        area_hit(s, st, b, f, buf[i], wid, p, 0, ex, ey, False, 0)
    blaze_after(s, st, b, f, wid, p, buf, n)
    if unstable:
        take_out(s, b, f, OOA_UNSTABLE)
