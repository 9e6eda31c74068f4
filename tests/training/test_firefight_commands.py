"""necro-eval --game firefight (added 2026-12-02): the paired round robin of Firefight's scripts, with the same
tables and files as Necromunda's; the refusals are catalogue cases (tests/robustness/cases_firefight_training.py)."""
from __future__ import annotations

import json

from training.evaluate import main, parse_args


def test_eval_firefight_two_pairs_tables_every_agent(tmp_path, capsys):
    res = main(["--game", "firefight", "holder", "charger", "random", "--pairs", "2",
                "--runs-dir", str(tmp_path), "--name", "ff"])
    pairs = {(m["agent"], m["opponent"]) for m in res["matches"]}
    assert pairs == {("holder", "charger"), ("holder", "random"), ("charger", "random")}
    assert all(m["games"] == 4 and m["win"] + m["draw"] + m["loss"] == 4 for m in res["matches"])
    assert set(res["ratings"]) == {"holder", "charger", "random"} and res["ratings"]["random"] == 0.0
    run = tmp_path / "ff"
    table = (run / "eval.md").read_text()
    assert all(f"| {a} |" in table for a in ("holder", "charger", "random"))
    assert json.loads((run / "eval.json").read_text())["game"] == "firefight"
    assert (run / "eval.csv").exists() and (run / "ratings.csv").exists() and (run / "eval.png").exists()
    assert "holder" in capsys.readouterr().out


def test_eval_game_defaults_to_necromunda():
    assert parse_args(["random", "gunline"]).game == "necromunda"


def test_tiny_training_writes_a_checkpoint_necro_eval_plays(tmp_path):
    from pathlib import Path

    from training.train import main as train

    tiny = Path(__file__).resolve().parents[2] / "configs" / "test" / "training" / "firefight_tiny.yaml"
    summary = train(["--config", str(tiny), "--runs-dir", str(tmp_path)])
    run = tmp_path / "firefight_tiny"
    assert summary["timesteps"] >= 256 and summary["game"] == "firefight"
    meta = json.loads((run / "final.meta.json").read_text())
    assert meta["game"] == "firefight" and meta["encoder"] == "flat"
    assert (run / "checkpoints" / "step_128.zip").exists() and (run / "progress.csv").exists()
    assert {m["opponent"] for m in json.loads((run / "eval.json").read_text())["matches"]} == {"random", "holder"}
    res = main(["--game", "firefight", str(run / "final.zip"), "holder", "--pairs", "1",
                "--runs-dir", str(tmp_path), "--name", "ckpt"])
    assert res["agents"] == ["firefight_tiny/final", "holder"] and res["matches"][0]["games"] == 2


def test_shipped_firefight_config_is_valid():
    from training.common import load_config

    cfg = load_config("training/firefight.yaml")
    assert cfg["game"] == "firefight" and cfg["opponent"] == "random" and cfg["total_timesteps"] > 0
