"""Reachability on the grid (rules 1.2, 6.1): Dijkstra in half-inch units.

An orthogonal step costs 2 (1"), a diagonal step 3 (1.5"). A diagonal step
may not cut the corner of a solid cell. ``enter[c]`` says whether a path may
enter cell c at all, ``extra[c]`` adds a cost for entering it (obstacles),
and ``terminal[c]`` marks cells a path may end in but not continue from
(charge contact cells). Which cells a fighter may *end* in is the caller's
business (``dist[c] <= budget`` plus its own end rule).
"""
import numpy as np
from numba import njit

INF = np.int32(1 << 29)

DX8 = np.array([0, 1, 0, -1, 1, 1, -1, -1])
DY8 = np.array([-1, 0, 1, 0, -1, 1, 1, -1])


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
            nd = d + step + extra[nc]
            if nd <= budget and nd < dist[nc]:
                dist[nc] = nd
                prev[nc] = c
                if hn < cap:
                    hn = _heap_push(hk, hv, hn, nd, nc)
    return dist
