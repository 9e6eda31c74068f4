"""The cold compile in two processes: how much of it the compile lock lets a second core take.

    python -m benchmarks.compile_parallel [--jobs 2] [--split 0.5] [--no-serial] [--json]

numba compiles a process's functions one after the other; since ``necro_env.core.compile_lock``
a second process may compile other functions of the same cold cache at the same time, and each
loads what the other wrote. This script measures what that gives for the start-up script of
``benchmarks.throughput`` (engine, batch kernel, ``BatchedEnv``: the "cold compile" row):

1. the *plan*: the start-up script is run once (with the user's cache, warm or not) with numba's
   dispatchers instrumented, recording the functions called from Python and the separately
   compiled ones (``core.separate``: the units a cached start loads, each with its own machine
   code), with their argument types, in the order they were finished (callees before callers);
2. *serial*: the start-up script on an empty ``NUMBA_CACHE_DIR`` (as ``throughput`` measures it);
3. *parallel*: the same, while ``--jobs - 1`` helper processes compile the plan from ``--split``
   of the way through it (helper k from k/jobs with more than two jobs): the main process starts
   with the first functions of the plan (the reset path), the helper with the later ones (the
   step path, the policies, the batch kernels), and each waits for a function the other is
   compiling and then loads it.

The figures are launch-to-first-steps of the main process (and the helpers' own times) in wall
seconds; the machine's other load changes them. This is a measurement: no command of the project
starts helpers by itself (docs/performance.md, "Compile time").
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.throughput import start_script, start_time

ROOT = Path(__file__).resolve().parents[1]

RECORD = r'''
import atexit, pickle
from necro_env.core import jit
_orig, _rows, _seen, _depth = jit.OneVersionDispatcher.compile, [], set(), [0]
def _compile(self, sig):
    top = _depth[0] == 0
    _depth[0] += 1
    try:
        out = _orig(self, sig)
    finally:
        _depth[0] -= 1
    key = (self.py_func.__module__, self.py_func.__qualname__, repr(sig))
    if (top or self._necro_is_separate) and key not in _seen:  # the units a cached start loads
        _seen.add(key)
        _rows.append((self.py_func.__module__, self.py_func.__qualname__, sig))
    return out
jit.OneVersionDispatcher.compile = _compile
atexit.register(lambda: pickle.dump(_rows, open({path!r}, "wb")))
'''

HELPER = r'''
import importlib, pickle, time
t0 = time.perf_counter()
rows = pickle.load(open({path!r}, "rb"))
n = 0
for module, qualname, sig in rows[{start}:]:
    f = importlib.import_module(module)
    for part in qualname.split("."):
        f = getattr(f, part)
    f.compile(sig)
    n += 1
print(round(time.perf_counter() - t0, 2), n, flush=True)
'''


def _env(cache_dir=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = str(cache_dir)
    return env


def record_plan(script: str, path: Path, cache_dir=None) -> int:
    """Run ``script`` with the dispatchers instrumented; writes the plan to ``path``, returns its length."""
    r = subprocess.run([sys.executable, "-c", RECORD.format(path=str(path)) + script], env=_env(cache_dir),
                       cwd=ROOT, capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise RuntimeError(f"recording the plan failed:\n{r.stderr[-2000:]}")
    import pickle

    return len(pickle.loads(path.read_bytes()))


def start_helper(plan: Path, start: int, cache_dir) -> subprocess.Popen:
    """A process compiling the plan's functions from index ``start`` on, into ``cache_dir``."""
    return subprocess.Popen([sys.executable, "-c", HELPER.format(path=str(plan), start=start)], env=_env(cache_dir),
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def helper_result(p: subprocess.Popen) -> dict:
    out, err = p.communicate()
    if p.returncode != 0:
        raise RuntimeError(f"helper failed:\n{err[-2000:]}")
    seconds, n = out.split()
    return {"seconds": float(seconds), "functions": int(n)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2, help="processes in all (the main one and jobs - 1 helpers)")
    ap.add_argument("--split", type=float, default=0.5, help="where in the plan the (first) helper starts")
    ap.add_argument("--no-serial", action="store_true", help="skip the one-process cold compile")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.jobs < 2 or not 0.0 < args.split < 1.0:
        raise SystemExit(f"--jobs must be >= 2 and --split in (0, 1), got {args.jobs}, {args.split}")
    script = start_script("numpy")
    out = {"jobs": args.jobs, "split": args.split}
    with tempfile.TemporaryDirectory() as tmp:
        plan = Path(tmp) / "plan.pkl"
        t0 = time.perf_counter()
        out["plan_functions"] = record_plan(script, plan)
        out["plan_seconds"] = round(time.perf_counter() - t0, 1)
        if not args.no_serial:
            out["serial"] = start_time(cold=True)
        cache = Path(tmp) / "cache"
        cache.mkdir()
        n = out["plan_functions"]
        starts = [int(n * args.split)] + [int(n * k / args.jobs) for k in range(2, args.jobs)]
        helpers = [start_helper(plan, s, cache) for s in starts]
        out["parallel"] = start_time(cold=True, cache_dir=cache)
        out["helpers"] = [dict(helper_result(h), start=s) for h, s in zip(helpers, starts)]
    if args.json:
        print(json.dumps(out))
        return out
    print(f"plan: {n} functions (recorded in {out['plan_seconds']} s)")
    if "serial" in out:
        s = out["serial"]
        print(f"cold compile, one process:   {s['seconds_to_ready']:7.1f} s to the first steps ({s['cpu_seconds']} s CPU)")
    p = out["parallel"]
    print(f"cold compile, {args.jobs} processes: {p['seconds_to_ready']:7.1f} s to the first steps "
          f"(main process {p['cpu_seconds']} s CPU)")
    for h in out["helpers"]:
        print(f"  helper from plan entry {h['start']}: {h['functions']} functions in {h['seconds']} s")
    return out


if __name__ == "__main__":
    main()
