"""Line of sight on boards that scale: static bytes and queries per second of core.sight's walk,
of its pair table, and of Necromunda's per-pair tables (core.geometry.build_los_tables).

    python -m benchmarks.sight [--pairs 200000] [--seconds 1] [--density 0.2] [--seed 0]
                               [--max-table-cells 4000]

For each board, 24x24 (Necromunda), 48x48 (Firefight) and 72x48 (WFB6), on three random terrains
(``pieces``: rectangles of 1-6 by 1-6 cells until ``--density`` of the cells block sight and half
as many give cover, as a table's ruins and woods; ``scattered``: the same shares drawn cell by
cell, which blocks nearly every long line; ``open``: no terrain, every line walked to its end) and
``--pairs`` random pairs of distinct open cells each, it prints, one thread, compiled:

- the static bytes per board: the walk's cells (3 bytes a cell), the pair table of
  ``sight.build_pair_bits`` (a bit per ordered pair for SIGHT_BLOCKED and one for SF_COVER), and
  Necromunda's tables, measured at 24x24 and computed from their bytes per pair at 48x48 and
  72x48 (not allocated);
- queries per second of ``sight.sight``, looping over the pairs for ``--seconds``: on ``pieces``
  under each corner rule and under the 3D height rule (15% of the cells that do not block hold
  something 1-4" tall), on the other two permissive; of ``sight.sight_field`` (one observer
  against every cell); of a lookup in the pair table (built, with its build time, on boards of at
  most ``--max-table-cells`` cells); and at 24x24 of Necromunda's static lookup (the wall and
  obstacle bytes and the five door words its ``clear_rays_cells`` reads for a pair), with the
  tables' build time.

The figures go to docs/performance.md. Tests never assert on time (tests/properties/test_sight.py
checks the printed byte counts only).
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np

from necro_env._numba_cache import leaf_njit
from necro_env.core import sight as S
from necro_env.core.geometry import build_los_tables
from necro_env.core.terrain import TER_FLOOR, TER_WALL

BOARDS = ((24, 24), (48, 48), (72, 48))  # (width, height): Necromunda, Firefight, WFB6
RULES = (("permissive", "off"), ("conservative", "off"), ("pinch", "off"), ("permissive", "line"))


@leaf_njit
def k_walk(cells, rules, ax, ay, tx, ty):
    blocked = 0
    for i in range(ax.shape[0]):
        if S.sight(cells, rules, ax[i], ay[i], tx[i], ty[i]) & S.SIGHT_BLOCKED:
            blocked += 1
    return blocked


@leaf_njit
def k_field(cells, rules, ax, ay, out):
    blocked = 0
    for i in range(ax.shape[0]):
        S.sight_field(cells, rules, ax[i], ay[i], out)
        for y in range(out.shape[0]):
            for x in range(out.shape[1]):
                if out[y, x] & S.SIGHT_BLOCKED:
                    blocked += 1
    return blocked


@leaf_njit
def k_table(bits, a, t):
    blocked = 0
    for i in range(a.shape[0]):
        blocked += S.pair_bit(bits, 0, a[i], t[i])
    return blocked


@leaf_njit
def k_necromunda(wall, obst, door, a, t):
    seen = 0
    for i in range(a.shape[0]):
        ca = a[i]
        ct = t[i]
        d = door[ca, ct, 0] | door[ca, ct, 1] | door[ca, ct, 2] | door[ca, ct, 3] | door[ca, ct, 4]
        if wall[ca, ct] != 31 and obst[ca, ct] == 0 and d == 0:
            seen += 1
    return seen


def scattered(w, h, density, rng):
    """flags [H, W] of cells drawn one by one: ``density`` of them block sight, half as many give cover."""
    u = rng.random((h, w))
    return np.where(u < density, S.SF_BLOCKS, np.where(u < 1.5 * density, S.SF_COVER, 0))


def pieces(w, h, density, rng):
    """flags [H, W] of terrain pieces, rectangles of 1-6 by 1-6 cells placed at random until
    ``density`` of the cells block sight and half as many give cover (as a table's ruins, walls and
    woods; scattered cells block far more long lines than a real table does)."""
    flags = np.zeros((h, w), np.int64)
    for flag, share in ((S.SF_BLOCKS, density), (S.SF_COVER, density / 2)):
        while np.count_nonzero(flags == flag) < share * w * h:
            pw, ph = rng.integers(1, 7, 2)
            x, y = rng.integers(0, w - pw + 1), rng.integers(0, h - ph + 1)
            piece = flags[y:y + ph, x:x + pw]
            piece[piece == 0] = flag
    return flags


def tops(flags, rng):
    """Tops of the 3D-height rows: 15% of the cells that do not block hold something 1-4" tall."""
    tall = (flags != S.SF_BLOCKS) & (rng.random(flags.shape) < 0.15)
    return np.where(tall, rng.integers(1, 5, flags.shape), 0)


def pairs(flags, n, rng):
    """n random ordered pairs of distinct open cells: x, y of each end and the flat indices."""
    h, w = flags.shape
    open_cells = np.flatnonzero(flags.ravel() != S.SF_BLOCKS)
    a = rng.choice(open_cells, n)
    t = rng.choice(open_cells, n)
    t = np.where(t == a, open_cells[(np.searchsorted(open_cells, t) + 1) % len(open_cells)], t)
    return a % w, a // w, t % w, t // w, a, t


def rate(kernel, args, count, seconds):
    """(calls per second of work units, result of the last call): ``kernel(*args)`` covers ``count``
    units; repeated for at least ``seconds`` after a first call (compile or load)."""
    res = kernel(*args)
    n = 0
    t0 = time.perf_counter()
    while True:
        res = kernel(*args)
        n += 1
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return n * count / dt, res


def necromunda_tables(flags):
    """Necromunda's tables for a board whose blocking cells are walls: (tables, build seconds)."""
    h, w = flags.shape
    ter = np.where(flags == S.SF_BLOCKS, TER_WALL, TER_FLOOR).astype(np.int8)
    build_los_tables(ter[:2, :2].copy(), np.full((2, 2), -1, np.int16), np.zeros((2, 2), np.int8))  # compile
    t0 = time.perf_counter()
    tables = build_los_tables(ter, np.full((h, w), -1, np.int16), np.zeros((h, w), np.int8))
    return tables, time.perf_counter() - t0


TERRAINS = {"pieces": pieces, "scattered": scattered, "open": lambda w, h, density, rng: np.zeros((h, w), np.int64)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=200_000, help="random pairs per board (default 200,000)")
    ap.add_argument("--seconds", type=float, default=1.0, help="time per measured rate (default 1)")
    ap.add_argument("--density", type=float, default=0.2, help="share of sight-blocking cells (default 0.2)")
    ap.add_argument("--seed", type=int, default=0, help="terrain and pairs generator seed (default 0)")
    ap.add_argument("--max-table-cells", type=int, default=4000,
                    help="build the pair table for boards of at most this many cells (default 4,000: all)")
    args = ap.parse_args(argv)
    if args.pairs < 1 or args.seconds <= 0 or not 0 <= args.density <= 0.5 or args.max_table_cells < 0:
        ap.error(f"--pairs {args.pairs}, --seconds {args.seconds}, --density {args.density}, --max-table-cells "
                 f"{args.max_table_cells}: allowed are at least 1, above 0, 0 to 0.5 and at least 0")
    import numba

    numba.set_num_threads(1)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"one thread, {args.pairs:,} random pairs of distinct open cells per board and terrain, "
          f"{args.density:.0%} of the cells block sight, seed {args.seed}, load average {load:.2f}")
    rng = np.random.default_rng(args.seed)
    per_pair = None
    for w, h in BOARDS:
        n = w * h
        print(f"walk static data {w}x{h}: {3 * n:,} bytes "
              f"(pair table, blocked + cover: {S.pair_bits_bytes(h, w, 2):,} bytes)")
        for name, make in TERRAINS.items():
            flags = make(w, h, args.density, rng)
            walk_rates(flags, pairs(flags, args.pairs, rng), name, rng, args)
        flags = pieces(w, h, args.density, rng)
        ax, ay, tx, ty, a, t = pairs(flags, args.pairs, rng)
        cells = S.make_cells(flags)
        assert cells.nbytes == 3 * n
        field = np.zeros((h, w), np.int16)
        obs = min(len(ax), 64)
        qps, _ = rate(k_field, (cells, S.make_rules(), ax[:obs], ay[:obs], field), obs * n, args.seconds)
        print(f"walk {w}x{h} pieces sight_field: {qps:,.0f} queries/s (one observer against all {n:,} cells)")
        if n <= args.max_table_cells:
            S.build_pair_bits(cells[:, :1, :1].copy(), S.make_rules(), S.SF_COVER)  # compile or load first
            t0 = time.perf_counter()
            bits = S.build_pair_bits(cells, S.make_rules(), S.SF_COVER)
            built = time.perf_counter() - t0
            qps, _ = rate(k_table, (bits, a, t), len(a), args.seconds)
            print(f"pair table {w}x{h}: {bits.nbytes:,} bytes, built in {built:.2f} s; lookup {qps:,.0f} queries/s")
        if per_pair is None:
            (wall, obst, door), built = necromunda_tables(flags)
            total = wall.nbytes + obst.nbytes + door.nbytes
            per_pair = total / (n * n)
            qps, _ = rate(k_necromunda, (wall, obst, door, a, t), len(a), args.seconds)
            print(f"Necromunda tables {w}x{h}: {total:,} bytes ({per_pair:g} bytes a pair), built in {built:.2f} s; "
                  f"lookup {qps:,.0f} queries/s")
        else:
            print(f"Necromunda tables {w}x{h} (computed): {int(per_pair * n * n):,} bytes")


def walk_rates(flags, drawn, name, rng, args):
    """Print the walk's queries per second on one terrain under each rule of RULES."""
    h, w = flags.shape
    ax, ay, tx, ty, _, _ = drawn
    length = np.maximum(abs(tx - ax), abs(ty - ay)).mean()
    cells = S.make_cells(flags)
    tall = S.make_cells(flags, None, tops(flags, rng))
    for corner, heights in RULES:
        if name != "pieces" and (corner, heights) != RULES[0]:
            continue
        r = S.make_rules(corner, heights=heights)
        qps, blocked = rate(k_walk, (tall if heights == "line" else cells, r, ax, ay, tx, ty), len(ax), args.seconds)
        label = corner if heights == "off" else f"{corner}, 3D heights"
        print(f"walk {w}x{h} {name} {label}: {qps:,.0f} queries/s ({blocked / len(ax):.0%} blocked, "
              f"pairs {length:.1f} cells apart on average)")


if __name__ == "__main__":
    main()
