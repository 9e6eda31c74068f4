"""Throughput of the batched core, the vector env and the AEC env, against PettingZoo classics.

    python -m benchmarks.throughput [--quick] [--json] [--cold]
    python -m benchmarks.throughput --game firefight [--quick] [--no-cold] [--json]   (benchmarks/throughput_firefight.py)

Measures, in one run (docs/performance.md explains each figure):

- batched core: decisions per second of random legal play (``BatchedGames.play``: the
  compiled random policy for every gang, masks computed at every decision, auto-reset) at
  B = 1, 64, 1024, 4096 with 1 and 2 numba threads;
- vector env (``NecromundaVecEnv``): learner steps per second with entity observations and
  masks, random opponent inside the batch, the learner's random legal actions drawn by a
  compiled kernel; twice: in the steady state a training run sees (timed after 200 untimed
  steps, when the auto-reset has spread the games over every phase of a game and the
  observation arrays' pool is full; the figure held against the target) and over the first 50
  steps after ``reset()`` (every game in its opening, with the pool's first allocations);
- the PettingZoo AEC env ``necromunda_v0`` (entity encoder) and, with the same loop,
  PettingZoo's ``connect_four_v3`` and ``go_v5`` (9x9): AEC steps per second of random legal
  play, and our rates divided by theirs;
- memory per game state (``State`` arrays + the mask row);
- start-up: cached start (a fresh interpreter: import, build, reset and first steps of the
  batched core and the env, numba cache warm: an untimed run first fills it; timed from the
  launch of the process to the moment the first steps are done, with the process's exit
  reported apart), once with the framework-free ``BatchedEnv`` (what training/ppo_fast.py
  imports) and once with the SB3
  ``NecromundaVecEnv`` (which imports Stable-Baselines3 and torch) and, with ``--cold`` (or a
  full run without ``--quick``), the cold compile time (same subprocess with
  ``NUMBA_CACHE_DIR`` set to an empty temporary folder), once as it is (its first game runs
  ``necro_env.warmup`` on the usable CPUs, as any first use of the library does) and once on one
  process (``NECRO_WARMUP_JOBS=1``: numba compiling what the script uses, one function after another).

Targets are printed next to the figures, never asserted. The machine may be shared: the
load average is printed with the results.
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

TARGETS = {
    "core_2_threads": 200_000, "vec_env": 100_000, "memory_kb": 32, "cold_compile_s": 60, "cached_start_s": 3,
}

_START_SCRIPT = r"""
import time
t0 = time.perf_counter()
import numpy as np
from necro_env.batch import BatchedGames
from necro_env.envs.necromunda_env import build_game
from necro_env.envs.{module} import {cls}
g = build_game()
g.reset(0)
g.step(int(g.legal_actions()[0]))
BatchedGames(g, 4).reset().play(4)
env = {cls}(4)
env.reset()
env.step(np.array([np.flatnonzero(m)[0] for m in env.action_masks()]))
print(time.perf_counter() - t0, time.time())  # the moment the env has stepped (the parent times the launch)
"""
# the start-up script with the framework-free env (what ppo_fast imports) or with the SB3 VecEnv
START_ENVS = {"numpy": ("batched_env", "BatchedEnv"), "sb3": ("vector_env", "NecromundaVecEnv")}

_ENGINE_SCRIPT = r"""
from necro_env.envs.necromunda_env import build_game
g = build_game()
g.reset(0)
g.step(int(g.legal_actions()[0]))
"""


def _load():
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def bench_core(batch_sizes, threads, decisions_per_game, min_decisions):
    import numba

    from necro_env.batch import BatchedGames
    from necro_env.envs.necromunda_env import build_game

    game = build_game()
    out = []
    for t in threads:
        numba.set_num_threads(t)
        for b in batch_sizes:
            core = BatchedGames(game, b, seed=0).reset()
            core.play(1)  # compile / load
            n = max(decisions_per_game, -(-min_decisions // b))
            t0 = time.perf_counter()
            counts = core.play(n)
            dt = time.perf_counter() - t0
            dec = int(counts[:, 0].sum())
            out.append({"batch": b, "threads": t, "decisions": dec, "games_finished": int(counts[:, 1].sum()),
                        "seconds": round(dt, 3), "decisions_per_second": round(dec / dt, 1)})
    numba.set_num_threads(max(threads))
    return out


def bench_vec_env(batch, steps, threads, warmup=0):
    """Learner steps per second over ``steps`` steps after ``reset()`` and ``warmup`` untimed
    steps (module docstring)."""
    import numba

    from necro_env.core.rng import seed_game
    from necro_env.envs.vector_env import NecromundaVecEnv

    numba.set_num_threads(threads)
    env = NecromundaVecEnv(batch, opponent="random", seed=0)
    c = env.core
    prng = np.zeros((batch, 2), np.uint64)
    for b in range(batch):
        seed_game(prng, b, np.uint64(1000 + b))
    act = np.zeros(batch, np.int64)
    env.reset()
    c.sample("random", prng, act)
    env.step(act)  # compile / load
    for _ in range(warmup):
        c.sample("random", prng, act)
        env.step(act)
    t0 = time.perf_counter()
    n = episodes = 0
    for _ in range(steps):
        c.sample("random", prng, act)
        _, _, dones, _ = env.step(act)
        n += batch
        episodes += int(dones.sum())
    dt = time.perf_counter() - t0
    return {"batch": batch, "threads": threads, "warmup_steps": warmup, "steps": n, "episodes": episodes,
            "seconds": round(dt, 3), "steps_per_second": round(n / dt, 1)}


def profile_core(batch=256, threads=1, decisions_per_game=40):
    """Where the batched core's time goes (compiled timings, one thread): random play; the
    mask alone recomputed on the states reached, split by decision kind; the random policy's
    choice; the entity encoder."""
    import numba

    from necro_env.batch import BatchedGames
    from necro_env.batch import kernels as K
    from necro_env.batch.encode import alloc_entity, entity_tables
    from necro_env import rulesets
    from necro_env.core.header import H_DK as G_DK  # the decision kind awaiting a choice (the state header)
    from necro_env.envs.necromunda_env import build_game

    DK_NAMES = rulesets.get("necromunda").decision_names()  # decision kind code -> name
    numba.set_num_threads(threads)
    game = build_game()
    core = BatchedGames(game, batch, seed=0).reset()
    core.play(1)
    t0 = time.perf_counter()
    counts = core.play(decisions_per_game)
    play_dt = time.perf_counter() - t0
    dec = int(counts[:, 0].sum())
    out = {"batch": batch, "threads": threads, "play_decisions_per_second": round(dec / play_dt, 1),
           "play_us_per_decision": round(1e6 * play_dt / dec, 2), "mask_by_kind": {}}
    reps = 20
    dks = core.state.g[:, G_DK]
    for dk in np.unique(dks):
        idx = np.flatnonzero(dks == dk)
        sub = type(core.state)(*(a[idx].copy() for a in core.state))  # the games at this decision kind
        m = core.mask[idx].copy()
        core.recompute_masks(1, sub, m)
        t0 = time.perf_counter()
        core.recompute_masks(reps, sub, m)
        dt = time.perf_counter() - t0
        out["mask_by_kind"][DK_NAMES.get(int(dk), str(dk))] = {
            "share_of_states": round(len(idx) / batch, 3), "us_per_mask": round(1e6 * dt / (reps * len(idx)), 2)}
    m = core.mask.copy()
    t0 = time.perf_counter()
    core.recompute_masks(reps, mask=m)
    out["mask_us_mean"] = round(1e6 * (time.perf_counter() - t0) / (reps * batch), 2)
    act = np.zeros(batch, np.int64)
    core.sample("random", core.prng.copy(), act)
    t0 = time.perf_counter()
    for _ in range(reps):
        core.sample("random", core.prng.copy(), act)
    out["random_choice_us"] = round(1e6 * (time.perf_counter() - t0) / (reps * batch), 2)
    et = entity_tables(game, core.template)
    bufs = alloc_entity(game, batch)
    side = np.zeros(batch, np.int64)
    K.encode_all(core.state, et, side, *bufs)
    t0 = time.perf_counter()
    for _ in range(reps):
        K.encode_all(core.state, et, side, *bufs)
    out["entity_encode_us"] = round(1e6 * (time.perf_counter() - t0) / (reps * batch), 2)
    out["n_actions"] = core.n_actions
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return out


_COMPILE_PROFILE = r"""
import json, resource, time
from collections import defaultdict
from numba.core import event

excl, passes = defaultdict(float), defaultdict(float)
stack, pstack = [], []

class Excl(event.Listener):
    def __init__(self, table, st, key):
        self.table, self.st, self.key = table, st, key
    def on_start(self, ev):
        now = time.perf_counter()
        if self.st:
            self.table[self.st[-1][0]] += now - self.st[-1][1]
        self.st.append([self.key(ev), now])
    def on_end(self, ev):
        now = time.perf_counter()
        k, t0 = self.st.pop()
        self.table[k] += now - t0
        if self.st:
            self.st[-1][1] = now

def fname(ev):
    d = ev.data.get("dispatcher")
    f = getattr(d, "py_func", None)
    return f"{f.__module__}.{f.__qualname__}" if f is not None else str(d)

# CPU time of LLVM's phases inside the libraries' finalisation (every compiled function's library,
# with the callee libraries linked into it, is optimised and turned into machine code)
import numba.core.codegen as cg
phases, counts = defaultdict(float), defaultdict(int)

def timed(cls, name, label):
    f = getattr(cls, name)
    def g(*a, **k):
        c = time.process_time()
        try:
            return f(*a, **k)
        finally:
            phases[label] += time.process_time() - c
            counts[label] += 1
    setattr(cls, name, g)

timed(cg.CPUCodeLibrary, "_optimize_functions", "function passes (per module, before linking)")
timed(cg.CPUCodeLibrary, "_optimize_final_module", "module passes (with linked callees)")
timed(cg.JITCodeLibrary, "_finalize_specific", "machine code (MCJIT finalize_object)")
timed(cg.CPUCodeLibrary, "finalize", "finalize in all (link, module passes, machine code)")
timed(cg.CPUCodeLibrary, "serialize_using_object_code", "cache write (object code)")

llvm = event.TimingListener()
t0 = time.perf_counter()
with event.install_listener("numba:compile", Excl(excl, stack, fname)), \
        event.install_listener("numba:run_pass", Excl(passes, pstack, lambda ev: ev.data["name"])), \
        event.install_listener("numba:llvm_lock", llvm):
    exec(SCRIPT)
wall = time.perf_counter() - t0
ru = resource.getrusage(resource.RUSAGE_SELF)
kinds = defaultdict(float)
for k, v in passes.items():
    kinds[k.split(" [")[0]] += v
print(json.dumps({"wall": wall, "cpu": ru.ru_utime + ru.ru_stime, "compile_wall": sum(excl.values()),
                  "llvm_lock_wall": llvm.duration if llvm.done else 0.0,
                  "top_functions": sorted(excl.items(), key=lambda kv: -kv[1])[:15],
                  "passes": sorted(passes.items(), key=lambda kv: -kv[1])[:12],
                  "pass_kinds": sorted(kinds.items(), key=lambda kv: -kv[1])[:12],
                  "llvm_phases_cpu": {k: [counts[k], round(v, 1)] for k, v in phases.items()}}))
"""


def compile_profile(opt=None):
    """A cold compile (empty NUMBA_CACHE_DIR) of the engine (build, reset, one step) in a subprocess, with
    numba's event API: exclusive compile time per function and per compiler pass (and summed
    per kind of pass), time under the LLVM lock, the CPU time of LLVM's phases in the libraries'
    finalisation (counted per call) and the process CPU time. ``opt`` sets NUMBA_OPT."""
    env = dict(os.environ, NECRO_WARMUP_JOBS="1")  # one process: numba's own compile, profiled
    tmp = tempfile.TemporaryDirectory()
    env["NUMBA_CACHE_DIR"] = tmp.name
    if opt is not None:
        env["NUMBA_OPT"] = str(opt)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    script = "SCRIPT = " + repr(_ENGINE_SCRIPT) + "\n" + _COMPILE_PROFILE
    r = subprocess.run([sys.executable, "-c", script], env=env, cwd=root, capture_output=True, text=True,
                       check=False)
    tmp.cleanup()
    if r.returncode != 0:
        raise RuntimeError(f"compile-profile subprocess failed:\n{r.stderr[-2000:]}")
    out = json.loads(r.stdout.strip().splitlines()[-1])
    out["numba_opt"] = opt
    return out


def _go():
    from benchmarks.aec_speed import _connect_four

    _connect_four()  # installs the pygame stand-in if needed
    from pettingzoo.classic import go_v5

    return go_v5


def bench_aec(steps, seed=0):
    from benchmarks.aec_speed import _connect_four, _play, bench_necromunda

    out = {"necromunda_v0": bench_necromunda(steps, "entity", seed)}
    for name, make in (("connect_four_v3", lambda: _connect_four().env()),
                       ("go_v5_9x9", lambda: _go().env(board_size=9))):
        env = make()
        _play(env, 1, np.random.default_rng(seed), seed)
        dt, n, games, _ = _play(env, steps, np.random.default_rng(seed), seed)
        out[name] = {"env": name, "steps": n, "seconds": round(dt, 3), "steps_per_second": round(n / dt, 1),
                     "games_finished": games}
    return out


def memory_per_game():
    from necro_env.batch import BatchedGames
    from necro_env.envs.necromunda_env import build_game

    core = BatchedGames(build_game(), 8)
    per = {name: int(a.nbytes // 8) for name, a in zip(core.state._fields, core.state)}
    state = sum(a.nbytes for a in core.state) // 8  # every state array has one row per game
    return {"state_bytes": state, "mask_bytes": int(core.mask.nbytes // 8), "per_array": per,
            "total_kb": round((state + core.mask.nbytes // 8) / 1024, 2)}


def start_script(api: str = "numpy") -> str:
    """The start-up script with the env of ``api`` (``START_ENVS``). Its first game runs
    ``necro_env.warmup`` (``Game.__init__``), as any use of the library does."""
    module, cls = START_ENVS[api]
    return _START_SCRIPT.replace("{module}", module).replace("{cls}", cls)


def start_time(cold: bool, api: str = "numpy", cache_dir=None, warmup_jobs: int | None = None):
    """The start-up script's times in a subprocess; ``cold``: with an empty ``NUMBA_CACHE_DIR`` (a
    new temporary folder, or ``cache_dir``, which the caller provides empty and removes);
    ``warmup_jobs``: ``NECRO_WARMUP_JOBS`` for it (1: no warm-up, numba compiles on first use in one
    process; default: the library's, the usable CPUs up to 4)."""
    script = start_script(api)
    env = dict(os.environ)
    env.pop("NECRO_WARMUP_JOBS", None)
    if warmup_jobs is not None:
        env["NECRO_WARMUP_JOBS"] = str(int(warmup_jobs))
    tmp = None
    if cold and cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = str(cache_dir)
    elif cold:
        tmp = tempfile.TemporaryDirectory()
        env["NUMBA_CACHE_DIR"] = tmp.name
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    import resource

    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    launch = time.time()
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", script], env=env, cwd=root, capture_output=True, text=True,
                       check=False)
    wall = time.perf_counter() - t0
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)
    if tmp is not None:
        tmp.cleanup()
    if r.returncode != 0:
        raise RuntimeError(f"start-up subprocess failed:\n{r.stderr[-2000:]}")
    in_process, ready = (float(x) for x in r.stdout.strip().splitlines()[-1].split())
    # to_ready: launch -> the first steps done (the start-up the target is about); wall adds the
    # interpreter's shutdown after them (torch's teardown alone takes about 0.4 s)
    return {"seconds_to_ready": round(ready - launch, 2), "seconds_in_process": round(in_process, 2),
            "seconds_wall": round(wall, 2), "seconds_exit": round(wall - (ready - launch), 2),
            "cpu_seconds": round(cpu, 2)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer steps, B up to 1024, no cold compile")
    ap.add_argument("--cold", action="store_true", help="measure the cold compile even with --quick")
    ap.add_argument("--no-cold", action="store_true", help="skip the cold compile (minutes) in a full run")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    ap.add_argument("--profile", action="store_true", help="only the time split of the batched core")
    ap.add_argument("--compile-profile", action="store_true",
                    help="only a cold compile with numba's event timings (per function, per pass, LLVM)")
    ap.add_argument("--opt", type=int, default=None, help="NUMBA_OPT for --compile-profile (default numba's 3)")
    ap.add_argument("--game", choices=("necromunda", "firefight"), default="necromunda",
                    help="firefight: benchmarks/throughput_firefight.py's figures (--quick, --no-cold, --json)")
    args = ap.parse_args(argv)
    if args.game == "firefight":
        from benchmarks.throughput_firefight import main as firefight_main

        return firefight_main([f for f, on in (("--quick", args.quick), ("--no-cold", args.no_cold),
                                               ("--json", args.json)) if on])
    if args.compile_profile:
        res = compile_profile(args.opt)
        print(json.dumps(res, indent=1))
        return res
    if args.profile:
        res = profile_core()
        print(json.dumps(res, indent=1))
        return res
    quick = args.quick
    res = {"load_average_start": _load(), "cpus": os.cpu_count(), "quick": quick}
    # an untimed run first: it compiles what the numba cache lacks (after a source edit, minutes) and
    # warms every cache the rest needs, so that the timed runs are cached starts
    start_time(cold=False)
    res["cached_start"] = start_time(cold=False)
    res["cached_start_sb3"] = start_time(cold=False, api="sb3")
    res["core"] = bench_core((1, 64, 1024) if quick else (1, 64, 1024, 4096), (1, 2),
                             decisions_per_game=2 if quick else 8, min_decisions=5_000 if quick else 60_000)
    res["vec_env"] = bench_vec_env(256 if quick else 1024, 100, 2, warmup=200)
    res["vec_env_from_reset"] = bench_vec_env(256 if quick else 1024, 50, 2)
    res["aec"] = bench_aec(2_000 if quick else 20_000)
    res["memory"] = memory_per_game()
    cold = args.cold or not (quick or args.no_cold)
    from necro_env.warmup import cpu_jobs

    jobs = cpu_jobs()  # what a first start uses when NECRO_WARMUP_JOBS is not set
    res["cold_compile"] = dict(start_time(cold=True, warmup_jobs=jobs), jobs=jobs) if cold else None
    res["cold_compile_one_process"] = start_time(cold=True, warmup_jobs=1) if cold else None
    res["load_average_end"] = _load()
    c4 = res["aec"]["connect_four_v3"]["steps_per_second"]
    go = res["aec"]["go_v5_9x9"]["steps_per_second"]
    best_core = max(r["decisions_per_second"] for r in res["core"] if r["threads"] == 2)
    rates = {"core_best_2_threads": best_core, "vec_env": res["vec_env"]["steps_per_second"],
             "aec_env": res["aec"]["necromunda_v0"]["steps_per_second"]}
    res["ratios"] = {k: {"vs_connect_four_v3": round(v / c4, 2), "vs_go_v5_9x9": round(v / go, 2)}
                     for k, v in rates.items()}
    if args.json:
        print(json.dumps(res))
        return res
    print(f"load average {res['load_average_start']} -> {res['load_average_end']} on {res['cpus']} CPUs"
          + (" (shared machine: figures measured under contention)" if (res['load_average_start'] or 0) > 2.5
             else ""))
    print("batched core, random legal play with masks (decisions/s):")
    for r in res["core"]:
        print(f"  B={r['batch']:>5} threads={r['threads']}: {r['decisions_per_second']:>10,.0f}  "
              f"({r['decisions']} decisions, {r['games_finished']} games, {r['seconds']} s)")
    print(f"  target >= {TARGETS['core_2_threads']:,} on 2 threads: best {best_core:,.0f}")
    v, v0 = res["vec_env"], res["vec_env_from_reset"]
    print(f"vector env, entity obs + masks, random opponent, B={v['batch']}, {v['threads']} threads: "
          f"{v['steps_per_second']:,.0f} steps/s after {v['warmup_steps']} steps (target >= {TARGETS['vec_env']:,}; "
          f"{v['episodes']} episodes); {v0['steps_per_second']:,.0f} steps/s over the first {v0['steps'] // v0['batch']} "
          f"steps after reset")
    print("AEC random legal play (steps/s):")
    for name, r in res["aec"].items():
        print(f"  {name:<16} {r['steps_per_second']:>10,.0f}")
    for k, r in res["ratios"].items():
        print(f"  {k}: {r['vs_connect_four_v3']}x connect_four_v3, {r['vs_go_v5_9x9']}x go_v5 (9x9)")
    m = res["memory"]
    print(f"memory per game: state {m['state_bytes']:,} B + mask {m['mask_bytes']:,} B = {m['total_kb']} KB "
          f"(target <= {TARGETS['memory_kb']} KB); largest arrays: "
          + ", ".join(f"{k} {v:,} B" for k, v in sorted(m['per_array'].items(), key=lambda kv: -kv[1])[:3]))
    for key, what in (("cached_start", "BatchedEnv, numpy API"), ("cached_start_sb3", "NecromundaVecEnv, SB3")):
        cs = res[key]
        print(f"cached start ({what}; fresh process, warm numba cache): {cs['seconds_to_ready']} s from launch "
              f"to the first steps (target <= {TARGETS['cached_start_s']} s; {cs['seconds_in_process']} s after "
              f"interpreter start), process exit {cs['seconds_exit']} s later ({cs['seconds_wall']} s wall in all, "
              f"{cs['cpu_seconds']} s CPU)")
    cc = res["cold_compile"]
    if cc is None:
        print("cold compile: skipped (--quick / --no-cold; add --cold)")
    else:
        print(f"cold compile (empty NUMBA_CACHE_DIR; the library's warm-up on {cc['jobs']} processes, as every "
              f"first start): {cc['seconds_to_ready']} s from launch to the first steps, {cc['seconds_wall']} s wall "
              f"in all, {cc['cpu_seconds']} s CPU (target <= {TARGETS['cold_compile_s']} s)")
        c1 = res["cold_compile_one_process"]
        print(f"cold compile on one process (NECRO_WARMUP_JOBS=1, numba compiling on first use): "
              f"{c1['seconds_to_ready']} s to the first steps, {c1['cpu_seconds']} s CPU")
    return res


if __name__ == "__main__":
    main()
