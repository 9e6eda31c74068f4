"""Firefight replays (2026-12-02): bad Firefight replay files, refused by ``necro-replay verify`` / ``show``
in one line naming the field, nothing written, no file outside configs/ read (docs/replays.md,
"Firefight replays")."""
from __future__ import annotations

import functools
import json
from pathlib import Path

from .cases_replay import _cli, _folder, _set
from .catalogue import Case

AREA = "Replays"


@functools.lru_cache(maxsize=None)
def _good() -> Path:
    """A short Firefight game (20 decisions) every case corrupts a copy of."""
    from necro_env.replay import record

    return record(_folder() / "ff_good.jsonl", seed=2, max_steps=20, ruleset="firefight")


def _with(name, change) -> Path:
    lines = _good().read_text().splitlines()
    head = json.loads(lines[0])
    change(head)
    path = _folder() / name
    path.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    return path


def _list_outside():
    text = _cli("verify", _with("ff_outside.jsonl", lambda h: h["config"]["lists"].__setitem__(0, "/etc/passwd")),
                status=1)
    assert "root:" not in text, f"the file's contents were echoed: {text}"
    return text


CASES = [
    Case("replay-ff-list-outside", AREA, "a Firefight replay whose `config.lists[0]` is `/etc/passwd`",
         r"field 'config.lists\[0\]'", _list_outside),
    Case("replay-ff-hashes-kind", AREA, "a Firefight replay whose `hashes.board` is the number 5",
         r"line 1, field 'hashes.board': expected a string or a list of strings, got int 5",
         lambda: _cli("show", _with("ff_hash.jsonl", _set("hashes.board", 5)))),
    Case("replay-ff-unknown-option", AREA, "a Firefight replay whose config has `\"gangs\": [...]` (Necromunda's)",
         r"line 1, field 'config': unknown game config field\(s\) 'gangs'; allowed: lists, board",
         lambda: _cli("verify", _with("ff_opt.jsonl", _set("config.gangs", ["gangs/orlock.yaml"])), status=1)),
]
