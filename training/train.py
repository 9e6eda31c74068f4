"""Train a MaskablePPO agent against the random opponent and evaluate it (the README's main job).

    python -m training.train [--config configs/training/default.yaml] [--timesteps N] [--name NAME]

Writes runs/<name>/: config.yaml (resolved), model.zip, monitor logs, eval.json and eval.md.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def load_config(path: Path) -> dict:
    """The validated config as a plain dict (a bad file raises ConfigError naming file and field)."""
    from necro_env.config.training import load_training

    return load_training(path).model_dump()


def make_env(cfg: dict, rank: int):
    def _thunk():
        from stable_baselines3.common.monitor import Monitor

        from necro_env.envs.gym_wrapper import NecromundaGymEnv

        env = NecromundaGymEnv(scenario=cfg["scenario"], encoder=cfg["encoder"], learner=cfg.get("learner", 0))
        env.reset(seed=cfg["seed"] * 1000 + rank)
        return Monitor(env)

    return _thunk


def evaluate(model, cfg: dict, games: int) -> dict:
    """Paired games against the random opponent: each seed is played once from each side."""
    from necro_env.envs.gym_wrapper import NecromundaGymEnv

    results = {"win": 0, "draw": 0, "loss": 0}
    for i in range(games):
        seed = 10_000 + i // 2
        env = NecromundaGymEnv(scenario=cfg["scenario"], encoder=cfg["encoder"], learner=i % 2)
        obs, _ = env.reset(seed=seed)
        done = False
        reward = 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, term, trunc, _ = env.step(int(action))
            done = term or trunc
        results["win" if reward > 0 else "loss" if reward < 0 else "draw"] += 1
    n = max(1, games)
    results["games"] = games
    results["win_rate"] = results["win"] / n
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", type=Path, default=ROOT / "configs" / "training" / "default.yaml")
    parser.add_argument("--timesteps", type=int, default=None, help="override total_timesteps")
    parser.add_argument("--name", default=None, help="run name (default: the config's name)")
    parser.add_argument("--eval-games", type=int, default=None)
    args = parser.parse_args(argv)

    cfg = load_config(args.config)
    if args.timesteps is not None:
        cfg["total_timesteps"] = args.timesteps
    if args.eval_games is not None:
        cfg["eval"]["games"] = args.eval_games
    name = args.name or cfg["name"]
    run = ROOT / "runs" / name
    run.mkdir(parents=True, exist_ok=True)
    (run / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)
    t0 = time.time()
    print(f"[necro_env] compiling the rules core and building {cfg['n_envs']} envs (first run: a few minutes)")
    venv = DummyVecEnv([make_env(cfg, r) for r in range(cfg["n_envs"])])
    p = cfg["ppo"]
    policy = "MultiInputPolicy" if cfg["encoder"] == "entity" else "MlpPolicy"
    model = MaskablePPO(policy, venv, n_steps=p["n_steps"], batch_size=p["batch_size"], n_epochs=p["n_epochs"],
                        learning_rate=p["learning_rate"], gamma=p["gamma"], ent_coef=p["ent_coef"],
                        policy_kwargs={"net_arch": p["net_arch"]}, seed=cfg["seed"], device="cpu", verbose=0,
                        tensorboard_log=str(run / "tb"))
    print(f"[necro_env] ready after {time.time() - t0:.0f} s; training {cfg['total_timesteps']} steps")
    t1 = time.time()
    model.learn(total_timesteps=cfg["total_timesteps"], progress_bar=_has_progress_bar())
    train_s = time.time() - t1
    model.save(run / "model.zip")
    print(f"[necro_env] trained in {train_s:.0f} s ({cfg['total_timesteps'] / max(train_s, 1e-9):.0f} steps/s)")

    res = evaluate(model, cfg, cfg["eval"]["games"])
    res["train_seconds"] = round(train_s, 1)
    res["timesteps"] = cfg["total_timesteps"]
    (run / "eval.json").write_text(json.dumps(res, indent=2))
    table = ("| opponent | games | win | draw | loss | win rate |\n|---|---|---|---|---|---|\n"
             f"| random | {res['games']} | {res['win']} | {res['draw']} | {res['loss']} | {res['win_rate']:.2f} |\n")
    (run / "eval.md").write_text(table)
    print(table)
    print(f"[necro_env] outputs in {run}")
    return res


def _has_progress_bar() -> bool:
    try:
        import rich  # noqa: F401
        import tqdm  # noqa: F401
        return True
    except ImportError:
        return False


if __name__ == "__main__":
    main()
