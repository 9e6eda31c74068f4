"""Separate compilation: large jitted functions are called, not linked into their callers.

numba links the compiled library of every jitted callee, with its own linked callees, into the
library of each caller and optimises and turns into machine code the result again, so that a
function's machine code is made once for itself and once more inside every caller above it: the
engine's cold compile spent about half its CPU on repeating that work over linked callee trees
(docs/performance.md, "Compile time"). A *separate* function is compiled once, into its own
machine code; callers declare its symbol and call it, and the JIT linker resolves the call to the
machine code already loaded. ``core.jit.njit`` makes every function whose bytecode has at least
``MIN_BYTECODE`` bytes separate (``separate=True/False`` overrides); small helpers stay linked,
so that LLVM can still inline them into their callers, and so do the large functions called many
times per decision (``separate=False``: ``query.clear_rays_cells``, the heuristics' per-cell
scorer; their per-action scorer is expanded into its caller, ``inline="always"``), since a call
passes the state's and the tables' 26 arrays field by field
(about 45 ns a call on the project machine).

Caching. A cached caller's object code refers to its separate callees by symbol, so they must be
loaded before it is: the first call would otherwise jump to an unresolved symbol. Every function
compiled with ``cache=True`` therefore writes, before numba writes its cache entry, a *manifest*
next to it (``<index>.deps``: for each signature, the separate functions its machine code calls,
directly or through linked callees, with their signatures and symbol names). Before numba loads a
cached version, :func:`load_deps` compiles or loads those functions first and checks that they
define the recorded symbols (a callee recompiled since, e.g. after its file was touched, gets a
new symbol); when anything does not match, or the manifest has no entry, the cached version is
not used and the function is compiled afresh (and cached again, with a new manifest entry).

Scope. Everything here acts on the code library the project's functions compile into,
:class:`ProjectLibrary` (this module's layer on ``core.lazy_code``'s and ``core.lazy_link``'s), never
on numba's own classes. numba creates its libraries through its codegen; :func:`project_compile`
makes it create :class:`ProjectLibrary` ones, and run the inliner's IR copies of
``core.borrowed_args``, only while one of the project's functions is compiled or loaded (under
numba's compiler lock, so no other compile sees it); other numba code in the process compiles as
stock numba does (tests/properties/test_numba_scope.py).
"""
from __future__ import annotations

import contextlib
import importlib
import os

from numba.core import inline_closurecall

from . import compile_lock, lazy_code
from .borrowed_args import InlinerCopy

MIN_BYTECODE = 600  # bytes of CPython bytecode from which a jitted function is compiled separately

_DEPS = "_necro_deps"  # library attribute: {dep key: None} (an ordered set) of the separate callees it calls
_KEY = "_necro_separate"  # library attribute of a separate function's library: its dep key


class ProjectLibrary(lazy_code.LazyCodeLibrary):
    """The code library of the project's compiled functions (module docstring)."""

    def add_linking_library(self, library):
        """numba's ``add_linking_library``: a separate library is not linked but recorded as a
        dependency, and a linked library's dependencies become the caller's."""
        key = getattr(library, _KEY, None)
        deps = getattr(library, _DEPS, None)
        if key is not None or deps:
            mine = self.__dict__.setdefault(_DEPS, {})
            if deps:
                mine.update(deps)
            if key is not None:
                lazy_code.ensure(library)  # its machine code must be in the JIT engine before ours
                mine[key] = None
                return None
        lazy_code.finalize_without_code(library)  # linked as IR: its own machine code is not needed
        return super().add_linking_library(library)


_MISSING = object()


@contextlib.contextmanager
def project_compile(targetctx):
    """While a project function is compiled or loaded: numba's codegen creates (and loads)
    :class:`ProjectLibrary` libraries and its inliner copies IR with ``core.borrowed_args``'s
    :class:`InlinerCopy`; both are numba's again afterwards (module docstring). Nests."""
    cg = targetctx.codegen()
    before = cg.__dict__.get("_library_class", _MISSING), inline_closurecall.copy
    cg._library_class = ProjectLibrary
    inline_closurecall.copy = copier = InlinerCopy()
    try:
        yield
    finally:
        copier.forget()
        if before[0] is _MISSING:
            del cg._library_class
        else:
            cg._library_class = before[0]
        inline_closurecall.copy = before[1]


def is_separate(py_func, options: dict) -> bool:
    """The default of ``core.jit.njit``: large functions that are not inlined by numba."""
    return options.get("inline", "never") == "never" and len(py_func.__code__.co_code) >= MIN_BYTECODE


# ------------------------------------------------------------------ manifests
def _manifest_path(disp):
    return compile_lock.sidecar_path(disp, ".deps")


def resolve(module: str, qualname: str):
    """The object named ``qualname`` in ``module`` (a dotted path inside it)."""
    obj = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def load_deps(disp, args):
    """Before numba may load ``disp``'s cached version for ``args``: compile or load the separate
    functions it calls (from its manifest) and check their symbols. Returns their dep keys, or
    None when the cached version must not be used (no manifest entry, or a callee that cannot be
    found or no longer defines the recorded symbol)."""
    path = _manifest_path(disp)
    if path is None:
        return None
    deps = compile_lock.read_sidecar(path).get(args)
    if deps is None:
        _debug(disp, "no manifest entry", path)
        return None
    for key in deps:
        module, qualname, dargs, symbol = key
        try:
            dep = resolve(module, qualname)
            dep.compile(dargs)
            cres = dep.overloads[dargs]
        except Exception as e:  # noqa: BLE001 - anything amiss: compile the caller afresh instead
            _debug(disp, "dependency not loaded", qualname, repr(e))
            return None
        if cres.fndesc.mangled_name != symbol:
            _debug(disp, "symbol differs", qualname, symbol, cres.fndesc.mangled_name)
            return None
    return deps


def _debug(disp, *what):
    """``NECRO_ENV_DEBUG_SEPARATE=1``: say why a cached version is not used."""
    if os.environ.get("NECRO_ENV_DEBUG_SEPARATE"):
        print("[separate]", disp.py_func.__qualname__, *what, flush=True)


def save_with_deps(disp, save):
    """Wrap ``disp._cache.save_overload`` so that the manifest entry is written first."""

    def save_overload(sig, cres):
        path = _manifest_path(disp)
        if path is not None and getattr(cres, "library", None) is not None:
            args = tuple(cres.signature.args)
            try:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                compile_lock.write_sidecar(path, args, list(getattr(cres.library, _DEPS, None) or ()))
            except OSError:
                return None  # no manifest, no cache entry: never a cached version without its deps
        if getattr(disp, "_necro_is_separate", False) and getattr(cres, "library", None) is not None:
            lazy_code.ensure(cres.library)  # called by symbol: cached with its machine code
        return save(sig, cres)

    return save_overload


def adopt(disp, args, cres, deps) -> None:
    """Mark a version just compiled or loaded: a separate function's library gets its dep key; a
    version loaded from the cache gets the dependencies of its manifest (for the callers that
    will link it)."""
    lib = cres.library
    if getattr(disp, "_necro_is_separate", False):
        setattr(lib, _KEY, (disp.py_func.__module__, disp.py_func.__qualname__, args, cres.fndesc.mangled_name))
    if _DEPS not in lib.__dict__ and deps:
        setattr(lib, _DEPS, dict.fromkeys(deps))
