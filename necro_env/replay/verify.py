"""Re-simulating replays: ``simulate`` (yields the game after every step, checking it against the
file) and ``verify`` (all of it, bit for bit).

A replay cannot lie: every field a reader sees is recomputed and compared (docs/replays.md, "What
verify checks"). The header's ``names`` against the names of the game its ``config`` builds, each
record's ``round`` and ``gang`` against the re-simulation, the end record's ``done``, ``winner``,
``truncated`` and ``illegal`` against the re-simulated end. A mismatch is a ``ReplayError`` naming
the line, the field, the recorded and the recomputed value.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import __version__, rulesets
from ..core.errors import IllegalActionError
from ..core.header import H_DPLAYER
from .format import ReplayError, bounded, data_hashes, event_rows, names_of, read_replay, ruleset_code_hash, state_hash


@dataclass
class VerifyResult:
    path: str
    steps: int
    events: int
    done: bool
    winner: int
    notes: list = field(default_factory=list)
    players: str = "gang"  # the ruleset's agent prefix (Ruleset.players): gang_1, player_1

    def summary(self) -> str:
        res = ("unfinished game" if not self.done else
               (f"{self.players}_{self.winner} wins" if self.winner >= 0 else "draw"))
        return f"OK {self.path}: {self.steps} steps, {self.events} events identical ({res})"


def _mismatch(rep, n, field_name, recorded, now, how="re-simulated", what=""):
    return ReplayError(rep.path, n, field_name, f"{what}{bounded(recorded)} recorded, {bounded(now)} {how}")


def trusted_config(rep) -> dict:
    """The header's ``config`` with its file paths resolved under the config root: a replay may name
    only data files there (or a generated board by its spec), never another file, and never one
    that depends on the current folder (docs/replays.md, "What a replay may reference")."""
    from ..config.loader import resolve_in_config_root

    def resolve(value, field_name):
        try:
            return str(resolve_in_config_root(value))
        except ValueError as exc:
            raise ReplayError(rep.path, 1, field_name, str(exc)) from None

    cfg = dict(rep.header["config"])
    for key in ("scenario", "board"):
        v = cfg.get(key)
        if v is not None and not (key == "board" and v.startswith("generate:")):
            cfg[key] = resolve(v, f"config.{key}")
    for key in ("gangs", "lists"):  # Necromunda's gang files, Firefight's army lists
        if isinstance(cfg.get(key), list):
            cfg[key] = [resolve(g, f"config.{key}[{i}]") for i, g in enumerate(cfg[key])]
    return cfg


def _first_difference(rec, now, at):
    """(path, recorded, recomputed) where two JSON values first differ, or None."""
    if isinstance(rec, list) and isinstance(now, list) and len(rec) == len(now):
        return next((d for i, (a, b) in enumerate(zip(rec, now)) if (d := _first_difference(a, b, f"{at}[{i}]"))),
                    None)
    return None if rec == now else (at, rec, now)


def _check_names(rep, game):
    """The header's ``names`` (what `show` prints) are those of the game the config builds."""
    now = names_of(game)
    for key, value in now.items():
        diff = _first_difference(rep.header["names"].get(key), value, f"names.{key}")
        if diff:
            raise _mismatch(rep, 1, diff[0], diff[1], diff[2], "recomputed from the configuration")


def build_from_header(rep):
    """The ``Game`` a replay was recorded on, checked against the recorded data hashes and names."""
    from ..config import ConfigError
    from .. import rulesets

    try:
        game = rulesets.get(rep.header["ruleset"]["name"]).config_from_json(trusted_config(rep)).build()
    except ConfigError as exc:
        raise ReplayError(rep.path, 1, "config", f"the recorded configuration does not load: {exc.file}: field "
                                                 f"'{exc.field}': got {bounded(exc.value)}; {exc.allowed}") from None
    except (ValueError, TypeError, KeyError, OSError) as exc:
        raise ReplayError(rep.path, 1, "config", f"the recorded configuration does not build a game: "
                                                 f"{bounded(str(exc))}") from None
    now = data_hashes(game)
    rec = rep.header["hashes"]
    for key in now:  # Necromunda's weapons, armour, board, gangs; another game's own
        if rec.get(key) != now[key]:
            raise ReplayError(rep.path, 1, f"hashes.{key}",
                              f"the {key} data differ from the recording ({bounded(rec.get(key))} recorded, "
                              f"{now[key]} now): the files under configs/ changed since the game was recorded")
    _check_names(rep, game)
    return game


def _compare(rep, n, what, recorded, game):
    got = event_rows(game)
    if got != recorded["events"]:
        k = next((i for i, (a, b) in enumerate(zip(got, recorded["events"])) if a != b),
                 min(len(got), len(recorded["events"])))
        a = recorded["events"][k] if k < len(recorded["events"]) else "(none)"
        b = got[k] if k < len(got) else "(none)"
        raise ReplayError(rep.path, n, f"events[{k}]",
                          f"{what}: recorded event {a} but the re-simulation gives {b} "
                          f"({len(recorded['events'])} recorded / {len(got)} re-simulated events)")
    h = state_hash(game)
    if h != recorded["state"]:
        raise ReplayError(rep.path, n, "state", f"{what}: state hash {recorded['state']} recorded, {h} re-simulated")


def simulate(rep):
    """Yield ``(game, record)`` for the reset and every step, checking each against the file."""
    game = build_from_header(rep)
    game.reset(int(rep.header["seed"]))
    if rep.reset["round"] != game.round:
        raise _mismatch(rep, 2, "round", rep.reset["round"], game.round, what="reset: ")
    _compare(rep, 2, "reset", rep.reset, game)
    yield game, rep.reset
    for s in rep.steps:
        n = s["i"] + 3
        if game.done:
            raise ReplayError(rep.path, n, "action", f"step {s['i']}: the re-simulated game is already over")
        deciding = int(game.state.g[0, H_DPLAYER])  # the state header's: every ruleset has it
        if deciding != s["gang"]:
            raise ReplayError(rep.path, n, "gang", f"step {s['i']}: gang {s['gang']} recorded, but gang "
                                                   f"{deciding} decides in the re-simulation")
        if game.round != s["round"]:  # the battle log's "R<n>" of the step's lines
            raise _mismatch(rep, n, "round", s["round"], game.round, what=f"step {s['i']}: ")
        try:
            game.step(s["action"])
        except IllegalActionError as exc:
            raise ReplayError(rep.path, n, "action", f"step {s['i']}: {exc}") from None
        _compare(rep, n, f"step {s['i']}", s, game)
        yield game, s


def _check_end(rep, game):
    """The end record against the re-simulated end. ``illegal`` (the env ended the game on an
    illegal action, which the file does not hold) can only be true of an unfinished game."""
    end, n = rep.end, len(rep.steps) + 3
    now = {"done": bool(game.done), "winner": int(game.winner) if game.done else -1,
           "truncated": bool(game.truncated)}
    for key, value in now.items():
        if end[key] != value:
            raise _mismatch(rep, n, key, end[key], value)
    if end["illegal"] and game.done:
        raise ReplayError(rep.path, n, "illegal", "true recorded, but the re-simulated game ended by the rules "
                                                  "(an illegal action can only end an unfinished game)")


def verify(path) -> VerifyResult:
    """Re-simulate a replay file and confirm every event, state hash and shown field; raises ReplayError."""
    rep = read_replay(path)
    notes = []
    if rep.header["ruleset"]["code"] != ruleset_code_hash():
        notes.append("note: the rules code changed since recording (events are compared)")
    if rep.header["env_version"] != __version__:
        notes.append(f"note: recorded by necro_env {rep.header['env_version'][:40]}, this is {__version__} "
                     f"(the recorder's word, not checked)")
    events = 0
    game = None
    for game, rec in simulate(rep):
        events += len(rec["events"])
    _check_end(rep, game)
    players = rulesets.get(rep.header["ruleset"]["name"]).players
    return VerifyResult(rep.path, len(rep.steps), events, bool(game.done), int(game.winner), notes, players)
