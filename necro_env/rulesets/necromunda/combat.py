"""Close combat (rules 8): weapons, Attack dice, hit rolls, parry, reaction attacks,
Coup de Grace and the post-fight follow-up."""
import numpy as np
from ...core.jit import njit

from .constants import (
    CH_A, CH_S, CH_WS, PF_ACC_S, PF_AP, PF_D, PF_LONG, PF_S_USER, PF_TRAITS, T_BACKSTAB, T_DISARM, T_KNOCKBACK, T_MELEE, T_PAIRED,
    T_PARRY, T_POWER, T_SIDEARM, T_UNWIELDY, T_VERSATILE, T2_DRAG, T2_ENTANGLE, T2_RECKLESS,
)
from .condition_effects import cannibalise
from .conditions import blind_hits, can_react, hands_full, has_cond, strength_penalty
from .damage import OOA_COUP, TR_ENTANGLE, TR_RECKLESS, resolve_hit_cc, take_out
from .dice import d6
from .events import E_ASSIST, E_ATTACKS, E_COUP, E_DISARM, E_HIT, E_PARRY, E_REACTION, E_TRAIT, emit
from .movement import facing_towards
from .query import count_engaged_enemies, engaged_with, gang_of, in_arc, standing
from .shooting import drag, knockback, master_reroll, random_index
from .state import (
    C_STARVING,
    FI_BROKEN, FI_CH, FI_DISARMED, FI_FACING, FI_POSTURE, FI_STATE, FI_STOOD, FI_X, FI_Y, FI_Z, FS_ON, PO_SI,
    PO_STANDING, WP_ID, FI_ENTANGLED,
)
from .variant import house_legacy
from .weapons import firepower, loaded, profile_usable, strength, traits_of

UNARMED = -1
MOD_BROKEN_REACTION = -2
MOD_TURN = -1
MOD_ENTANGLED = -2


@njit(cache=True)
def melee_score(s, st, b, f, item, p):
    wid = s.wp[b, f, item, WP_ID]
    tr = st.wprof[wid, p, PF_TRAITS]
    sc = 4 * strength(s, st, b, f, wid, p) + 3 * st.wprof[wid, p, PF_AP] + 4 * max(1, st.wprof[wid, p, PF_D])
    if tr & T_MELEE:
        sc += 2 * st.wprof[wid, p, PF_ACC_S] + 1
    if tr & T_POWER:
        sc += 2
    return sc


@njit(cache=True)
def usable_in_melee(s, st, b, f, item, p):
    if not profile_usable(s, st, b, f, item, p):
        return False
    wid = s.wp[b, f, item, WP_ID]
    tr = st.wprof[wid, p, PF_TRAITS]
    if tr & T_MELEE:
        return True
    if tr & T_SIDEARM:
        return loaded(s, st, b, f, item, p)
    return False


@njit(cache=True)
def versatile_reach(s, st, b, f, t):
    """Versatile (12): the usable Melee profile with Versatile whose Long range reaches t
    (gap <= Long), best-scoring first. Returns (item, profile) or (-1, 0)."""
    return versatile_reach_at(s, st, b, f, t, s.fi[b, f, FI_X], s.fi[b, f, FI_Y])


@njit(cache=True)
def versatile_profile_reach2(s, st, b, f, it, p):
    """The squared reach (Long + 1)^2 of f's item ``it`` profile p if it is a usable Melee profile
    with Versatile and a Long range (12), else -1.0."""
    if not usable_in_melee(s, st, b, f, it, p):
        return -1.0
    wid = s.wp[b, f, it, WP_ID]
    if (st.wprof[wid, p, PF_TRAITS] & T_VERSATILE) == 0 or st.wprof[wid, p, PF_LONG] <= 0:
        return -1.0
    r = st.wprof[wid, p, PF_LONG] + 1.0
    return r * r


@njit(cache=True)
def versatile_range2(s, st, b, f):
    """The largest squared reach of f's usable Versatile profiles, -1.0 if it has none:
    ``versatile_reach(f, t)`` finds a profile iff t's squared centre distance is at most this
    + 1e-9 (one pass over the weapons instead of one per target)."""
    best = -1.0
    for it in range(s.wp.shape[2]):
        for p in range(st.wprof.shape[1]):
            best = max(best, versatile_profile_reach2(s, st, b, f, it, p))
    return best


@njit(cache=True)
def versatile_reach_at(s, st, b, f, t, x, y):
    """``versatile_reach`` with f standing at cell (x, y) (a Ride By pause cell, 4.3 Mounted)."""
    bi = -1
    bp = 0
    bs = -1 << 20
    dx = x - s.fi[b, t, FI_X]
    dy = y - s.fi[b, t, FI_Y]
    d2 = dx * dx + dy * dy
    for it in range(s.wp.shape[2]):
        for p in range(st.wprof.shape[1]):
            r2 = versatile_profile_reach2(s, st, b, f, it, p)
            if r2 < 0 or d2 > r2 + 1e-9:
                continue
            sc = melee_score(s, st, b, f, it, p)
            if sc > bs:
                bs = sc
                bi = it
                bp = p
    return bi, bp


@njit(cache=True)
def best_melee(s, st, b, f, skip_item, allow_unwieldy):
    """The best-scoring usable Melee/Sidearm profile, not on ``skip_item``: (item, profile, score)."""
    bi = -1
    bp = 0
    bs = -1 << 20
    for it in range(s.wp.shape[2]):
        if it == skip_item:
            continue
        for p in range(st.wprof.shape[1]):
            if not usable_in_melee(s, st, b, f, it, p):
                continue
            if not allow_unwieldy and (st.wprof[s.wp[b, f, it, WP_ID], p, PF_TRAITS] & T_UNWIELDY):
                continue
            sc = melee_score(s, st, b, f, it, p)
            if sc > bs:
                bs = sc
                bi = it
                bp = p
    return bi, bp, bs


@njit(cache=True)
def choose_melee_weapons(s, st, b, f):
    """The weapons a fighter fights with (rules 8.1 step 2; choice rule in docs/rules.md):
    the best-scoring Melee/Sidearm profile, plus the best one on another item unless
    the first is Unwieldy. Returns (item1, p1, item2, p2); item -1 = none (unarmed)."""
    i1, p1, _ = best_melee(s, st, b, f, -1, True)
    if i1 < 0:
        return -1, 0, -1, 0
    if st.wprof[s.wp[b, f, i1, WP_ID], p1, PF_TRAITS] & T_UNWIELDY:
        return i1, p1, -1, 0
    i2, p2, _ = best_melee(s, st, b, f, i1, False)
    return i1, p1, i2, p2


@njit(cache=True)
def assists(s, b, f, t):
    """(+assists, -interference) for f attacking t (rules 8.2)."""
    ga = gang_of(s, b, f)
    gt = gang_of(s, b, t)
    a = 0
    inter = 0
    nf = s.fi.shape[1]
    for o in range(nf):
        if o == f or o == t or s.fi[b, o, FI_STATE] != FS_ON:
            continue
        if gang_of(s, b, o) == ga and engaged_with(s, b, o, t):
            free = True
            for x in range(nf):
                if x != t and gang_of(s, b, x) == gt and engaged_with(s, b, o, x):
                    free = False
                    break
            if free:
                a += 1
        elif gang_of(s, b, o) != ga and engaged_with(s, b, o, f):
            free = True
            for x in range(nf):
                if x != f and gang_of(s, b, x) == ga and engaged_with(s, b, o, x):
                    free = False
                    break
            if free:
                inter += 1
    return a, inter


@njit(cache=True)
def parry_count(s, st, b, t, attacker_power):
    n = 0
    for it in range(s.wp.shape[2]):
        wid = s.wp[b, t, it, WP_ID]
        if wid < 0:
            continue
        for p in range(st.wprof.shape[1]):
            if not profile_usable(s, st, b, t, it, p):
                continue
            tr = st.wprof[wid, p, PF_TRAITS]
            if (tr & T_PARRY) and (not attacker_power or (tr & T_POWER)):
                n += 1
                break
    return min(n, 2)


@njit(cache=True)
def weapon_attacks(s, st, b, f, t, item, p, n_dice, mod, parries_left):
    """Roll n_dice hit rolls with one weapon (item -1: unarmed) and resolve the hits.
    Returns the parries the target has left."""
    if n_dice <= 0 or s.fi[b, t, FI_STATE] != FS_ON:
        return parries_left
    ws = s.fi[b, f, FI_CH + CH_WS]
    if s.fi[b, f, FI_BROKEN] and house_legacy(s, b):
        ws = 6  # [HL] 10.4: a Broken fighter's WS counts as 6+
    if item >= 0:
        wid = s.wp[b, f, item, WP_ID]
        tr = traits_of(st, wid, p)  # T_* and T2_* traits (12)
        S = strength(s, st, b, f, wid, p)
        ap = st.wprof[wid, p, PF_AP]
        dmg = st.wprof[wid, p, PF_D]
        if tr & T_MELEE:
            mod += st.wprof[wid, p, PF_ACC_S]
    else:
        wid = -1
        tr = np.int64(0)
        S = s.fi[b, f, FI_CH + CH_S]
        ap = 0
        dmg = 1
    if item < 0 or st.wprof[wid, p, PF_S_USER]:
        S = max(1, S - strength_penalty(s, b, f))  # Starving: -1 S unarmed and with S-based weapons (4.3)
    need = ws - mod
    if need < 2:
        need = 2
    nat6 = blind_hits(s, b, f)  # Blind: hits only on a natural 6 (4.3)
    rolls = np.zeros(n_dice, np.int64)
    hits = np.zeros(n_dice, np.bool_)
    rerolled = np.zeros(n_dice, np.bool_)
    for i in range(n_dice):
        r = d6(s, b)
        rolls[i] = r
        hits[i] = r == 6 if nat6 else (r != 1 and r >= need)
        emit(s, b, E_HIT, f, t, r, 6 if nat6 else need, 1 if hits[i] else 0, 0, 0)
        if not hits[i] and master_reroll(s, st, b, f, item, p, r):
            # Master-crafted (12): the first failed hit roll is re-rolled (docs/rules.md)
            r = d6(s, b)
            rolls[i] = r
            rerolled[i] = True
            hits[i] = r == 6 if nat6 else (r != 1 and r >= need)
            emit(s, b, E_HIT, f, t, r, 6 if nat6 else need, 1 if hits[i] else 0, 0, 0)
    # parry: the target forces a re-roll of one successful hit per Parry weapon; Entangle hits
    # cannot be parried (12), and a die is never re-rolled twice (a Master-crafted re-roll)
    if parries_left > 0 and (tr & T2_ENTANGLE) == 0:
        for i in range(n_dice):
            if parries_left <= 0:
                break
            if hits[i] and not rerolled[i]:
                parries_left -= 1
                r = d6(s, b)
                rolls[i] = r
                hits[i] = r == 6 if nat6 else (r != 1 and r >= need)
                emit(s, b, E_PARRY, t, f, 0, 0, 0, 0, 0)
                emit(s, b, E_HIT, f, t, r, need, 1 if hits[i] else 0, 0, 0)
    # a sidearm used in close combat still rolls its Firepower dice (8.3)
    if item >= 0 and (tr & T_SIDEARM) and not (tr & T_MELEE):
        _, uns = firepower(s, st, b, f, item, p, 1)
        if uns:
            take_out(s, b, f, 3)
    for i in range(n_dice):
        if not hits[i] or s.fi[b, t, FI_STATE] != FS_ON:
            continue
        sv = S
        if (tr & T_BACKSTAB):
            behind = True
            if s.fi[b, t, FI_POSTURE] == PO_STANDING:
                behind = not in_arc(s, st, b, t, s.fi[b, f, FI_X], s.fi[b, f, FI_Y], s.fi[b, t, FI_FACING])
            if behind:
                sv += 1
        if (tr & T_DISARM) and rolls[i] == 6:
            s.fi[b, t, FI_DISARMED] = 1
            emit(s, b, E_DISARM, t, f, 0, 0, 0, 0, 0)
        if (tr & T2_ENTANGLE) and rolls[i] == 6 and s.fi[b, t, FI_ENTANGLED] == 0:
            s.fi[b, t, FI_ENTANGLED] = 1  # its reaction attacks in this fight are at -2 (12)
            emit(s, b, E_TRAIT, t, f, TR_ENTANGLE, 6, 6, 1, 0)
        extra = 0
        if tr & T_KNOCKBACK:
            # Knockback (12): natural hit roll >= the target's S pushes it 1" away (+1 Damage if it
            # cannot move); the attacker follows up into the vacated cell unless it is engaged with
            # another enemy (docs/rules.md, close combat)
            ox = s.fi[b, t, FI_X]
            oy = s.fi[b, t, FI_Y]
            extra = knockback(s, st, b, f, t, rolls[i])
            if (s.fi[b, t, FI_X] != ox or s.fi[b, t, FI_Y] != oy) and count_engaged_enemies(s, b, f) == 0:
                s.fi[b, f, FI_X] = ox
                s.fi[b, f, FI_Y] = oy
                s.fi[b, f, FI_Z] = st.height[oy, ox]
        resolve_hit_cc(s, st, b, f, t, sv, ap, dmg + extra, tr, rolls[i], s.fi[b, f, FI_X], s.fi[b, f, FI_Y],
                       s.fi[b, t, FI_POSTURE] == PO_STANDING)
    if tr & T2_DRAG:
        for i in range(n_dice):
            if hits[i]:
                drag(s, st, b, f, t)  # once per weapon's attacks that hit (docs/rules.md)
                break
    return parries_left


@njit(cache=True)
def reckless_attacks(s, st, b, f, t, item, p, n_dice, mod):
    """Reckless (12) in close combat: each Attack dice of the weapon goes to a random model,
    friend or foe, in base contact with the attacker (same floor, any status), picked with
    shooting.random_index (E_TRAIT per die); then each model's dice are rolled as one attack
    with the declared target's hit modifier; each model may parry them (docs/rules.md)."""
    nf = s.fi.shape[1]
    cand = np.empty(nf, np.int64)
    n = 0
    for m in range(nf):
        if (m != f and s.fi[b, m, FI_STATE] == FS_ON and s.fi[b, m, FI_Z] == s.fi[b, f, FI_Z]
                and max(abs(s.fi[b, m, FI_X] - s.fi[b, f, FI_X]), abs(s.fi[b, m, FI_Y] - s.fi[b, f, FI_Y])) == 1):
            cand[n] = m
            n += 1
    if n == 0:
        cand[0] = t
        n = 1
    cnt = np.zeros(nf, np.int64)
    for _ in range(n_dice):
        i, r = random_index(s, b, n)
        cnt[cand[i]] += 1
        emit(s, b, E_TRAIT, f, cand[i], TR_RECKLESS, r, n, cand[i], 0)
    power = (st.wprof[s.wp[b, f, item, WP_ID], p, PF_TRAITS] & T_POWER) != 0
    for j in range(n):
        m = cand[j]
        if cnt[m] > 0:
            weapon_attacks(s, st, b, f, m, item, p, cnt[m], mod, parry_count(s, st, b, m, power))


@njit(cache=True)
def reckless(s, st, b, f, item, p):
    return item >= 0 and (traits_of(st, s.wp[b, f, item, WP_ID], p) & T2_RECKLESS) != 0


@njit(cache=True)
def close_combat_attacks(s, st, b, f, t, charging, reaction, extra_mod):
    """Steps 1-6 of rules 8.1 for f attacking t."""
    if s.fi[b, f, FI_STATE] != FS_ON or s.fi[b, t, FI_STATE] != FS_ON:
        return
    if reaction and not can_react(s, b, f):
        return  # Blaze: no reaction attacks (4.3)
    if not reaction:
        clear_entangled(s, b)
    mod = extra_mod
    if reaction and s.fi[b, f, FI_ENTANGLED]:
        mod += MOD_ENTANGLED  # Entangle natural 6 (12)
    # 1. turn to face
    tx = s.fi[b, t, FI_X]
    ty = s.fi[b, t, FI_Y]
    if reaction and s.fi[b, f, FI_STOOD]:
        # a Pinned fighter stood up by an engaging enemy counts as having turned to face [N23]
        s.fi[b, f, FI_STOOD] = 0
        mod += MOD_TURN
        s.fi[b, f, FI_FACING] = facing_towards(tx - s.fi[b, f, FI_X], ty - s.fi[b, f, FI_Y])
    elif not in_arc(s, st, b, f, tx, ty, s.fi[b, f, FI_FACING]):
        mod += MOD_TURN
        s.fi[b, f, FI_FACING] = facing_towards(tx - s.fi[b, f, FI_X], ty - s.fi[b, f, FI_Y])
    # 2-3. weapons and Attack dice
    i1, p1, i2, p2 = choose_melee_weapons(s, st, b, f)
    if max(abs(tx - s.fi[b, f, FI_X]), abs(ty - s.fi[b, f, FI_Y])) > 1:
        # attacking at Versatile reach: only the Versatile weapon reaches (12)
        i1, p1 = versatile_reach(s, st, b, f, t)
        i2 = -1
        if i1 < 0:
            return
    if reaction and s.fi[b, f, FI_DISARMED]:
        # Disarm (12): only unarmed reaction attacks for the rest of the round
        i1 = -1
        i2 = -1
    a = s.fi[b, f, FI_CH + CH_A]
    paired = i1 >= 0 and (st.wprof[s.wp[b, f, i1, WP_ID], p1, PF_TRAITS] & T_PAIRED) != 0
    if hands_full(s, b, f):
        # Mounted, Hands Full: one weapon in close combat, no Paired bonus or doubling (4.3)
        i2 = -1
        paired = False
    if i2 >= 0 or paired:
        a += 1
    if charging:
        a += 1
        if paired:
            # Paired (12): the Attacks characteristic is doubled when charging (+1 for the charge still applies)
            a += s.fi[b, f, FI_CH + CH_A]
    n1 = a
    n2 = 0
    n_unarmed = 0
    if i1 < 0:
        n_unarmed = a
        n1 = 0
    elif i2 >= 0:
        side1 = (st.wprof[s.wp[b, f, i1, WP_ID], p1, PF_TRAITS] & T_MELEE) == 0
        side2 = (st.wprof[s.wp[b, f, i2, WP_ID], p2, PF_TRAITS] & T_MELEE) == 0
        n1 = (a + 1) // 2
        n2 = a - n1
        if side1 and side2:
            n1 = 1
            n2 = 1
            n_unarmed = a - 2
        elif side2:
            n2 = 1
            n1 = a - 1
        elif side1:
            n1 = 1
            n2 = a - 1
    else:
        if (st.wprof[s.wp[b, f, i1, WP_ID], p1, PF_TRAITS] & T_MELEE) == 0:
            n1 = 1
            n_unarmed = a - 1
    # 5. modifiers
    ast, inter = assists(s, b, f, t)
    mod += ast - inter
    if reaction and s.fi[b, f, FI_BROKEN] and not house_legacy(s, b):
        mod += MOD_BROKEN_REACTION
    emit(s, b, E_ASSIST, f, t, ast, inter, 0, 0, 0)
    emit(s, b, E_ATTACKS, f, t, a, s.wp[b, f, i1, WP_ID] if i1 >= 0 else -1,
         s.wp[b, f, i2, WP_ID] if i2 >= 0 else -1, mod, 0)
    power1 = i1 >= 0 and (st.wprof[s.wp[b, f, i1, WP_ID], p1, PF_TRAITS] & T_POWER) != 0
    # Parry: one re-roll per Parry weapon for the whole attack (at most 2); only Power Parry
    # weapons parry Power weapons
    par_all = parry_count(s, st, b, t, False)
    par0 = parry_count(s, st, b, t, power1)
    if reckless(s, st, b, f, i1, p1):
        reckless_attacks(s, st, b, f, t, i1, p1, n1, mod)
        par = par0
    else:
        par = weapon_attacks(s, st, b, f, t, i1, p1, n1, mod, par0)
    used = par0 - par
    if i2 >= 0:
        power2 = (st.wprof[s.wp[b, f, i2, WP_ID], p2, PF_TRAITS] & T_POWER) != 0
        if power2 != power1:
            par = max(0, min(parry_count(s, st, b, t, power2), par_all - used))
        par0 = par
        if reckless(s, st, b, f, i2, p2):
            reckless_attacks(s, st, b, f, t, i2, p2, n2, mod)
        else:
            par = weapon_attacks(s, st, b, f, t, i2, p2, n2, mod, par)
        used += par0 - par
    if n_unarmed > 0:
        par = max(0, par_all - used)
    weapon_attacks(s, st, b, f, t, -1, 0, n_unarmed, mod, par)


@njit(cache=True)
def reactions(s, st, b, f, t):
    """Step 7: every enemy still Standing and Engaged with f attacks it back. A target t that
    f attacked at Versatile reach (not in base contact) reacts only if its own Versatile weapon
    reaches f (12)."""
    for e in range(s.fi.shape[1]):
        if s.fi[b, f, FI_STATE] != FS_ON or not standing(s, b, f):
            return
        if engaged_with(s, b, e, f) and can_react(s, b, e):
            emit(s, b, E_REACTION, e, f, 0, 0, 0, 0, 0)
            close_combat_attacks(s, st, b, e, f, False, True, 0)
    if (t >= 0 and s.fi[b, f, FI_STATE] == FS_ON and standing(s, b, f) and standing(s, b, t)
            and not engaged_with(s, b, t, f)):
        vi, _ = versatile_reach(s, st, b, t, f)
        if vi >= 0 and can_react(s, b, t):
            emit(s, b, E_REACTION, t, f, 0, 0, 0, 0, 0)
            close_combat_attacks(s, st, b, t, f, False, True, 0)


@njit(cache=True)
def fight(s, st, b, f, t, charging, extra_mod, engaged_before):
    """A Fight action (rules 8.1 steps 1-7). ``engaged_before`` marks the enemies f was
    engaged with when it declared the fight (for the follow-up, step 8)."""
    close_combat_attacks(s, st, b, f, t, charging, False, extra_mod)
    reactions(s, st, b, f, t)
    clear_entangled(s, b)


@njit(cache=True)
def clear_entangled(s, b):
    """Entangle's -2 (12) lasts for the reaction attacks of the fight in which it was scored."""
    for m in range(s.fi.shape[1]):
        s.fi[b, m, FI_ENTANGLED] = 0


@njit(cache=True)
def followup_options(s, b, f, engaged_before):
    """Step 8: (may coup de grace, may consolidate) after f's fight."""
    if s.fi[b, f, FI_STATE] != FS_ON or not standing(s, b, f) or s.fi[b, f, FI_BROKEN]:
        return False, False
    any_enemy = False
    all_si = True
    all_si_or_ooa = True
    for e in range(s.fi.shape[1]):
        if not engaged_before[e]:
            continue
        any_enemy = True
        if s.fi[b, e, FI_STATE] == FS_ON:
            if s.fi[b, e, FI_POSTURE] != PO_SI:
                all_si = False
                all_si_or_ooa = False
        else:
            all_si = False
    if not any_enemy:
        return False, False
    return all_si, all_si_or_ooa


@njit(cache=True)
def coup_de_grace(s, b, f, t):
    if has_cond(s, b, f, C_STARVING):
        cannibalise(s, b, f, t)  # a Starving fighter must Cannibalise instead (4.3)
        return
    emit(s, b, E_COUP, f, t, 0, 0, 0, 0, 0)
    s.fi[b, f, FI_FACING] = facing_towards(s.fi[b, t, FI_X] - s.fi[b, f, FI_X], s.fi[b, t, FI_Y] - s.fi[b, f, FI_Y])
    take_out(s, b, t, OOA_COUP)
