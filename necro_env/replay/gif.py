"""``necro-replay gif``: an animated GIF of a replay (Pillow), one frame per step."""
from __future__ import annotations

from pathlib import Path

from .. import rulesets
from ..core.header import H_NPLAYERS
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
    """game -> a PIL image: the ruleset's ``render_image`` at ``cell`` pixels a cell (Necromunda's), or its
    ``render_rgb`` at its own cell size, as its env's rgb_array render draws it (2026-12-02). The agents'
    names are the rebuilt game's (simulate checked the header against it)."""
    from PIL import Image

    rs = rulesets.get(rep.header["ruleset"]["name"])

    def names(game):
        return [f"{rs.players}_{i}" for i in range(int(game.state.g[0, H_NPLAYERS]))]
    if rs.render_image is not None:
        return lambda game: rs.render_image(game, names(game), cell)
    rgb = rs.feature("render_rgb")
    return lambda game: Image.fromarray(rgb(game, names(game)))
