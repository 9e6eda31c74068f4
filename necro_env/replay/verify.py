"""Re-simulating replays: ``simulate`` (yields the game after every step, checking it against the
file) and ``verify`` (all of it, bit for bit)."""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field

from ..rulesets.necromunda.game import IllegalActionError
from .format import ReplayError, data_hashes, event_rows, read_replay, ruleset_code_hash, state_hash


@dataclass
class VerifyResult:
    path: str
    steps: int
    events: int
    done: bool
    winner: int
    notes: list = field(default_factory=list)

    def summary(self) -> str:
        res = ("unfinished game" if not self.done else
               (f"gang_{self.winner} wins" if self.winner >= 0 else "draw"))
        return f"OK {self.path}: {self.steps} steps, {self.events} events identical ({res})"


def build_from_header(rep):
    """The ``Game`` a replay was recorded on, checked against the recorded data hashes."""
    from ..config import ConfigError
    from ..envs.necromunda_env import build_game

    cfg = rep.header["config"]
    allowed = inspect.signature(build_game).parameters
    for k in cfg:
        if k not in allowed:
            raise ReplayError(rep.path, 1, f"config.{k}", f"unknown game option (allowed: {', '.join(allowed)})")
    try:
        game = build_game(**cfg)
    except ConfigError as exc:
        raise ReplayError(rep.path, 1, "config", f"the recorded configuration does not load: {exc}") from None
    except (ValueError, TypeError, KeyError, OSError) as exc:
        raise ReplayError(rep.path, 1, "config", f"the recorded configuration does not build a game: {exc}") from None
    now = data_hashes(game)
    rec = rep.header["hashes"]
    for key in ("weapons", "armour", "board", "gangs"):
        if rec.get(key) != now[key]:
            raise ReplayError(rep.path, 1, f"hashes.{key}",
                              f"the {key} data differ from the recording ({rec.get(key)} recorded, {now[key]} now): "
                              f"the files under configs/ changed since the game was recorded")
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
    _compare(rep, 2, "reset", rep.reset, game)
    yield game, rep.reset
    for s in rep.steps:
        n = s["i"] + 3
        if game.done:
            raise ReplayError(rep.path, n, "action", f"step {s['i']}: the re-simulated game is already over")
        if game.current_gang != s["gang"]:
            raise ReplayError(rep.path, n, "gang", f"step {s['i']}: gang {s['gang']} recorded, but gang "
                                                   f"{game.current_gang} decides in the re-simulation")
        try:
            game.step(s["action"])
        except IllegalActionError as exc:
            raise ReplayError(rep.path, n, "action", f"step {s['i']}: {exc}") from None
        _compare(rep, n, f"step {s['i']}", s, game)
        yield game, s


def verify(path) -> VerifyResult:
    """Re-simulate a replay file and confirm every event and state hash; raises ReplayError."""
    rep = read_replay(path)
    notes = []
    if rep.header["ruleset"].get("code") != ruleset_code_hash():
        notes.append("note: the rules code changed since recording (events are compared)")
    events = 0
    game = None
    for game, rec in simulate(rep):
        events += len(rec["events"])
    end = rep.end
    n = len(rep.steps) + 3
    if bool(game.done) != end["done"] and not end["illegal"]:
        raise ReplayError(rep.path, n, "done", f"{end['done']} recorded, {game.done} re-simulated")
    if game.done and int(game.winner) != end["winner"]:
        raise ReplayError(rep.path, n, "winner", f"{end['winner']} recorded, {game.winner} re-simulated")
    return VerifyResult(rep.path, len(rep.steps), events, bool(game.done), int(game.winner), notes)
