"""ANSI (plain text) rendering of a Necromunda ``Game``: map, fighter table, status line.

``render_text(game)`` returns one string::

       0 1 2 3 4 5 6 7 8 9 0 1 ...      x (mod 10)
     0 # # # # # # # # # # # # ...
     1 # . . A . b_. . . ...            fighter cells: letter + posture mark
     ...
    legend / fighter table / round and decision line

Each cell is two characters wide: the symbol and a mark. Terrain: ``#`` wall,
``.`` floor, ``o`` obstacle, ``+`` closed door, ``/`` open door, ``L`` locked
door, ``_`` destroyed door, ``c`` unopened casket, ``u`` opened casket, ``=``
ductway end, ``t`` terminal. Fighters: gang 0 uppercase letters, gang 1
lowercase letters (letters that could be read as terrain are skipped: ``L``,
``O``, ``c``, ``l``, ``o``, ``t``, ``u``), gang 2 digits, gang 3 punctuation.
The mark after a fighter: space Standing, ``_`` Prone and Pinned, ``%`` Prone
and Seriously Injured, ``!`` Broken (and Standing), ``>`` the activated fighter.

Generic code reaches it through the ruleset (``RULESET.render_ansi``): it moved here from
``necro_env/envs/`` on 2026-12-02, when the generic layers were cut from Necromunda.
"""
from __future__ import annotations

import numpy as np

from ...core.terrain import (
    DOOR_CLOSED, DOOR_DESTROYED, DOOR_LOCKED, DOOR_OPEN, FACING_NAMES, TER_DOOR, TER_OBSTACLE, TER_WALL,
)
from .state import (
    CK_STATE, CK_X, CK_Y, DK_NAMES, DR_STATE, FI_ACTS, FI_BROKEN, FI_FLESH, FI_POSTURE, FI_READY, FI_STATE,
    FI_WOUNDS, FI_X, FI_Y, FS_ON, G_ACTIVE, G_DGANG, G_DK, G_DONE, G_PRIORITY, G_ROUND, G_ROUND_LIMIT, G_TRUNC,
    G_WINNER, GG_BOTTLED, GG_OUT, GG_RETREATED, PO_PINNED, PO_SI, WP_DEAD, WP_ID, WP_JAMMED, WP_OOA,
)

GANG_SYMBOLS = (
    "ABCDEFGHIJKMNPQRSTUVWXYZ",
    "abdefghijkmnpqrsvwxyz",
    "1234567890",
    "@$&*?^~<>",
)
_TERRAIN_CHAR = {0: ".", TER_WALL: "#", TER_OBSTACLE: "o", TER_DOOR: "+"}
_DOOR_CHAR = {DOOR_CLOSED: "+", DOOR_OPEN: "/", DOOR_LOCKED: "L", DOOR_DESTROYED: "_"}
_POSTURE = {0: "standing", PO_PINNED: "pinned", PO_SI: "ser. injured"}
_STATE = {0: "-", FS_ON: "on board", 2: "out of action", 3: "fled"}

LEGEND = ("legend: # wall  . floor  o obstacle  + closed door  / open door  L locked door  _ destroyed door  "
          "c casket  u opened casket  = ductway end  t terminal\n"
          "        fighter marks: ' ' standing  _ pinned  % seriously injured  ! broken  > activated")


def fighter_symbol(gang: int, slot: int) -> str:
    """The map symbol of a fighter ('?' when the gang's alphabet is exhausted)."""
    if gang < len(GANG_SYMBOLS) and slot < len(GANG_SYMBOLS[gang]):
        return GANG_SYMBOLS[gang][slot]
    return "?"


def _base_map(game):
    """The terrain characters of a board (cached on the game: the terrain never changes)."""
    cache = game.__dict__.get("_render_base")
    if cache is not None and cache[0] is game.static:
        return cache[1]
    st = game.static
    h, w = st.terrain.shape
    grid = np.full((h, w), ".", dtype="<U1")
    for code, ch in _TERRAIN_CHAR.items():
        grid[st.terrain == code] = ch
    for x0, y0, x1, y1 in st.duct:
        grid[y0, x0] = "="
        grid[y1, x1] = "="
    for x, y, _ in st.term:
        grid[y, x] = "t"
    game.__dict__["_render_base"] = (game.static, grid)
    return grid


def render_map(game) -> str:
    s = game.state
    st = game.static
    h, w = st.terrain.shape
    grid = _base_map(game).copy()
    marks = np.full((h, w), " ", dtype="<U1")
    for d, (x, y) in enumerate(st.door_xy):
        grid[y, x] = _DOOR_CHAR.get(int(s.door[0, d, DR_STATE]), "+")
    for k in range(s.casket.shape[1]):
        state = int(s.casket[0, k, CK_STATE])
        if state:
            x, y = int(s.casket[0, k, CK_X]), int(s.casket[0, k, CK_Y])
            if 0 <= x < w and 0 <= y < h:
                grid[y, x] = "c" if state == 1 else "u"
    mf = game.dims.max_fighters
    active = int(s.g[0, G_ACTIVE])
    fi = s.fi[0]
    for f in np.flatnonzero(fi[:, FI_STATE] == FS_ON):
        x, y = int(fi[f, FI_X]), int(fi[f, FI_Y])
        g, i = divmod(int(f), mf)
        grid[y, x] = fighter_symbol(g, i)
        post = int(fi[f, FI_POSTURE])
        if f == active:
            marks[y, x] = ">"
        elif post == PO_PINNED:
            marks[y, x] = "_"
        elif post == PO_SI:
            marks[y, x] = "%"
        elif fi[f, FI_BROKEN]:
            marks[y, x] = "!"
    lines = ["    " + " ".join(str(x % 10) for x in range(w))]
    for y in range(h):
        row = "".join(grid[y, x] + marks[y, x] for x in range(w))
        lines.append(f"{y:3d} " + row.rstrip())
    return "\n".join(lines)


def _weapons_text(game, f):
    s = game.state
    names = []
    for j in range(game.dims.max_weapons):
        wid = int(s.wp[0, f, j, WP_ID])
        if wid < 0:
            continue
        n = game.weapons.names[wid]
        if s.wp[0, f, j, WP_DEAD] & WP_JAMMED:
            n += "(jam)"
        elif s.wp[0, f, j, WP_OOA]:
            n += "(ooa)"
        names.append(n)
    return ", ".join(names) if names else "-"


def render_fighters(game, agent_names=None) -> str:
    s = game.state
    fi = s.fi[0]
    mf = game.dims.max_fighters
    head = f"{'gang':<7} {'id':<2} {'name':<18} {'state':<13} {'cell':<8} {'facing':<6} {'posture':<12} " \
           f"{'W':>2} {'FW':>2} {'rdy':<3} {'brk':<3} weapons ((ooa) out of ammo, (jam) jammed)"
    lines = [head]
    for f in range(fi.shape[0]):
        g, i = divmod(f, mf)
        st = int(fi[f, FI_STATE])
        if st == 0:
            continue
        name = game.fighter_names[g][i] if i < len(game.fighter_names[g]) else f"#{i}"
        gname = agent_names[g] if agent_names else f"gang_{g}"
        on = st == FS_ON
        cell = f"({int(fi[f, FI_X])},{int(fi[f, FI_Y])})" if on else "-"
        facing = FACING_NAMES[int(fi[f, 3]) & 7] if on else "-"
        post = _POSTURE.get(int(fi[f, FI_POSTURE]), "?") if on else "-"
        lines.append(
            f"{gname:<7} {fighter_symbol(g, i):<2} {name[:18]:<18} {_STATE.get(st, '?'):<13} {cell:<8} {facing:<6} "
            f"{post:<12} {int(fi[f, FI_WOUNDS]):>2} {int(fi[f, FI_FLESH]):>2} "
            f"{'yes' if (on and fi[f, FI_READY]) else 'no':<3} {'yes' if fi[f, FI_BROKEN] else 'no':<3} "
            f"{_weapons_text(game, f)}"
        )
    return "\n".join(lines)


def render_status(game, agent_names=None) -> str:
    s = game.state
    g = s.g[0]
    names = agent_names or [f"gang_{i}" for i in range(game.dims.n_gangs)]
    parts = [f"round {int(g[G_ROUND])}/{int(g[G_ROUND_LIMIT])}"]
    if g[G_DONE]:
        if g[G_TRUNC]:
            parts.append("game over: round limit reached (draw)")
        elif g[G_WINNER] >= 0:
            parts.append(f"game over: {names[int(g[G_WINNER])]} wins")
        else:
            parts.append("game over: draw")
    else:
        dk = DK_NAMES.get(int(g[G_DK]), "none")
        parts.append(f"decision: {dk} by {names[int(g[G_DGANG])]}")
        act = int(g[G_ACTIVE])
        if act >= 0:
            ga, ia = divmod(act, game.dims.max_fighters)
            nm = game.fighter_names[ga][ia] if ia < len(game.fighter_names[ga]) else f"#{ia}"
            parts.append(f"active: {fighter_symbol(ga, ia)} {nm} ({int(s.fi[0, act, FI_ACTS])} actions left)")
        parts.append(f"priority: {names[int(g[G_PRIORITY])]}")
    flags = []
    for i in range(game.dims.n_gangs):
        gg = s.gang[0, i]
        if gg[GG_RETREATED]:
            flags.append(f"{names[i]} retreated")
        elif gg[GG_OUT]:
            flags.append(f"{names[i]} out")
        elif gg[GG_BOTTLED]:
            flags.append(f"{names[i]} bottled")
    if flags:
        parts.append(", ".join(flags))
    return " | ".join(parts)


def render_text(game, agent_names=None) -> str:
    """The whole text frame: map, legend, fighter table, status line."""
    return "\n".join([
        f"board {game.board.name} ({game.dims.width}x{game.dims.height})",
        render_map(game),
        LEGEND,
        "",
        render_fighters(game, agent_names),
        "",
        render_status(game, agent_names),
    ]) + "\n"
