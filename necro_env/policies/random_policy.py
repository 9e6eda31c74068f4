"""The masked uniform-random policy (see necro_env/policies/__init__.py for the signature)."""
import numpy as np

from .._numba_cache import leaf_njit
from ..core.rng import rand_below


@leaf_njit
def random_action(s, st, b, lay, mask, prng):
    """A uniformly random legal index of ``mask[b]`` drawn from the player's ``prng``;
    -1 when nothing is legal (the game is over)."""
    n = 0
    for i in range(mask.shape[1]):
        if mask[b, i]:
            n += 1
    if n == 0:
        return np.int64(-1)
    k = rand_below(prng, b, n)
    for i in range(mask.shape[1]):
        if mask[b, i]:
            if k == 0:
                return np.int64(i)
            k -= 1
    return np.int64(-1)
