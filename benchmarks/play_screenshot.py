"""The README's picture of necro-play: docs/images/play_necromunda.png.

    python -m benchmarks.play_screenshot [--out docs/images/play_necromunda.png] [--turns 40]

serves the play app on a free port of 127.0.0.1 (a temporary play folder; seed 3 on the default
scenario against GUNLINE), opens it in headless Chromium (Debian's, as the browser tests find it:
NECRO_CHROMIUM, then PATH), plays ``--turns`` decisions as a person who prefers shooting, fighting,
charging and moving (a move chosen by clicking its highlighted cell), chooses a move so that the
page shows its highlighted cells and menu, and saves a screenshot of the page.
"""
from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import threading
import time

PRIORITY = ("shoot", "fight", "charge", "coup_de_grace", "move", "select", "group", "end")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def serve(app):
    import uvicorn

    from necro_env.play.server import WS_MAX

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, ws_max_size=WS_MAX, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}/"


def turn(page, finish: bool = True):
    steps = page.evaluate("window.playState.steps")
    kinds = page.evaluate("Array.from(document.querySelectorAll('#menu .kind')).map(b => b.dataset.kind)")
    kind = next((k for k in PRIORITY if k in kinds), kinds[0])
    page.click(f'#menu .kind[data-kind="{kind}"]')
    if not finish:
        return
    if page.evaluate("window.playState.steps") == steps and page.locator("#options .opt").count():
        cells = page.evaluate("window.playState.cells || []")
        if cells:
            pos = page.evaluate(f"window.cellCentre({cells[-1][0]}, {cells[-1][1]})")
            page.locator("#board").click(position=pos)
        else:
            page.click("#options .opt >> nth=0")
    page.wait_for_function("s => window.playState.steps > s && (window.playState.decision !== null "
                           "|| window.playState.done)", arg=steps, timeout=30_000)


def main(argv=None) -> None:
    from playwright.sync_api import sync_playwright

    from agents import make_agent
    from necro_env.play.server import create_app
    from necro_env.play.session import Settings

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="docs/images/play_necromunda.png")
    ap.add_argument("--turns", type=int, default=40, help="decisions played before the picture (default 40)")
    args = ap.parse_args(argv)
    root = tempfile.mkdtemp(prefix="play_shot_")
    server, url = serve(create_app(Settings(seed=3, opponent="gunline"), root, make_agent))
    chromium = os.environ.get("NECRO_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(url)
            page.select_option("#speed", "0")
            page.wait_for_function("window.playState.decision !== null", timeout=30_000)
            for _ in range(args.turns):
                turn(page)
            while "move" not in page.evaluate("Array.from(document.querySelectorAll('#menu .kind'))"
                                              ".map(b => b.dataset.kind)"):
                turn(page)
            page.click('#menu .kind[data-kind="move"]')  # its cells highlighted in the picture
            page.screenshot(path=args.out)
            browser.close()
    finally:
        server.should_exit = True
        shutil.rmtree(root, ignore_errors=True)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
