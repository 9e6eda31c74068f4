"""necro-train --game firefight --resume (2026-12-02): a Firefight run stopped after its first checkpoint
continues from checkpoints/last.zip to the steps an uninterrupted run reaches, with one progress.csv row per
evaluation point, and Ctrl-C saves last.zip and prints the command that resumes. The refusals (nothing to
resume, a finished run, a changed config) are catalogue cases (tests/robustness/cases_firefight_training.py)."""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import signal
from pathlib import Path

import pytest
import yaml

from agents.checkpoint import read_metadata
from training import train
from training.common import read_csv

TINY = Path(__file__).resolve().parents[2] / "configs" / "test" / "training" / "firefight_tiny.yaml"


def firefight_config(folder: Path, **change) -> Path:
    """The tiny Firefight config with 64-step rollouts, periodic games every 64 steps, a checkpoint every
    128 and 320 steps in all (one rollout a checkpoint interval: the first checkpoint ends a rollout)."""
    cfg = yaml.safe_load(TINY.read_text())
    cfg.update(total_timesteps=320, checkpoint_every=128)
    cfg["ppo"].update(n_steps=64, batch_size=64)
    cfg["eval"].update(every=64, periodic_games=2, games=2, opponents=["random"])
    cfg.update(change)
    path = folder / "ff.yaml"
    path.write_text(yaml.safe_dump(cfg))
    return path


class Killed(Exception):
    """The process ending without a word (a kill, a lost machine), as far as the run folder can tell."""


def points(run: Path) -> list[int]:
    return [int(r["timesteps"]) for r in read_csv(run / "progress.csv")]


def test_a_run_killed_after_its_first_checkpoint_resumes_to_the_steps_of_an_uninterrupted_one(tmp_path, monkeypatch):
    """Killed after its periodic games at 192 steps (last.zip at 128): --resume continues from 128, drops the
    row at 192 that last.zip's policy never reached, and ends as the uninterrupted run does."""
    cfg = firefight_config(tmp_path)
    whole = train.main(["--config", str(cfg), "--runs-dir", str(tmp_path / "whole")])
    evaluation_round = train.evaluation_round

    def killed_at_192(model, cfg, run, game, timesteps, *rest):
        rows = evaluation_round(model, cfg, run, game, timesteps, *rest)
        if timesteps >= 192:
            raise Killed(timesteps)
        return rows

    monkeypatch.setattr(train, "evaluation_round", killed_at_192)
    argv = ["--config", str(cfg), "--runs-dir", str(tmp_path / "runs")]
    with pytest.raises(Killed):
        train.main(argv)
    run = tmp_path / "runs" / "firefight_tiny"
    assert read_metadata(run / "checkpoints" / "last.zip")["num_timesteps"] == 128
    assert points(run) == [64, 128, 192] and not (run / "summary.json").exists()
    monitor = (run / "monitor" / "env0.monitor.csv").read_text()
    monkeypatch.setattr(train, "evaluation_round", evaluation_round)
    summary = train.main(argv + ["--resume"])
    resumed = (run / "monitor" / "env0.monitor.csv").read_text()
    assert resumed.startswith(monitor) and len(resumed) > len(monitor)  # the episode log goes on
    assert summary["timesteps"] == whole["timesteps"] == 320
    assert points(run) == points(tmp_path / "whole" / "firefight_tiny") == [64, 128, 192, 256, 320]
    assert read_metadata(run / "final.zip")["num_timesteps"] == 320
    assert json.loads((run / "summary.json").read_text())["timesteps"] == 320
    assert {m["opponent"] for m in json.loads((run / "eval.json").read_text())["matches"]} == {"random"}
    assert (run / "training_curve.png").exists() and not (run / ".lock").exists()
    longer = train.main(argv + ["--resume", "--timesteps", "384"])  # a finished run continued with more steps
    assert longer["timesteps"] == 384 and points(run) == [64, 128, 192, 256, 320, 384]


def test_ctrl_c_during_a_firefight_run_saves_last_zip_and_prints_the_command_that_resumes(tmp_path, monkeypatch):
    """SIGINT at the periodic games of 64 steps: the run stops at the next step, saves last.zip and step_<n>.zip,
    exits 130 with one line holding the command that resumes; that command finishes the run."""
    cfg = firefight_config(tmp_path)
    evaluation_round = train.evaluation_round

    def ctrl_c_once(model, cfg, run, game, timesteps, *rest):
        if timesteps == 64:
            os.kill(os.getpid(), signal.SIGINT)
        return evaluation_round(model, cfg, run, game, timesteps, *rest)

    monkeypatch.setattr(train, "evaluation_round", ctrl_c_once)
    argv = ["--config", str(cfg), "--runs-dir", str(tmp_path / "runs")]
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()), pytest.raises(SystemExit) as ex:
        train.cli(argv)
    assert ex.value.code == 130, err.getvalue()
    last = err.getvalue().strip().splitlines()[-1]
    m = re.fullmatch(r"necro-train: interrupted at (\d+) steps; saved (\S+); resume with: (.+)", last)
    assert m, err.getvalue()
    run = tmp_path / "runs" / "firefight_tiny"
    steps = int(m[1])
    assert 64 <= steps < 320 and Path(m[2]) == run / "checkpoints" / "last.zip"
    assert read_metadata(run / "checkpoints" / "last.zip")["num_timesteps"] == steps
    assert (run / "checkpoints" / f"step_{steps}.zip").is_file() and not (run / ".lock").exists()
    command = shlex.split(m[3])
    assert command == ["necro-train", *argv, "--resume"]
    summary = train.main(command[1:])
    assert summary["timesteps"] >= 320 and points(run) == sorted(set(points(run)))
    assert read_metadata(run / "checkpoints" / "last.zip")["num_timesteps"] == summary["timesteps"]
