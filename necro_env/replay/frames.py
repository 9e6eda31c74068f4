"""Frames of a replay for the HTML viewer: the board once, then per step what it draws, for any game.

``replay_data(rep)`` re-simulates the replay (checking every event, as ``verify``) and returns a JSON-ready
dict: a title, its ruleset's ``view`` of the game (board, pieces, sides, colours) and one ``view_frame`` per
record (the shapes ``board.js`` reads). Necromunda's frames are its own (``rulesets/necromunda/frames.py``,
there since 2026-12-02); Firefight's are in ``rulesets/firefight/frames.py``.
"""
from __future__ import annotations

from .. import rulesets
from .verify import simulate


def replay_data(rep, max_steps=None):
    """The viewer's data for a parsed replay (re-simulated and checked). Every name shown comes from the
    rebuilt game, not from the header (which ``simulate`` has checked against it)."""
    rs = rulesets.get(rep.header["ruleset"]["name"])
    view, frame = rs.feature("view"), rs.feature("view_frame")
    frames, data = [], None
    for game, rec in simulate(rep):
        if data is None:
            data = view(game)
        frames.append(frame(game, rec.get("gang", -1), rec["round"]))
        if max_steps is not None and len(frames) > max_steps:
            break
    title = f"{data['board']['name']}: {' vs '.join(data['gangs'])} (seed {rep.header['seed']})"
    return {"title": title, **data, "frames": frames}
