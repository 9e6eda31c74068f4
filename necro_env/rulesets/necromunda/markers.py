"""Board markers (smoke clouds, ...) as the observation encoders and the renderer see them.

A marker kind lives in a run of global columns ``g[b, col0 .. col0 + n - 1]``, each holding the
marker's centre cell + 1 (0: no marker). ``MARKER_KINDS`` lists every kind with the area it covers:
the cells whose centre lies strictly closer than the marker's radius to the marker's centre cell's
centre. The radius is the kind's fixed ``radius`` (smoke clouds: 2.5") or, for a kind with a
``size_col``, read per marker from the state: ``(g[b, size_col + i] + size_pad) / 2`` inches (a
Graviton Pulse marker keeps its Blast diameter X in G_GRAVD0..; a base whose centre is closer than
(X + 1) / 2 is under it, ``templates.under_blast``). Adding a kind is one more entry here: the
encoders add one board channel (and one ``flat`` block) per kind, the compiled entity encoder reads
the same table (``kernel_tables``) and the renderer and the HTML viewer draw every kind.

Necromunda's own (its state columns and templates): it moved here from ``necro_env/envs/`` on 2026-12-02, when
the generic layers were cut from Necromunda. No compiled code freezes its values (the batch encoder gets
``kernel_tables()`` as arguments), so it is Python-only for the compile cache (``_numba_cache.PYTHON_ONLY``).
"""
from __future__ import annotations

import functools
import math
from collections import namedtuple

import numpy as np

from .state import G_GRAV0, G_GRAVD0, G_SMOKE0, N_GRAV, N_SMOKE
from .templates import SMOKE_RADIUS

MarkerKind = namedtuple("MarkerKind", "name col0 count radius meaning colour size_col size_pad",
                        defaults=(-1, 0))

MARKER_KINDS = (
    MarkerKind("smoke", G_SMOKE0, N_SMOKE, SMOKE_RADIUS,
               "inside a smoke cloud (§12 Smoke: no line of sight into, out of or through it)", (150, 150, 160)),
    MarkerKind("graviton", G_GRAV0, N_GRAV, None,
               "inside a Graviton Pulse marker (§12 Graviton Pulse: moving into it costs double)", (140, 70, 190),
               G_GRAVD0, 1),
)
RADIUS_SCALE = 8.0  # ``flat``'s marker radius feature: inches / 8, clipped to 1


def radius_text(kind: MarkerKind) -> str:
    """The radius of ``kind``'s markers in words (docs/api.md)."""
    if kind.size_col < 0:
        return f"{kind.radius:g}\""
    return "(its diameter + 1) / 2 inches" if kind.size_pad == 1 else f"(its diameter + {kind.size_pad}) / 2 inches"


@functools.cache
def stencil(radius: float) -> np.ndarray:
    """[n, 2] cell offsets (dx, dy) covered by a marker of ``radius`` inches: centre distance < radius."""
    r = int(math.ceil(radius))
    return np.array([(dx, dy) for dy in range(-r, r + 1) for dx in range(-r, r + 1)
                     if dx * dx + dy * dy < radius * radius - 1e-9], np.int64).reshape(-1, 2)


def marker_radius(g_row, kind: MarkerKind, i: int) -> float:
    """Radius in inches of the marker in slot ``i`` of ``kind`` (fixed, or read from the state)."""
    if kind.size_col < 0:
        return float(kind.radius)
    return (int(g_row[kind.size_col + i]) + kind.size_pad) / 2.0


def marker_list(g_row, kind: MarkerKind) -> list[tuple[int, float]]:
    """(centre cell, radius in inches) of the markers of ``kind`` in one game's global row."""
    return [(int(g_row[kind.col0 + i]) - 1, marker_radius(g_row, kind, i))
            for i in range(kind.count) if g_row[kind.col0 + i] > 0]


def marker_plane(g_row, k: int, h: int, w: int, out=None) -> np.ndarray:
    """[H, W] float32 plane: 1 where a marker of kind ``MARKER_KINDS[k]`` covers the cell."""
    plane = np.zeros((h, w), np.float32) if out is None else out
    for c, r in marker_list(g_row, MARKER_KINDS[k]):
        st = stencil(r)
        xs = c % w + st[:, 0]
        ys = c // w + st[:, 1]
        ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        plane[ys[ok], xs[ok]] = 1.0
    return plane


def kernel_tables():
    """The table for the compiled encoder: int64[K, 5] = (col0, count, size_col, two_r, size_pad).
    A cell (dx, dy) from a marker's centre is covered when 4 (dx^2 + dy^2) < D^2 with D the
    marker's diameter in inches: ``two_r`` (2 x the fixed radius, a whole number) for a kind
    without ``size_col``, else ``g[size_col + i] + size_pad``."""
    kinds = np.zeros((len(MARKER_KINDS), 5), np.int64)
    for i, kind in enumerate(MARKER_KINDS):
        two_r = 0
        if kind.size_col < 0:
            two_r = round(2 * kind.radius)
            assert abs(two_r - 2 * kind.radius) < 1e-9, f"marker {kind.name}: radius must be a multiple of 0.5"
        kinds[i] = (kind.col0, kind.count, kind.size_col, two_r, kind.size_pad)
    return kinds
