"""Rebuild docs/images/viewer.png and docs/images/game.gif (docs/replays.md).

    python docs/images/make_images.py

Records one game (seed 1, zm_hall board, the ``closing`` demo player), writes the HTML viewer,
screenshots it in headless Chromium at the first step with a shot that wounds, and writes a GIF
of the first 120 steps.
"""
import json
import tempfile
from pathlib import Path

from necro_env.replay import read_replay, record
from necro_env.replay.gif import write_gif
from necro_env.replay.html import write_html
from necro_env.replay.record import closing_policy

HERE = Path(__file__).resolve().parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def main():
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp())
    rep_path = record(tmp / "demo.jsonl", seed=1, policy=closing_policy, board="boards/zm_hall.yaml")
    rep = read_replay(rep_path)
    step = next(s["i"] + 1 for s in rep.steps if any(e[0] == 15 and e[5] for e in s["events"]))  # E_WOUND, wounded
    html = write_html(rep_path, tmp / "demo.html")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page(viewport={"width": 1320, "height": 760})
        page.goto(html.as_uri())
        page.wait_for_function("window.replayReady === true")
        page.locator("#scrub").fill(str(step))
        page.screenshot(path=str(HERE / "viewer.png"))
        browser.close()
    write_gif(rep_path, HERE / "game.gif", cell=10, ms=200, max_steps=120)
    print(json.dumps({"replay": str(rep_path), "screenshot_step": step,
                      "gif_bytes": (HERE / "game.gif").stat().st_size}))


if __name__ == "__main__":
    main()
