import pytest

from necro_env.replay import record


@pytest.fixture(scope="session")
def replay_file(tmp_path_factory):
    """One whole random game on the default scenario (seed 5)."""
    return record(tmp_path_factory.mktemp("replays") / "game.jsonl", seed=5)
