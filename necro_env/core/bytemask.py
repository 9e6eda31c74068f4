"""Counting and indexing the True entries of a mask row, eight bytes at a time.

A legal-action mask row is a bool array of ``n_actions`` bytes (7,486 on the default board),
each 0 or 1, of which a few dozen are set. Counting them byte by byte (``fill_mask``'s count,
the random policy's draw) took 0.65 us per row and finding the k-th set entry another
0.4-1.8 us: together about a quarter of the batched core's time in random play
(docs/performance.md, "Where the time goes"). Here the row is read as unaligned 64-bit
words: the sum of words adds eight byte lanes at once (each lane counts at most one per
word, so 255 words fit before a lane overflows), and a word's own count is its bytes' sum,
``(v * 0x0101010101010101) >> 56``, so the search skips empty words and counts a word in one
multiplication. Results equal the byte-by-byte loops' (tests/properties/test_bytemask.py).

Under ``NUMBA_DISABLE_JIT=1`` (plain Python) the two functions are numpy one-liners. With plain
numba (``core.jit``: an untested numba version, or ``NECRO_STOCK_NUMBA=1``) ``load_u64`` is not
an LLVM intrinsic but the same word assembled from its eight bytes.
"""
from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

from .jit import FAST, njit

_LANES = np.uint64(0x00FF00FF00FF00FF)
_SUM16 = np.uint64(0x0001000100010001)
_SUM8 = np.uint64(0x0101010101010101)


if FAST:
    @intrinsic
    def load_u64(typingctx, row, i):
        """The eight bytes ``row[i:i + 8]`` of a 1-d C-contiguous array of 1-byte items as one
        little-endian uint64 (an unaligned load; the caller keeps ``i + 8 <= len(row)``)."""
        if not (isinstance(row, types.Array) and row.ndim == 1 and row.layout == "C"
                and row.dtype in (types.boolean, types.uint8, types.int8)):
            return None
        if not isinstance(i, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            arr = context.make_array(signature.args[0])(context, builder, args[0])
            byte_ptr = builder.bitcast(arr.data, ir.IntType(8).as_pointer())
            offset = context.cast(builder, args[1], signature.args[1], types.intp)
            word_ptr = builder.bitcast(builder.gep(byte_ptr, [offset]), ir.IntType(64).as_pointer())
            value = builder.load(word_ptr)
            value.align = 1
            return value

        return types.uint64(row, i), codegen
else:  # plain numba: no intrinsic (core.jit's fallback touches nothing of numba's code generation)
    @njit(cache=True, inline="always")
    def load_u64(row, i):
        """The eight bytes ``row[i:i + 8]`` as one little-endian uint64, byte by byte."""
        v = np.uint64(0)
        for j in range(8):
            v |= (np.uint64(row[i + j]) & np.uint64(0xFF)) << np.uint64(8 * j)  # an int8's bits, unextended
        return v


if numba.config.DISABLE_JIT:
    def count_true(row):
        """The number of True entries of ``row``."""
        return int(np.count_nonzero(row))

    def nth_true(row, k):
        """The index of the k-th (from 0) True entry of ``row``; -1 if it has k or fewer."""
        idx = np.flatnonzero(row)
        return int(idx[k]) if 0 <= k < idx.shape[0] else -1
else:
    @njit(cache=True)
    def count_true(row):
        """The number of True entries of ``row`` (a 1-d C-contiguous bool array)."""
        m = row.shape[0]
        nw = m // 8
        n = 0
        w0 = 0
        while w0 < nw:
            w1 = min(w0 + 255, nw)
            acc = np.uint64(0)
            for w in range(w0, w1):
                acc += load_u64(row, 8 * w)
            acc = (acc & _LANES) + ((acc >> np.uint64(8)) & _LANES)  # four 16-bit lane sums
            n += np.int64((acc * _SUM16) >> np.uint64(48))
            w0 = w1
        for i in range(8 * nw, m):
            if row[i]:
                n += 1
        return n

    @njit(cache=True)
    def nth_true(row, k):
        """The index of the k-th (from 0) True entry of ``row``; -1 if it has k or fewer."""
        if k < 0:
            return -1
        m = row.shape[0]
        nw = m // 8
        for w in range(nw):
            v = load_u64(row, 8 * w)
            if v == 0:
                continue
            c = np.int64((v * _SUM8) >> np.uint64(56))
            if c > k:
                for i in range(8 * w, 8 * w + 8):
                    if row[i]:
                        if k == 0:
                            return i
                        k -= 1
            k -= c
        for i in range(8 * nw, m):
            if row[i]:
                if k == 0:
                    return i
                k -= 1
        return -1
