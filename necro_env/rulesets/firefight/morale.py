"""Morale at the end of the round, Shaken's end, routing (rules digest §7.2, §8, §10 Hero and Fearless).

``end_of_round`` (the engine calls it after the objectives' control check and before fatigue is
cleared): an army whose starting units still in play are no more than half of its starting units
(the seed's «nie więcej niż połowa», §13.1) tests every one of its units on the table. Units still in
play are those with ``U_START`` that are neither destroyed nor routed: an Ambush unit still waiting
counts (§13 Q23) but, being off the table, does not test. Both armies' counts are taken before any
test. The test is a Quality test (§1, natural 6 / 1); a unit may use the Quality of a friendly Hero
within 12" (§12.2 distance between the closest models) when that is better, unless the hero was
Shaken when the step began. A Shaken unit fails without rolling (§7.2; the hero does not help it,
§13 Q9). A unit whose models all have Fearless rolls a D6 after any failure, the automatic one
included (§13 Q9): 4+ counts as a pass. A failure makes the unit Shaken, or routs it (removed, counted
as destroyed) when it was Shaken already.
"""
import numpy as np

from ...core.jit import njit
from .combat_events import (
    E_FEARLESS, E_MORALE, E_MORALE_CHECK, E_SHAKEN_CLEARED, MO_FEARLESS, MO_PASSED, MO_ROUTED, MO_SHAKEN, RM_ROUTED,
    SH_MORALE,
)
from .constants import HERO_RANGE_IN, R_FEARLESS, R_HERO, US_DEAD, US_EMPTY, US_ON, US_ROUTED
from .dice import d6, pass_roll, passes
from .events import emit
from .grid import unit_dist2
from .state import G_MU, M_ALIVE, U_QUALITY, U_RULES, U_SHAKEN, U_SIDE, U_START, U_STATE
from .wounds import make_shaken, remove_model

FEARLESS_NEED = 4


@njit(cache=True)
def army_count(s, b, side):
    """(starting units still in play, starting units) of one side (module docstring)."""
    start = 0
    left = 0
    for u in range(2 * s.g[b, G_MU]):
        if s.u[b, u, U_SIDE] != side or s.u[b, u, U_START] == 0 or s.u[b, u, U_STATE] == US_EMPTY:
            continue
        start += 1
        if s.u[b, u, U_STATE] != US_DEAD and s.u[b, u, U_STATE] != US_ROUTED:
            left += 1
    return left, start


@njit(cache=True)
def best_hero(s, b, u, heroes):
    """The friendly hero whose Quality unit u may use (§8): in ``heroes``, within 12", better than u's own."""
    best = -1
    q = s.u[b, u, U_QUALITY]
    r = HERO_RANGE_IN + 1
    for h in range(heroes.shape[0]):
        if heroes[h] and h != u and s.u[b, h, U_SIDE] == s.u[b, u, U_SIDE] and s.u[b, h, U_STATE] == US_ON \
                and s.u[b, h, U_QUALITY] < q and unit_dist2(s, b, h, u) <= r * r:
            best = h
            q = s.u[b, h, U_QUALITY]
    return best


@njit(cache=True)
def rout(s, b, u):
    for i in range(s.m.shape[2]):
        if s.m[b, u, i, M_ALIVE]:
            remove_model(s, b, u, i, -1, RM_ROUTED)


@njit(cache=True)
def morale_test(s, b, u, heroes):
    """One unit's morale test (module docstring). Returns MO_*."""
    hero = best_hero(s, b, u, heroes)
    need = s.u[b, u, U_QUALITY] if hero < 0 else s.u[b, hero, U_QUALITY]
    shaken = s.u[b, u, U_SHAKEN] != 0
    face = 0
    passed = False
    if not shaken:
        passed, face = pass_roll(s, b, need, 0)
    outcome = MO_PASSED
    if not passed:
        outcome = MO_ROUTED if shaken else MO_SHAKEN
        if s.u[b, u, U_RULES] & R_FEARLESS:
            f2 = d6(s, b)
            saved = passes(f2, FEARLESS_NEED, 0)
            emit(s, b, E_FEARLESS, u, -1, f2, 1 if saved else 0, 0, 0, 0)
            if saved:
                outcome = MO_FEARLESS
    emit(s, b, E_MORALE, u, -1, face, need, 1 if passed else 0, hero, outcome)
    if outcome == MO_SHAKEN:
        make_shaken(s, b, u, SH_MORALE)
    elif outcome == MO_ROUTED:
        rout(s, b, u)
    return outcome


@njit(cache=True)
def end_of_round(s, b):
    """§8 for both armies (module docstring)."""
    n = 2 * s.g[b, G_MU]
    heroes = np.zeros(n, np.int64)
    testing = np.zeros(2, np.int64)
    for u in range(n):
        if s.u[b, u, U_STATE] == US_ON and s.u[b, u, U_RULES] & R_HERO and s.u[b, u, U_SHAKEN] == 0:
            heroes[u] = 1
    for side in range(2):
        left, start = army_count(s, b, side)
        testing[side] = 1 if start > 0 and 2 * left <= start else 0
        emit(s, b, E_MORALE_CHECK, side, -1, left, start, testing[side], 0, 0)
    for u in range(n):
        if s.u[b, u, U_STATE] == US_ON and testing[s.u[b, u, U_SIDE]]:
            morale_test(s, b, u, heroes)


@njit(cache=True)
def clear_shaken(s, b, unit):
    """§7.2: the unit spent its activation idle, and is Shaken no more."""
    if s.u[b, unit, U_SHAKEN]:
        s.u[b, unit, U_SHAKEN] = 0
        emit(s, b, E_SHAKEN_CLEARED, -1, unit, 0, 0, 0, 0, 0)
