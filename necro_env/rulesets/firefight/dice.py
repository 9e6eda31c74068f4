"""Firefight's dice (DESIGN.md §3): every roll is a D6 from core.rng.roll_d6, so a scripted test
lists plain D6 faces in the order the rules roll them.

``quality_test`` and ``pass_roll`` apply §1's natural 6 / natural 1: a 6 always succeeds and a
1 always fails, whatever the modifiers (hit rolls, Defense rolls, morale tests, jump rolls).
"""
from ...core.jit import njit
from ...core.rng import roll_d6


@njit(cache=True)
def d6(s, b):
    return roll_d6(s.rng, s.script, s.spos, b)


@njit(cache=True)
def d3(s, b):
    """A D6 halved and rounded up: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3."""
    return (d6(s, b) + 1) // 2


@njit(cache=True)
def passes(face, target, modifier):
    """A pass/fail roll: face + modifier >= target, except that a natural 6 passes and a natural 1 fails (§1)."""
    if face == 6:
        return True
    if face == 1:
        return False
    return face + modifier >= target


@njit(cache=True)
def pass_roll(s, b, target, modifier):
    """Roll one D6 against ``target`` with ``modifier``; returns (passed, face)."""
    face = d6(s, b)
    return passes(face, target, modifier), face


@njit(cache=True)
def roll_off(s, b):
    """A roll-off between sides 0 and 1 (§2.4, §2.5): each rolls a D6, ties re-roll. Returns (winner, face0, face1)."""
    while True:
        a = d6(s, b)
        c = d6(s, b)
        if a != c:
            return (0 if a > c else 1), a, c
