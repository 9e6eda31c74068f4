"""Firefight's batched core (necro_env/rulesets/firefight/batch.py, 2026-12-02): the same seed plays the same games
in a slot at any batch size and thread count, a slot's first game is ``Game.reset(seed + b)``'s, and the random
player inside the kernel only plays indices its mask allows."""
import numpy as np
import pytest

from necro_env.rulesets.firefight.batch import R_DECISIONS, R_GAMES, BatchedFirefight, next_seed
from necro_env.rulesets.firefight.game_config import GameConfig
from necro_env.rulesets.firefight.state import state_slice

CFG = GameConfig()


def _slots(bg, n):
    return [tuple(a[b].copy() for a in bg.state) for b in range(n)]


def _same(x, y):
    return all(np.array_equal(a, b) for a, b in zip(x, y))


def test_same_games_at_any_batch_size_and_thread_count():
    runs = [BatchedFirefight(CFG, batch_size=bs, seed=5, threads=t).play(400) for bs, t in ((2, 1), (5, 2), (3, 3))]
    ref = _slots(runs[0], 2)
    assert runs[0].results[:, R_GAMES].sum() >= 1  # 400 decisions span a whole game and an auto-reset
    for bg in runs[1:]:
        got = _slots(bg, 2)
        assert all(_same(a, b) for a, b in zip(ref, got))
        assert np.array_equal(bg.counts[:2], runs[0].counts[:2])
        assert np.array_equal(bg.results[:2], runs[0].results[:2])


def test_slot_first_game_is_game_reset_with_its_seed():
    bg = BatchedFirefight(CFG, batch_size=3, seed=11, threads=2)
    g = CFG.build()
    for b in range(3):
        g.reset(seed=11 + b)
        assert _same(state_slice(bg.state, b), g.state)
        assert np.array_equal(bg.mask[b], g.mask[0])


def test_kernel_plays_legal_moves_and_resets():
    """Step the kernel one decision at a time and replay its choice through Game, which refuses illegal indices."""
    bg = BatchedFirefight(CFG, batch_size=1, seed=3, threads=1)
    g = CFG.build().reset(seed=3)
    for _ in range(2000):
        bg.play(1)
        if bg.results[0, R_GAMES]:  # the game just ended and the slot started its next one
            break
        # the index the kernel played is the legal one that brings Game to the kernel's state
        for a in g.legal_actions():
            c = g.clone().step(int(a))
            if _same(c.state, state_slice(bg.state, 0)):
                g = c
                break
        else:
            pytest.fail("the kernel's decision is not one of Game's legal actions")
    assert bg.results[0, R_GAMES] == 1 and bg.results[0, R_DECISIONS] > 50


def test_episode_seed_stream():
    e = np.array([7], np.uint64)
    assert next_seed(e, 0) == 7 and next_seed(e, 0) != 7


def test_bad_batch_size_refused():
    with pytest.raises(ValueError, match="batch_size=0"):
        BatchedFirefight(CFG, batch_size=0)
