"""Random-play soak benchmark: many games of uniform random legal play.

    python -m benchmarks.random_games [--games 10000] [--seed 0] [--boards all] [--gangs 2] [--workers 1]
                                      [--generated KIND:FIRST-LAST] [--variant core|house_legacy] [--json]
                                      [--conditions-scenario]

Game i uses seed ``seed + i``: the seed picks the board and the gangs and drives both
the deployment, the dice and the random player, so any game can be replayed alone with
``--only SEED`` (which re-raises its exception with the full traceback).

``--generated sector:0-99`` plays on boards of ``necro_env.config.generator.generate``
(kind ``sector``: open ground with raised platforms; ``zm``: Zone Mortalis) instead of the
shipped boards: game i plays on the board with seed ``FIRST + (i mod N)`` (N boards in the
range), 24x24 with as many deployment zones as the largest --gangs value, doors closed at the
start. Building a board and its line-of-sight tables costs about 0.6 s, so the games are
played grouped by board (all games of one board, then the next; workers split the boards),
with one generated board alive at a time. Replay one game with the same --seed, --generated
and --gangs plus ``--only SEED``.

``--conditions-scenario`` draws the gangs from the TEST gang files of
configs/scenarios/test_conditions.yaml instead of the four default crews: copies of the Orlock and
Escher crews with a synthetic Cursed lasgun (Insane) and fighters starting Gunked, Starving,
Intoxicated, Mounted or Hidden (gang file ``start_conditions``), so the condition counters show every
condition (docs/data.md). Boards, seeds and --gangs work as without it.

Prints games played, exceptions (must be 0; the first tracebacks are shown with their
seeds), decisions and rounds per game, the outcome split (wins per gang position, draws
by elimination, truncations by the round limit), decisions per second and counts of
notable events over all games, as evidence the rules occur in play.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

import numpy as np

BOARDS = ("zm_corridors", "zm_hall", "zm_cross")
GANGS = ("orlock", "goliath", "escher", "van_saar")
CONDITIONS_SCENARIO = "scenarios/test_conditions.yaml"  # --conditions-scenario: its gangs are the pool
ROUND_LIMIT = 12

GEN_KINDS = ("sector", "zm", "zone_mortalis")
VARIANTS = ("core", "house_legacy")

_GAMES: dict = {}
_GANG_SPECS: dict = {}


@dataclasses.dataclass(frozen=True)
class Generated:
    """Boards of ``generate(kind, seed=first..last, n_zones=n_zones)``; game seed s plays on board
    ``first + ((s - base) mod count)`` where ``base`` is the run's --seed."""
    kind: str
    first: int
    last: int
    n_zones: int = 2
    base: int = 0

    @property
    def count(self) -> int:
        return self.last - self.first + 1

    def board_seed(self, seed: int) -> int:
        return self.first + (seed - self.base) % self.count

    def label(self) -> str:
        return f"{self.kind}:{self.first}-{self.last}"


def parse_generated(text: str, n_zones: int = 2, base: int = 0) -> Generated:
    """``KIND:FIRST-LAST`` (or ``KIND:SEED``) -> Generated; ValueError naming what is wrong."""
    kind, sep, rng = text.partition(":")
    if not sep or kind not in GEN_KINDS:
        raise ValueError(f"--generated {text!r}: expected KIND:FIRST-LAST with KIND one of {', '.join(GEN_KINDS)}")
    lo, _, hi = rng.partition("-")
    try:
        first, last = int(lo), int(hi if hi else lo)
    except ValueError:
        raise ValueError(f"--generated {text!r}: FIRST-LAST must be integers, e.g. sector:0-99") from None
    if first < 0 or last < first:
        raise ValueError(f"--generated {text!r}: need 0 <= FIRST <= LAST")
    return Generated(kind, first, last, n_zones, base)


def conditions_pool() -> tuple:
    """The gang files of the conditions test scenario (paths relative to configs/, no .yaml)."""
    from necro_env.config import load_scenario
    from necro_env.config.loader import config_root

    return tuple(str(Path(g.source).resolve().relative_to(config_root().resolve()).with_suffix(""))
                 for g in load_scenario(CONDITIONS_SCENARIO).gangs)


def _gang_specs(gangs):
    """Gang specs of default crew names (configs/gangs/NAME.yaml) or paths under configs/ (no .yaml)."""
    from necro_env.config import load_gang

    for g in gangs:
        if g not in _GANG_SPECS:
            _GANG_SPECS[g] = load_gang(f"{g}.yaml" if "/" in g else f"gangs/{g}.yaml")
    return [_GANG_SPECS[g] for g in gangs]


def _board_spec(board, gen: Generated | None):
    """The BoardSpec of a shipped board name or a generated board seed; doors start closed as in
    the default scenario (doors_start: closed)."""
    from necro_env.config import load_board
    from necro_env.core.terrain import DOOR_CLOSED, DOOR_OPEN

    if gen is None:
        spec = load_board(f"boards/{board}.yaml")
    else:
        from necro_env.config.generator import generate

        spec = generate(gen.kind, seed=board, n_zones=gen.n_zones)
    doors = spec.doors.copy()
    doors[doors[:, 2] == DOOR_OPEN, 2] = DOOR_CLOSED
    return dataclasses.replace(spec, doors=doors)


def _game(board, gangs: tuple, gen: Generated | None = None, variant: str = "core"):
    """A cached Game per (board, gangs, variant). Shipped boards stay cached; a generated board
    drops the Games of the previous generated board (one generated board alive at a time)."""
    key = (gen.kind if gen else None, board, gangs, variant)
    if key not in _GAMES:
        if gen is not None:
            for k in [k for k in _GAMES if k[0] is not None and k[1] != board]:
                del _GAMES[k]
        spec = next((g.board for k, g in _GAMES.items() if k[:2] == key[:2]), None)
        if spec is None:
            spec = _board_spec(board, gen)
        zones = int(spec.deploy.max()) + 1
        if len(gangs) > zones:
            raise ValueError(f"board {spec.name} has {zones} deployment zones, {len(gangs)} gangs asked for")
        _GAMES[key] = _soak().build_game(spec, _gang_specs(gangs), ROUND_LIMIT, variant)
    return _GAMES[key]


def game_config(seed: int, boards, n_gangs, gen: Generated | None = None, pool=GANGS):
    """The board and gangs of the game with this seed (a generated board: its board seed); the
    gangs are drawn from ``pool`` (default crews, or the --conditions-scenario test gangs)."""
    r = random.Random(seed * 7919 + 17)
    board = boards[r.randrange(len(boards))]
    if gen is not None:
        board = gen.board_seed(seed)
    n = n_gangs[r.randrange(len(n_gangs))]
    gangs = tuple(pool[r.randrange(len(pool))] for _ in range(n))
    return board, gangs


def board_label(board, gen: Generated | None) -> str:
    return str(board) if gen is None else f"gen_{gen.kind}_{board}"


def play(seed: int, boards, n_gangs, gen: Generated | None = None, variant: str = "core", pool=GANGS):
    """One game of uniform random legal play. Returns (board, gangs, decisions, rounds,
    winner, truncated, event rows of the whole game)."""
    from necro_env.core import header as H  # the event count and overflow flag of the state header

    board, gangs = game_config(seed, boards, n_gangs, gen, pool)
    game = _game(board, gangs, gen, variant)
    game.reset(seed)
    r = random.Random(seed)
    s = game.state
    mask = game.mask[0]
    chunks = [s.ev[0, : s.g[0, H.H_EVN]].copy()]
    cap = ROUND_LIMIT * 400
    n = 0
    while not game.done:
        legal = np.flatnonzero(mask)
        game.step(int(legal[r.randrange(len(legal))]))
        n += 1
        chunks.append(s.ev[0, : s.g[0, H.H_EVN]].copy())
        if s.g[0, H.H_EVOVF]:
            raise RuntimeError(f"event buffer overflowed at decision {n}")
        if n >= cap:
            raise RuntimeError(f"game not over after {cap} decisions")
    return board, gangs, n, game.round, game.winner, game.truncated, np.concatenate(chunks)


def _soak():
    """Necromunda's part of the soak (its rulesets/necromunda/soak.py: building a game, the notable-event counts),
    reached through the registry."""
    from necro_env import rulesets

    return rulesets.get("necromunda").feature("soak")()


def _notable(ev) -> Counter:
    """Counts of notable events in an (n, 8) array of event rows (the ruleset's soak.notable)."""
    return _soak().notable(ev)


def _weapon_traits():
    """T_* trait masks per (weapon id, profile) of the default weapon table (the ruleset's soak.weapon_traits)."""
    return _soak().weapon_traits()


def run_chunk(args):
    """Play the games of a job (seeds, boards, n_gangs[, gen, variant, gang pool]); return aggregated
    statistics (picklable)."""
    E_ACTION = _soak().E_ACTION

    seeds, boards, n_gangs = args[:3]
    gen = args[3] if len(args) > 3 else None
    variant = args[4] if len(args) > 4 else "core"
    pool = args[5] if len(args) > 5 else GANGS
    res = {"decisions": [], "rounds": [], "outcomes": Counter(), "events": Counter(), "actions": Counter(),
           "exceptions": [], "time": 0.0, "configs": Counter()}
    t0 = time.perf_counter()
    for seed in seeds:
        try:
            board, gangs, n, rounds, winner, trunc, ev = play(seed, boards, n_gangs, gen, variant, pool)
        except Exception:  # noqa: BLE001 - every exception is counted and reported with its seed
            board, gangs = game_config(seed, boards, n_gangs, gen, pool)
            res["exceptions"].append((seed, (board_label(board, gen), gangs), traceback.format_exc()))
            continue
        res["decisions"].append(n)
        res["rounds"].append(rounds)
        res["configs"][(board if gen is None else f"generated {gen.label()}", len(gangs))] += 1
        if trunc:
            res["outcomes"]["truncated (round limit)"] += 1
        elif winner < 0:
            res["outcomes"]["draw by elimination"] += 1
        else:
            res["outcomes"][f"win gang position {winner}"] += 1
        res["events"].update(_notable(ev))  # update keeps zero counts (+= would drop them)
        kinds = np.bincount(ev[ev[:, 0] == E_ACTION, 3].astype(np.int64))  # action kinds of activated fighters
        res["actions"].update({k: int(v) for k, v in enumerate(kinds) if v})
    res["time"] = time.perf_counter() - t0
    return res


def make_jobs(seed0: int, games: int, boards, n_gangs, gen: Generated | None = None, variant: str = "core",
              chunk: int = 20, pool=GANGS):
    """The jobs of a run. Shipped boards: chunks of ``chunk`` consecutive seeds. Generated boards:
    one job per board, all its games (seeds seed0 + i with i = board index mod N), so a board is
    built once per run and workers split the boards."""
    seeds = list(range(seed0, seed0 + games))
    if gen is None:
        return [(seeds[i:i + chunk], boards, n_gangs, None, variant, pool) for i in range(0, len(seeds), chunk)]
    return [(seeds[j::gen.count], boards, n_gangs, gen, variant, pool) for j in range(min(gen.count, games))]


def merge(parts):
    out = {"decisions": [], "rounds": [], "outcomes": Counter(), "events": Counter(), "actions": Counter(),
           "exceptions": [], "time": 0.0, "configs": Counter()}
    for p in parts:
        for k in ("decisions", "rounds", "exceptions"):
            out[k] += p[k]
        for k in ("outcomes", "events", "actions", "configs"):
            out[k].update(p[k])
        out["time"] += p["time"]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=0, help="game i uses seed SEED + i")
    ap.add_argument("--boards", default="all", help="'all' or a comma list of " + ", ".join(BOARDS))
    ap.add_argument("--gangs", default="2", help="gangs per game: a comma list of 2, 3, 4 (e.g. 2,3,4)")
    ap.add_argument("--workers", type=int, default=1, help="processes (each compiles/loads the JIT cache)")
    ap.add_argument("--only", type=int, default=None, help="replay the game with this seed and re-raise")
    ap.add_argument("--generated", default=None, metavar="KIND:FIRST-LAST",
                    help="play on generated boards (KIND sector or zm; board seeds FIRST..LAST) instead of --boards")
    ap.add_argument("--variant", default="core", choices=VARIANTS, help="rules variant")
    ap.add_argument("--conditions-scenario", action="store_true",
                    help=f"draw the gangs from the TEST gangs of configs/{CONDITIONS_SCENARIO} (a synthetic Cursed "
                         "lasgun, fighters starting Gunked / Starving / Intoxicated / Mounted / Hidden) instead of "
                         "the default crews")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    boards = BOARDS if args.boards == "all" else tuple(b.strip() for b in args.boards.split(","))
    for b in boards:
        if b not in BOARDS:
            ap.error(f"unknown board {b!r}; allowed: {', '.join(BOARDS)}")
    n_gangs = tuple(int(x) for x in args.gangs.split(","))
    if any(not 2 <= n <= 4 for n in n_gangs):
        ap.error("--gangs: each number of gangs must be 2, 3 or 4 (the boards have 4 deployment zones)")
    gen = None
    if args.generated:
        try:
            gen = parse_generated(args.generated, n_zones=max(n_gangs), base=args.seed)
        except ValueError as e:
            ap.error(str(e))

    pool = conditions_pool() if args.conditions_scenario else GANGS
    if args.only is not None:
        board, gangs, n, rounds, winner, trunc, _ = play(args.only, boards, n_gangs, gen, args.variant, pool)
        print(f"seed {args.only}: {board_label(board, gen)} {gangs}: {n} decisions, {rounds} rounds, "
              f"winner {winner}, truncated {trunc}")
        return 0

    jobs = make_jobs(args.seed, args.games, boards, n_gangs, gen, args.variant, pool=pool)
    progress = None
    if not args.no_progress and not args.json:
        try:
            from tqdm import tqdm
            progress = tqdm(total=args.games, unit="game", file=sys.stderr, smoothing=0.05)
        except ImportError:
            progress = None
    t0 = time.perf_counter()
    parts = []
    if args.workers > 1:
        import multiprocessing as mp
        with mp.get_context("spawn").Pool(args.workers) as pool:
            for p in pool.imap_unordered(run_chunk, jobs):
                parts.append(p)
                if progress:
                    progress.update(len(p["decisions"]) + len(p["exceptions"]))
    else:
        board, gangs = game_config(args.seed, boards, n_gangs, gen, pool)
        _game(board, gangs, gen, args.variant).reset(0)  # load/compile before timing games
        for job in jobs:
            p = run_chunk(job)
            parts.append(p)
            if progress:
                progress.update(len(p["decisions"]) + len(p["exceptions"]))
    wall = time.perf_counter() - t0
    if progress:
        progress.close()
    r = merge(parts)
    summary = summarize(r, args, wall)
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        report(summary, r)
    return 1 if r["exceptions"] else 0


def summarize(r, args, wall):
    KIND_NAMES = _soak().KIND_NAMES

    dec = np.array(r["decisions"]) if r["decisions"] else np.zeros(1)
    rounds = np.array(r["rounds"]) if r["rounds"] else np.zeros(1)
    total = int(dec.sum())
    return {
        "games": args.games,
        "seed": args.seed,
        "boards": args.generated and f"generated {args.generated}" or args.boards,
        "variant": args.variant,
        "generated": args.generated,
        "gangs_per_game": args.gangs,
        "conditions_scenario": bool(getattr(args, "conditions_scenario", False)),
        "exceptions": len(r["exceptions"]),
        "exception_seeds": [s for s, _, _ in r["exceptions"]][:100],
        "decisions_total": total,
        "decisions_mean": float(dec.mean()),
        "decisions_median": float(np.median(dec)),
        "decisions_max": int(dec.max()),
        "rounds_mean": float(rounds.mean()),
        "outcomes": dict(sorted(r["outcomes"].items())),
        "configs": {f"{b} x{n} gangs": v for (b, n), v in sorted(r["configs"].items())},
        "wall_seconds": wall,
        "decisions_per_second": total / wall if wall > 0 else 0.0,
        "decisions_per_second_per_worker": total / r["time"] if r["time"] > 0 else 0.0,
        "events": dict(r["events"]),
        "actions": {KIND_NAMES[k]: v for k, v in sorted(r["actions"].items()) if 0 <= k < len(KIND_NAMES)},
    }


def report(sm, r):
    print(f"games                 {sm['games']}  (seeds {sm['seed']}..{sm['seed'] + sm['games'] - 1}, boards "
          f"{sm['boards']}, {sm['gangs_per_game']} gangs per game, variant {sm['variant']})")
    print(f"exceptions            {sm['exceptions']}")
    for seed, cfg, tb in r["exceptions"][:3]:
        where = f"--generated {sm['generated']} --seed {sm['seed']}" if sm["generated"] else f"--boards {sm['boards']}"
        extra = " --conditions-scenario" if sm.get("conditions_scenario") else ""
        print(f"--- seed {seed} {cfg}: replay with  python -m benchmarks.random_games --only {seed} "
              f"{where} --gangs {sm['gangs_per_game']} --variant {sm['variant']}{extra}")
        print(tb)
    if sm["exception_seeds"]:
        print(f"exception seeds       {sm['exception_seeds'][:20]}")
    print(f"decisions per game    mean {sm['decisions_mean']:.1f}, median {sm['decisions_median']:.0f}, "
          f"max {sm['decisions_max']}")
    print(f"rounds per game       mean {sm['rounds_mean']:.2f}")
    print("outcomes")
    for k, v in sm["outcomes"].items():
        print(f"  {k:28s} {v:8d}  ({100.0 * v / max(1, len(r['decisions'])):.1f}%)")
    print("games per board")
    for k, v in sm["configs"].items():
        print(f"  {k:28s} {v:8d}")
    print(f"decisions per second  {sm['decisions_per_second']:.0f}  ({sm['decisions_total']} decisions in "
          f"{sm['wall_seconds']:.1f} s; {sm['decisions_per_second_per_worker']:.0f} per worker)")
    print("events over all games")
    for k, v in sm["events"].items():
        print(f"  {k:42s} {v:10d}")
    print("actions chosen over all games")
    print("  " + ", ".join(f"{k} {v}" for k, v in sm["actions"].items()))


if __name__ == "__main__":
    sys.exit(main())
