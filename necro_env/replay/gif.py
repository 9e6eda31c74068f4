"""``necro-replay gif``: an animated GIF of a replay (Pillow), one frame per step."""
from __future__ import annotations

from pathlib import Path

from ..render.battlelog import LogNames
from ..render.rgb import render_image
from .format import read_replay
from .verify import simulate


def write_gif(path, out, cell: int = 12, ms: int = 250, every: int = 1, max_steps=None) -> Path:
    """Re-simulate replay ``path`` (checking it) and write every ``every``-th step to ``out``.

    ``cell`` pixels per board cell, ``ms`` per frame; ``max_steps`` stops early. The last frame
    stays three times as long.
    """
    if min(cell, ms, every) < 1:  # the command line's own limits are in cli.py
        raise ValueError(f"write_gif: cell, ms and every are positive integers, got cell={cell}, ms={ms}, "
                         f"every={every}")
    rep = read_replay(path)
    frames = []
    n = len(rep.steps)
    draw = _drawer(rep, cell)
    for k, (game, _) in enumerate(simulate(rep)):
        last = k == n or (max_steps is not None and k >= max_steps)
        if k % every == 0 or last:
            frames.append(draw(game).quantize(colors=64, dither=0))
        if last:
            break
    out = Path(out)
    durations = [ms] * len(frames)
    durations[-1] = ms * 3
    frames[0].save(out, save_all=True, append_images=frames[1:], duration=durations, loop=0, optimize=True,
                   disposal=1)
    return out


def _drawer(rep, cell):
    """game -> a PIL image: Necromunda's renderer (``cell`` pixels a cell), or another ruleset's
    ``render_rgb`` (its own cell size), as its env's rgb_array render draws it (2026-12-02)."""
    name = rep.header["ruleset"]["name"]
    if name == "necromunda":  # the rebuilt game's names, not the header's (simulate checked it)
        return lambda game: render_image(game, cell, LogNames.from_game(game).gangs)
    from PIL import Image

    from .. import rulesets

    from ..core.header import H_NPLAYERS

    rs = rulesets.get(name)
    rgb = rs.feature("render_rgb")

    def draw(game):
        return Image.fromarray(rgb(game, [f"{rs.players}_{i}" for i in range(int(game.state.g[0, H_NPLAYERS]))]))
    return draw
