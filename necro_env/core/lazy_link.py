"""Cached code loads without parsing its linking copy until a caller links it.

numba caches a compiled function as its machine code plus a second copy of its LLVM module as
bitcode (the "shared" module that a later caller links in and inlines). Loading a cache entry
parses that bitcode at once, only to read the names of the symbols it defines, although most
loaded functions are never linked again: every separate function (``core.separate``) is called
by symbol, and a process that finds the whole engine in its cache compiles nothing. At the
cached start of the batched env that parsing was 0.32 s of 1.6 s (85 cache entries;
docs/performance.md, "Compile time").

Here a cache entry also records the names of the symbols its shared module defines, so loading
registers them with numba's JIT engine (it maps a declared symbol that it does not know to an
abort stub) without parsing; the bitcode is parsed the first time a caller links the library.
Entries written before this (two-part data) load as numba loads them.
"""
from __future__ import annotations

from numba.core import codegen

_LAZY = "_necro_lazy_bitcode"  # library attribute: the shared module's bitcode, not parsed yet

_serialize = codegen.CPUCodeLibrary.serialize_using_object_code
_unserialize = codegen.CPUCodeLibrary._unserialize.__func__
_for_linking = codegen.CPUCodeLibrary._get_module_for_linking


def defined_symbols(module) -> list[str]:
    """The names numba's ``JitEngine._load_defined_symbols`` registers for *module*."""
    return sorted(gv.name for group in (module.functions, module.global_variables)
                  for gv in group if not gv.is_declaration)


def serialize(self):
    """``serialize_using_object_code`` with the linking module's symbol names (also what
    ``core.lazy_code`` writes for a library with machine code)."""
    name, kind, (obj, bitcode) = _serialize(self)
    return name, kind, (obj, bitcode, defined_symbols(self._get_module_for_linking()))


def unserialize(cls, cg, state):
    name, kind, data = state
    if kind != "object" or len(data) != 3:
        return _unserialize(cls, cg, state)
    obj, bitcode, symbols = data
    self = cg.create_library(name)
    self.enable_object_caching()
    self._set_compiled_object(obj)
    setattr(self, _LAZY, bitcode)
    self._finalize_final_module()
    engine = self._codegen._engine
    engine._defined_symbols |= set(symbols)
    return self


def _get_module_for_linking(self):
    bitcode = self.__dict__.pop(_LAZY, None)
    if bitcode is not None:
        self._shared_module = codegen.ll.parse_bitcode(bitcode)
    return _for_linking(self)


def install() -> None:
    """Patch numba's code library once (called when ``core.jit`` is imported)."""
    lib = codegen.CPUCodeLibrary
    if lib._get_module_for_linking is not _get_module_for_linking:
        lib.serialize_using_object_code = serialize
        lib._unserialize = classmethod(unserialize)
        lib._get_module_for_linking = _get_module_for_linking
