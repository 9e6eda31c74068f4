"""necro-play: what the play server refuses (docs/play.md, "Safety").

The websocket cases open a game on the app (Starlette's TestClient, a temporary play folder), send the
bad message and return the error the page shows; each asserts the game did not change (its state hash
and its actions). The command's cases run ``necro-play``'s ``main`` and return what it printed.
"""
from __future__ import annotations

import contextlib
import io
import json
import shutil
import tempfile
import warnings
from pathlib import Path

from .catalogue import Case
from .cases_checkpoint import _crafted, _entry

AREA = "Play server"


def _game(ws):
    """Start a game on ``ws``; returns (id, the first message with the person's decision)."""
    ws.send_text(json.dumps({"type": "new"}))
    m = ws.receive_json()
    while m["decision"] is None and not m["done"]:
        m = ws.receive_json()
    return m["id"], m


def _refused(make_text, marker: str | None = None) -> str:
    """The error message for the text ``make_text(id, decision)`` sent in a game; the game unchanged."""
    from agents import make_agent
    from necro_env.play.server import create_app
    from necro_env.play.session import Settings
    from necro_env.replay.format import state_hash

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Starlette 1.x: "install httpx2" (httpx serves the same)
        from starlette.testclient import TestClient
    root = Path(tempfile.mkdtemp(prefix="necro_cases_play_"))
    try:
        app = create_app(Settings(config={"round_limit": 2}, seed=3), root, make_agent)
        with TestClient(app) as client, client.websocket_connect("/ws") as ws:
            sid, m = _game(ws)
            s = app.state.games.live[sid]
            before, n = state_hash(s.game), len(s.actions)
            ws.send_text(make_text(sid, m["decision"], s, root))
            err = ws.receive_json()
            assert err["type"] == "error", err
            assert state_hash(s.game) == before and len(s.actions) == n, "the refused message changed the game"
            assert marker is None or not (root / marker).exists(), "the message's payload ran"
            return err["message"]
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _illegal(sid, decision, s, root):
    return json.dumps({"type": "act", "id": sid, "action": int((~s.game.mask[0]).nonzero()[0][0])})


def _code(sid, decision, s, root):
    return json.dumps({"type": "act", "id": sid, "action": f"__import__('os').system('touch {root}/pwned')"})


def _http(path: str) -> str:
    """The body of a GET of ``path`` on the play app; it must be a 404."""
    from agents import make_agent
    from necro_env.play.server import create_app
    from necro_env.play.session import Settings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Starlette 1.x: "install httpx2" (httpx serves the same)
        from starlette.testclient import TestClient
    with tempfile.TemporaryDirectory() as root, TestClient(create_app(Settings(), root, make_agent)) as client:
        r = client.get(path)
        assert r.status_code == 404, f"{path} answered {r.status_code}"
        return r.text


def _cli(*argv) -> str:
    """stderr of ``necro-play ARGV``, which must refuse (exit 2) before serving or writing anything."""
    from agents.play_cli import main

    with tempfile.TemporaryDirectory() as root:
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = main([*argv, "--play-dir", root])
        assert code == 2, f"necro-play {' '.join(argv)} exited {code}"
        assert not any(Path(root).iterdir()), "a refused command wrote a game"
    return err.getvalue().strip()


def _cli_exit(path):
    """necro-play with a crafted checkpoint as the opponent: its message as a SystemExit (for _crafted)."""
    raise SystemExit(_cli("--opponent", str(path)))


CASES = [
    Case("play-malformed-json", AREA, "a websocket message `not json`",
         r"^refused message: not JSON \(Expecting value", lambda: _refused(lambda *a: "not json")),
    Case("play-unknown-type", AREA, '`{"type": "eval", "code": "..."}`',
         r'^refused message: type "eval" is not one of new, resume, act, save$',
         lambda: _refused(lambda *a: json.dumps({"type": "eval", "code": "1+1"}))),
    Case("play-code-in-a-field", AREA, "`act` with `action` set to `__import__('os').system('touch pwned')`",
         r"^refused act message: field 'action' = \"__import__.*Input should be a valid integer",
         lambda: _refused(_code, marker="pwned")),
    Case("play-illegal-action", AREA, "`act` with an index the mask forbids (the first one)",
         r"^illegal action \d+ \(.+\): .+", lambda: _refused(_illegal)),
    Case("play-unknown-game-id", AREA, '`{"type": "act", "id": "NoSuchGame123", "action": 0}`',
         r"^unknown game id 'NoSuchGame123': no game of that id here$",
         lambda: _refused(lambda *a: json.dumps({"type": "act", "id": "NoSuchGame123", "action": 0}))),
    Case("play-id-as-a-path", AREA, '`{"type": "resume", "id": "../../etc"}`',
         r"^refused resume message: field 'id' = \"\.\./\.\./etc\": String should match pattern",
         lambda: _refused(lambda *a: json.dumps({"type": "resume", "id": "../../etc"}))),
    Case("play-oversized-message", AREA, "a websocket message of 5,000 bytes",
         r"^refused message: 5000 bytes, at most 4096$", lambda: _refused(lambda *a: "x" * 5000)),
    Case("play-path-traversal", AREA, "`GET /static/..%2f..%2fpyproject.toml`",
         r"^not found: the play server serves only its own assets$",
         lambda: _http("/static/..%2f..%2fpyproject.toml")),
    Case("play-bad-opponent", AREA, "`necro-play --opponent nonsense`",
         r"^necro-play: unknown agent 'nonsense': use one of random, gunline", lambda: _cli("--opponent", "nonsense")),
    Case("play-missing-checkpoint", AREA, "`necro-play --opponent runs/none/final.zip`",
         r"^necro-play: checkpoint runs/none/final\.zip: file not found$",
         lambda: _cli("--opponent", "runs/none/final.zip")),
    Case("play-crafted-checkpoint", AREA,
         "`necro-play --opponent crafted.zip`, a checkpoint whose `observation_space` is a pickled `os.system` call",
         r"^necro-play: checkpoint .*crafted\.zip: data entry 'observation_space' names posix\.system",
         lambda: _crafted(_entry("observation_space"), _cli_exit)),
]
