"""core.bytemask: counting and indexing a mask row eight bytes at a time gives the byte-by-byte
answers, on rows of every length around the word and block boundaries, at every byte offset
inside a [B, n] array (rows of the real mask start at unaligned addresses), and under
``NUMBA_DISABLE_JIT=1`` as plain numpy. The random policy built on it draws the same action as
the byte loop it replaced."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from necro_env.core.bytemask import count_true, nth_true
from necro_env.core.rng import rand_below, seed_game
from necro_env.policies.random_policy import random_action


def _reference_nth(row, k):
    idx = np.flatnonzero(row)
    return int(idx[k]) if 0 <= k < len(idx) else -1


@st.composite
def rows(draw):
    # lengths around 8-byte words and the 255-word blocks of count_true (2,040 bytes)
    n = draw(st.one_of(st.integers(0, 40), st.integers(2030, 2050), st.integers(4075, 4090),
                       st.just(7486)))
    density = draw(st.sampled_from([0.0, 0.01, 0.2, 1.0]))
    seed = draw(st.integers(0, 2**32 - 1))
    return np.random.default_rng(seed).random(n) < density


@settings(max_examples=200, deadline=None)
@given(rows())
def test_count_and_nth_equal_the_byte_loops(row):
    n = int(np.count_nonzero(row))
    assert count_true(row) == n
    for k in sorted({-1, 0, 1, n // 2, n - 1, n, n + 3}):
        assert nth_true(row, k) == _reference_nth(row, k), k


@pytest.mark.parametrize("width", [7486, 17, 2041])
def test_rows_of_a_batch_at_every_byte_offset(width):
    # row b of a [B, width] mask starts at byte b * width: every offset modulo 8 occurs
    rng = np.random.default_rng(width)
    mask = rng.random((9, width)) < 0.01
    mask[:, -1] = True  # the tail bytes after the last whole word are counted too
    for b in range(mask.shape[0]):
        row = mask[b]
        n = int(row.sum())
        assert count_true(row) == n
        for k in range(n + 1):
            assert nth_true(row, k) == _reference_nth(row, k)


def test_a_full_row_counts_past_a_byte_lane():
    # 7,486 set bytes: every byte lane of the word sums passes 255 within one block
    row = np.ones(7486, np.bool_)
    assert count_true(row) == 7486
    assert nth_true(row, 7485) == 7485 and nth_true(row, 7486) == -1


def test_the_random_policy_draws_what_the_byte_loop_drew():
    rng = np.random.default_rng(3)
    mask = rng.random((6, 7486)) < 0.008
    mask[5] = False  # nothing legal: -1
    prng = np.zeros((6, 2), np.uint64)
    ref = prng.copy()
    for b in range(6):
        seed_game(prng, b, np.uint64(77 + b))
        seed_game(ref, b, np.uint64(77 + b))
    for _ in range(20):
        for b in range(6):
            got = random_action(None, None, b, None, mask, prng)
            legal = np.flatnonzero(mask[b])
            want = -1 if len(legal) == 0 else int(legal[rand_below(ref, b, len(legal))])
            assert got == want
    assert (prng == ref).all()  # the same number of draws from the player's generator
