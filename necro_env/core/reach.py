"""Reachability on the grid (rules 1.2, 6.1): Dijkstra in half-inch units.

An orthogonal step costs 2 (1"), a diagonal step 3 (1.5"). A diagonal step
may not cut the corner of a solid cell. ``enter[c]`` says whether a path may
enter cell c at all, ``extra[c]`` adds a cost for entering it (obstacles),
and ``terminal[c]`` marks cells a path may end in but not continue from
(charge contact cells). ``extra[c]`` may carry the SLOW flag (``step_cost``).
Which cells a fighter may *end* in is the caller's business (``dist[c] <= budget`` plus its own end rule).
"""
import numpy as np
from .jit import njit

INF = np.int32(1 << 29)

DX8 = np.array([0, 1, 0, -1, 1, 1, -1, -1])
DY8 = np.array([-1, 0, 1, 0, -1, 1, 1, -1])

# ---------------------------------------------------------------- per-step cost
SLOW = 1 << 16  # flag in ``extra[c]``: a step into c costs double (Graviton Pulse: 2" per 1")


@njit(cache=True, inline="always")
def step_cost(step, ex):
    """Cost of a step of length ``step`` (2 orthogonal, 3 diagonal) into a cell whose ``extra``
    is ``ex``: the step, doubled when ex carries SLOW, plus ex's extra half-inches."""
    if ex & SLOW:
        return 2 * step + (ex & (SLOW - 1))
    return step + ex


@njit(cache=True)
def _heap_push(hk, hv, n, key, val):
    i = n
    hk[i] = key
    hv[i] = val
    while i > 0:
        p = (i - 1) >> 1
        if hk[p] <= hk[i]:
            break
        hk[p], hk[i] = hk[i], hk[p]
        hv[p], hv[i] = hv[i], hv[p]
        i = p
    return n + 1


@njit(cache=True)
def _heap_pop(hk, hv, n):
    key = hk[0]
    val = hv[0]
    n -= 1
    hk[0] = hk[n]
    hv[0] = hv[n]
    i = 0
    while True:
        l = 2 * i + 1
        r = l + 1
        m = i
        if l < n and hk[l] < hk[m]:
            m = l
        if r < n and hk[r] < hk[m]:
            m = r
        if m == i:
            break
        hk[m], hk[i] = hk[i], hk[m]
        hv[m], hv[i] = hv[i], hv[m]
        i = m
    return key, val, n


@njit(cache=True)
def dijkstra(width, height, start, budget, enter, solid, extra, terminal, dist, prev):
    """Fill dist/prev (flat cell index arrays) from ``start`` up to ``budget``."""
    n = width * height
    for i in range(n):
        dist[i] = INF
        prev[i] = -1
    cap = 8 * n + 8
    hk = np.empty(cap, np.int32)
    hv = np.empty(cap, np.int32)
    dist[start] = 0
    hn = _heap_push(hk, hv, 0, 0, start)
    while hn > 0:
        d, c, hn = _heap_pop(hk, hv, hn)
        if d > dist[c]:
            continue
        if c != start and terminal[c]:
            continue
        cx = c % width
        cy = c // width
        for k in range(8):
            nx = cx + DX8[k]
            ny = cy + DY8[k]
            if nx < 0 or ny < 0 or nx >= width or ny >= height:
                continue
            nc = ny * width + nx
            if not enter[nc]:
                continue
            step = 2
            if k >= 4:
                if solid[cy * width + nx] or solid[ny * width + cx]:
                    continue
                step = 3
            nd = d + step_cost(step, extra[nc])
            if nd <= budget and nd < dist[nc]:
                dist[nc] = nd
                prev[nc] = c
                if hn < cap:
                    hn = _heap_push(hk, hv, hn, nd, nc)
    return dist


# ---------------------------------------------------------------- boards with levels
# How a cell was entered (``how`` array of dijkstra_levels; docs/rules.md 6.4-6.6)
HOW_WALK = 0  # same floor height
HOW_CLIMB = 1  # climbed up or down: 2" per 1" (1" per 1" by ladder or stairs)
HOW_JUMP = 2  # jumped down (Initiative test); the drop costs no movement
HOW_GAP = 3  # crossed a 1" gap between two floors of the same height (no test)
HOW_LEAP = 4  # leapt a gap wider than 1" (Initiative test)


@njit(cache=True)
def dijkstra_levels(width, height, start, budget, enter, solid, extra, terminal, dist, prev, hgt, easy, risky,
                    how, grounded=False):
    """``dijkstra`` with floor heights ``hgt`` (inches per flat cell index).

    A step between cells whose heights differ climbs: +4 half-inches per inch
    (+2 where either cell has a ladder or stairs, ``easy``). A straight run over
    1+ lower cells to a cell of the start's height crosses a gap: 1 cell is part of
    a normal move; wider gaps (leaps) and jumping down (a step down that costs only
    its horizontal length) are allowed only when ``risky``. ``how[c]`` records how
    the best path entered c (HOW_*). ``grounded``: no climbing at all (a Mounted
    fighter, rules 4.3 Grounded); jumping down and gaps stay as above.
    """
    n = width * height
    for i in range(n):
        dist[i] = INF
        prev[i] = -1
        how[i] = HOW_WALK
    cap = 8 * n + 8 + 8 * n
    hk = np.empty(cap, np.int32)
    hv = np.empty(cap, np.int32)
    dist[start] = 0
    hn = _heap_push(hk, hv, 0, 0, start)
    span = max(width, height)
    while hn > 0:
        d, c, hn = _heap_pop(hk, hv, hn)
        if d > dist[c]:
            continue
        if c != start and terminal[c]:
            continue
        cx = c % width
        cy = c // width
        hc = hgt[c]
        for k in range(8):
            nx = cx + DX8[k]
            ny = cy + DY8[k]
            if nx < 0 or ny < 0 or nx >= width or ny >= height:
                continue
            nc = ny * width + nx
            step = 2
            if k >= 4:
                if solid[cy * width + nx] or solid[ny * width + cx]:
                    continue
                step = 3
            if enter[nc]:
                dz = hgt[nc] - hc
                kind = HOW_WALK
                cost = step_cost(step, extra[nc])
                if dz != 0:
                    rate = 2 if (easy[c] or easy[nc]) else 4
                    if dz < 0 and risky:
                        kind = HOW_JUMP
                    else:
                        kind = HOW_CLIMB
                        cost += rate * abs(dz)
                nd = d + cost
                if grounded and kind == HOW_CLIMB:
                    nd = budget + 1  # Grounded: this step would climb
                if nd <= budget and nd < dist[nc]:
                    dist[nc] = nd
                    prev[nc] = c
                    how[nc] = kind
                    if hn < cap:
                        hn = _heap_push(hk, hv, hn, nd, nc)
            # gaps: a straight run over lower cells to a floor of this cell's height
            if hc <= 0 or hgt[nc] >= hc or solid[nc]:
                continue
            for j in range(2, span):
                lx = cx + DX8[k] * j
                ly = cy + DY8[k] * j
                if lx < 0 or ly < 0 or lx >= width or ly >= height:
                    break
                lc = ly * width + lx
                nd = d + step * j
                if nd > budget:
                    break
                if hgt[lc] < hc:
                    if solid[lc]:
                        break
                    continue
                if hgt[lc] == hc and enter[lc] and (j == 2 or risky):
                    if nd < dist[lc]:
                        dist[lc] = nd
                        prev[lc] = c
                        how[lc] = HOW_GAP if j == 2 else HOW_LEAP
                        if hn < cap:
                            hn = _heap_push(hk, hv, hn, nd, lc)
                break
    return dist
