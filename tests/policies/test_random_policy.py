"""The compiled random policy and the leaf numba cache (necro_env/_numba_cache.py)."""
import numpy as np

from necro_env import _numba_cache
from necro_env.core.rng import seed_game
from necro_env.policies.random_policy import random_action


def _prng(seed):
    p = np.zeros((1, 2), np.uint64)
    seed_game(p, 0, seed)
    return p


def test_random_action_picks_only_legal_indices_uniformly():
    mask = np.zeros((1, 50), np.bool_)
    legal = [3, 17, 18, 40]
    mask[0, legal] = True
    prng = _prng(1)
    picks = [random_action(None, None, 0, None, mask, prng) for _ in range(4000)]
    assert set(picks) == set(legal)
    counts = np.bincount(picks, minlength=50)[legal]
    assert counts.min() > 850 and counts.max() < 1150  # 1000 expected each


def test_random_action_is_deterministic_and_minus_one_when_nothing_is_legal():
    mask = np.ones((1, 30), np.bool_)
    a = [random_action(None, None, 0, None, mask, _prng(5)) for _ in range(3)]
    assert len(set(a)) == 1
    assert random_action(None, None, 0, None, np.zeros((1, 30), np.bool_), _prng(5)) == -1


def test_leaf_functions_cache_apart_from_the_engine():
    import os

    import numba

    leaf = _numba_cache.leaf_cache_dir("policies")
    if leaf is None:  # read-only home: numba's default location is used for everything
        assert _numba_cache.engine_cache_dir() is None
        return
    assert leaf.startswith(_numba_cache.engine_cache_dir() + "-policies-")
    assert _numba_cache.leaf_cache_dir("batch").startswith(_numba_cache.engine_cache_dir() + "-batch-")
    if os.environ.get("NUMBA_CACHE_DIR"):  # an explicit folder is respected for everything
        assert random_action._cache._cache_path.startswith(numba.config.CACHE_DIR)
    else:
        assert random_action._cache._cache_path.startswith(leaf)
