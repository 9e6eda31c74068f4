"""necro-eval's paired differences: two agents that played the same opponent on the same games,
compared game by game (training/evaluate.py paired_comparisons; docs/training.md, "Paired
differences")."""
import csv
import json

import pytest

from agents import make_agent
from necro_env.envs.necromunda_env import build_game
from training import evaluate
from training.evaluate import paired_comparisons, round_robin, seen_by_second

W, D, L = 0, 1, 2


def test_the_second_agents_view_swaps_each_pairs_games_and_its_results():
    # first agent: gang 0 won, gang 1 drew | gang 0 lost, gang 1 lost
    assert seen_by_second([W, D, L, L]) == [D, L, W, W]
    assert seen_by_second(seen_by_second([W, D, L, L])) == [W, D, L, L]


def test_paired_comparisons_of_two_agents_against_one_opponent():
    # a and b against x on the same four games; b played second in its match
    a_codes = [W, W, L, D]
    b_seen_by_x = [L, W, D, W]  # x first: b's own view is seen_by_second of it
    rows = paired_comparisons([("a", "x", a_codes), ("x", "b", b_seen_by_x)])
    (r,) = [r for r in rows if r["against"] == "x"]
    b_codes = seen_by_second(b_seen_by_x)  # [L, W, L, D]
    assert b_codes == [L, W, L, D] and (r["agent"], r["minus"], r["games"]) == ("a", "b", 4)
    # differences of score 1, 0, 0, 0 and of wins 1, 0, 0, 0: mean 0.25, sd 0.5, se 0.25
    assert r["score_diff"] == pytest.approx(0.25) and r["win_rate_diff"] == pytest.approx(0.25)
    assert r["score_diff_low"] == pytest.approx(0.25 - 1.96 * 0.25)
    assert r["win_rate_diff_high"] == pytest.approx(0.25 + 1.96 * 0.25)
    # x played both a and b, but no one else played x's opponents twice: one row only
    assert len(rows) == 1


def test_a_round_robins_paired_differences_are_the_differences_of_its_matches():
    """In a three-agent round robin every agent is the opponent of the other two: the paired score
    difference of a and b against c is a's score against c less b's (whichever side of its match
    each was listed on), and a deterministic agent against itself would differ by exactly 0."""
    game = build_game()
    agents = {"gunline": make_agent("gunline", seed=1), "aggressor": make_agent("aggressor", seed=2),
              "random": make_agent("random", seed=3)}
    res = round_robin(game, agents, pairs=2, seed0=21, log=None)
    score = {}
    for m in res["matches"]:
        score[(m["agent"], m["opponent"])] = m["score"]
        score[(m["opponent"], m["agent"])] = 1.0 - m["score"]
    assert len(res["paired"]) == 3
    for r in res["paired"]:
        assert r["games"] == 4
        want = score[(r["agent"], r["against"])] - score[(r["minus"], r["against"])]
        assert r["score_diff"] == pytest.approx(want)
        assert r["score_diff_low"] <= r["score_diff"] <= r["score_diff_high"]
    assert {(r["agent"], r["minus"], r["against"]) for r in res["paired"]} >= {("aggressor", "random", "gunline")}


def test_necro_eval_against_one_opponent_writes_the_paired_table(tmp_path, capsys):
    res = evaluate.main(["gunline", "aggressor", "random", "--against", "random", "--pairs", "2",
                         "--runs-dir", str(tmp_path), "--name", "pd"])
    (r,) = res["paired"]
    assert (r["agent"], r["minus"], r["against"]) == ("gunline", "aggressor", "random")
    run = tmp_path / "pd"
    md = (run / "eval.md").read_text()
    assert "Paired differences" in md and "| gunline | aggressor | random | 4 |" in md
    with (run / "eval_paired.csv").open() as fh:
        (row,) = list(csv.DictReader(fh))
    assert float(row["score_diff"]) == pytest.approx(r["score_diff"])
    assert json.loads((run / "eval.json").read_text())["paired"][0]["minus"] == "aggressor"
    assert "eval_paired.csv" in capsys.readouterr().out
    # the same run name again (--overwrite) with no two agents sharing an opponent: the old table goes
    res = evaluate.main(["gunline", "random", "--pairs", "1", "--runs-dir", str(tmp_path), "--name", "pd",
                         "--overwrite"])
    assert res["paired"] == [] and not (run / "eval_paired.csv").exists()


def test_a_training_runs_final_evaluation_compares_no_opponents(tmp_path, tiny_config):
    """necro-train's final table is the learner against each opponent: no paired table of the
    opponents against the learner."""
    from training import train

    cfg = tiny_config(name="nopaired", total=64)
    cfg.write_text(cfg.read_text().replace("eval: {games: 0, every: 0}",
                                           "eval: {games: 2, every: 0, opponents: [random, gunline]}"))
    train.main(["--config", str(cfg), "--runs-dir", str(tmp_path)])
    run = tmp_path / "nopaired"
    assert json.loads((run / "eval.json").read_text())["paired"] == []
    assert "Paired differences" not in (run / "eval.md").read_text() and not (run / "eval_paired.csv").exists()
