"""The masked uniform-random policy (see necro_env/policies/__init__.py for the signature)."""
import numpy as np

from .._numba_cache import leaf_njit
from ..core.bytemask import count_true, nth_true
from ..core.rng import rand_below


@leaf_njit
def random_action(s, st, b, lay, mask, prng):
    """A uniformly random legal index of ``mask[b]`` drawn from the player's ``prng``;
    -1 when nothing is legal (the game is over)."""
    row = mask[b]
    n = count_true(row)
    if n == 0:
        return np.int64(-1)
    return np.int64(nth_true(row, rand_below(prng, b, n)))
