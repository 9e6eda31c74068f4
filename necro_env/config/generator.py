"""Seeded procedural boards: Zone Mortalis rooms and corridors, open sector boards with levels.

``generate(kind, width, height, seed, ...)`` returns a :class:`BoardSpec`. The generator writes the
board as the fields of a board YAML file (docs/data.md) and checks them with the same schema code
as ``load_board``, so a generated board is always a valid board file; :func:`board_to_yaml` writes
it out and loading that file gives the same board. Same arguments => same board, bit for bit (all
randomness comes from ``numpy.random.Generator(PCG64(seed))``).

The module sits in ``necro_env.config`` because it produces what the config loaders produce (a
``BoardSpec`` checked by the board schema) and the env layer above imports it like the loaders.

Algorithm, guarantees and the train/eval seed convention: docs/boards.md.
CLI: ``python -m necro_env.config.generator --kind zm --seed 3 --out board.yaml``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections import deque
from pathlib import Path

import numpy as np

from necro_env.config import schemas as S
from necro_env.config.board_seeds import EVAL_SEEDS, TRAIN_SEEDS, board_seeds  # noqa: F401  (re-exported)
from necro_env.config.errors import FieldProblem, from_problem
from necro_env.config.loader import BoardSpec, _readonly, _validate
from necro_env.core.terrain import (
    DOOR_CLOSED,
    DOOR_LOCKED,
    DOOR_OPEN,
    MAX_HEIGHT,
    TER_DOOR,
    TER_FLOOR,
    TER_OBSTACLE,
    TER_WALL,
)

KINDS = {"zone_mortalis": "zone_mortalis", "zm": "zone_mortalis", "sector": "sector"}
SYMMETRIES = ("none", "rot180", "mirror", "rot90")
SHORT = {"zone_mortalis": "zm", "sector": "sector"}
# Seed convention for training on many maps and evaluating on held-out ones: config/board_seeds.py.
MAX_DOORS = 32  # the engine's limit (door bit masks of the LOS tables)
MIN_SIZE = 12

_FLOOR = ".0123"  # plain floor characters (deployment cells included) a feature may be put on
_BLOCKING = "#oc"  # walls, obstacles and loot caskets: the generator keeps the rest connected without them
_DOOR_CHARS = "+/L"
_CHAR_OF_DOOR = {DOOR_CLOSED: "+", DOOR_OPEN: "/", DOOR_LOCKED: "L"}
_CHAR_OF_FEATURE = {v: k for k, v in S.FEATURE_CHARS.items()}


# ---------------------------------------------------------------------------
# Symmetry
# ---------------------------------------------------------------------------


class _Sym:
    """The symmetry group of a board: cell maps and the deployment-zone permutation of each."""

    def __init__(self, mode: str, w: int, h: int):
        X, Y = w - 1, h - 1
        ident = (lambda x, y: (x, y), (0, 1, 2, 3))
        r180 = (lambda x, y: (X - x, Y - y), (1, 0, 3, 2))
        extra = {
            "none": [],
            "rot180": [r180],
            "mirror": [(lambda x, y: (x, Y - y), (1, 0, 2, 3))],  # top <-> bottom
            # clockwise quarter turns (square boards): top -> right -> bottom -> left
            "rot90": [(lambda x, y: (X - y, x), (3, 2, 0, 1)), r180, (lambda x, y: (y, X - x), (2, 3, 1, 0))],
        }[mode]
        self.mode = mode
        self.elems = [ident] + extra
        self.order = len(self.elems)

    def orbit(self, x: int, y: int) -> list[tuple[int, int]]:
        out = []
        for f, _ in self.elems:
            c = f(x, y)
            if c not in out:
                out.append(c)
        return out

    def put(self, grid, x: int, y: int, ch: str):
        for f, perm in self.elems:
            tx, ty = f(x, y)
            grid[ty, tx] = str(perm[int(ch)]) if ch in "0123" else ch

    def put_height(self, heights, x: int, y: int, v: int):
        for f, _ in self.elems:
            tx, ty = f(x, y)
            heights[ty, tx] = v


def _resolve_symmetry(symmetric, n_zones: int, w: int, h: int) -> str:
    if symmetric is True:
        mode = "mirror" if n_zones == 3 else "rot180"
    elif symmetric is False or symmetric is None:
        mode = "none"
    elif symmetric in SYMMETRIES:
        mode = symmetric
    else:
        raise ValueError(f"symmetric must be True, False or one of {SYMMETRIES}, got {symmetric!r}")
    if mode == "rot180" and n_zones == 3:
        raise ValueError("symmetric='rot180' pairs zones 0<->1 and 2<->3, so it needs n_zones 2 or 4, "
                         "got 3 (use 'mirror' or symmetric=True)")
    if mode == "rot90":
        if n_zones != 4:
            raise ValueError(f"symmetric='rot90' turns each zone into the next one: it needs n_zones=4, got {n_zones}")
        if w != h:
            raise ValueError(f"symmetric='rot90' needs a square board, got {w}x{h}")
    return mode


# ---------------------------------------------------------------------------
# Grid helpers
# ---------------------------------------------------------------------------


def _terrain(grid) -> np.ndarray:
    t = np.zeros(grid.shape, np.int8)
    for ch, (ter, *_rest) in S.LEGEND.items():
        t[grid == ch] = ter
    return t


def _neighbours4(x, y, w, h):
    for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
        if 0 <= nx < w and 0 <= ny < h:
            yield nx, ny


def _components(passable) -> np.ndarray:
    """Label the 4-connected components of a bool [H, W] array (-1 = not passable)."""
    h, w = passable.shape
    label = np.full((h, w), -1, np.int32)
    n = 0
    for y0, x0 in zip(*np.nonzero(passable)):
        if label[y0, x0] >= 0:
            continue
        label[y0, x0] = n
        stack = [(int(x0), int(y0))]
        while stack:
            x, y = stack.pop()
            for nx, ny in _neighbours4(x, y, w, h):
                if passable[ny, nx] and label[ny, nx] < 0:
                    label[ny, nx] = n
                    stack.append((nx, ny))
        n += 1
    return label


def _distances(passable, sources) -> np.ndarray:
    """BFS step distances over passable cells from the (x, y) sources (-1 = unreached)."""
    h, w = passable.shape
    dist = np.full((h, w), -1, np.int32)
    q = deque()
    for x, y in sources:
        dist[y, x] = 0
        q.append((x, y))
    while q:
        x, y = q.popleft()
        for nx, ny in _neighbours4(x, y, w, h):
            if passable[ny, nx] and dist[ny, nx] < 0:
                dist[ny, nx] = dist[y, x] + 1
                q.append((nx, ny))
    return dist


def _passable(grid) -> np.ndarray:
    """Cells a fighter can walk through without crossing an obstacle or a casket (doors count as passable)."""
    return ~np.isin(grid, list(_BLOCKING))


def _connected(grid) -> bool:
    return _components(_passable(grid)).max() <= 0


def _fix_doors(grid):
    """Turn every door that no longer fills a 1-cell gap in a wall into floor (repeat until stable)."""
    while True:
        terrain = _terrain(grid)
        bad = [(x, y) for y, x in zip(*np.nonzero(terrain == TER_DOOR)) if S._door_axis(terrain, x, y) is None]
        if not bad:
            return
        for x, y in bad:
            grid[y, x] = "."


def _connect(grid, sym: _Sym, border: int):
    """Carve (symmetric) paths through walls and obstacles until the passable cells are connected."""
    h, w = grid.shape
    while True:
        label = _components(_passable(grid))
        n = label.max() + 1
        if n <= 1:
            return
        sizes = np.bincount(label[label >= 0])
        main = int(np.argmax(sizes))
        other = int(np.argmin(sizes))
        # BFS from the small component through anything inside the border to the main component
        inside = np.zeros((h, w), bool)
        inside[border:h - border, border:w - border] = True
        prev = {}
        q = deque()
        for y, x in zip(*np.nonzero(label == other)):
            prev[(int(x), int(y))] = None
            q.append((int(x), int(y)))
        end = None
        while q and end is None:
            x, y = q.popleft()
            for nx, ny in _neighbours4(x, y, w, h):
                if (nx, ny) in prev or not inside[ny, nx]:
                    continue
                prev[(nx, ny)] = (x, y)
                if label[ny, nx] == main:
                    end = (nx, ny)
                    break
                q.append((nx, ny))
        if end is None:
            raise RuntimeError("board generator: cannot connect the board (report this seed)")
        c = prev[end]
        while c is not None:
            if grid[c[1], c[0]] in _BLOCKING:
                sym.put(grid, c[0], c[1], ".")
            c = prev[c]
        _fix_doors(grid)


def _zone_rects(w, h, n_zones, zone_cells, margin):
    """(x, y, width, height) of each deployment zone: 2 deep along the top, bottom, left, right edges."""
    depth = 2
    long_ = max(1, -(-zone_cells // depth))
    zw = long_ + (w - long_) % 2  # same parity as the board side: the zone is exactly centred
    zh = long_ + (h - long_) % 2
    rects = [((w - zw) // 2, margin, zw, depth), ((w - zw) // 2, h - margin - depth, zw, depth),
             (margin, (h - zh) // 2, depth, zh), (w - margin - depth, (h - zh) // 2, depth, zh)][:n_zones]
    for k, (x, y, rw, rh) in enumerate(rects):
        if x < margin or y < margin or x + rw > w - margin or y + rh > h - margin:
            raise ValueError(f"deployment zone {k} ({rw}x{rh} cells for zone_cells={zone_cells}) does not fit "
                             f"on a {w}x{h} board")
    for a in range(len(rects)):
        for b in range(a + 1, len(rects)):
            xa, ya, wa, ha = rects[a]
            xb, yb, wb, hb = rects[b]
            gap = max(xb - (xa + wa - 1), xa - (xb + wb - 1), yb - (ya + ha - 1), ya - (yb + hb - 1))
            if gap < 4:
                raise ValueError(f"deployment zones {a} and {b} would be {max(gap, 0)} cells apart on a {w}x{h} board "
                                 f"with zone_cells={zone_cells} (need 4): use a bigger board or smaller zones")
    return rects


def _put_zones(grid, rects):
    for k, (x, y, rw, rh) in enumerate(rects):
        grid[y:y + rh, x:x + rw] = str(k)


def _near_door(grid, x, y) -> bool:
    h, w = grid.shape
    win = grid[max(0, y - 1):min(h, y + 2), max(0, x - 1):min(w, x + 2)]
    return bool(np.isin(win, list(_DOOR_CHARS)).any())


def _orbit_ok(sym, grid, reserved, x, y, test) -> bool:
    cells = sym.orbit(x, y)
    return len(cells) == sym.order and all(test(cx, cy) and not reserved[cy, cx] for cx, cy in cells)


# ---------------------------------------------------------------------------
# Zone Mortalis: rooms and corridors
# ---------------------------------------------------------------------------


def _sizes(rng, n, palindrome, lo=2, hi=7) -> list[int]:
    """Block sizes along one side (1-cell walls between blocks) filling n cells."""
    if not palindrome:
        out, rem = [], n
        while rem > hi:
            s = min(int(rng.integers(lo, hi + 1)), rem - 1 - lo)
            out.append(s)
            rem -= s + 1
        return out + [rem]
    half, rem = [], n
    while rem > hi:
        s = min(int(rng.integers(lo, hi + 1)), (rem - lo) // 2 - 1)
        half.append(s)
        rem -= 2 * (s + 1)
    return half + [rem] + half[::-1]


def _starts(sizes, first=1):
    out, x = [], first
    for s in sizes:
        out.append(x)
        x += s + 1
    return out


def _zone_mortalis(rng, grid, sym, mode, p):
    h, w = grid.shape
    xs = _sizes(rng, w - 2, mode in ("rot180", "rot90"))
    ys = xs if mode == "rot90" else _sizes(rng, h - 2, mode in ("rot180", "rot90", "mirror"))
    bx, by = _starts(xs), _starts(ys)
    for j, y0 in enumerate(by):
        for i, x0 in enumerate(bx):
            grid[y0:y0 + ys[j], x0:x0 + xs[i]] = "."
    # edges between neighbouring blocks: the wall cells between them
    nbx, nby = len(xs), len(ys)
    edges, cell_edge = [], {}
    for j in range(nby):
        for i in range(nbx):
            if i + 1 < nbx:
                cells = [(bx[i] + xs[i], y) for y in range(by[j], by[j] + ys[j])]
                edges.append((cells, j * nbx + i, j * nbx + i + 1))
            if j + 1 < nby:
                cells = [(x, by[j] + ys[j]) for x in range(bx[i], bx[i] + xs[i])]
                edges.append((cells, j * nbx + i, (j + 1) * nbx + i))
    for e, (cells, _, _) in enumerate(edges):
        for c in cells:
            cell_edge[c] = e
    orbits, seen = [], set()
    for e, (cells, _, _) in enumerate(edges):
        if e in seen:
            continue
        orb = sorted({cell_edge[f(*cells[0])] for f, _ in sym.elems})
        seen.update(orb)
        orbits.append(orb)
    # a spanning tree over edge orbits (Kruskal in random order), then extra openings for loops
    parent = list(range(nbx * nby))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    opened = []
    for k in rng.permutation(len(orbits)):
        orb = orbits[int(k)]
        if any(find(edges[e][1]) != find(edges[e][2]) for e in orb):
            for e in orb:
                parent[find(edges[e][1])] = find(edges[e][2])
            opened.append(orb)
        elif rng.random() < p["loops"]:
            opened.append(orb)
    for orb in opened:
        cells = edges[orb[0]][0]
        r = rng.random()
        if r < p["door_share"]:
            x, y = cells[int(rng.integers(len(cells)))]
            sym.put(grid, x, y, "/" if rng.random() < p["open_doors"] else "+")
        elif r < p["door_share"] + (1 - p["door_share"]) * 0.7:
            width = min(len(cells), int(rng.integers(1, 4)))
            k0 = int(rng.integers(len(cells) - width + 1))
            for x, y in cells[k0:k0 + width]:
                sym.put(grid, x, y, ".")
        else:
            for x, y in cells:
                sym.put(grid, x, y, ".")


def _limit_doors(rng, grid, sym, max_doors):
    while True:
        doors = [(int(x), int(y)) for y, x in zip(*np.nonzero(np.isin(grid, list(_DOOR_CHARS))))]
        if len(doors) <= max_doors:
            return
        x, y = doors[int(rng.integers(len(doors)))]
        sym.put(grid, x, y, ".")
        _fix_doors(grid)


def _lock_doors(rng, grid, sym, reserved, p_locked) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Lock some doors (with their images) and give each a terminal on both sides."""
    h, w = grid.shape
    terminals = []
    done = set()
    doors = [(int(x), int(y)) for y, x in zip(*np.nonzero(np.isin(grid, ["+", "/"])))]
    for x, y in doors:
        if (x, y) in done:
            continue
        done.update(sym.orbit(x, y))
        if rng.random() >= p_locked:
            continue
        terrain = _terrain(grid)
        axis = S._door_axis(terrain, x, y)
        picks = []
        for side in (-1, 1):
            cands = [(x - 1, y + side), (x + 1, y + side)] if axis == 0 else [(x + side, y - 1), (x + side, y + 1)]
            cands = [(cx, cy) for cx, cy in cands
                     if 0 <= cx < w and 0 <= cy < h and grid[cy, cx] in _FLOOR and not reserved[cy, cx]
                     and any(terrain[ny, nx] == TER_WALL for nx, ny in _neighbours4(cx, cy, w, h))]
            if cands:
                picks.append(cands[int(rng.integers(len(cands)))])
        if len(picks) != 2:
            continue
        for f, _ in sym.elems:
            door = f(x, y)
            grid[door[1], door[0]] = "L"
            for t in picks:
                tc = f(*t)
                reserved[tc[1], tc[0]] = True
                if (tc, door) not in terminals:
                    terminals.append((tc, door))
    return terminals


def _ductways(rng, grid, sym, reserved, n) -> list[tuple[int, int, int, int]]:
    """Up to n ductway orbits through walls 1-2 cells thick, joining places far apart on foot."""
    h, w = grid.shape
    passable = _passable(grid)
    cands = []
    for y in range(h):
        for x in range(w):
            for dx, dy in ((1, 0), (0, 1)):
                for thick in (1, 2):
                    x1, y1 = x + dx * (thick + 1), y + dy * (thick + 1)
                    if not (x1 < w and y1 < h):
                        continue
                    between = [grid[y + dy * k, x + dx * k] for k in range(1, thick + 1)]
                    if grid[y, x] in _FLOOR and grid[y1, x1] in _FLOOR and all(c == "#" for c in between):
                        cands.append((x, y, x1, y1))
    out = []
    for k in rng.permutation(len(cands)):
        if len(out) >= n * sym.order:
            break
        x0, y0, x1, y1 = cands[int(k)]
        ends = sym.orbit(x0, y0) + sym.orbit(x1, y1)
        if len(set(ends)) != 2 * sym.order or any(reserved[cy, cx] for cx, cy in ends):
            continue
        if _distances(passable, [(x0, y0)])[y1, x1] < 8:
            continue
        for f, _ in sym.elems:
            a, b = f(x0, y0), f(x1, y1)
            out.append((a[0], a[1], b[0], b[1]))
            reserved[a[1], a[0]] = reserved[b[1], b[0]] = True
    return out


# ---------------------------------------------------------------------------
# Sector: open ground, ruined walls, barricades, platforms with ladders and stairs
# ---------------------------------------------------------------------------


def _sector(rng, grid, heights, sym, rects, p):
    h, w = grid.shape
    taken = np.zeros((h, w), bool)  # features and the 1-cell lane kept around each one
    for x, y, rw, rh in rects:
        taken[max(0, y - 2):y + rh + 2, max(0, x - 2):x + rw + 2] = True
    n_features = max(1, round(w * h * p["feature_density"] / sym.order))
    tries = 0
    placed = 0
    while placed < n_features and tries < 40 * n_features:
        tries += 1
        kind = rng.choice(["wall", "corner", "barricade", "crates", "platform"],
                          p=p["feature_mix"] if p["levels"] else p["feature_mix_flat"])
        cells, extra = _feature(rng, kind)
        ox = int(rng.integers(1, w - 1))
        oy = int(rng.integers(1, h - 1))
        shape = [(ox + dx, oy + dy, ch, z) for dx, dy, ch, z in cells]
        everything = shape + [(ox + dx, oy + dy, ch, z) for dx, dy, ch, z in extra]
        images = [(f(x, y), ch, z) for f, _ in sym.elems for x, y, ch, z in everything]
        if any(not (1 <= cx < w - 1 and 1 <= cy < h - 1) or taken[cy, cx] for (cx, cy), _, _ in images):
            continue
        if _touches_own_image(images, sym.order):
            continue
        for (cx, cy), ch, z in images:
            grid[cy, cx] = ch
            if heights is not None:
                heights[cy, cx] = z
        for (cx, cy), _, _ in images:
            taken[max(0, cy - 1):cy + 2, max(0, cx - 1):cx + 2] = True
        placed += 1


def _touches_own_image(images, order) -> bool:
    """True if two symmetry images of one feature share or touch a cell (they would merge)."""
    n = len(images) // order
    parts = [np.array([c for c, _, _ in images[k * n:(k + 1) * n]]) for k in range(order)]
    for a in range(order):
        for b in range(a + 1, order):
            d = np.abs(parts[a][:, None, :] - parts[b][None, :, :]).max(axis=2)
            if d.min() <= 1:
                return True
    return False


def _feature(rng, kind):
    """Cells (dx, dy, char, height) of one feature and its access cells (ladders/stairs) outside it."""
    if kind == "wall":
        n = int(rng.integers(2, 6))
        horiz = rng.random() < 0.5
        return [((i, 0) if horiz else (0, i)) + ("#", 0) for i in range(n)], []
    if kind == "corner":
        a, b = int(rng.integers(2, 5)), int(rng.integers(2, 5))
        sx, sy = (1 if rng.random() < 0.5 else -1), (1 if rng.random() < 0.5 else -1)
        cells = [(sx * i, 0, "#", 0) for i in range(a)] + [(0, sy * i, "#", 0) for i in range(1, b)]
        return cells, []
    if kind == "barricade":
        n = int(rng.integers(1, 4))
        horiz = rng.random() < 0.5
        return [((i, 0) if horiz else (0, i)) + ("o", 0) for i in range(n)], []
    if kind == "crates":
        return [(i, j, "o", 0) for i in range(2) for j in range(2)], []
    # platform: a raised rectangle with railings on some edges and a ladder or stairs up to it
    pw, ph = int(rng.integers(2, 6)), int(rng.integers(2, 5))
    z = int(rng.integers(2, min(MAX_HEIGHT, 6) + 1))
    cells = {(i, j): "." for i in range(pw) for j in range(ph)}
    rail_sides = [s for s in ("N", "S", "W", "E") if rng.random() < 0.5]
    for (i, j) in cells:
        on = {"N": j == 0, "S": j == ph - 1, "W": i == 0, "E": i == pw - 1}
        if any(on[s] for s in rail_sides):
            cells[(i, j)] = "r"
    # access on one side (outside the platform, on the ground), at a cell whose platform neighbour has no railing
    side = rng.choice(["N", "S", "W", "E"])
    if side in ("N", "S"):
        i = int(rng.integers(pw))
        foot, top = ((i, -1), (i, 0)) if side == "N" else ((i, ph), (i, ph - 1))
    else:
        j = int(rng.integers(ph))
        foot, top = ((-1, j), (0, j)) if side == "W" else ((pw, j), (pw - 1, j))
    cells[top] = "."
    access = "S" if rng.random() < 0.5 else "H"
    return [(i, j, ch, z) for (i, j), ch in cells.items()], [(foot[0], foot[1], access, 0)]


# ---------------------------------------------------------------------------
# Shared finishing steps
# ---------------------------------------------------------------------------


def _place_caskets(rng, grid, sym, reserved, n):
    h, w = grid.shape
    placed = 0
    cells = [(int(x), int(y)) for y, x in zip(*np.nonzero(grid == "."))]
    cx, cy = (w - 1) / 2, (h - 1) / 2
    cells.sort(key=lambda c: ((c[0] - cx) ** 2 + (c[1] - cy) ** 2, rng.random()))
    n_central = min(len(cells), max(4 * sym.order, len(cells) // 4))
    order = list(rng.permutation(n_central)) + list(range(n_central, len(cells)))  # central cells first
    for k in order:
        if placed >= n:
            return
        x, y = cells[int(k)]
        if _orbit_ok(sym, grid, reserved, x, y, lambda a, b: grid[b, a] == "." and not _near_door(grid, a, b)):
            sym.put(grid, x, y, "c")
            if not _connected(grid):
                sym.put(grid, x, y, ".")
                continue
            for a, b in sym.orbit(x, y):
                reserved[b, a] = True
            placed += sym.order
    if placed < n:
        raise ValueError(f"board generator: no room for {n} loot caskets on this {w}x{h} board")


def _pinch(grid, x, y) -> bool:
    """True if the cell has walls on two opposite sides (a 1-wide passage)."""
    h, w = grid.shape

    def wall(a, b):
        return not (0 <= a < w and 0 <= b < h) or grid[b, a] == "#"

    return (wall(x - 1, y) and wall(x + 1, y)) or (wall(x, y - 1) and wall(x, y + 1))


def _place_obstacles(rng, grid, sym, reserved, density):
    cells = [(int(x), int(y)) for y, x in zip(*np.nonzero(grid == "."))]
    target = round(len(cells) * density / sym.order)
    placed = 0
    for k in rng.permutation(len(cells)):
        if placed >= target:
            return
        x, y = cells[int(k)]
        if _orbit_ok(sym, grid, reserved, x, y,
                     lambda a, b: grid[b, a] == "." and not _near_door(grid, a, b) and not _pinch(grid, a, b)):
            sym.put(grid, x, y, "o")
            if not _connected(grid):
                sym.put(grid, x, y, ".")
                continue
            placed += 1


# ---------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------

# Tuning of each kind (docs/boards.md): zone_mortalis - chance of an extra opening per wall (loops), share of
# openings that are doors (the rest are archways or removed walls), shares of doors starting open and of doors
# locked, ductway groups, obstacle share of floor cells; sector - features per cell, the mix of wall / corner /
# barricade / crates / platform features (with and without levels).
DEFAULTS = {
    "zone_mortalis": {"loops": 0.35, "door_share": 0.6, "open_doors": 0.15, "locked": 0.3, "ductways": 1,
                      "obstacles": 0.04},
    "sector": {"feature_density": 1 / 22, "obstacles": 0.0, "levels": True,
               "feature_mix": [0.2, 0.15, 0.25, 0.1, 0.3], "feature_mix_flat": [0.3, 0.2, 0.35, 0.15, 0.0]},
}


def generate_data(kind: str = "zone_mortalis", width: int = 24, height: int = 24, seed: int = 0,
                  symmetric=True, n_zones: int = 2, zone_cells: int = 12, caskets: int | None = None,
                  max_doors: int = 24, levels: bool | None = None, name: str | None = None) -> dict:
    """The fields of a board YAML file for a generated board (see :func:`generate`)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {sorted(KINDS)}, got {kind!r}")
    kind = KINDS[kind]
    for field, v, lo, hi in (("width", width, MIN_SIZE, S.MAX_BOARD), ("height", height, MIN_SIZE, S.MAX_BOARD),
                             ("n_zones", n_zones, 2, 4), ("zone_cells", zone_cells, 1, 64),
                             ("max_doors", max_doors, 0, MAX_DOORS), ("seed", seed, 0, 2**63 - 1)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
            raise ValueError(f"{field} must be an integer {lo}..{hi}, got {v!r}")
    width, height, seed = int(width), int(height), int(seed)
    mode = _resolve_symmetry(symmetric, n_zones, width, height)
    sym = _Sym(mode, width, height)
    if caskets is None:
        caskets = sym.order
    if isinstance(caskets, bool) or not isinstance(caskets, (int, np.integer)) or caskets < 0 or caskets % sym.order:
        raise ValueError(f"caskets must be a multiple of {sym.order} (one casket per image under symmetry "
                         f"{mode!r}), got {caskets!r}")
    p = dict(DEFAULTS[kind])
    if levels is not None:
        if kind != "sector" and levels:
            raise ValueError("levels=True is only for kind='sector' (Zone Mortalis boards are one level)")
        p["levels"] = bool(levels)
    rng = np.random.Generator(np.random.PCG64(seed))
    grid = np.full((height, width), "#" if kind == "zone_mortalis" else ".", dtype="<U1")
    heights = None
    terminals, ducts = [], []
    if kind == "zone_mortalis":
        rects = _zone_rects(width, height, n_zones, zone_cells, margin=1)
        _zone_mortalis(rng, grid, sym, mode, p)
        _put_zones(grid, rects)
        _fix_doors(grid)
        _connect(grid, sym, border=1)
        _limit_doors(rng, grid, sym, max_doors)
        reserved = np.zeros(grid.shape, bool)
        terminals = _lock_doors(rng, grid, sym, reserved, p["locked"])
        ducts = _ductways(rng, grid, sym, reserved, p["ductways"])
    else:
        rects = _zone_rects(width, height, n_zones, zone_cells, margin=0)
        heights = np.zeros(grid.shape, np.int8) if p["levels"] else None
        _sector(rng, grid, heights, sym, rects, p)
        _put_zones(grid, rects)
        _connect(grid, sym, border=0)
        reserved = np.zeros(grid.shape, bool)
    _place_caskets(rng, grid, sym, reserved, caskets)
    _place_obstacles(rng, grid, sym, reserved, p["obstacles"])
    data = {
        "name": name or f"gen_{SHORT[kind]}_{seed}",
        "description": (f"generated: kind={kind} seed={seed} {width}x{height} symmetric={mode} n_zones={n_zones} "
                        f"zone_cells={zone_cells}"),
        "map": "\n".join("".join(row) for row in grid) + "\n",
        "terminals": [{"cell": [int(t[0]), int(t[1])], "door": [int(d[0]), int(d[1])]} for t, d in sorted(terminals)],
        "ductways": [[int(v) for v in d] for d in sorted(ducts)],
    }
    if heights is not None and heights.any():
        data["heights"] = "\n".join("".join(S.HEIGHT_CHARS[v] for v in row) for row in heights) + "\n"
    return data


def board_from_data(data: dict, source: str = "<generated>") -> BoardSpec:
    """A ``BoardSpec`` from the fields of a board file, checked as ``load_board`` checks a file."""
    model = _validate(S.BoardFile, data, source)
    try:
        grid = S.check_board_map(model)
    except FieldProblem as problem:
        raise from_problem(source, problem) from None
    h, w = grid.terrain.shape
    return BoardSpec(
        name=model.name, description=model.description, height=h, width=w,
        terrain=_readonly(grid.terrain), doors=_readonly(grid.doors), terminals=_readonly(grid.terminals),
        ductways=_readonly(grid.ductways), caskets=_readonly(grid.caskets), deploy=_readonly(grid.deploy),
        source=source, heights=_readonly(grid.heights), features=_readonly(grid.features),
    )


def generate(kind: str = "zone_mortalis", width: int = 24, height: int = 24, seed: int = 0, symmetric=True,
             n_zones: int = 2, zone_cells: int = 12, caskets: int | None = None, max_doors: int = 24,
             levels: bool | None = None, name: str | None = None) -> BoardSpec:
    """A procedurally generated board, deterministic for its arguments.

    kind: ``"zone_mortalis"`` (alias ``"zm"``): rooms and corridors with walls, doors (some open,
    some locked with terminals), ductways, obstacles and loot caskets; ``"sector"``: open ground
    with ruined walls, barricades, crates and (``levels``, default on) raised platforms with
    railings and a ladder or stairs. symmetric: True (180-degree turn; a top/bottom mirror for 3
    zones), False, or one of ``"rot180"``, ``"mirror"``, ``"rot90"`` (square boards, 4 zones).
    n_zones: deployment zones 2..4 (top, bottom, left, right), each at least ``zone_cells`` cells.
    caskets: number of loot caskets (default: one per symmetry image). max_doors: upper bound on
    doors (<= 32). Guarantees and algorithm: docs/boards.md.
    """
    data = generate_data(kind, width, height, seed, symmetric, n_zones, zone_cells, caskets, max_doors, levels, name)
    return board_from_data(data, f"<generated {data['name']}>")


# ---------------------------------------------------------------------------
# Writing boards
# ---------------------------------------------------------------------------


def board_chars(spec: BoardSpec) -> list[str]:
    """The map rows of a board (the legend of docs/data.md)."""
    h, w = spec.height, spec.width
    grid = np.full((h, w), ".", dtype="<U1")
    grid[spec.terrain == TER_WALL] = "#"
    grid[spec.terrain == TER_OBSTACLE] = "o"
    for x, y, state in spec.doors:
        if int(state) not in _CHAR_OF_DOOR:
            raise ValueError(f"board {spec.name}: door at ({x}, {y}) has state {state}, which a board file cannot hold")
        grid[y, x] = _CHAR_OF_DOOR[int(state)]
    marks: dict[tuple[int, int], list[str]] = {}
    for y, x in zip(*np.nonzero(spec.deploy >= 0)):
        marks.setdefault((int(x), int(y)), []).append(str(int(spec.deploy[y, x])))
    for x, y in spec.caskets:
        marks.setdefault((int(x), int(y)), []).append("c")
    for y, x in zip(*np.nonzero(spec.features)):
        marks.setdefault((int(x), int(y)), []).append(_CHAR_OF_FEATURE.get(int(spec.features[y, x]), "?"))
    for (x, y), chars in marks.items():
        if len(chars) != 1 or chars[0] == "?" or spec.terrain[y, x] != TER_FLOOR:
            raise ValueError(f"board {spec.name}: cell ({x}, {y}) holds {chars} (zone/casket/feature bits); a board "
                             "file holds at most one of them per cell, on a floor cell")
        grid[y, x] = chars[0]
    return ["".join(row) for row in grid]


def board_to_yaml(spec: BoardSpec, comment: str | None = None) -> str:
    """The text of a board YAML file that ``load_board`` reads back as the same board."""
    lines = [f"# {line}" for line in (comment or f"Board {spec.name} ({spec.width}x{spec.height}). "
                                                   "Format: docs/data.md.").splitlines()]
    lines += ["# Legend: '#' wall, '.' floor, 'o' obstacle, '+' closed door, '/' open door, 'L' locked door,",
              "# 'c' loot casket, '0'-'3' deployment zone of gang k, 'H' ladder, 'S' stairs, 'r' railing.",
              "# Row 0 is the top (y = 0); the column is x. Cells in lists are [x, y]."]
    lines.append(f"name: {spec.name}")
    lines.append(f"description: {json.dumps(spec.description)}")
    lines.append("map: |")
    lines += [f"  {row}" for row in board_chars(spec)]
    doors = spec.doors
    if len(spec.terminals):
        lines.append("terminals:")
        for x, y, d in spec.terminals:
            lines.append(f"  - {{cell: [{x}, {y}], door: [{doors[d, 0]}, {doors[d, 1]}]}}")
    if len(spec.ductways):
        lines.append("ductways:")
        lines += [f"  - [{x0}, {y0}, {x1}, {y1}]" for x0, y0, x1, y1 in spec.ductways]
    if spec.heights.any():
        lines.append("heights: |")
        lines += [f"  {''.join(S.HEIGHT_CHARS[int(v)] for v in row)}" for row in spec.heights]
    return "\n".join(lines) + "\n"


def board_differences(a: BoardSpec, b: BoardSpec) -> list[str]:
    """Names of the BoardSpec fields (``source`` aside) in which two boards differ."""
    out = []
    for f in dataclasses.fields(BoardSpec):
        if f.name == "source":
            continue
        va, vb = getattr(a, f.name), getattr(b, f.name)
        if isinstance(va, np.ndarray) or isinstance(vb, np.ndarray):
            same = (np.asarray(va).shape == np.asarray(vb).shape and np.asarray(va).dtype == np.asarray(vb).dtype
                    and np.array_equal(va, vb))
        else:
            same = va == vb
        if not same:
            out.append(f.name)
    return out


# ---------------------------------------------------------------------------
# Seeds and the env's board argument
# ---------------------------------------------------------------------------




_ARG_KEYS = {"width": int, "height": int, "n_zones": int, "zone_cells": int, "caskets": int, "max_doors": int,
             "symmetric": str, "levels": str}
BOARD_ARG_HELP = ("generate:KIND:SEEDS[:key=value,...] with KIND zm|zone_mortalis|sector, SEEDS an integer "
                  "(one board), 'train' or 'eval' (a new board from that split at every reset) or A-B (seeds A..B); "
                  f"keys: {', '.join(_ARG_KEYS)}")


def parse_board_arg(text: str) -> tuple[dict, range]:
    """``"generate:zm:3"`` -> (generate kwargs, seeds). See ``BOARD_ARG_HELP``."""
    parts = text.split(":")
    if len(parts) not in (3, 4) or parts[0] != "generate":
        raise ValueError(f"board {text!r}: expected {BOARD_ARG_HELP}")
    _, kind, seeds_text = parts[:3]
    if kind not in KINDS:
        raise ValueError(f"board {text!r}: unknown kind {kind!r}; expected one of {sorted(KINDS)}")
    if seeds_text in ("train", "eval"):
        seeds = board_seeds(seeds_text)
    else:
        try:
            if "-" in seeds_text:
                a, b = (int(v) for v in seeds_text.split("-"))
                if b < a or a < 0:
                    raise ValueError
                seeds = range(a, b + 1)
            else:
                a = int(seeds_text)
                if a < 0:
                    raise ValueError
                seeds = range(a, a + 1)
        except ValueError:
            raise ValueError(f"board {text!r}: bad seeds {seeds_text!r}; expected {BOARD_ARG_HELP}") from None
    kwargs = {"kind": kind}
    if len(parts) == 4 and parts[3]:
        for item in parts[3].split(","):
            key, sep, value = item.partition("=")
            if not sep or key not in _ARG_KEYS:
                raise ValueError(f"board {text!r}: bad option {item!r}; expected {BOARD_ARG_HELP}")
            if _ARG_KEYS[key] is int:
                try:
                    kwargs[key] = int(value)
                except ValueError:
                    raise ValueError(f"board {text!r}: option {key} needs an integer, got {value!r}") from None
            else:
                flags = {"true": True, "false": False}
                kwargs[key] = flags.get(value.lower(), value)
    return kwargs, seeds


class BoardDraw:
    """Generated boards over a seed range: the env's ``board="generate:KIND:SEEDS[:options]"``.

    ``board(seed)`` is the board of one seed; ``draw(rng)`` picks a seed of the range with a numpy
    Generator and returns ``(seed, board)``. Every board of a draw has the same size, at most
    ``max_doors`` doors and exactly ``n_caskets`` caskets, so one action space serves them all.
    """

    def __init__(self, text: str):
        self.text = text
        self.kwargs, self.seeds = parse_board_arg(text)
        self.max_doors = int(self.kwargs.get("max_doors", 24))
        self.n_caskets = len(self.board(self.seeds[0]).caskets)

    def board(self, seed: int) -> BoardSpec:
        return generate(seed=int(seed), **self.kwargs)

    def draw(self, rng: np.random.Generator) -> tuple[int, BoardSpec]:
        seed = int(self.seeds[int(rng.integers(len(self.seeds)))])
        return seed, self.board(seed)


# ---------------------------------------------------------------------------
# CLI
# ---------------------------------------------------------------------------


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m necro_env.config.generator",
                                 description="Write a procedurally generated board YAML file (docs/boards.md).")
    ap.add_argument("--kind", default="zm", choices=sorted(KINDS))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--width", type=int, default=24)
    ap.add_argument("--height", type=int, default=24)
    ap.add_argument("--symmetric", default="true", help="true, false, rot180, mirror or rot90")
    ap.add_argument("--n-zones", type=int, default=2)
    ap.add_argument("--zone-cells", type=int, default=12)
    ap.add_argument("--caskets", type=int, default=None)
    ap.add_argument("--max-doors", type=int, default=24)
    ap.add_argument("--flat", action="store_true", help="sector boards without raised platforms")
    ap.add_argument("--name", default=None)
    ap.add_argument("--out", default="-", help="output file ('-' = stdout)")
    args = ap.parse_args(argv)
    symmetric = {"true": True, "false": False}.get(args.symmetric.lower(), args.symmetric)
    try:
        spec = generate(args.kind, args.width, args.height, args.seed, symmetric, args.n_zones, args.zone_cells,
                        args.caskets, args.max_doors, False if args.flat else None, args.name)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    cmd = " ".join(["python -m necro_env.config.generator"] + list(argv if argv is not None else sys.argv[1:]))
    text = board_to_yaml(spec, f"Generated board {spec.name}: {cmd}\nFormat: docs/data.md; generator: docs/boards.md.")
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
