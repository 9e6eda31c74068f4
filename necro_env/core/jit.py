"""``njit`` for the rules core: numba's, compiling one machine-code version per function.

numba compiles a separate version of a jitted function for every combination of argument
types it is called with from other jitted code, and it types a constant argument as its
literal value: ``set_cond(s, b, f, 4, -1)`` and ``set_cond(s, b, f, 16, g)`` were two
versions, and an ``int32`` read from a state array against an ``int64`` loop index two more.
Before this decorator the engine compiled 666 versions of 258 functions (``set_cond`` 29,
``weapon_attacks`` 12, each version linking its whole callee tree), which doubled the cold
compile time and the cache size (docs/performance.md, "Compile time").

Functions decorated here widen the argument types of calls *from jitted code* before numba
picks or compiles a version: integer literals and integers narrower than 64 bits become
``int64``, boolean literals ``boolean``. The caller converts its values at the call site as it
does for any numba call, so results are unchanged (an ``int16`` is promoted to ``int64`` by
numba's arithmetic anyway); only compile-time specialisation on constant values is lost.
Calls from Python keep numba's own typing (Python ints are ``int64`` already).

They are also compiled by :class:`~necro_env.core.borrowed_args.BorrowedArgsCompiler`, whose
functions borrow their arguments instead of reference-counting them (that module's docstring),
and large ones are compiled *separately*: called by their callers instead of linked into them
(:mod:`necro_env.core.separate`). A cached function is compiled by one process at a time
(:mod:`necro_env.core.compile_lock`): another process asking for it waits and loads the result.
Functions are compiled without numba's CPython and C wrappers; a version gets its CPython entry
point when Python first calls it (:mod:`necro_env.core.pywrap`).

Scope and versions. All of that builds on numba's private classes as numba 0.68 has them, so it
is used only when :func:`necro_env._numba_cache.fast_machinery` says so (numba and llvmlite in the
tested range pyproject.toml pins, ``NECRO_STOCK_NUMBA`` not ``1``); otherwise :func:`njit` is
plain ``numba.njit`` with the function's own options (the same games after a slower first compile;
tests/properties/test_numba_fallback.py) and none of those modules is imported. With the fast
machinery nothing of numba's is changed for other code: the project's functions get this
module's dispatcher class and pipeline, their code libraries are ``core.separate.ProjectLibrary``
(numba's codegen makes them only while a project function compiles,
``separate.project_compile``), so another library's ``numba.njit`` function in the same process
compiles as stock numba compiles it (tests/properties/test_numba_scope.py).
"""
from __future__ import annotations

import numba
from numba.core import sigutils, types
from numba.core.compiler_lock import global_compiler_lock
from numba.core.registry import CPUDispatcher

from .. import _numba_cache

FAST = _numba_cache.fast_machinery()  # the one decision (that function's docstring)

if FAST:
    from . import compile_lock, pywrap, separate
    from .borrowed_args import BorrowedArgsCompiler


def widen(t):
    """The argument type a call from jitted code compiles for (module docstring)."""
    if isinstance(t, types.BooleanLiteral):
        return types.boolean
    if isinstance(t, types.IntegerLiteral):
        t = t.literal_type
    if isinstance(t, types.Integer) and (t.signed or t.bitwidth < 64):
        return types.int64
    return t


class OneVersionDispatcher(CPUDispatcher):
    """A CPU dispatcher whose jitted callers share one version per widened signature (only made
    with the fast machinery: module docstring)."""

    _necro_is_separate = False

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(widen(a) for a in args), {k: widen(v) for k, v in kws.items()})

    def compile(self, sig):
        """numba's ``compile``, with the separate callees of a cached version loaded before it
        (:func:`necro_env.core.separate.load_deps`; a cached version whose callees do not match is
        compiled afresh), the project's code libraries and inliner (``separate.project_compile``)."""
        args, _ = sigutils.normalize_signature(sig)
        args = tuple(args)
        done = self.overloads.get(args)
        if done is not None:
            return done.entry_point
        # one process at a time (compile_lock)
        with global_compiler_lock, compile_lock.held(self), separate.project_compile(self.targetctx):
            if args in self.overloads:
                return self.overloads[args].entry_point
            deps = separate.load_deps(self, args)
            hits = sum(self._cache_hits.values())
            if deps is None:  # no usable cached version: compile (and cache) afresh
                self._cache.load_overload = _no_cached_version
            try:
                entry = super().compile(sig)
            finally:
                self._cache.__dict__.pop("load_overload", None)
            cres = self.overloads.get(args)
            if cres is not None:
                separate.adopt(self, args, cres, deps if sum(self._cache_hits.values()) > hits else None)
            return entry

    def add_overload(self, cres):
        """numba's ``add_overload``; a version without its CPython wrapper (``core.pywrap``) is
        kept for jitted callers but not offered to calls from Python until it has one."""
        if pywrap.has_wrapper(cres):
            super().add_overload(cres)
        else:
            self.overloads[tuple(cres.signature.args)] = cres

    def python_entry(self, sig):
        """The version for ``sig`` (compiled or loaded as ``compile`` does), callable from Python."""
        self.compile(sig)
        return pywrap.entry(self, tuple(sigutils.normalize_signature(sig)[0]))

    def _compile_for_args(self, *args, **kws):
        """numba's compile for a call from Python, returning a callable entry point."""
        got = super()._compile_for_args(*args, **kws)
        found = pywrap.args_of(self, got)
        return got if found is None else pywrap.entry(self, found)


def _no_cached_version(sig, target_context):
    return None


def njit(fn=None, *, cache_folder=None, **options):
    """``numba.njit(**options)`` with :class:`OneVersionDispatcher` (module docstring).
    ``inline="always"`` functions are expanded into their callers and never dispatched.
    ``separate``: compile the function separately (default: when its bytecode is large,
    :func:`necro_env.core.separate.is_separate`). ``cache_folder``: where ``cache=True`` caches it
    (default the engine's folder, a ruleset of ``_numba_cache.RULESET_GLOBS`` its own;
    ``_numba_cache.leaf_njit`` gives a leaf's). Without the fast
    machinery: plain ``numba.njit(**options)``, ``separate`` ignored."""
    sep = options.pop("separate", None)
    if FAST:
        options.setdefault("pipeline_class", BorrowedArgsCompiler)
        options.setdefault("no_cpython_wrapper", True)  # made on demand (core.pywrap)
        options.setdefault("no_cfunc_wrapper", True)  # the core takes no function addresses

    def deco(f):
        folder, opts = None, options
        if options.get("cache"):
            folder = _numba_cache.decoration_folder(
                cache_folder or _numba_cache.engine_cache_dir(_numba_cache.ruleset_of(f.__module__)))
            if folder is None and not FAST:  # no folder of its own: not numba's default, the fast path's
                opts = dict(options, cache=False)
        with _numba_cache.decorating_into(folder):  # numba fixes the cache folder here
            disp = numba.njit(**opts)(f)
        if numba.config.DISABLE_JIT or not FAST:  # plain numba (or, JIT disabled, the plain function)
            return disp
        disp.__class__ = OneVersionDispatcher
        disp._necro_is_separate = separate.is_separate(f, options) if sep is None else bool(sep)
        if options.get("cache"):
            disp._cache.save_overload = separate.save_with_deps(disp, disp._cache.save_overload)
        return disp

    return deco(fn) if fn is not None else deco
