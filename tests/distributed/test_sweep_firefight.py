"""training/sweep.py over a Firefight training config (issue 55 item 4, 2026-12-02): each Tune trial is the
project's Firefight trainer (necro-train --game firefight's envs, model and periodic evaluation) reporting the
periodic paired games against the config's opponent; an interrupted trial continues from its checkpoint after
--resume; a bad field of a Firefight sweep is refused naming the file, the field, the value and what is allowed."""
import csv

import pytest
import yaml

from agents.checkpoint import read_metadata
from necro_env.config.errors import ConfigError
from training.common import read_csv
from training.sweep import load_sweep, run_sweep

TINY = {"name": "tiny_ff", "config": "test/training/firefight_tiny.yaml",
        "space": {"ppo.learning_rate": {"choice": [0.0001, 0.0003]}},
        "overrides": {"ppo.n_steps": 64, "ppo.batch_size": 64, "eval.periodic_games": 2, "checkpoint_every": 64},
        "num_samples": 2, "max_timesteps": 128, "every": 64, "grace_evaluations": 2}


def write(tmp_path, **more):
    path = tmp_path / "sweep.yaml"
    path.write_text(yaml.safe_dump({**TINY, **more}))
    return path


def test_two_firefight_trials_report_their_evaluation_and_resume(ray_local, tmp_path):
    path, flag = write(tmp_path), tmp_path / "interrupted"
    rows = run_sweep(path, storage=tmp_path / "tune", log=lambda m: None, fail_once=str(flag))
    assert flag.exists() and len(rows) == 2
    assert sorted(r["error"] != "" for r in rows) == [False, True]  # one trial stopped after its first report
    rows = run_sweep(path, storage=tmp_path / "tune", resume=True, log=lambda m: None)
    assert [r["timesteps"] for r in rows] == [128, 128] and all(r["error"] == "" for r in rows)
    trials = sorted((tmp_path / "tune" / "tiny_ff").glob("*/run"))
    assert len(trials) == 2
    reported = sorted(r["score"] for r in rows)
    for run in trials:  # the periodic games of each chunk, once each (the restored trial did not start again)
        prog = read_csv(run / "progress.csv")
        assert [(int(p["timesteps"]), p["opponent"], int(p["games"])) for p in prog] == [(64, "random", 2),
                                                                                         (128, "random", 2)]
        assert read_metadata(run / "checkpoints" / "last.zip")["game"] == "firefight"
    # the metric Tune ranked by is the last periodic evaluation's score
    assert reported == sorted(float(read_csv(run / "progress.csv")[-1]["score"]) for run in trials)
    with (tmp_path / "tune" / "tiny_ff" / "sweep.csv").open() as fh:
        assert {float(r["ppo.learning_rate"]) for r in csv.DictReader(fh)} <= {0.0001, 0.0003}


@pytest.mark.parametrize("field, more, allowed", [
    ("space.reward.out_of_action", {"space": {"reward.out_of_action": {"choice": [0.1]}}},
     "refused by the training config"),  # Necromunda's shaping field: a Firefight config leaves it at 0
    ("overrides.opponent", {"overrides": {**TINY["overrides"], "opponent": "gunline"}},  # a Necromunda script
     "got 'gunline'; refused by the training config: game firefight allows charger, holder, random"),
    ("overrides.backend", {"overrides": {**TINY["overrides"], "backend": "rllib"}},
     "sb3: a sweep's trials are necro-train's MaskablePPO"),
    ("space.backend", {"space": {"backend": {"choice": ["sb3", "rllib"]}}},
     "sb3: a sweep's trials are necro-train's MaskablePPO"),
])
def test_bad_firefight_sweep_field_is_refused_naming_file_field_value(tmp_path, field, more, allowed):
    path = write(tmp_path, **more)
    with pytest.raises(ConfigError) as exc:
        load_sweep(path)
    msg = str(exc.value)
    assert str(path) in msg and f"field '{field}'" in msg and allowed in msg


def test_a_sweep_over_an_rllib_config_is_refused(tmp_path):
    path = write(tmp_path, config="training/rllib_flat.yaml", space={"ppo.ent_coef": {"choice": [0.0, 0.01]}},
                 overrides={})
    with pytest.raises(ConfigError, match=r"field 'config': got 'training/rllib_flat\.yaml'; .*backend: rllib"):
        load_sweep(path)
