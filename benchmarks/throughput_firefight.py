"""Throughput of Firefight's batched core against PettingZoo's connect_four_v3, measured in one run (2026-12-02).

    python -m benchmarks.throughput --game firefight [--quick] [--no-cold] [--json]
    python -m benchmarks.throughput_firefight [same options]

Prints, with the load average (the machine may be shared):

- connect_four_v3: AEC steps per second of random legal play (benchmarks/aec_speed.py's loop);
- the batched core (necro_env/rulesets/firefight/batch.py): decisions per second of random legal play with exact
  masks and auto-reset inside the kernel, on the default board (ruined_city, 48x48), at several batch sizes on 1 and
  2 numba threads, and each rate divided by connect_four's (the issue's target: at least 12x at the best batch size
  on 2 cores);
- firefight_v0's AEC env (random legal play, entity observations) when that module exists;
- state bytes per game (the State rows and the mask row) and the static memory of one board (Static: terrain
  flags, heights, zones, Scout band and core/sight's cells) at 48x48 and 72x48, with the movement scratch per thread;
- cold compile of the Firefight engine and batch kernels (a subprocess with an empty NUMBA_CACHE_DIR) and the
  cached start (the same subprocess with the warm cache). Targets are printed, never asserted.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

TARGETS = {"core_vs_c4": 12.0, "aec_vs_c4": 1.0, "cold_s": 60.0, "cached_s": 3.0, "state_kb": 32.0}

_START = """
import time
t0 = time.time()
from necro_env import rulesets
rs = rulesets.get("firefight")
g = rs.config_from_json({}).build().reset(seed=0)
for _ in range(20):
    g.step(int(g.legal_actions()[0]))
rs.feature("batched")().BatchedFirefight(rs.config_from_json({}), batch_size=2, seed=0).play(20)
print(time.time() - t0)
"""


def _firefight():
    """Firefight's ruleset and its batched-core module, through the registry (DESIGN.md §11)."""
    from necro_env import rulesets

    rs = rulesets.get("firefight")
    return rs, rs.feature("batched")()


def _load():
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def bench_connect_four(steps, seed=0):
    from benchmarks.aec_speed import _connect_four, _play

    env = _connect_four().env()
    _play(env, 1, np.random.default_rng(seed), seed)
    dt, n, games, _ = _play(env, steps, np.random.default_rng(seed), seed)
    return {"steps": n, "seconds": round(dt, 3), "steps_per_second": round(n / dt, 1)}


def bench_firefight_aec(steps, seed=0):
    """firefight_v0's AEC env, if it exists (another task writes it)."""
    try:
        from necro_env import firefight_v0
    except ImportError:
        return None
    from benchmarks.aec_speed import _play

    env = firefight_v0.env()
    _play(env, 1, np.random.default_rng(seed), seed)
    dt, n, games, _ = _play(env, steps, np.random.default_rng(seed), seed)
    return {"steps": n, "seconds": round(dt, 3), "steps_per_second": round(n / dt, 1)}


def bench_core(batch_sizes, threads, min_decisions):
    import numba

    rs, bm = _firefight()
    out = []
    for t in threads:
        numba.set_num_threads(t)
        for bs in batch_sizes:
            bg = bm.BatchedFirefight(rs.config_from_json({}), batch_size=bs, seed=0, threads=t)
            bg.play(150)  # untimed: the games spread over every phase, as a long run sees them
            per_slot = max(50, min_decisions // bs)
            d0, g0 = bg.decisions, int(bg.results[:, 0].sum())
            t0 = time.perf_counter()
            bg.play(per_slot)
            dt = time.perf_counter() - t0
            n = bg.decisions - d0
            out.append({"batch": bs, "threads": t, "decisions": n, "seconds": round(dt, 3),
                        "decisions_per_second": round(n / dt, 1), "games_finished": int(bg.results[:, 0].sum()) - g0})
    numba.set_num_threads(max(threads))
    return out


def static_bytes(h, w):
    """Bytes of one board's Static (game.build_static's arrays for an H x W board) and of a thread's scratch."""
    from necro_env.core.sight import make_cells, make_rules

    new_scratch = _firefight()[1].new_scratch
    zeros = np.zeros((h, w), np.int64)
    parts = {"flags": h * w, "height": h * w, "zone": h * w, "band": h * w, "steps": 3 * h * w,
             "sight_cells": make_cells(zeros, zeros).nbytes, "sight_rules": make_rules("permissive").nbytes}
    scratch = sum(a.nbytes for a in new_scratch(h * w, 10, 10))
    return {"board": f"{w}x{h}", "static_bytes": sum(parts.values()), "parts": parts,
            "scratch_bytes_per_thread_10_models_10_units": scratch}


def state_bytes():
    rs, bm = _firefight()
    bg = bm.BatchedFirefight(rs.config_from_json({}), batch_size=1, seed=0)
    return {"state": bg.state_bytes(), "mask_row": int(bg.mask[0].nbytes)}


def start_time(cold: bool):
    env = dict(os.environ)
    tmp = tempfile.TemporaryDirectory() if cold else None
    if tmp is not None:
        env["NUMBA_CACHE_DIR"] = tmp.name
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", _START], env=env, cwd=root, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    if tmp is not None:
        tmp.cleanup()
    if r.returncode != 0:
        raise RuntimeError(f"start-up subprocess failed:\n{r.stderr[-2000:]}")
    return {"seconds_wall": round(wall, 2), "seconds_in_process": round(float(r.stdout.strip().splitlines()[-1]), 2)}


def run(quick=False, cold=True):
    res = {"load_average_start": _load(), "cpus": os.cpu_count(), "quick": quick}
    start_time(cold=False)  # fills the cache after a source edit; the next one is a cached start
    res["cached_start"] = start_time(cold=False)
    res["connect_four_v3"] = bench_connect_four(2_000 if quick else 20_000)
    res["core"] = bench_core((1, 16, 64) if quick else (1, 16, 64, 256), (1, 2), 3_000 if quick else 30_000)
    res["aec_env"] = bench_firefight_aec(500 if quick else 5_000)
    res["memory"] = {"per_game": state_bytes(), "static": [static_bytes(48, 48), static_bytes(48, 72)]}
    res["cold_compile"] = start_time(cold=True) if cold else None
    res["load_average_end"] = _load()
    c4 = res["connect_four_v3"]["steps_per_second"]
    best = max(r["decisions_per_second"] for r in res["core"] if r["threads"] == 2)
    res["ratios"] = {"core_best_2_threads_vs_c4": round(best / c4, 2)}
    if res["aec_env"]:
        res["ratios"]["aec_env_vs_c4"] = round(res["aec_env"]["steps_per_second"] / c4, 2)
    return res


def report(res):
    c4 = res["connect_four_v3"]["steps_per_second"]
    print(f"load average {res['load_average_start']} -> {res['load_average_end']} on {res['cpus']} CPUs"
          " (the machine may be shared: figures measured under its load)")
    print(f"connect_four_v3 AEC random legal play: {c4:,.0f} steps/s")
    print("Firefight batched core, random legal play with masks, ruined_city 48x48 (decisions/s, x connect_four):")
    for r in res["core"]:
        print(f"  B={r['batch']:>4} threads={r['threads']}: {r['decisions_per_second']:>10,.0f}  "
              f"{r['decisions_per_second'] / c4:6.2f}x  ({r['decisions']} decisions, {r['games_finished']} games, "
              f"{r['seconds']} s)")
    print(f"  best on 2 threads: {res['ratios']['core_best_2_threads_vs_c4']}x (target >= {TARGETS['core_vs_c4']}x)")
    if res["aec_env"]:
        print(f"firefight_v0 AEC: {res['aec_env']['steps_per_second']:,.0f} steps/s, "
              f"{res['ratios']['aec_env_vs_c4']}x (target >= {TARGETS['aec_vs_c4']}x)")
    else:
        print("firefight_v0 AEC: not measured (necro_env.firefight_v0 does not exist yet)")
    m = res["memory"]
    print(f"state per game: {m['per_game']['state']:,} bytes + mask row {m['per_game']['mask_row']:,} bytes "
          f"(target <= {TARGETS['state_kb']:.0f} KB)")
    for s in m["static"]:
        print(f"static memory per board {s['board']}: {s['static_bytes']:,} bytes {s['parts']}; "
              f"movement scratch {s['scratch_bytes_per_thread_10_models_10_units']:,} bytes per thread (10 models, 10 units a side)")
    print(f"cached start: {res['cached_start']['seconds_wall']} s (target <= {TARGETS['cached_s']} s)")
    if res["cold_compile"]:
        print(f"cold compile (empty NUMBA_CACHE_DIR): {res['cold_compile']['seconds_wall']} s "
              f"(target <= {TARGETS['cold_s']} s)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer steps and batch sizes")
    ap.add_argument("--no-cold", action="store_true", help="skip the cold compile (minutes)")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    args = ap.parse_args(argv)
    res = run(args.quick, not args.no_cold)
    if args.json:
        print(json.dumps(res))
    else:
        report(res)
    return res


if __name__ == "__main__":
    main()
