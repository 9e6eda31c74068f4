"""Necromunda's frames for the replay viewer and the play page (board.js draws them): the board once, then per
step what is drawn.

``board_data`` (terrain rows, doors, ductways, terminals, optional heights and features), ``fighters_data``
(names, gang, map letter, weapons, wounds) and ``frame_data`` (round, status, fighter rows, weapon flags, door
and casket states, board markers, the battle-log lines of the step and its marks: movement, lines of fire,
areas). The ruleset's ``view`` and ``view_frame`` (ruleset.py) serve them to the generic viewer
(``necro_env/replay/frames.py``) and the browser game; they moved here from ``necro_env/replay/frames.py`` on
2026-12-02, when the generic layers were cut from Necromunda.
"""
from __future__ import annotations

from ...core.terrain import TER_DOOR, TER_OBSTACLE, TER_WALL
from ...core import terrain as TERRAIN
from .battlelog import LogNames, log_lines
from .constants import CH_W
from .markers import MARKER_KINDS
from .render_text import fighter_symbol
from .rgb import (
    FEATURE_GLYPHS, FEATURE_NAMES, board_array, conditions_of, event_marks, height_map, marker_rows, status_text,
)
from .state import (
    CK_STATE, CK_X, CK_Y, DR_STATE, FI_BROKEN, FI_CH, FI_FACING, FI_FLESH, FI_POSTURE, FI_READY, FI_STATE,
    FI_WOUNDS, FI_X, FI_Y, G_ACTIVE, WP_DEAD, WP_ID, WP_JAMMED, WP_OOA,
)

_TER_CHAR = {TER_WALL: "#", TER_OBSTACLE: "o", TER_DOOR: "+"}
_MARKER_COL = {k.name: tuple(k.colour) for k in MARKER_KINDS}


def _hex(c):
    return "#%02x%02x%02x" % c


def board_data(game):
    st = game.static
    h, w = st.terrain.shape
    hm = height_map(game)
    feats = board_array(game, FEATURE_NAMES)
    glyphs = [(getattr(TERRAIN, n), g) for n, g in FEATURE_GLYPHS if hasattr(TERRAIN, n)]
    return {
        "features": ([["".join(g for bit, g in glyphs if int(v) & bit) for v in row] for row in feats]
                     if feats is not None and feats.any() else None),
        "width": int(w), "height": int(h), "name": game.board.name,
        "terrain": ["".join(_TER_CHAR.get(int(v), ".") for v in row) for row in st.terrain],
        "heights": hm.astype(int).tolist() if hm is not None else None,
        "doors": st.door_xy.astype(int).tolist(),
        "ducts": st.duct.astype(int).tolist(),
        "terminals": [[int(x), int(y)] for x, y, _ in st.term],
    }


def fighters_data(game, names: LogNames):
    out = []
    mf = game.dims.max_fighters
    fi = game.state.fi[0]
    for f in range(fi.shape[0]):
        g, i = divmod(f, mf)
        nm = game.fighter_names[g][i] if i < len(game.fighter_names[g]) else None
        weapons = [game.weapons.names[int(x)] for x in game.state.wp[0, f, :, WP_ID] if x >= 0]
        out.append({"name": nm, "gang": g, "slot": i, "symbol": fighter_symbol(g, i), "weapons": weapons,
                    "wounds": int(fi[f, FI_CH + CH_W])})
    return out


def frame_data(game, rec, names: LogNames):
    s = game.state
    fi = s.fi[0]
    rows = rec["events"]
    xy = [(int(fi[f, FI_X]), int(fi[f, FI_Y])) for f in range(fi.shape[0])]
    wp = []
    for f in range(fi.shape[0]):
        flags = []
        for j in range(s.wp.shape[2]):
            if int(s.wp[0, f, j, WP_ID]) < 0:
                continue
            flags.append(2 if s.wp[0, f, j, WP_DEAD] & WP_JAMMED else (1 if s.wp[0, f, j, WP_OOA] else 0))
        wp.append(flags)
    return {
        "round": int(rec["round"]),
        "status": status_text(game, names.gangs),
        "gang": rec.get("gang", -1),
        "active": int(s.g[0, G_ACTIVE]),
        "fi": [[int(fi[f, c]) for c in (FI_X, FI_Y, FI_FACING, FI_POSTURE, FI_WOUNDS, FI_FLESH, FI_STATE, FI_READY,
                                        FI_BROKEN)] for f in range(fi.shape[0])],
        "wp": wp,
        "cond": [conditions_of(game, f) for f in range(fi.shape[0])],
        "doors": [int(v) for v in s.door[0, :len(game.static.door_xy), DR_STATE]],
        "caskets": [[int(s.casket[0, k, CK_X]), int(s.casket[0, k, CK_Y]), int(s.casket[0, k, CK_STATE])]
                    for k in range(s.casket.shape[1])],
        "markers": [[k, x, y, float(r), _hex(_MARKER_COL[k])] for k, x, y, r in marker_rows(game)],
        "log": log_lines(rows, names, int(rec["round"]), game.dims.n_gangs),
        "marks": [list(m) for m in event_marks(rows, xy, game.dims.width, game.dims.height, game)],
    }
