"""``necro-replay html``: one self-contained HTML file (no network) that plays a replay.

The page (template ``viewer.html``) embeds the re-simulated frames as JSON and draws them on a
canvas: board, fighters, the marks of each step, the battle-log lines of the step, the whole log,
fighter cards, and play/pause/step/scrub controls (keys: Space, Left, Right, Home, End).
"""
from __future__ import annotations

import json
from pathlib import Path

from .format import read_replay
from .frames import replay_data

TEMPLATE = Path(__file__).with_name("viewer.html")
BOARD_JS = Path(__file__).with_name("board.js")  # the drawing code the play page shares (necro_env/play/)


def board_js() -> str:
    """The shared drawing code, inlined into the standalone viewer (a file that loads nothing)."""
    text = BOARD_JS.read_text(encoding="utf-8")
    if "</script" in text.lower():
        raise ValueError(f"{BOARD_JS} must not contain '</script': it is inlined into a <script> element")
    return text


def html_text(rep, cell: int = 24, max_steps=None) -> str:
    data = replay_data(rep, max_steps=max_steps)
    blob = json.dumps(data, separators=(",", ":"))
    blob = blob.replace("</", "<\\/")  # never close the <script> element early
    page = TEMPLATE.read_text(encoding="utf-8").replace("__BOARD_JS__", board_js())
    return page.replace("__CELL__", str(int(cell))).replace("__REPLAY_DATA__", blob)


def write_html(path, out, cell: int = 24, max_steps=None) -> Path:
    """Write the viewer of replay ``path`` to ``out``; returns ``out``."""
    rep = read_replay(path)
    out = Path(out)
    out.write_text(html_text(rep, cell, max_steps), encoding="utf-8")
    return out
