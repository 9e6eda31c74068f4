"""core.borrowed_args: functions compiled by the project's ``njit`` borrow their arguments.

- the reference counts of the arrays passed in are the same after many calls of functions that
  branch, loop, inline a callee, return an argument, put it in a tuple and rebind a name (a
  missing incref would free an array still in use, a missing decref would leak it);
- the engine's small queries carry no incref of their arguments in their machine code (the
  point of the change: docs/performance.md, "Reference counts").
"""
import os
import sys
from collections import namedtuple

import numba
import numpy as np
import pytest

from necro_env.core.borrowed_args import borrowed_names
from necro_env.core.jit import njit

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiled code only")

S = namedtuple("S", "a b")


@njit(inline="always")
def _first_positive(s, i):
    if s.a[i] > 0:
        return s.a
    return s.b


@njit
def _pick(s, i):
    return _first_positive(s, i)  # an inlined callee returning an argument's array


@njit
def _work(s, n):
    tot = 0
    for i in range(n):
        x = _pick(s, i % s.a.shape[0])  # a returned array, owned by x
        if x[0] > 0 and s.b[0] >= 0:
            tot += x[0]
        t = (s.a, i)  # a tuple holding an argument's array
        tot += t[0][0]
    y = s.a
    if n > 3:
        y = s.b  # a name bound twice is not borrowed
    return tot + y[0], s.b  # returns an argument's array


def _refcounts(s):
    return sys.getrefcount(s.a), sys.getrefcount(s.b)


def test_argument_reference_counts_are_unchanged():
    s = S(np.array([1, -2, 3], np.int64), np.array([5, 6], np.int64))
    _work(s, 2)  # compile
    before = _refcounts(s)
    for n in range(200):
        tot, b = _work(s, n)
        assert b is not None and b[0] == 5
        del b
    assert _refcounts(s) == before
    assert _work(s, 5)[0] == _work.py_func(s, 5)[0]


def test_borrowed_names_are_the_single_assignments_from_arguments():
    func_ir = numba.core.compiler.run_frontend(_work.py_func)  # untyped: every type compares equal
    names = borrowed_names(func_ir, lambda name: None)
    assert {"s", "n"} <= names
    assert "y" not in names  # bound twice
    assert "x" not in names  # bound to a call's result
    assert "t" not in names  # bound to a new tuple


def _incref_calls(dispatcher, *args):
    dispatcher(*args)
    llvm = next(iter(dispatcher.inspect_llvm().values()))
    start = llvm.index("define")
    return llvm[start:llvm.index("\n}\n", start)].count("call void @NRT_incref")  # the function, not its wrapper


def test_engine_queries_do_not_reference_count_their_arguments():
    """A fresh compile of ``query.is_engaged`` (cached code cannot be inspected): no incref with
    the project's njit; numba's own njit increfs every array of the state."""
    from necro_env.envs.necromunda_env import build_game
    from necro_env.rulesets.necromunda.query import is_engaged

    game = build_game()
    game.reset(0)
    args = (game.state, 0, 0)
    assert _incref_calls(njit(is_engaged.py_func), *args) == 0
    assert _incref_calls(numba.njit(is_engaged.py_func), *args) >= len(game.state)  # each array at least once
