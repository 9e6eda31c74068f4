"""core.compile_lock: one process at a time compiles a cached function; the others wait and load it.

Two processes on an empty cache: the first holds the function's lock (as it would while compiling
it) for a few seconds and then compiles; the second, started meanwhile, waits for the lock and then
*loads* the function from the cache instead of compiling it again (numba's cache statistics say
which). Without a cache there is nothing to lock.
"""
import os
import subprocess
import sys
import time

import pytest

from necro_env.core import compile_lock
from necro_env.core.jit import njit

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1" or compile_lock.fcntl is None,
                                reason="compiled code and fcntl only")

MODULE = '''
from necro_env.core.jit import njit

@njit(cache=True)
def triple(x):
    return 3 * x
'''

FIRST = '''
import sys, time
import lockmod
from necro_env.core import compile_lock
with compile_lock.held(lockmod.triple):
    print("locked", flush=True)
    time.sleep(4)
    r = lockmod.triple(7)  # compiled and cached while the lock is held
print(r, sum(lockmod.triple.stats.cache_misses.values()), sum(lockmod.triple.stats.cache_hits.values()), flush=True)
'''

SECOND = '''
import time
import lockmod
t = time.perf_counter()
r = lockmod.triple(5)
print(r, sum(lockmod.triple.stats.cache_misses.values()), sum(lockmod.triple.stats.cache_hits.values()),
      round(time.perf_counter() - t, 2), flush=True)
'''


def test_a_second_process_waits_for_the_lock_and_loads_the_first_ones_compile(tmp_path):
    (tmp_path / "lockmod.py").write_text(MODULE)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), root, env.get("PYTHONPATH", "")])
    first = subprocess.Popen([sys.executable, "-c", FIRST], env=env, cwd=tmp_path, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    assert first.stdout.readline().strip() == "locked"
    second = subprocess.run([sys.executable, "-c", SECOND], env=env, cwd=tmp_path, capture_output=True, text=True,
                            timeout=300)
    out1, err1 = first.communicate(timeout=300)
    assert first.returncode == 0 and second.returncode == 0, err1 + second.stderr
    r1, miss1, hit1 = out1.split()
    r2, miss2, hit2, waited = second.stdout.split()
    assert (r1, miss1, hit1) == ("21", "1", "0")  # the first process compiled
    assert (r2, miss2, hit2) == ("15", "0", "1")  # the second loaded that compile from the cache
    assert float(waited) > 0.5  # it waited for the first one's lock (about 4 s less its own start)


def test_functions_without_a_cache_are_not_locked(tmp_path):
    @njit
    def plain(x):
        return x + 1

    assert compile_lock.lock_path(plain) is None
    with compile_lock.held(plain):  # nothing to lock: the block just runs
        assert plain(1) == 2


def test_the_lock_is_taken_once_per_function_within_a_process(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))

    class Fake:  # a dispatcher whose cache index is in tmp_path
        class _cache:
            class _cache_file:
                _index_path = str(tmp_path / "f.nbi")

    t = time.perf_counter()
    with compile_lock.held(Fake):
        with compile_lock.held(Fake):  # re-entered while held (a function asked for while it is typed)
            assert str(tmp_path / "f.nbi.lock") in compile_lock._held
    assert not compile_lock._held and time.perf_counter() - t < 5
