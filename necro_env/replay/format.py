"""The replay file: JSON Lines, one JSON object per line (docs/replays.md).

::

    {"type": "header", "format": "necro_env-replay", "version": 1, "env_version": ..., "ruleset": {...},
     "hashes": {"weapons": ..., "armour": ..., "board": ..., "gangs": [...]}, "config": {...}, "seed": ...,
     "names": {...}}
    {"type": "reset", "round": 1, "events": [[kind, actor, target, a, b, c, d, e], ...], "state": "<hash>"}
    {"type": "step", "i": 0, "gang": 0, "action": 17, "round": 1, "events": [...], "state": "<hash>"}
    ...
    {"type": "end", "steps": 123, "done": true, "winner": 1, "truncated": false, "illegal": false}

``read_replay(path)`` checks every line and raises ``ReplayError`` naming the line and the field
for a corrupt, truncated or version-mismatched file.
"""
from __future__ import annotations

import hashlib
import json
import reprlib
from dataclasses import dataclass, field
from pathlib import Path


from .. import rulesets
from ..core.hashing import content_hash
from ..core.header import H_EVN, H_EVOVF

FORMAT_NAME = "necro_env-replay"
FORMAT_VERSION = 1
EVENT_WIDTH = 8


class ReplayError(Exception):
    """A replay file that cannot be used. ``line`` is 1-based (None: the whole file)."""

    def __init__(self, path, line, field_name, message):
        self.path, self.line, self.field, self.message = str(path), line, field_name, message
        where = f"line {line}" if line is not None else "file"
        fld = f", field '{field_name}'" if field_name else ""
        super().__init__(f"{path}: {where}{fld}: {message}")


@dataclass
class Replay:
    path: str
    header: dict
    reset: dict
    steps: list = field(default_factory=list)
    end: dict | None = None


# ---------------------------------------------------------------------------- hashes
def data_hashes(game) -> dict:
    """Content hashes of the data a game was built from: its ruleset's (Ruleset.data_hashes)."""
    from ..rulesets import get

    return get(game.ruleset).data_hashes(game)


def names_of(game, agent_names=None) -> dict:
    """The names a header stores to word a game's events: its ruleset's ``replay_names`` (Necromunda's:
    its battle log's LogNames, gangs named gang_0, gang_1, ... as its env's agents)."""
    return rulesets.get(game.ruleset).feature("replay_names")(game)


def log_lines_of(header, rows, round_) -> list:
    """Battle-log lines of event rows from a header's names alone (no game is built)."""
    return rulesets.get(header["ruleset"]["name"]).feature("replay_log")(header["names"], rows, round_)


def ruleset_code_hash() -> str:
    """Hash of the ruleset and core sources (a differing hash is reported, the events decide)."""
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for p in sorted(list((root / "core").glob("*.py")) + list((root / "rulesets").rglob("*.py"))):
        h.update(p.relative_to(root).as_posix().encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


_NOT_STATE = ("script", "spos", "ev")  # the dice script of tests and the event buffer (core.header)


def state_hash(game) -> str:
    """Hash of a game's state arrays: every array of its State but the event buffer and the dice script."""
    s = game.state
    return content_hash(*(a for name, a in zip(s._fields, s) if name not in _NOT_STATE))


def event_rows(game) -> list:
    if int(game.state.g[0, H_EVOVF]):
        raise RuntimeError("event buffer overflowed during the last step: the replay would be incomplete")
    return game.state.ev[0, :int(game.state.g[0, H_EVN])].tolist()


# ---------------------------------------------------------------------------- reading
_HEADER_FIELDS = {"format": str, "version": int, "env_version": str, "ruleset": dict, "hashes": dict,
                  "config": dict, "seed": int, "names": dict}
_STEP_FIELDS = {"i": int, "gang": int, "action": int, "round": int, "events": list, "state": str}
_RESET_FIELDS = {"round": int, "events": list, "state": str}
_END_FIELDS = {"steps": int, "done": bool, "winner": int, "truncated": bool, "illegal": bool}
SEED_MAX = 2**64 - 1  # a game's seed is one uint64 (Game.reset)

# The header's ``config``: the ``build_game`` arguments a recorder stores, each None or of this
# kind (a board also as the fields of a board file, inline). The integer ranges are the data's own
# (round_limit 1..99 as in scenario files, 2 to 4 gangs, at most 30 fighters a gang as the engine's
# group activation masks) or sizes of the state arrays kept small: a replay from elsewhere must not
# make the tool allocate gigabytes. Paths are checked against the config root when the game is
# built (verify.trusted_config); the build checks the rest.
_PATH, _PATHS, _BOARD = "a path (string)", "a list of paths (strings)", "a path (string) or a board's fields (object)"
CONFIG_FIELDS = {"scenario": _PATH, "board": _BOARD, "gangs": _PATHS, "num_gangs": (2, 4), "round_limit": (1, 99),
                 "max_fighters": (1, 30), "max_weapons": (1, 16), "max_doors": (0, 256), "max_caskets": (0, 64),
                 "variant": "string"}
# The header's ``names`` (rulesets/necromunda/battlelog.py LogNames): what `show` prints for gangs, fighters
# and weapons.
_NAMES_FIELDS = {"gangs": "strs", "fighters": "str lists", "weapons": "strs", "profiles": "str lists",
                 "width": (1, 1000), "max_fighters": (1, 64)}

_BRIEF = reprlib.Repr()
_BRIEF.maxstring, _BRIEF.maxother, _BRIEF.maxlevel = 60, 60, 3


def bounded(v) -> str:
    """A repr for a message that is never long, never deep: a replay's values can be anything, up to
    the whole of a huge or deeply nested line."""
    return _BRIEF.repr(v)


def brief(v) -> str:
    """``v``'s type and its ``bounded`` repr."""
    return f"{type(v).__name__} {bounded(v)}"


def _is_int(v, lo=None, hi=None) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and (lo is None or lo <= v <= hi)


def _is_strs(v) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _check_fields(path, n, obj, spec):
    for name, typ in spec.items():
        if name not in obj:
            raise ReplayError(path, n, name, "missing")
        v = obj[name]
        ok = isinstance(v, typ) and not (typ is int and isinstance(v, bool))
        if not ok:
            raise ReplayError(path, n, name, f"expected {typ.__name__}, got {brief(v)}")


def _check_events(path, n, events):
    for k, row in enumerate(events):
        if (not isinstance(row, list) or len(row) != EVENT_WIDTH
                or not all(isinstance(x, int) and not isinstance(x, bool) and -32768 <= x <= 32767 for x in row)):
            raise ReplayError(path, n, f"events[{k}]", f"an event is a list of {EVENT_WIDTH} int16 values, got "
                                                       f"{brief(row)}")


_KINDS = {  # a header value's kind -> (test, what the message says is allowed)
    "string": (lambda v: isinstance(v, str), "a string"),
    "strs": (_is_strs, "a list of strings"),
    "str lists": (lambda v: isinstance(v, list) and all(_is_strs(x) for x in v), "a list of lists of strings"),
    _PATH: (lambda v: isinstance(v, str), _PATH),
    _PATHS: (_is_strs, _PATHS),
    _BOARD: (lambda v: isinstance(v, (str, dict)), _BOARD),
}


def _check_kind(path, field_name, v, kind, nullable=False):
    """A header value against its kind: ``(lo, hi)`` an integer range, else a key of ``_KINDS``."""
    if isinstance(kind, tuple):
        ok, want = _is_int(v, *kind), f"an integer from {kind[0]} to {kind[1]}"
    else:
        test, want = _KINDS[kind]
        ok = test(v)
    if not ok and not (nullable and v is None):
        raise ReplayError(path, 1, field_name, f"expected {want}{' or null' if nullable else ''}, got {brief(v)}")


def _check_section(path, head, section, spec):
    """Header ``section`` (a dict) holds every key of ``spec``, each of its kind."""
    for key, kind in spec.items():
        if key not in head[section]:
            raise ReplayError(path, 1, f"{section}.{key}", "missing")
        _check_kind(path, f"{section}.{key}", head[section][key], kind)


def _check_header(path, head):
    """Every header field `show` prints or `verify` reads, by kind: a header of the wrong shape is
    refused here, naming its field, and never reaches the commands as a traceback."""
    _check_fields(path, 1, head, _HEADER_FIELDS)
    _check_section(path, head, "ruleset", {"name": "string", "code": "string"})
    if head["ruleset"]["name"] not in rulesets.names():
        raise ReplayError(path, 1, "ruleset.name", f"unknown ruleset {head['ruleset']['name']!r:.40}; "
                                                   f"this necro_env plays {', '.join(rulesets.names())}")
    if head["ruleset"]["name"] == "necromunda":
        _check_necromunda(path, head)
    else:  # another game's config and names are its ruleset's: its config_from_json and verify check them
        _check_hashes(path, head["hashes"])
        _check_kind(path, "seed", head["seed"], (0, SEED_MAX))
        _check_config(path, head)
    _check_printable(path, head)


def _check_necromunda(path, head):
    _check_section(path, head, "hashes", {"weapons": "string", "armour": "string", "board": "string", "gangs": "strs"})
    _check_section(path, head, "names", _NAMES_FIELDS)
    _check_kind(path, "seed", head["seed"], (0, SEED_MAX))
    for key, v in head["config"].items():
        if key not in CONFIG_FIELDS:
            raise ReplayError(path, 1, f"config.{key}", f"unknown game option (allowed: {', '.join(CONFIG_FIELDS)})")
        _check_kind(path, f"config.{key}", v, CONFIG_FIELDS[key], nullable=True)


def _check_config(path, head):
    """Another ruleset's config through its own ``config_from_json`` (which reads no file): a bad field
    is refused here, named in the ruleset's words, before any game is built."""
    try:
        rulesets.get(head["ruleset"]["name"]).config_from_json(dict(head["config"]))
    except (ValueError, TypeError) as exc:
        raise ReplayError(path, 1, "config", " ".join(str(exc).split())[:300]) from None


def _check_hashes(path, hashes):
    """Another ruleset's data hashes: each a string or a list of strings (verify compares them)."""
    for key, v in hashes.items():
        if not (isinstance(v, str) or _is_strs(v)):
            raise ReplayError(path, 1, f"hashes.{key}", f"expected a string or a list of strings, got {brief(v)}")


def _check_printable(path, head):
    """No control character in any header string: `show` prints them to a terminal, where an escape
    sequence in a fighter's name could rewrite the screen. An inline board's fields are the exception
    (its map is lines of text): `show` names it by repr, and the build checks it as a board file.
    (A walk with its own stack.)"""
    stack = [(head, "")]
    while stack:
        v, at = stack.pop()
        if at == "config.board" and isinstance(v, dict):
            continue
        if isinstance(v, dict):
            stack += [(x, f"{at}.{k}" if at else str(k)) for k, x in v.items()]
            stack += [(k, at or "(key)") for k in v]
        elif isinstance(v, list):
            stack += [(x, f"{at}[{i}]") for i, x in enumerate(v)]
        elif isinstance(v, str) and not v.isprintable():
            raise ReplayError(path, 1, at, f"expected a printable string without control characters, got {brief(v)}")


def _parse_line(path, n, line):
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ReplayError(path, n, None, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:  # the decoder's own depth guard (a record nests 4 levels at most)
        raise ReplayError(path, n, None, "JSON nested too deeply (a replay record nests at most 4 levels)") from None
    if not isinstance(obj, dict):
        raise ReplayError(path, n, None, f"expected a JSON object, got {type(obj).__name__}")
    if "type" not in obj:
        raise ReplayError(path, n, "type", "missing")
    return obj


def read_replay(path) -> Replay:
    """Parse and check a replay file (no engine needed)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReplayError(path, None, None, "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ReplayError(path, None, None, f"cannot read: {exc}") from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not text.strip():
        raise ReplayError(path, None, None, "empty file (no header line)")
    objs = [_parse_line(path, n, line) for n, line in enumerate(lines, 1)]
    head = objs[0]
    if head.get("type") != "header" or head.get("format") != FORMAT_NAME:
        raise ReplayError(path, 1, "format", f"not a necro_env replay (expected a header with format "
                                             f"{FORMAT_NAME!r}, got type={head.get('type')!r}, "
                                             f"format={head.get('format')!r})")
    if head.get("version") != FORMAT_VERSION:
        raise ReplayError(path, 1, "version", f"replay format version {head.get('version')!r}; this necro_env "
                                              f"reads version {FORMAT_VERSION}")
    _check_header(path, head)
    if len(objs) < 2 or objs[1].get("type") != "reset":
        raise ReplayError(path, 2, "type",
                          "truncated: the reset record (line 2) is missing" if len(objs) < 2
                          else f"expected the reset record, got type={objs[1].get('type')!r}")
    _check_fields(path, 2, objs[1], _RESET_FIELDS)
    _check_events(path, 2, objs[1]["events"])
    rep = Replay(str(path), head, objs[1])
    for n, obj in enumerate(objs[2:], 3):
        t = obj["type"]
        if rep.end is not None:
            raise ReplayError(path, n, "type", f"a {t!r} record after the end record")
        if t == "step":
            _check_fields(path, n, obj, _STEP_FIELDS)
            if obj["i"] != len(rep.steps):
                raise ReplayError(path, n, "i", f"step {obj['i']} out of sequence: expected step {len(rep.steps)}")
            _check_events(path, n, obj["events"])
            rep.steps.append(obj)
        elif t == "end":
            _check_fields(path, n, obj, _END_FIELDS)
            if obj["steps"] != len(rep.steps):
                raise ReplayError(path, n, "steps", f"the end record counts {obj['steps']} steps, the file holds "
                                                    f"{len(rep.steps)}")
            rep.end = obj
        else:
            raise ReplayError(path, n, "type", f"unknown record type {t!r} (allowed: step, end)")
    if rep.end is None:
        raise ReplayError(path, len(objs), None, f"truncated: the file ends after line {len(objs)} "
                                                 f"(step {len(rep.steps) - 1}) without the end record")
    return rep
