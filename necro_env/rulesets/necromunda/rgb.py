"""RGB images of a Necromunda game (Pillow): board, fighters and the last step's action.

Necromunda's own drawing: it moved here from ``necro_env/render/`` on 2026-12-02, when the generic layers were
cut from Necromunda; generic code reaches it through the ruleset (``RULESET.render_rgb``, ``render_image``), and
the window of the human mode is generic (``necro_env/render/window.py``).

``render_rgb(game)`` returns an ``uint8[H_px, W_px, 3]`` array (the env's ``rgb_array`` mode);
``render_image(game)`` the ``PIL.Image``. The drawing reads only arrays: the board (``Static`` /
``BoardSpec``), the state (``game.state``) and the events of the last step, so the replay viewer
and the GIF writer draw frames of re-simulated games with the same code.

What is drawn (the legend is in docs/replays.md):

- terrain: floor, walls, obstacles (cover, brown), doors by state (closed brown bar, open green
  outline, locked red bar, destroyed grey rubble), ductway ends (purple rings joined by a dotted
  line), terminals (cyan), loot caskets (gold square; hollow once opened). An optional per-cell
  height map (a ``heights``/``height``/``height_map``/``elevation`` array of the board or the
  ``Static``) shades higher floor lighter and prints the level.
- fighters: a disc in the gang colour with its map letter, a wedge toward its facing, a wounds
  bar (green pips = wounds left, dark red = Flesh Wounds), a white ring for the active fighter.
  Prone and Pinned: flattened disc; Seriously Injured: dark disc with a red cross; Broken: a white
  "!" badge; Ready: a small yellow dot; Out of Ammo / jammed weapon: a small grey square.
- board markers (``markers.py``): a smoke cloud is a grey disc of its 2.5" radius over the
  cells it covers, a Graviton Pulse marker a purple disc of its own radius ((Blast diameter + 1)
  / 2, read from the state), each with a darker outline (one colour per marker kind,
  ``MARKER_KINDS``); drawn over the terrain and under the fighters.
- the last step (from its events): movement paths (white arrows from ``from_cell`` to
  ``to_cell``), lines of fire (yellow, red when the shot wounded), fights (orange), and any
  event field naming a cell (a blast or template centre of later rules) as an orange area, with a
  ``radius``/``radius_inches`` field drawn as a circle.
"""
from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ...core.terrain import (
    DOOR_CLOSED, DOOR_DESTROYED, DOOR_LOCKED, DOOR_OPEN, FACING_DX, FACING_DY, TER_OBSTACLE, TER_WALL,
)
from ...core import terrain as TERRAIN
from ...render.window import HumanWindow  # noqa: F401  (necromunda_v0's human mode takes it from here)
from . import events as E
from . import state as STATE
from .state import (
    CK_STATE, CK_X, CK_Y, DR_STATE, FI_BROKEN, FI_FACING, FI_FLESH, FI_POSTURE, FI_READY, FI_STATE, FI_WOUNDS, FI_X,
    FI_Y, FS_ON, G_ACTIVE, G_DGANG, G_DONE, G_EVN, G_ROUND, G_WINNER, PO_PINNED, PO_SI, WP_DEAD, WP_ID, WP_JAMMED,
    WP_OOA,
)
from .markers import MARKER_KINDS, marker_list, marker_plane
from .render_text import fighter_symbol

GANG_COLOURS = ((214, 48, 49), (9, 132, 227), (0, 168, 112), (230, 160, 0), (142, 68, 173), (0, 170, 190))
FLOOR = (206, 200, 186)
WALL = (52, 56, 64)
OBSTACLE = (139, 101, 60)
DOOR_COLOURS = {DOOR_CLOSED: (120, 80, 40), DOOR_OPEN: (70, 170, 90), DOOR_LOCKED: (200, 40, 40),
                DOOR_DESTROYED: (130, 130, 130)}
DUCT = (150, 80, 200)
TERMINAL = (40, 190, 210)
CASKET = (225, 180, 30)
MOVE_PATH = (255, 255, 255)
FIRE = (255, 220, 0)
FIRE_WOUND = (255, 40, 40)
MELEE = (255, 140, 0)
AREA = (255, 120, 0)

HEIGHT_NAMES = ("heights", "height_map", "height", "elevation", "levels")
FEATURE_NAMES = ("features", "feat")
# per-cell feature flags (core.terrain FEAT_*, when the ruleset has them) -> the glyph drawn in the cell
FEATURE_GLYPHS = (("FEAT_LADDER", "H"), ("FEAT_STAIRS", "="), ("FEAT_RAILING", "_"))
CONDITION_COLOURS = ((255, 90, 0), (20, 20, 20), (150, 150, 255), (120, 120, 120), (170, 60, 200),
                     (240, 240, 240), (90, 140, 40), (200, 160, 120), (230, 80, 160), (100, 60, 20), (0, 0, 0))


def condition_bits():
    """[(name, bit)] of the fighter conditions the state knows (``C_*`` bits of ``FI_COND``), or []."""
    if getattr(STATE, "FI_COND", None) is None:
        return []
    return sorted(((k[2:].lower(), v) for k, v in vars(STATE).items()
                   if k.startswith("C_") and isinstance(v, int) and v > 0), key=lambda kv: kv[1])


def conditions_of(game, f):
    """Names of the conditions fighter f has (beyond Ready / Broken / Out of Ammo / Flesh Wounds)."""
    col = getattr(STATE, "FI_COND", None)
    if col is None or col >= game.state.fi.shape[2]:
        return []
    mask = int(game.state.fi[0, f, col])
    return [name for name, bit in condition_bits() if mask & bit]
STATUS_BAR = 18


def board_array(game, names):
    h, w = game.static.terrain.shape
    for src in (game.static, game.board):
        for name in names:
            a = getattr(src, name, None)
            if isinstance(a, np.ndarray) and a.shape == (h, w):
                return a
    return None


def height_map(game):
    """The per-cell floor heights of the game's board (``Static.height``), or None on a flat board."""
    h = game.static.height
    return h if np.any(h) else None


def _font(size):
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1
        return ImageFont.load_default()


class _Painter:
    def __init__(self, width, height, cell):
        self.cs = cell
        self.img = Image.new("RGB", (width * cell, height * cell + STATUS_BAR), FLOOR)
        self.d = ImageDraw.Draw(self.img, "RGBA")
        self.font = _font(max(8, int(cell * 0.6)))
        self.small = _font(max(7, int(cell * 0.4)))

    def box(self, x, y, pad=0.0):
        c = self.cs
        return (x * c + pad * c, y * c + pad * c, (x + 1) * c - 1 - pad * c, (y + 1) * c - 1 - pad * c)

    def centre(self, x, y):
        c = self.cs
        return (x * c + c / 2.0, y * c + c / 2.0)


def draw_board(p: _Painter, game, door_states=None, casket_rows=None):
    st = game.static
    terrain = st.terrain
    h, w = terrain.shape
    hm = height_map(game)
    d = p.d
    if hm is not None and np.any(hm):
        top = max(1, int(np.max(hm)))
    feats = board_array(game, FEATURE_NAMES)
    glyphs = [(getattr(TERRAIN, name), g) for name, g in FEATURE_GLYPHS if hasattr(TERRAIN, name)]
    for y in range(h):
        for x in range(w):
            t = int(terrain[y, x])
            if t == TER_WALL:
                d.rectangle(p.box(x, y), fill=WALL)
                continue
            col = FLOOR
            if hm is not None and hm[y, x]:
                k = min(1.0, float(hm[y, x]) / top)
                col = tuple(int(v + (255 - v) * 0.45 * k) for v in FLOOR)
            d.rectangle(p.box(x, y), fill=col, outline=(190, 184, 170))
            if t == TER_OBSTACLE:
                d.rectangle(p.box(x, y, 0.12), fill=OBSTACLE)
            if hm is not None and hm[y, x]:
                d.text((x * p.cs + 1, y * p.cs), str(int(hm[y, x])), fill=(90, 90, 90), font=p.small)
            if feats is not None and feats[y, x]:
                text = "".join(g for bit, g in glyphs if int(feats[y, x]) & bit)
                d.text(((x + 1) * p.cs - 1, y * p.cs), text, fill=(60, 60, 160), font=p.small, anchor="ra")
    for x0, y0, x1, y1 in st.duct:
        a, b = p.centre(x0, y0), p.centre(x1, y1)
        _dotted(d, a, b, DUCT, max(1, p.cs // 10))
        for (x, y) in ((x0, y0), (x1, y1)):
            d.ellipse(p.box(x, y, 0.15), outline=DUCT, width=max(2, p.cs // 8))
    for x, y, _ in st.term:
        d.rectangle(p.box(x, y, 0.25), fill=TERMINAL, outline=(0, 80, 90))
    for i, (x, y) in enumerate(st.door_xy):
        state = int(door_states[i]) if door_states is not None and i < len(door_states) else DOOR_CLOSED
        _door(p, int(x), int(y), state, terrain)
    if casket_rows is not None:
        for x, y, state in casket_rows:
            if state == 1:
                d.rectangle(p.box(x, y, 0.22), fill=CASKET, outline=(110, 80, 0), width=2)
            elif state == 2:
                d.rectangle(p.box(x, y, 0.22), outline=CASKET, width=2)


def marker_rows(game):
    """[(kind name, centre x, centre y, radius)] of the board markers in play (smoke clouds, Graviton
    Pulse markers, ...); the radius in inches (fixed per kind, or per marker: markers.py)."""
    g = game.state.g[0]
    w = game.dims.width
    return [(k.name, c % w, c // w, r) for k in MARKER_KINDS for c, r in marker_list(g, k)]


def draw_markers(p: _Painter, game):
    """Board markers: the covered cells tinted in the kind's colour, and the marker's circle."""
    d, cs = p.d, p.cs
    g = game.state.g[0]
    h, w = game.dims.height, game.dims.width
    for k, kind in enumerate(MARKER_KINDS):
        cells = marker_list(g, kind)
        if not cells:
            continue
        col = tuple(kind.colour)
        plane = marker_plane(g, k, h, w)
        for y, x in zip(*np.nonzero(plane)):
            d.rectangle(p.box(int(x), int(y)), fill=col + (120,))
        edge = tuple(max(0, v - 70) for v in col)
        for c, rad in cells:
            cx, cy = p.centre(c % w, c // w)
            r = rad * cs
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=col + (60,), outline=edge + (255,), width=max(2, cs // 8))


def _door(p, x, y, state, terrain):
    d = p.d
    h, w = terrain.shape
    horiz = (0 < x < w - 1 and terrain[y, x - 1] == TER_WALL and terrain[y, x + 1] == TER_WALL)
    col = DOOR_COLOURS.get(state, DOOR_COLOURS[DOOR_CLOSED])
    x0, y0, x1, y1 = p.box(x, y)
    t = max(3, p.cs // 4)
    if state in (DOOR_CLOSED, DOOR_LOCKED):
        if horiz:
            d.rectangle((x0, (y0 + y1) / 2 - t / 2, x1, (y0 + y1) / 2 + t / 2), fill=col)
        else:
            d.rectangle(((x0 + x1) / 2 - t / 2, y0, (x0 + x1) / 2 + t / 2, y1), fill=col)
    elif state == DOOR_OPEN:
        d.rectangle((x0, y0, x1, y1), outline=col, width=max(2, p.cs // 10))
    else:
        for k in range(3):
            cx, cy = x0 + (k + 1) * (x1 - x0) / 4, y0 + ((k * 7) % 3 + 1) * (y1 - y0) / 4
            d.ellipse((cx - 2, cy - 2, cx + 2, cy + 2), fill=col)


def _dotted(d, a, b, col, width, step=6.0):
    (ax, ay), (bx, by) = a, b
    n = max(1, int(np.hypot(bx - ax, by - ay) / step))
    for i in range(0, n, 2):
        s0, s1 = i / n, min(1.0, (i + 1) / n)
        d.line((ax + (bx - ax) * s0, ay + (by - ay) * s0, ax + (bx - ax) * s1, ay + (by - ay) * s1), fill=col, width=width)


def _arrow(d, a, b, col, width):
    d.line((a, b), fill=col, width=width)
    (ax, ay), (bx, by) = a, b
    ang = np.arctan2(by - ay, bx - ax)
    L = 3 * width + 3
    for s in (-0.5, 0.5):
        d.line((b, (bx - L * np.cos(ang + s), by - L * np.sin(ang + s))), fill=col, width=width)


def fighter_rows(game):
    """Per fighter (global index): (gang, slot, x, y, facing, posture, wounds, flesh, on, ready, broken, ooa)."""
    s = game.state
    fi = s.fi[0]
    mf = game.dims.max_fighters
    out = []
    for f in range(fi.shape[0]):
        g, i = divmod(f, mf)
        ooa = any(int(s.wp[0, f, j, WP_ID]) >= 0 and (s.wp[0, f, j, WP_OOA] or s.wp[0, f, j, WP_DEAD] & WP_JAMMED)
                  for j in range(s.wp.shape[2]))
        out.append((g, i, int(fi[f, FI_X]), int(fi[f, FI_Y]), int(fi[f, FI_FACING]), int(fi[f, FI_POSTURE]),
                    int(fi[f, FI_WOUNDS]), int(fi[f, FI_FLESH]), int(fi[f, FI_STATE]) == FS_ON,
                    bool(fi[f, FI_READY]), bool(fi[f, FI_BROKEN]), bool(ooa)))
    return out


def draw_fighters(p: _Painter, game, active=-1):
    d, cs = p.d, p.cs
    cond_bits = condition_bits()
    col = getattr(STATE, "FI_COND", None)
    cond_mask = (game.state.fi[0, :, col].astype(int) if col is not None and col < game.state.fi.shape[2]
                 else np.zeros(game.state.fi.shape[1], int))
    for f, (g, i, x, y, facing, posture, wounds, flesh, on, ready, broken, ooa) in enumerate(fighter_rows(game)):
        if not on:
            continue
        col = GANG_COLOURS[g % len(GANG_COLOURS)]
        cx, cy = p.centre(x, y)
        r = cs * 0.38
        if posture == PO_SI:
            body = tuple(int(v * 0.45) for v in col)
        else:
            body = col
        if posture == PO_PINNED or posture == PO_SI:
            d.ellipse((cx - r, cy - r * 0.6, cx + r, cy + r * 0.6), fill=body, outline=(20, 20, 20))
        else:
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=body, outline=(20, 20, 20))
        # facing wedge
        fx, fy = FACING_DX[facing & 7], FACING_DY[facing & 7]
        n = np.hypot(fx, fy)
        ux, uy = fx / n, fy / n
        tip = (cx + ux * r * 1.3, cy + uy * r * 1.3)
        side = (-uy * r * 0.45, ux * r * 0.45)
        base = (cx + ux * r * 0.7, cy + uy * r * 0.7)
        d.polygon([tip, (base[0] + side[0], base[1] + side[1]), (base[0] - side[0], base[1] - side[1])],
                  fill=(250, 250, 250), outline=(20, 20, 20))
        d.text((cx, cy), fighter_symbol(g, i), fill=(255, 255, 255), font=p.font, anchor="mm")
        if posture == PO_SI:
            d.line((cx - r * 0.6, cy - r * 0.6, cx + r * 0.6, cy + r * 0.6), fill=(255, 40, 40), width=2)
            d.line((cx - r * 0.6, cy + r * 0.6, cx + r * 0.6, cy - r * 0.6), fill=(255, 40, 40), width=2)
        # wounds bar: green pips for wounds left, dark red for flesh wounds
        x0, y1 = x * cs + 1, (y + 1) * cs - 2
        pip = max(2, cs // 8)
        k = 0
        for _ in range(max(0, wounds)):
            d.rectangle((x0 + k * (pip + 1), y1 - pip, x0 + k * (pip + 1) + pip - 1, y1), fill=(40, 200, 60))
            k += 1
        for _ in range(max(0, flesh)):
            d.rectangle((x0 + k * (pip + 1), y1 - pip, x0 + k * (pip + 1) + pip - 1, y1), fill=(120, 0, 0))
            k += 1
        if ready:
            d.ellipse((x * cs + cs - pip - 2, y * cs + 1, x * cs + cs - 1, y * cs + pip + 2), fill=(255, 230, 0))
        if broken:
            d.text((x * cs + 1, y * cs), "!", fill=(255, 255, 255), font=p.font, stroke_width=1, stroke_fill=(0, 0, 0))
        if ooa:
            d.rectangle((x * cs + cs - pip - 2, y1 - pip, x * cs + cs - 2, y1), fill=(110, 110, 110))
        for k, (name, bit) in enumerate(cond_bits):
            if cond_mask[f] & bit:  # a row of condition dots along the top edge, one colour per condition
                cp = max(3, cs // 5)
                c0 = x * cs + 1 + (k % 6) * (cp + 1)
                d.rectangle((c0, y * cs + 1, c0 + cp - 1, y * cs + cp), fill=CONDITION_COLOURS[k % len(
                    CONDITION_COLOURS)])
        if f == active:
            d.ellipse((cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3), outline=(255, 255, 255), width=2)


def move_path(game, f, c0, c1, cost):
    """A shortest path (flat cells, c0 first) of fighter f from c0 to c1 costing ``cost`` half-inches,
    by the engine's own reachability on the current board; None when it cannot be rebuilt (the
    board changed since, or the move was not a walk, e.g. a ductway or a knockback)."""
    from .movement import MODE_NORMAL, reach
    from .state import clone_state

    w, h = game.dims.width, game.dims.height
    n = w * h
    if not (0 <= f < game.state.fi.shape[1] and 0 <= c0 < n and 0 <= c1 < n and cost > 0):
        return None
    s = clone_state(game.state)
    s.fi[0, f, FI_X], s.fi[0, f, FI_Y] = c0 % w, c0 // w
    s.fi[0, f, FI_STATE] = FS_ON
    dist, prev = np.empty(n, np.int32), np.empty(n, np.int32)
    reach(s, game.static, 0, f, int(cost), MODE_NORMAL, -1, dist, prev, np.empty(n, np.bool_))
    if dist[c1] != cost:
        return None
    path = [c1]
    while path[-1] != c0 and len(path) <= n:
        p = int(prev[path[-1]])
        if p < 0:
            return None
        path.append(p)
    return path[::-1] if path[-1] == c0 else None


def event_marks(rows, fighter_xy, width, height, game=None):
    """What the last step did, in cells: a list of ``(kind, x0, y0, x1, y1, radius)``.

    kind "move" (from_cell -> to_cell of any event: moves, charges, Running for Cover, knockback,
    ductways; with ``game``, a walked move is drawn along its path: "path" segments, then a
    "move" arrow), "fire" / "fire_wound" (a shot, and whether it wounded), "melee" (a fight),
    "area" (a cell named by any other ``*cell`` field, e.g. a blast centre; radius from a
    ``radius`` or ``radius_inches`` field). ``fighter_xy[f]`` is the (x, y) of fighter f *after*
    the step.
    """
    marks = []
    wounded = {(int(r[1]), int(r[2])) for r in rows if int(r[0]) == E.E_WOUND and int(r[5])}
    e_attacks = getattr(E, "E_ATTACKS", -99)
    for r in rows:
        k, a, t = int(r[0]), int(r[1]), int(r[2])
        names = E.EVENT_FIELDS.get(k, ())
        v = dict(zip(names, (int(x) for x in r[3:])))
        if "from_cell" in v and "to_cell" in v:
            if v["from_cell"] != v["to_cell"]:
                c0, c1 = v["from_cell"], v["to_cell"]
                cost = v.get("cost_half_inches", 0)
                path = move_path(game, a, c0, c1, cost) if (game is not None and cost) else None
                if path and len(path) > 2:
                    for p0, p1 in zip(path[:-2], path[1:-1]):
                        marks.append(("path", p0 % width, p0 // width, p1 % width, p1 // width, 0))
                    c0 = path[-2]
                marks.append(("move", c0 % width, c0 // width, c1 % width, c1 // width, 0))
        elif k == E.E_SHOT and 0 <= a < len(fighter_xy) and 0 <= t < len(fighter_xy):
            kind = "fire_wound" if (a, t) in wounded else "fire"
            marks.append((kind, *fighter_xy[a], *fighter_xy[t], 0))
        elif k == e_attacks and 0 <= a < len(fighter_xy) and 0 <= t < len(fighter_xy):
            marks.append(("melee", *fighter_xy[a], *fighter_xy[t], 0))
        rad = v.get("radius", v.get("radius_inches", 0))
        for nm in names:
            if nm.endswith("cell") and nm not in ("from_cell", "to_cell"):
                c = v[nm]
                if 0 <= c < width * height:
                    marks.append(("area", c % width, c // width, c % width, c // width, rad))
    return marks


_MARK_COLOUR = {"move": MOVE_PATH, "fire": FIRE, "fire_wound": FIRE_WOUND, "melee": MELEE}


def draw_events(p: _Painter, game, rows):
    """Mark the last step: movement, lines of fire, fights, cells named by events (blast areas)."""
    d, cs = p.d, p.cs
    fi = game.state.fi[0]
    xy = [(int(fi[f, FI_X]), int(fi[f, FI_Y])) for f in range(fi.shape[0])]
    lw = max(2, cs // 8)
    for kind, x0, y0, x1, y1, rad in event_marks(rows, xy, game.dims.width, game.dims.height, game):
        if kind == "area":
            d.rectangle(p.box(x0, y0), fill=AREA + (110,))
            if rad:
                cx, cy = p.centre(x0, y0)
                d.ellipse((cx - rad * cs, cy - rad * cs, cx + rad * cs, cy + rad * cs), fill=AREA + (60,),
                          outline=AREA, width=2)
        elif kind == "path":
            d.line((p.centre(x0, y0), p.centre(x1, y1)), fill=MOVE_PATH, width=lw)
        else:
            _arrow(d, p.centre(x0, y0), p.centre(x1, y1), _MARK_COLOUR[kind], lw)


def status_text(game, agent_names=None):
    g = game.state.g[0]
    names = agent_names or [f"gang_{i}" for i in range(game.dims.n_gangs)]
    if g[G_DONE]:
        w = int(g[G_WINNER])
        return f"round {int(g[G_ROUND])}  game over: " + (f"{names[w]} wins" if w >= 0 else "draw")
    return f"round {int(g[G_ROUND])}  {names[int(g[G_DGANG])]} to decide"


def render_image(game, cell: int = 20, agent_names=None, events=True) -> Image.Image:
    """The game as a PIL image: ``cell`` pixels per board cell plus a status bar."""
    s = game.state
    h, w = game.static.terrain.shape
    p = _Painter(w, h, cell)
    caskets = [(int(s.casket[0, k, CK_X]), int(s.casket[0, k, CK_Y]), int(s.casket[0, k, CK_STATE]))
               for k in range(s.casket.shape[1])]
    draw_board(p, game, s.door[0, :, DR_STATE], caskets)
    draw_markers(p, game)
    rows = s.ev[0, :int(s.g[0, G_EVN])] if events else ()
    draw_events(p, game, rows)
    draw_fighters(p, game, int(s.g[0, G_ACTIVE]))
    p.d.rectangle((0, h * cell, w * cell, h * cell + STATUS_BAR), fill=(30, 30, 30))
    p.d.text((4, h * cell + 3), status_text(game, agent_names), fill=(240, 240, 240), font=_font(12))
    return p.img


def render_rgb(game, cell: int = 20, agent_names=None) -> np.ndarray:
    """The game as ``uint8[H_px, W_px, 3]`` (``render_mode="rgb_array"``)."""
    return np.asarray(render_image(game, cell, agent_names), dtype=np.uint8).copy()
