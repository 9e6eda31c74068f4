"""The HTML viewer and the GIF (issue 6). The viewer runs end to end in headless Chromium
(a system Chromium driven by Playwright: `bash .ci/test-deps` installs Debian's, or says what to install)."""
import io
import json
import os
import re
import shutil

import numpy as np
from PIL import Image

from necro_env.rulesets.necromunda.rgb import GANG_COLOURS
from necro_env.replay import read_replay
from necro_env.replay.cli import main



def chromium() -> str:
    """The Chromium the browser tests drive, found as .ci/test-deps finds it (NECRO_CHROMIUM, then PATH)."""
    path = os.environ.get("NECRO_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    assert path and os.access(path, os.X_OK), (
        f"no Chromium for the browser test (NECRO_CHROMIUM={os.environ.get('NECRO_CHROMIUM')!r}, none on PATH): "
        "run `bash .ci/test-deps`, which installs Debian's chromium or says what to install")
    return path

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def colour_pixels(png: bytes, col, tol=12):
    a = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=int)
    return int(np.sum(np.all(np.abs(a - np.array(col)) <= tol, axis=-1)))


def test_html_is_self_contained(replay_file, tmp_path):
    out = tmp_path / "game.html"
    assert main(["html", str(replay_file), "-o", str(out), "--max-steps", "60"]) == 0
    text = out.read_text()
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", text), "the viewer must not load anything"
    data = json.loads(re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', text,
                                re.S).group(1))
    assert len(data["frames"]) == 61 and data["board"]["width"] == 24


def test_viewer_in_headless_chromium(replay_file, tmp_path):
    """Screenshot: both gang colours on the board; "step" advances the log line; scrubbing changes the frame."""
    from playwright.sync_api import sync_playwright

    out = tmp_path / "game.html"
    assert main(["html", str(replay_file), "-o", str(out)]) == 0
    n_frames = len(read_replay(replay_file).steps) + 1
    errors = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("request", lambda r: errors.append("network: " + r.url) if not r.url.startswith(("file:", "data:"))
                else None)
        page.goto(out.as_uri())
        page.wait_for_function("window.replayReady === true")
        board = page.locator("#board")
        shot0 = board.screenshot()
        for col in GANG_COLOURS[:2]:
            assert colour_pixels(shot0, col) > 50, f"gang colour {col} missing from the board"
        line0 = page.locator("#logline").inner_text()
        assert line0.startswith("[step 0]")
        page.click("#step")
        line1 = page.locator("#logline").inner_text()
        assert line1.startswith("[step 1]") and line1 != line0
        assert "step 1/" in page.locator("#status").inner_text()
        page.locator("#scrub").fill(str(n_frames - 1))
        assert page.locator("#logline").inner_text().startswith(f"[step {n_frames - 1}]")
        shot_end = board.screenshot()
        assert shot_end != shot0
        diff = np.abs(np.asarray(Image.open(io.BytesIO(shot_end)), dtype=int)
                      - np.asarray(Image.open(io.BytesIO(shot0)), dtype=int))
        assert np.count_nonzero(diff.sum(-1)) > 100, "scrubbing to the end must change the board"
        assert page.locator(".card").count() == 16
        page.click("#play")
        page.wait_for_timeout(50)
        assert page.locator("#play").inner_text() == "pause"
        page.click("#play")
        browser.close()
    assert errors == []


def test_gif(replay_file, tmp_path):
    out = tmp_path / "game.gif"
    assert main(["gif", str(replay_file), "-o", str(out), "--max-steps", "30", "--every", "3"]) == 0
    im = Image.open(out)
    assert im.format == "GIF" and im.n_frames == 11 and im.size == (24 * 12, 24 * 12 + 18)
