"""Firefight random-play soak: many games of uniform random legal play in the batched core (2026-12-02).

    python -m benchmarks.ff_random_games [--games 10000] [--boards generated|files] [--first-board 0]
                                         [--per-board 100] [--heights both|on|off] [--seed 0] [--json]

``--boards generated`` plays on boards of necro_env/rulesets/firefight/generator.py with the train seeds
(necro_env/config/board_seeds.py) ``FIRST, FIRST + 1, ...``, ``--per-board`` games on each, grouped by board (one
``BatchedFirefight`` per board, one game per slot: slot b plays the game of seed ``seed + b``, as
``Game.reset(seed + b)`` on that board); ``--boards files`` cycles over the shipped board files.
``--heights both`` turns §11's heights on for every other board (jumps and falls need them).

Prints games, exceptions (must be 0), decisions per game, the outcome split, decisions per second and the counts
of the notable events as evidence the rules occur in play: charges, melee rounds, strike-backs, morale tests,
routs, objectives seized, Blast and Deadly hits, jumps, falls and pushes.
"""
from __future__ import annotations

import argparse
import json
import time
import traceback

import numpy as np

FILES = ("firefight/boards/ruined_city.yaml", "firefight/boards/forest_outpost.yaml",
         "firefight/boards/industrial_yard.yaml")


def _firefight():
    from necro_env import rulesets

    return rulesets.get("firefight")


def counted():
    """(label, column of the batched core's counts) of the soak's table."""
    return _firefight().feature("batched")().SOAK_COUNTS


def configs(boards: str, n_boards: int, first: int, heights: str):
    from necro_env.config.board_seeds import board_seeds

    seeds = board_seeds("train")
    for k in range(n_boards):
        on = heights == "on" or (heights == "both" and k % 2 == 1)
        board = f"generate:{seeds[first + k]}" if boards == "generated" else FILES[k % len(FILES)]
        yield _firefight().config_from_json({"board": board, "heights": on})


def soak(games=10_000, boards="generated", first=0, per_board=100, heights="both", seed=0):
    """Play the games; returns the summary dict (see the module docstring)."""
    bm = _firefight().feature("batched")()
    BatchedFirefight, R_GAMES, R_DECISIONS = bm.BatchedFirefight, bm.R_GAMES, bm.R_DECISIONS
    R_WIN0, R_WIN1, R_DRAW, N_KINDS = bm.R_WIN0, bm.R_WIN1, bm.R_DRAW, bm.N_KINDS
    counts = np.zeros(N_KINDS, np.int64)
    res = np.zeros(5, np.int64)
    errors = []
    n_boards = -(-games // per_board)
    t0 = time.perf_counter()
    for k, cfg in enumerate(configs(boards, n_boards, first, heights)):
        n = min(per_board, games - k * per_board)
        try:
            bg = BatchedFirefight(cfg, batch_size=n, seed=seed)
            while (bg.results[:, R_GAMES] < 1).any():
                bg.play(200, max_games=1)
        except Exception:  # noqa: BLE001 - the soak reports every failure with its board
            errors.append((cfg.board, cfg.heights, traceback.format_exc()))
            continue
        counts += bg.counts.sum(0)
        res += bg.results.sum(0)
    dt = time.perf_counter() - t0
    table = {label: int(counts[col]) for label, col in counted()}
    return {"games": int(res[R_GAMES]), "boards": n_boards, "board_kind": boards, "heights": heights,
            "exceptions": len(errors), "first_errors": errors[:3], "decisions": int(res[R_DECISIONS]),
            "decisions_per_game": round(res[R_DECISIONS] / max(res[R_GAMES], 1), 1),
            "wins_side0": int(res[R_WIN0]), "wins_side1": int(res[R_WIN1]), "draws": int(res[R_DRAW]),
            "seconds": round(dt, 1), "decisions_per_second": round(res[R_DECISIONS] / dt, 1), "counts": table}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--boards", choices=("generated", "files"), default="generated")
    ap.add_argument("--first-board", type=int, default=0, help="index of the first train seed")
    ap.add_argument("--per-board", type=int, default=100)
    ap.add_argument("--heights", choices=("both", "on", "off"), default="both")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    for name in ("games", "per_board"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')}={getattr(args, name)}; allowed: a whole number >= 1")
    out = soak(args.games, args.boards, args.first_board, args.per_board, args.heights, args.seed)
    if args.json:
        print(json.dumps(out))
        return out
    print(f"{out['games']} games on {out['boards']} {out['board_kind']} boards (heights: {out['heights']}), "
          f"{out['exceptions']} exceptions")
    for board, h, tb in out["first_errors"]:
        print(f"--- board {board} heights={h}\n{tb}")
    print(f"{out['decisions']} decisions ({out['decisions_per_game']} a game) in {out['seconds']} s: "
          f"{out['decisions_per_second']:,.0f} decisions/s")
    print(f"side 0 won {out['wins_side0']}, side 1 won {out['wins_side1']}, draws {out['draws']}")
    for label, v in out["counts"].items():
        print(f"  {label:<18} {v:>10,}")
    return out


if __name__ == "__main__":
    main()
