"""Priority phase (2.2) and End phase (11): bottle checks, fleeing, recovery, rally."""
import numpy as np
from ...core.jit import njit

from .constants import CH_CL
from .damage import flesh_wound, take_out, OOA_RECOVERY
from .dice import INJ_OOA, INJ_SERIOUS, d6, injury_die, two_d6
from .events import E_BOTTLE, E_FLEE, E_INIT, E_PRIORITY, E_RALLY, E_RECOVERY, E_ROUND, emit
from .conditions import CAUSE_END_PHASE, clear_cond, gets_ready, has_cond
from .movement import normalize_engagement
from .nerve import cool_bonus
from .query import gang_of, initiative, is_engaged, within_f
from .variant import capable, house_legacy
from .state import (
    FI_BROKEN, FI_CH, FI_DISARMED, FI_HIER, FI_POSTURE,
    FI_STOOD,
    FI_READY, FI_STATE, FS_FLED, FS_OOA, FS_ON, G_LASTPRIO, G_MF, G_NGANGS, G_PRIORITY, G_ROUND, GG_BOTTLED, GG_CREW, GG_FLEE_ASKED, GG_ORDER, GG_OUT, GG_RETREATED, GG_ROLL, GG_VOLBOTTLE, PO_PINNED, PO_SI,
    PO_STANDING, C_WEBBED,
)

RECOVERY_RANK = np.array([2, 1, 0])  # preference when choosing among dice: flesh > serious > out of action


@njit(cache=True)
def gang_at(s, b, pos):
    for g in range(s.g[b, G_NGANGS]):
        if s.gang[b, g, GG_ORDER] == pos:
            return g
    return 0


@njit(cache=True)
def priority_phase(s, b):
    """Roll for Priority; give every fighter on the battlefield a Ready marker (2.2)."""
    ng = s.g[b, G_NGANGS]
    s.g[b, G_ROUND] += 1
    emit(s, b, E_ROUND, -1, -1, s.g[b, G_ROUND], 0, 0, 0, 0)
    rolls = np.zeros(ng, np.int64)
    # order: highest roll first; ties re-rolled among the tied gangs, except the
    # two-gang tie after round 1, where Priority passes to the other gang
    key = np.zeros(ng, np.int64)
    for g in range(ng):
        rolls[g] = d6(s, b)
        emit(s, b, E_PRIORITY, g, -1, rolls[g], -1, 0, 0, 0)
        key[g] = rolls[g] * 64
    resolved = False
    while not resolved:
        resolved = True
        for g in range(ng):
            for h in range(g + 1, ng):
                if key[g] == key[h]:
                    resolved = False
        if resolved:
            break
        if ng == 2 and s.g[b, G_LASTPRIO] >= 0:
            other = 1 - s.g[b, G_LASTPRIO]
            key[other] += 1
            continue
        # re-roll every tie group: all keys move to a finer scale, tied gangs add a new die
        tied = np.zeros(ng, np.bool_)
        for g in range(ng):
            for h in range(ng):
                if h != g and key[h] == key[g]:
                    tied[g] = True
        for g in range(ng):
            key[g] = key[g] * 8
            if tied[g]:
                r = d6(s, b)
                emit(s, b, E_PRIORITY, g, -1, r, -2, 0, 0, 0)
                key[g] += r
    # rank: position = number of gangs with a larger key
    for g in range(ng):
        pos = 0
        for h in range(ng):
            if key[h] > key[g] or (key[h] == key[g] and h < g):
                pos += 1
        s.gang[b, g, GG_ORDER] = pos
        s.gang[b, g, GG_ROLL] = rolls[g]
        s.gang[b, g, GG_FLEE_ASKED] = 0
        if pos == 0:
            s.g[b, G_PRIORITY] = g
    emit(s, b, E_PRIORITY, s.g[b, G_PRIORITY], -1, rolls[s.g[b, G_PRIORITY]], 0, 0, 0, 0)
    s.g[b, G_LASTPRIO] = s.g[b, G_PRIORITY]
    for f in range(s.fi.shape[1]):
        s.fi[b, f, FI_DISARMED] = 0
        s.fi[b, f, FI_STOOD] = 0
        # a Blind fighter that had no Ready marker gets none this round (4.3)
        s.fi[b, f, FI_READY] = 1 if (s.fi[b, f, FI_STATE] == FS_ON and gets_ready(s, b, f)) else 0


@njit(cache=True)
def casualties(s, b, g):
    """Fighters of gang g that are Prone and Seriously Injured or Out of Action (11.1)."""
    mf = s.g[b, G_MF]
    n = 0
    for i in range(mf):
        f = g * mf + i
        st_ = s.fi[b, f, FI_STATE]
        if st_ == FS_OOA or (st_ == FS_ON and s.fi[b, f, FI_POSTURE] == PO_SI):
            n += 1
    return n


@njit(cache=True)
def needs_bottle_check(s, b, g):
    if s.gang[b, g, GG_BOTTLED] or s.gang[b, g, GG_OUT]:
        return False
    return casualties(s, b, g) > 0


@njit(cache=True)
def bottle_check(s, b, g):
    r = d6(s, b)
    c = casualties(s, b, g)
    crew = s.gang[b, g, GG_CREW]
    vol = s.gang[b, g, GG_VOLBOTTLE]
    bottled = vol == 1 or r + c > crew
    emit(s, b, E_BOTTLE, g, -1, r, r + c, crew, 1 if bottled else 0, vol)
    if bottled:
        s.gang[b, g, GG_BOTTLED] = 1


@njit(cache=True)
def flee_tests(s, b, g):
    """Fleeing the battlefield (11.2): a Cool test per fighter; Gang Hierarchy fighters test
    first and, on a pass, carry friends within 12" (leader) or 6" (champion)."""
    mf = s.g[b, G_MF]
    safe = np.zeros(mf, np.bool_)
    for level in range(2, -1, -1):
        for i in range(mf):
            f = g * mf + i
            if s.fi[b, f, FI_STATE] != FS_ON or s.fi[b, f, FI_HIER] != level:
                continue
            if safe[i]:
                # passes automatically; a Gang Hierarchy fighter that passes (even automatically)
                # extends the protection (docs/rules.md, fleeing)
                emit(s, b, E_FLEE, f, -1, 0, 0, 0, 1, 0)
                ok = True
            else:
                r = two_d6(s, b)
                need = s.fi[b, f, FI_CH + CH_CL]
                ok = r >= need
                emit(s, b, E_FLEE, f, -1, r, need, 0 if ok else 1, 0, 0)
            if not ok:
                s.fi[b, f, FI_STATE] = FS_FLED
                s.fi[b, f, FI_READY] = 0
            elif level > 0:
                rng = 12.0 if level == 2 else 6.0
                for j in range(mf):
                    o = g * mf + j
                    if o != f and s.fi[b, o, FI_STATE] == FS_ON and within_f(s, b, f, o, rng):
                        safe[j] = True


@njit(cache=True)
def capable_enemy_within1(s, b, f):
    g = gang_of(s, b, f)
    for e in range(s.fi.shape[1]):
        if gang_of(s, b, e) != g and capable(s, b, e) and within_f(s, b, f, e, 1.0):
            return True
    return False


@njit(cache=True)
def recovery(s, b, g, assisted_by):
    """Recovery tests for gang g's Prone and Seriously Injured fighters (11.3)."""
    mf = s.g[b, G_MF]
    hl = house_legacy(s, b)
    for i in range(mf):
        f = g * mf + i
        if s.fi[b, f, FI_STATE] != FS_ON or s.fi[b, f, FI_POSTURE] != PO_SI:
            continue
        if hl and capable_enemy_within1(s, b, f):
            continue  # [HL] 4.4: no Recovery test within 1" of a capable enemy
        helper = -1
        for j in range(mf):
            o = g * mf + j
            # a Standing and Active friend (Broken is a condition, not a status: it may assist, 11.3 [CZ]);
            # House Legacy: only capable fighters assist (4.5), so not a Broken one
            if (o != f and s.fi[b, o, FI_STATE] == FS_ON and s.fi[b, o, FI_POSTURE] == PO_STANDING
                    and not is_engaged(s, b, o) and assisted_by[o] == 0
                    and within_f(s, b, f, o, 1.0) and (not hl or capable(s, b, o))):
                helper = o
                break
        r, face = injury_die(s, b)
        face2 = 0
        if helper >= 0:
            assisted_by[helper] = 1
            r2, face2 = injury_die(s, b)
            if RECOVERY_RANK[r2] > RECOVERY_RANK[r]:
                r = r2
        emit(s, b, E_RECOVERY, f, -1, r, face, helper, face2, 0)
        webbed = has_cond(s, b, f, C_WEBBED)
        if r == INJ_OOA:
            take_out(s, b, f, OOA_RECOVERY)
        elif r == INJ_SERIOUS:
            # Webbed (4.3): stays Webbed and takes no Flesh Wound
            if helper < 0 and not webbed:
                flesh_wound(s, b, f)
        else:
            if webbed:
                clear_cond(s, b, f, C_WEBBED, -1, CAUSE_END_PHASE)  # Flesh Wound result: free of the web (4.3)
            if helper < 0:
                flesh_wound(s, b, f)
            if s.fi[b, f, FI_STATE] == FS_ON:
                s.fi[b, f, FI_POSTURE] = PO_PINNED
    normalize_engagement(s, b)


@njit(cache=True)
def rally(s, b, g):
    mf = s.g[b, G_MF]
    for i in range(mf):
        f = g * mf + i
        if s.fi[b, f, FI_STATE] != FS_ON or not s.fi[b, f, FI_BROKEN]:
            continue
        r = two_d6(s, b)
        bonus = cool_bonus(s, b, f)
        need = s.fi[b, f, FI_CH + CH_CL]
        ok = r + bonus >= need
        emit(s, b, E_RALLY, f, -1, r + bonus, need, 1 if ok else 0, 0, 0)
        if ok:
            s.fi[b, f, FI_BROKEN] = 0


@njit(cache=True)
def voluntary_retreat(s, st, b, g):
    """A bottled gang leaves the battle (11.2): Standing and Active or Prone and Pinned fighters
    flee; each Engaged one tests Initiative, failing = Prone and Seriously Injured."""
    mf = s.g[b, G_MF]
    s.gang[b, g, GG_RETREATED] = 1
    for i in range(mf):
        f = g * mf + i
        if s.fi[b, f, FI_STATE] != FS_ON or s.fi[b, f, FI_POSTURE] == PO_SI:
            continue
        if is_engaged(s, b, f):
            r = d6(s, b)
            need = initiative(s, st, b, f)
            ok = r >= need
            emit(s, b, E_INIT, f, -1, r, need, 1 if ok else 0, 3, 0)
            if not ok:
                s.fi[b, f, FI_POSTURE] = PO_SI
                continue
        s.fi[b, f, FI_STATE] = FS_FLED
        s.fi[b, f, FI_READY] = 0
        emit(s, b, E_FLEE, f, -1, 0, 0, 1, 2, 0)
