"""How fast numba writes the entity board's static planes into a batch of observations.

``python -m benchmarks.encode_copy [--batch 1024] [--threads 2]`` times three ways of writing
``planes[side[b]]`` (15 x 24 x 24 float32, 34.5 KB) into row b of a [B, 15, 24, 24] buffer,
in a parallel loop over the rows as ``kernels.encode_all`` does: numba's 3-d slice assignment
(``out[:, :, :] = planes[g]``, what ``encode.encode_board`` did), a loop over the flattened
row (what it does now), and zeroing the row (the lower bound of a write). Prints milliseconds
per batch; nothing is asserted.
"""
from __future__ import annotations

import argparse
import time

import numba
import numpy as np
from numba import njit, prange


@njit(parallel=True, cache=False)
def slice_3d(planes, side, board):
    for b in prange(board.shape[0]):
        board[b][:, :, :] = planes[side[b]]


@njit(parallel=True, cache=False)
def flat_loop(planes, side, board):
    for b in prange(board.shape[0]):
        out = board[b].reshape(-1)
        src = planes[side[b]].reshape(-1)
        for i in range(out.shape[0]):
            out[i] = src[i]


@njit(parallel=True, cache=False)
def zero_fill(planes, side, board):
    for b in prange(board.shape[0]):
        out = board[b].reshape(-1)
        for i in range(out.shape[0]):
            out[i] = 0.0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=200)
    a = ap.parse_args(argv)
    numba.set_num_threads(a.threads)
    rng = np.random.default_rng(0)
    planes = rng.random((2, 15, 24, 24)).astype(np.float32)
    side = rng.integers(0, 2, a.batch)
    board = np.empty((a.batch, 15, 24, 24), np.float32)
    for fn in (slice_3d, flat_loop, zero_fill):
        fn(planes, side, board)  # compile
        t = time.perf_counter()
        for _ in range(a.repeats):
            fn(planes, side, board)
        ms = (time.perf_counter() - t) / a.repeats * 1e3
        print(f"{fn.__name__:10s} {ms:7.3f} ms per batch of {a.batch} ({a.threads} threads)")


if __name__ == "__main__":
    main()
