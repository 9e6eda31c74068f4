"""The compile machinery acts on the project's own functions only (core.jit, "Scope and versions").

After necro_env is imported and a game played (its engine compiled or loaded with the machinery),
an unrelated function decorated with numba's own ``numba.njit`` in the same process:

- has numba's dispatcher class and compiler pipeline, numba's code library and codegen, none of the
  project's library methods ran for it and no project compile was under way while it compiled;
- leaves numba as it found it: numba's classes hold none of the project's methods, numba's codegen
  and inliner are numba's own between the project's compiles;
- cached (``cache=True``), it is written where stock numba looks and as stock numba writes it: a
  process that imports numba alone loads it and computes the same;
- while the project's own functions keep the machinery.
"""
import copy
import inspect
import os
import subprocess
import sys
import textwrap

import numba
import numpy as np
import pytest
from numba.core import codegen, compiler, dispatcher, inline_closurecall, registry

from necro_env.core import jit, separate

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiled code only")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# numba's classes the machinery builds on; none may carry a method of the project's
NUMBA_CLASSES = (codegen.CodeLibrary, codegen.CPUCodeLibrary, codegen.JITCodeLibrary, codegen.CPUCodegen,
                 codegen.JITCPUCodegen, codegen.JitEngine, dispatcher.Dispatcher, registry.CPUDispatcher)
# the project's library methods that numba calls (recorded below)
HOOKS = ("add_linking_library", "_finalize_final_module", "get_pointer_to_function", "_get_compiled_object",
         "serialize_using_object_code", "_get_module_for_linking")


def _poly(a, k):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * a[i] * k
    return s


def foreign_methods():
    """(class, name, module) of every method of numba's classes defined neither by numba nor by llvmlite."""
    out = []
    for cls in NUMBA_CLASSES:
        for name, value in vars(cls).items():
            fn = value.__func__ if isinstance(value, (classmethod, staticmethod)) else value
            fn = fn.fget if isinstance(fn, property) else fn
            module = getattr(fn, "__module__", None)
            if inspect.isfunction(fn) and not (module or "").startswith(("numba.", "llvmlite.")):
                out.append((cls.__name__, name, module))
    return out


@pytest.fixture
def played():
    from necro_env.envs.necromunda_env import build_game

    g = build_game()
    g.reset(11)
    rng = np.random.default_rng(11)
    for _ in range(12):
        g.step(int(rng.choice(g.legal_actions())))
    return g


@pytest.fixture
def recorded(monkeypatch):
    """The libraries the project's library methods ran on, and the project compiles entered."""
    seen = {"libraries": [], "compiles": 0}
    for name in HOOKS:
        orig = getattr(separate.ProjectLibrary, name)

        def hook(self, *a, _orig=orig):
            seen["libraries"].append(self)
            return _orig(self, *a)

        monkeypatch.setattr(separate.ProjectLibrary, name, hook)
    window = separate.project_compile

    def counting(targetctx):
        seen["compiles"] += 1
        return window(targetctx)

    monkeypatch.setattr(separate, "project_compile", counting)
    return seen


def test_an_unrelated_numba_function_compiles_as_stock_numba_compiles_it(played, recorded):
    from necro_env.rulesets.necromunda import engine

    assert not foreign_methods()
    cg = registry.cpu_target.target_context.codegen()
    assert "_library_class" not in vars(cg) and inline_closurecall.copy is copy
    a = np.arange(6.0)
    f = numba.njit(_poly)
    assert f(a, 3) == 3 * (a * a).sum()
    assert type(f) is registry.CPUDispatcher and f._compiler.pipeline_class is compiler.Compiler
    ((args, cres),) = f.overloads.items()
    assert type(cres.library) is codegen.JITCodeLibrary and type(cres.library.codegen) is codegen.JITCPUCodegen
    assert cres.library.codegen is cg and not [k for k in vars(cres.library) if k.startswith("_necro")]
    assert recorded["compiles"] == 0  # no project compile was under way
    assert not [lib for lib in recorded["libraries"] if lib is cres.library]
    assert not foreign_methods() and "_library_class" not in vars(cg)
    # the project's own functions keep the machinery
    assert type(engine.step) is jit.OneVersionDispatcher
    assert all(isinstance(c.library, separate.ProjectLibrary) for c in engine.step.overloads.values())
    g = played
    before = g.state.g.copy()
    g.step(int(g.legal_actions()[0]))  # and still play
    assert not np.array_equal(before, g.state.g) or g.done


def test_a_project_compile_records_its_libraries(recorded):
    # the recording above sees the project's compiles (so that its silence for numba's function counts)
    @jit.njit(separate=False)
    def _inner(a):
        return a.sum() + 1.0

    @jit.njit
    def _outer(a):
        return _inner(a) * 2.0

    assert _outer(np.arange(3.0)) == 8.0
    (cres,) = _outer.overloads.values()
    assert recorded["compiles"] >= 2 and any(lib is cres.library for lib in recorded["libraries"])


MODULE = '''
import numba

@numba.njit(cache=True)
def poly(a, k):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * a[i] * k
    return s
'''

WITH_NECRO = '''
import numpy as np
from necro_env.envs.necromunda_env import build_game
g = build_game()
g.reset(5)
for _ in range(5):
    g.step(int(g.legal_actions()[0]))
import stockmod
print(stockmod.poly(np.arange(6.0), 2), stockmod.poly._cache._cache_path, type(stockmod.poly).__name__,
      sum(stockmod.poly.stats.cache_misses.values()))
'''

NUMBA_ONLY = '''
import sys
import numpy as np
import stockmod
assert not [m for m in sys.modules if m.startswith("necro_env")]
print(stockmod.poly(np.arange(6.0), 2), stockmod.poly._cache._cache_path, type(stockmod.poly).__name__,
      sum(stockmod.poly.stats.cache_hits.values()))
'''


def test_a_cached_unrelated_function_is_cached_where_and_as_stock_numba_does(tmp_path):
    (tmp_path / "stockmod.py").write_text(textwrap.dedent(MODULE))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), ROOT, os.environ.get("PYTHONPATH", "")]))

    def run(script):
        r = subprocess.run([sys.executable, "-c", script], env=env, cwd=tmp_path, capture_output=True, text=True,
                           timeout=900)
        assert r.returncode == 0, r.stderr[-3000:]
        return r.stdout.split()

    want = str(2 * (np.arange(6.0) ** 2).sum())
    value, path, kind, misses = run(WITH_NECRO)
    assert (value, kind, misses) == (want, "CPUDispatcher", "1")  # compiled (and cached) in necro_env's process
    # numba alone looks in the same folder and loads that entry: numba's own location and format
    value2, path2, kind2, hits = run(NUMBA_ONLY)
    assert (value2, path2, kind2, hits) == (want, path, "CPUDispatcher", "1")
