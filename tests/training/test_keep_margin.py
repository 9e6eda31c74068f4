"""eval.keep_margin: keep_best replaces the kept policy only when a later one beats it on the same
periodic games by more than the paired difference's noise (training/train.py keep_if_best,
training/evaluate.py paired_difference; docs/training.md, the ``eval`` row)."""
import json
import math

import pytest

from agents import make_agent
from necro_env.envs.necromunda_env import build_game
from training import train
from training.evaluate import GAME_SCORE, paired_difference, paired_match, replaces_kept

W, D, L = 0, 1, 2  # paired_match's outcome codes


def test_paired_match_lists_every_game_outcome_in_play_order():
    game = build_game()
    m = paired_match(game, make_agent("gunline", seed=1), make_agent("random", seed=2), pairs=2, seed0=11)
    assert len(m["outcomes"]) == m["games"] == 4
    assert [m["outcomes"].count(j) for j in (W, D, L)] == [m["win"], m["draw"], m["loss"]]
    # the order is seed by seed, gang 0 then gang 1: the by_side counts are the even and odd games
    for side in (0, 1):
        assert [m["outcomes"][side::2].count(j) for j in (W, D, L)] == m["by_side"][side]


def test_paired_difference_is_the_mean_and_paired_standard_error_of_the_score_differences():
    new = [W, W, D, L, W]
    old = [W, L, L, L, D]  # differences 0, 1, 0.5, 0, 0.5
    mean, se = paired_difference(new, old)
    d = [0, 1, 0.5, 0, 0.5]
    sd = math.sqrt(sum((x - 0.4) ** 2 for x in d) / 4)
    assert mean == pytest.approx(0.4) and se == pytest.approx(sd / math.sqrt(5))
    assert paired_difference(old, old) == (0.0, 0.0)
    with pytest.raises(ValueError, match="same games"):
        paired_difference(new, old[:4])


def test_replaces_kept_by_mean_score_without_a_margin_or_paired_games_and_by_the_paired_test_with_them():
    kept = [W] * 10 + [L] * 10
    better = [W] * 11 + [L] * 9  # one game better: +0.05 per game, standard error 0.05
    assert replaces_kept(0.55, better, 0.5, kept, 0.0) == (True, None)
    assert replaces_kept(0.5, kept, 0.5, kept, 0.0) == (True, None)  # a tie goes to the later policy
    assert replaces_kept(0.45, kept[1:] + [L], 0.5, kept, 0.0) == (False, None)
    replace, test = replaces_kept(0.55, better, 0.5, kept, 1.645)
    assert replace is False and test == pytest.approx(paired_difference(better, kept))
    replace, test = replaces_kept(0.55, better, 0.5, kept, 0.9)  # 0.05 > 0.9 x 0.05
    assert replace is True and test is not None
    # a margin with nothing to pair (no outcomes kept, or other games): by mean score
    assert replaces_kept(0.55, better, 0.5, None, 1.645) == (True, None)
    assert replaces_kept(0.55, better, 0.5, kept[:10], 1.645) == (True, None)
    assert replaces_kept(0.45, None, 0.5, kept, 1.645) == (False, None)


@pytest.fixture
def keeper(tmp_path, monkeypatch):
    """keep_if_best on a fake model: save_checkpoint records what it would save."""
    saved = []
    monkeypatch.setattr("agents.checkpoint.save_checkpoint", lambda model, path, game, enc, extra: saved.append(model))
    (tmp_path / "checkpoints").mkdir()
    logs = []

    def keep(model, outcomes, margin, rows=None):
        cfg = {"name": "t", "encoder": "flat", "eval": {"keep_best": True, "keep_margin": margin}}
        score = sum(GAME_SCORE[j] for j in outcomes) / len(outcomes)
        rows = rows or [{"score": score}]
        return train.keep_if_best(model, tmp_path, None, cfg, rows, model, logs.append, outcomes)

    keep.saved, keep.logs = saved, logs
    keep.best = lambda: json.loads((tmp_path / "checkpoints" / "best.json").read_text())
    return keep


def test_with_a_margin_a_policy_one_game_better_does_not_replace_the_kept_one(keeper):
    first = [W] * 10 + [L] * 10
    assert keeper(0, first, 1.645) is True and keeper.best()["outcomes"] == first
    one_better = [W] * 11 + [L] * 9  # one loss turned into a win: +0.05 a game, its standard error 0.05
    assert keeper(100, one_better, 1.645) is False
    assert keeper.saved == [0] and keeper.best()["timesteps"] == 0
    assert "kept the policy at 0 steps" in keeper.logs[-1] and "eval.keep_margin" in keeper.logs[-1]
    # six losses turned into wins: +0.3 a game, standard error 0.105: beyond 1.645 of them
    six_better = [W] * 16 + [L] * 4
    assert keeper(200, six_better, 1.645) is True
    assert keeper.saved == [0, 200] and keeper.best()["timesteps"] == 200
    # a policy as good as the kept one, game for game, does not replace it either
    assert keeper(300, six_better, 1.645) is False


def test_without_a_margin_the_higher_or_equal_mean_score_is_kept(keeper):
    first = [W] * 10 + [L] * 10
    assert keeper(0, first, 0.0) is True
    assert keeper(100, [W] * 11 + [L] * 9, 0.0) is True  # one game better is enough
    assert keeper(200, [W] * 11 + [L] * 9, 0.0) is True  # ties go to the later policy
    assert keeper(300, [W] * 10 + [L] * 10, 0.0) is False
    assert keeper.saved == [0, 100, 200]


def test_a_kept_policy_without_outcomes_is_compared_by_mean_score(keeper, tmp_path):
    """best.json written before keep_margin existed (no outcomes): the mean score decides."""
    (tmp_path / "checkpoints" / "best.json").write_text(json.dumps({"timesteps": 0, "score": 0.5, "rows": []}))
    assert keeper(100, [W] * 11 + [L] * 9, 1.645) is True
    assert "compared by mean score" in keeper.logs[0]
    assert keeper.best()["outcomes"] == [W] * 11 + [L] * 9


def test_the_mean_score_fallback_is_said_once_per_run(keeper, tmp_path):
    """A resumed run whose kept policy's best.json has no outcomes: every periodic evaluation that does not
    replace it is compared by mean score, and the log says so once, not at every evaluation."""
    (tmp_path / "checkpoints" / "best.json").write_text(json.dumps({"timesteps": 0, "score": 0.9, "rows": []}))
    for steps in (100, 200, 300):
        assert keeper(steps, [W] * 11 + [L] * 9, 1.645) is False
    assert sum("compared by mean score" in line for line in keeper.logs) == 1


def test_keep_margin_in_a_training_run_keeps_the_first_policy(tmp_path, tiny_config, monkeypatch):
    """A margin no later policy can pass on two periodic games: final.zip is the policy of the first
    evaluation, and progress.csv still records every evaluation."""
    cfg = tiny_config(name="margin", total=160)
    cfg.write_text(cfg.read_text().replace(
        "eval: {games: 0, every: 0}", "eval: {games: 0, every: 100, periodic_games: 2, keep_best: true, keep_margin: 100}"))
    train.main(["--config", str(cfg), "--runs-dir", str(tmp_path)])
    run = tmp_path / "margin"
    steps = sorted({int(line.split(",")[0]) for line in (run / "progress.csv").read_text().splitlines()[1:]})
    assert steps == [100, 192]
    best = json.loads((run / "checkpoints" / "best.json").read_text())
    assert best["timesteps"] == 100 and len(best["outcomes"]) == 2
    final = json.loads((run / "final.meta.json").read_text())
    assert final["num_timesteps"] == 100 and final["selected"] == "best"
    summary = json.loads((run / "summary.json").read_text())
    assert summary["timesteps"] == 192 and summary["final_timesteps"] == 100
    # the training curve marks the kept policy on the periodic win-rate curves
    import training.plots

    drawn = {}
    monkeypatch.setattr(training.plots, "line_chart", lambda path, left, **kw: drawn.update(kw))
    train.training_curve(run)
    kept = [r for r in drawn["right"] if "kept as final.zip" in r[0]]
    assert len(kept) == 1 and kept[0][1] == [100] and kept[0][3] == "dots"


def test_keep_margin_must_not_be_negative(tmp_path, tiny_config):
    from necro_env.config.errors import ConfigError

    cfg = tiny_config(name="neg")
    cfg.write_text(cfg.read_text().replace("eval: {games: 0, every: 0}", "eval: {games: 0, every: 100, keep_margin: -1}"))
    with pytest.raises(ConfigError, match="keep_margin"):
        train.main(["--config", str(cfg), "--runs-dir", str(tmp_path)])
