"""Board markers (smoke clouds, ...) as the observation encoders and the renderer see them.

A marker kind lives in a run of global columns ``g[b, col0 .. col0 + n - 1]``, each holding the
marker's centre cell + 1 (0: no marker). ``MARKER_KINDS`` lists every kind with the area it covers:
the cells whose centre lies strictly closer than ``radius`` inches to the marker's centre cell's
centre. Adding a kind (e.g. Graviton Pulse markers) is one more entry here: the encoders add one
board channel (and one ``flat`` block) per kind, the compiled entity encoder reads the same table
and the renderer draws every kind.
"""
from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from ..rulesets.necromunda.state import G_SMOKE0, N_SMOKE
from ..rulesets.necromunda.templates import SMOKE_RADIUS

MarkerKind = namedtuple("MarkerKind", "name col0 count radius meaning colour")

MARKER_KINDS = (
    MarkerKind("smoke", G_SMOKE0, N_SMOKE, SMOKE_RADIUS,
               "inside a smoke cloud (§12 Smoke: no line of sight into, out of or through it)", (150, 150, 160)),
)


def stencil(radius: float) -> np.ndarray:
    """[n, 2] cell offsets (dx, dy) covered by a marker of ``radius`` inches: centre distance < radius."""
    r = int(math.ceil(radius))
    return np.array([(dx, dy) for dy in range(-r, r + 1) for dx in range(-r, r + 1)
                     if dx * dx + dy * dy < radius * radius - 1e-9], np.int64)


STENCILS = tuple(stencil(k.radius) for k in MARKER_KINDS)


def marker_cells(g_row, kind: MarkerKind) -> list[int]:
    """Centre cells of the markers of ``kind`` in one game's global row."""
    return [int(c) - 1 for c in g_row[kind.col0:kind.col0 + kind.count] if c > 0]


def marker_plane(g_row, k: int, h: int, w: int, out=None) -> np.ndarray:
    """[H, W] float32 plane: 1 where a marker of kind ``MARKER_KINDS[k]`` covers the cell."""
    plane = np.zeros((h, w), np.float32) if out is None else out
    st = STENCILS[k]
    for c in marker_cells(g_row, MARKER_KINDS[k]):
        xs = c % w + st[:, 0]
        ys = c // w + st[:, 1]
        ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        plane[ys[ok], xs[ok]] = 1.0
    return plane


def kernel_tables():
    """Arrays for the compiled encoder: (kinds int64[K, 3] = col0, count, n_stencil; stencil int64[K, S, 2])."""
    k = len(MARKER_KINDS)
    smax = max(len(s) for s in STENCILS)
    kinds = np.zeros((k, 3), np.int64)
    sten = np.zeros((k, smax, 2), np.int64)
    for i, (kind, st) in enumerate(zip(MARKER_KINDS, STENCILS)):
        kinds[i] = (kind.col0, kind.count, len(st))
        sten[i, :len(st)] = st
    return kinds, sten
