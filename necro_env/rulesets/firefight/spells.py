"""Caster(X) and a small spell set of ours (rules digest §10 Caster, §13 Q18, §13.1).

The seed gives the mechanism and no spells («Gracze mogą ...» names none; spells come from army
lists). The three spells below are OUR interpretation, chosen 2026-12-02 so that the mechanism can be
played and tested: they are not OnePageRules' text.

| spell | tokens | target | effect |
|---|---|---|---|
| ``SP_BOLT`` (0) "Bolt" | 1 | an enemy unit within 18" | 1 hit with AP(2) |
| ``SP_STORM`` (1) "Storm" | 2 | an enemy unit within 12" | 3 hits, no AP |
| ``SP_STEADY`` (2) "Steady" | 1 | a friendly unit within 12" (itself too) | it stops being Shaken |

Mechanism (seed): a caster gains X tokens at the start of each round, holding at most 6
(``start_of_round``, which also forgets the spells tried last round). Before it attacks it may spend a
spell's tokens to try it, each spell once a round (a unit activates once a round, so this is the
seed's "one try per spell"); it needs a target in line of sight of one of its models and within the
spell's range (§12.2 distance). The casting roll is a D6 needing 4+ with natural 6 / natural 1 (§13.1)
and a modifier: before the roll, units with tokens that have a model within 18" of, and in sight of,
a model of the caster's unit (``can_help``; the caster itself too) may spend tokens at the same time,
each token +1 or -1 as its spender chooses (§13.1: the choices are secret and simultaneous). Spell
hits are not shooting: no cover; they are one batch of their own (wounds.take_hits).

Decisions for the engine: (1) the caster: which spell at which target, or none (``can_cast`` is the
mask's test), before its shooting or its charge attacks; (2) every unit that ``can_help``: how many
tokens, and +1 or -1 each, asked of both players without showing one the other's choice; the engine
calls ``spend_tokens`` for each and passes the signed sum to ``cast``.
"""
import numpy as np

from ...core.jit import njit
from ...core.sight import SIGHT_BLOCKED
from .combat_events import E_CAST, E_TOKENS
from .constants import US_DEAD, US_EMPTY, US_ON, US_ROUTED
from .dice import pass_roll
from .events import emit
from .grid import within
from .morale import clear_shaken
from .shooting import line_flags
from .state import G_MU, M_ALIVE, M_X, M_Y, U_CASTER, U_SHAKEN, U_SIDE, U_SPELLS, U_STATE, U_TOKENS
from .wounds import take_hits

SP_BOLT = 0
SP_STORM = 1
SP_STEADY = 2
SPELL_NAMES = ("bolt", "storm", "steady")
N_SPELLS = 3
SPELL_COST = np.array([1, 2, 1], np.int64)
SPELL_RANGE = np.array([18, 12, 12], np.int64)
SPELL_FRIENDLY = np.array([0, 0, 1], np.int64)
SPELL_HITS = np.array([1, 3, 0], np.int64)
SPELL_AP = np.array([2, 0, 0], np.int64)

MAX_TOKENS = 6
CAST_NEED = 4
HELP_RANGE_IN = 18


@njit(cache=True)
def start_of_round(s, b):
    """Each caster still in the game gains X tokens, to at most 6; every unit may try its spells again."""
    for u in range(2 * s.g[b, G_MU]):
        state = s.u[b, u, U_STATE]
        s.u[b, u, U_SPELLS] = 0
        x = s.u[b, u, U_CASTER]
        if x > 0 and state != US_EMPTY and state != US_DEAD and state != US_ROUTED:
            before = s.u[b, u, U_TOKENS]
            s.u[b, u, U_TOKENS] = min(before + x, MAX_TOKENS)
            if s.u[b, u, U_TOKENS] > before:
                emit(s, b, E_TOKENS, u, -1, s.u[b, u, U_TOKENS] - before, s.u[b, u, U_TOKENS], -1, 0, 0)


@njit(cache=True)
def sees_within(s, b, st, u, v, inches):
    """Has a model of unit u a model of unit v within ``inches`` and in line of sight?"""
    mm = s.m.shape[2]
    for i in range(mm):
        if s.m[b, u, i, M_ALIVE] == 0:
            continue
        x0 = np.int64(s.m[b, u, i, M_X])
        y0 = np.int64(s.m[b, u, i, M_Y])
        for j in range(mm):
            if s.m[b, v, j, M_ALIVE] == 0:
                continue
            x1 = np.int64(s.m[b, v, j, M_X])
            y1 = np.int64(s.m[b, v, j, M_Y])
            if within(x0, y0, x1, y1, inches) and (line_flags(st, x0, y0, x1, y1) & SIGHT_BLOCKED) == 0:
                return True
    return False


@njit(cache=True)
def can_cast(s, b, caster, spell, target, st=None):
    """May ``caster`` try ``spell`` on ``target`` now (module docstring)?"""
    if spell < 0 or spell >= N_SPELLS or caster < 0 or caster >= s.u.shape[1] or target < 0 \
            or target >= s.u.shape[1]:
        return False
    if s.u[b, caster, U_STATE] != US_ON or s.u[b, caster, U_CASTER] <= 0 or s.u[b, caster, U_SHAKEN]:
        return False
    if s.u[b, caster, U_TOKENS] < SPELL_COST[spell] or s.u[b, caster, U_SPELLS] & (1 << spell):
        return False
    if s.u[b, target, U_STATE] != US_ON:
        return False
    friendly = s.u[b, target, U_SIDE] == s.u[b, caster, U_SIDE]
    if friendly != (SPELL_FRIENDLY[spell] == 1):
        return False
    return sees_within(s, b, st, caster, target, SPELL_RANGE[spell])


@njit(cache=True)
def can_help(s, b, helper, caster, st=None):
    """May ``helper`` spend tokens on ``caster``'s roll: it has tokens and a model within 18" of, and in sight of,
    a model of the caster's unit."""
    if s.u[b, helper, U_STATE] != US_ON or s.u[b, helper, U_TOKENS] <= 0 or s.u[b, caster, U_STATE] != US_ON:
        return False
    return sees_within(s, b, st, helper, caster, HELP_RANGE_IN)


@njit(cache=True)
def spend_tokens(s, b, helper, n, caster):
    """``helper`` spends n of its tokens on ``caster``'s roll (the engine adds their signs). Returns n spent."""
    n = min(max(n, 0), s.u[b, helper, U_TOKENS])
    if n > 0:
        s.u[b, helper, U_TOKENS] -= n
        emit(s, b, E_TOKENS, helper, caster, -n, s.u[b, helper, U_TOKENS], caster, 0, 0)
    return n


@njit(cache=True)
def cast(s, b, caster, spell, target, modifier, st=None):
    """Try ``spell`` on ``target`` with the helpers' net ``modifier``: pay its tokens, roll 4+ (natural
    6 / 1), resolve it. Returns 1 cast, 0 failed, -1 not allowed (nothing changed)."""
    if not can_cast(s, b, caster, spell, target, st):
        return -1
    s.u[b, caster, U_TOKENS] -= SPELL_COST[spell]
    s.u[b, caster, U_SPELLS] |= 1 << spell
    ok, face = pass_roll(s, b, CAST_NEED, modifier)
    emit(s, b, E_CAST, caster, target, spell, face, modifier, 1 if ok else 0, 0)
    if not ok:
        return 0
    if spell == SP_STEADY:
        clear_shaken(s, b, target)
    else:
        take_hits(s, b, target, SPELL_HITS[spell], SPELL_AP[spell], caster)
    return 1
