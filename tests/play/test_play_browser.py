"""necro-play end to end in headless Chromium (Debian's, driven by Playwright as the viewer's test does:
tests/replay/test_viewer.py): a scripted person plays a whole short Necromunda game by clicks against
the GUNLINE script (two rounds: conftest.SHORT), the saved replay verifies, an illegal click changes
nothing, two tabs stay apart, a malformed websocket message gets an error on the page and the game
goes on, and a screenshot in progress shows both gangs and a menu of the legal actions."""
import io
import urllib.request

import numpy as np
import pytest
from PIL import Image

from necro_env.rulesets.necromunda.rgb import GANG_COLOURS
from necro_env.replay import verify

from tests.replay.test_viewer import ARGS, chromium, colour_pixels

PRIORITY = ("shoot", "fight", "charge", "coup_de_grace", "move", "select", "group", "end")
WAIT = 30_000  # ms: a decision of the opponent never takes near this


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium(), args=ARGS)
        yield b
        b.close()


def open_game(browser, url, errors):
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.select_option("#speed", "0")  # the opponent's moves shown at once
    wait_decision(page)
    return page


def state(page) -> dict:
    return page.evaluate("window.playState")


def wait_decision(page, steps_before=-1):
    page.wait_for_function("s => window.playState.steps > s && (window.playState.decision !== null "
                           "|| window.playState.done)", arg=steps_before, timeout=WAIT)


def options(page) -> list:
    return page.evaluate("Array.from(document.querySelectorAll('#options .opt')).map(b => +b.dataset.action)")


def click_cell(page, x, y):
    pos = page.evaluate(f"window.cellCentre({x}, {y})")
    page.locator("#board").click(position=pos)


def take_turn(page):
    """One decision of the scripted person: a kind from PRIORITY clicked in the menu (a fighter to select
    clicked on the board), then, if the kind has several options, a highlighted cell on the board (a
    move) or the first option in the list."""
    before = state(page)["steps"]
    kinds = page.evaluate("Array.from(document.querySelectorAll('#menu .kind')).map(b => b.dataset.kind)")
    assert kinds, "a decision with no legal action in the menu"
    kind = next((k for k in PRIORITY if k in kinds), kinds[0])
    if kind == "select":  # a person selects a fighter by clicking it on the board
        x, y = page.evaluate("(() => { const a = decision.legal.find(a => a.kind === 'select'); "
                             "return frame.fi[a.piece].slice(0, 2); })()")
        click_cell(page, x, y)
        wait_decision(page, before)
        return
    page.click(f'#menu .kind[data-kind="{kind}"]')
    if state(page)["steps"] == before and options(page):
        cells = page.evaluate("window.playState.cells")
        if kind == "move" and cells:
            click_cell(page, *cells[-1])
        else:
            page.click("#options .opt >> nth=0")
    wait_decision(page, before)


def test_a_person_plays_a_whole_game_by_clicks_and_its_replay_verifies(served, browser, tmp_path):
    errors = []
    page = open_game(browser, served.url, errors)
    turns = 0
    while not state(page)["done"]:
        take_turn(page)
        turns += 1
        assert turns < 400, "the short game did not end"
    s = state(page)
    assert "game over" in page.locator("#result").inner_text() and s["decision"] is None
    assert "draw" in page.locator("#result").inner_text() or "wins" in page.locator("#result").inner_text()
    assert page.locator("#log div").count() > turns  # every action and its dice in the battle log
    out = tmp_path / "downloaded.jsonl"
    out.write_bytes(urllib.request.urlopen(served.url + f"games/{s['id']}/replay.jsonl").read())
    result = verify(str(out))
    assert result.done and result.steps == s["steps"]
    viewer = urllib.request.urlopen(served.url + f"games/{s['id']}/viewer.html").read().decode()
    assert 'id="replay-data"' in viewer and "function makeBoard" in viewer
    assert errors == []


def test_an_illegal_click_changes_nothing_and_says_why(served, browser):
    errors = []
    page = open_game(browser, served.url, errors)
    before = state(page)
    shot = page.locator("#board").screenshot()
    click_cell(page, 0, 0)  # a wall corner: no action of any kind there
    assert "no legal" in page.locator("#message").inner_text()
    off = page.locator("#notnow .off").first
    reason = off.get_attribute("title")
    assert reason and len(reason) > 20  # the engine's reason, shown on hover
    off.click()
    assert reason in page.locator("#message").inner_text()
    page.wait_for_timeout(200)
    assert state(page) == before, "an illegal click reached the game"
    assert page.locator("#board").screenshot() == shot
    assert errors == []


def test_two_tabs_play_two_games_apart(served, browser):
    errors = []
    a, b = open_game(browser, served.url, errors), open_game(browser, served.url, errors)
    sa, sb = state(a), state(b)
    assert sa["id"] != sb["id"] and a.url.endswith(sa["id"]) and b.url.endswith(sb["id"])
    take_turn(a)
    b.wait_for_timeout(300)
    assert state(a)["steps"] > sa["steps"]
    assert state(b) == sb, "a message of tab A's game reached tab B"
    # tab B may not act in tab A's game, even knowing its id
    b.evaluate(f"ws.send(JSON.stringify({{type: 'act', id: '{sa['id']}', action: 0}}))")
    b.wait_for_function("window.playState.errors === 1", timeout=WAIT)
    assert "resume" in b.locator("#message").inner_text() and state(a)["steps"] > sa["steps"]
    assert errors == []


def test_a_closed_tab_resumes_its_game_from_its_address(served, browser):
    errors = []
    page = open_game(browser, served.url, errors)
    for _ in range(2):
        take_turn(page)
    before, url, lines = state(page), page.url, page.locator("#log div").count()
    page.close()  # mid-game: the server keeps the game
    again = browser.new_page(viewport={"width": 1500, "height": 1000})
    again.goto(url)
    again.wait_for_function("window.playState.decision !== null", timeout=WAIT)
    now = state(again)
    assert (now["id"], now["steps"], now["legal"]) == (before["id"], before["steps"], before["legal"])
    assert again.locator("#log div").count() == lines  # the battle log so far, rebuilt
    take_turn(again)
    assert state(again)["steps"] > before["steps"] and errors == []


def test_a_malformed_message_gets_an_error_on_the_page_and_the_game_goes_on(served, browser):
    errors = []
    page = open_game(browser, served.url, errors)
    before = state(page)
    page.evaluate("ws.send(JSON.stringify({type: 'act', id: window.playState.id, action: '__import__(1)'}))")
    page.wait_for_function("window.playState.errors === 1", timeout=WAIT)
    assert "refused act message: field 'action'" in page.locator("#message").inner_text()
    page.evaluate("ws.send('not json at all')")
    page.wait_for_function("window.playState.errors === 2", timeout=WAIT)
    assert "not JSON" in page.locator("#message").inner_text()
    assert state(page)["steps"] == before["steps"]
    take_turn(page)
    assert state(page)["steps"] > before["steps"] and errors == []


def test_a_screenshot_in_progress_shows_both_gangs_and_the_legal_actions(served, browser):
    errors = []
    page = open_game(browser, served.url, errors)
    for _ in range(3):
        take_turn(page)
    sid = state(page)["id"]
    session = served.app.state.games.live[sid]
    want = [k["name"] for k in session.decision()["kinds"] if k["legal"]]
    shown = page.evaluate("Array.from(document.querySelectorAll('#menu .kind')).map(b => b.dataset.kind)")
    assert shown == want
    png = page.screenshot()
    board = page.locator("#board").screenshot()
    for col in GANG_COLOURS[:2]:
        assert colour_pixels(board, col) > 50, f"gang colour {col} missing from the board"
    img = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    assert img.shape[0] > 500 and img.shape[1] > 1000
    assert page.locator(".card").count() == 16 and "models left" in page.locator("#score").inner_text()
    assert errors == []
