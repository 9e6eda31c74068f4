"""Shortest paths of single models over the board (§4, §9, §11, §12.2).

A model walks over the 8-neighbourhood: a straight step costs STEP_ORTHO (5) fifths of an inch,
a diagonal one STEP_DIAG (7). ``model_paths`` runs Dijkstra from a model's cell over two layers:
layer 0 for paths that never touched difficult terrain, layer 1 for paths that did (§9: such a
move is at most 6" in total; Strider and Flying ignore it, §10). Among paths of equal cost the one
that avoids dangerous terrain is kept (the engine walks each model along it; §9's roll follows).

What a path may enter (``step_ok``):
- never off the board; never an impassable cell unless the model flies (§10 Flying);
- never a cell holding an enemy model unless it flies (§12.2), nor, under the 1" rule, a cell
  within 1" of another unit (``near``; §4.2 and §13.1: the path too, unless a switch says the
  end only; a charge lifts the rule);
- with heights on (OPT_HEIGHTS, §11): a step may climb 1" (a ramp, data.MAX_STEP), drop up to 3"
  freely (§11.2), or drop 4"-6" as a jump (``jump_dice``); more is not allowed (§13 Q25).
"""
import numpy as np

from ...core.jit import njit
from .constants import (
    CLIMB_STEP_IN, DROP_FREE_IN, DROP_JUMP_IN, OPT_HEIGHTS, R_FLYING, R_STRIDER, STEP_DIAG, STEP_ORTHO,
    TF_DANGEROUS, TF_DIFFICULT, TF_IMPASSABLE,
)
from .grid import DX8, DY8
from .state import G_OPTS, M_X, M_Y, U_RULES, U_SIDE

INF = 1 << 29


@njit(cache=True)
def _push(heap, n, key):
    i = n
    heap[i] = key
    while i > 0:
        p = (i - 1) >> 1
        if heap[p] <= heap[i]:
            break
        t = heap[p]
        heap[p] = heap[i]
        heap[i] = t
        i = p
    return n + 1


@njit(cache=True)
def _pop(heap, n):
    top = heap[0]
    n -= 1
    heap[0] = heap[n]
    i = 0
    while True:
        l = 2 * i + 1
        if l >= n:
            break
        c = l
        if l + 1 < n and heap[l + 1] < heap[l]:
            c = l + 1
        if heap[i] <= heap[c]:
            break
        t = heap[c]
        heap[c] = heap[i]
        heap[i] = t
        i = c
    return top, n


@njit(cache=True)
def step_ok(st, s, b, side, flying, keep_path, occ, near, c, n, k, w):
    """May a walking model step from cell c to its neighbour n (direction k)? (module docstring)"""
    fl = st.flags.ravel()
    if not flying:
        if fl[n] & TF_IMPASSABLE:
            return False
        o = occ[n]
        if o > 0 and s.u[b, o - 1, U_SIDE] != side:
            return False
        if keep_path and near[n]:
            return False
        if k >= 4:  # a diagonal step may not squeeze between two impassable cells
            cx = c % w
            cy = c // w
            nx = n % w
            ny = n // w
            if (fl[cy * w + nx] & TF_IMPASSABLE) and (fl[ny * w + cx] & TF_IMPASSABLE):
                return False
    if (s.g[b, G_OPTS] & OPT_HEIGHTS) and not flying:
        hz = st.height.ravel()
        dz = np.int64(hz[n]) - np.int64(hz[c])
        if dz > CLIMB_STEP_IN or dz < -DROP_JUMP_IN:
            return False
    return True


@njit(cache=True)
def jump_drop(st, s, b, c, n):
    """Inches a step from c to n drops beyond a free drop (a jump, §11.2), else 0."""
    if (s.g[b, G_OPTS] & OPT_HEIGHTS) == 0:
        return 0
    hz = st.height.ravel()
    drop = np.int64(hz[c]) - np.int64(hz[n])
    return drop if drop > DROP_FREE_IN else 0


@njit(cache=True)
def _relax(st, node, layer, n, nd, limit, free_diff, flying, hw, heap, nh, dist, par, dng):
    """Offer the path to ``node`` extended to cell n at cost nd; returns the heap's new size."""
    if nd > limit:
        return nh
    fl = st.flags.ravel()
    nl = layer
    if (fl[n] & TF_DIFFICULT) and not free_diff:
        nl = 1
    ng = dng[node]
    if (fl[n] & TF_DANGEROUS) and not flying:
        ng = 1
    nn = nl * hw + n
    if nd < dist[nn] or (nd == dist[nn] and ng < dng[nn]):
        dist[nn] = nd
        par[nn] = node
        dng[nn] = ng
        nh = _push(heap, nh, (np.int64(nd) << 32) | nn)
    return nh


@njit(cache=True)
def gap_landing(st, s, b, side, keep_path, occ, near, cx, cy, k):
    """§11.2 gaps: from (cx, cy) in direction k over g cells at least 2" lower (a gap, 1 <= g <= 6) to the first
    cell within 1" of the take-off height. Returns (landing cell, g) or (-1, 0). A 1" gap is part of a normal
    move; a wider one is a jump (``jumps_on_path``)."""
    h, w = st.flags.shape
    fl = st.flags.ravel()
    hz = st.height.ravel()
    zc = np.int64(hz[cy * w + cx])
    x = cx
    y = cy
    g = 0
    while g <= DROP_JUMP_IN:
        x += DX8[k]
        y += DY8[k]
        if x < 0 or y < 0 or x >= w or y >= h:
            return -1, 0
        n = y * w + x
        if fl[n] & TF_IMPASSABLE:
            return -1, 0
        if np.int64(hz[n]) <= zc - 2:
            g += 1
            continue
        if g == 0 or abs(np.int64(hz[n]) - zc) > CLIMB_STEP_IN:
            return -1, 0
        o = occ[n]
        if (o > 0 and s.u[b, o - 1, U_SIDE] != side) or (keep_path and near[n]):
            return -1, 0
        return n, g
    return -1, 0


@njit(cache=True)
def model_paths(st, s, b, u, i, limit, keep_path, occ, near, heap, dist, par, dng):
    """Dijkstra from model i of unit u up to ``limit`` fifths: dist/par/dng[layer * HW + cell] (module docstring)."""
    h, w = st.flags.shape
    hw = h * w
    dist[:] = INF
    dng[:] = 0
    rules = s.u[b, u, U_RULES]
    flying = (rules & R_FLYING) != 0
    free_diff = flying or (rules & R_STRIDER) != 0
    side = s.u[b, u, U_SIDE]
    fl = st.flags.ravel()
    c0 = np.int64(s.m[b, u, i, M_Y]) * w + np.int64(s.m[b, u, i, M_X])
    l0 = 1 if (fl[c0] & TF_DIFFICULT) and not free_diff else 0
    n0 = l0 * hw + c0
    dist[n0] = 0
    par[n0] = -1
    nh = _push(heap, 0, n0)
    heights = (s.g[b, G_OPTS] & OPT_HEIGHTS) != 0
    while nh > 0:
        key, nh = _pop(heap, nh)
        node = key & 0xFFFFFF
        d = key >> 32
        if d != dist[node]:
            continue
        layer = node // hw
        c = node - layer * hw
        cx = c % w
        cy = c // w
        for k in range(8):
            x = cx + DX8[k]
            y = cy + DY8[k]
            if x < 0 or y < 0 or x >= w or y >= h:
                continue
            n = y * w + x
            if not step_ok(st, s, b, side, flying, keep_path, occ, near, c, n, k, w):
                continue
            nh = _relax(st, node, layer, n, d + (STEP_ORTHO if k < 4 else STEP_DIAG), limit, free_diff, flying,
                        hw, heap, nh, dist, par, dng)
        if heights and not flying:
            for k in range(8):
                n, g = gap_landing(st, s, b, side, keep_path, occ, near, cx, cy, k)
                if n >= 0:
                    nh = _relax(st, node, layer, n, d + (g + 1) * (STEP_ORTHO if k < 4 else STEP_DIAG), limit,
                                free_diff, flying, hw, heap, nh, dist, par, dng)
    return c0


@njit(cache=True)
def jump_of_step(st, s, b, c, n, w):
    """The jump a path step from cell c to cell n makes (§11.2): (distance for the dice, fall drop, fall cell), or
    (0, 0, -1). A drop of 4"-6" jumps its drop and falls at the foot (n); a gap of 2"-6" jumps its width and
    falls into its first cell."""
    cx = c % w
    cy = c // w
    nx = n % w
    ny = n // w
    g = max(abs(nx - cx), abs(ny - cy)) - 1
    if g <= 0:
        d = jump_drop(st, s, b, c, n)
        return d, d, (n if d > 0 else -1)
    if g < 2:
        return 0, 0, -1
    sx = (nx > cx) - (nx < cx)
    sy = (ny > cy) - (ny < cy)
    f = (cy + sy) * w + cx + sx
    hz = st.height.ravel()
    return g, np.int64(hz[c]) - np.int64(hz[f]), f


@njit(cache=True)
def jumps_on_path(st, s, b, par, node, hw, out_drops):
    """The jumps on the path ending at ``node``, last first, into out_drops as
    (dice distance * 256 + fall drop) * 65536 + fall cell; returns their count."""
    w = st.flags.shape[1]
    n = 0
    while node >= 0:
        p = par[node]
        if p < 0:
            break
        dist, drop, cell = jump_of_step(st, s, b, p % hw, node % hw, w)
        if dist > 0 and n < out_drops.shape[0]:
            out_drops[n] = (dist * 256 + drop) * 65536 + cell
            n += 1
        node = p
    return n
