"""A numba compiler whose functions borrow their arguments instead of reference-counting them.

numba gives every variable its own reference: a function's argument is increfed when it is
bound to its name and decrefed when the name dies. For a tuple of arrays that is one atomic
increment and one decrement per array (the State has 11, the Static 15), and numba's
reference-count pruning removes the pair only when both sit in one basic block. Any function
with a branch that reads the state after it therefore paid about 50 atomic operations per call:
``query.standing`` (two array reads joined by ``and``) cost 85-160 ns instead of under 1 ns, and
with two threads the counters of the shared arrays bounce between cores (docs/performance.md,
"Reference counts").

The caller keeps its arguments alive for the whole call, so the callee does not need references
of its own. :class:`BorrowedArgsLower` lowers a variable as *borrowed*, with no incref when it
is bound and no decref when it is overwritten or dies, when it is assigned exactly once and
from an argument (``ir.Arg``) or from another borrowed variable of the same type (an inlined
callee's parameters are such copies). Every use that lets a value escape (returning it, which
numba lowers as a ``cast``; putting it in a tuple or container; binding it to a variable that is
assigned more than once) takes its own reference as before, so only the argument's own
bookkeeping pair disappears.

:class:`InlinerCopy` makes numba's IR inlining (``inline="always"`` callees, expanded at every call
site) copy a callee's variable scope once per copy instead of once per block (its docstring); the
inlined IR is the same, its copying took half of the scripts' largest compile unit
(docs/performance.md, "Compile time"). ``core.separate.project_compile`` puts it in numba's
inliner while a project function compiles.
"""
from __future__ import annotations

import copy

from numba.core import ir, lowering
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.compiler_machinery import register_pass
from numba.core.typed_passes import NativeLowering


def borrowed_names(func_ir, typeof):
    """Names of the variables of ``func_ir`` that can borrow (module docstring)."""
    assigns = {}
    for blk in func_ir.blocks.values():
        for inst in blk.body:
            if isinstance(inst, ir.Assign):
                assigns.setdefault(inst.target.name, []).append(inst.value)
    once = {n: v[0] for n, v in assigns.items() if len(v) == 1}
    borrowed = set()
    changed = True
    while changed:
        changed = False
        for name, value in once.items():
            if name in borrowed:
                continue
            if isinstance(value, ir.Arg) or (isinstance(value, ir.Var) and value.name in borrowed
                                             and typeof(value.name) == typeof(name)):
                borrowed.add(name)
                changed = True
    return borrowed


class BorrowedArgsLower(lowering.Lower):
    """numba's lowering with borrowed argument variables (module docstring)."""

    _skip_incref = False
    _skip_decref = False

    def pre_lower(self):
        super().pre_lower()
        self._borrowed = borrowed_names(self.func_ir, self.typeof)

    def incref(self, typ, val):
        if not self._skip_incref:
            super().incref(typ, val)

    def decref(self, typ, val):
        if not self._skip_decref:
            super().decref(typ, val)

    def lower_assign(self, ty, inst):
        if isinstance(inst.value, (ir.Arg, ir.Var)) and inst.target.name in self._borrowed:
            self._skip_incref = True  # bound without a reference of its own
            try:
                return super().lower_assign(ty, inst)
            finally:
                self._skip_incref = False
        return super().lower_assign(ty, inst)

    def storevar(self, value, name, argidx=None):
        if name in self._borrowed:
            self._skip_decref = True  # the value it held (in a loop: last time round) was borrowed
            try:
                return super().storevar(value, name, argidx)
            finally:
                self._skip_decref = False
        return super().storevar(value, name, argidx)

    def delvar(self, name):
        if name in self._borrowed:
            self._skip_decref = True  # numba still zero-fills the slot
            try:
                return super().delvar(name)
            finally:
                self._skip_decref = False
        return super().delvar(name)


@register_pass(mutates_CFG=True, analysis_only=False)
class BorrowingNativeLowering(NativeLowering):
    _name = "borrowing_native_lowering"

    @property
    def lowering_class(self):
        return BorrowedArgsLower


class BorrowedArgsCompiler(CompilerBase):
    """numba's nopython pipeline with :class:`BorrowedArgsLower` as its lowering."""

    def define_pipelines(self):
        pm = DefaultPassBuilder.define_nopython_pipeline(self.state)
        pm.passes = [(BorrowingNativeLowering if p is NativeLowering else p, d) for p, d in pm.passes]
        return [pm]


class InlinerCopy:
    """The ``copy`` module as numba's inliner (``inline_closurecall.InlineWorker.inline_ir``) sees it
    while a project function compiles: ``deepcopy`` of an IR block reuses one copy of the block's
    scope for all the blocks of one IR copy.

    numba copies a callee's IR block by block, each ``copy.deepcopy(block)`` with a memo of its own,
    so every block copies the whole scope with every variable of the function: quadratic in the
    callee's size, and an expanded callee's size includes the helpers expanded into it. 72% of the
    scripts' ``heuristic_action`` compile went there (docs/performance.md). Here the scope is copied
    once and each block is copied with a memo that starts from that copy's, which gives what numba's
    copy gives (the same statements and variables, the blocks' variables those of the scope copy)
    but for one thing numba's inliner does not look at: the blocks share one scope object instead of
    equal copies (it renames the first block's scope's variables, then moves every block into the
    caller's scope). A new IR copy starts when a block of another scope, or a block already copied,
    comes (numba copies a callee's IR twice: the copy, then an untouched copy of the copy).
    """

    def __init__(self):
        self._entry = None  # (scope, its copy's memo, the blocks copied with it)

    def deepcopy(self, x, memo=None):
        if memo is not None or type(x) is not ir.Block:
            return copy.deepcopy(x, memo)
        entry = self._entry
        if entry is None or entry[0] is not x.scope or id(x) in entry[2]:
            memo0 = {}
            copy.deepcopy(x.scope, memo0)
            entry = self._entry = (x.scope, memo0, {})
        entry[2][id(x)] = x  # held, so that its id is not reused while the entry lives
        return copy.deepcopy(x, dict(entry[1]))

    def forget(self):
        """Drop the last scope copy (at the end of a compile)."""
        self._entry = None

    def __getattr__(self, name):  # anything else of the copy module
        return getattr(copy, name)
