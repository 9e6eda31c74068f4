"""Firefight's scripted players against random and against each other, in paired games (added 2026-12-02).

    python -m benchmarks.ff_scripts [--pairs 500] [--shipped-pairs 20] [--first-seed 0] [--only holder-random]

Each pair is one seed played twice, the sides swapped: the same board, deployment dice and dice stream (the
players draw from their own generators: agents/game_agent.py), so a side's advantage cancels. ``--pairs``
pairs on generated boards (board seed = game seed, from the train seeds, config/board_seeds.py) and
``--shipped-pairs`` pairs on each shipped board (configs/firefight/boards/). Prints, per matchup and board set,
the wins, draws and losses of the first player with 95% Wilson intervals of its win rate and of its score
(a draw counting half). The issue's target: each script wins at least 90% against random.

Games are built through the ruleset seam only (``rulesets.get("firefight")``), as every generic layer does.
"""
from __future__ import annotations

import argparse
import math
import sys
import time

from agents.game_agent import make_game_agent, play_match
from necro_env import rulesets
from necro_env.config.board_seeds import board_seeds

GAME = "firefight"
SHIPPED = ("firefight/boards/ruined_city.yaml", "firefight/boards/forest_outpost.yaml",
           "firefight/boards/industrial_yard.yaml")
MATCHUPS = (("holder", "random"), ("charger", "random"), ("holder", "charger"))


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of k / n (training/evaluate.py's formula; repeated so that a benchmark does not
    import the training package)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    c = (p + z * z / (2 * n)) / den
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, c - h), min(1.0, c + h)


def build(board: str):
    return rulesets.get(GAME).config_from_json({"board": board}).build()


def play_pairs(a: str, b: str, boards_seeds) -> list[int]:
    """[wins, draws, losses] of ``a`` against ``b`` over (board, seed) pairs, each seed with ``a`` on both sides."""
    out = [0, 0, 0]
    agents = (make_game_agent(GAME, a), make_game_agent(GAME, b))
    for board, seeds in boards_seeds:
        game = build(board)
        for seed in seeds:
            for side in range(2):
                players = [agents[1], agents[1]]
                players[side] = agents[0]
                w = play_match(game, players, seed).winner
                out[0 if w == side else (1 if w < 0 else 2)] += 1
    return out


def row(name: str, where: str, wdl, seconds: float) -> str:
    n = sum(wdl)
    lo, hi = wilson(wdl[0], n)
    slo, shi = wilson(wdl[0] + wdl[1] / 2, n)
    return (f"| {name} | {where} | {n} | {wdl[0]} / {wdl[1]} / {wdl[2]} | {wdl[0] / max(n, 1):.1%} "
            f"[{lo:.1%}, {hi:.1%}] | {(wdl[0] + wdl[1] / 2) / max(n, 1):.1%} [{slo:.1%}, {shi:.1%}] | {seconds:.0f} |")


def check_args(args) -> str | None:
    """The first problem with the arguments, in one line, or None."""
    for name in ("pairs", "shipped_pairs", "first_seed"):
        if getattr(args, name) < 0:
            return f"--{name.replace('_', '-')}={getattr(args, name)}; allowed: a whole number 0 or more"
    n = len(board_seeds("train"))
    if args.first_seed + args.pairs > n:
        return f"--first-seed + --pairs = {args.first_seed + args.pairs}; allowed: at most {n} train seeds"
    if args.only is not None and args.only not in ["-".join(m) for m in MATCHUPS]:
        return f"--only={args.only!r}; allowed: {', '.join('-'.join(m) for m in MATCHUPS)}"
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=500, help="pairs on generated boards (train seeds)")
    ap.add_argument("--shipped-pairs", type=int, default=20, help="pairs on each shipped board")
    ap.add_argument("--first-seed", type=int, default=0, help="the first game and board seed")
    ap.add_argument("--only", default=None, help="one matchup, e.g. holder-random")
    args = ap.parse_args(argv)
    problem = check_args(args)
    if problem is not None:  # refused before any game is built
        print(f"ff_scripts: {problem}", file=sys.stderr)
        return 2
    train = board_seeds("train")
    matchups = tuple(m for m in MATCHUPS if args.only in (None, "-".join(m)))
    generated = [(f"generate:{train[args.first_seed + i]}", [train[args.first_seed + i]]) for i in range(args.pairs)]
    shipped = [(board, range(args.first_seed, args.first_seed + args.shipped_pairs)) for board in SHIPPED]
    print("| matchup | boards | games | W / D / L | win rate [95%] | score [95%] | s |")
    print("|---|---|---|---|---|---|---|")
    for a, b in matchups:
        for where, sets in (("generated", generated), ("shipped", shipped)):
            t = time.perf_counter()
            wdl = play_pairs(a, b, sets)
            print(row(f"{a} vs {b}", where, wdl, time.perf_counter() - t), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
