"""Experiment: the cold compile with machine code made only for the functions called from Python.

    python -m benchmarks.compile_lazy [--keep DIR]

numba finalises the library of every function it compiles: it links in the libraries of the
callees, runs LLVM's module passes over the result and makes machine code for all of it, also
for functions that only other jitted functions call and that are therefore linked, as IR, into
their callers' libraries anyway (docs/performance.md, "Compile time"). This script measures what
would change if those callee-only libraries stopped after linking, leaving the module passes
and the machine code to the functions called from Python (``engine.step``, the batch kernel, ...)
that link them.

It runs the start-up work (``build_game``, ``reset``, one ``step``; then a ``BatchedGames`` of 64
games and its compiled random play) twice in fresh subprocesses with empty ``NUMBA_CACHE_DIR``
folders: once as numba does it (``eager``) and once with the change made by monkeypatching numba
inside the subprocess (``lazy``; nothing of the package is changed). Each prints the CPU seconds
of the engine's and the batch kernel's compiles, the single-thread decisions per second of
random play at B=64 (best of 5 runs of 1,000 decisions per game) and a hash of the games'
states after scripted and compiled play, which must be equal in both.

What the patch leaves out (so it is a measurement, not a mechanism the package could use as it
is): functions compiled for jitted callers get a placeholder entry point that must never be
called from Python (the start-up script does not), and they are not written to the cache (numba
caches object code), so a later process that compiles a new jitted caller re-types them.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

_CHILD = r'''
import sys, time, hashlib
import numpy as np
LAZY = sys.argv[1] == "lazy"
if LAZY:
    import numba.core.codegen as cg
    from numba.core import caching, cpu, dispatcher
    from numba.core.compiler_lock import require_global_compiler_lock
    from numba._dynfunc import make_function
    from necro_env.core import borrowed_args, jit

    request, stack = [False], []
    get_call_template = jit.OneVersionDispatcher.get_call_template

    def for_jitted_caller(self, args, kws):  # the compile this triggers is for a jitted caller
        request[0] = True
        try:
            return get_call_template(self, args, kws)
        finally:
            request[0] = False

    jit.OneVersionDispatcher.get_call_template = for_jitted_caller
    compile_ = dispatcher.Dispatcher.compile

    def compile_marked(self, sig):
        stack.append(request[0])
        request[0] = False
        try:
            return compile_(self, sig)
        finally:
            stack.pop()

    dispatcher.Dispatcher.compile = compile_marked
    run_pass = borrowed_args.BorrowingNativeLowering.run_pass

    def lowering(self, state):
        if stack and stack[-1]:
            if state.library is None:
                state.library = state.targetctx.codegen().create_library(state.func_id.func_qualname)
                state.library.enable_object_caching()
            state.library.callee_only = True
        return run_pass(self, state)

    borrowed_args.BorrowingNativeLowering.run_pass = lowering
    get_executable = cpu.CPUContext.get_executable

    def executable(self, library, fndesc, env):
        if getattr(library, "callee_only", False):  # placeholder: no machine code, never called
            return make_function(fndesc.lookup_module(), fndesc.qualname.split(".")[-1], "", 0, env, (library,))
        return get_executable(self, library, fndesc, env)

    cpu.CPUContext.get_executable = executable
    finalize = cg.CPUCodeLibrary.finalize

    def link_only(self):
        if not getattr(self, "callee_only", False):
            return finalize(self)
        require_global_compiler_lock()
        self._raise_if_finalized()
        seen = set()
        for lib in self._linking_libraries:
            if lib not in seen:
                self._reload_init.update(lib._reload_init)
                seen.add(lib)
                self._final_module.link_in(lib._get_module_for_linking(), preserve=True)
        self._finalized = True

    cg.CPUCodeLibrary.finalize = link_only
    save_overload = caching.Cache.save_overload

    def save(self, sig, data):
        if not getattr(getattr(data, "library", None), "callee_only", False):
            return save_overload(self, sig, data)

    caching.Cache.save_overload = save

import numba
from necro_env.envs.necromunda_env import build_game
t0 = time.process_time()
g = build_game(); g.reset(0); g.step(int(g.legal_actions()[0]))
t1 = time.process_time()
from necro_env.batch import BatchedGames
bg = BatchedGames(g, 64, seed=7).reset(); bg.play(4)
t2 = time.process_time()
numba.set_num_threads(1)
best = 0.0
for _ in range(5):
    bg.reset(); t = time.perf_counter(); bg.play(1000); best = max(best, 64000 / (time.perf_counter() - t))
h = hashlib.sha1()
for _ in range(30):
    legal = g.legal_actions(); g.step(int(legal[len(legal) // 2]))
bg = BatchedGames(g, 64, seed=7).reset()
for policy in ("random", "gunline", "aggressor"):
    bg.play(700, policy)
    for name in ("g", "fi", "wp", "gang", "rng"):
        h.update(np.ascontiguousarray(getattr(bg.state, name)).tobytes())
h.update(bg.mask.tobytes()); h.update(g.state.g.tobytes()); h.update(g.state.fi.tobytes())
print(f"{sys.argv[1]}: engine {t1 - t0:.1f} s CPU, batch kernel {t2 - t1:.1f} s CPU, "
      f"in all {t2 - t0:.1f} s; random play {best:,.0f} decisions/s (1 thread, B=64); games {h.hexdigest()[:16]}",
      flush=True)
'''


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", help="keep the two numba caches in DIR/eager and DIR/lazy (default: temporary)")
    args = ap.parse_args(argv)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        base = args.keep or tmp
        for mode in ("eager", "lazy"):
            cache = os.path.join(base, mode)
            os.makedirs(cache, exist_ok=True)
            if os.listdir(cache):
                raise SystemExit(f"--keep {args.keep}: {cache} is not empty (a cold compile needs an empty cache)")
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
            r = subprocess.run([sys.executable, "-c", _CHILD, mode], env=env, cwd=root, text=True,
                               capture_output=True, check=False)
            if r.returncode != 0:
                raise SystemExit(f"{mode} run failed:\n{r.stderr[-3000:]}")
            print(r.stdout.strip().splitlines()[-1], flush=True)


if __name__ == "__main__":
    main()
