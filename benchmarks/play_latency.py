"""necro-play: the time from a person's click to the opponent's answer, over one whole game.

    python -m benchmarks.play_latency [--opponent gunline] [--seed 3] [--round-limit 12] [--browser]

serves the play app in-process (Starlette's TestClient: the websocket messages and every check of the
real server, no network) and plays one game as a person who picks the first legal action of each of
their decisions. For each decision the person takes, it times from sending the ``act`` message to the
arrival of the opponent's first answer (its first decision's step message; when the person decides
again at once, the step message that hands the decision back), and to the message that hands the
person their next decision (the opponent's whole reply, all its decisions in between). Prints the
median and the worst of both over the game. The default opponent is the command's (gunline).

With ``--browser`` the game is played in headless Chromium on the served page (uvicorn on a free port,
as benchmarks/play_screenshot.py does) by clicks, and the page itself times each action from its
sending to the opponent's first answer arriving (``playState.answers``): the network, the JSON and
the page's drawing of each message included.
"""
from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time


def play(opponent: str, seed: int, round_limit: int | None) -> tuple[list[float], list[float], dict]:
    from starlette.testclient import TestClient

    from agents import make_agent
    from necro_env.play.server import create_app
    from necro_env.play.session import Settings

    cfg = {"round_limit": round_limit} if round_limit else {}
    app = create_app(Settings(config=cfg, seed=seed, opponent=opponent), tempfile.mkdtemp(prefix="play_latency_"),
                     make_agent)
    times, whole, last = [], [], None
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "new"}))
        last = ws.receive_json()
        while not last["done"]:
            while last.get("decision") is None and not last["done"]:
                last = ws.receive_json()
            if last["done"]:
                break
            t0 = time.perf_counter()
            ws.send_text(json.dumps({"type": "act", "id": last["id"], "action": last["decision"]["legal"][0]["i"]}))
            mine = ws.receive_json()  # the person's own step comes back first
            answer = mine if mine.get("decision") is not None or mine["done"] else ws.receive_json()
            times.append(time.perf_counter() - t0)
            last = answer
            while last.get("decision") is None and not last["done"]:
                last = ws.receive_json()
            whole.append(time.perf_counter() - t0)
    return times, whole, last


def play_in_browser(opponent: str, seed: int, round_limit: int | None) -> tuple[list[float], str]:
    import os
    import shutil

    from playwright.sync_api import sync_playwright

    from agents import make_agent
    from benchmarks.play_screenshot import ARGS, serve, turn
    from necro_env.play.server import create_app
    from necro_env.play.session import Settings

    cfg = {"round_limit": round_limit} if round_limit else {}
    root = tempfile.mkdtemp(prefix="play_latency_")
    server, url = serve(create_app(Settings(config=cfg, seed=seed, opponent=opponent), root, make_agent))
    chromium = os.environ.get("NECRO_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(url)
            page.select_option("#speed", "0")
            page.wait_for_function("window.playState.decision !== null", timeout=30_000)
            while not page.evaluate("window.playState.done"):
                turn(page)
            answers, result = page.evaluate("window.playState.answers"), page.locator("#result").inner_text()
            browser.close()
    finally:
        server.should_exit = True
        shutil.rmtree(root, ignore_errors=True)
    return [a / 1000 for a in answers], result


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--opponent", default="gunline", help="agent spec (default gunline, the command's default)")
    ap.add_argument("--seed", type=int, default=3, help="the game's seed (default 3)")
    ap.add_argument("--round-limit", type=int, default=None, help="rounds (default the scenario's, 12)")
    ap.add_argument("--browser", action="store_true", help="play by clicks in headless Chromium, timed by the page")
    args = ap.parse_args(argv)
    play(args.opponent, args.seed, 1)  # warm-up: load the compiled code
    if args.browser:
        answers, result = play_in_browser(args.opponent, args.seed, args.round_limit)
        ms = sorted(t * 1000 for t in answers)
        print(f"necro-play in Chromium against {args.opponent}, seed {args.seed}: {len(ms)} actions of the person "
              f"by clicks, {result}")
        print(f"click to the opponent's first answer on the page: median {statistics.median(ms):.1f} ms, "
              f"worst {ms[-1]:.1f} ms")
        return
    times, whole, last = play(args.opponent, args.seed, args.round_limit)
    print(f"necro-play against {args.opponent}, seed {args.seed}: {len(times)} decisions of the person, "
          f"result {last['result']}")
    for what, ts in (("the opponent's first answer", times), ("the person's next decision", whole)):
        ms = sorted(t * 1000 for t in ts)
        print(f"click to {what}: median {statistics.median(ms):.1f} ms, worst {ms[-1]:.1f} ms")


if __name__ == "__main__":
    main()
