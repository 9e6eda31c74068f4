"""Training, resume, self-play and evaluation CLIs on tiny configs (seconds each)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from training import evaluate, selfplay, train

ROOT = Path(__file__).resolve().parents[2]


def test_train_writes_a_run_and_resumes_from_the_last_checkpoint(tmp_path, tiny_config):
    cfg = tiny_config(total=64)
    train.main(["--config", str(cfg), "--runs-dir", str(tmp_path)])
    run = tmp_path / "tiny"
    meta = json.loads((run / "checkpoints" / "last.meta.json").read_text())
    assert meta["num_timesteps"] == 64 and meta["encoder"] == "flat"
    assert (run / "config.yaml").is_file() and (run / "final.zip").is_file() and any((run / "tb").iterdir())
    # "interrupted" at 64 steps: resume to 128 continues the same model and step counter
    train.main(["--config", str(cfg), "--runs-dir", str(tmp_path), "--resume", "--timesteps", "128"])
    meta = json.loads((run / "checkpoints" / "last.meta.json").read_text())
    assert meta["num_timesteps"] == 128
    assert (run / "checkpoints" / "step_64.zip").is_file() and (run / "checkpoints" / "step_128.zip").is_file()
    assert json.loads((run / "summary.json").read_text())["timesteps"] == 128


def test_resume_without_a_checkpoint_is_refused(tmp_path, tiny_config):
    """Refused before anything is made (it used to leave a run folder with config.yaml behind)."""
    from training.run_folder import RunFolderError

    with pytest.raises(RunFolderError, match="--resume: no checkpoint to resume at .*last.zip"):
        train.main(["--config", str(tiny_config()), "--runs-dir", str(tmp_path / "runs"), "--resume"])
    assert not (tmp_path / "runs").exists()


def test_train_with_final_evaluation_and_battle_log(tmp_path, tiny_config):
    cfg = tiny_config(name="withEval", total=64, extra="")
    train.main(["--config", str(cfg), "--runs-dir", str(tmp_path), "--eval-games", "2"])
    run = tmp_path / "withEval"
    res = json.loads((run / "eval.json").read_text())
    assert {m["opponent"] for m in res["matches"]} == {"random", "gunline", "aggressor"}
    assert all(m["games"] == 2 for m in res["matches"])
    md = (run / "eval.md").read_text()
    assert all(f"| learner | {o} | 2 |" in md for o in ("random", "gunline", "aggressor"))
    game = json.loads((run / "final_game.json").read_text())
    assert game["decisions"] == len(game["steps"]) > 0 and game["agents"][0] == "learner"


def test_a_bad_checkpoint_among_the_eval_opponents_is_refused_before_training(tmp_path, tiny_config):
    """eval.opponents are played only after training: a file there that cannot be played is refused
    at the start, in one line naming the field and the file, and no run folder is written."""
    cfg = tiny_config(name="badEval", total=64)
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"not a zip")
    cfg.write_text(cfg.read_text().replace("eval: {games: 0, every: 0}",
                                           f"eval: {{games: 2, every: 0, opponents: [random, {bad}]}}"))
    with pytest.raises(SystemExit, match=r"^necro-train: eval\.opponents: .*bad\.zip"):
        train.main(["--config", str(cfg), "--runs-dir", str(tmp_path)])
    assert not (tmp_path / "badEval").exists()


def test_selfplay_builds_a_pool_and_a_rating_curve(tmp_path, tiny_config):
    cfg = tiny_config(name="sp", total=128, extra="""
        selfplay: {pool_size: 2, snapshot_every: 64, latest_prob: 0.5, heuristic_prob: 0.5, rating_games: 2}
    """)
    out = selfplay.main(["--config", str(cfg), "--runs-dir", str(tmp_path)])
    run = tmp_path / "sp"
    assert [s for s, _ in out["snapshots"]] == ["snap_64", "snap_128"]
    lines = (run / "rating_curve.csv").read_text().splitlines()
    assert lines[0] == "snapshot,timesteps,rating" and len(lines) == 3
    rows = (run / "rating_games.csv").read_text().splitlines()
    assert len(rows) == 1 + 1 + 2  # snap_64 vs random; snap_128 vs random and snap_64


def test_selfplay_rates_snapshots_against_the_heuristics_as_anchors(tmp_path, tiny_config):
    """selfplay.rating_anchors: every snapshot also plays the listed built-in agents, which the fit
    rates on the same scale (written to ratings.csv) and the curve draws as lines; random must be one."""
    cfg = tiny_config(name="spa", total=128, extra="""
        selfplay: {pool_size: 2, snapshot_every: 64, rating_games: 2, rating_anchors: [random, gunline]}
    """)
    out = selfplay.main(["--config", str(cfg), "--runs-dir", str(tmp_path)])
    run = tmp_path / "spa"
    games = [r.split(",")[:2] for r in (run / "rating_games.csv").read_text().splitlines()[1:]]
    assert games == [["snap_64", "random"], ["snap_64", "gunline"],
                     ["snap_128", "random"], ["snap_128", "gunline"], ["snap_128", "snap_64"]]
    assert "gunline" in out["ratings"] and out["ratings"]["random"] == 0.0
    assert "gunline," in (run / "ratings.csv").read_text()
    from necro_env.config import ConfigError
    from necro_env.config.training import load_training

    for anchors, why in (("[gunline]", "must include random"), ("[random, random]", "each anchor once"),
                         ("[random, sniper]", "sniper")):
        bad = tiny_config(name="bad", extra=f"selfplay: {{rating_anchors: {anchors}}}\n")
        with pytest.raises(ConfigError, match=why) as err:
            load_training(bad)
        assert "rating_anchors" in str(err.value)


def test_pool_keeps_the_first_and_newest_snapshots():
    pool = selfplay.OpponentPool({"pool_size": 3, "latest_prob": 1.0, "heuristic_prob": 0.0}, seed=0)
    assert pool.sample() is pool.random
    for i in range(5):  # add stand-ins without loading checkpoints
        pool.paths.append(Path(f"s{i}"))
        pool.agents.append(f"agent{i}")
        while len(pool.agents) > max(1, pool.sp["pool_size"]):
            del pool.paths[1], pool.agents[1]
    assert pool.agents == ["agent0", "agent3", "agent4"]
    assert pool.sample() == "agent4"


def test_eval_cli_prints_json_with_ratings(tmp_path, capsys):
    evaluate.main(["random", "aggressor", "--pairs", "1", "--runs-dir", str(tmp_path), "--json"])
    res = json.loads(capsys.readouterr().out)
    (m,) = res["matches"]
    assert m["games"] == 2 and m["win"] + m["draw"] + m["loss"] == 2
    assert res["ratings"]["random"] == 0.0
    for f in ("eval.md", "eval.csv", "eval.json", "ratings.csv", "eval.png", "config.yaml", "final_game.json"):
        assert (tmp_path / "eval" / f).is_file()


def test_eval_cli_streams(tmp_path, capsys):
    """--streams K plays every pair K times with other player seeds; a value below 1 is refused."""
    evaluate.main(["random", "aggressor", "--pairs", "1", "--streams", "2", "--runs-dir", str(tmp_path), "--json"])
    res = json.loads(capsys.readouterr().out)
    (m,) = res["matches"]
    assert res["streams"] == 2 and m["games"] == 4 and m["streams"] == 2 and len(m["wins_by_stream"].split()) == 2
    with pytest.raises(SystemExit):
        evaluate.main(["random", "aggressor", "--streams", "0", "--runs-dir", str(tmp_path)])
    assert "--streams must be at least 1, got 0" in capsys.readouterr().err


def test_eval_cli_flushes_each_matchs_line_before_the_next_match(tmp_path, monkeypatch):
    """Written to a file, stdout is block-buffered: necro-eval flushes each match's [eval] line as it
    is played, so a log of a long evaluation shows the finished matches (it used to show nothing until
    the end)."""
    events = []

    class Recorder:
        def write(self, s):
            if s.strip():
                events.append(("write", s.split()[0]))
            return len(s)

        def flush(self):
            events.append(("flush", None))

    monkeypatch.setattr("sys.stdout", Recorder())
    evaluate.main(["random", "aggressor", "gunline", "--pairs", "1", "--runs-dir", str(tmp_path)])
    lines = [i for i, e in enumerate(events) if e == ("write", "[eval]")]
    assert len(lines) == 3  # three matches
    for i in lines:
        assert ("flush", None) in events[i + 1:i + 3], events[i:i + 3]


@pytest.mark.parametrize("module", ["training.train", "training.selfplay", "training.evaluate"])
def test_cli_help(module):
    out = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert out.returncode == 0 and "usage:" in out.stdout


def test_console_scripts_exit_0_after_a_successful_run(tmp_path):
    """pyproject's entry points call ``sys.exit(target())``: a target returning the run's results
    (as ``main`` does, for scripts) would print them and exit with status 1."""
    import tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    for name in ("necro-train", "necro-selfplay", "necro-eval"):
        assert scripts[name].endswith(":cli"), name
    code = ("import sys; from training.evaluate import cli; "
            f"sys.exit(cli(['random', 'random', '--pairs', '1', '--runs-dir', {str(tmp_path)!r}]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert (tmp_path / "eval" / "eval.md").is_file()


def test_tensorboard_is_optional(tmp_path, monkeypatch):
    """Without TensorBoard a run still trains (CSV logs only) and says why there are no TB logs."""
    import builtins

    from training.common import tb_log_dir

    assert tb_log_dir(tmp_path / "tb") == str(tmp_path / "tb")
    real_import = builtins.__import__

    def no_tensorboard(name, *args, **kwargs):
        if name.startswith("torch.utils.tensorboard"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_tensorboard)
    with pytest.warns(UserWarning, match="tensorboard is not installed"):
        assert tb_log_dir(tmp_path / "tb") is None


def test_keep_best_makes_the_best_periodic_policy_the_final_one(tmp_path, tiny_config):
    """eval.keep_best: final.zip is the policy with the highest mean periodic score (ties go to
    the later one), and the last policy competes even when it falls between evaluations."""
    cfg = tiny_config(name="best", total=160)
    cfg.write_text(cfg.read_text().replace("eval: {games: 0, every: 0}",
                                           "eval: {games: 0, every: 100, periodic_games: 2, keep_best: true}"))
    train.main(["--config", str(cfg), "--runs-dir", str(tmp_path)])
    run = tmp_path / "best"
    scores: dict = {}
    for line in (run / "progress.csv").read_text().splitlines()[1:]:
        row = dict(zip((run / "progress.csv").read_text().splitlines()[0].split(","), line.split(",")))
        scores.setdefault(int(row["timesteps"]), []).append(float(row["score"]))
    assert sorted(scores) == [100, 192]  # 192: the last policy (3 rollouts of 64), evaluated at the end
    mean = {t: sum(v) / len(v) for t, v in scores.items()}
    want = max(t for t in mean if mean[t] == max(mean.values()))
    best = json.loads((run / "checkpoints" / "best.json").read_text())
    assert best["timesteps"] == want and best["score"] == pytest.approx(mean[want])
    final = json.loads((run / "final.meta.json").read_text())
    assert final["num_timesteps"] == want and final["selected"] == "best"
