"""Pushes (§11.1): "whenever a model's wound-effect roll gives a Shaken result, the attacker may try to push it.
Roll 1 D6. On 4+, the attacker may move that model up to 2" in any direction."

The combat modules write one E_WOUND_EFFECT row with outcome WE_SHAKEN per such roll, its actor the attacker
(combat_events.py). After each combat batch (a unit's shooting, the charger's attacks, the strike-back) the
loop scans the batch's rows (``collect``): each Shaken result with an attacker rolls the D6 at once, and each 4+
queues a push (G_PUSH0..). The pushes are then offered one by one to the attacker's side (DK_PUSH: a cell within
2" of the model, free and passable, or decline) before the activation goes on. Readings (docs/rules_firefight.md
§11): a Shaken result without an attacker (dangerous terrain, a fall) gives no push (§13.1 leaves it open: the
seed names the attacker); the push is resolved after the batch, not in its middle; coherency is not enforced
(§13 Q27); a push off 2" or more is a fall (heights.push_model).
"""
import numpy as np

from ...core.jit import njit
from .combat_events import E_WOUND_EFFECT, WE_SHAKEN
from .constants import TF_IMPASSABLE, US_ON
from .dice import d6
from .events import E_PUSH_ROLL, emit
from .state import EV_ACTOR, EV_D, EV_KIND, EV_TARGET, G_EVN, G_PUSH0, M_ALIVE, M_X, M_Y, N_PUSH, U_STATE

PUSH_RANGE = 2  # inches (§11.1)


@njit(cache=True)
def collect(s, b, ev_from):
    """Roll for every Shaken result with an attacker written since event row ``ev_from``; queue the 4+."""
    for k in range(ev_from, min(s.g[b, G_EVN], s.ev.shape[1])):
        row = s.ev[b, k]
        if row[EV_KIND] != E_WOUND_EFFECT or row[EV_D] != WE_SHAKEN or row[EV_ACTOR] < 0:
            continue
        face = d6(s, b)
        ok = face >= 4
        emit(s, b, E_PUSH_ROLL, row[EV_ACTOR], row[EV_TARGET], face, 1 if ok else 0, 0, 0, 0)
        if ok:
            _enqueue(s, b, np.int64(row[EV_ACTOR]) * 256 + row[EV_TARGET] + 1)



@njit(cache=True)
def _enqueue(s, b, code):
    for q in range(N_PUSH):
        if s.g[b, G_PUSH0 + q] == 0:
            s.g[b, G_PUSH0 + q] = code
            return


@njit(cache=True)
def pop(s, b):
    """The next owed push whose unit is still on the table: (attacker, unit), or (-1, -1)."""
    while s.g[b, G_PUSH0] != 0:
        code = s.g[b, G_PUSH0]
        for q in range(N_PUSH - 1):
            s.g[b, G_PUSH0 + q] = s.g[b, G_PUSH0 + q + 1]
        s.g[b, G_PUSH0 + N_PUSH - 1] = 0
        u = (code - 1) % 256
        if s.u[b, u, U_STATE] == US_ON:
            return (code - 1) // 256, u
    return -1, -1


@njit(cache=True)
def pushed_model(s, b, u):
    """The model that rolled: the unit's last model (§7.3: only the last model rolls), its first living slot."""
    for i in range(s.m.shape[2]):
        if s.m[b, u, i, M_ALIVE]:
            return i
    return -1


@njit(cache=True)
def push_cell_ok(st, s, b, u, c):
    """May the pushed model of unit u go to cell c: within 2", not its own cell, passable and empty?"""
    h, w = st.flags.shape
    i = pushed_model(s, b, u)
    x = c % w
    y = c // w
    dx = x - np.int64(s.m[b, u, i, M_X])
    dy = y - np.int64(s.m[b, u, i, M_Y])
    r = PUSH_RANGE + 1
    if (dx == 0 and dy == 0) or dx * dx + dy * dy > r * r or (st.flags[y, x] & TF_IMPASSABLE):
        return False
    for v in range(s.u.shape[1]):
        if s.u[b, v, U_STATE] != US_ON:
            continue
        for j in range(s.m.shape[2]):
            if s.m[b, v, j, M_ALIVE] and s.m[b, v, j, M_X] == x and s.m[b, v, j, M_Y] == y:
                return False
    return True


@njit(cache=True)
def push_cells(st, s, b, u, mask, base):
    """Mark the cells the pushed model of unit u may go to."""
    h, w = st.flags.shape
    i = pushed_model(s, b, u)
    mx = np.int64(s.m[b, u, i, M_X])
    my = np.int64(s.m[b, u, i, M_Y])
    for dy in range(-PUSH_RANGE - 1, PUSH_RANGE + 2):
        for dx in range(-PUSH_RANGE - 1, PUSH_RANGE + 2):
            x = mx + dx
            y = my + dy
            if 0 <= x < w and 0 <= y < h and push_cell_ok(st, s, b, u, y * w + x):
                mask[base + y * w + x] = True
