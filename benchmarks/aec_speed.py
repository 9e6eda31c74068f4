"""AEC steps per second of necromunda_v0 under random legal play, next to PettingZoo's connect_four_v3.

    python -m benchmarks.aec_speed [--steps N] [--encoder flat] [--json]

Each AEC step is ``env.last()`` (which encodes the observation) + choosing a
uniformly random legal action from the mask + ``env.step(action)``; games
are reset when they end (the dead-agent steps at the end of a game count as
steps, as in PettingZoo's own benchmarks). The first construction + reset,
which loads or compiles the numba engine, is timed separately and excluded.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import types

import numpy as np


def _play(env, steps: int, rng: np.random.Generator, seed: int):
    """Run ``steps`` AEC steps; return (seconds, steps, finished games, decisions)."""
    env.reset(seed=seed)
    n = games = decisions = 0
    t0 = time.perf_counter()
    while n < steps:
        if not env.agents:
            games += 1
            env.reset()
            continue
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rng.integers(len(legal))])
            decisions += 1
        env.step(action)
        n += 1
    return time.perf_counter() - t0, n, games, decisions


def bench_necromunda(steps: int, encoder: str, seed: int, scenario=None):
    t0 = time.perf_counter()
    from necro_env import necromunda_v0

    env = necromunda_v0.env(encoder=encoder, scenario=scenario, seed=seed)
    _play(env, 1, np.random.default_rng(seed), seed)  # loads / compiles the engine's step too
    warmup = time.perf_counter() - t0
    dt, n, games, decisions = _play(env, steps, np.random.default_rng(seed), seed)
    u = env.unwrapped
    return {
        "env": "necromunda_v0", "encoder": encoder, "board": u.game.board.name,
        "n_actions": u.n_actions, "warmup_seconds": round(warmup, 3), "steps": n, "seconds": round(dt, 3),
        "steps_per_second": round(n / dt, 1), "decisions": decisions, "games_finished": games,
    }


def _connect_four():
    try:
        import pygame  # noqa: F401
    except ImportError:
        # connect_four imports pygame at module level but needs it only to render
        sys.modules["pygame"] = types.ModuleType("pygame")
    from pettingzoo.classic import connect_four_v3

    return connect_four_v3


def bench_connect_four(steps: int, seed: int):
    t0 = time.perf_counter()
    env = _connect_four().env()
    _play(env, 1, np.random.default_rng(seed), seed)
    warmup = time.perf_counter() - t0
    dt, n, games, decisions = _play(env, steps, np.random.default_rng(seed), seed)
    return {
        "env": "connect_four_v3", "warmup_seconds": round(warmup, 3), "steps": n, "seconds": round(dt, 3),
        "steps_per_second": round(n / dt, 1), "decisions": decisions, "games_finished": games,
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20000, help="AEC steps per environment (default 20000)")
    ap.add_argument("--encoder", default="flat", choices=["entity", "flat", "spatial"])
    ap.add_argument("--scenario", default=None, help="scenario file (default gang_fight)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    args = ap.parse_args(argv)
    necro = bench_necromunda(args.steps, args.encoder, args.seed, args.scenario)
    c4 = bench_connect_four(args.steps, args.seed)
    if args.json:
        print(json.dumps({"necromunda_v0": necro, "connect_four_v3": c4}))
        return
    print(f"necromunda_v0 (encoder={necro['encoder']}, board {necro['board']}, {necro['n_actions']} actions)")
    print(f"  compile / warm-up (first env, reset and step): {necro['warmup_seconds']:.2f} s")
    print(f"  {necro['steps']} AEC steps in {necro['seconds']:.2f} s: {necro['steps_per_second']:.0f} steps/s "
          f"({necro['decisions']} decisions, {necro['games_finished']} games finished)")
    print("connect_four_v3 (PettingZoo classic, for comparison)")
    print(f"  {c4['steps']} AEC steps in {c4['seconds']:.2f} s: {c4['steps_per_second']:.0f} steps/s "
          f"({c4['games_finished']} games finished)")


if __name__ == "__main__":
    main()
