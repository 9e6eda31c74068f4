"""Shortest paths of single models over the board (§4, §9, §11, §12.2).

A model walks over the 8-neighbourhood: a straight step costs STEP_ORTHO (5) fifths of an inch,
a diagonal one STEP_DIAG (7). ``model_paths`` runs Dijkstra from a model's cell over two layers:
layer 0 for paths that never touched difficult terrain, layer 1 for paths that did (§9: such a
move is at most 6" in total; Strider and Flying ignore it, §10). Among paths of equal cost the one
that avoids dangerous terrain is kept (the engine walks each model along it; §9's roll follows).

What a path may enter (the board's ``step_table`` and the unit's ``blocked_cells``):
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
    CLIMB_STEP_IN, DIFFICULT_CAP_IN, DROP_FREE_IN, DROP_JUMP_IN, FIFTHS, OPT_HEIGHTS, R_FLYING, R_STRIDER, STEP_DIAG,
    STEP_ORTHO, TF_DANGEROUS, TF_DIFFICULT, TF_IMPASSABLE,
)
from .grid import DX8, DY8, INF
from .state import G_OPTS, M_ALIVE, M_X, M_Y, U_RULES, U_SIDE


@njit(cache=True)
def jump_drop(st, s, b, c, n):
    """Inches a step from c to n drops beyond a free drop (a jump, §11.2), else 0."""
    if (s.g[b, G_OPTS] & OPT_HEIGHTS) == 0:
        return 0
    hz = st.height.ravel()
    drop = np.int64(hz[c]) - np.int64(hz[n])
    return drop if drop > DROP_FREE_IN else 0


@njit(cache=True)
def _relax(fl, node, d, layer, n, nd, limit, cap, free_diff, flying, hw, heap, bhead, nb, dist, par, dng):
    """Offer the path to ``node`` (cost d) extended to cell n at cost nd; returns the bucket entries' new count.
    Among paths of equal cost and danger the parent is the earliest in (cost, node) order, whatever order a bucket's
    nodes are expanded in: the binary heap this search replaced (2026-12-02) expanded them in that order and kept
    the first, so paths, parents and ties are unchanged. (Arrays are passed one by one, not as the Static and
    Scratch tuples: a call copies every array of a tuple it gets.)"""
    if nd > limit:
        return nb
    nl = layer
    if (fl[n] & TF_DIFFICULT) and not free_diff:
        nl = 1
    if nl == 1 and nd > cap:  # a path through difficult terrain longer than the cap: no move may use it
        return nb
    ng = dng[node]
    if (fl[n] & TF_DANGEROUS) and not flying:
        ng = 1
    nn = nl * hw + n
    cur = dist[nn]
    if nd < cur or (nd == cur and ng < dng[nn]):
        dist[nn] = nd
        par[nn] = node
        dng[nn] = ng
        # bucket nd's list: sc.heap[k] = node << 32 | (previous head + 1)
        heap[nb] = (np.int64(nn) << 32) | np.int64(bhead[nd] + 1)
        bhead[nd] = nb
        nb += 1
    elif nd == cur and ng == dng[nn]:
        p = par[nn]
        dp = dist[p]
        if d < dp or (d == dp and node < p):
            par[nn] = node
    return nb


@njit(cache=True)
def gap_landing(fl, hz, w, h, blocked, cx, cy, k):
    """§11.2 gaps: from (cx, cy) in direction k over g cells at least 2" lower (a gap, 1 <= g <= 6) to the first
    cell within 1" of the take-off height. Returns (landing cell, g) or (-1, 0). A 1" gap is part of a normal
    move; a wider one is a jump (``jumps_on_path``)."""
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
        if blocked[n]:
            return -1, 0
        return n, g
    return -1, 0


@njit(cache=True)
def blocked_cells(s, b, u, keep_path, occ, near, out, limit, w):
    """out[c] = 1 where a walking model of unit u may not step (§12.2 an enemy model, the 1" rule on the path), for
    the cells a search of ``limit`` fifths from its models can step into (one cell per 5 fifths); a gap's landing
    farther out may read a stale value, but its jump costs more than the limit and is never taken."""
    side = s.u[b, u, U_SIDE]
    h = out.shape[0] // w
    r = limit // STEP_ORTHO + 1
    x0, y0, x1, y1 = w, h, -1, -1
    for i in range(s.m.shape[2]):
        if s.m[b, u, i, M_ALIVE]:
            x0 = min(x0, np.int64(s.m[b, u, i, M_X]))
            x1 = max(x1, np.int64(s.m[b, u, i, M_X]))
            y0 = min(y0, np.int64(s.m[b, u, i, M_Y]))
            y1 = max(y1, np.int64(s.m[b, u, i, M_Y]))
    for y in range(max(y0 - r, 0), min(y1 + r, h - 1) + 1):
        for x in range(max(x0 - r, 0), min(x1 + r, w - 1) + 1):
            c = y * w + x
            o = occ[c]
            out[c] = 1 if (o > 0 and s.u[b, o - 1, U_SIDE] != side) or (keep_path and near[c]) else 0


def step_table(flags, height):
    """Static steps of the board (plain numpy, built once per board): [3, H*W] uint8, bit k of a cell set when a
    step in direction k (grid.DX8/DY8) stays on the board and (rows 0 and 1, a walking model) enters no impassable
    cell, squeezes between no two impassable cells and (row 1, heights on, §11) climbs at most 1" and drops at most
    6". Row 2 (a flying model, §10): the board's edge only."""
    h, w = flags.shape
    imp = (np.asarray(flags) & TF_IMPASSABLE) != 0
    hz = np.asarray(height, np.int64)
    out = np.zeros((3, h, w), np.uint8)
    ys, xs = np.mgrid[0:h, 0:w]
    for k in range(8):
        nx = xs + DX8[k]
        ny = ys + DY8[k]
        on = (nx >= 0) & (ny >= 0) & (nx < w) & (ny < h)
        cx = np.clip(nx, 0, w - 1)
        cy = np.clip(ny, 0, h - 1)
        walk = on & ~imp[cy, cx]
        if k >= 4:
            walk &= ~(imp[ys, cx] & imp[cy, xs])
        dz = hz[cy, cx] - hz
        climb = walk & (dz <= CLIMB_STEP_IN) & (dz >= -DROP_JUMP_IN)
        out[0] |= (walk.astype(np.uint8) << k)
        out[1] |= (climb.astype(np.uint8) << k)
        out[2] |= (on.astype(np.uint8) << k)
    return out.reshape(3, h * w)


@njit(cache=True)
def model_paths(st, s, b, u, i, limit, sc, dist, par, dng, box):
    """Dijkstra from model i of unit u up to ``limit`` fifths: dist/par/dng[layer * HW + cell] (module docstring).
    Costs are small whole numbers, so the queue is one bucket per cost (sc.bhead, lists in sc.heap; ``_relax``'s
    tie rule makes the order within a bucket irrelevant);
    ``blocked_cells`` must have filled sc.blocked for the unit. ``box``: the cells the row's last search could reach
    (x0, y0, x1, y1; a step costs at least 5 fifths and moves at most one cell): only they are cleared. Layer 1 stops
    at the difficult-terrain cap (movement.cap_of): a longer dirty path is of no use to any move, whose allowance is
    always this ``limit`` (a search of 0" serves only staying put)."""
    heap = sc.heap
    bhead = sc.bhead
    blocked = sc.blocked
    h, w = st.flags.shape
    hw = h * w
    if limit >= sc.bhead.shape[0]:
        raise ValueError("a move's allowance exceeds the path buckets (grid.MAX_COST)")
    for y in range(box[1], box[3] + 1):
        for x in range(box[0], box[2] + 1):
            c = y * w + x
            dist[c] = INF
            dist[hw + c] = INF
            dng[c] = 0
            dng[hw + c] = 0
    reach_cells = limit // STEP_ORTHO
    box[0] = max(np.int64(s.m[b, u, i, M_X]) - reach_cells, 0)
    box[1] = max(np.int64(s.m[b, u, i, M_Y]) - reach_cells, 0)
    box[2] = min(np.int64(s.m[b, u, i, M_X]) + reach_cells, w - 1)
    box[3] = min(np.int64(s.m[b, u, i, M_Y]) + reach_cells, h - 1)
    rules = s.u[b, u, U_RULES]
    flying = (rules & R_FLYING) != 0
    free_diff = flying or (rules & R_STRIDER) != 0
    cap = limit if free_diff else min(limit, DIFFICULT_CAP_IN * FIFTHS)  # movement.cap_of: §9's 6" on layer 1
    fl = st.flags.ravel()
    hz = st.height.ravel()
    heights = (s.g[b, G_OPTS] & OPT_HEIGHTS) != 0
    steps = st.steps[2 if flying else (1 if heights else 0)]
    c0 = np.int64(s.m[b, u, i, M_Y]) * w + np.int64(s.m[b, u, i, M_X])
    l0 = 1 if (fl[c0] & TF_DIFFICULT) and not free_diff else 0
    n0 = l0 * hw + c0
    dist[n0] = 0
    par[n0] = -1
    bhead[:limit + 1] = -1
    heap[0] = np.int64(n0) << 32
    bhead[0] = 0
    nb = 1
    off = np.empty(8, np.int64)  # the neighbour's cell index minus the cell's, per direction
    for k in range(8):
        off[k] = DY8[k] * w + DX8[k]
    for d in range(limit + 1):
        e = bhead[d]
        bhead[d] = -1
        if e < 0 or d + STEP_ORTHO > limit:  # empty, or no step fits any more (a gap's jump costs more)
            continue
        while e >= 0:  # the bucket's list; expansions push to later buckets only (a step costs at least 5)
            node = heap[e] >> 32
            e = np.int64(heap[e] & 0xFFFFFFFF) - 1
            if dist[node] != d:  # reached more cheaply since
                continue
            layer = 1 if node >= hw else 0
            c = node - layer * hw
            dirs = steps[c]
            for k in range(8):
                if (dirs >> k) & 1 == 0:
                    continue
                n = c + off[k]
                if not flying and blocked[n]:
                    continue
                nb = _relax(fl, node, d, layer, n, d + (STEP_ORTHO if k < 4 else STEP_DIAG), limit, cap, free_diff,
                            flying, hw, heap, bhead, nb, dist, par, dng)
            if heights and not flying:
                cx = c % w
                cy = c // w
                for k in range(8):
                    n, g = gap_landing(fl, hz, w, h, blocked, cx, cy, k)
                    if n >= 0:
                        nb = _relax(fl, node, d, layer, n, d + (g + 1) * (STEP_ORTHO if k < 4 else STEP_DIAG),
                                    limit, cap, free_diff, flying, hw, heap, bhead, nb, dist, par, dng)
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
