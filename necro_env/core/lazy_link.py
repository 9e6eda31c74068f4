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
Entries in numba's own two-part format load as numba loads them.

This is one layer of the code library the project's functions compile into
(:class:`LazyLinkLibrary`, below ``core.lazy_code``'s and ``core.separate``'s layers); numba's own
classes are not changed, so other numba code in the process is not affected (``core.jit``).
"""
from __future__ import annotations

from numba.core import codegen

_LAZY = "_necro_lazy_bitcode"  # library attribute: the shared module's bitcode, not parsed yet


def defined_symbols(module) -> list[str]:
    """The names numba's ``JitEngine._load_defined_symbols`` registers for *module*."""
    return sorted(gv.name for group in (module.functions, module.global_variables)
                  for gv in group if not gv.is_declaration)


class LazyLinkLibrary(codegen.JITCodeLibrary):
    """numba's JIT code library whose cache entries list their symbols (module docstring)."""

    def serialize_using_object_code(self):
        """numba's entry with the linking module's symbol names as a third part."""
        name, kind, (obj, bitcode) = super().serialize_using_object_code()
        return name, kind, (obj, bitcode, defined_symbols(self._get_module_for_linking()))

    @classmethod
    def _unserialize(cls, cg, state):
        name, kind, data = state
        if kind != "object" or len(data) not in (2, 3):
            raise ValueError(f"unsupported serialization kind {kind!r}")
        self = cls(cg, name)
        self.enable_object_caching()
        self._set_compiled_object(data[0])
        if len(data) == 2:  # numba's two-part entry: parsed at once, as numba does
            self._shared_module = codegen.ll.parse_bitcode(data[1])
            symbols = defined_symbols(self._shared_module)
        else:
            setattr(self, _LAZY, data[1])
            symbols = data[2]
        self._finalize_final_module()
        cg._engine._defined_symbols |= set(symbols)
        return self

    def _get_module_for_linking(self):
        bitcode = self.__dict__.pop(_LAZY, None)
        if bitcode is not None:
            self._shared_module = codegen.ll.parse_bitcode(bitcode)
        return super()._get_module_for_linking()
