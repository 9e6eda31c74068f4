"""Objective markers and the end of a round (§2.4, §3).

Control (§2.4) at the end of each round: a marker is seized by a side with a unit within 3" of it and no enemy
unit within 3"; with units of both sides within 3" it goes back to neutral; with none it keeps its owner. Shaken
units, and units that arrived by Ambush this round, neither seize nor contest. "Within 3" of a marker" measures
from the marker's cell as from a model (§12.2: centre distance - 1).
"""
from ...core.jit import njit
from .constants import OBJ_RANGE_IN, US_ON
from .events import E_GAME_END, E_OBJ_CONTROL, E_ROUND_END, emit
from .seam import end_of_round
from .state import (
    G_DONE, G_ROUND, G_ROUND_LIMIT, G_SCORE0, G_SCORE1, G_WINNER, M_ALIVE, M_X, M_Y, O_ON, O_OWNER, O_X, O_Y,
    U_ARRIVED, U_CHARGED, U_FATIGUED, U_SHAKEN, U_SIDE, U_STATE, U_STRUCK,
)


@njit(cache=True)
def counts_for_marker(s, b, u):
    """May unit u seize or contest a marker now (§2.4 item 6)?"""
    if s.u[b, u, U_STATE] != US_ON or s.u[b, u, U_SHAKEN]:
        return False
    return s.u[b, u, U_ARRIVED] == 0 or s.u[b, u, U_ARRIVED] != s.g[b, G_ROUND]


@njit(cache=True)
def near_marker(s, b, u, x, y):
    r = OBJ_RANGE_IN + 1
    for i in range(s.m.shape[2]):
        if s.m[b, u, i, M_ALIVE]:
            dx = s.m[b, u, i, M_X] - x
            dy = s.m[b, u, i, M_Y] - y
            if dx * dx + dy * dy <= r * r:
                return True
    return False


@njit(cache=True)
def control(s, b):
    """§2.4 items 3-6 for every marker; updates the scores."""
    sc0 = 0
    sc1 = 0
    for k in range(s.obj.shape[1]):
        if not s.obj[b, k, O_ON]:
            continue
        n0 = 0
        n1 = 0
        for u in range(s.u.shape[1]):
            if counts_for_marker(s, b, u) and near_marker(s, b, u, s.obj[b, k, O_X], s.obj[b, k, O_Y]):
                if s.u[b, u, U_SIDE] == 0:
                    n0 += 1
                else:
                    n1 += 1
        if n0 and n1:
            s.obj[b, k, O_OWNER] = -1
        elif n0:
            s.obj[b, k, O_OWNER] = 0
        elif n1:
            s.obj[b, k, O_OWNER] = 1
        emit(s, b, E_OBJ_CONTROL, -1, -1, k, s.obj[b, k, O_OWNER], n0, n1, 0)
        if s.obj[b, k, O_OWNER] == 0:
            sc0 += 1
        elif s.obj[b, k, O_OWNER] == 1:
            sc1 += 1
    s.g[b, G_SCORE0] = sc0
    s.g[b, G_SCORE1] = sc1


@njit(cache=True)
def end_round(st, s, b):
    """§3 end of round: (1) objective control, (2) morale, (3) fatigue cleared; after the last round, the result."""
    control(s, b)
    end_of_round(s, b)
    for u in range(s.u.shape[1]):
        s.u[b, u, U_FATIGUED] = 0
        s.u[b, u, U_CHARGED] = 0
        s.u[b, u, U_STRUCK] = 0
    emit(s, b, E_ROUND_END, -1, -1, s.g[b, G_ROUND], 0, 0, 0, 0)
    if s.g[b, G_ROUND] >= s.g[b, G_ROUND_LIMIT]:
        game_end(s, b)


@njit(cache=True)
def game_end(s, b):
    """§2.4 item 7: more markers wins; equal is a draw (§13 Q2)."""
    a = s.g[b, G_SCORE0]
    c = s.g[b, G_SCORE1]
    s.g[b, G_WINNER] = 0 if a > c else (1 if c > a else -1)
    s.g[b, G_DONE] = 1
    emit(s, b, E_GAME_END, -1, -1, s.g[b, G_WINNER], a, c, 0, 0)
