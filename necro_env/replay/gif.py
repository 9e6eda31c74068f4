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
    for k, (game, _) in enumerate(simulate(rep)):
        names = LogNames.from_game(game).gangs  # the rebuilt game's, not the header's (simulate checked it)
        last = k == n or (max_steps is not None and k >= max_steps)
        if k % every == 0 or last:
            frames.append(render_image(game, cell, names).quantize(colors=64, dither=0))
        if last:
            break
    out = Path(out)
    durations = [ms] * len(frames)
    durations[-1] = ms * 3
    frames[0].save(out, save_all=True, append_images=frames[1:], duration=durations, loop=0, optimize=True,
                   disposal=1)
    return out
