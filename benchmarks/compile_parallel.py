"""The cold compile on several processes: what ``necro_env.warmup`` gives the start-up script.

    python -m benchmarks.compile_parallel [--jobs 2] [--no-serial] [--json]

numba compiles a process's functions one after the other. ``necro_env.warmup`` (which the first
game a process builds runs, and the training commands and the test suite first) shares a cold
compile between processes: each
takes the next unit of the shipped compile plan that nobody has claimed and whose callees are
compiled, and the compile lock (``necro_env.core.compile_lock``) lets each load what the others
wrote. This script times the start-up script of ``benchmarks.throughput`` (engine, batch kernel,
``BatchedEnv``: its "cold compile" row) on an empty cache:

1. *serial*: with ``NECRO_WARMUP_JOBS=1`` (no warm-up: numba compiles what the script uses, in
   one process; ``throughput``'s one-process row);
2. *warm-up*: with ``NECRO_WARMUP_JOBS=J`` for each J of ``--jobs`` (the plan also covers the AEC
   env's encoders, which the start-up script does not use, so the warm-up compiles more than the
   serial run; J = the usable CPUs is ``throughput``'s cold-compile row).

The figures are launch-to-first-steps in wall seconds and the processes' CPU seconds; the
machine's other load changes them.
"""
from __future__ import annotations

import argparse
import json

from benchmarks.throughput import start_time


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, nargs="+", default=[2], help="warm-up processes to time (each >= 1)")
    ap.add_argument("--no-serial", action="store_true", help="skip the start-up script without the warm-up")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if min(args.jobs) < 1:
        raise SystemExit(f"--jobs must be at least 1, got {args.jobs}")
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
