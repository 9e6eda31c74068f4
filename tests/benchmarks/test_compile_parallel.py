"""benchmarks/compile_parallel.py on a small module: the recorded plan lists the functions called
from Python and the separate ones (not the linked helpers), callees first, with their argument types, and a helper compiling the plan fills an empty cache from
which the script then loads every function instead of compiling it."""
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiled code only")

MODULE = '''
from necro_env.core.jit import njit

@njit(cache=True, separate=True)
def inner(x, k):
    s = 0
    for i in range(k):
        s += x * i
    return s

@njit(cache=True)
def twice(x):  # small: linked into its caller, not a unit of the plan
    return 2 * x

@njit(cache=True)
def outer(x):
    return inner(x, 4) + twice(1) - 1
'''

SCRIPT = '''
import planmod
print(planmod.outer(3), sum(planmod.outer.stats.cache_hits.values()), sum(planmod.outer.stats.cache_misses.values()))
'''


def test_a_helper_compiling_the_plan_fills_the_cache_the_script_then_loads(tmp_path, monkeypatch):
    import pickle

    from benchmarks import compile_parallel as cp

    (tmp_path / "planmod.py").write_text(MODULE)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    plan = tmp_path / "plan.pkl"
    assert cp.record_plan(SCRIPT, plan, cache_dir=tmp_path / "c0") == 2
    rows = pickle.loads(plan.read_bytes())
    assert [(m, q) for m, q, _ in rows] == [("planmod", "inner"), ("planmod", "outer")]  # callees first
    assert str(rows[0][2]) == "(int64, int64)"
    helper = cp.start_helper(plan, 0, tmp_path / "c1")
    assert cp.helper_result(helper)["functions"] == 2
    r = subprocess.run([sys.executable, "-c", SCRIPT], env=cp._env(tmp_path / "c1"), cwd=tmp_path,
                       capture_output=True, text=True, check=True)
    assert r.stdout.split() == ["19", "1", "0"]  # 3 * (0+1+2+3) + 1, loaded from the helper's cache
