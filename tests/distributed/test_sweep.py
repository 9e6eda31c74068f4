"""training/sweep.py (issue 55 item 4): a Ray Tune sweep with ASHA over a training config's fields, each trial
the project's trainer reporting its periodic evaluation; an interrupted sweep restored continues its trials
from their checkpoints; a bad sweep file is refused naming the file, the field, the value and what is allowed."""
import csv

import pytest
import yaml

from necro_env.config.errors import ConfigError
from training.sweep import load_sweep, run_sweep

TINY = {"name": "tiny", "config": "training/flat.yaml",
        "space": {"ppo.learning_rate": {"choice": [0.0001, 0.0003]}},
        "overrides": {"pretrain": None, "n_envs": 1, "ppo.n_steps": 64, "ppo.batch_size": 64, "ppo.n_epochs": 1,
                      "ppo.net_arch": [16], "eval.periodic_games": 2, "opponent": "random", "checkpoint_every": 64},
        "num_samples": 2, "max_timesteps": 128, "every": 64, "grace_evaluations": 2}


def write(tmp_path, **more):
    path = tmp_path / "sweep.yaml"
    path.write_text(yaml.safe_dump({**TINY, **more}))
    return path


def test_two_trials_interrupted_and_resumed(ray_local, tmp_path):
    path, flag = write(tmp_path), tmp_path / "interrupted"
    rows = run_sweep(path, storage=tmp_path / "tune", log=lambda m: None, fail_once=str(flag))
    assert flag.exists() and len(rows) == 2
    assert sorted(r["error"] != "" for r in rows) == [False, True]  # one trial stopped after its first report
    rows = run_sweep(path, storage=tmp_path / "tune", resume=True, log=lambda m: None)
    assert [r["timesteps"] for r in rows] == [128, 128] and all(r["error"] == "" for r in rows)
    assert {r["ppo.learning_rate"] for r in rows} <= {0.0001, 0.0003}  # drawn from the choice (seeded)
    with (tmp_path / "tune" / "tiny" / "sweep.csv").open() as fh:
        assert len(list(csv.DictReader(fh))) == 2


@pytest.mark.parametrize("field, more, allowed", [
    ("space.ppo.learnig_rate", {"space": {"ppo.learnig_rate": {"choice": [0.1]}}}, "a field of the training config"),
    ("space.ppo.gamma", {"space": {"ppo.gamma": {"uniform": [0.9, 1.5]}}}, "refused by the training config"),
    ("space.ppo.gamma.uniform", {"space": {"ppo.gamma": {"uniform": [0.99, 0.9]}}}, "low < high"),
    ("space.ppo.gamma", {"space": {"ppo.gamma": {"normal": [0.9, 1]}}}, "one of choice, uniform"),
])
def test_bad_sweep_field_is_refused_naming_file_field_value(tmp_path, field, more, allowed):
    path = write(tmp_path, **more)
    with pytest.raises(ConfigError) as exc:
        load_sweep(path)
    msg = str(exc.value)
    assert str(path) in msg and f"field '{field}'" in msg and allowed in msg
