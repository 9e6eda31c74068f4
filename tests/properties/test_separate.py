"""core.separate: large jitted functions are called by their callers, not linked into them.

- a separate callee's code is not in its caller's library (only declared there), and the caller
  computes the same as with the callee linked;
- with the disk cache, a caller loaded in a new process loads its separate callees first (it
  would otherwise call an unresolved symbol), also when it is the first function called;
- a cached caller whose manifest names a symbol its callee no longer defines, or that has no
  manifest, is compiled afresh instead of being loaded;
- in the engine, ``legal.action_mask`` is separate and not part of ``legal.fill_mask``'s library.
"""
import os
import pickle
import textwrap

import numpy as np
import pytest

from necro_env.core import separate
from necro_env.core.jit import njit

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiled code only")


def _scaled_sum(a, k):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * k
    return s


_callee = njit(separate=True)(_scaled_sum)
_callee_linked = njit(separate=False)(_scaled_sum)  # the same function, linked into its callers


@njit
def _caller(a):
    return _callee(a, 3) + 1.0


@njit
def _caller_linked(a):
    return _callee_linked(a, 3) + 1.0


def _defined(lib):  # (the module other libraries link: also there for a version loaded from the cache)
    return {fn.name for fn in lib._get_module_for_linking().functions if not fn.is_declaration}


def _declared(lib):
    return {fn.name for fn in lib._get_module_for_linking().functions if fn.is_declaration}


def test_a_separate_callee_is_called_not_linked():
    a = np.arange(7.0)
    assert _caller(a) == _caller_linked(a) == 3 * a.sum() + 1
    (callee,) = _callee.overloads.values()
    (caller,) = _caller.overloads.values()
    (linked,) = _caller_linked.overloads.values()
    name = callee.fndesc.mangled_name
    assert name in _declared(caller.library) and name not in _defined(caller.library)
    assert getattr(caller.library, separate._DEPS) == {getattr(callee.library, separate._KEY): None}
    # the linked twin carries no dependency
    assert not getattr(linked.library, separate._DEPS, None)


def test_large_functions_are_separate_by_default_and_hot_ones_are_not():
    from necro_env.policies import heuristics
    from necro_env.rulesets.necromunda import legal, query

    assert legal.action_mask._necro_is_separate and legal.fill_mask._necro_is_separate
    assert not query.gang_of._necro_is_separate  # inline="always"
    assert len(query.standing.py_func.__code__.co_code) < separate.MIN_BYTECODE
    assert not query.standing._necro_is_separate
    # large, but called many times per decision: linked on purpose (separate=False)
    for f in (query.clear_rays_cells, heuristics.score_action, heuristics.view_from):
        assert len(f.py_func.__code__.co_code) >= separate.MIN_BYTECODE and not f._necro_is_separate


def test_the_engine_calls_action_mask_instead_of_linking_it(engine_game):
    from necro_env.rulesets.necromunda import legal

    g = engine_game
    legal.fill_mask(g.state, g.static, 0, g.layout, g.mask)
    (am,) = legal.action_mask.overloads.values()
    (fm,) = legal.fill_mask.overloads.values()
    assert am.fndesc.mangled_name in _declared(fm.library)
    assert am.fndesc.mangled_name not in _defined(fm.library)


@pytest.fixture
def engine_game():
    from necro_env.envs.necromunda_env import build_game

    g = build_game()
    g.reset(3)
    return g


# ------------------------------------------------------------------ across processes
MODULE = '''
import numpy as np
from necro_env.core.jit import njit

@njit(cache=True, separate=True)
def callee(a, k):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * k
    return s
'''

CALLER = '''
import numpy as np
from necro_env.core.jit import njit
from sepmod_callee import callee

@njit(cache=True)
def middle(a):  # linked into caller: its dependency on callee becomes the caller's
    return callee(a, 2)

@njit(cache=True)
def caller(a):
    return middle(a) + callee(a, 3) + 1.0
'''

RUN = '''
import sys
import numpy as np
import sepmod_caller as m
print(m.caller(np.arange(5.0)), sum(m.caller.stats.cache_hits.values()), sum(m.callee.stats.cache_hits.values()) if hasattr(m, "callee") else -1, flush=True)
'''


def _parse(stdout):
    value, caller_hits, _ = stdout.split()
    return float(value), int(caller_hits)


def test_a_cached_caller_loads_its_separate_callees_first(tmp_path, cache_script):
    def _run():
        return _parse(cache_script(RUN))

    (tmp_path / "sepmod_callee.py").write_text(textwrap.dedent(MODULE))
    (tmp_path / "sepmod_caller.py").write_text(textwrap.dedent(CALLER))
    want = 5 * np.arange(5.0).sum() + 1.0
    assert _run() == (want, 0)  # compiled and cached
    assert list((tmp_path / "cache").rglob("*.deps"))
    # a new process calls the caller first: it comes from the cache, its callee loaded before it
    assert _run() == (want, 1)
    # the callee recompiled since (its file touched: numba drops its cached version): whether or
    # not the new version has the recorded symbol, the caller works
    st = os.stat(tmp_path / "sepmod_callee.py")
    os.utime(tmp_path / "sepmod_callee.py", (st.st_atime + 10, st.st_mtime + 10))
    assert _run()[0] == want
    # a manifest whose callee symbol no longer matches: the cached caller is not used
    (deps,) = [p for p in (tmp_path / "cache").rglob("*.deps") if p.name.startswith("sepmod_caller.caller")]
    data = pickle.loads(deps.read_bytes())
    data = {args: [(m, q, a, sym + "_old") for m, q, a, sym in keys] for args, keys in data.items()}
    deps.write_bytes(pickle.dumps(data))
    assert _run() == (want, 0)
    assert _run() == (want, 1)  # cached again, with the right symbol
    # no manifest: no cached version is used
    for p in (tmp_path / "cache").rglob("*.deps"):
        p.unlink()
    assert _run() == (want, 0)
