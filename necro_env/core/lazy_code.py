"""Machine code on demand: a compiled library becomes machine code when something needs its address.

numba finalizes every library it compiles the same way: link in the callees' modules, optimise,
then add the module to the JIT engine and turn it into machine code. Most of the rules core's
libraries never run as themselves, though. A small helper is linked (as LLVM IR) into each of its
callers and runs only as part of their code; numba's own internal helpers (array constructors,
range loops, ...) likewise; only the functions Python calls, the separately compiled ones
(``core.separate``, called by symbol) and the wrappers around them ever execute. Making machine
code only for those took the warm-up plan's compile from 116.6 to 101.4 s of CPU
(docs/performance.md, "Compile time").

Here a library that is finalized because a caller links it (``core.separate``'s hook on
``add_linking_library``), or because numba asks for the address of its CPython wrapper and the
library has none (``core.pywrap``: the rules core's functions are compiled without), is
finalized without that last step and marked *pending* (:func:`finalize_without_code`). Its
machine code is made (:func:`ensure`) when something asks for it:

- ``get_pointer_to_function`` for a symbol the library defines (numba's entry points, the
  wrappers of ``core.pywrap``, ufunc and parallel kernels, ``cfunc``);
- ``core.separate``, when a caller is to call the library by symbol, and before a separate
  function's cache entry is written;
- ``core.pywrap``, before a wrapper that calls the function is built or loaded;
- serialising its object code (``_get_compiled_object``).

Libraries finalized explicitly (numba's runtime, whose functions compiled code calls by symbol;
gufunc wrappers) get their machine code at once, as before.

This is the middle layer of the code library the project's functions compile into
(:class:`LazyCodeLibrary`, on ``core.lazy_link``'s and under ``core.separate``'s); numba's own
classes are not changed, so other numba code in the process keeps numba's behaviour (``core.jit``).

numba sets each function's environment pointer (``set_env``) right after compiling or loading
it, and a cached caller's pointers to the environments of the callees linked into it; for a
pending library those globals are not in the engine yet, so the environment is kept (numba sets
them through ``library.codegen``, which for these libraries is :class:`_EnvKeeper`) and
:func:`ensure` sets every ``NumbaEnv`` global of the module once it is loaded.

Caching. A pending library is cached without machine code: the entry (kind :data:`KIND`) holds
the module's bitcode, in the form callers link (``_get_module_for_linking``: exported functions
``linkonce_odr``), and the names of the symbols it defines; loading it parses nothing
(``core.lazy_link``'s lazy bitcode). When such a library's machine code is needed after all, it
is made from that bitcode; ``core.pywrap`` then writes the function's cache entry again, with its
machine code, so that the next process loads it.
"""
from __future__ import annotations

import weakref

from numba.core import codegen
from numba.core.environment import lookup_environment

from . import lazy_link

KIND = "necro-ir"  # cache kind of a library cached without machine code: (bitcode, defined symbols)

_PENDING = "_necro_code_pending"  # library attribute: finalized, not in the JIT engine yet
_SYMBOLS = "_necro_symbols"  # library attribute of one loaded from a KIND entry: the symbols it defines
_DEFER = "_necro_defer"  # set by finalize_without_code for the _finalize_final_module it calls
_ENV_PREFIX = "_ZN08NumbaEnv"
_HELD_ENVS: dict = {}  # {env name: environment} numba asked to set before the code defining it was made
_set_env = codegen.JITCPUCodegen.set_env


def pending(library) -> bool:
    """Whether ``library`` is finalized but has no machine code yet."""
    return library.__dict__.get(_PENDING, False)


def ensure(library) -> bool:
    """Make ``library``'s machine code (finalizing it first if needed); True if it was made now."""
    library._ensure_finalized()
    if not library.__dict__.pop(_PENDING, False):
        return False
    if _SYMBOLS in library.__dict__:  # loaded from a KIND entry: the engine takes a copy of its IR
        del library.__dict__[_SYMBOLS]
        library._final_module = library._get_module_for_linking().clone()
        library.enable_object_caching()  # its object code is then cached by core.pywrap
    module = library._final_module
    module._CPUCodeLibrary__library = weakref.proxy(library)  # numba's object-cache hooks find it
    cleanup = library._codegen._add_module(module)
    if cleanup:
        weakref.finalize(library, cleanup)
    library._finalize_specific()
    for gv in module.global_variables:  # the environments numba could not set before (module docstring)
        if gv.name.startswith(_ENV_PREFIX) and not gv.is_declaration:
            env = _HELD_ENVS.get(gv.name)
            if env is None:
                env = lookup_environment(gv.name)
            if env is not None:
                _set_env(library._codegen, gv.name, env)
    return True


def finalize_without_code(library) -> None:
    """Finalize ``library`` unless it is, leaving its machine code to :func:`ensure` (a library of
    another class, made outside the project's compiles, is finalized as numba does)."""
    if not library._finalized:
        if not isinstance(library, LazyCodeLibrary):
            library.finalize()
            return
        library.__dict__[_DEFER] = True
        try:
            library.finalize()
        finally:
            library.__dict__.pop(_DEFER, None)


class _EnvKeeper:
    """``library.codegen`` of a :class:`LazyCodeLibrary`: numba's codegen, whose ``set_env`` keeps
    the environment of a global that is not in the JIT engine yet (module docstring)."""

    __slots__ = ("_cg",)

    def __init__(self, cg):
        self._cg = cg

    def __getattr__(self, name):
        return getattr(self._cg, name)

    def set_env(self, env_name, env):
        if self._cg._engine.is_symbol_defined(env_name):
            _set_env(self._cg, env_name, env)
        else:  # numba's registry of environments holds them weakly: kept here until ensure sets it
            _HELD_ENVS[env_name] = env


class LazyCodeLibrary(lazy_link.LazyLinkLibrary):
    """numba's JIT code library that makes machine code only when it is asked for (module docstring)."""

    @property
    def codegen(self):
        return _EnvKeeper(self._codegen)

    def _finalize_final_module(self):
        if not self.__dict__.pop(_DEFER, False):  # loading cached machine code, or finalized explicitly
            return super()._finalize_final_module()
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        self._finalized = True
        self.__dict__[_PENDING] = True

    def _defines(self, name) -> bool:
        symbols = self.__dict__.get(_SYMBOLS)
        if symbols is not None:
            return name in symbols
        try:
            return not self._final_module.get_function(name).is_declaration
        except NameError:
            return False

    def get_pointer_to_function(self, name):
        """numba's, making the machine code only for a symbol the library defines (module docstring)."""
        if not self._defines(name):
            finalize_without_code(self)
            return 0 if pending(self) else super().get_pointer_to_function(name)
        ensure(self)
        return super().get_pointer_to_function(name)

    def _get_compiled_object(self):
        ensure(self)
        return super()._get_compiled_object()

    def serialize_using_object_code(self):
        """A pending library's cache entry is its linking bitcode (module docstring)."""
        if not pending(self):
            return super().serialize_using_object_code()
        symbols = self.__dict__.get(_SYMBOLS)
        module = self._get_module_for_linking()
        if symbols is None:
            symbols = lazy_link.defined_symbols(module)
        return self.name, KIND, (module.as_bitcode(), symbols)

    @classmethod
    def _unserialize(cls, cg, state):
        name, kind, data = state
        if kind != KIND:
            return super()._unserialize(cg, state)
        bitcode, symbols = data
        self = cls(cg, name)
        setattr(self, lazy_link._LAZY, bitcode)  # parsed when a caller links it or its code is made
        self.__dict__[_SYMBOLS] = frozenset(symbols)
        self._finalized = True
        self.__dict__[_PENDING] = True
        return self
