"""Pictures of a Firefight game for firefight_v0's render modes: a text board (``ansi``) and an image (``rgb_array``,
``human``). Both read only the board's tables and the state, so any game or replayed frame draws the same.

Text: one character a cell (legend in ``LEGEND``): terrain, objective markers (``O`` neutral, ``0``/``1`` held by
that side), models as their unit's letter (side 0 upper case ``A``.., side 1 lower case ``a``..), then a status
line. Image: ``CELL`` pixels a cell, terrain colours, objective markers as rings in the holder's colour (white
when neutral), models as discs in the side's colour (darker when Shaken; a white ring for the active unit), a
status bar below.
"""
from __future__ import annotations

import numpy as np

from .constants import TF_BLOCKS_SIGHT, TF_COVER, TF_DANGEROUS, TF_DIFFICULT, TF_IMPASSABLE
from .state import (
    DK_NAMES, G_ACTIVE, G_DK, G_DPLAYER, G_ROUND, G_ROUND_LIMIT, M_ALIVE, M_X, M_Y, O_ON, O_OWNER, O_X, O_Y, U_N,
    U_SHAKEN,
)

# terrain characters, checked in this order (the first flag a cell has wins)
LEGEND = ((TF_IMPASSABLE, "#"), (TF_BLOCKS_SIGHT, "%"), (TF_DANGEROUS, "!"), (TF_DIFFICULT, "~"), (TF_COVER, "^"))
CELL = 10
SIDE_RGB = ((60, 110, 220), (210, 60, 50))  # side 0 blue, side 1 red
SHAKEN_RGB = ((30, 55, 110), (105, 30, 25))
TERRAIN_RGB = ((TF_IMPASSABLE, (40, 40, 40)), (TF_BLOCKS_SIGHT, (95, 85, 75)), (TF_DANGEROUS, (150, 60, 140)),
               (TF_DIFFICULT, (120, 150, 90)), (TF_COVER, (150, 120, 80)))
FLOOR_RGB = (205, 200, 180)
STATUS_PX = 16


def status_line(game, agent_names) -> str:
    """Round, the decision awaited and by whom, the objectives held, the result once over."""
    g = game.state.g[0]
    score = f"objectives {agent_names[0]} {game.scores[0]} - {game.scores[1]} {agent_names[1]}"
    if game.done:
        result = "draw" if game.winner < 0 else f"{agent_names[game.winner]} wins"
        return f"round {int(g[G_ROUND])}/{int(g[G_ROUND_LIMIT])} | game over: {result} | {score}"
    dk = DK_NAMES.get(int(g[G_DK]), "none")
    return f"round {int(g[G_ROUND])}/{int(g[G_ROUND_LIMIT])} | {dk} by {agent_names[int(g[G_DPLAYER])]} | {score}"


def _models(game):
    """(global unit, side, slot, x, y) of every model on the table."""
    s, mu = game.state, game.max_units
    for u in np.flatnonzero(s.u[0, :, U_N] > 0):
        for r in s.m[0, u]:
            if r[M_ALIVE]:
                yield int(u), int(u // mu), int(u % mu), int(r[M_X]), int(r[M_Y])


def text_board(game, agent_names) -> str:
    """The ``ansi`` render: the board, one character a cell, and the status line."""
    flags = game.static.flags
    grid = np.full(flags.shape, ".", dtype="<U1")
    for bit, ch in reversed(LEGEND):
        grid[(flags & bit) > 0] = ch
    for o in game.state.obj[0]:
        if o[O_ON]:
            grid[o[O_Y], o[O_X]] = "O" if o[O_OWNER] < 0 else str(int(o[O_OWNER]))
    for _, side, slot, x, y in _models(game):
        letter = chr(ord("A") + slot % 26)
        grid[y, x] = letter if side == 0 else letter.lower()
    return "\n".join("".join(row) for row in grid) + "\n" + status_line(game, agent_names)


def image(game, agent_names, cell: int = CELL):
    """The game as a ``PIL.Image`` (board, objectives, models, status bar)."""
    from PIL import Image, ImageDraw

    h, w = game.static.flags.shape
    px = np.empty((h, w, 3), np.uint8)
    px[:] = FLOOR_RGB
    for bit, rgb in reversed(TERRAIN_RGB):
        px[(game.static.flags & bit) > 0] = rgb
    img = Image.new("RGB", (w * cell, h * cell + STATUS_PX), (0, 0, 0))
    img.paste(Image.fromarray(px).resize((w * cell, h * cell), Image.NEAREST), (0, 0))
    d = ImageDraw.Draw(img)
    for o in game.state.obj[0]:
        if o[O_ON]:
            col = (255, 255, 255) if o[O_OWNER] < 0 else SIDE_RGB[int(o[O_OWNER])]
            x, y = int(o[O_X]), int(o[O_Y])
            d.ellipse((x * cell - cell, y * cell - cell, (x + 2) * cell, (y + 2) * cell), outline=col, width=2)
    active = int(game.state.g[0, G_ACTIVE])
    for u, side, _, x, y in _models(game):
        col = SHAKEN_RGB[side] if game.state.u[0, u, U_SHAKEN] else SIDE_RGB[side]
        d.ellipse((x * cell + 1, y * cell + 1, (x + 1) * cell - 2, (y + 1) * cell - 2), fill=col,
                  outline=(255, 255, 255) if u == active else None)
    d.text((3, h * cell + 2), status_line(game, agent_names), fill=(255, 255, 255))
    return img


def rgb_array(game, agent_names) -> np.ndarray:
    """The ``rgb_array`` render: ``uint8[H*CELL + STATUS_PX, W*CELL, 3]``."""
    return np.asarray(image(game, agent_names), dtype=np.uint8).copy()
