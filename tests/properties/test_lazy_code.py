"""core.lazy_code: machine code only for the libraries that run as themselves.

- a helper linked into its caller gets no machine code (its module is never added to the JIT
  engine; the engine does know its symbol, from the copy linked into the caller) and
  the caller computes the right result; called from Python afterwards, the helper's machine code
  is made then;
- a separate function, which its callers call by symbol, has machine code;
- across processes: a linked helper is cached without machine code and loads without it; its
  environment (the constants its print of an array boxes with) is set in every caller's copy; a
  Python-called function's entry is written again with its machine code once Python has called it,
  so the next process loads machine code;
- a pending library's cache entry is its linking bitcode and the symbols it defines, written
  without making machine code.
"""
import os
import textwrap

import numpy as np
import pytest

from numba.core import codegen

from necro_env.core import lazy_code, lazy_link
from necro_env.core.jit import njit

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiled code only")


@njit(separate=False)
def _inner(a):
    return 2.0 * a.sum()


@njit(separate=False)
def _outer(a):
    return _inner(a) + 1.0


@njit(separate=False)
def _kept(a):
    return a.sum() - 2.0


@njit(separate=False)
def _keeps(a):
    return _kept(a) * 2.0


@njit(separate=True)
def _apart(a):
    return 3.0 * a.sum()


@njit(separate=False)
def _calls_apart(a):
    return _apart(a) - 1.0


def _only(disp):
    (cres,) = disp.overloads.values()
    return cres


@pytest.fixture
def added(monkeypatch):
    """The modules added to numba's JIT engine (turned into machine code) during the test."""
    mods = []
    add = codegen.JitEngine.add_module

    def recording(self, module):
        mods.append(module)
        return add(self, module)

    monkeypatch.setattr(codegen.JitEngine, "add_module", recording)
    return mods


def _has_code(cres, added) -> bool:
    return any(m is cres.library._final_module for m in added)


def test_a_linked_helper_gets_machine_code_only_when_python_calls_it(added):
    a = np.arange(4.0)
    assert _outer(a) == 13.0
    inner, outer = _only(_inner), _only(_outer)
    assert lazy_code.pending(inner.library) and not _has_code(inner, added)
    assert _has_code(outer, added) and not lazy_code.pending(outer.library)  # Python called it
    assert _inner(a) == 12.0  # now from Python: made on demand
    assert _has_code(inner, added) and not lazy_code.pending(inner.library)
    assert _outer(a) == 13.0


def test_a_separate_function_has_machine_code_for_its_callers(added):
    a = np.arange(4.0)
    assert _calls_apart(a) == 17.0
    apart = _only(_apart)
    assert _has_code(apart, added) and not lazy_code.pending(apart.library)


MODULE = '''
import numpy as np
from necro_env.core.jit import njit

@njit(cache=True, separate=False)
def show(a):
    print("helper sees", a)
    return a.sum()

@njit(cache=True, separate=True)
def apart(a):
    return 2.0 * a.sum()

@njit(cache=True, separate=False)
def user(a):
    return show(a) + apart(a)
'''

RUN = '''
import sys
import numpy as np
from numba.core import codegen
from necro_env.core import lazy_code, lazy_link
from necro_env.core.jit import njit
added = []  # the modules added to the JIT engine
_add = codegen.JitEngine.add_module
codegen.JitEngine.add_module = lambda self, module: added.append(module) or _add(self, module)
import lazymod as m

def state(disp):
    (cres,) = disp.overloads.values()
    lib = cres.library
    return {"pending": lazy_code.pending(lib), "from_ir": lazy_code._SYMBOLS in lib.__dict__,
            "object_unparsed": hasattr(lib, lazy_link._LAZY),
            "code": any(mod is lib._final_module for mod in added)}

a = np.arange(3.0)
out = {"user": m.user(a), "hits": sum(m.user.stats.cache_hits.values()), "apart": state(m.apart)}
sys.stdout.flush()

@njit(separate=False)
def fresh(a):  # compiled now: links the helper (from the cache, if it is there)
    return m.show(a) - 1.0

out["fresh"] = fresh(a)
out["show_linked"] = state(m.show)
sys.stdout.flush()
if sys.argv[1] == "call":
    out["show"] = m.show(a)
    out["show_called"] = state(m.show)
print(repr(out))
'''


def _run(cache_script, how="link"):
    text = cache_script(RUN, how)
    *printed, last = text.strip().splitlines()
    return printed, eval(last)  # noqa: S307 - our own subprocess's repr of a dict of plain values


def test_across_processes_helpers_are_cached_without_machine_code(tmp_path, cache_script):
    (tmp_path / "lazymod.py").write_text(textwrap.dedent(MODULE))
    a = np.arange(3.0)
    seen = "helper sees [0. 1. 2.]"
    printed, first = _run(cache_script)
    assert first["hits"] == 0 and first["user"] == 3 * a.sum() and first["fresh"] == a.sum() - 1
    assert printed == [seen, seen]  # the caller's copy and the new function's copy print the array
    assert first["show_linked"] == {"pending": True, "from_ir": False, "object_unparsed": False, "code": False}
    assert not first["apart"]["pending"] and first["apart"]["code"]

    printed, second = _run(cache_script, "call")
    assert second["hits"] == 1 and second["user"] == first["user"] and second["fresh"] == first["fresh"]
    assert printed == [seen, seen, seen]  # cached caller, new function, and the helper itself
    # the helper was cached without machine code: loaded (to be linked) as IR, nothing in the engine
    assert second["show_linked"] == {"pending": True, "from_ir": True, "object_unparsed": False, "code": False}
    assert second["show"] == a.sum()  # called from Python: made from the cached IR
    assert second["show_called"]["code"] and not second["show_called"]["pending"]
    assert second["apart"]["code"] and not second["apart"]["pending"]  # cached with its machine code

    printed, third = _run(cache_script, "call")
    assert printed == [seen, seen, seen] and third["show"] == second["show"]
    # the second process wrote the helper's entry again with its machine code: loaded as such,
    # its linking bitcode unparsed until the new function linked it
    assert third["show_linked"]["code"] and not third["show_linked"]["pending"]
    assert not third["show_linked"]["from_ir"]


def test_a_pending_librarys_entry_holds_its_linking_bitcode_and_symbols():
    assert _keeps(np.arange(4.0)) == 8.0
    kept = _only(_kept)  # only ever linked (no other test calls it from Python)
    assert lazy_code.pending(kept.library)
    name, kind, (bitcode, symbols) = kept.library.serialize_using_object_code()
    assert kind == lazy_code.KIND and isinstance(bitcode, bytes)
    assert symbols == lazy_link.defined_symbols(kept.library._get_module_for_linking())
    assert kept.fndesc.mangled_name in symbols
    assert lazy_code.pending(kept.library)  # serialising it made no machine code
