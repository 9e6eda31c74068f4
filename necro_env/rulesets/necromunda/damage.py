"""Resolving hits (rules 9): wound roll, save, damage, Injury dice.

``resolve_hit`` takes one hit of an attack and applies everything that
follows from it, including Nerve tests for the casualty's friends.
"""
from ...core.jit import njit

from .constants import (
    CH_CL, AF_FRONT_SAVE, AF_SAVE, AF_TEMPLATE_SAVE, T_GAS, T_MELTA, T_POWER, T_RENDING, T_SCATTERSHOT, T_SHOCK, T_TOXIN,
    T_WEB, T2_CONCUSSION, T2_CURSED, T2_FEAR, T2_FLASH, T2_PULVERISE, T2_RAD_PHAGE, T2_SEISMIC, T2_SEVER, T2_SHIELD_BREAKER,
    T2_GRAVITON, CH_S,
)
from .conditions import apply_concussion, apply_webbed, cursed_test, flash_test, strength_penalty
from .dice import INJ_OOA, INJ_SERIOUS, d6, injury_die, two_d6
from .events import (
    E_DAMAGE, E_FIELD, E_FLESH, E_INJURY, E_NERVE, E_OOA, E_SAVE, E_SERIOUS, E_TRAIT, E_WOUND, emit,
)
from .nerve import break_fighter, cool_bonus, nerve_tests
from .query import in_arc, toughness
from .state import (
    FI_ARMOUR, FI_BODYGLOVE, FI_BROKEN, FI_CH, FI_FACING, FI_FIELD, FI_FLESH, FI_POSTURE, FI_READY, FI_STATE,
    FI_WOUNDS, FS_OOA, PO_SI, FI_SHIELD,
)

OOA_INJURY = 0
OOA_TOUGHNESS = 1
OOA_COUP = 2
OOA_UNSTABLE = 3
OOA_RECOVERY = 4

# E_TRAIT codes (a): trait rolls made after a hit (12)
TR_PULVERISE = 1
TR_RAD_PHAGE = 2
TR_GRAVITON = 3  # Graviton Pulse Strength check (12): roll, need = S, effect 1 = failed (damage)
# issue 3 item 4 (R1) traits, numbered from 10 so that other helpers' codes do not collide
TR_MASTER_CRAFTED = 10  # roll = the re-rolled hit roll's first result
TR_RECKLESS = 11  # roll = the D6 picking the target, need = candidates, effect = the chosen fighter
TR_DRAG = 12  # roll vs need = the target's S; effect = inches pulled
TR_IMPALE = 13  # roll vs need 3; effect = 1 if the next model is hit (actor = that model)
TR_ENTANGLE = 14  # a natural 6 to hit: the target's reaction attacks get -2 (actor = the target)

# resolve_hit_x results
HIT_STOPPED = 0  # no effect: the target was not on the battlefield or a refractor field stopped the hit
HIT_NO_WOUND = 1  # resolved without an unsaved wound
HIT_UNSAVED = 2  # at least one wound roll succeeded and was not saved (Impale, 12)

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


@njit(cache=True)
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
    roll_injuries_x(s, b, f, n, melta, False)


@njit(cache=True)
def roll_injuries_x(s, b, f, n, melta, pulverise):
    """Roll n Injury dice (all Out of Action for Melta / Sever) and apply them. Pulverise (12):
    after the roll a D6 >= the target's Toughness or a natural 6 turns one Flesh Wound into a
    Serious Injury (event ``trait``)."""
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
    if pulverise and n_fw > 0:
        r = d6(s, b)
        t = toughness(s, b, f)
        ok = r >= t or r == 6
        emit(s, b, E_TRAIT, f, -1, TR_PULVERISE, r, t, 1 if ok else 0, 0)
        if ok:
            n_fw -= 1
            n_si += 1
    apply_injuries(s, b, f, n_ooa, n_si, n_fw)


@njit(cache=True)
def save_target(s, st, b, tgt, ox, oy, ap, no_armour, front_arc):
    """Best available armour save target after AP (7+ = no save possible).

    ``front_arc``: the target was Standing (had a vision arc) when the attack was
    made, so front-arc armour counts even if the hit has just pinned it
    (docs/rules.md, 9.2)."""
    return save_target_x(s, st, b, tgt, ox, oy, ap, no_armour, front_arc, False, 0)


@njit(cache=True)
def save_target_x(s, st, b, tgt, ox, oy, ap, no_armour, front_arc, area, bonus):
    """``save_target`` for Blast and Flame template hits (``area``): the armour's template
    save (flak 5+) counts, and ``bonus`` (+1 partial / +2 full cover from the marker's centre
    or the flamer, 7.11) improves the armour save; a fighter without armour counts as 7+
    before the bonus. The bonus never takes the save past 2+."""
    if no_armour:
        return 7
    arm = s.fi[b, tgt, FI_ARMOUR]
    sv = st.armour[arm, AF_SAVE]
    if area and st.armour[arm, AF_TEMPLATE_SAVE] > 0:
        sv = min(sv, st.armour[arm, AF_TEMPLATE_SAVE])
    front = st.armour[arm, AF_FRONT_SAVE]
    if front > 0 and front_arc:
        if in_arc(s, st, b, tgt, ox, oy, s.fi[b, tgt, FI_FACING]):
            sv = min(sv, front)
    if s.fi[b, tgt, FI_BODYGLOVE]:
        sv = 6 if sv >= 7 else sv - 1
    if bonus > 0:  # the bonus never takes a save past 2+
        sv = max(min(sv, 2), sv - bonus)
    return sv + ap


@njit(cache=True)
def field_armour(s, b, tgt):
    """Refractor field: on 5+ the hit is ignored; each time it works, a 1 burns it out."""
    return field_armour_x(s, b, tgt, False)


@njit(cache=True)
def field_armour_x(s, b, tgt, breaker):
    """``field_armour``; against Shield Breaker (12) two dice are rolled and the lower kept."""
    if s.fi[b, tgt, FI_FIELD] != 1:
        return False
    r = d6(s, b)
    if breaker:
        r2 = d6(s, b)
        if r2 < r:
            r = r2
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
    return resolve_hit_x(s, st, b, att, tgt, S, ap, dmg, traits, nat_hit, short_band, ox, oy, front_arc, False, 0,
                         False)


@njit(cache=True)
def resolve_hit_cc(s, st, b, att, tgt, S, ap, dmg, traits, nat_hit, ox, oy, front_arc):
    """``resolve_hit`` for a close combat hit (a shield gives +2 instead of +1, 12)."""
    return resolve_hit_x(s, st, b, att, tgt, S, ap, dmg, traits, nat_hit, True, ox, oy, front_arc, False, 0, True)


@njit(cache=True)
def shield_bonus(s, st, b, tgt, ox, oy, front_arc, melee, traits):
    """Assault / Energy Shield (12): +2 to the armour save against a close combat attack, +1
    against a ranged one, made from inside the bearer's front (90 degree vision) arc; the origin
    (ox, oy) is the attacker or a Blast marker's centre. Useless while Prone (``front_arc`` says
    the bearer was Standing when the attack was made) and against Shield Breaker."""
    if s.fi[b, tgt, FI_SHIELD] == 0 or not front_arc or (traits & T2_SHIELD_BREAKER):
        return 0
    if not in_arc(s, st, b, tgt, ox, oy, s.fi[b, tgt, FI_FACING]):
        return 0
    return 2 if melee else 1


@njit(cache=True)
def resolve_hit_x(s, st, b, att, tgt, S, ap, dmg, traits, nat_hit, short_band, ox, oy, front_arc, area, bonus,
                  melee):
    """``resolve_hit`` with the Blast / Flame template save rules (``area``, cover ``bonus``;
    see save_target_x) and the traits of section 12 that act on a hit. ``traits`` is the int64
    of weapons.traits_of. After a hit that a refractor field did not stop: Concussion, Cursed
    and Rad-phage (docs/rules.md). ``melee``: a close combat hit (shields, 12). Returns HIT_*."""
    if s.fi[b, tgt, FI_STATE] != 1:
        return HIT_STOPPED
    bonus += shield_bonus(s, st, b, tgt, ox, oy, front_arc, melee, traits)
    res = hit_body(s, st, b, att, tgt, S, ap, dmg, traits, nat_hit, short_band, ox, oy, front_arc, area, bonus)
    if res == HIT_STOPPED or s.fi[b, tgt, FI_STATE] != 1:
        return res
    if traits & T2_CONCUSSION:
        apply_concussion(s, st, b, tgt, att)
    if traits & T2_CURSED:
        cursed_test(s, st, b, att, tgt)
    if (traits & T2_RAD_PHAGE) and not s.fi[b, tgt, FI_BODYGLOVE] and s.fi[b, tgt, FI_STATE] == 1:
        r = d6(s, b)
        emit(s, b, E_TRAIT, tgt, att, TR_RAD_PHAGE, r, 4, 1 if r >= 4 else 0, 0)
        if r >= 4:
            flesh_wound(s, b, tgt)
    return res


@njit(cache=True)
def hit_body(s, st, b, att, tgt, S, ap, dmg, traits, nat_hit, short_band, ox, oy, front_arc, area, bonus):
    """Wound roll(s), save, damage and Injury dice of one hit. Gas (12): no wound roll, D6 >= T
    or a natural 6 rolls an Injury dice, no save of any kind. Web (12): a successful wound roll
    makes the target Webbed, nothing else. Flash (12): no wound roll, an Initiative test or Blind.
    Seismic: a natural 6 wound roll allows no save. Sever: a hit that takes the fighter to 0
    Wounds makes its Injury dice Out of Action. Shield Breaker: the refractor field rolls two dice,
    keeping the lower. Returns HIT_STOPPED if a refractor field stopped the hit, HIT_UNSAVED if a
    wound roll succeeded (or an Injury roll was due) and no save stopped it, else HIT_NO_WOUND.
    ``bonus`` (cover, shields) improves the armour save only, never the field (9.2)."""
    gas = (traits & (T_GAS | T2_GRAVITON)) != 0  # neither allows a save of any kind (12)
    power6 = (traits & T_POWER) != 0 and nat_hit == 6
    # one save per hit (9.2): a working field (5+, not modified by AP) is used instead of the
    # armour save when the armour save after AP is worse than 5+ (docs/rules.md, saves)
    used_field = (not gas and s.fi[b, tgt, FI_FIELD] == 1
                  and save_target_x(s, st, b, tgt, ox, oy, ap, power6, front_arc, area, 0) > 5)
    if used_field and field_armour_x(s, b, tgt, (traits & T2_SHIELD_BREAKER) != 0):
        return HIT_STOPPED
    if traits & T2_FLASH:
        flash_test(s, st, b, att, tgt)
        return HIT_NO_WOUND
    res = HIT_NO_WOUND
    pulverise = (traits & T2_PULVERISE) != 0
    fear = (traits & T2_FEAR) != 0
    n_wound_rolls = 1
    if traits & T_SCATTERSHOT:
        n_wound_rolls = d6(s, b)
    for _ in range(n_wound_rolls):
        if s.fi[b, tgt, FI_STATE] != 1:
            return res
        T = toughness(s, b, tgt)
        extra = 0
        no_save = power6
        toxin_injury = False
        if traits & T2_GRAVITON:
            # Graviton Pulse (12): no wound roll; D6 <= S (a 6 always fails) or the weapon's Damage
            r = d6(s, b)
            need = s.fi[b, tgt, FI_CH + CH_S] - strength_penalty(s, b, tgt)
            failed = r == 6 or r > need
            emit(s, b, E_TRAIT, tgt, att, TR_GRAVITON, r, need, 1 if failed else 0, 0)
            if not failed:
                continue
        elif gas:
            r = d6(s, b)
            ok = r >= T or r == 6
            emit(s, b, E_WOUND, att, tgt, r, T, 1 if ok else 0, S, T)
            if ok:
                res = HIT_UNSAVED
                injuries_or_fear(s, b, att, tgt, 1, False, pulverise, fear)
            continue
        if traits & T2_GRAVITON:
            pass  # the Strength check above replaced the wound roll; no save follows
        elif traits & T_TOXIN:
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
            if (traits & T2_SEISMIC) and r == 6:
                no_save = True
            if traits & T_WEB:
                apply_webbed(s, st, b, tgt, att)
                continue
        # save
        sneed = 7 if (used_field or gas) else save_target_x(s, st, b, tgt, ox, oy, ap, no_save, front_arc, area, bonus)
        if sneed <= 6:
            r = d6(s, b)
            saved = r != 1 and r >= sneed
            emit(s, b, E_SAVE, tgt, att, r, sneed, 1 if saved else 0, r, 0)
            if saved:
                continue
        res = HIT_UNSAVED
        if power6:
            extra += 1
        melta = (traits & T_MELTA) != 0 and short_band
        if toxin_injury or dmg == 0:
            injuries_or_fear(s, b, att, tgt, 1, False, pulverise, fear)
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
        sever = (traits & T2_SEVER) != 0 and wb > 0
        injuries_or_fear(s, b, att, tgt, n_inj, melta or sever, pulverise, fear)
    return res


@njit(cache=True)
def injuries_or_fear(s, b, att, tgt, n, melta, pulverise, fear):
    """Roll the hit's Injury dice, or for a Fear weapon (12), instead of any Injury roll, a Nerve
    test at -2 for the target (2D6 + the usual friends bonus - 2 >= Cool): a failure makes it
    Broken (it then runs for cover). A fighter already Broken takes no test."""
    if not fear:
        roll_injuries_x(s, b, tgt, n, melta, pulverise)
        return
    if s.fi[b, tgt, FI_BROKEN]:
        return
    r = two_d6(s, b) + cool_bonus(s, b, tgt) - 2
    need = s.fi[b, tgt, FI_CH + CH_CL]
    ok = r >= need
    emit(s, b, E_NERVE, tgt, att, r, need, 1 if ok else 0, 0, 0)
    if not ok:
        break_fighter(s, b, tgt)
