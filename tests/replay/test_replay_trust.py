"""Replays that cannot lie (issue 4 and 6, 2026-12-01): every header and record field a reader sees is
recomputed by ``verify`` (and by ``html``/``gif``, which re-simulate), and the commands refuse bad
input with one line ``necro-replay: <message>`` and exit status 2."""
import contextlib
import io
import json

import pytest

from necro_env.replay import ReplayError, read_replay, verify
from necro_env.replay.cli import main


def rewrite(src, dst, line, change):
    """``src`` with JSON line ``line`` (1-based) changed in place by ``change(obj)``, written to ``dst``."""
    lines = src.read_text().splitlines()
    obj = json.loads(lines[line - 1])
    change(obj)
    lines[line - 1] = json.dumps(obj, separators=(",", ":"))
    dst.write_text("\n".join(lines) + "\n")
    return dst


def run_cli(*argv):
    """(exit status, stdout, stderr) of ``necro-replay ARGV`` run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def swap_gangs(h):
    h["names"]["gangs"].reverse()


def test_swapped_gang_names_fail_verify(replay_file, tmp_path):
    """The issue's example: gang names swapped in the header verified "OK" before."""
    bad = rewrite(replay_file, tmp_path / "swapped.jsonl", 1, swap_gangs)
    with pytest.raises(ReplayError) as err:
        verify(bad)
    assert err.value.line == 1 and err.value.field == "names.gangs[0]"
    assert "'gang_1' recorded, 'gang_0' recomputed" in str(err.value)


def test_swapped_fighter_names_fail_verify(replay_file, tmp_path):
    def swap(h):
        f = h["names"]["fighters"][0]
        f[0], f[1] = f[1], f[0]

    bad = rewrite(replay_file, tmp_path / "fighters.jsonl", 1, swap)
    with pytest.raises(ReplayError, match=r"line 1, field 'names\.fighters\[0\]\[0\]': .* recorded, .* recomputed"):
        verify(bad)


@pytest.mark.parametrize("line, change, field", [
    (2, lambda r: r.update(round=3), "round"),                     # the reset's round
    (5, lambda r: r.update(round=r["round"] + 1), "round"),        # a step's round: the log's "R<n>"
    (-1, lambda r: r.update(truncated=not r["truncated"]), "truncated"),
    (-1, lambda r: r.update(illegal=True), "illegal"),           # a finished game was not ended by an illegal action
])
def test_tampered_records_fail_verify(replay_file, tmp_path, line, change, field):
    n = len(replay_file.read_text().splitlines()) if line == -1 else line
    bad = rewrite(replay_file, tmp_path / "tampered.jsonl", n, change)
    with pytest.raises(ReplayError) as err:
        verify(bad)
    assert (err.value.line, err.value.field) == (n, field), str(err.value)
    assert "recorded" in str(err.value)


def test_unfinished_game_cannot_claim_a_winner(tmp_path):
    from necro_env.replay import record

    src = record(tmp_path / "short.jsonl", seed=2, max_steps=6)
    bad = rewrite(src, tmp_path / "winner.jsonl", 9, lambda r: r.update(winner=1))
    with pytest.raises(ReplayError, match=r"line 9, field 'winner': 1 recorded, -1 re-simulated"):
        verify(bad)


def test_html_and_gif_refuse_lying_names(replay_file, tmp_path):
    """html and gif re-simulate: they refuse the header that verify refuses, and write nothing."""
    bad = rewrite(replay_file, tmp_path / "swapped.jsonl", 1, swap_gangs)
    for cmd, out in (("html", tmp_path / "g.html"), ("gif", tmp_path / "g.gif")):
        code, _, err = run_cli(cmd, bad, "-o", out)
        assert code == 2 and err.startswith("necro-replay: ") and "names.gangs[0]" in err, err
        assert len(err.splitlines()) == 1 and not out.exists()


def test_verify_names_the_env_version_it_cannot_check(replay_file, tmp_path):
    """env_version is the recorder's word: verify reports a differing one instead of trusting it."""
    other = rewrite(replay_file, tmp_path / "v.jsonl", 1, lambda h: h.update(env_version="0.0.1"))
    assert any("recorded by necro_env 0.0.1" in n for n in verify(other).notes)


def test_record_errors_are_one_line(tmp_path):
    """ConfigError and ValueError from record's game options: one line, exit 2, nothing written."""
    out = tmp_path / "g.jsonl"
    code, _, err = run_cli("record", "-o", out, "--board", "boards/no_such_board.yaml")
    assert code == 2 and err.startswith("necro-replay: ") and "no_such_board.yaml" in err, err
    assert len(err.splitlines()) == 1 and not out.exists()
    code, _, err = run_cli("record", "-o", out, "--board", "generate:sector:1:n_zones=2", "--num-gangs", "4")
    assert code == 2 and "deployment zones for 2 gangs" in err and len(err.splitlines()) == 1, err
    assert not out.exists()


def test_record_round_limit_is_used_not_dropped(tmp_path):
    """``--round-limit N`` reaches the game (the old ``if args.round_limit`` dropped a 0)."""
    out = tmp_path / "g.jsonl"
    assert run_cli("record", "-o", out, "--round-limit", "1")[0] == 0
    rep = read_replay(out)
    assert rep.header["config"]["round_limit"] == 1 and rep.end["truncated"]
    code, _, err = run_cli("record", "-o", tmp_path / "h.jsonl", "--round-limit", "0")
    assert code == 2 and "--round-limit" in err and "from 1 to 99" in err, err
    assert not (tmp_path / "h.jsonl").exists()


def test_header_config_fields_are_the_game_builders():
    """format.CONFIG_FIELDS (what a header's config may hold) names exactly build_game's parameters."""
    import inspect

    from necro_env.envs.necromunda_env import build_game
    from necro_env.replay.format import CONFIG_FIELDS

    assert list(CONFIG_FIELDS) == list(inspect.signature(build_game).parameters)


def test_show_names_an_inline_board(replay_file, tmp_path):
    """A board written inline in the header (a dict holding a multi-line map) passes the header
    checks, and `show` names it instead of printing its map into the header line."""
    board = {"name": "tiny", "map": "####\n#01#\n####\n"}
    f = rewrite(replay_file, tmp_path / "inline.jsonl", 1, lambda h: h["config"].update(board=board))
    code, out, _ = run_cli("show", f)
    assert code == 0 and "board=<inline board 'tiny'>" in out.splitlines()[0]
