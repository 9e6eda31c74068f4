"""Where Firefight's engine spends its time, by the decision being answered (2026-12-02).

    python -m benchmarks.ff_decision_profile [--board generate:11] [--games 40]

Records random legal games through ``Game``, then replays each game's indices inside one compiled loop that times
every ``engine.step`` (the step and the next decision's mask) with the monotonic clock, and prints the mean time
per decision kind and its share: the kernel's own time, without Python's per-step overhead. The machine may be
shared: the load average is printed; compare kinds within one run, not runs on different days.
"""
from __future__ import annotations

import argparse
import ctypes
import os

import numba
import numpy as np

from necro_env import rulesets
from necro_env.core.header import H_DK


def _clock():
    """A compiled ``now()`` in nanoseconds (libc's clock_gettime(CLOCK_MONOTONIC), called from numba)."""
    cg = ctypes.CDLL("libc.so.6").clock_gettime
    cg.argtypes, cg.restype = [ctypes.c_int, ctypes.c_void_p], ctypes.c_int

    @numba.njit
    def now(buf):
        cg(1, buf.ctypes.data)
        return buf[0] * 1_000_000_000 + buf[1]

    return now


def profile(board: str | None, games: int, reps: int = 3) -> tuple[np.ndarray, np.ndarray, dict]:
    rs = rulesets.get("firefight")
    game = rs.make_game({"board": board} if board else {})
    # the engine's step as the batched core calls it (batch.py imports it), reached through the registry
    now, step, dk_col = _clock(), rs.feature("batched")().step, H_DK

    @numba.njit
    def replay(s, st, lay, mask, sc, acts, tot, cnt, buf):
        for a in acts:
            dk = s.g[0, dk_col]
            t0 = now(buf)
            step(s, st, 0, lay, a, mask, sc)
            tot[dk] += now(buf) - t0
            cnt[dk] += 1

    seqs = []
    for seed in range(games):
        game.reset(seed=seed)
        rng, acts = np.random.default_rng(seed), []
        while not game.done:
            acts.append(int(rng.choice(game.legal_actions())))
            game.step(acts[-1])
        seqs.append((seed, np.array(acts, np.int64)))
    best, buf = None, np.zeros(2, np.int64)
    for _ in range(reps):  # the fastest of reps passes (the others met more of the machine's other work)
        tot, cnt = np.zeros(64, np.int64), np.zeros(64, np.int64)
        for seed, acts in seqs:
            game.reset(seed=seed)
            replay(game.state, game.static, game.layout, game.mask, game.scratch, acts, tot, cnt, buf)
        if best is None or tot.sum() < best[0].sum():
            best = (tot, cnt)
    return best[0], best[1], rs.decision_names()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default=None, help="a board file name or generate:<seed> (default: the default game's)")
    ap.add_argument("--games", type=int, default=40, help="random legal games recorded and replayed (default 40)")
    args = ap.parse_args(argv)
    load0 = os.getloadavg()[0]
    tot, cnt, names = profile(args.board, args.games)
    total, n = int(tot.sum()), int(cnt.sum())
    print(f"load average {load0:.2f} -> {os.getloadavg()[0]:.2f}; {n} decisions of {args.games} games, "
          f"{total / n / 1000:.2f} us a decision in the kernel (the fastest of 3 passes)")
    for k in np.argsort(-tot):
        if cnt[k]:
            print(f"  {names.get(int(k), str(k)):18s} {cnt[k]:6d} decisions {tot[k] / cnt[k] / 1000:8.2f} us "
                  f"{100 * tot[k] / total:5.1f}%")


if __name__ == "__main__":
    main()
