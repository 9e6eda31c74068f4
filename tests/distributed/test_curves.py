"""training/distributed/curves.py: two runs' progress.csv drawn side by side (docs/images/distributed_rllib_vs_sb3.png)."""
from training.distributed.curves import compare, main


def _run(folder, rows):
    folder.mkdir()
    lines = ["timesteps,seconds,opponent,games,win,draw,loss,win_rate,score"]
    lines += [f"{t},{s},{o},20,{w},0,{20 - w},{w / 20},{w / 20}" for t, s, o, w in rows]
    (folder / "progress.csv").write_text("\n".join(lines) + "\n")
    return folder


def test_two_runs_drawn_as_one_png(tmp_path):
    a = _run(tmp_path / "a", [(10, 60, "random", 4), (20, 120, "random", 8), (20, 120, "gunline", 1)])
    b = _run(tmp_path / "b", [(10, 30, "random", 2)])
    out = compare(tmp_path / "c.png", {"A": a, "B": b})
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_usage_is_one_line(tmp_path):
    import pytest

    with pytest.raises(SystemExit, match="^usage: python -m training.distributed.curves OUT.png LABEL=RUN_FOLDER"):
        main([str(tmp_path / "x.png"), "no_label"])
