"""Session set-up: on a cold numba cache, compile the rules core on every core before the first test
(``necro_env.warmup``; with a warm cache this is a few file checks). Stable-Baselines3 models made
without a TensorBoard folder log to ``$SB3_LOGDIR`` (else a new ``/tmp/SB3-<time>`` folder each):
the suite points it at one folder of its own, removed at the end."""
import os
import shutil
import tempfile

_SB3_LOGDIR = None


def pytest_sessionstart(session):
    global _SB3_LOGDIR
    from necro_env.warmup import ensure

    if "SB3_LOGDIR" not in os.environ:
        _SB3_LOGDIR = tempfile.mkdtemp(prefix="necro_tests_sb3_")
        os.environ["SB3_LOGDIR"] = _SB3_LOGDIR
    ensure()


def pytest_sessionfinish(session, exitstatus):
    if _SB3_LOGDIR is not None:
        shutil.rmtree(_SB3_LOGDIR, ignore_errors=True)
