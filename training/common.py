"""Shared pieces of the training scripts: configs, run folders, envs, opponents, plots."""
from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CONFIG = ROOT / "configs" / "training" / "default.yaml"


def runs_root(arg=None) -> Path:
    """runs/ at the repository root, or --runs-dir, or $NECRO_RUNS_DIR."""
    return Path(arg or os.environ.get("NECRO_RUNS_DIR") or ROOT / "runs")


def load_config(path=None, overrides: dict | None = None) -> dict:
    """The validated training config as a plain dict; ``overrides`` (dotted keys) are applied
    and the result validated again, so a bad override is refused like a bad file."""
    from necro_env.config.training import TrainingFile, load_training

    cfg = load_training(path or DEFAULT_CONFIG).model_dump()
    for key, value in (overrides or {}).items():
        if value is None:
            continue
        node = cfg
        *head, last = key.split(".")
        for k in head:
            if node.get(k) is None:  # e.g. --pretrain-games on a config without a pretrain section
                node[k] = {}
            node = node[k]
        node[last] = value
    return TrainingFile.model_validate(cfg).model_dump()


def prepare_run(cfg: dict, runs_dir=None, name=None) -> Path:
    run = runs_root(runs_dir) / (name or cfg["name"])
    run.mkdir(parents=True, exist_ok=True)
    (run / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    return run


def build_game_for(cfg: dict):
    from necro_env.envs.necromunda_env import build_game

    return build_game(cfg["scenario"])


def make_opponent(spec: str, seed: int, game=None):
    """An Agent for an opponent spec: random / gunline / aggressor / checkpoint path."""
    from agents import make_agent

    if spec in ("random", "gunline", "aggressor"):
        return make_agent(spec, seed=seed)
    from agents import CheckpointAgent

    return CheckpointAgent(spec, game=game, seed=seed, deterministic=False)


def make_env_fn(cfg: dict, rank: int, opponent=None, monitor_dir=None):
    """A thunk building one training env: the learner's gang vs ``opponent`` (an Agent, a spec
    string, or None for cfg["opponent"]), with the config's reward options."""

    def _thunk():
        from stable_baselines3.common.monitor import Monitor

        from necro_env.envs.gym_wrapper import NecromundaGymEnv

        env = NecromundaGymEnv(scenario=cfg["scenario"], encoder=cfg["encoder"], learner=cfg.get("learner", "random"),
                               reward=cfg["reward"])
        opp = opponent if opponent is not None else cfg["opponent"]
        if isinstance(opp, str):
            opp = make_opponent(opp, seed=cfg["seed"] * 1000 + rank + 1, game=env.game)
        env.opponents = [opp] * env.n_gangs
        env.reset(seed=cfg["seed"] * 1000 + rank)
        fn = None if monitor_dir is None else str(Path(monitor_dir) / f"env{rank}")
        # append on --resume (train() deletes the logs of a fresh run); a new file gets its header
        fresh = fn is None or not Path(fn + ".monitor.csv").exists()
        return Monitor(env, filename=fn, override_existing=fresh)

    return _thunk


def make_vec_env(cfg: dict, monitor_dir=None, opponent=None):
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    fns = [make_env_fn(cfg, r, opponent, monitor_dir) for r in range(cfg["n_envs"])]
    if cfg.get("vec_env") == "subproc" and cfg["n_envs"] > 1:
        return SubprocVecEnv(fns)
    return DummyVecEnv(fns)


def new_model(cfg: dict, venv, tb_dir):
    from sb3_contrib import MaskablePPO

    p = cfg["ppo"]
    policy = "MultiInputPolicy" if cfg["encoder"] == "entity" else ("CnnPolicy" if cfg["encoder"] == "spatial"
                                                                    else "MlpPolicy")
    kw = {"normalize_images": False} if cfg["encoder"] == "spatial" else {}
    return MaskablePPO(policy, venv, n_steps=p["n_steps"], batch_size=p["batch_size"], n_epochs=p["n_epochs"],
                       learning_rate=p["learning_rate"], gamma=p["gamma"], gae_lambda=p["gae_lambda"],
                       clip_range=p["clip_range"], ent_coef=p["ent_coef"],
                       policy_kwargs={"net_arch": p["net_arch"], **kw}, seed=cfg["seed"], device="cpu", verbose=0,
                       tensorboard_log=tb_log_dir(tb_dir))


def tb_log_dir(tb_dir) -> str | None:
    """``tb_dir`` when TensorBoard is installed (the ``train`` extra), else None with a warning:
    the run still writes its CSV logs, checkpoints and evaluation."""
    try:
        import torch.utils.tensorboard  # noqa: F401
    except ImportError:
        import warnings
        warnings.warn("tensorboard is not installed (pip install -e '.[train]'): no TensorBoard logs for this run",
                      stacklevel=2)
        return None
    return str(tb_dir)


def append_csv(path: Path, row: dict):
    new = not path.exists()
    with path.open("a", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(row))
        if new:
            w.writeheader()
        w.writerow(row)


def read_csv(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with path.open() as fh:
        return list(csv.DictReader(fh))


def write_json(path: Path, obj):
    path.write_text(json.dumps(obj, indent=2))


def has_progress_bar() -> bool:
    try:
        import rich  # noqa: F401
        import tqdm  # noqa: F401
        return True
    except ImportError:
        return False


def record_final_game(run: Path, game, agents, seed: int, agent_names):
    """Play one game between ``agents`` (``agents[g]`` plays gang g) and write its event list as
    JSON (final_game.json) and, when the battle log (necro_env.render.battlelog) is available,
    its readable battle log (final_game.log). Returns the written paths."""
    from necro_env.envs.encoders import make_encoder

    try:
        from necro_env.render.battlelog import game_log
    except ImportError:
        game_log = None
    names = list(agent_names)
    encoders = {a.encoder: make_encoder(a.encoder) for a in agents if a.encoder}
    game.reset(seed)
    for g, a in enumerate(agents):
        a.reset(seed * 1000 + g + 1)
    lines = [f"{n} plays gang_{g}" for g, n in enumerate(names)]
    gang_names = [f"gang_{g}" for g in range(len(agents))]
    if game_log is not None:
        lines += game_log(game, gang_names)
    steps = []
    while not game.done:
        g = game.current_gang
        ag = agents[g]
        obs = encoders[ag.encoder].encode(game, g) if ag.encoder else None
        act = ag.act(obs, game.mask[0], game=game)
        text = str(game.describe(act))
        game.step(act)
        steps.append({"gang": g, "action": int(act), "action_text": text,
                      "events": [{"kind": e.kind, "actor": e.actor, "target": e.target, "fields": e.fields}
                                 for e in game.events()]})
        if game_log is not None:
            lines += game_log(game, gang_names)
    winner = game.winner if not game.truncated else -1
    out = {"seed": seed, "agents": names, "winner": winner, "truncated": game.truncated, "rounds": game.round,
           "decisions": len(steps), "steps": steps}
    paths = [run / "final_game.json"]
    write_json(paths[0], out)
    if game_log is not None:
        result = "a draw" if winner < 0 else f"gang_{winner} ({names[winner]}) wins"
        lines.append(f"Result: {result} after {game.round} rounds")
        paths.append(run / "final_game.log")
        paths[-1].write_text("\n".join(lines) + "\n")
    return paths
