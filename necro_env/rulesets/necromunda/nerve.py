"""Nerve tests and becoming Broken (rules 9.5, 10.1).

A fighter that fails a Nerve test becomes Broken, loses its Ready marker and
is queued to Run for Cover out of turn; the engine empties the queue as soon
as the action being resolved is over (docs/rules.md: "Running for Cover
timing").
"""
from ...core.jit import njit

from .constants import CH_CL
from .dice import two_d6
from .events import E_BROKEN, E_NERVE, emit
from .query import gang_of, within_f
from .state import FI_BROKEN, FI_CH, FI_HL, FI_POSTURE, FI_READY, FI_STATE, FS_ON, G_QN, HL_NERVE, PO_SI
from .variant import house_legacy


@njit(cache=True)
def cool_bonus(s, b, f):
    """+1 per friendly fighter within 3" that is neither Broken nor Prone and Seriously Injured."""
    n = 0
    g = gang_of(s, b, f)
    for o in range(s.fi.shape[1]):
        if o == f or s.fi[b, o, FI_STATE] != FS_ON or gang_of(s, b, o) != g:
            continue
        if s.fi[b, o, FI_BROKEN] or s.fi[b, o, FI_POSTURE] == PO_SI:
            continue
        if within_f(s, b, f, o, 3.0):
            n += 1
    return n


@njit(cache=True)
def queue_push(s, b, f):
    n = s.g[b, G_QN]
    for i in range(n):
        if s.queue[b, i] == f:
            return
    if n < s.queue.shape[1]:
        s.queue[b, n] = f
        s.g[b, G_QN] = n + 1


@njit(cache=True)
def queue_pop(s, b):
    n = s.g[b, G_QN]
    if n == 0:
        return -1
    f = s.queue[b, 0]
    for i in range(1, n):
        s.queue[b, i - 1] = s.queue[b, i]
    s.g[b, G_QN] = n - 1
    return f


@njit(cache=True)
def break_fighter(s, b, f):
    """Core (10.1): Broken, loses its Ready marker, runs for cover out of turn (queued).
    House Legacy (10.4): Broken only; it keeps any Ready marker and runs in its own activation."""
    s.fi[b, f, FI_BROKEN] = 1
    emit(s, b, E_BROKEN, f, -1, 0, 0, 0, 0, 0)
    if house_legacy(s, b):
        return
    s.fi[b, f, FI_READY] = 0
    queue_push(s, b, f)


@njit(cache=True)
def nerve_tests(s, b, casualty):
    """Every friend within 3" of the casualty takes a Nerve test (Cool test, 2D6 + bonus >= Cl).

    Fighters already Broken do not test (docs/rules.md, 10.1).
    """
    g = gang_of(s, b, casualty)
    for f in range(s.fi.shape[1]):
        if f == casualty or s.fi[b, f, FI_STATE] != FS_ON or gang_of(s, b, f) != g:
            continue
        if s.fi[b, f, FI_BROKEN]:
            continue
        if not within_f(s, b, f, casualty, 3.0):
            continue
        if house_legacy(s, b):
            # [HL] 10.4: no fighter takes more than one Nerve test per turn
            if s.fi[b, f, FI_HL] & HL_NERVE:
                continue
            s.fi[b, f, FI_HL] |= HL_NERVE
        roll = two_d6(s, b)
        bonus = cool_bonus(s, b, f)
        need = s.fi[b, f, FI_CH + CH_CL]
        ok = roll + bonus >= need
        emit(s, b, E_NERVE, f, casualty, roll + bonus, need, 1 if ok else 0, 0, 0)
        if not ok:
            break_fighter(s, b, f)
