"""Train a MaskablePPO agent (sb3-contrib) against a chosen opponent from a YAML config.

    necro-train [--config configs/training/default.yaml] [--opponent gunline] [--timesteps N]
                [--demonstrator sides:gunline,aggressor] [--init-from bc.zip] [--name NAME] [--resume | --overwrite]
                [--eval-games N]

The opponent is a compiled policy (``random``, ``gunline``, ...: the names ``--opponent`` lists)
or a checkpoint .zip (config key ``opponent``), or a mix of them with weights
(``{random: 0.2, gunline: 0.4, aggressor: 0.4}``, on the command line
``random=0.2,gunline=0.4,aggressor=0.4``) from which each env draws its
opponent at every reset (common.OpponentMix); rewards follow the config's ``reward`` section
(necro_env/envs/rewards.py). With a ``pretrain:`` section a fresh run starts with the
behaviour-cloning warm start (training/pretrain.py); with ``init_from:`` (``--init-from``) it starts
from that checkpoint's policy instead (e.g. a ``python -m training.pretrain`` run's bc.zip).
Writes runs/<name>/: config.yaml (resolved), tb/ (TensorBoard), monitor/ (episode logs),
checkpoints/step_<N>.zip + .meta.json every ``checkpoint_every`` steps and last.zip,
progress.csv (periodic paired evaluation against the opponent, or each opponent of the mix), final.zip, eval.md /
eval.csv / eval.json / eval.png (final paired evaluation against ``eval.opponents``),
training_curve.png and final_game.json / final_game.log (one game of the final agent).
``--resume`` continues from checkpoints/last.zip after an interruption, with the
optimizer state and the step counter of the checkpoint; Ctrl-C saves that checkpoint and prints the
command that resumes. A run name that already holds a run is refused without ``--resume`` or
``--overwrite`` (training/run_folder.py; docs/training.md, "Run folders").
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from necro_env.warmup import ensure as warm_up

from .common import (
    DEFAULT_CONFIG, Interrupted, Parser, UsageError, append_csv, at_least, build_game_for, check_configs_folder,
    check_scenario, has_progress_bar, input_agent, input_path, load_config, make_vec_env, new_model, opponent_label,
    parse_opponent_arg, read_csv, record_final_game, run_cli, runs_root, tb_log_dir, torch_setup, write_json,
    write_run_config,
)
from .run_folder import RunFolder, check_name, interrupt_flag, stop_callback


def _callback_cls():
    from stable_baselines3.common.callbacks import BaseCallback

    class RunCallback(BaseCallback):
        """Checkpoints (with metadata) and periodic paired evaluation against the training opponent."""

        def __init__(self, cfg, run, game, log=print):
            super().__init__()
            self.cfg, self.run, self.game, self.say = cfg, run, game, log
            self.ckpt_dir = run / "checkpoints"
            self.next_ckpt = None
            self.next_eval = None
            self.t0 = time.time()

        def _on_training_start(self):
            n = self.model.num_timesteps
            every = self.cfg["checkpoint_every"]
            self.next_ckpt = (n // every + 1) * every
            ev = self.cfg["eval"]["every"]
            self.next_eval = (n // ev + 1) * ev if ev else None

        def _on_step(self) -> bool:
            n = self.model.num_timesteps
            if n >= self.next_ckpt:
                save(self.model, self.ckpt_dir, self.game, self.cfg, tag=f"step_{n}")
                self.next_ckpt += self.cfg["checkpoint_every"]
            if self.next_eval is not None and n >= self.next_eval:
                rows = evaluation_round(self.model, self.cfg, self.run, self.game, n, time.time() - self.t0, self.say)
                if len(rows) > 1:  # a mix: one curve per opponent, and their mean below
                    for row in rows:
                        tag = Path(row["opponent"]).stem
                        self.logger.record(f"eval/win_rate_vs_{tag}", row["win_rate"])
                        self.logger.record(f"eval/score_vs_{tag}", row["score"])
                self.logger.record("eval/win_rate", sum(r["win_rate"] for r in rows) / len(rows))
                self.logger.record("eval/score", sum(r["score"] for r in rows) / len(rows))
                self.next_eval += self.cfg["eval"]["every"]
            return True

    return RunCallback


def evaluation_round(model, cfg, run: Path, game, timesteps, elapsed, log=print) -> list[dict]:
    """One periodic evaluation (``periodic_eval``): one progress.csv row and one log line per
    opponent, then ``keep_if_best``. Returns the rows."""
    rows, outcomes = periodic_eval(model, cfg, game, timesteps, elapsed)
    for row in rows:
        append_csv(run / "progress.csv", row)
        log(f"[train] {timesteps} steps: vs {row['opponent']} {row['win']}-{row['draw']}-{row['loss']} "
            f"(win rate {row['win_rate']:.2f})")
    keep_if_best(model, run, game, cfg, rows, timesteps, log, outcomes)
    return rows


_TOLD_NO_OUTCOMES: set = set()  # best.json files keep_if_best has said it compares by mean score


def keep_if_best(model, run: Path, game, cfg, rows, timesteps, log=print, outcomes=None) -> bool:
    """With ``eval.keep_best``: save ``model`` as checkpoints/best.zip (+ best.json) if it beats the
    policy kept so far on the periodic games. With ``eval.keep_margin`` 0 that is a mean periodic
    score over ``rows`` at least the kept one's (ties go to the later policy, which has trained
    longer); with keep_margin z > 0, the mean per-game score difference on the same games
    (``outcomes``, paired with the kept policy's; evaluate.paired_difference) must exceed z of its
    standard errors, so a policy that differs from the kept one by the periodic games' noise does
    not replace it. best.json (with the kept policy's outcomes) survives --resume; one written
    without outcomes is compared by mean score. Returns True if it was kept."""
    if not cfg["eval"].get("keep_best"):
        return False
    import json

    from agents.checkpoint import save_checkpoint

    from .evaluate import replaces_kept

    score = sum(r["score"] for r in rows) / len(rows)
    margin = cfg["eval"].get("keep_margin", 0.0)
    meta = run / "checkpoints" / "best.json"
    best = json.loads(meta.read_text()) if meta.exists() else None
    if best is not None:
        replace, test = replaces_kept(score, outcomes, best["score"], best.get("outcomes"), margin)
        if margin > 0 and test is None and meta not in _TOLD_NO_OUTCOMES:  # said once per run folder
            _TOLD_NO_OUTCOMES.add(meta)
            log("[train] eval.keep_margin: checkpoints/best.json holds no outcomes of these periodic games "
                "(written before keep_margin, or with other periodic_games): compared by mean score")
        if not replace:
            if test is not None:
                log(f"[train] kept the policy at {best['timesteps']} steps: {timesteps} steps scores "
                    f"{test[0]:+.3f} per game on the same periodic games, within {margin} standard errors "
                    f"({margin * test[1]:.3f}; eval.keep_margin)")
            return False
    save_checkpoint(model, run / "checkpoints" / "best.zip", game, cfg["encoder"],
                    {"run": cfg["name"], "timesteps": int(timesteps), "periodic_score": score})
    write_json(meta, {"timesteps": int(timesteps), "score": score, "rows": rows,
                      "outcomes": list(outcomes) if outcomes is not None else None})
    log(f"[train] best so far at {timesteps} steps (mean periodic score {score:.3f}): checkpoints/best.zip")
    return True


def save(model, ckpt_dir: Path, game, cfg, tag: str | None = None):
    """checkpoints/<tag>.zip (if a tag is given) and checkpoints/last.zip, each with its metadata file."""
    from agents.checkpoint import save_checkpoint

    extra = {"run": cfg["name"], "opponent": cfg["opponent"], "reward": cfg["reward"]}
    if tag is not None:
        save_checkpoint(model, ckpt_dir / f"{tag}.zip", game, cfg["encoder"], extra)
    return save_checkpoint(model, ckpt_dir / "last.zip", game, cfg["encoder"], extra)


class ModelAgent:
    """The model being trained as an Agent (deterministic masked argmax)."""

    name = "learner"

    def __init__(self, model, encoder):
        self.model, self.encoder = model, encoder

    def reset(self, seed=None):
        pass

    def act(self, obs, mask, game=None):
        a, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
        return int(a)


def periodic_eval(model, cfg, game, timesteps, elapsed) -> tuple[list[dict], list[int]]:
    """Paired games (eval.periodic_games) against each training opponent: the one opponent, or
    every spec of the mix, on the same seeds at every evaluation. Returns one progress.csv row per
    opponent and every game's outcome code (evaluate.paired_match's ``outcomes``, the opponents in
    turn), by which keep_if_best pairs two policies game by game."""
    from agents import make_agent

    from .common import opponent_weights
    from .evaluate import paired_match, summarize

    rows, outcomes = [], []
    pairs = max(1, cfg["eval"]["periodic_games"] // 2)
    name = cfg.get("game", "necromunda")
    for spec in opponent_weights(cfg["opponent"]):
        if name != "necromunda":  # a registry game's script, and its own loop (evaluate.ruleset_play)
            from agents.game_agent import make_game_agent

            from .evaluate import RulesetModelAgent, ruleset_play

            m = paired_match(game, RulesetModelAgent(model, name, cfg["encoder"]),
                             make_game_agent(name, spec, seed=1), pairs, seed0=500_000, play=ruleset_play)
        else:
            opp = make_agent(spec, seed=1, game=game, deterministic=False)  # checkpoints sample, as in training
            m = paired_match(game, ModelAgent(model, cfg["encoder"]), opp, pairs, seed0=500_000)
        row = summarize("learner", spec, m)
        outcomes += m["outcomes"]
        rows.append({"timesteps": timesteps, "seconds": round(elapsed, 1), "opponent": spec, "games": row["games"],
                     "win": row["win"], "draw": row["draw"], "loss": row["loss"],
                     "win_rate": round(row["win_rate"], 4), "score": round(row["score"], 4)})
    return rows, outcomes


def training_curve(run: Path, out: Path | None = None, title: str | None = None):
    """Plot the episode return (monitor logs, rolling mean) and the periodic evaluation win rate."""
    import csv

    import numpy as np

    from .plots import line_chart

    eps = []  # (wall time, return, length) over all envs
    for f in sorted((run / "monitor").glob("*.monitor.csv")):
        with f.open() as fh:
            fh.readline()
            for row in csv.DictReader(fh):
                eps.append((float(row["t"]), float(row["r"]), int(row["l"])))
    left = []
    if eps:
        eps.sort()
        steps = np.cumsum([e[2] for e in eps])
        r = np.array([e[1] for e in eps])
        k = max(1, len(r) // 50)
        roll = np.convolve(r, np.ones(k) / k, mode="valid")
        left.append((f"episode return (mean of {k})", steps[k - 1:].tolist(), roll.tolist(), "line"))
    prog = read_csv(run / "progress.csv")
    right = []
    for opp in dict.fromkeys(p["opponent"] for p in prog):  # one curve per evaluated opponent
        mine = [p for p in prog if p["opponent"] == opp]
        right.append((f"win rate vs {opp} (paired eval)", [int(p["timesteps"]) for p in mine],
                      [float(p["win_rate"]) for p in mine], "both"))
    kept = run / "checkpoints" / "best.json"
    if right and kept.exists():  # keep_best: where final.zip's policy stands on those curves
        import json

        t = json.loads(kept.read_text())["timesteps"]
        at = [p for p in prog if int(p["timesteps"]) == t]
        right.append(("the policy kept as final.zip (keep_best)", [t] * len(at), [float(p["win_rate"]) for p in at],
                      "dots"))
    return line_chart(out or run / "training_curve.png", left, title=title or f"MaskablePPO training: {run.name}",
                      xlabel="learner steps", ylabel="return", right=right or None, ylabel_right="win rate",
                      ylim_right=(0.0, 1.0))


def train(cfg: dict, run: Path, resume: bool = False, log=print) -> dict:
    from agents.checkpoint import load_model

    torch_setup(cfg.get("torch_threads", 1))
    game = build_game_for(cfg)
    (run / "monitor").mkdir(exist_ok=True)
    if not resume:  # a fresh run: forget the logs of an earlier run of the same name
        for f in list((run / "monitor").glob("*.csv")) + [run / "progress.csv"]:
            f.unlink(missing_ok=True)
    t0 = time.time()
    log(f"[train] building {cfg['n_envs']} envs vs {opponent_label(cfg['opponent'])}")
    venv = make_vec_env(cfg, monitor_dir=run / "monitor")
    last = run / "checkpoints" / "last.zip"
    if resume:
        if not last.exists():
            raise FileNotFoundError(f"--resume: no checkpoint at {last}")
        # checks the metadata against the env, runs no code from the file (agents/checkpoint.py)
        model, _ = load_model(last, game, cfg["encoder"], env=venv, tensorboard_log=tb_log_dir(run / "tb"))
        log(f"[train] resumed from {last} at {model.num_timesteps} steps")
    else:
        model = new_model(cfg, venv, run / "tb", game)
        from .pretrain import warm_start

        if warm_start(model, cfg, run, game, log=log) is not None:  # init_from or the warm start (step_0_bc.zip)
            save(model, run / "checkpoints", game, cfg)  # last.zip: --resume starts here
            if cfg["eval"]["every"]:
                evaluation_round(model, cfg, run, game, 0, time.time() - t0, log)
    remaining = cfg["total_timesteps"] - model.num_timesteps
    log(f"[train] ready after {time.time() - t0:.0f} s; training {max(remaining, 0)} steps")
    t1 = time.time()
    if remaining > 0:
        cb = _callback_cls()(cfg, run, game, log)
        with interrupt_flag() as stop:  # Ctrl-C: stop at the next step, save, say how to resume
            model.learn(total_timesteps=remaining, callback=[cb, stop_callback(stop, log)],
                        reset_num_timesteps=not resume, progress_bar=has_progress_bar(), tb_log_name="ppo")
        if stop.requested:
            n = int(model.num_timesteps)
            saved = save(model, run / "checkpoints", game, cfg, tag=f"step_{n}")
            venv.close()
            raise Interrupted(n, saved)
    train_s = time.time() - t1
    save(model, run / "checkpoints", game, cfg, tag=f"step_{model.num_timesteps}")
    from agents.checkpoint import save_checkpoint

    final = model
    if cfg["eval"].get("keep_best") and cfg["eval"]["every"]:
        n = int(model.num_timesteps)
        prog = read_csv(run / "progress.csv")
        if not prog or int(prog[-1]["timesteps"]) != n:  # the last policy competes too
            evaluation_round(model, cfg, run, game, n, time.time() - t0, log)
        best = run / "checkpoints" / "best.zip"
        if best.exists():
            from agents.checkpoint import load_model

            final, _ = load_model(best, game, cfg["encoder"])
            log(f"[train] final.zip = checkpoints/best.zip, the policy at {final.num_timesteps} steps (eval.keep_best)")
    save_checkpoint(final, run / "final.zip", game, cfg["encoder"],
                    {"run": cfg["name"], "selected": "best" if final is not model else "last"})
    venv.close()
    log(f"[train] trained {max(remaining, 0)} steps in {train_s:.0f} s "
        f"({max(remaining, 0) / max(train_s, 1e-9):.0f} steps/s)")
    return {"model": model, "game": game, "train_seconds": round(train_s, 1), "timesteps": int(model.num_timesteps),
            "final_timesteps": int(final.num_timesteps)}


def check_eval_opponents(cfg: dict) -> None:
    """Build every ``eval.opponents`` agent that is not a built-in name once, before training: a
    missing, damaged or mismatched checkpoint there is refused in seconds, in one line naming the
    field and the file, instead of after the whole run (the final evaluation builds them again)."""
    from necro_env.config.agent_spec import POLICY_NAMES

    from .evaluate import build_agent

    files = [o for o in cfg["eval"]["opponents"] if o not in POLICY_NAMES]
    if not files or cfg["eval"]["games"] <= 0:
        return
    game = build_game_for(cfg)
    for o in files:
        try:
            build_agent(o, game)
        except ValueError as exc:  # CheckpointMismatch (a .zip or .pt refused), a malformed spec
            raise SystemExit(f"necro-train: eval.opponents: {exc}") from None


def final_evaluation(run: Path, cfg: dict, game, log=print) -> dict:
    from agents import CheckpointAgent

    from .evaluate import build_agent, round_robin, write_outputs

    learner = CheckpointAgent(run / "final.zip", game=game, name="learner")
    agents = {"learner": learner}
    for o in cfg["eval"]["opponents"]:
        agents[o] = build_agent(o, game)[1]  # the agent necro-eval would build for that spec
    pairs = max(1, (cfg["eval"]["games"] + 1) // 2)
    res = round_robin(game, agents, pairs, seed0=10_000, pairs_only=[("learner", o) for o in agents if o != "learner"],
                      log=log, paired=False)  # (the opponents compared against the learner: not what a run reports)
    write_outputs(run, res)
    record_final_game(run, game, [learner, agents[next(o for o in agents if o != "learner")]], seed=10_000,
                      agent_names=["learner", next(o for o in agents if o != "learner")])
    return res


def ruleset_reward(cfg: dict) -> dict:
    """The config's reward section as a registry game's RulesetGymEnv reads it (ObjectiveReward): win, loss,
    draw and, when the section names it, shaping (the config refused Necromunda's shaping fields for the game)."""
    return {k: cfg["reward"][k] for k in ("win", "loss", "draw", "shaping") if k in cfg["reward"]}


def ruleset_env_fn(cfg: dict, rank: int, monitor_dir=None):
    """A thunk building one training env of a registry game other than Necromunda: RulesetGymEnv (the
    learner's side from the config) against the config's script, first reset seeded seed * 1000 + rank."""

    def _thunk():
        from stable_baselines3.common.monitor import Monitor

        from agents.game_agent import make_game_agent
        from necro_env.envs.ruleset_gym import RulesetGymEnv

        opp = make_game_agent(cfg["game"], cfg["opponent"], seed=cfg["seed"] * 1000 + rank + 1)
        env = RulesetGymEnv(cfg["game"], learner=cfg.get("learner", "random"), opponent=opp, reward=ruleset_reward(cfg),
                            encoder=cfg["encoder"], seed=cfg["seed"] * 1000 + rank)
        env.reset(seed=cfg["seed"] * 1000 + rank)
        fn = None if monitor_dir is None else str(Path(monitor_dir) / f"env{rank}")
        # append on --resume and a sweep's next chunk (learn_ruleset deletes a fresh run's logs), as make_env_fn
        fresh = fn is None or not Path(fn + ".monitor.csv").exists()
        return Monitor(env, filename=fn, override_existing=fresh)

    return _thunk


def learn_ruleset(cfg: dict, run: Path, resume: bool = False, log=print) -> dict:
    """MaskablePPO on RulesetGymEnv against the config's script up to ``total_timesteps``: checkpoints (with
    metadata naming the game: agents/checkpoint.py) every checkpoint_every steps and last.zip at the end,
    periodic paired games (eval.every) into progress.csv. ``resume`` continues from checkpoints/last.zip (its
    optimizer state and step counter). The one learning loop of necro-train --game firefight (train_ruleset)
    and of a sweep's Firefight trials, chunk by chunk (training/sweep.py). Ctrl-C: Interrupted after saving
    last.zip, as train(). Returns the model, the game, timesteps and train_seconds (the envs closed)."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from necro_env import rulesets

    torch_setup(cfg.get("torch_threads", 1))
    (run / "monitor").mkdir(exist_ok=True)
    if not resume:  # a fresh run: forget the logs of an earlier run in this folder
        for f in list((run / "monitor").glob("*.csv")) + [run / "progress.csv"]:
            f.unlink(missing_ok=True)
    venv = DummyVecEnv([ruleset_env_fn(cfg, r, run / "monitor") for r in range(cfg["n_envs"])])
    game = rulesets.get(cfg["game"]).make_game({})
    model = _resumed_model(cfg, run, venv, game, log) if resume else new_model(cfg, venv, run / "tb")
    remaining = cfg["total_timesteps"] - model.num_timesteps
    t0 = time.time()
    if remaining > 0:
        with interrupt_flag() as stop:  # Ctrl-C: stop at the next step, save, say how to resume
            model.learn(total_timesteps=remaining, progress_bar=False, reset_num_timesteps=not resume,
                        callback=[_callback_cls()(cfg, run, game, log), stop_callback(stop, log)])
        if stop.requested:
            saved = save(model, run / "checkpoints", game, cfg, tag=f"step_{model.num_timesteps}")
            venv.close()
            raise Interrupted(int(model.num_timesteps), saved)
    train_s = time.time() - t0
    save(model, run / "checkpoints", game, cfg, tag=f"step_{model.num_timesteps}")  # last.zip: the next resume
    venv.close()
    log(f"[train] trained {max(remaining, 0)} steps in {train_s:.0f} s")
    return {"model": model, "game": game, "timesteps": int(model.num_timesteps), "train_seconds": round(train_s, 1)}


def _resumed_model(cfg: dict, run: Path, venv, game, log=print):
    """The model of checkpoints/last.zip on ``venv`` (its metadata checked against the game and encoder; no
    code from the file runs), and progress.csv cut back to its step: the rows a killed run wrote after its
    last checkpoint belong to a policy that is lost, and the resumed run plays those evaluations again."""
    from agents.checkpoint import load_model

    last = run / "checkpoints" / "last.zip"
    model, _ = load_model(last, game, cfg["encoder"], env=venv, tensorboard_log=tb_log_dir(run / "tb"))
    rows = read_csv(run / "progress.csv")
    kept = [r for r in rows if int(r["timesteps"]) <= model.num_timesteps]
    if len(kept) < len(rows):
        (run / "progress.csv").unlink()
        for row in kept:
            append_csv(run / "progress.csv", row)
    log(f"[train] resumed from {last} at {model.num_timesteps} steps")
    return model


RESUME_MAY_CHANGE = ("total_timesteps", "eval.games")  # read after the trained steps: a resumed run may change them


def check_ruleset_resume(cfg: dict, run: Path) -> None:
    """necro-train --game firefight --resume of ``run``: refused (UsageError, one line, nothing written) when
    its config.yaml differs from ``cfg`` other than in RESUME_MAY_CHANGE (the continued run would not be the
    one the checkpoint began), or when it has finished (summary.json) and ``cfg`` asks for no more steps."""
    import json

    old, new = _run_config(run), _dotted(cfg)
    changed = [k for k in dict.fromkeys([*old, *new]) if k not in RESUME_MAY_CHANGE and old.get(k) != new.get(k)]
    if changed:
        what = "; ".join(f"{k} {old.get(k)!r} in its config.yaml, {new.get(k)!r} now" for k in changed[:3])
        more = f"; and {len(changed) - 3} more" if len(changed) > 3 else ""
        raise UsageError(f"--resume: {run} was trained with another config: {what}{more} (only "
                         f"{' and '.join(RESUME_MAY_CHANGE)} may change on --resume); resume with the run's config, "
                         f"or --overwrite starts again")
    done = run / "summary.json"
    steps = json.loads(done.read_text())["timesteps"] if done.is_file() else None
    if steps is not None and steps >= cfg["total_timesteps"]:
        raise UsageError(f"--resume: {run} has finished: {steps} steps of total_timesteps {cfg['total_timesteps']} "
                         f"(summary.json); --timesteps above {steps} continues it, --overwrite starts again")


def _run_config(run: Path) -> dict:
    """The run's config.yaml as dotted keys; a missing or unreadable one refused (nothing to compare with)."""
    import yaml

    path = run / "config.yaml"
    try:
        saved = yaml.safe_load(path.read_text())
    except OSError as exc:
        saved = exc.strerror
    except yaml.YAMLError:
        saved = "not YAML"
    if not isinstance(saved, dict):
        why = saved if isinstance(saved, str) else f"holds {type(saved).__name__}"
        raise UsageError(f"--resume: {path} is no run config ({why}): cannot check that the run goes on with its "
                         f"own config; --overwrite starts again")
    return _dotted(saved)


def _dotted(cfg: dict, prefix: str = "") -> dict:
    """A config as {dotted key: value}, the values as config.yaml holds them (a YAML round trip)."""
    import yaml

    out = {}
    for key, value in yaml.safe_load(yaml.safe_dump(cfg)).items():
        if isinstance(value, dict):
            out.update(_dotted(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def train_ruleset(cfg: dict, run: Path, resume: bool = False, log=print) -> dict:
    """necro-train for a registry game other than Necromunda (2026-12-02, Firefight): learn_ruleset (``resume``:
    from checkpoints/last.zip), then final.zip (the last policy), the training curve, and the final paired
    evaluation against eval.opponents (eval.md and the other tables, summary.json), resumed or not."""
    from agents.checkpoint import save_checkpoint

    write_run_config(run, cfg)
    out = learn_ruleset(cfg, run, resume=resume, log=log)
    model, game = out["model"], out["game"]
    save_checkpoint(model, run / "final.zip", game, cfg["encoder"], {"run": cfg["name"], "selected": "last"})
    training_curve(run)
    summary = {"game": cfg["game"], "timesteps": out["timesteps"], "train_seconds": out["train_seconds"]}
    if cfg["eval"]["games"] > 0:
        summary["eval"] = ruleset_final_evaluation(run, cfg, model, game, log)
    write_json(run / "summary.json", summary)
    print(f"[train] outputs in {run}")
    return summary


def ruleset_final_evaluation(run: Path, cfg: dict, model, game, log=print) -> dict:
    """The final paired games of a registry game's run (train_ruleset): the learner against each of
    eval.opponents (that game's scripts), written as necro-eval writes its tables; returns summary.json's part."""
    from agents.game_agent import make_game_agent

    from .evaluate import RulesetModelAgent, markdown, round_robin, ruleset_play, write_outputs

    agents = {"learner": RulesetModelAgent(model, cfg["game"], cfg["encoder"])}
    agents.update({o: make_game_agent(cfg["game"], o, seed=1) for o in cfg["eval"]["opponents"]})
    res = round_robin(game, agents, max(1, (cfg["eval"]["games"] + 1) // 2), seed0=10_000, log=log,
                      pairs_only=[("learner", o) for o in agents if o != "learner"], paired=False, play=ruleset_play)
    res["game"] = cfg["game"]
    write_outputs(run, res)
    print(markdown(res))
    return {f"learner vs {r['opponent']}": {k: r[k] for k in ("games", "win", "draw", "loss")} for r in res["matches"]}


def main(argv=None):
    """necro-train: the arguments and the config checked, the run folder claimed (training.run_folder),
    then the run."""
    args = parse_args(argv)
    check_configs_folder()
    if args.game is not None and args.game != "necromunda" and args.config == DEFAULT_CONFIG:
        args.config = Path("training") / f"{args.game}.yaml"  # the game's shipped config (configs/training/)
    cfg = load_config(input_path("--config", args.config), {"game": args.game,
        "opponent": parse_opponent_arg(input_agent(args.opponent)), "total_timesteps": args.timesteps,
        "n_envs": args.n_envs, "eval.games": args.eval_games,
        "pretrain.demonstrator": input_agent(args.demonstrator), "name": args.name,
        "init_from": input_agent(args.init_from), "backend": args.backend})
    if cfg["game"] != "necromunda" and cfg["backend"] == "rllib":  # RLlib over the game's env (docs/distributed.md)
        return rllib_main(cfg, args, argv)
    if cfg["game"] != "necromunda":  # the config's checks refused what this path does not read
        with RunFolder(runs_root(args.runs_dir), cfg["name"], "necro-train", resume=args.resume,
                       overwrite=args.overwrite, argv=argv) as folder:  # refused here at once if in use
            if args.resume:
                check_ruleset_resume(cfg, folder.path)
            return train_ruleset(cfg, folder.claim(), resume=args.resume)
    check_scenario(cfg)
    if cfg["backend"] == "rllib":  # RLlib on Ray (training/distributed/rllib_train.py; docs/distributed.md)
        return rllib_main(cfg, args, argv)
    with RunFolder(runs_root(args.runs_dir), cfg["name"], "necro-train", resume=args.resume,
                   overwrite=args.overwrite, argv=argv) as folder:  # refused here at once if in use
        warm_up()
        check_eval_opponents(cfg)
        from .pretrain import check_warm_start

        check_warm_start(cfg, "necro-train", resume=args.resume)
        return run_training(cfg, folder.claim(), args.resume)


def rllib_main(cfg: dict, args, argv) -> dict:
    """necro-train --backend rllib: Ray started or attached to (--address, $RAY_ADDRESS) before the run
    folder is claimed, then RLlib's PPO into it."""
    from .distributed import connect

    if args.resume:  # RLlib's own checkpoints are not kept yet (docs/distributed.md, "Not done")
        raise UsageError("--resume: not available with --backend rllib; start again from a checkpoint with "
                         "--init-from runs/<name>/final.zip")
    from .distributed.rllib_train import check_init_from, train_rllib

    check_init_from(cfg)  # a checkpoint of another game or network: one line, before Ray or the run folder
    try:
        connect(args.address, token_file=args.auth_token_file)
    except (ValueError, ImportError) as exc:  # a bad address or token file, or no distributed extra: one line
        raise UsageError(f"--backend rllib: {exc}") from None

    with RunFolder(runs_root(args.runs_dir), cfg["name"], "necro-train", overwrite=args.overwrite,
                   argv=argv, resumable=False) as folder:
        run = folder.claim()
        write_run_config(run, cfg)
        summary = train_rllib(cfg, run, max_seconds=None if args.minutes is None else 60 * args.minutes)
        training_curve(run, title=f"RLlib PPO: {run.name}")
        print(f"[train] outputs in {run}")
        return summary


def parse_args(argv=None):
    """necro-train's arguments, the numbers and the run name checked (UsageError) before any work."""
    from necro_env.config.agent_spec import POLICY_NAMES

    ap = Parser(prog="necro-train", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", type=Path, default=DEFAULT_CONFIG,
                    help="a training config; a relative path is looked for in the working directory, then the "
                         "repository root, then configs/")
    ap.add_argument("--game", default=None, help="the registry's game (config key game; default: the config's, "
                                                 "necromunda); --game firefight without --config uses "
                                                 "configs/training/firefight.yaml")
    ap.add_argument("--opponent", default=None, help=f"{' | '.join(POLICY_NAMES)} | checkpoint .zip, or a "
                    f"mix drawn per episode: random=0.2,gunline=0.4,aggressor=0.4")
    ap.add_argument("--timesteps", type=int, default=None, help="override total_timesteps")
    ap.add_argument("--n-envs", type=int, default=None)
    ap.add_argument("--name", default=None, help="run name (default: the config's name): one folder name")
    ap.add_argument("--runs-dir", default=None, help="parent of the run folder (default: runs/)")
    ap.add_argument("--resume", action="store_true", help="continue from runs/<name>/checkpoints/last.zip")
    ap.add_argument("--overwrite", action="store_true",
                    help="delete an earlier run of this name and start again (without it an existing run is refused)")
    ap.add_argument("--eval-games", type=int, default=None, help="final evaluation games per opponent (0: skip)")
    ap.add_argument("--init-from", default=None, metavar="CHECKPOINT",
                    help="start from this checkpoint's policy (init_from; e.g. a pretrain run's bc.zip) instead "
                         "of the warm start")
    ap.add_argument("--demonstrator", default=None,
                    help=f"the warm start's demonstrator (pretrain.demonstrator): {' | '.join(POLICY_NAMES)} | "
                         f"rollout | checkpoint .zip | sides:a,b (gang g by the g-th)")
    ap.add_argument("--backend", choices=["sb3", "rllib"], default=None,
                    help="sb3: the project's MaskablePPO (default); rllib: RLlib's PPO on Ray (config key backend; "
                         "docs/distributed.md; needs the distributed extra)")
    ap.add_argument("--address", default=None, help="--backend rllib: the Ray cluster to attach to (host:port; "
                                                    "default $RAY_ADDRESS, else a local Ray on this machine's cores)")
    ap.add_argument("--auth-token-file", default=None, metavar="PATH",
                    help="--backend rllib: the cluster's authentication token (Ray's token mode)")
    ap.add_argument("--minutes", type=float, default=None,
                    help="--backend rllib: stop after this many minutes of training (or total_timesteps)")
    args = ap.parse_args(argv)
    at_least("--timesteps", args.timesteps, 1)
    at_least("--n-envs", args.n_envs, 1)
    if args.minutes is not None and not args.minutes > 0:
        ap.error(f"--minutes must be more than 0, got {args.minutes}")
    at_least("--eval-games", args.eval_games, 0)
    if args.name is not None:
        check_name(args.name)
    return args


def run_training(cfg: dict, run: Path, resume: bool) -> dict:
    """Train into ``run`` (claimed), then the training curve, the final evaluation and summary.json."""
    write_run_config(run, cfg)
    out = train(cfg, run, resume=resume)
    # final_timesteps: the step of the policy saved as final.zip (with keep_best, maybe an earlier one)
    summary = {"timesteps": out["timesteps"], "final_timesteps": out["final_timesteps"],
               "train_seconds": out["train_seconds"]}
    training_curve(run)
    if cfg["eval"]["games"] > 0:
        res = final_evaluation(run, cfg, out["game"])
        summary["eval"] = {f"learner vs {r['opponent']}": {k: r[k] for k in ("games", "win", "draw", "loss",
                                                                             "win_rate")} for r in res["matches"]}
        from .evaluate import markdown

        print(markdown(res))
    write_json(run / "summary.json", summary)
    print(f"[train] outputs in {run}")
    return summary


def cli(argv=None) -> None:
    """The console script's entry point (common.run_cli): a refused input is one line and exit 2,
    Ctrl-C saves a checkpoint and exits 130 with the command that resumes the run."""
    run_cli("necro-train", main, argv)


if __name__ == "__main__":
    cli()
