"""Replays: bad replay files and bad ``necro-replay`` options (docs/replays.md).

Each case runs ``necro-replay``'s ``main`` in this process and returns what it printed on stderr;
it asserts the exit status and that nothing was written.
"""
from __future__ import annotations

import atexit
import contextlib
import functools
import io
import json
import shutil
import tempfile
from pathlib import Path

from .catalogue import Case

AREA = "Replays"


@functools.lru_cache(maxsize=None)
def _folder() -> Path:
    folder = tempfile.mkdtemp(prefix="necro_cases_replay_")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)  # (a cached folder outlives any one case)
    return Path(folder)


@functools.lru_cache(maxsize=None)
def _good() -> Path:
    """A short recorded game (12 decisions) every case corrupts a copy of."""
    from necro_env.replay import record

    return record(_folder() / "good.jsonl", seed=3, max_steps=12)


def _cli(*argv, status=2) -> str:
    """stderr of ``necro-replay ARGV`` (exit ``status`` asserted)."""
    from necro_env.replay.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    assert code == status, f"exit status {code}, expected {status}: {err.getvalue()}{out.getvalue()}"
    return err.getvalue()


def _bad_file(name, lines) -> Path:
    path = _folder() / name
    path.write_text("\n".join(lines) + "\n")
    return path


def _with(name, line, change) -> Path:
    """The good replay with JSON line ``line`` (1-based) changed by ``change(obj)``."""
    lines = _good().read_text().splitlines()
    obj = json.loads(lines[line - 1])
    change(obj)
    lines[line - 1] = json.dumps(obj)
    return _bad_file(name, lines)


def _show(path) -> str:
    return _cli("show", path)


def _writes_nothing(cmd, *args):
    def run():
        out = _folder() / f"out_{cmd}_{abs(hash(args))}"
        text = _cli(cmd, _good(), "-o", out, *args)
        assert not out.exists(), f"{out} was written"
        return text
    return run


def _record(*args):
    def run():
        out = _folder() / f"rec_{abs(hash(args))}.jsonl"
        text = _cli("record", "-o", out, *args)
        assert not out.exists(), f"{out} was written"
        return text
    return run


def _set(path, value):
    """A changer setting the dotted header ``path`` to ``value``."""
    def change(h):
        *parents, last = path.split(".")
        for p in parents:
            h = h[p]
        h[last] = value
    return change


def _board_outside(board):
    def run():
        text = _cli("verify", _with("outside.jsonl", 1, _set("config.board", board)), status=1)
        assert "root:" not in text and "/bin/" not in text, f"the file's contents were echoed: {text}"
        return text
    return run


CASES = [
    # --- corrupt files
    Case("replay-truncated", AREA, "a replay cut off before its end record",
         r"line \d+: truncated: the file ends after line \d+ .*without the end record",
         lambda: _show(_bad_file("cut.jsonl", _good().read_text().splitlines()[:-2]))),
    Case("replay-not-json", AREA, "a line of the replay that is not JSON (`{\"type\": \"step\", ...` cut in half)",
         r"line 4: not valid JSON",
         lambda: _show(_bad_file("half.jsonl", [ln if i != 3 else ln[:len(ln) // 2]
                                                for i, ln in enumerate(_good().read_text().splitlines())]))),
    Case("replay-version", AREA, "a header with `\"version\": 99` (an unknown format version)",
         r"line 1, field 'version': replay format version 99; this necro_env reads version 1",
         lambda: _show(_with("v99.jsonl", 1, _set("version", 99)))),
    Case("replay-deep-json", AREA, "a line of 100,000 nested `[` (deeply nested JSON)",
         r"line 3: JSON nested too deeply",
         lambda: _show(_bad_file("deep.jsonl", _good().read_text().splitlines()[:2] + ["[" * 100_000]))),
    Case("replay-header-names-type", AREA, "a header with `\"names\": {\"gangs\": 5, ...}`",
         r"line 1, field 'names\.gangs': expected a list of strings, got int 5",
         lambda: _show(_with("names.jsonl", 1, _set("names.gangs", 5)))),
    Case("replay-header-names-missing", AREA, "a header whose `names` lacks `fighters`",
         r"line 1, field 'names\.fighters': missing",
         lambda: _show(_with("nofighters.jsonl", 1, lambda h: h["names"].pop("fighters")))),
    Case("replay-header-width-zero", AREA, "a header with `\"names\": {\"width\": 0, ...}` (the log's cell names)",
         r"line 1, field 'names\.width': expected an integer from 1 to 1000, got int 0",
         lambda: _show(_with("width.jsonl", 1, _set("names.width", 0)))),
    Case("replay-header-control-chars", AREA, "a fighter name with a terminal escape (`\"\\u001b[2J\"`) in the header",
         r"line 1, field 'names\.fighters\[0\]\[0\]': expected a printable string without control characters",
         lambda: _show(_with("esc.jsonl", 1, lambda h: h["names"]["fighters"][0].__setitem__(0, "\x1b[2J")))),
    Case("replay-header-config-type", AREA, "a header with `\"config\": {\"round_limit\": \"12\"}`",
         r"line 1, field 'config\.round_limit': expected an integer from 1 to 99 or null, got str '12'",
         lambda: _show(_with("rl.jsonl", 1, _set("config.round_limit", "12")))),
    Case("replay-header-config-size", AREA, "a header with `\"config\": {\"max_doors\": 1000000000}` "
                                            "(would allocate gigabytes)",
         r"line 1, field 'config\.max_doors': expected an integer from 0 to 256 or null, got int 1000000000",
         lambda: _show(_with("md.jsonl", 1, _set("config.max_doors", 10 ** 9)))),
    Case("replay-header-ruleset", AREA, "a header with `\"ruleset\": {\"name\": \"chess\"}`",
         r"line 1, field 'ruleset\.name': unknown ruleset 'chess'; this necro_env plays necromunda",
         lambda: _show(_with("chess.jsonl", 1, _set("ruleset.name", "chess")))),
    Case("replay-header-seed-type", AREA, "a header with `\"seed\": \"5\"` (a string)",
         r"line 1, field 'seed': expected int, got str '5'",
         lambda: _show(_with("seed.jsonl", 1, _set("seed", "5")))),
    Case("replay-header-seed-range", AREA, "a header with `\"seed\": -1` (a game's seed is one uint64)",
         r"line 1, field 'seed': expected an integer from 0 to 18446744073709551615, got int -1",
         lambda: _show(_with("seedneg.jsonl", 1, _set("seed", -1)))),
    # --- what a replay may reference
    Case("replay-board-parent", AREA, "a header with `\"config\": {\"board\": \"../../etc/passwd\"}`",
         r"FAILED .*line 1, field 'config\.board': '\.\./\.\./etc/passwd' is outside the config root .*a \.yaml file "
         r"under the config root",
         _board_outside("../../etc/passwd")),
    Case("replay-board-absolute", AREA, "a header with `\"config\": {\"board\": \"/etc/passwd\"}` (an absolute path)",
         r"FAILED .*line 1, field 'config\.board': '/etc/passwd' is an absolute path; "
         r".*a \.yaml file under the config root",
         _board_outside("/etc/passwd")),
    # --- the header says what re-simulation does not
    Case("replay-swapped-names", AREA,
         "a replay whose header swaps the two gangs' names (`\"gangs\": [\"gang_1\", \"gang_0\"]`)",
         r"FAILED .*line 1, field 'names\.gangs\[0\]': 'gang_1' recorded, 'gang_0' recomputed",
         lambda: _cli("verify", _with("swap.jsonl", 1, lambda h: h["names"]["gangs"].reverse()), status=1)),
    # --- options
    Case("replay-html-cell", AREA, "`necro-replay html FILE --cell -3`",
         r"^necro-replay: html: argument --cell: got '-3'; allowed: an integer from 1 to 64",
         _writes_nothing("html", "--cell", "-3")),
    Case("replay-gif-cell", AREA, "`necro-replay gif FILE --cell 0`",
         r"^necro-replay: gif: argument --cell: got '0'; allowed: an integer from 1 to 64",
         _writes_nothing("gif", "--cell", "0")),
    Case("replay-gif-every", AREA, "`necro-replay gif FILE --every 0`",
         r"^necro-replay: gif: argument --every: got '0'; allowed: an integer of at least 1",
         _writes_nothing("gif", "--every", "0")),
    Case("replay-gif-ms", AREA, "`necro-replay gif FILE --ms -5`",
         r"^necro-replay: gif: argument --ms: got '-5'; allowed: an integer from 10 to 60000",
         _writes_nothing("gif", "--ms", "-5")),
    Case("replay-max-steps", AREA, "`necro-replay html FILE --max-steps x`",
         r"^necro-replay: html: argument --max-steps: got 'x'; allowed: an integer of at least 1",
         _writes_nothing("html", "--max-steps", "x")),
    Case("replay-record-round-limit", AREA, "`necro-replay record --round-limit 0` (was dropped as if not given)",
         r"^necro-replay: record: argument --round-limit: got '0'; allowed: an integer from 1 to 99",
         _record("--round-limit", "0")),
    Case("replay-record-seed", AREA, "`necro-replay record --seed -1`",
         r"^necro-replay: record: argument --seed: got '-1'; allowed: an integer of at least 0",
         _record("--seed", "-1")),
    Case("replay-record-board", AREA, "`necro-replay record --board boards/nope.yaml` (a ConfigError)",
         r"^necro-replay: boards/nope\.yaml: field '\(file\)': .*no such file",
         _record("--board", "boards/nope.yaml")),
    Case("replay-record-gangs", AREA,
         "`necro-replay record --board generate:sector:1:n_zones=2 --num-gangs 4` (a ValueError of the game's build)",
         r"^necro-replay: board 'gen_sector_1' has deployment zones for 2 gangs, but 4 gangs were asked for",
         _record("--board", "generate:sector:1:n_zones=2", "--num-gangs", "4")),
    Case("replay-html-output-folder", AREA, "`necro-replay html FILE -o no_such_folder/game.html`",
         r"^necro-replay: .*no_such_folder/game\.html: No such file or directory$",
         lambda: _cli("html", _good(), "-o", _folder() / "no_such_folder" / "game.html")),
    Case("replay-record-output-one-file", AREA, "`necro-replay record -o game.jsonl --games 2` (the second game "
                                                "would overwrite the first)",
         r"^necro-replay: -o/--output: '.*\.jsonl' names one file for 2 games; put \{seed\} or \{game\} in it",
         _record("--games", "2")),
    Case("replay-record-output-field", AREA, "`necro-replay record -o 'game_{x}.jsonl'`",
         r"^necro-replay: -o/--output: unknown field \{x\} in '.*game_\{x\}\.jsonl'; allowed: \{seed\} and \{game\}",
         lambda: _cli("record", "-o", _folder() / "game_{x}.jsonl")),
]
