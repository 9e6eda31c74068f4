"""Replay files (issue 6): record, verify bit for bit, refuse corrupt/truncated/mismatched files."""
import json

import numpy as np
import pytest

from necro_env import necromunda_v0
from necro_env.replay import FORMAT_VERSION, ReplayError, read_replay, record, verify
from necro_env.replay.cli import main


def lines_of(path):
    return path.read_text().splitlines()


def write_lines(path, lines):
    path.write_text("\n".join(lines) + "\n")
    return path


def test_record_and_verify(replay_file):
    rep = read_replay(replay_file)
    h = rep.header
    assert h["format"] == "necro_env-replay" and h["version"] == FORMAT_VERSION
    assert set(h["hashes"]) == {"weapons", "armour", "board", "gangs"} and len(h["hashes"]["gangs"]) == 2
    assert rep.end["done"] and rep.end["steps"] == len(rep.steps) > 10
    res = verify(replay_file)
    assert res.steps == len(rep.steps) and res.events == len(rep.reset["events"]) + sum(
        len(s["events"]) for s in rep.steps)


def test_same_seed_same_file(tmp_path, replay_file):
    """Recording is deterministic: the same seed writes the same bytes."""
    again = record(tmp_path / "again.jsonl", seed=5)
    assert again.read_bytes() == replay_file.read_bytes()


def corrupt_event(replay_file, tmp_path):
    lines = lines_of(replay_file)
    n = next(i for i, ln in enumerate(lines) if '"type":"step"' in ln and json.loads(ln)["events"])
    obj = json.loads(lines[n])
    obj["events"][0][3] += 1  # a die or a field of the first event
    lines[n] = json.dumps(obj, separators=(",", ":"))
    return write_lines(tmp_path / "bad.jsonl", lines), n + 1


def test_hand_corrupted_event_is_refused(replay_file, tmp_path):
    bad, line = corrupt_event(replay_file, tmp_path)
    with pytest.raises(ReplayError) as err:
        verify(bad)
    assert err.value.line == line and err.value.field == "events[0]"
    assert "recorded event" in str(err.value) and "re-simulation gives" in str(err.value)


def test_changed_action_is_refused(replay_file, tmp_path):
    lines = lines_of(replay_file)
    obj = json.loads(lines[4])
    obj["action"] = 10 ** 6
    lines[4] = json.dumps(obj)
    with pytest.raises(ReplayError, match="line 5, field 'action'.*outside the action space"):
        verify(write_lines(tmp_path / "bad.jsonl", lines))


@pytest.mark.parametrize("mutate, pattern", [
    (lambda ls: ls[:-3], r"line \d+: truncated: the file ends after line \d+ .* without the end record"),
    (lambda ls: ls[:1], r"line 2, field 'type': truncated: the reset record"),
    (lambda ls: ls[:6] + [ls[6][: len(ls[6]) // 2]] + ls[7:], r"line 7: not valid JSON"),
    (lambda ls: [ls[0].replace('"version":1', '"version":99')] + ls[1:],
     r"line 1, field 'version': replay format version 99; this necro_env reads version 1"),
    (lambda ls: [ls[0].replace('"necro_env-replay"', '"other"')] + ls[1:], r"line 1, field 'format': not a necro_env"),
    (lambda ls: ls[:3] + ls[4:], r"line 4, field 'i': step 2 out of sequence: expected step 1"),
    (lambda ls: ls[:3] + [ls[3].replace('"gang":', '"gangX":')] + ls[4:], r"line 4, field 'gang': missing"),
    (lambda ls: [], r"file: empty file"),
])
def test_broken_files_are_refused_with_line_and_field(replay_file, tmp_path, mutate, pattern):
    bad = write_lines(tmp_path / "bad.jsonl", mutate(lines_of(replay_file)))
    with pytest.raises(ReplayError, match=pattern):
        verify(bad)


def test_changed_data_is_refused(replay_file, tmp_path):
    lines = lines_of(replay_file)
    head = json.loads(lines[0])
    head["hashes"]["board"] = "0" * 16
    lines[0] = json.dumps(head)
    with pytest.raises(ReplayError, match="field 'hashes.board': the board data differ"):
        verify(write_lines(tmp_path / "bad.jsonl", lines))


def test_cli_refuses_without_traceback(replay_file, tmp_path, capsys):
    bad, line = corrupt_event(replay_file, tmp_path)
    assert main(["verify", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("FAILED ") and f"line {line}" in err and "Traceback" not in err
    assert main(["show", str(tmp_path / "missing.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["verify", str(replay_file)]) == 0
    assert capsys.readouterr().out.startswith("OK ")


def test_cli_show_prints_the_battle_log(replay_file, capsys):
    assert main(["show", str(replay_file), "--steps"]) == 0
    out = capsys.readouterr().out
    assert "=== Round 1 ===" in out and "-- step 0:" in out and "=== Game over" in out
    rep = read_replay(replay_file)
    n_events = len(rep.reset["events"]) + sum(len(s["events"]) for s in rep.steps)
    body = [ln for ln in out.splitlines() if not ln.startswith(("#", "-- step"))]
    assert len(body) == n_events


def test_env_records_replays(tmp_path):
    """raw_env(record_replay=dir) writes one verifiable file per game."""
    env = necromunda_v0.env(record_replay=str(tmp_path))
    rng = np.random.default_rng(1)
    for seed in (11, 12):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    env.close()
    files = sorted(tmp_path.glob("*.jsonl"))
    assert [f.name for f in files] == ["game_00000_seed11.jsonl", "game_00001_seed12.jsonl"]
    for f in files:
        assert verify(f).done


def test_unfinished_game_verifies(tmp_path):
    """An env closed mid-game leaves a complete file of an unfinished game."""
    env = necromunda_v0.env(record_replay=str(tmp_path / "g.jsonl"))
    env.reset(seed=3)
    for _ in range(15):
        obs = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    env.close()
    res = verify(tmp_path / "g.jsonl")
    assert res.steps == 15 and not res.done


def test_gang_hash_covers_every_fighter_field_that_changes_play():
    """A replay recorded with other data is refused by its hashes: a fighter's shield (§12) is part
    of its gang's hash, like its weapons and armour."""
    from necro_env.replay.format import data_hashes
    from necro_env.testing import board, fighter, gang, scenario

    def hashes(shield):
        g0 = gang("a", fighter("orlock", "ganger", ["autogun"], name="x", shield=shield))
        g1 = gang("b", fighter("orlock", "ganger", ["autogun"], name="y"))
        game = scenario(board("\n".join(["." * 6] * 3)), [g0, g1], [dict(fighter="x", cell=(0, 0)),
                                                                    dict(fighter="y", cell=(5, 2))])
        return data_hashes(game)

    plain, shielded = hashes("none"), hashes("assault")
    assert plain["gangs"][0] != shielded["gangs"][0]
    assert plain["gangs"][1] == shielded["gangs"][1]
