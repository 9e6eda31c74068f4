"""Soak test (``-m slow``): 100 uniformly random games recorded and verified bit for bit."""
import pytest

from necro_env.replay import record, verify


@pytest.mark.slow
def test_hundred_random_games_verify(tmp_path):
    for seed in range(100):
        path = record(tmp_path / f"game_{seed}.jsonl", seed=seed)
        res = verify(path)
        assert res.done and res.steps > 0
