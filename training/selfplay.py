"""Self-play: MaskablePPO against a pool of frozen past snapshots of itself.

    necro-selfplay [--config configs/training/selfplay.yaml] [--timesteps N] [--name NAME] [--resume | --overwrite]

Training runs in chunks of ``selfplay.snapshot_every`` timesteps. After each chunk the
current policy is frozen into runs/<name>/pool/snap_<steps>.zip (+ metadata) and joins
the opponent pool; the pool keeps the ``pool_size`` newest snapshots plus the very first
one. Pool sampling, once per episode in each env (opponents are swapped only between
episodes, when the env resets):

- with probability ``heuristic_prob`` a scripted agent (gunline or aggressor, equally);
- else with probability ``latest_prob`` the newest snapshot;
- else a snapshot drawn uniformly from the pool.

Before the first snapshot exists the opponent is the random agent. With a ``pretrain:``
section (the same behaviour-cloning warm start as train.py, training/pretrain.warm_start) a
fresh run first clones the demonstrator and freezes that policy as the first snapshot,
``snap_0``, which the pool keeps for the whole run. Snapshots play with
sampled (not argmax) actions from their own generators. The learner's side is drawn at
every reset, and so is the game seed, hence the deployment.

Rating curve: every new snapshot plays ``rating_games`` paired games against the random
agent (and the other built-in ``rating_anchors``, e.g. ``[random, gunline, aggressor]``: fixed
points of the same scale, drawn as lines on the curve) and against every older snapshot still in
the pool; a Bradley-Terry fit over all such games so far (random = 0) rates every snapshot. rating_curve.csv holds one row per
snapshot (its steps and its rating in the final fit), rating_curve.png plots it, and
ratings.csv / rating_games.csv keep the fit and the games.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from necro_env.warmup import ensure as warm_up

from .common import (
    ROOT, EpisodeOpponentEnv, Interrupted, Parser, append_csv, at_least, build_game_for, check_configs_folder,
    check_scenario, has_progress_bar, input_agent, input_path, load_config, new_model, run_cli, runs_root, tb_log_dir,
    torch_setup, write_json, write_run_config,
)
from .run_folder import RunFolder, check_name, interrupt_flag, stop_callback

DEFAULT_SELFPLAY = ROOT / "configs" / "training" / "selfplay.yaml"


class OpponentPool:
    """Frozen snapshots (CheckpointAgents) and the per-episode sampling rule (module docstring)."""

    def __init__(self, sp: dict, seed: int):
        self.sp = sp
        self.paths: list[Path] = []
        self.agents: list = []
        self.rng = np.random.default_rng(seed)
        from agents import make_agent

        self.scripted = [make_agent("gunline", seed=seed + 1), make_agent("aggressor", seed=seed + 2)]
        self.random = make_agent("random", seed=seed + 3)

    def add(self, path: Path, game):
        from agents import CheckpointAgent

        self.paths.append(Path(path))
        self.agents.append(CheckpointAgent(path, game=game, deterministic=False, seed=len(self.paths),
                                           name=Path(path).stem))
        while len(self.agents) > max(1, self.sp["pool_size"]):  # drop the oldest but the first snapshot
            del self.paths[1], self.agents[1]

    def sample(self):
        r = self.rng.random()
        if r < self.sp["heuristic_prob"]:
            return self.scripted[int(self.rng.integers(len(self.scripted)))]
        if not self.agents:
            return self.random
        if self.rng.random() < self.sp["latest_prob"]:
            return self.agents[-1]
        return self.agents[int(self.rng.integers(len(self.agents)))]

    def sample_named(self):
        """(name, agent) of sample(), for common.EpisodeOpponentEnv."""
        a = self.sample()
        return getattr(a, "name", str(a)), a


def make_selfplay_venv(cfg, pool, run):
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv

    from necro_env.envs.gym_wrapper import NecromundaGymEnv

    def thunk(rank):
        def _f():
            env = NecromundaGymEnv(scenario=cfg["scenario"], encoder=cfg["encoder"], learner="random",
                                   reward=cfg["reward"])
            env = EpisodeOpponentEnv(env, pool.sample_named)
            env.reset(seed=cfg["seed"] * 1000 + rank)
            fn = run / "monitor" / f"env{rank}"
            return Monitor(env, filename=str(fn), override_existing=not fn.with_name(fn.name + ".monitor.csv").exists())
        return _f

    return DummyVecEnv([thunk(r) for r in range(cfg["n_envs"])])  # the pool is shared: one process


def rate_snapshot(game, pool_entries, new_name, new_agent, games, seed0, run, log=print, anchors=("random",)):
    """Paired games of the new snapshot against the fixed ``anchors`` (built-in agents, random first)
    and every pool member; rows appended to rating_games.csv."""
    from agents import make_agent

    from .evaluate import paired_match

    opponents = [(a, make_agent(a, seed=7)) for a in anchors] + pool_entries
    for name, agent in opponents:
        m = paired_match(game, new_agent, agent, max(1, games // 2), seed0)
        record_rating_game(run, new_name, name, m)
        log(f"[selfplay] rating {new_name} vs {name}: {m['win']}-{m['draw']}-{m['loss']}")


def record_rating_game(run: Path, agent: str, opponent: str, m: dict):
    """Append one match (``m``: games, win, draw, loss of ``agent``) to run/rating_games.csv, the
    games ``fit_ratings`` rates (necro-selfplay's and ppo_fast's self-play curves)."""
    append_csv(run / "rating_games.csv", {"agent": agent, "opponent": opponent, "games": m["games"],
                                          "win": m["win"], "draw": m["draw"], "loss": m["loss"]})


def fit_ratings(run: Path) -> dict:
    from .common import read_csv
    from .evaluate import bradley_terry

    rows = read_csv(run / "rating_games.csv")
    names = ["random"]
    for r in rows:
        for n in (r["agent"], r["opponent"]):
            if n not in names:
                names.append(n)
    matches = [(names.index(r["agent"]), names.index(r["opponent"]),
                int(r["win"]) + 0.5 * int(r["draw"]), int(r["games"])) for r in rows]
    return bradley_terry(names, matches) if matches else {"random": 0.0}


def write_rating_curve(run: Path, snapshots: list[tuple[str, int]], anchors=(), title=None):
    """Fit the ratings of rating_games.csv and write ratings.csv, rating_curve.csv and
    rating_curve.png (the snapshots' ratings against their steps, with the random agent at 0 and
    the fitted rating of every other fixed ``anchors`` opponent as a line)."""
    ratings = fit_ratings(run)
    with (run / "ratings.csv").open("w") as fh:
        fh.write("agent,rating\n")
        for n, v in ratings.items():
            fh.write(f"{n},{v:.1f}\n")
    with (run / "rating_curve.csv").open("w") as fh:
        fh.write("snapshot,timesteps,rating\n")
        for name, steps in snapshots:
            fh.write(f"{name},{steps},{ratings.get(name, float('nan')):.1f}\n")
    from .plots import line_chart

    xs = [s for _, s in snapshots]
    lines = [(f"{a} agent", xs, [ratings[a]] * len(xs), "line") for a in anchors if a != "random" and a in ratings]
    line_chart(run / "rating_curve.png", [("snapshot rating", xs, [ratings.get(n, float("nan")) for n, _ in snapshots],
                                           "both"), ("random agent", xs, [0.0] * len(xs), "line")] + lines,
               title=title or f"self-play rating curve: {run.name}", xlabel="learner steps",
               ylabel="Bradley-Terry rating (Elo)")
    return ratings


def selfplay(cfg: dict, run: Path, resume: bool = False, log=print) -> dict:
    from agents import CheckpointAgent
    from agents.checkpoint import load_model, save_checkpoint

    torch_setup(cfg.get("torch_threads", 1))
    sp = cfg["selfplay"]
    if sp is None:
        raise ValueError("the config has no selfplay: section (see configs/training/selfplay.yaml)")
    game = build_game_for(cfg)
    (run / "monitor").mkdir(exist_ok=True)
    (run / "pool").mkdir(exist_ok=True)
    state_file = run / "selfplay_state.json"
    pool = OpponentPool(sp, cfg["seed"])
    snapshots: list[tuple[str, int]] = []
    if resume and state_file.exists():
        st = json.loads(state_file.read_text())
        snapshots = [tuple(s) for s in st["snapshots"]]
        for p in st["pool"]:
            pool.add(Path(p), game)
    elif not resume:
        for f in list((run / "monitor").glob("*.csv")) + [run / "rating_games.csv", state_file]:
            f.unlink(missing_ok=True)
    venv = make_selfplay_venv(cfg, pool, run)
    last = run / "checkpoints" / "last.zip"
    if resume:
        # checks the metadata against the env, runs no code from the file (agents/checkpoint.py)
        model, _ = load_model(last, game, cfg["encoder"], env=venv, tensorboard_log=tb_log_dir(run / "tb"))
        log(f"[selfplay] resumed at {model.num_timesteps} steps with {len(pool.agents)} snapshots in the pool")
    t0 = time.time()

    def snapshot(model):
        """Freeze the current policy into the pool, rate it against random and the pool, save the state."""
        n = int(model.num_timesteps)
        name = f"snap_{n}"
        path = save_checkpoint(model, run / "pool" / f"{name}.zip", game, cfg["encoder"], {"run": cfg["name"]})
        save_checkpoint(model, last, game, cfg["encoder"], {"run": cfg["name"]})
        new_agent = CheckpointAgent(path, game=game, deterministic=False, seed=99, name=name)
        rate_snapshot(game, [(a.name, a) for a in pool.agents], name, new_agent, sp["rating_games"],
                      seed0=200_000 + n, run=run, log=log, anchors=sp["rating_anchors"])
        pool.add(path, game)
        snapshots.append((name, n))
        write_json(state_file, {"snapshots": snapshots, "pool": [str(p) for p in pool.paths]})
        ratings = write_rating_curve(run, snapshots, sp["rating_anchors"])
        log(f"[selfplay] {n} steps ({time.time() - t0:.0f} s): pool {[a.name for a in pool.agents]}, "
            f"rating of {name}: {ratings.get(name, 0):+.0f}")

    if not resume:
        model = new_model(cfg, venv, run / "tb", game)
        from .pretrain import warm_start

        if warm_start(model, cfg, run, game, log=log) is not None:
            snapshot(model)  # the cloned policy is the pool's first snapshot, snap_0 (kept for the whole run)
    with interrupt_flag() as stop:  # Ctrl-C: stop at the next step, save last.zip, say how to resume
        while model.num_timesteps < cfg["total_timesteps"] and not stop.requested:
            chunk = min(sp["snapshot_every"], cfg["total_timesteps"] - model.num_timesteps)
            model.learn(total_timesteps=chunk, reset_num_timesteps=False, progress_bar=has_progress_bar(),
                        tb_log_name="selfplay", callback=stop_callback(stop, log, "selfplay"))
            if not stop.requested:
                snapshot(model)
    if stop.requested:  # the pool and the rating curve stay at the last snapshot (selfplay_state.json)
        saved = save_checkpoint(model, last, game, cfg["encoder"], {"run": cfg["name"]})
        venv.close()
        raise Interrupted(int(model.num_timesteps), saved)
    save_checkpoint(model, run / "final.zip", game, cfg["encoder"], {"run": cfg["name"]})
    venv.close()
    ratings = write_rating_curve(run, snapshots, sp["rating_anchors"])
    return {"snapshots": snapshots, "ratings": ratings, "timesteps": int(model.num_timesteps), "game": game}


def main(argv=None):
    """necro-selfplay: the arguments and the config checked, the run folder claimed
    (training.run_folder), then the run."""
    args = parse_args(argv)
    check_configs_folder()
    config = input_path("--config", args.config)
    cfg = load_config(config, {"total_timesteps": args.timesteps, "selfplay.snapshot_every": args.snapshot_every,
                               "n_envs": args.n_envs, "name": args.name, "eval.games": args.eval_games,
                               "init_from": input_agent(args.init_from)})
    check_selfplay_config(cfg, config)
    check_scenario(cfg)
    with RunFolder(runs_root(args.runs_dir), cfg["name"], "necro-selfplay", resume=args.resume,
                   overwrite=args.overwrite, argv=argv) as folder:  # refused here at once if in use
        warm_up()
        from .pretrain import check_warm_start

        check_warm_start(cfg, "necro-selfplay", resume=args.resume)
        run = folder.claim()
        write_run_config(run, cfg)
        out = selfplay(cfg, run, resume=args.resume)
        if cfg["eval"]["games"] > 0:
            from .train import final_evaluation

            final_evaluation(run, cfg, out["game"])
    print("snapshot ratings (Bradley-Terry, random = 0):")
    for name, steps in out["snapshots"]:
        print(f"  {name:>16} {steps:>9} steps  {out['ratings'].get(name, 0):+.0f}")
    print(f"[selfplay] outputs in {run}")
    return out


def parse_args(argv=None):
    """necro-selfplay's arguments, the numbers and the run name checked (UsageError) before any work."""
    ap = Parser(prog="necro-selfplay", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", type=Path, default=DEFAULT_SELFPLAY,
                    help="a training config with a selfplay: section; a relative path is looked for in the working "
                         "directory, then the repository root, then configs/")
    ap.add_argument("--timesteps", type=int, default=None)
    ap.add_argument("--snapshot-every", type=int, default=None)
    ap.add_argument("--n-envs", type=int, default=None)
    ap.add_argument("--name", default=None, help="run name (default: the config's name): one folder name")
    ap.add_argument("--runs-dir", default=None)
    ap.add_argument("--resume", action="store_true", help="continue from runs/<name>/checkpoints/last.zip")
    ap.add_argument("--overwrite", action="store_true",
                    help="delete an earlier run of this name and start again (without it an existing run is refused)")
    ap.add_argument("--eval-games", type=int, default=None, help="final evaluation games per opponent (0: skip)")
    ap.add_argument("--init-from", default=None, metavar="CHECKPOINT",
                    help="start from this checkpoint's policy (init_from; e.g. a pretrain run's bc.zip) instead "
                         "of the warm start")
    args = ap.parse_args(argv)
    for flag, value, least in (("--timesteps", args.timesteps, 1), ("--snapshot-every", args.snapshot_every, 1),
                               ("--n-envs", args.n_envs, 1), ("--eval-games", args.eval_games, 0)):
        at_least(flag, value, least)
    if args.name is not None:
        check_name(args.name)
    return args


def check_selfplay_config(cfg: dict, config) -> None:
    """What necro-selfplay needs of a training config beyond its schema: a selfplay: section, and
    Python envs (the pool's snapshots are checkpoints)."""
    from necro_env.config.errors import MISSING, ConfigError

    if cfg["selfplay"] is None:
        raise ConfigError(config, "selfplay", MISSING, "necro-selfplay needs a selfplay: section (see "
                                                       "configs/training/selfplay.yaml)")
    if cfg["vec_env"] == "batched":
        raise ConfigError(config, "vec_env", "batched", "necro-selfplay plays its pool of checkpoints in "
                                                        "Python envs: expected dummy")


def cli(argv=None) -> None:
    """The console script's entry point (common.run_cli): a refused input is one line and exit 2,
    Ctrl-C saves a checkpoint and exits 130 with the command that resumes the run."""
    run_cli("necro-selfplay", main, argv)


if __name__ == "__main__":
    cli()
