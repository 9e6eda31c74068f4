"""The cold compile on several processes: what ``necro_env.warmup`` gives the start-up script.

    python -m benchmarks.compile_parallel [--jobs 2] [--no-serial] [--json]
    python -m benchmarks.compile_parallel --units [--top 15]

numba compiles a process's functions one after the other. ``necro_env.warmup`` (which the first
game a process builds runs, and the training commands and the test suite first) shares a cold
compile between processes: each
takes the ready unit of the shipped compile plan with the longest chain of compile time behind it
that nobody has claimed, and the compile lock (``necro_env.core.compile_lock``) lets each load what
the others wrote. This script times the start-up script of ``benchmarks.throughput`` (engine, batch
kernel, ``BatchedEnv``: its "cold compile" row) on an empty cache:

1. *serial*: with ``NECRO_WARMUP_JOBS=1`` (no warm-up: numba compiles what the script uses, in
   one process; ``throughput``'s one-process row);
2. *warm-up*: with ``NECRO_WARMUP_JOBS=J`` for each J of ``--jobs`` (the plan also covers the AEC
   env's encoders, which the start-up script does not use, so the warm-up compiles more than the
   serial run; J = the usable CPUs is ``throughput``'s cold-compile row).

The figures are launch-to-first-steps in wall seconds and the processes' CPU seconds; the
machine's other load changes them (the CPU seconds less than the wall).

``--units`` is the view that finds where the time goes: one process compiles the whole plan on an
empty cache, unit by unit in the plan's order, and the units are listed by their own compile CPU
seconds (a unit's time includes the linked helpers it is the first to need), with the sum.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

from benchmarks.throughput import start_time

_UNITS = r"""
import json, os, time
os.environ["NECRO_WARMUP_JOBS"] = "1"
from necro_env import warmup
rows = []
for disp, args, deps, python in warmup.resolve(warmup.read_plan()):
    c0 = time.process_time()
    disp.python_entry(args) if python else disp.compile(args)
    rows.append([f"{disp.py_func.__module__}.{disp.py_func.__qualname__}", round(time.process_time() - c0, 2)])
print(json.dumps(rows))
"""


def unit_times() -> list[tuple[str, float]]:
    """(unit, CPU seconds) of the whole plan compiled in one process on an empty cache, in plan order."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=tmp, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
        r = subprocess.run([sys.executable, "-c", _UNITS], env=env, cwd=root, capture_output=True, text=True,
                           check=False)
    if r.returncode != 0:
        raise RuntimeError(f"compiling the plan failed:\n{r.stderr[-2000:]}")
    return [tuple(x) for x in json.loads(r.stdout.strip().splitlines()[-1])]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, nargs="+", default=[2], help="warm-up processes to time (each >= 1)")
    ap.add_argument("--no-serial", action="store_true", help="skip the start-up script without the warm-up")
    ap.add_argument("--units", action="store_true", help="only the compile CPU seconds of each unit, one process")
    ap.add_argument("--top", type=int, default=15, help="with --units: how many units to list (>= 1)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if min(args.jobs) < 1:
        raise SystemExit(f"--jobs must be at least 1, got {args.jobs}")
    if args.top < 1:
        raise SystemExit(f"--top must be at least 1, got {args.top}")
    if args.units:
        rows = unit_times()
        if args.json:
            print(json.dumps(rows))
            return rows
        print(f"the plan compiled in one process: {sum(s for _, s in rows):.1f} s CPU over {len(rows)} units")
        for name, s in sorted(rows, key=lambda r: -r[1])[:args.top]:
            print(f"{s:7.2f} s  {name}")
        return rows
    out = {"serial": None if args.no_serial else start_time(cold=True, warmup_jobs=1), "warmup": {}}
    for j in args.jobs:
        out["warmup"][j] = start_time(cold=True, warmup_jobs=j)
    if args.json:
        print(json.dumps(out))
        return out
    s = out["serial"]
    if s is not None:
        print(f"cold compile, one process (no warm-up):     {s['seconds_to_ready']:7.1f} s to the first steps "
              f"({s['cpu_seconds']} s CPU)")
    for j, w in out["warmup"].items():
        print(f"cold compile, necro_env.warmup on {j} process{'es' if j > 1 else '  '}: {w['seconds_to_ready']:7.1f} s "
              f"to the first steps ({w['cpu_seconds']} s CPU)")
    return out


if __name__ == "__main__":
    main()
