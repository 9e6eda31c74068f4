"""One game of a person against an agent, by id: in memory while the server runs, on disk so that it
resumes after a tab closes or the server restarts (docs/play.md).

A game's folder ``<root>/<id>/`` holds ``game.json`` (the options and every action index played so
far, rewritten after each step) and ``replay.jsonl`` (the replay recorder's file,
necro_env/replay/record.py; complete once the game is over). Resuming rebuilds the game from its
options and replays the actions: the rules are deterministic, so the state is the one left.

The game is reached only through its ruleset (``necro_env.rulesets.get``) and the state header; the
opponent is built by a factory given by the caller (the command builds agents from specs:
necro_env/play/server.py), so this module needs no agent code.
"""
from __future__ import annotations

import json
import os
import re
import secrets
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .. import rulesets
from ..core import header as H
from .protocol import ID_PATTERN, SEED_MAX


class PlayError(ValueError):
    """A request the game refuses (unknown id, not your turn, an illegal action); one line, nothing changed."""


@dataclass(frozen=True)
class Settings:
    """A game's options: the ruleset, its config (JSON: board, variant, round_limit, ...), the person's
    side, the seed of the dice, and the opponent's agent spec."""

    game: str = "necromunda"
    config: dict = field(default_factory=dict)
    side: int = 0
    seed: int = 0
    opponent: str = "gunline"


class Session:
    """One game: ``act(index)`` plays the person's action, ``opponent_step()`` one of the opponent's."""

    def __init__(self, sid: str, folder: Path, settings: Settings, opponent_factory):
        self.id, self.folder, self.settings = sid, Path(folder), settings
        self.rs = rulesets.get(settings.game)
        if not 0 <= settings.seed <= SEED_MAX:
            raise PlayError(f"seed {settings.seed} is out of range; allowed: 0..{SEED_MAX}")
        self.game = self.rs.config_from_json(dict(settings.config)).build()
        self.game.reset(settings.seed)  # the header's player count is set at reset; nothing is written yet
        n = self._h(H.H_NPLAYERS)
        if not 0 <= settings.side < n:
            raise PlayError(f"side {settings.side} is not a player of this game; allowed: 0..{n - 1}")
        self.actions: list[int] = []
        self.agent = opponent_factory(settings.opponent, seed=settings.seed * 1000 + 1, game=self.game)
        self._encoder = None
        if getattr(self.agent, "encoder", None) is not None:
            from ..envs.encoders import make_encoder

            self._encoder = make_encoder(self.agent.encoder)
        self.recorder = None

    # ------------------------------------------------------------------ life cycle
    @classmethod
    def create(cls, settings: Settings, root, opponent_factory) -> "Session":
        sid = secrets.token_urlsafe(12)  # 16 characters of ID_PATTERN's alphabet: unguessable, never a path
        s = cls(sid, Path(root) / sid, settings, opponent_factory)
        s._start()
        s.save()
        return s

    @classmethod
    def load(cls, sid: str, root, opponent_factory) -> "Session":
        """The game saved under ``root/sid``, replayed to where it was left."""
        folder = folder_of(root, sid)
        meta = folder / "game.json"
        if not meta.is_file():
            raise PlayError(f"unknown game id {sid!r}: no game of that id here")
        data = json.loads(meta.read_text(encoding="utf-8"))
        s = cls(sid, folder, Settings(**data["settings"]), opponent_factory)
        s._start(data["actions"])
        return s

    def _start(self, actions=()):
        from ..replay.record import Recorder

        self.game.reset(self.settings.seed)
        self.agent.reset(self.settings.seed * 1000 + 1 + len(actions))
        self.recorder = Recorder(self.folder / "replay.jsonl", self.game, self.rs.config_json(self.game))
        self.recorder.start(self.settings.seed)
        # the battle log so far: {"by": player, "label": action} and {"text": an event's line}
        self.history = [{"text": line} for line in self._frame(-1, self._h(H.H_ROUND))["log"]]
        for a in actions:  # a resumed game: its battle log is rebuilt with it
            self._play(int(a))

    def save(self):
        """Write game.json atomically (a crash never leaves half a file)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.folder / "game.json.tmp"
        tmp.write_text(json.dumps({"id": self.id, "settings": asdict(self.settings), "actions": self.actions}),
                       encoding="utf-8")
        os.replace(tmp, self.folder / "game.json")

    # ------------------------------------------------------------------ reading the game
    def _h(self, col: int) -> int:
        return int(self.game.state.g[0, col])

    @property
    def done(self) -> bool:
        return bool(self._h(H.H_DONE))

    @property
    def deciding(self) -> int:
        return self._h(H.H_DPLAYER)

    @property
    def human_turn(self) -> bool:
        return not self.done and self.deciding == self.settings.side

    def decision(self) -> dict | None:
        """The person's decision now: the legal actions in words, and each action kind with none legal
        with the engine's reason (the page greys it and shows the reason on hover)."""
        if not self.human_turn:
            return None
        describe, why = self.rs.feature("describe_action"), self.rs.feature("why_illegal")
        mask = self.game.mask[0]
        legal = [{"i": int(i), **describe(self.game, int(i))} for i in mask.nonzero()[0]]
        kinds, start = [], 0
        for k in self.rs.action_kinds(self.game):
            n = int(mask[start:start + k.size].sum())
            kinds.append({"name": k.name, "legal": n, "why": None if n else why(self.game, start)})
            start += k.size
        name = self.rs.decision_names().get(self._h(H.H_DK), "decision")
        return {"player": self.settings.side, "name": name, "legal": legal, "kinds": kinds}

    def intro(self) -> dict:
        """What the page needs to draw this game from scratch, its battle log so far included."""
        frame = self._frame(-1, self._h(H.H_ROUND))
        return {"type": "game", "id": self.id, "game": self.settings.game, "side": self.settings.side,
                "opponent": self.settings.opponent, "seed": self.settings.seed, "history": self.history,
                "view": self.rs.feature("view")(self.game), **self._now(-1, None, None, frame)}

    def _frame(self, gang, round_) -> dict:
        return self.rs.feature("view_frame")(self.game, gang, round_)

    def _now(self, gang, index, label, frame) -> dict:
        score = self.rs.feature("scoreboard")(self.game)
        return {"by": gang, "action": index, "label": label, "human": gang == self.settings.side,
                "frame": frame, "score": score,
                "done": self.done, "result": score.get("result"), "decision": self.decision(),
                "steps": len(self.actions)}

    # ------------------------------------------------------------------ playing
    def act(self, index: int) -> dict:
        """The person plays ``index``; PlayError (the game unchanged) unless it is theirs to play and legal."""
        if self.done:
            raise PlayError(f"game {self.id} is over: {self.rs.feature('scoreboard')(self.game).get('result')}")
        if not self.human_turn:
            raise PlayError(f"not your decision: player {self.deciding} decides now, you play {self.settings.side}")
        n = int(self.game.mask.shape[1])
        if not 0 <= index < n:
            raise PlayError(f"action {index} is outside this game's actions 0..{n - 1}")
        if not self.game.mask[0, index]:
            label = self.rs.feature("describe_action")(self.game, index)["label"]
            raise PlayError(f"illegal action {index} ({label}): {self.rs.feature('why_illegal')(self.game, index)}")
        return self._step(index)

    def opponent_step(self) -> dict | None:
        """One decision of the opponent, or None when the person decides or the game is over."""
        if self.done or self.human_turn:
            return None
        g = self.deciding
        obs = self._encoder.encode(self.game, g) if self._encoder is not None else None
        return self._step(int(self.agent.act(obs, self.game.mask[0], game=self.game)))

    def _step(self, index: int) -> dict:
        gang, label, frame = self._play(index)
        self.save()
        return {"type": "step", "id": self.id, **self._now(gang, index, label, frame)}

    def _play(self, index: int):
        """Apply ``index`` (recorded), add it and its events to the battle log; (gang, label, frame)."""
        gang, rnd = self.deciding, self._h(H.H_ROUND)
        label = self.rs.feature("describe_action")(self.game, index)["label"]
        self.game.step(index)
        self.recorder.step(index, gang, rnd)
        self.actions.append(index)
        frame = self._frame(gang, rnd)
        self.history += [{"by": gang, "label": label}] + [{"text": line} for line in frame["log"]]
        return gang, label, frame

    # ------------------------------------------------------------------ files
    def replay_file(self) -> Path:
        """A complete replay of the game so far: the recorder's file once the game is over, else a copy
        recorded again from the actions with an end record marking it unfinished."""
        if self.done:
            return self.folder / "replay.jsonl"
        from ..replay.record import Recorder

        game = self.rs.config_from_json(dict(self.settings.config)).build()
        game.reset(self.settings.seed)
        rec = Recorder(self.folder / "replay_so_far.jsonl", game, self.rs.config_json(game))
        rec.start(self.settings.seed)
        for a in self.actions:
            gang, rnd = int(game.state.g[0, H.H_DPLAYER]), int(game.state.g[0, H.H_ROUND])
            game.step(a)
            rec.step(a, gang, rnd)
        rec.finish()
        return rec.path


def folder_of(root, sid) -> Path:
    """The folder of game ``sid``; PlayError for anything but an id of ID_PATTERN (never a path)."""
    if not isinstance(sid, str) or not re.fullmatch(ID_PATTERN, sid):
        raise PlayError(f"bad game id {str(sid)[:40]!r}: an id is 8 to 64 letters, digits, '-' or '_'")
    return Path(root) / sid
