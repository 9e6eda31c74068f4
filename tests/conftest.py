"""Session set-up: on a cold numba cache, compile the rules core on every core before the first test
(``necro_env.warmup``; with a warm cache this is a few file checks)."""


def pytest_sessionstart(session):
    from necro_env.warmup import ensure

    ensure()
