"""core.pywrap: a jitted function gets its CPython entry point only when Python calls it.

- a version compiled for a jitted caller has neither numba's CPython nor its C wrapper, and
  Python never sees its empty entry point;
- the first call from Python compiles the wrapper (arrays in and out, errors raised as usual) and
  later calls dispatch to it;
- in a new process a version loaded from the cache loads its wrapper from the sidecar instead of
  compiling it (also when it returns an array: the wrapper's constants are restored);
- a sidecar entry for another compile of the function (another symbol) is not used.
"""
import os
import pickle
import textwrap

import numpy as np
import pytest

from necro_env.core import pywrap
from necro_env.core.jit import njit

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiled code only")


@njit(separate=True)
def _histogram(a, n):
    if n <= 0:
        raise ValueError("n must be positive")
    out = np.zeros(n, np.int32)
    for x in a:
        out[x % n] += 1
    return out


@njit
def _caller(a):
    return _histogram(a, 3).sum()


def _defined(lib):
    return {fn.name for fn in lib._get_module_for_linking().functions if not fn.is_declaration}


def test_a_callee_has_no_wrappers_until_python_calls_it():
    a = np.arange(10, dtype=np.int64)
    assert _caller(a) == 10
    ((args, cres),) = _histogram.overloads.items()
    assert not pywrap.has_wrapper(cres)
    names = _defined(cres.library)
    assert cres.fndesc.mangled_name in names
    assert cres.fndesc.llvm_cpython_wrapper_name not in names and cres.fndesc.llvm_cfunc_wrapper_name not in names
    # called from Python: the wrapper is made, the result is numba's, errors are raised
    assert _histogram(a, 3).tolist() == [4, 3, 3] and _histogram(a, 3).dtype == np.int32
    assert pywrap.entry(_histogram, args) is pywrap.entry(_histogram, args)
    with pytest.raises(ValueError, match="n must be positive"):
        _histogram(a, 0)
    assert _caller(a) == 10  # the jitted caller is unaffected


MODULE = '''
import numpy as np
from necro_env.core.jit import njit

@njit(cache=True, separate=True)
def counts(a, n):
    out = np.zeros(n, np.int32)
    for x in a:
        out[x % n] += 1
    return out

@njit(cache=True)
def total(a):
    return counts(a, 4).sum()
'''

RUN = '''
import sys
import numpy as np
from necro_env.core import pywrap
built = []
_build = pywrap._build
pywrap._build = lambda *a: built.append(a[0].py_func.__name__) or _build(*a)
import wmod
a = np.arange(9, dtype=np.int64)
out = {"total": int(wmod.total(a)), "counts": wmod.counts(a, 4).tolist(), "dtype": str(wmod.counts(a, 4).dtype)}
out["hits"] = sum(sum(f.stats.cache_hits.values()) for f in (wmod.counts, wmod.total))
out["built"] = sorted(built)
sys.stdout.write(repr(out))
'''


def test_cached_versions_load_their_wrappers_and_a_stale_one_is_rebuilt(tmp_path, cache_script):
    def _run():
        return eval(cache_script(RUN))  # noqa: S307 - our own subprocess's repr of a dict of plain values

    (tmp_path / "wmod.py").write_text(textwrap.dedent(MODULE))
    expected = {"total": 9, "counts": [3, 2, 2, 2], "dtype": "int32"}
    first = _run()
    assert {k: first[k] for k in expected} == expected
    assert first["hits"] == 0 and first["built"] == ["counts", "total"]
    sidecars = sorted((tmp_path / "cache").rglob("*.pyw"))
    assert [p.name.split("-")[0].split(".")[-1] for p in sidecars] == ["counts", "total"]

    second = _run()  # everything from the cache, the wrappers included
    assert {k: second[k] for k in expected} == expected
    assert second["hits"] == 2 and second["built"] == []

    # a sidecar entry that wraps another compile (another symbol) is not used but replaced
    counts_pyw = sidecars[0]
    data = pickle.loads(counts_pyw.read_bytes())
    ((args, entry),) = data.items()
    assert entry[:2] == (pywrap.FORMAT, _symbol(tmp_path))
    data[args] = (entry[0], "_ZN_some_other_compile") + entry[2:]
    counts_pyw.write_bytes(pickle.dumps(data))
    third = _run()
    assert {k: third[k] for k in expected} == expected
    assert third["built"] == ["counts"]
    assert pickle.loads(counts_pyw.read_bytes())[args][:2] == entry[:2]
    # so is an entry of another format (wrappers built another way)
    data[args] = (pywrap.FORMAT + 1,) + entry[1:]
    counts_pyw.write_bytes(pickle.dumps(data))
    assert _run()["built"] == ["counts"]


def _symbol(tmp_path):
    """``counts``' symbol in the cache (the manifest of ``total``, its caller, names it)."""
    (deps,) = (tmp_path / "cache").rglob("wmod.total*.deps")
    ((_, (key,)),) = pickle.loads(deps.read_bytes()).items()
    return key[3]
