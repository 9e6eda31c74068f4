"""necro-train --backend rllib on Firefight (2026-12-02; docs/distributed.md, "Every game"): one RLlib PPO
iteration over firefight_v0 with the masking module, the opponents drawn from Firefight's scripts and
random, the env raising on any masked action (so an iteration that completes took none); its export is a
project checkpoint of game firefight that necro-eval --game firefight plays; a Firefight checkpoint starts
an RLlib run whose module picks its actions, and a Necromunda one is refused in one line."""
import json

import numpy as np
import pytest
import yaml

from necro_env.core.errors import IllegalActionError
from training.common import load_config
from training.distributed.rllib_env import LEARNER, SeatEnv

TINY = {"backend": "rllib", "n_envs": 1, "total_timesteps": 200, "checkpoint_every": 200,
        "opponent": {"random": 1.0, "holder": 1.0, "charger": 1.0},
        "ppo": {"n_steps": 200, "batch_size": 100, "n_epochs": 1, "learning_rate": 0.0003, "gamma": 0.99,
                "ent_coef": 0.0, "net_arch": [32, 32]},
        "eval": {"games": 2, "every": 200, "periodic_games": 2, "opponents": ["holder"]},
        "rllib": {"num_env_runners": 0}}


def write_config(folder, **more):
    """configs/test/training/firefight_tiny.yaml on the RLlib backend, as a file necro-train reads."""
    from necro_env.config.training import REPOSITORY

    data = yaml.safe_load((REPOSITORY / "configs/test/training/firefight_tiny.yaml").read_text())
    path = folder / "ff_rllib.yaml"
    path.write_text(yaml.safe_dump({**data, **TINY, "name": "ff_rllib", **more}))
    return path


def test_the_firefight_seat_env_refuses_a_masked_action_and_plays_both_seats():
    env = SeatEnv({"game": "firefight", "pool": {"holder": 1.0, "charger": 1.0}, "seed": 2})
    obs, _ = env.reset(seed=2)
    (seat, o), = obs.items()
    before = env.raw.game.state.g.copy()
    with pytest.raises(IllegalActionError):
        env.step({seat: int(np.flatnonzero(o["action_mask"] == 0)[0])})
    assert (env.raw.game.state.g == before).all()
    seats = {env.learner}
    for ep in range(1, 12):
        if seats == {"player_0", "player_1"}:
            break
        env.reset(seed=ep)
        seats.add(env.learner)
    assert seats == {"player_0", "player_1"}


@pytest.fixture(scope="module")
def trained(ray_local, tmp_path_factory):
    """One run through necro-train's own entry point (the config says game: firefight, backend: rllib)."""
    from training.train import main

    folder = tmp_path_factory.mktemp("ff_rllib")
    summary = main(["--config", str(write_config(folder)), "--runs-dir", str(folder / "runs")])
    return load_config(folder / "runs" / "ff_rllib" / "config.yaml"), folder / "runs" / "ff_rllib", summary


def test_one_rllib_iteration_on_firefight_with_masking(trained):
    cfg, run, summary = trained
    assert cfg["game"] == "firefight" and cfg["backend"] == "rllib"
    assert summary["game"] == "firefight" and summary["timesteps"] >= 200 and summary["iterations"] >= 1
    progress = (run / "progress.csv").read_text().splitlines()
    assert len(progress) == 2 and ",holder," in progress[1]  # the periodic paired games against the script
    assert (run / "league.csv").exists()


def test_the_export_is_a_firefight_checkpoint_necro_eval_plays(trained, tmp_path):
    """necro-eval --game firefight loads the export (its metadata checked) and plays it, here and on Ray actors
    (each loading the checkpoint itself), the same games."""
    from agents.checkpoint import read_metadata
    from training.evaluate import main

    _, run, _ = trained
    meta = read_metadata(run / "final.zip")
    assert meta["game"] == "firefight" and meta["backend"] == "rllib" and meta["model"]["policy_class"] == "MlpPolicy"
    argv = ["--game", "firefight", str(run / "final.zip"), "holder", "--pairs", "2", "--runs-dir", str(tmp_path)]
    main(argv + ["--name", "local"])
    main(argv + ["--name", "on_ray", "--ray", "--workers", "2"])
    local, ray = (json.loads((tmp_path / n / "eval.json").read_text()) for n in ("local", "on_ray"))
    assert local["game"] == "firefight" and [m["games"] for m in local["matches"]] == [4]
    strip = [[{k: v for k, v in m.items() if k != "seconds"} for m in r["matches"]] for r in (local, ray)]
    assert strip[0] == strip[1] and ray["ray"]["games_dropped"] == 0


def test_a_firefight_checkpoint_starts_an_rllib_run_and_a_necromunda_one_is_refused(trained, tmp_path):
    """The export imported into a new RLlib learner: the module's most likely action is the checkpoint's
    (necro-eval's RulesetModelAgent) on a Firefight observation. A Necromunda checkpoint: one line."""
    import torch
    from ray.rllib.core.columns import Columns

    from agents.checkpoint import CheckpointMismatch, save_checkpoint
    from training.common import build_game_for
    from training.distributed.rllib_train import (build_algo, build_game, check_init_from, import_checkpoint,
                                                  learner_weights, pool_of, sb3_model, set_learner_weights)
    from training.evaluate import RulesetModelAgent

    cfg, run, _ = trained
    game = build_game(cfg)
    algo = build_algo(cfg, pool_of(cfg, []), env_runners=0)
    try:
        set_learner_weights(algo, import_checkpoint(run / "final.zip", cfg, game, learner_weights(algo)))
        env = SeatEnv({"game": "firefight", "pool": {"random": 1.0}, "seed": 9})
        obs, _ = env.reset(seed=9)
        (seat, o), = obs.items()
        with torch.no_grad():
            out = algo.get_module(LEARNER).forward_inference(
                {Columns.OBS: {k: torch.as_tensor(v[None]) for k, v in o.items()}})
        rl_action = int(out[Columns.ACTION_DIST_INPUTS].argmax())
        agent = RulesetModelAgent.from_checkpoint(run / "final.zip", env.raw.game, "final")
        assert rl_action == agent.act(None, env.raw.game.mask[0], game=env.raw.game) and o["action_mask"][rl_action]
        necro_cfg = load_config("configs/training/rllib_flat.yaml", {"ppo.net_arch": [32, 32]})
        necro = save_checkpoint(sb3_model(necro_cfg, build_game_for(necro_cfg)), tmp_path / "necro.zip",
                                build_game_for(necro_cfg), "flat")
        with pytest.raises(CheckpointMismatch, match=r"^checkpoint .*necro\.zip was trained on necromunda, not "
                                                     r"firefight: use a firefight checkpoint$"):
            import_checkpoint(necro, cfg, game, learner_weights(algo))
        with pytest.raises(CheckpointMismatch, match="was trained on necromunda, not firefight"):
            check_init_from({**cfg, "init_from": str(necro)})
    finally:
        algo.stop()
