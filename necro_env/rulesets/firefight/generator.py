"""Seeded Firefight boards: a 48x48 table with 20 or more terrain pieces (firefight.md §2.3, §9, §12.1).

``generate(seed)`` returns the same ``data.Board`` that ``data.load_board`` returns for a file: the
generator writes the board as the fields of a board file and checks them with the same code, so a
generated board is always a valid board file, and ``data.board_to_yaml`` writes it out. Same
arguments => same board, bit for bit: every choice comes from ``numpy.random.Generator(PCG64(seed))``.

Layout rule (docs/firefight_data.md, "Generated boards"): pieces keep one open cell between them;
nothing stands on the two rows along each table edge; ruins, woods and barricades may reach into the
deployment zones (rows 0-11 and 36-47), impassable pieces, dangerous ground and raised platforms stay
in no-man's land (rows 12-35), and a ruin's walls only stand there. Every cell that is not impassable
is reachable from both zones (checked with a breadth-first search; a board that fails is drawn again).

Seeds: as Necromunda's generator (docs/boards.md, "Train / held-out seeds"), ``board_seeds("train")``
for training and ``board_seeds("eval")`` held out for evaluation, disjoint.
"""

from __future__ import annotations

import numpy as np

from necro_env.config import schemas as S
from necro_env.config.board_seeds import EVAL_SEEDS, TRAIN_SEEDS, board_seeds  # noqa: F401  (re-exported)
from necro_env.rulesets.firefight import data as D

# Seed convention for training on many maps and evaluating on held-out ones: config/board_seeds.py,
# the same split as Necromunda's generated boards.
SIZE = D.TABLE
EDGE_ROWS = 2  # rows along each table edge left open: every unit finds open ground to deploy on
IN_ZONES = ("ruins", "woods", "barricade")  # kinds that may reach into a deployment zone
REQUIRED = ("ruins", "woods", "barricade", "impassable", "platform")  # on every generated board
WEIGHTS = {"ruins": 4, "woods": 3, "barricade": 3, "impassable": 2, "platform": 1, "dangerous": 1}
PIECES = (20, 40)  # allowed ``pieces``
DEFAULT_PIECES = (22, 28)  # drawn per seed when ``pieces`` is None
PLACE_TRIES = 40  # positions tried for one piece before it is given up
MAX_DRAWS = 50  # whole boards drawn before giving up (a failed draw is rare: pieces never touch)


# ---------------------------------------------------------------------------
# Piece shapes: lists of (dx, dy, map character, height); '.' is a cell that must stay open
# ---------------------------------------------------------------------------


def _rect(w: int, h: int, ch: str) -> list:
    return [(x, y, ch, 0) for y in range(h) for x in range(w)]


def _ruins(rng) -> list:
    w, h = (int(v) for v in rng.integers(3, 7, 2))
    cells = _rect(w, h, "R")
    if rng.random() < 0.7:  # an L of standing walls in one corner: blocks sight
        a, b = int(rng.integers(2, w)), int(rng.integers(2, h))
        walls = {(x, 0) for x in range(a)} | {(0, y) for y in range(b)}
        cells = [(x, y, "#" if (x, y) in walls else ch, 0) for x, y, ch, _ in cells]
    return cells


def _woods(rng) -> list:
    w, h = (int(v) for v in rng.integers(3, 8, 2))
    cx, cy = (w - 1) / 2, (h - 1) / 2
    inside = [(x, y) for y in range(h) for x in range(w) if ((x - cx) / (w / 2)) ** 2 + ((y - cy) / (h / 2)) ** 2 <= 1]
    return [(x, y, "W", 0) for x, y in inside]


def _platform(rng) -> list:
    """A raised rectangle 2"-5" high with a ramp down one side, 1" a cell, ending on open ground."""
    w, h, height = int(rng.integers(3, 6)), int(rng.integers(3, 6)), int(rng.integers(2, 6))
    cells = [(x, y, "P", height) for y in range(h) for x in range(w)]
    cells += [(w + k, h // 2, "P", height - 1 - k) for k in range(height - 1)]
    return cells + [(w + height - 1, h // 2, ".", 0)]


def _shape(rng, kind: str) -> list:
    if kind == "ruins":
        cells = _ruins(rng)
    elif kind == "woods":
        cells = _woods(rng)
    elif kind == "barricade":
        cells = _rect(int(rng.integers(2, 6)), 1, "b")
    elif kind == "impassable":
        cells = _rect(int(rng.integers(2, 5)), int(rng.integers(2, 5)), "#")
    elif kind == "platform":
        cells = _platform(rng)
    else:
        cells = _rect(int(rng.integers(2, 4)), int(rng.integers(2, 4)), "~")
    return _orient(rng, cells)


def _orient(rng, cells: list) -> list:
    """The shape turned by a random transpose and flips, moved back to start at (0, 0)."""
    if rng.random() < 0.5:
        cells = [(y, x, ch, h) for x, y, ch, h in cells]
    fx, fy = rng.random() < 0.5, rng.random() < 0.5
    cells = [(-x if fx else x, -y if fy else y, ch, h) for x, y, ch, h in cells]
    mx, my = min(c[0] for c in cells), min(c[1] for c in cells)
    return [(x - mx, y - my, ch, h) for x, y, ch, h in cells]


# ---------------------------------------------------------------------------
# Placing pieces
# ---------------------------------------------------------------------------


def _rows(kind: str) -> tuple[int, int]:
    """The rows (first, last + 1) a piece of ``kind`` may occupy (the layout rule)."""
    if kind in IN_ZONES:
        return EDGE_ROWS, SIZE - EDGE_ROWS
    return D.ZONE_DEPTH, SIZE - D.ZONE_DEPTH


def _images(cells: list, symmetric: bool) -> list:
    """The piece and, on a symmetric board, its image under a half turn about the centre."""
    out = [cells]
    if symmetric:
        out.append([(SIZE - 1 - x, SIZE - 1 - y, ch, h) for x, y, ch, h in cells])
    return out


def _halo(cells: list) -> np.ndarray:
    """The piece's cells and their 8 neighbours: no other piece may touch them."""
    mask = np.zeros((SIZE, SIZE), bool)
    for x, y, _, _ in cells:
        mask[max(0, y - 1):y + 2, max(0, x - 1):x + 2] = True
    return mask


def _at(rng, kind: str, shape: list) -> list | None:
    """``shape`` at a random position its kind may take, or None when it does not fit the rows."""
    w, h = max(c[0] for c in shape) + 1, max(c[1] for c in shape) + 1
    lo, hi = _rows(kind)
    if w > SIZE or hi - h < lo:
        return None
    x0, y0 = int(rng.integers(0, SIZE - w + 1)), int(rng.integers(lo, hi - h + 1))
    cells = [(x0 + x, y0 + y, ch, z) for x, y, ch, z in shape]
    # a ruin's walls are impassable: inside a deployment zone the ruin is rubble only
    return [(x, y, "R" if ch == "#" and kind == "ruins" and _in_zone(y) else ch, z) for x, y, ch, z in cells]


def _in_zone(y: int) -> bool:
    return y < D.ZONE_DEPTH or y >= SIZE - D.ZONE_DEPTH


def _place(rng, grid, heights, taken, kind: str, symmetric: bool) -> int:
    """Put one piece of ``kind`` (and its image) where it touches nothing; the number of pieces put."""
    for _ in range(PLACE_TRIES):
        cells = _at(rng, kind, _shape(rng, kind))
        if cells is None:
            continue
        images = _images(cells, symmetric)
        halos = [_halo(c) for c in images]
        if any(_touches(image, taken) for image in images) or (symmetric and _touches(images[0], halos[1])):
            continue
        for image, halo in zip(images, halos):
            for x, y, ch, z in image:
                if ch != ".":
                    grid[y, x], heights[y, x] = ch, z
            taken |= halo
        return len(images)
    return 0


def _touches(cells: list, halo: np.ndarray) -> bool:
    return any(halo[y, x] for x, y, _, _ in cells)


def _kinds(rng, target: int):
    """The required kinds first, then kinds drawn by WEIGHTS."""
    names, weights = list(WEIGHTS), np.array(list(WEIGHTS.values()), float)
    yield from REQUIRED
    for _ in range(4 * target):
        yield names[int(rng.choice(len(names), p=weights / weights.sum()))]


def _draw(rng, target: int, symmetric: bool):
    """(map characters, heights) with ``target`` or more pieces and every required kind, or None."""
    grid = np.full((SIZE, SIZE), ".", "<U1")
    heights = np.zeros((SIZE, SIZE), np.int8)
    taken = np.zeros((SIZE, SIZE), bool)
    count = 0
    for k, kind in enumerate(_kinds(rng, target)):
        if count >= target:
            return grid, heights
        placed = _place(rng, grid, heights, taken, kind, symmetric)
        if not placed and k < len(REQUIRED):
            return None
        count += placed
    return (grid, heights) if count >= target else None


def _connected(grid, heights) -> bool:
    """Every cell that is not impassable is reachable from both deployment zones (data.unreachable)."""
    flags = np.array([flag for _, flag in D.LEGEND.values()], np.uint8)[_codes(grid)]
    return D.unreachable(flags, heights, D.zones(SIZE, SIZE, "top_bottom")) is None


def _codes(grid) -> np.ndarray:
    codes = np.zeros(grid.shape, np.uint8)
    for i, ch in enumerate(D.LEGEND):
        codes[grid == ch] = i
    return codes


# ---------------------------------------------------------------------------
# The API
# ---------------------------------------------------------------------------


def _check_args(seed, pieces, symmetric, name) -> None:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= 2**63 - 1:
        raise ValueError(f"seed must be an integer 0..2**63-1, got {seed!r}")
    lo, hi = PIECES
    if pieces is not None and (isinstance(pieces, bool) or not isinstance(pieces, (int, np.integer))
                               or not lo <= pieces <= hi):
        raise ValueError(f"pieces must be None (drawn {DEFAULT_PIECES[0]}..{DEFAULT_PIECES[1]}) or an integer "
                         f"{lo}..{hi} (20 or more: firefight.md §2.3), got {pieces!r}")
    if not isinstance(symmetric, bool):
        raise ValueError(f"symmetric must be True (a half turn maps the board onto itself) or False, got {symmetric!r}")
    if name is not None and not (isinstance(name, str) and S._NAME_RE.match(name)):
        raise ValueError(f"name must be a snake_case id (lower-case letters, digits and '_'), got {name!r}")


def generate_data(seed: int = 0, pieces: int | None = None, symmetric: bool = True, name: str | None = None) -> dict:
    """The fields of a board file for a generated board (see :func:`generate`)."""
    _check_args(seed, pieces, symmetric, name)
    rng = np.random.Generator(np.random.PCG64(int(seed)))
    target = int(rng.integers(DEFAULT_PIECES[0], DEFAULT_PIECES[1] + 1)) if pieces is None else int(pieces)
    for _ in range(MAX_DRAWS):
        drawn = _draw(rng, target, symmetric)
        if drawn is not None and _connected(*drawn):
            break
    else:
        raise RuntimeError(f"no board with every cell reachable in {MAX_DRAWS} draws (seed {seed}, pieces {target})")
    grid, heights = drawn
    return {
        "name": name or f"gen_firefight_{seed}",
        "description": f"generated: seed={seed} pieces={target} symmetric={symmetric}",
        "deployment": "top_bottom",
        "map": "\n".join("".join(row) for row in grid) + "\n",
        "heights": "\n".join("".join(S.HEIGHT_CHARS[v] for v in row) for row in heights) + "\n",
    }


def generate(seed: int = 0, pieces: int | None = None, symmetric: bool = True, name: str | None = None) -> D.Board:
    """A generated 48x48 Firefight board, deterministic for its arguments.

    seed: 0..2**63-1 (``board_seeds("train")`` to train, ``board_seeds("eval")`` held out). pieces: at
    least this many terrain pieces, 20..40 (default: 22..28 drawn from the seed); a symmetric board may
    get one more. symmetric: a half turn about the centre maps the board onto itself (zone 0 onto
    zone 1), so neither side has the better table. Raises ValueError naming a bad argument."""
    data = generate_data(seed, pieces, symmetric, name)
    return D.board_from_data(data, f"<generated {data['name']}>")
