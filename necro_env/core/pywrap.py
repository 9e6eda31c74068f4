"""Python wrappers on demand: a jitted function gets its CPython entry point when Python calls it.

numba compiles two wrappers around every jitted function besides its own code: a CPython
wrapper (unbox the arguments, call, box the result; what a call from Python runs) and a C
wrapper (for first-class function values and ``cfunc`` addresses). Most of the rules core's 166
functions are only ever called by other jitted functions, and their arguments are the game's
``State`` and ``Static`` tuples of 26 arrays, whose unboxing is a long stretch of code: compiling
the warm-up plan without both wrappers took 117 s of CPU instead of 175 s (docs/performance.md,
"Compile time").

``core.jit.njit`` therefore compiles every function with ``no_cpython_wrapper`` and
``no_cfunc_wrapper`` (the core takes no function addresses). numba still makes an entry-point
object for such a version, but with no machine code behind it, so
:class:`~necro_env.core.jit.OneVersionDispatcher` does not register it for calls from Python.
When Python calls a version (``_compile_for_args``, ``core.fastcall.Pinned``, the warm-up's
Python-called units), :func:`entry` compiles the CPython wrapper on its own, as a small library
that declares the function's symbol and calls it (the way a separate callee is called,
``core.separate``), registers it with the dispatcher and returns it.

Caching. The wrapper's machine code is kept in a sidecar file next to the function's cache index
(``<index>.pyw``: for each signature, the entry's format, the symbol of the version it wraps, the constants the
wrapper added to the version's environment, e.g. the dtypes it boxes arrays with, and the
wrapper's library), so a process that loads the function from the cache loads its wrapper too instead of
compiling it again. An entry whose symbol is not the loaded version's (the function was compiled
afresh since) is not used; the wrapper is compiled again and the entry replaced. Versions cached
before this module existed carry their own wrapper and are used as they are.
"""
from __future__ import annotations

from numba.core.compiler_lock import global_compiler_lock

from . import compile_lock, lazy_code, separate

_ENTRIES = "_necro_py_entries"  # dispatcher attribute: {args: the CPython entry point}
FORMAT = 1  # of a sidecar entry; raise it when the wrappers are built differently (old entries are rebuilt)


def has_wrapper(cres) -> bool:
    """Whether the machine code of ``cres``'s CPython wrapper is loaded (its entry point callable)."""
    engine = cres.library.codegen._engine
    return engine.is_symbol_defined(cres.fndesc.llvm_cpython_wrapper_name)


def _sidecar_path(disp) -> str | None:
    return compile_lock.sidecar_path(disp, ".pyw")


def _load(disp, args, cres):
    """The cached wrapper library of ``cres``, or None."""
    path = _sidecar_path(disp)
    if path is None:
        return None
    got = compile_lock.read_sidecar(path).get(args)
    if not (isinstance(got, tuple) and len(got) == 5 and got[:2] == (FORMAT, cres.fndesc.mangled_name)):
        return None
    _, _, n_consts, consts, state = got
    env = cres.environment
    if len(env.consts) != n_consts:
        return None
    try:
        lib = cres.target_context.codegen().unserialize_library(state)
    except Exception:  # noqa: BLE001 - a damaged entry: compile the wrapper again
        return None
    env.consts.extend(consts)
    return lib


def _build(disp, args, cres):
    """Compile ``cres``'s CPython wrapper into a library of its own and cache it."""
    # the context numba's lowering gives a wrapper: this version's environment (where the wrapper
    # keeps its constants) and NRT on (it boxes returned arrays; a version loaded from the cache
    # comes with the dispatcher's base context, which has it off)
    env = cres.environment
    ctx = cres.target_context.subtarget(environment=env, fndesc=cres.fndesc, enable_nrt=True)
    lib = ctx.codegen().create_library(f"{cres.fndesc.qualname}.py_wrapper")
    lib.enable_object_caching()
    n_consts = len(env.consts)  # the wrapper adds the constants it boxes with (dtypes) to the environment
    ctx.create_cpython_wrapper(lib, cres.fndesc, env, None, release_gil=bool(disp.targetoptions.get("nogil")))
    lib.finalize()
    path = _sidecar_path(disp)
    if path is not None:
        try:
            compile_lock.write_sidecar(path, args, (FORMAT, cres.fndesc.mangled_name, n_consts,
                                                    list(env.consts[n_consts:]), lib.serialize_using_object_code()))
        except OSError:
            pass  # a read-only cache: the wrapper is compiled again by the next process
    return lib


def entry(disp, args):
    """The CPython entry point of ``disp``'s version for ``args`` (compiled or loaded first if
    needed), registered with the dispatcher so that later calls from Python dispatch to it."""
    entries = disp.__dict__.setdefault(_ENTRIES, {})
    got = entries.get(args)
    if got is not None:
        return got
    cres = disp.overloads[args]
    if has_wrapper(cres):  # compiled with its wrapper (a version cached before this module)
        return cres.entry_point
    with global_compiler_lock, compile_lock.held(disp), separate.project_compile(cres.target_context):
        got = entries.get(args)  # made by another thread meanwhile
        if got is not None:
            return got
        if lazy_code.ensure(cres.library):
            # the wrapper calls the function by symbol: its machine code was made now, so its
            # cache entry had none (core.lazy_code); write it again, with the machine code
            disp._cache.save_overload(args, cres)
        lib = _load(disp, args, cres) or _build(disp, args, cres)
        cfunc = cres.target_context.get_executable(lib, cres.fndesc, cres.environment)
        disp._insert([a._code for a in args], cfunc, cres.objectmode)
        entries[args] = cfunc
    return cfunc


def args_of(disp, entry_point):
    """The signature whose version has ``entry_point`` (what ``compile`` returned), or None."""
    for args, cres in disp.overloads.items():
        if cres.entry_point is entry_point:
            return args
    return None
