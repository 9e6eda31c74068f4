"""``necro-play``: serve the browser game (necro_env/play, docs/play.md) against any agent spec.

The command lives here, in the agents' layer, because it builds the opponents (``make_game_agent``:
scripts, checkpoints through the safe loader, the rollout search); the server and its sessions in
``necro_env.play`` take that builder as an argument and import no agent code ("Layers").
"""
from __future__ import annotations

import argparse
import sys
import threading
import webbrowser
from pathlib import Path

from necro_env import rulesets
from necro_env.play.server import WS_MAX, create_app
from necro_env.play.session import Session, Settings

from .game_agent import game_scripts, make_game_agent


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="necro-play", description="Play a game in the browser against an agent "
                                "(docs/play.md).")
    p.add_argument("--game", default="necromunda", help=f"the ruleset: {', '.join(rulesets.names())}")
    p.add_argument("--opponent", default=None, help="any agent spec of the game (default: Necromunda gunline, another game its first script); Necromunda: random, gunline, aggressor, sentry, "
                   "ambusher, a checkpoint path, sides:a,b, rollout(...) (default gunline)")
    p.add_argument("--side", type=int, default=0, help="the player you play (default 0)")
    p.add_argument("--seed", type=int, default=None, help="the dice's seed (default: a new one each game)")
    p.add_argument("--board", default=None, help="a board file or generate:KIND:SEED (default the scenario's)")
    p.add_argument("--variant", default=None, help="a rules variant (Necromunda: core, house_legacy)")
    p.add_argument("--round-limit", type=int, default=None, help="end the game after this many rounds")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765; 0: any free port)")
    p.add_argument("--play-dir", default="runs/play", help="where games are saved (default runs/play)")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    return p.parse_args(argv)


def settings_from(args) -> Settings:
    """The options of every new game; ValueError (one line) for a bad game, board, variant or opponent,
    found by building one game and its opponent before the server starts."""
    rulesets.get(args.game)
    config = {k: v for k, v in (("board", args.board), ("variant", args.variant), ("round_limit", args.round_limit))
              if v is not None}
    opponent = args.opponent or default_opponent(args.game)
    return Settings(game=args.game, config=config, side=args.side, seed=args.seed or 0, opponent=opponent)


def default_opponent(game: str) -> str:
    """Necromunda's GUNLINE, or the first of another game's scripts in its own order (random if none)."""
    return "gunline" if game == "necromunda" else next(iter(game_scripts(game)), "random")


def opponent_factory(spec: str, seed: int = 0, game=None):
    """The session's opponent builder: a spec of the game's own ruleset (another game's script name is
    refused in one line, e.g. ``gunline`` for Firefight)."""
    return make_game_agent(game.ruleset, spec, seed=seed, game=game)


def check_settings(template: Settings, factory):
    """Build one game and its opponent (nothing written): a bad option fails here, in one line."""
    Session("check0000", Path("."), template, factory)


def main(argv=None) -> int:
    args = parse_args(argv)
    try:
        template = settings_from(args)
        args.opponent = template.opponent
        factory = opponent_factory
        check_settings(template, factory)
    except (ValueError, OSError, NotImplementedError) as e:
        print(f"necro-play: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    import uvicorn

    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"necro-play: warning: binding {args.host}: anyone who can reach this machine can play and read "
              f"the games under {args.play_dir}", file=sys.stderr)
    app = create_app(template, args.play_dir, factory, fixed_seed=args.seed is not None)
    config = uvicorn.Config(app, host=args.host, port=args.port, ws_max_size=WS_MAX, log_level="warning")
    server = uvicorn.Server(config)
    threading.Thread(target=_announce, args=(server, args), daemon=True).start()
    server.run()
    return 0


def _announce(server, args):
    """Print the URL (and open it) once the server listens: with --port 0 the port is known only then."""
    import time

    while not server.started:
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1] if server.servers else args.port
    host = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    url = f"http://{host}:{port}/"
    print(f"necro-play: {args.game} against {args.opponent}: open {url}", flush=True)
    if args.open:
        webbrowser.open(url)


if __name__ == "__main__":
    sys.exit(main())
