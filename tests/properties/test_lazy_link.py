"""core.lazy_link: cached code loads without parsing the bitcode that only linking needs.

- a cache entry written by necro_env carries the names of the symbols its linking module defines;
- in a new process, a function loaded from the cache runs and its symbols are known to numba's JIT
  engine without any bitcode parsed; a new function that links it parses its bitcode then, once,
  and computes the right result;
- an entry in numba's own two-part format still loads as numba loads it.
"""
import os
import textwrap

import numpy as np
import pytest

from necro_env.core import lazy_link
from necro_env.core.jit import njit

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiled code only")


@njit(separate=False)
def _twice(a):
    return 2.0 * a.sum()


def test_a_cache_entry_lists_the_symbols_its_linking_module_defines():
    assert _twice(np.arange(4.0)) == 12.0
    (cres,) = _twice.overloads.values()
    name, kind, data = cres.library.serialize_using_object_code()
    assert kind == "object" and len(data) == 3
    obj, bitcode, symbols = data
    assert isinstance(obj, bytes) and isinstance(bitcode, bytes)
    assert symbols == lazy_link.defined_symbols(cres.library._get_module_for_linking())
    assert cres.fndesc.mangled_name in symbols


MODULE = '''
import numpy as np
from necro_env.core.jit import njit

@njit(cache=True, separate=False)
def leaf(a):
    return 3.0 * a.sum()

@njit(cache=True, separate=False)
def user(a):
    return leaf(a) + 1.0
'''

RUN = '''
import pickle, sys
import numpy as np
from numba.core import codegen
from necro_env.core import lazy_link, separate
parsed = []
_parse = codegen.ll.parse_bitcode
codegen.ll.parse_bitcode = lambda data: parsed.append(len(data)) or _parse(data)
if sys.argv[1] == "old":  # the project's libraries write numba's own two-part entries
    separate.ProjectLibrary.serialize_using_object_code = codegen.CPUCodeLibrary.serialize_using_object_code
import lazymod as m
from necro_env.core.jit import njit
a = np.arange(5.0)
out = {"user": m.user(a), "hits": sum(m.user.stats.cache_hits.values())}
(cres,) = m.user.overloads.values()
out["lazy"] = hasattr(cres.library, lazy_link._LAZY)
out["known"] = cres.library._codegen._engine.is_symbol_defined(cres.fndesc.mangled_name)
out["parsed_at_load"] = len(parsed)

@njit(separate=False)
def fresh(a):  # compiled now: links the cached leaf
    return m.leaf(a) - 1.0

out["fresh"] = fresh(a)
(leaf,) = m.leaf.overloads.values()
out["leaf_lazy_after"] = hasattr(leaf.library, lazy_link._LAZY)
out["parsed_after_link"] = len(parsed)
sys.stdout.write(repr(out))
'''


def _run(cache_script, fmt="new"):
    return eval(cache_script(RUN, fmt))  # noqa: S307 - our own subprocess's repr of a dict of plain values


def test_cached_code_loads_without_parsing_and_links_on_demand(tmp_path, cache_script):
    (tmp_path / "lazymod.py").write_text(textwrap.dedent(MODULE))
    a = np.arange(5.0)
    first = _run(cache_script)
    assert first["hits"] == 0 and first["user"] == 3 * a.sum() + 1 and first["fresh"] == 3 * a.sum() - 1
    second = _run(cache_script)
    assert second["hits"] == 1 and second["user"] == first["user"]
    # loaded from the cache: nothing parsed, the symbol known to the JIT engine
    assert second["lazy"] and second["known"] and second["parsed_at_load"] == 0
    # linking the cached leaf into a new function parsed its bitcode (once) and works
    assert second["fresh"] == first["fresh"]
    assert not second["leaf_lazy_after"] and second["parsed_after_link"] == 1


def test_entries_in_numbas_own_format_still_load(tmp_path, cache_script):
    (tmp_path / "lazymod.py").write_text(textwrap.dedent(MODULE))
    first = _run(cache_script, "old")
    assert first["hits"] == 0
    second = _run(cache_script, "new")  # two-part entries, read by the patched loader
    assert second["hits"] == 1 and second["user"] == first["user"] and second["fresh"] == first["fresh"]
    # numba's path: a loaded entry's bitcode is parsed at once (user's and its CPython wrapper's,
    # core.pywrap, when it loads; leaf's when the new function loads it to link it), nothing lazy
    assert not second["lazy"] and second["known"]
    assert second["parsed_at_load"] == 2 and second["parsed_after_link"] == 3
