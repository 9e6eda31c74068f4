"""Decisions per second of the compiled policies (agent_spec.POLICY_NAMES) playing every gang.

    python -m benchmarks.heuristic_speed [--policy gunline] [--seconds 8] [--batch 128] [--threads 1]

plays ``--batch`` games on ``BatchedGames`` with ``play`` (the policy decides for every gang,
finished games restart) for ``--seconds`` after a warm-up of 50 decisions per game (compile or
load, and leave the openings), and prints the decisions per second of wall-clock time and of
the process's CPU time (the steadier figure on a busy machine). The scripted heuristics
(necro_env/policies/heuristics.py) are what the search agent (agents/search.py) spends its time
in. For where the time goes inside a policy, run it under ``perf`` as in benchmarks/perf_profile.py
(``--perf-map`` writes the symbol map that ``perf report`` reads).
"""
from __future__ import annotations

import argparse
import time


def main(argv=None) -> None:
    from necro_env.config.agent_spec import POLICY_NAMES

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--policy", default="gunline", choices=POLICY_NAMES,
                    help="compiled policy for every gang (default gunline)")
    ap.add_argument("--seconds", type=float, default=8.0, help="how long to play (default 8)")
    ap.add_argument("--batch", type=int, default=128, help="games in the batch (default 128)")
    ap.add_argument("--threads", type=int, default=1, help="numba threads (default 1)")
    ap.add_argument("--scenario", default=None, help="scenario file (default configs/scenarios/gang_fight.yaml)")
    ap.add_argument("--perf-map", action="store_true",
                    help="write /tmp/perf-<pid>.map for perf report (benchmarks/perf_profile.py)")
    args = ap.parse_args(argv)
    import numba

    from necro_env.batch import BatchedGames
    from necro_env.envs.necromunda_env import build_game

    numba.set_num_threads(args.threads)
    core = BatchedGames(build_game(args.scenario), args.batch, seed=0).reset()
    core.play(50, policy=args.policy)  # compile or load, and leave the openings
    t0 = time.perf_counter()
    c0 = time.process_time()
    decisions = 0
    games = 0
    while time.perf_counter() - t0 < args.seconds:
        counts = core.play(20, policy=args.policy)
        decisions += int(counts[:, 0].sum())
        games += int(counts[:, 1].sum())
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    extra = ""
    if args.perf_map:
        from benchmarks.perf_profile import perf_map

        extra = f"; symbols for perf in {perf_map()}"
    print(f"{args.policy}: {decisions:,} decisions ({games:,} games) in {dt:.1f} s "
          f"({decisions / dt:,.0f}/s, {decisions / cpu:,.0f} per CPU second, B={args.batch}, "
          f"{args.threads} thread(s)){extra}")


if __name__ == "__main__":
    main()
