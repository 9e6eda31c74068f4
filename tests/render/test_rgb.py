"""RGB rendering (issue 6): rgb_array images, human mode, PettingZoo's render_test."""

import numpy as np
import pytest
from pettingzoo.test import render_test

from necro_env import necromunda_v0
from necro_env.rulesets.necromunda import rgb
from necro_env.rulesets.necromunda.rgb import GANG_COLOURS, event_marks, height_map, render_image, render_rgb
from necro_env.rulesets.necromunda import events as E
from necro_env.rulesets.necromunda.state import G_EVN
from necro_env.testing import board, fighter, gang, scenario

SMALL = board("""
    ##########
    #0..o...1#
    #0..+...1#
    #0......1#
    ##########
""", name="small")


def small_game():
    g0 = gang("a", fighter("orlock", "ganger", ["lasgun"], name="A"), fighter("orlock", "ganger", [], name="A2"))
    g1 = gang("b", fighter("goliath", "ganger", ["fighting_knife"], name="B", armour="none"),
              fighter("goliath", "ganger", [], name="B2"))
    return scenario(SMALL, [g0, g1], [
        dict(fighter="A", cell=(2, 1), facing="E"), dict(fighter="B", cell=(7, 1), facing="W"),
        dict(fighter="A2", cell=(1, 3)), dict(fighter="B2", cell=(8, 3), posture="pinned"),
    ])


def has_colour(img, col, tol=0):
    a = np.asarray(img, dtype=int)
    return bool(np.any(np.all(np.abs(a - np.array(col)) <= tol, axis=-1)))


def test_rgb_image_shape_and_gang_colours():
    """One 20-pixel square per cell plus the status bar; both gang colours are drawn."""
    game = small_game()
    game.activate("A")
    a = render_rgb(game, cell=20)
    assert a.shape == (5 * 20 + rgb.STATUS_BAR, 10 * 20, 3) and a.dtype == np.uint8
    assert has_colour(a, GANG_COLOURS[0]) and has_colour(a, GANG_COLOURS[1])
    assert has_colour(a, rgb.WALL) and has_colour(a, rgb.OBSTACLE) and has_colour(a, rgb.DOOR_COLOURS[0])


def test_last_action_is_marked():
    """A shot draws a line of fire; a move draws a path arrow (from the last step's events)."""
    game = small_game()
    game.activate("A")
    before = render_image(game)
    assert not has_colour(before, rgb.FIRE) and not has_colour(before, rgb.FIRE_WOUND)
    game.script_dice([1] * 10)
    game.act("shoot", weapon=0, target="B")  # misses
    assert has_colour(render_image(game), rgb.FIRE)
    game.act("move", cell=(3, 3))
    marks = event_marks(game.state.ev[0, :game.state.g[0, G_EVN]], [(0, 0)] * 4, 10, 5)
    assert ("move", 2, 1, 3, 3, 0) in marks
    assert has_colour(render_image(game), rgb.MOVE_PATH)


def test_area_marks_for_cell_fields(monkeypatch):
    """An event kind with a ``cell`` field and a radius (a blast of later rules) is drawn as an area."""
    monkeypatch.setitem(E.EVENT_FIELDS, 997, ("cell", "radius"))
    marks = event_marks([[997, 0, -1, 2 * 10 + 3, 3, 0, 0, 0]], [(0, 0)], 10, 5)
    assert marks == [("area", 3, 2, 3, 2, 3)]


def test_height_map_is_drawn_when_present():
    """A board with a per-cell height map shades raised cells lighter than the floor."""
    game = small_game()
    assert height_map(game) is None
    flat = np.asarray(render_image(game, events=False))
    raised_board = board("""
    ##########
    #0..o...1#
    #0..+...1#
    #0......1#
    ##########
""", name="small_raised", heights="""
    0000000000
    0000022000
    0000022000
    0000022000
    0000000000
""")
    g0 = gang("a", fighter("orlock", "ganger", ["lasgun"], name="A"))
    g1 = gang("b", fighter("goliath", "ganger", ["fighting_knife"], name="B", armour="none"))
    game2 = scenario(raised_board, [g0, g1], [dict(fighter="A", cell=(1, 1)), dict(fighter="B", cell=(8, 1))])
    assert height_map(game2)[2, 5] == 2
    raised = np.asarray(render_image(game2, events=False))
    cell = raised[2 * 20 + 10, 5 * 20 + 10 - 6]
    assert tuple(cell) != tuple(flat[2 * 20 + 10, 5 * 20 + 10 - 6])
    assert cell.astype(int).sum() > flat[2 * 20 + 10, 5 * 20 + 10 - 6].astype(int).sum()


class FakeWindow:
    shown = []

    def __init__(self, title):
        self.title = title

    def show(self, image):
        FakeWindow.shown.append(image.size)

    def close(self):
        pass


def test_render_test_all_modes(monkeypatch):
    """PettingZoo's render_test over ansi, rgb_array and human. This machine has no display, so the
    human window is replaced by a fake that records the frames it is given."""
    monkeypatch.setattr(rgb, "HumanWindow", FakeWindow)
    FakeWindow.shown.clear()
    render_test(lambda render_mode=None: necromunda_v0.env(render_mode=render_mode))
    assert len(FakeWindow.shown) == 5 and FakeWindow.shown[0][0] > 100


def test_human_mode_without_display_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    env = necromunda_v0.env(render_mode="human")
    env.reset(seed=0)
    with pytest.raises(RuntimeError, match="needs a display"):
        env.render()


def test_conditions_are_read_from_the_state_module(monkeypatch):
    """Conditions come from ``state.FI_COND`` and its ``C_*`` bits when the ruleset has them (the
    conditions rules add them); each set bit is drawn as a dot in its colour and named."""
    from necro_env.rulesets.necromunda import state as S

    game = small_game()
    col = S.FI_STOOD  # stands in for a condition column in this test
    monkeypatch.setattr(S, "FI_COND", col, raising=False)
    monkeypatch.setattr(S, "C_BLAZE", 1, raising=False)
    monkeypatch.setattr(S, "C_BLIND", 2, raising=False)
    assert rgb.condition_bits()[:2] == [("blaze", 1), ("blind", 2)]
    f = game.fid("A")
    assert rgb.conditions_of(game, f) == []
    assert not has_colour(render_image(game, events=False), rgb.CONDITION_COLOURS[0])
    game.state.fi[0, f, col] = 3
    assert rgb.conditions_of(game, f) == ["blaze", "blind"]
    assert has_colour(render_image(game, events=False), rgb.CONDITION_COLOURS[0])


def test_walked_move_is_drawn_along_its_path():
    """A move around a wall is marked along a shortest path of the engine's reachability
    (not a straight line through the wall): path segments, then the arrow into the end cell."""
    walls = board("""
        #######
        #.....#
        #.###.#
        #.....#
        #######
    """, name="walls")
    g0 = gang("a", fighter("orlock", "ganger", [], name="A"), fighter("orlock", "ganger", [], name="A2"))
    g1 = gang("b", fighter("goliath", "ganger", [], name="B"), fighter("goliath", "ganger", [], name="B2"))
    game = scenario(walls, [g0, g1], [dict(fighter="A", cell=(2, 1)), dict(fighter="A2", cell=(5, 1)),
                                      dict(fighter="B", cell=(5, 3)), dict(fighter="B2", cell=(4, 3))])
    game.activate("A")
    game.act("move", cell=(2, 3))
    rows = game.state.ev[0, :game.state.g[0, G_EVN]]
    marks = event_marks(rows, [(0, 0)] * 4, 7, 5, game)
    assert [m[0] for m in marks] == ["path", "path", "path", "move"]
    cells = [(m[1], m[2]) for m in marks] + [(marks[-1][3], marks[-1][4])]
    assert cells == [(2, 1), (1, 1), (1, 2), (1, 3), (2, 3)]
    assert event_marks(rows, [(0, 0)] * 4, 7, 5) == [("move", 2, 1, 2, 3, 0)]  # without the game: straight


def test_smoke_clouds_are_drawn_from_the_state():
    """§12 Smoke: a smoke cloud in the state (G_SMOKE0.., centre cell + 1) is drawn as a grey area
    over the cells it covers (2.5" radius), and disappears with the marker."""
    from necro_env.rulesets.necromunda.markers import MARKER_KINDS
    from necro_env.rulesets.necromunda.state import G_SMOKE0

    game = small_game()
    smoke = MARKER_KINDS[0]
    assert smoke.name == "smoke"
    plain = np.asarray(render_image(game, events=False), dtype=int)
    game.state.g[0, G_SMOKE0] = 2 * 10 + 5 + 1  # cloud centred on (5, 2)
    assert rgb.marker_rows(game) == [("smoke", 5, 2, smoke.radius)]
    img = np.asarray(render_image(game, events=False), dtype=int)
    cs = 20

    def px(x, y):
        return img[y * cs + cs // 2 + 3, x * cs + cs // 2 + 3], plain[y * cs + cs // 2 + 3, x * cs + cs // 2 + 3]

    for cell in ((5, 2), (6, 3), (3, 2)):  # inside the cloud (distance < 2.5)
        got, before = px(*cell)
        assert not np.array_equal(got, before), cell
        assert abs(int(got[0]) - int(got[2])) < 40  # greyish: the tint pulls towards the smoke colour
    got, before = px(1, 1)  # outside (distance 4.1)
    assert np.array_equal(got, before)
    game.state.g[0, G_SMOKE0] = 0
    assert np.array_equal(np.asarray(render_image(game, events=False), dtype=int), plain)


def test_smoke_gone_has_a_log_line():
    """The End-phase smoke roll (§12 Smoke, event smoke_gone) reads as a sentence in the battle log."""
    from necro_env.rulesets.necromunda.battlelog import LogNames, format_event

    game = small_game()
    row = np.zeros(8, np.int64)
    row[:5] = (E.E_SMOKE_GONE, -1, -1, 2 * 10 + 5, 3)
    line = format_event(row, LogNames.from_game(game))
    assert "smoke cloud" in line and "dissipates" in line and "3" in line
