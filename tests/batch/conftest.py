"""Shared games of the batch tests (built once per session: building the LOS tables costs)."""
import pytest

from necro_env.envs.necromunda_env import build_game


@pytest.fixture(scope="session")
def game2():
    """The default scenario (gang_fight: 2 gangs on a 24x24 board)."""
    return build_game()


@pytest.fixture(scope="session")
def game3():
    """Three gangs on the default board (needs 3 deployment zones)."""
    try:
        return build_game(num_gangs=3)
    except ValueError as e:  # a board without a third zone
        pytest.skip(str(e))
