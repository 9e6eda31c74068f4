"""necro-play with Firefight in headless Chromium (2026-12-02; as tests/play/test_play_browser.py does for
Necromunda): a person places objectives, deploys by clicking highlighted cells and activates a unit by
clicking one of its models; a screenshot in round 1 shows both armies, a card per unit and the menu."""
import os
from pathlib import Path

import pytest

from agents import make_agent
from necro_env.play.server import create_app

from tests.play.play_helpers import Served
from tests.play.test_play_browser import click_cell, open_game, options, state, wait_decision
from tests.play.test_play_firefight import FF
from tests.replay.test_viewer import ARGS, chromium, colour_pixels

BLUE, RED = (0x28, 0x64, 0xc8), (0xc8, 0x3c, 0x28)  # firefight/frames.py COLOURS


@pytest.fixture
def ff_served(tmp_path):
    s = Served(create_app(FF, tmp_path / "play", make_agent))
    yield s
    s.stop()


def take_turn(page):
    """One decision by pointing: a unit with models on the table is clicked on the board (its last model); a kind with
    highlighted cells gets a click on the last of them; otherwise the first option of the list."""
    before = state(page)["steps"]
    piece = page.evaluate(  # the unit's LAST living model: any model of a unit picks it
        "(() => { const a = decision.legal.find(a => a.kind === 'select' && a.piece !== null); if (!a) return null; "
        "const u = G.view.fighters[a.piece].unit; let f = a.piece; "
        "frame.fi.forEach((r, k) => { if (r[6] === 1 && G.view.fighters[k].unit === u) f = k; }); "
        "return frame.fi[f].slice(0, 2); })()")
    if piece is not None:
        click_cell(page, *piece)
    else:
        kinds = page.evaluate("Array.from(document.querySelectorAll('#menu .kind')).map(b => b.dataset.kind)")
        assert kinds, "a decision with no legal action in the menu"
        page.click(f'#menu .kind[data-kind="{kinds[0]}"]')
        if state(page)["steps"] == before and options(page):
            cells = page.evaluate("window.playState.cells")
            if cells:
                click_cell(page, *cells[-1])
            else:
                page.click("#options .opt >> nth=0")
    wait_decision(page, before)


def test_a_firefight_game_by_clicks_and_a_screenshot(ff_served):
    from playwright.sync_api import sync_playwright

    errors = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), args=ARGS)
        page = open_game(browser, ff_served.url, errors)
        names = set()
        for _ in range(60):  # the set-up, then into round 1
            st = state(page)
            names.add(st["decision"])
            if st["done"] or (st["decision"] == "select_unit" and "deploy_cell" in names):
                break
            take_turn(page)
        assert state(page)["decision"] == "select_unit", names
        assert {"place_objective", "deploy_unit", "deploy_cell"} <= names
        take_turn(page)  # a click on one of the person's models activates that unit
        assert state(page)["decision"] == "choose_action"
        menu = page.evaluate("Array.from(document.querySelectorAll('#menu .kind')).map(b => b.dataset.kind)")
        png = page.screenshot(full_page=True)
        cards = page.locator("#cards .card").count()
        browser.close()
    assert not errors, errors
    assert menu == ["action"]
    assert colour_pixels(png, BLUE) > 200 and colour_pixels(png, RED) > 200
    assert cards == 11  # 5 units of the Human Defense Force, 6 of the Orc Marauders
    folder = os.environ.get("NECRO_SCREENSHOTS")
    if folder:  # a look at the page by hand
        Path(folder, "play_firefight.png").write_bytes(png)
