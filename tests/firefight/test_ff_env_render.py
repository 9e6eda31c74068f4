"""firefight_v0's render modes (necro_env/rulesets/firefight/render.py): ansi, rgb_array, human."""
from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import render_test

import necro_env.render.window as rgb
from necro_env import firefight_v0
from necro_env.rulesets.firefight import render as R


@pytest.fixture(scope="module")
def env():
    e = firefight_v0.raw_env(render_mode="ansi")
    e.reset(seed=7)
    rng = np.random.default_rng(7)
    while e.game.round < 1:
        e.step(int(rng.choice(np.flatnonzero(e.game.mask[0]))))
    return e


def test_ff_ansi_draws_the_board_models_and_a_status_line(env):
    lines = env.render().split("\n")
    g = env.game
    assert len(lines) == g.dims.height + 1 and all(len(r) == g.dims.width for r in lines[:-1])
    for u in range(2 * g.max_units):
        side, slot = divmod(u, g.max_units)
        for x, y in g.models(u):
            assert lines[y][x] == (chr(65 + slot) if side == 0 else chr(97 + slot))
    for o in g.objectives():
        x, y = o["cell"]
        assert lines[y][x] in "O01ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    assert lines[-1].startswith(f"round {g.round}/4 | {g.decision[0]} by {env.agent_selection}")


def test_ff_rgb_array_colours_models_by_side(env):
    g = env.game
    frame = R.rgb_array(g, env.possible_agents)
    assert frame.dtype == np.uint8 and frame.shape == (g.dims.height * R.CELL + R.STATUS_PX, g.dims.width * R.CELL, 3)
    for u in range(2 * g.max_units):
        side = u // g.max_units
        shaken = g.state.u[0, u, 12]
        for x, y in g.models(u):
            px = tuple(frame[y * R.CELL + R.CELL // 2, x * R.CELL + R.CELL // 2])
            assert px == (R.SHAKEN_RGB if shaken else R.SIDE_RGB)[side]


class FakeWindow:
    shown = []

    def __init__(self, title):
        self.title = title

    def show(self, image):
        FakeWindow.shown.append(image.size)

    def close(self):
        pass


def test_ff_render_test_all_modes(monkeypatch):
    """PettingZoo's render_test over ansi, rgb_array and human; no display here, so the human window is a
    fake that records the frames it is given (as tests/render/test_rgb.py does for Necromunda)."""
    monkeypatch.setattr(rgb, "HumanWindow", FakeWindow)
    FakeWindow.shown.clear()
    render_test(lambda render_mode=None: firefight_v0.env(render_mode=render_mode))
    assert len(FakeWindow.shown) == 5 and FakeWindow.shown[0] == (480, 496)


def test_ff_human_mode_without_display_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    e = firefight_v0.env(render_mode="human")
    e.reset(seed=0)
    with pytest.raises(RuntimeError, match="needs a display"):
        e.render()
