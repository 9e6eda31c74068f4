"""Replays of Firefight games (2026-12-02): recorded through the registry, verified bit for bit, shown by
`necro-replay show`, and drawn by the HTML viewer in headless Chromium (the screenshot is the one in
docs/images/viewer_firefight.png when NECRO_SCREENSHOTS names a folder)."""
import json
import os
from pathlib import Path

import pytest

from necro_env.replay import read_replay
from necro_env.replay.cli import main
from necro_env.replay.format import ReplayError
from necro_env.replay.record import record
from necro_env.replay.verify import verify

from tests.replay.test_viewer import ARGS, chromium, colour_pixels

BLUE, RED = (0x28, 0x64, 0xc8), (0xc8, 0x3c, 0x28)  # firefight/frames.py COLOURS


@pytest.fixture(scope="module")
def ff_replay(tmp_path_factory):
    """One whole random Firefight game on the default board and lists (seed 1)."""
    return record(tmp_path_factory.mktemp("ff") / "firefight.jsonl", seed=1, ruleset="firefight")


def test_header_names_firefight_and_its_config(ff_replay):
    head = read_replay(ff_replay).header
    assert head["ruleset"]["name"] == "firefight"
    assert head["config"]["lists"] == ["firefight/lists/human_defense_force_185.yaml",
                                       "firefight/lists/orc_marauders_195.yaml"]
    assert set(head["hashes"]) == {"board", "lists"} and len(head["hashes"]["lists"]) == 2
    assert head["names"]["sides"][0].startswith("player_0")


def test_a_whole_game_verifies(ff_replay):
    res = verify(ff_replay)
    assert res.done and res.steps > 20 and res.events > res.steps
    assert res.summary().startswith(f"OK {ff_replay}") and ("player_" in res.summary() or "draw" in res.summary())


def test_a_changed_action_is_caught(ff_replay, tmp_path):
    """A step whose recorded events no longer follow is refused, naming its line."""
    lines = ff_replay.read_text().splitlines()
    step = json.loads(lines[5])
    step["events"] = step["events"][:-1] + [[0] * 8]
    lines[5] = json.dumps(step)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(ReplayError, match=r"line 6, field 'events\[\d+\]'"):
        verify(bad)


def test_changed_names_are_caught(ff_replay, tmp_path):
    head, *rest = ff_replay.read_text().splitlines()
    h = json.loads(head)
    h["names"]["units"][0][0] = "Someone Else"
    bad = tmp_path / "names.jsonl"
    bad.write_text("\n".join([json.dumps(h)] + rest) + "\n")
    with pytest.raises(ReplayError, match=r"line 1, field 'names.units\[0\]\[0\]'"):
        verify(bad)


def test_a_list_outside_the_config_root_is_refused(ff_replay, tmp_path):
    head, *rest = ff_replay.read_text().splitlines()
    h = json.loads(head)
    h["config"]["lists"][0] = "/etc/passwd"
    bad = tmp_path / "path.jsonl"
    bad.write_text("\n".join([json.dumps(h)] + rest) + "\n")
    with pytest.raises(ReplayError, match=r"field 'config.lists\[0\]'"):
        verify(bad)


def test_show_words_firefight_events(ff_replay, capsys):
    assert main(["show", str(ff_replay), "--steps"]) == 0
    out = capsys.readouterr().out
    assert "ruleset firefight" in out and "# sides: player_0" in out and "roll-off" in out and "deploys at" in out
    assert "-- step 0: player_0" in out or "-- step 0: player_1" in out


def test_viewer_draws_a_firefight_game(ff_replay, tmp_path):
    """Both sides' colours on the board, one card per unit, the log line advancing with "step"."""
    from playwright.sync_api import sync_playwright

    out = tmp_path / "firefight.html"
    assert main(["html", str(ff_replay), "-o", str(out)]) == 0
    errors = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), args=ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(out.as_uri())
        page.wait_for_function("window.replayReady === true")
        page.evaluate("show(Math.floor(F.length / 3))")  # a frame of round 1 or 2: both armies on the table
        png = page.screenshot(full_page=True)
        cards = page.locator("#cards .card").count()
        before = page.inner_text("#logline")
        page.click("#step")
        after = page.inner_text("#logline")
        browser.close()
    assert not errors, errors
    assert colour_pixels(png, BLUE) > 200 and colour_pixels(png, RED) > 200
    assert cards == sum(len(n) for n in read_replay(ff_replay).header["names"]["units"])
    assert before != after
    folder = os.environ.get("NECRO_SCREENSHOTS")
    if folder:  # how docs/images/viewer_firefight.png is made
        Path(folder, "viewer_firefight.png").write_bytes(png)


def test_gif_of_a_firefight_game(ff_replay, tmp_path):
    """`necro-replay gif` draws a Firefight replay with its ruleset's rgb_array render."""
    from PIL import Image

    out = tmp_path / "ff.gif"
    assert main(["gif", str(ff_replay), "-o", str(out), "--max-steps", "30", "--every", "10"]) == 0
    with Image.open(out) as im:
        assert im.n_frames == 4 and im.size[0] > 100
