"""Round-robin evaluation of agents and checkpoints with paired games and ratings.

    necro-eval random gunline aggressor runs/maskppo_default/final.zip [--pairs 100] [--name NAME] [--json]
    necro-eval gunline aggressor random --against random --pairs 500      # each heuristic vs random only
    necro-eval gunline aggressor runs/ppo_fast_pointer_planes_draw.pt     # a training/ppo_fast.py --save network
    necro-eval sentry gunline --against gunline --pairs 500 --streams 8    # every pair again with 7 other player seeds

Every pair of agents plays ``--pairs`` seeds twice, with sides swapped: both games of a
pair use the same game seed, so the same deployment and the same dice stream (agents
draw their own choices from their own generators, never from the game's dice), which
cancels most of the luck of the dice out of the comparison. With ``--streams K`` every pair is
played K times, the k-th time with the players' generators seeded ``agents.play.STREAM_STEP * k``
further on (k = 0: the usual games): the scripts' tie-breaks and a sampling agent's draws vary, the game
seeds do not (docs/training.md, "Repeats with other player seeds"). Reported per match: wins,
draws and losses of the first agent, its score ((W + D/2) / N) with a 95% Wilson
interval. Ratings: a Bradley-Terry fit over all games (a draw counts half a win to each
side), on the Elo scale (400 x log10 odds), anchored at 0 for ``random`` when it plays
(else the mean is 0). Paired differences: where two agents played the same opponent (with
``--against X``, every two agents), their per-game score and win-rate differences on those same
games with 95% paired intervals, the way to tell two checkpoints apart. Writes to runs/<name>/:
config.yaml (the command's arguments), eval.md (tables), eval.csv (matches), eval_paired.csv (the
paired differences), ratings.csv, eval.png (score matrix and ratings), eval.json, and
final_game.json / final_game.log (the first match's first game replayed with its battle log).
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from necro_env import rulesets
from necro_env.warmup import ensure as warm_up

from .common import (
    Parser, UsageError, check_configs_folder, input_agent, input_path, run_cli, runs_root, write_json,
)
from .run_folder import RunFolder, check_name


# ------------------------------------------------------------------ statistics
def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion k / n (k may be fractional: draws count half)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    c = (p + z * z / (2 * n)) / den
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, c - h), min(1.0, c + h)


def bradley_terry(names, matches, iters: int = 2000, prior: float = 0.5) -> dict:
    """Elo-scale Bradley-Terry ratings from matches [(i, j, score_i, n)] (score_i = W + D/2).

    MM iterations (Hunter 2004) with ``prior`` virtual draws against every opponent played,
    so an unbeaten agent gets a finite rating. Anchored at 0 for "random" if present."""
    k = len(names)
    w = np.zeros(k)
    n = np.zeros((k, k))
    for i, j, s, m in matches:
        w[i] += s + prior / 2
        w[j] += (m - s) + prior / 2
        n[i, j] += m + prior
        n[j, i] += m + prior
    p = np.ones(k)
    for _ in range(iters):
        den = np.array([sum(n[i, j] / (p[i] + p[j]) for j in range(k) if n[i, j]) for i in range(k)])
        new = np.where(den > 0, w / np.maximum(den, 1e-12), p)
        new /= np.exp(np.mean(np.log(np.maximum(new, 1e-300))))
        if np.max(np.abs(np.log(new) - np.log(p))) < 1e-10:
            p = new
            break
        p = new
    r = 400.0 * np.log10(p)
    anchor = r[list(names).index("random")] if "random" in names else r.mean()
    return {nm: float(v - anchor) for nm, v in zip(names, r)}


# ------------------------------------------------------------------ games
def paired_match(game, a, b, pairs: int, seed0: int = 0, streams: int = 1, play=None) -> dict:
    """``pairs`` seeds, each played with a as gang 0 then with sides swapped; counts are a's.
    ``by_side[g]`` holds a's [win, draw, loss] while it played gang g: on a scenario whose gangs
    differ, the side can decide more games than the agents do (docs/training.md, "Sides").
    ``streams``: every pair is played that many times, stream k with the players' generators seeded
    by ``agents.play.player_seed(seed, g, k)`` (the same deployments and dice, other tie-breaks and
    sampled choices);
    ``by_stream[k]`` holds a's [win, draw, loss] in stream k, the other counts are over all streams;
    ``outcomes`` lists every game's result for a (0 win, 1 draw, 2 loss) in the order played (stream,
    seed, side), so two agents' matches against the same opponent on the same seeds pair game by game
    (:func:`paired_difference`). ``play``: what plays one game (default ``agents.play.play_game``;
    necro-eval --ray passes the games its Ray workers played, training/distributed/evaluation.py)."""
    sides = getattr(game.dims, "n_gangs", 2)  # a ruleset without gangs (Firefight) has two players
    if sides != 2:
        raise ValueError(f"paired evaluation needs a 2-gang scenario, got {sides} gangs")
    if streams < 1:
        raise ValueError(f"streams must be at least 1, got {streams}")
    from agents.play import play_game

    play_game = play or play_game
    out = {"win": 0, "draw": 0, "loss": 0, "games": 0, "truncated": 0, "rounds": 0, "decisions": 0,
           "by_side": [[0, 0, 0], [0, 0, 0]], "by_stream": [[0, 0, 0] for _ in range(streams)], "outcomes": []}
    for s in range(streams):
        for i in range(pairs):
            seed = seed0 + i
            for side in (0, 1):
                seats = [a, b] if side == 0 else [b, a]
                r = play_game(game, seats, seed=seed, stream=s)
                out["games"] += 1
                out["truncated"] += int(r.truncated)
                out["rounds"] += r.rounds
                out["decisions"] += r.decisions
                j = 1 if r.winner < 0 else (0 if r.winner == side else 2)  # a's win, draw or loss
                out[("win", "draw", "loss")[j]] += 1
                out["by_side"][side][j] += 1
                out["by_stream"][s][j] += 1
                out["outcomes"].append(j)
    return out


GAME_SCORE = (1.0, 0.5, 0.0)  # a game's score by outcome code (win, draw, loss), as summarize's score


GAME_WIN = (1.0, 0.0, 0.0)  # ... and whether it is a win (a win-rate difference)


def paired_difference(new, old, values=GAME_SCORE) -> tuple[float, float]:
    """(mean, standard error) of the per-game score difference new - old between two lists of
    outcome codes of the same games (paired_match's ``outcomes``: the same seeds, sides and
    opponents, game by game); ``values=GAME_WIN`` for the win-rate difference. The standard error
    is the paired one, sd(d) / sqrt(n), so games that both policies win (or both lose) narrow it
    rather than widen it."""
    if len(new) != len(old) or not new:
        raise ValueError(f"paired_difference needs the same games on both sides, got {len(new)} and {len(old)}")
    v = np.asarray(values)
    d = v[np.asarray(new)] - v[np.asarray(old)]
    se = d.std(ddof=1) / math.sqrt(len(d)) if len(d) > 1 else 0.0
    return float(d.mean()), float(se)


def replaces_kept(score, outcomes, kept_score, kept_outcomes, margin: float = 0.0):
    """keep_best's rule (necro-train's eval.keep_margin, ppo_fast's --keep-margin): whether a policy
    with mean periodic score ``score`` and per-game ``outcomes`` replaces the kept one (``kept_score``,
    ``kept_outcomes``). With ``margin`` 0, or outcomes that do not pair (missing, or of other games),
    by mean score (ties to the later policy, which has trained longer); with margin z > 0 and paired
    outcomes, only when the mean per-game score difference exceeds z standard errors of the paired
    difference (:func:`paired_difference`), so the periodic games' noise does not choose. Returns
    (replace, test): ``test`` the paired (difference, standard error) when the paired test decided,
    else None."""
    if margin > 0 and outcomes is not None and kept_outcomes is not None and len(outcomes) == len(kept_outcomes):
        diff, se = paired_difference(outcomes, kept_outcomes)
        return diff > margin * se, (diff, se)
    return score >= kept_score, None


def seen_by_second(outcomes) -> list[int]:
    """A match's outcome codes as its second agent saw them, in the first agent's layout (per pair
    of games: the game where it played gang 0, then gang 1): within each pair the two games swap
    and a win becomes a loss. Two agents' codes against one opponent then pair game by game."""
    out = []
    for k in range(0, len(outcomes), 2):
        out += [2 - outcomes[k + 1], 2 - outcomes[k]]
    return out


def paired_comparisons(matches: list[tuple[str, str, list]], z: float = 1.96) -> list[dict]:
    """For every opponent that two or more agents played (``matches``: (first, second, outcome
    codes) of one round robin: the same seeds, sides and streams), each two such agents'
    per-game differences on those games: score and win rate, with z paired standard errors
    (usually far tighter than the two matches' separate intervals: the same deployments and dice
    cancel out of the difference)."""
    seen: dict[str, list[tuple[str, list]]] = {}  # opponent -> [(agent, its codes against it)]
    for a, b, codes in matches:
        seen.setdefault(b, []).append((a, list(codes)))
        seen.setdefault(a, []).append((b, seen_by_second(codes)))
    rows = []
    for opp, played in seen.items():
        for (na, ca), (nb, cb) in itertools.combinations(played, 2):
            ds, ss = paired_difference(ca, cb)
            dw, sw = paired_difference(ca, cb, GAME_WIN)
            rows.append({"agent": na, "minus": nb, "against": opp, "games": len(ca),
                         "score_diff": ds, "score_diff_low": ds - z * ss, "score_diff_high": ds + z * ss,
                         "win_rate_diff": dw, "win_rate_diff_low": dw - z * sw, "win_rate_diff_high": dw + z * sw})
    return rows


def summarize(name_a, name_b, m: dict) -> dict:
    n = m["games"]
    score = m["win"] + 0.5 * m["draw"]
    lo, hi = wilson(score, n)
    wlo, whi = wilson(m["win"], n)
    return {"agent": name_a, "opponent": name_b, "games": n, "win": m["win"], "draw": m["draw"], "loss": m["loss"],
            "win_rate": m["win"] / max(n, 1), "win_ci_low": wlo, "win_ci_high": whi,
            "score": score / max(n, 1), "score_ci_low": lo, "score_ci_high": hi,
            "draws_at_round_limit": m["truncated"], "mean_rounds": m["rounds"] / max(n, 1),
            "mean_decisions": m["decisions"] / max(n, 1),
            "as_gang_0": "-".join(map(str, m["by_side"][0])), "as_gang_1": "-".join(map(str, m["by_side"][1])),
            "streams": len(m["by_stream"]), "wins_by_stream": " ".join(str(s[0]) for s in m["by_stream"])}


def round_robin(game, agents: dict, pairs: int, seed0: int = 0, pairs_only=None, log=print, streams: int = 1,
                paired: bool = True, play=None) -> dict:
    """Every pair of ``agents`` (name -> Agent) plays a paired match; returns matches and ratings.
    ``pairs_only``: restrict to these (name_a, name_b) pairs (e.g. one learner against each);
    ``streams``: each match's pairs played that many times (:func:`paired_match`); ``paired``: also
    every two agents' paired differences against each opponent they both played
    (:func:`paired_comparisons`); ``play``: as :func:`paired_match`'s."""
    names = list(agents)
    todo = pairs_only or list(itertools.combinations(names, 2))
    rows, bt, played = [], [], []
    for na, nb in todo:
        t0 = time.time()
        m = paired_match(game, agents[na], agents[nb], pairs, seed0, streams, play=play)
        played.append((na, nb, m["outcomes"]))
        row = summarize(na, nb, m)
        row["seconds"] = round(time.time() - t0, 1)
        rows.append(row)
        bt.append((names.index(na), names.index(nb), m["win"] + 0.5 * m["draw"], m["games"]))
        if log:
            log(f"[eval] {na} vs {nb}: {m['win']}-{m['draw']}-{m['loss']} (W-D-L of {m['games']}), "
                f"score {row['score']:.3f} [{row['score_ci_low']:.3f}, {row['score_ci_high']:.3f}], {row['seconds']} s")
    ratings = bradley_terry(names, bt) if len(names) > 1 else {names[0]: 0.0}
    return {"agents": names, "pairs": pairs, "seed0": seed0, "streams": streams, "matches": rows, "ratings": ratings,
            "paired": paired_comparisons(played) if paired else []}


# ------------------------------------------------------------------ outputs
def markdown(res: dict) -> str:
    streams = res.get("streams", 1)
    more = streams > 1  # a column of wins per stream
    seat = rulesets.get(res.get("game", "necromunda")).players  # the game's name of a seat: gang, player
    lines = [f"Paired games: {res['pairs']} seeds x 2 sides per match (seeds {res['seed0']}..."
             f"{res['seed0'] + res['pairs'] - 1})"
             + (f", each pair played in {streams} streams of player seeds" if more else "")
             + "; counts are the first agent's; 95% Wilson intervals.", "",
             "| agent | opponent | games | win | draw | loss | win rate [95% CI] | score [95% CI] "
             f"| draws at round limit | W-D-L as {seat} 0 | as {seat} 1 |" + (" wins by stream |" if more else ""),
             "|---|---|---|---|---|---|---|---|---|---|---|" + ("---|" if more else "")]
    for r in res["matches"]:
        lines.append(f"| {r['agent']} | {r['opponent']} | {r['games']} | {r['win']} | {r['draw']} | {r['loss']} | "
                     f"{r['win_rate']:.3f} [{r['win_ci_low']:.3f}, {r['win_ci_high']:.3f}] | "
                     f"{r['score']:.3f} [{r['score_ci_low']:.3f}, {r['score_ci_high']:.3f}] | "
                     f"{r['draws_at_round_limit']} | {r['as_gang_0']} | {r['as_gang_1']} |"
                     + (f" {r['wins_by_stream']} |" if more else ""))
    lines += ["", "| agent | rating (Bradley-Terry, Elo scale) |", "|---|---|"]
    for nm, v in sorted(res["ratings"].items(), key=lambda kv: -kv[1]):
        lines.append(f"| {nm} | {round(v) + 0:+d} |")
    if res.get("paired"):
        lines += ["", "Paired differences: two agents on the same games against one opponent (the same seeds, "
                  "sides and streams), per game, with 95% paired intervals.", "",
                  "| agent | minus | against | games | score difference [95% CI] | win-rate difference [95% CI] |",
                  "|---|---|---|---|---|---|"]
        for r in res["paired"]:
            lines.append(f"| {r['agent']} | {r['minus']} | {r['against']} | {r['games']} | "
                         f"{r['score_diff']:+.3f} [{r['score_diff_low']:+.3f}, {r['score_diff_high']:+.3f}] | "
                         f"{r['win_rate_diff']:+.3f} [{r['win_rate_diff_low']:+.3f}, {r['win_rate_diff_high']:+.3f}] |")
    if res.get("ray"):  # necro-eval --ray: how the games were played, and that none was lost
        r = res["ray"]
        lines += ["", f"Played on Ray: {r['workers']} workers, {r['batches']} batches ({r['retried']} retried after "
                  f"a worker died), games dropped: {r['games_dropped']}."]
    return "\n".join(lines) + "\n"


def write_outputs(run: Path, res: dict, stem: str = "eval") -> list[Path]:
    import csv

    run.mkdir(parents=True, exist_ok=True)
    md = run / f"{stem}.md"
    md.write_text(markdown(res))
    with (run / f"{stem}.csv").open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(res["matches"][0]))
        w.writeheader()
        w.writerows(res["matches"])
    with (run / "ratings.csv" if stem == "eval" else run / f"{stem}_ratings.csv").open("w", newline="") as fh:
        fh.write("agent,rating\n")
        for nm, v in res["ratings"].items():
            fh.write(f"{nm},{v:.1f}\n")
    paths = [md, run / f"{stem}.csv"]
    if res.get("paired"):
        with (run / f"{stem}_paired.csv").open("w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(res["paired"][0]))
            w.writeheader()
            w.writerows(res["paired"])
        paths.append(run / f"{stem}_paired.csv")
    else:  # no two agents shared an opponent: no table (and none left from an earlier run of this name)
        (run / f"{stem}_paired.csv").unlink(missing_ok=True)
    write_json(run / f"{stem}.json", res)
    paths.append(run / f"{stem}.json")
    paths.append(plot(res, run / f"{stem}.png"))
    return paths


def plot(res: dict, path: Path) -> Path:
    """Score matrix and ratings (training/plots.py, Pillow)."""
    from .plots import bars_and_matrix

    names = res["agents"]
    mat = [[None] * len(names) for _ in names]
    for r in res["matches"]:
        i, j = names.index(r["agent"]), names.index(r["opponent"])
        mat[i][j] = r["score"]
        mat[j][i] = 1 - r["score"]
    return bars_and_matrix(path, names, mat, res["ratings"])


# ------------------------------------------------------------------ CLI
def build_agent(spec: str, game):
    """(table name, Agent) for one necro-eval spec (``agents.make_agent``: a built-in name, a
    checkpoint .zip, a ppo_fast --save .pt network, sides:a,b, or rollout:<spec>: the search agent
    around another), the agent checked against
    ``game`` and playing its most likely actions."""
    from agents.base import agent_name, make_agent

    return agent_name(spec), make_agent(spec, game=game)


def build_agents(specs, game) -> dict:
    out = {}
    for spec in specs:
        name, agent = build_agent(spec, game)
        base, i = name, 2
        while name in out:
            name = f"{base}#{i}"
            i += 1
        out[name] = agent
    return out


class RulesetModelAgent:
    """A MaskablePPO trained on a registry game (train_ruleset) as an agent of agents.game_agent.play_match:
    it encodes the player to move with the encoder it trained on and plays its most likely legal action."""

    def __init__(self, model, game_name: str, encoder: str, name: str = "learner"):
        from necro_env.envs.ruleset_env import make_encoder

        # not ``encoder``: RulesetGymEnv reads that attribute of an opponent as the name of one to encode for it
        self.model, self.name = model, name
        self._encoder = make_encoder(rulesets.get(game_name), encoder)

    @classmethod
    def from_checkpoint(cls, path, game, name: str):
        """A checkpoint's policy, its metadata checked against ``game`` (agents/checkpoint.py refuses one
        trained on another game, in one line) and nothing in the file executed."""
        from agents.checkpoint import load_model

        model, meta = load_model(path, game)
        return cls(model, game.ruleset, meta["encoder"], name)

    def reset(self, seed=None):
        pass

    def act(self, obs, mask, game=None):
        from necro_env.core.header import H_DPLAYER

        obs = self._encoder.encode(game, int(game.state.g[0, H_DPLAYER]))
        a, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
        return int(a)


def ruleset_play(game, seats, seed: int, stream: int = 0):
    """One game of a registry game other than Necromunda (agents.game_agent.play_match reads whose turn it is
    from the state header), shaped as paired_match's ``play``; parse_args refuses --streams > 1 for such games."""
    from agents.game_agent import play_match

    return play_match(game, seats, seed)


def ruleset_agents(game_name: str, specs, game) -> dict:
    """The agents of a registry game other than Necromunda by their table names: its scripts
    (agents.game_agent.make_game_agent) and checkpoints (RulesetModelAgent); a Ray actor builds the same
    (training/distributed/evaluation.py). ValueError naming a spec the game does not know."""
    from agents.base import agent_name
    from agents.game_agent import make_game_agent

    agents = {}
    for i, spec in enumerate(specs):
        name = agent_name(spec) if spec.endswith(".zip") else spec  # a script's name as it is
        name = name if name not in agents else f"{name}#{i + 1}"
        agents[name] = (RulesetModelAgent.from_checkpoint(spec, game, name)
                        if spec.endswith(".zip") else make_game_agent(game_name, spec, seed=i))
    return agents


def ruleset_round_robin(args, log, argv=None) -> tuple[dict, list[Path]]:
    """necro-eval --game <not necromunda> (2026-12-02, Firefight): its default game (the ruleset's
    ``make_game({})``), agents built by ``agents.game_agent.make_game_agent`` (the ruleset's scripts), the same
    paired round robin, tables and files; no final_game.json (its battle log is Necromunda's)."""
    game = rulesets.get(args.game).make_game({})
    specs = [input_agent(spec) for spec in args.agents]  # a checkpoint's absolute path: Ray actors load it too
    try:
        agents = ruleset_agents(args.game, specs, game)
    except ValueError as exc:  # an unknown agent, or a checkpoint of another game (CheckpointMismatch): one line
        raise SystemExit(f"necro-eval: {exc}") from None
    only = None
    if args.against is not None:
        if args.against not in agents:
            raise UsageError(f"--against {args.against!r} is not one of the agents: {', '.join(agents)}")
        only = [(n, args.against) for n in agents if n != args.against]
    with RunFolder(runs_root(args.runs_dir), args.name, "necro-eval", overwrite=args.overwrite, argv=argv,
                   resumable=False) as folder:
        run = folder.claim()
        if args.ray is None:
            res = round_robin(game, agents, args.pairs, args.seed, pairs_only=only, log=log, play=ruleset_play)
        else:  # the same games on Ray actors, each building these agents (training/distributed/evaluation.py)
            from .distributed.evaluation import ray_round_robin

            res = ray_round_robin(game, None, specs, list(agents), args.pairs, args.seed, pairs_only=only, log=log,
                                  address=None if args.ray == "local" else args.ray, workers=args.workers,
                                  game_name=args.game)
        res["game"] = args.game
        paths = write_outputs(run, res)
        import yaml

        (run / "config.yaml").write_text(yaml.safe_dump(dict(vars(args)), sort_keys=False))
    return res, paths


def main(argv=None):
    """necro-eval: the arguments, the scenario and the output folder checked before any game is
    played (the folder claimed as training.run_folder does for a training run), then the games."""
    args = parse_args(argv)
    check_configs_folder()
    if args.game != "necromunda":
        return _report(args, *ruleset_round_robin(args, _logger(args), argv))
    from necro_env.config.loader import load_scenario

    scenario = load_scenario(input_path("--scenario", args.scenario))  # a bad file is refused before the folder
    specs = [input_agent(spec) for spec in args.agents]
    # each match's line as soon as it is played, also when the output goes to a file (a match of 1,000
    # games takes minutes; a block-buffered log shows nothing until the end)
    log = _logger(args)
    with RunFolder(runs_root(args.runs_dir), args.name, "necro-eval", overwrite=args.overwrite, argv=argv,
                   resumable=False) as folder:
        warm_up()
        from necro_env.envs.necromunda_env import build_game

        game = build_game(scenario)
        try:
            agents = build_agents(specs, game)
        except ValueError as exc:  # an unknown name, a malformed sides: spec, a refused checkpoint .zip or network
            # .pt (CheckpointMismatch): one line naming the file, no traceback
            raise SystemExit(f"necro-eval: {exc}") from None
        only = None
        if args.against is not None:
            if args.against not in agents:
                raise UsageError(f"--against {args.against!r} is not one of the agents: {', '.join(agents)}")
            only = [(n, args.against) for n in agents if n != args.against]
        run = folder.claim()
        if args.ray is None:
            res = round_robin(game, agents, args.pairs, args.seed, pairs_only=only, log=log, streams=args.streams)
        else:  # the same games on Ray actors (training/distributed/evaluation.py; docs/distributed.md)
            from .distributed.evaluation import ray_round_robin

            scen = input_path("--scenario", args.scenario)  # absolute: the actors may run in another folder
            res = ray_round_robin(game, scen and str(Path(scen).resolve()), specs, list(agents), args.pairs,
                                  args.seed, pairs_only=only, log=log, streams=args.streams,
                                  address=None if args.ray == "local" else args.ray, workers=args.workers)
        paths = write_outputs(run, res)
        import yaml

        from .common import record_final_game

        (run / "config.yaml").write_text(yaml.safe_dump(dict(vars(args)), sort_keys=False))
        na, nb = res["matches"][0]["agent"], res["matches"][0]["opponent"]
        paths += record_final_game(run, game, [agents[na], agents[nb]], seed=args.seed, agent_names=[na, nb])
    return _report(args, res, paths)


def _logger(args):
    """Each match's line as soon as it is played, on stderr with --json (stdout holds the JSON)."""
    return (lambda m: print(m, file=sys.stderr, flush=True)) if args.json else (lambda m: print(m, flush=True))


def _report(args, res: dict, paths) -> dict:
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        print(markdown(res))
        print("wrote " + ", ".join(str(p) for p in paths))
    return res


def parse_args(argv=None):
    """necro-eval's arguments, the numbers and the run name checked before any work."""
    from necro_env.config.agent_spec import POLICY_NAMES, listed

    ap = Parser(prog="necro-eval", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("agents", nargs="+", help=f"{listed(POLICY_NAMES, None)}, rollout (the search agent), "
                                              "checkpoint .zip paths, ppo_fast --save .pt networks, sides:a,b (gang 0 "
                                              "played by a, gang 1 by b), or rollout:<agent> (the search agent "
                                              "with that agent's action as a candidate) (at least 2)")
    ap.add_argument("--game", default="necromunda",
                    help="the game of the registry (necro_env.rulesets.names(): necromunda, firefight); for "
                         "firefight the agents are its scripts (holder, charger, random)")
    ap.add_argument("--pairs", type=int, default=50, help="seeds per match; each is played from both sides")
    ap.add_argument("--seed", type=int, default=100_000, help="first game seed")
    ap.add_argument("--streams", type=int, default=1, metavar="K",
                    help="play every pair K times, with other seeds for the players' own generators each time "
                         "(the same deployments and dice; the scripts' tie-breaks and sampled choices vary): "
                         "how much of a difference is the players' own chance")
    ap.add_argument("--scenario", default=None, help="scenario file (default: configs/scenarios/gang_fight.yaml)")
    ap.add_argument("--name", default="eval", help="run folder name under runs/ (one folder name)")
    ap.add_argument("--runs-dir", default=None)
    ap.add_argument("--overwrite", action="store_true",
                    help="replace an earlier evaluation of this name (without it an existing folder is refused)")
    ap.add_argument("--against", default=None, metavar="AGENT",
                    help="play only the matches of every other agent against this one (not the full round robin)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON on stdout (logs go to stderr)")
    ap.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                    help="play the games on Ray actors, one per CPU: a local Ray on this machine's cores, or the "
                         "cluster at ADDRESS (host:port, or $RAY_ADDRESS); the same results game for game "
                         "(docs/distributed.md; needs the distributed extra)")
    ap.add_argument("--auth-token-file", default=None, metavar="PATH",
                    help="with --ray ADDRESS: the cluster's authentication token (Ray's token mode)")
    ap.add_argument("--workers", type=int, default=None, metavar="N",
                    help="with --ray: N actors (default: one per CPU of the cluster)")
    args = ap.parse_args(argv)
    if len(args.agents) < 2:
        ap.error("give at least two agents")
    if args.pairs < 1:
        ap.error("--pairs must be at least 1")
    if args.streams < 1:
        ap.error(f"--streams must be at least 1, got {args.streams}")
    check_name(args.name)
    check_game(args)
    if args.workers is not None and (args.ray is None or args.workers < 1):
        ap.error(f"--workers {args.workers}: a number of Ray actors, at least 1, with --ray")
    if args.ray is not None:  # refused before any work: a malformed address, a missing token file, no Ray
        from .distributed import check_address, require_ray, use_token

        try:
            require_ray("ray")
            check_address(None if args.ray == "local" else args.ray)
            use_token(args.auth_token_file)
        except (ValueError, ImportError) as exc:  # one line (run_cli), no traceback
            raise UsageError(f"--ray: {exc}") from None
    return args


def check_game(args) -> None:
    """--game names a game of the registry; a game other than Necromunda is played on its default game by
    one stream of player seeds, so --scenario and --streams > 1 are refused for it (each is Necromunda's today,
    2026-12-02) before any work; --ray plays its games on Ray actors as Necromunda's (since 2026-12-02)."""
    if args.game not in rulesets.names():
        raise UsageError(f"--game {args.game!r}: allowed: {', '.join(rulesets.names())}")
    if args.game == "necromunda":
        return
    for flag, given in (("--scenario", args.scenario is not None), ("--streams", args.streams != 1)):
        if given:
            raise UsageError(f"{flag} with --game {args.game}: allowed only with --game necromunda today")


def cli(argv=None) -> None:
    """The console script's entry point (common.run_cli): a refused input is one line and exit 2."""
    run_cli("necro-eval", main, argv)


if __name__ == "__main__":
    cli()
