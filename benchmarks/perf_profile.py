"""Where the batched core's CPU time goes, per compiled function, with Linux ``perf``.

    perf record -o perf.data python -m benchmarks.perf_profile [--seconds 8] [--batch 256] [--threads 1]
    perf report -i perf.data --no-children --sort sym

plays random legal games on ``BatchedGames`` for ``--seconds`` and, before it exits, writes
``/tmp/perf-<pid>.map``: the address, size and symbol of every function numba has compiled or
loaded in this process (``perf_map``). ``perf`` reads that file to name samples in JIT code,
which it otherwise shows as bare addresses (numba registers no symbols with it). Sizes are the
gaps between consecutive symbols, so a sample in a function's padding counts for it.
docs/performance.md ("Where the time goes") has what this found on 2026-11-26.
"""
from __future__ import annotations

import argparse
import gc
import os
import time


def compiled_symbols() -> dict[int, str]:
    """{address: symbol} of every function defined by the code libraries of this process's
    numba dispatchers (their entry points and the helpers linked into them)."""
    from numba.core.dispatcher import Dispatcher

    libraries = {}
    for obj in gc.get_objects():
        try:
            is_dispatcher = isinstance(obj, Dispatcher)
        except Exception:  # objects whose __class__ lookup fails
            continue
        if is_dispatcher:
            for cres in obj.overloads.values():
                lib = getattr(cres, "library", None)
                if lib is not None:
                    libraries[id(lib)] = lib
    symbols = {}
    for lib in libraries.values():
        module = lib._get_module_for_linking()
        engine = lib._codegen._engine
        for fn in module.functions:
            # a helper only linked into its callers has no machine code of its own
            # (core.lazy_code): its symbol is in the engine only through a caller's copy, if at all
            if fn.is_declaration or not engine.is_symbol_defined(fn.name):
                continue
            address = engine.get_function_address(fn.name)
            if address:
                symbols[address] = fn.name
    return symbols


def perf_map(path: str | None = None, max_size: int = 1 << 20) -> str:
    """Write ``compiled_symbols()`` in perf's map format ("START SIZE NAME", hex) to ``path``
    (default ``/tmp/perf-<pid>.map``, where ``perf report`` looks); returns the path."""
    path = path or f"/tmp/perf-{os.getpid()}.map"
    symbols = compiled_symbols()
    addresses = sorted(symbols)
    with open(path, "w") as fh:
        for i, a in enumerate(addresses):
            size = min(addresses[i + 1] - a, max_size) if i + 1 < len(addresses) else max_size
            fh.write(f"{a:x} {size:x} {symbols[a]}\n")
    return path


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=8.0, help="how long to play (default 8)")
    ap.add_argument("--batch", type=int, default=256, help="games in the batch (default 256)")
    ap.add_argument("--threads", type=int, default=1, help="numba threads (default 1)")
    args = ap.parse_args(argv)
    import numba

    from necro_env.batch import BatchedGames
    from necro_env.envs.necromunda_env import build_game

    numba.set_num_threads(args.threads)
    core = BatchedGames(build_game(), args.batch, seed=0).reset()
    core.play(50)  # compile or load, and leave the openings
    t0 = time.perf_counter()
    decisions = 0
    while time.perf_counter() - t0 < args.seconds:
        decisions += int(core.play(20)[:, 0].sum())
    dt = time.perf_counter() - t0
    path = perf_map()
    print(f"{decisions:,} decisions in {dt:.1f} s ({decisions / dt:,.0f}/s, B={args.batch}, "
          f"{args.threads} thread(s)); symbols for perf in {path}")


if __name__ == "__main__":
    main()
