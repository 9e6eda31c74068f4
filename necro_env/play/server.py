"""``necro-play``'s ASGI app (Starlette; docs/play.md). The command that serves it with uvicorn is
agents/play_cli.py, which builds the opponents.

One page (static/play.html) talks to ``/ws`` in the JSON messages of protocol.py. Each tab plays its
own game (session.py), named by a random id; a message goes back only to the tab that sent it. The
opponent's decisions are sent one at a time as they are taken; the page animates them.

Safety: the server binds 127.0.0.1 unless told otherwise (with a warning), answers a websocket only
from a page of its own origin, serves only the files of its own static folder and the shared
drawing code (a fixed table, no path is ever joined from a request), reads a game only by an id of
``protocol.ID_PATTERN`` under its play folder, and never evaluates a message: each is parsed as JSON
and checked field by field.
"""
from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import replace
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

from .protocol import Act, New, ProtocolError, Resume, Save, parse
from .session import PlayError, Session, Settings, folder_of

STATIC = Path(__file__).with_name("static")
BOARD_JS = Path(__file__).resolve().parents[1] / "replay" / "board.js"  # the viewer's drawing code, shared
WS_MAX = 64 * 1024  # uvicorn closes a connection on a longer frame; up to it, protocol.parse refuses politely
LOG = logging.getLogger("necro_env.play")
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css"}


def assets() -> dict:
    """name -> (bytes, media type): every file of the static folder and board.js, read once. Requests
    look names up in this table, so no request can name a file outside it."""
    files = {p.name: p for p in STATIC.iterdir() if p.is_file() and p.suffix in _TYPES}
    files["board.js"] = BOARD_JS
    return {name: (p.read_bytes(), _TYPES[p.suffix]) for name, p in files.items()}


class Games:
    """The sessions of this server, by id, with one lock each (two tabs on one game take turns)."""

    def __init__(self, template: Settings, root, factory, fixed_seed: bool):
        self.template, self.root, self.factory, self.fixed_seed = template, Path(root), factory, fixed_seed
        self.live: dict[str, Session] = {}
        self.locks: dict[str, asyncio.Lock] = {}

    def new(self, msg: New) -> Session:
        seed = msg.seed if msg.seed is not None else (self.template.seed if self.fixed_seed
                                                      else secrets.randbelow(2**31))
        settings = replace(self.template, seed=seed, side=self.template.side if msg.side is None else msg.side)
        s = Session.create(settings, self.root, self.factory)
        self.live[s.id] = s
        return s

    def get(self, sid: str) -> Session:
        """A live game, or one saved under the play folder (loaded and kept); PlayError for an unknown id."""
        if sid not in self.live:
            self.live[sid] = Session.load(sid, self.root, self.factory)
        return self.live[sid]

    def lock(self, sid: str) -> asyncio.Lock:
        return self.locks.setdefault(sid, asyncio.Lock())


def _same_origin(ws) -> bool:
    """A websocket from a page of this server (or a client sending no Origin, as scripts do): another
    site's page in the person's browser must not drive their games."""
    origin = ws.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == ws.headers.get("host")


async def _handle(ws, games: Games, msg, attached: str | None) -> str | None:
    """Answer one checked message; returns the id this tab plays afterwards."""
    if isinstance(msg, New):
        s = await asyncio.to_thread(games.new, msg)
    elif isinstance(msg, Resume):
        s = await asyncio.to_thread(games.get, msg.id)
    else:
        s = await asyncio.to_thread(games.get, msg.id)
        if s.id != attached:
            raise PlayError(f"this tab plays game {attached or '(none yet)'}, not {s.id}: resume {s.id} first")
    async with games.lock(s.id):
        if isinstance(msg, Save):
            await asyncio.to_thread(s.save)
            await ws.send_json({"type": "saved", "id": s.id, "resume": f"/?game={s.id}",
                                "replay": f"/games/{s.id}/replay.jsonl"})
            return s.id
        if isinstance(msg, Act):
            await ws.send_json(await asyncio.to_thread(s.act, msg.action))
        else:
            await ws.send_json(await asyncio.to_thread(s.intro))
        while (step := await asyncio.to_thread(s.opponent_step)) is not None:
            await ws.send_json(step)  # one message per opponent decision: the page animates each
    return s.id


async def play_socket(ws):
    from starlette.websockets import WebSocketDisconnect

    if not _same_origin(ws):
        await ws.close(code=1008)
        return
    await ws.accept()
    games, attached = ws.app.state.games, None
    while True:
        try:
            event = await ws.receive()
        except WebSocketDisconnect:
            return
        if event["type"] == "websocket.disconnect":
            return  # the game stays, in memory and on disk: the tab may come back with its id
        text = event.get("text") if event.get("text") is not None else event.get("bytes") or b""
        try:
            attached = await _handle(ws, games, parse(text), attached)
        except (ProtocolError, PlayError, NotImplementedError) as e:
            await ws.send_json({"type": "error", "message": str(e)})
        except WebSocketDisconnect:
            return
        except Exception as e:  # a fault of ours: the page hears of it in one line, the console gets the trace
            LOG.exception("play server: message failed")
            await ws.send_json({"type": "error", "message": f"server error: {type(e).__name__}: {e}"})


def create_app(template: Settings, root, factory, fixed_seed: bool = True):
    """The Starlette app: ``template`` gives every new game's options (a page may choose side and seed);
    ``factory(spec, seed=...)`` builds the opponent (``agents.make_agent``: the package itself never
    imports the agents, docs/architecture.md "Layers"; the command in agents/play_cli.py hands it in)."""
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse, PlainTextResponse, Response
    from starlette.routing import Route, WebSocketRoute

    table = assets()
    headers = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}

    async def page(request):
        body, media = table["play.html"]
        return Response(body, media_type=media, headers=headers)

    async def not_found(request, exc=None):
        return PlainTextResponse("not found: the play server serves only its own assets", 404, headers=headers)

    async def static(request):
        item = table.get(request.path_params["name"])
        if item is None:
            return await not_found(request)
        return Response(item[0], media_type=item[1], headers=headers)

    async def game_file(request, what):
        sid = request.path_params["sid"]
        try:
            folder_of(root, sid)
            s = await asyncio.to_thread(request.app.state.games.get, sid)
            async with request.app.state.games.lock(sid):
                path = await asyncio.to_thread(s.replay_file)
        except PlayError as e:
            return PlainTextResponse(str(e), 404)
        if what == "replay.jsonl":
            name = f"necro_play_{sid}.jsonl"  # sid matched ID_PATTERN: no quote or path in it
            return Response(path.read_bytes(), media_type="application/jsonl",
                            headers={**headers, "Content-Disposition": f'attachment; filename="{name}"'})
        from ..replay.format import read_replay
        from ..replay.html import html_text

        return HTMLResponse(await asyncio.to_thread(lambda: html_text(read_replay(path))), headers=headers)

    app = Starlette(routes=[
        Route("/", page), Route("/static/{name}", static),
        Route("/games/{sid}/replay.jsonl", partial(game_file, what="replay.jsonl")),
        Route("/games/{sid}/viewer.html", partial(game_file, what="viewer.html")),
        WebSocketRoute("/ws", play_socket),
    ], exception_handlers={404: not_found})
    app.state.games = Games(template, root, factory, fixed_seed)
    return app
