"""Observation encoders: a Necromunda ``Game`` -> numpy observation of one gang.

Five encoders, chosen by name (``make_encoder``):

- ``entity``: ``Dict(fighters=[NF, F], board=[C, H, W], globals=[G])``
- ``flat``: one vector = fighters (flattened) + globals + doors + caskets
- ``spatial``: ``[C', H, W]`` planes = board channels + per-cell fighter channels
  + the globals broadcast as constant planes
- ``tactical``: ``entity``'s Dict + ``tactical=[NF, 5]`` rows and ``tactical_planes=[4, H, W]``
  (necro_env/batch/tactical.py: line of sight, cover, path distances)
- ``advised``: ``tactical``'s Dict + ``advice=[3]``, the flat action index each scripted heuristic
  (gunline, aggressor, sentry) would play now (necro_env/envs/advice.py; ``MultiDiscrete``, the only key that is not float32)

Every observation is from the observing gang's point of view: fighter rows
(and the ``gang_rel`` features) are rotated so that the observer is gang 0,
then the other gangs in turn order ``(me + 1) % G, (me + 2) % G, ...``. Row
``r`` of ``fighters`` is therefore the fighter that the action codec calls
relative target ``r`` (codec.py), so a policy can point at rows.

All values are float32 (but ``advised``'s ``advice``), deterministic, and inside the documented bounds
(``[0, 1]`` everywhere except the ``facing_dx`` / ``facing_dy`` planes of
``spatial``, which are in ``[-1, 1]``). The feature tables below are the
single source of truth for the column order and for docs/api.md
(``feature_tables_markdown``).

Static data (terrain planes, rotation permutations, the weapon-feature table)
is computed once per game; per-fighter data that does not change during an
episode (characteristics, role, armour, weapon profiles) is cached and
recomputed only when it changes. The hot path is a few dozen vectorised
numpy operations over the fighter arrays, with no Python loops over cells.
"""
from __future__ import annotations

import numba
import numpy as np
from gymnasium import spaces

from ..core.terrain import (
    DOOR_CLOSED, DOOR_DESTROYED, DOOR_LOCKED, DOOR_OPEN, FACING_DX, FACING_DY, FEAT_LADDER, FEAT_RAILING, FEAT_STAIRS,
    MAX_HEIGHT, TER_OBSTACLE, TER_WALL,
)
from ..config.loader import LONG_MELEE
from ..rulesets.necromunda import markers as M  # batch/encode.py's too (a Python-only module, see its docstring)
from ..rulesets.necromunda.markers import MARKER_KINDS, RADIUS_SCALE, marker_plane, marker_radius, radius_text
from ..rulesets.necromunda.constants import (
    AF_SAVE, CH_S, CH_T, CH_W, NCH, PF_AMMO, PF_AP, PF_D, PF_LONG, PF_S, PF_S_USER, PF_SHORT, PF_TRAITS,
    PF_VALID, T_MELEE, T_NOT_YET, T_RAPID_FIRE, T_SIDEARM, T_UNWIELDY,
)
from ..rulesets.necromunda.state import (
    COND_NAMES, FI_COND, FI_CTRL, FI_Z, DK_CHARGE_FIGHT, DK_GROUP, DK_BLAZE_PRONE, DK_RIDE_BY,
    CK_STATE, CK_X, CK_Y, DK_ACTION, DK_BOTTLE, DK_FLEE, DK_FOLLOWUP, DK_SELECT, DR_STATE, FI_ACTS, FI_AIMED,
    FI_ARMOUR, FI_BODYGLOVE, FI_BROKEN, FI_CH, FI_FACING, FI_FIELD, FI_FLESH, FI_POSTURE, FI_READY, FI_ROLE,
    FI_STATE, FI_WOUNDS, FI_X, FI_Y, FS_FLED, FS_ON, FS_OOA, G_ACTIVE, G_DGANG, G_DK, G_DONE, G_FU, G_PRIORITY,
    G_ROUND, G_ROUND_LIMIT, GG_BOTTLED, GG_CREW, GG_ORDER, GG_OUT, GG_RETREATED, PO_PINNED, PO_SI, PO_STANDING,
    WP_DEAD, WP_ID, WP_JAMMED, WP_OOA,
)

F32 = np.float32

# --------------------------------------------------------------------------- feature tables
# (name, meaning, normalisation). The order is the column / channel order.

_FACINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
_CHAR_NAMES = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "Cl", "Wil", "Int")
# characteristic normalisation: value * scale + offset, then clipped to [0, 1]
_CHAR_NORM = {
    "M": (1 / 8, 0.0, "M / 8"),
    "WS": (-1 / 6, 7 / 6, "(7 - target) / 6"),
    "BS": (-1 / 6, 7 / 6, "(7 - target) / 6"),
    "S": (1 / 6, 0.0, "S / 6"),
    "T": (1 / 6, 0.0, "T / 6"),
    "W": (1 / 6, 0.0, "W / 6"),
    "I": (-1 / 6, 7 / 6, "(7 - target) / 6"),
    "A": (1 / 6, 0.0, "A / 6"),
    "Ld": (-1 / 11, 13 / 11, "(13 - target) / 11 (2D6 test)"),
    "Cl": (-1 / 11, 13 / 11, "(13 - target) / 11 (2D6 test)"),
    "Wil": (-1 / 11, 13 / 11, "(13 - target) / 11 (2D6 test)"),
    "Int": (-1 / 11, 13 / 11, "(13 - target) / 11 (2D6 test)"),
}
_ROLES = ("leader", "champion", "ganger", "juve", "specialist")
_CONDS = tuple(COND_NAMES)  # blaze, blind, concussion, hidden, insane, webbed, gunked, starving, intoxicated, mounted
_COND_BITS = np.array([COND_NAMES[n] for n in _CONDS], np.int64)

FIGHTER_BASE_FEATURES = (
    [
        ("present", "the slot holds a fighter of this game", "0/1"),
        ("on_board", "on the battlefield", "0/1"),
        ("out_of_action", "Out of Action", "0/1"),
        ("fled", "left the battlefield (failed Cool test of a Bottled gang, or voluntary retreat)", "0/1"),
    ]
    + [(f"facing_{n}", f"facing {n} (on the board only)", "one-hot") for n in _FACINGS]
    + [
        ("standing", "Standing (on the board)", "one-hot"),
        ("pinned", "Prone and Pinned (on the board)", "one-hot"),
        ("seriously_injured", "Prone and Seriously Injured (on the board)", "one-hot"),
        ("ready", "Ready: not yet activated this round (on the board)", "0/1"),
        ("broken", "Broken (on the board)", "0/1"),
        ("refractor", "has a working refractor field", "0/1"),
        ("own", "belongs to the observing gang", "0/1"),
        ("gang_rel", "gang relative to the observer: (gang - me) mod G", "/ max(1, G - 1)"),
        ("x", "column (0 when not on the board)", "x / W"),
        ("y", "row (0 when not on the board)", "y / H"),
        ("engaged", "Standing and in base contact with a Standing enemy", "0/1"),
        ("active", "the activated fighter (G_ACTIVE)", "0/1"),
        ("followup", "the fighter owed a post-Fight follow-up (G_FU)", "0/1"),
        ("actions_left", "actions left in the current activation (active fighter)", "/ 2"),
        ("aimed", "took the Aim action this activation (active fighter)", "0/1"),
        ("wounds", "wounds left", "/ starting W, clipped"),
        ("toughness", "current Toughness (T - flesh wounds)", "/ 6, clipped"),
        ("flesh_wounds", "flesh wounds suffered", "/ T, clipped"),
    ]
    + [(f"char_{c}", f"characteristic {c}", _CHAR_NORM[c][2] + ", clipped") for c in _CHAR_NAMES]
    + [(f"role_{r}", f"fighter role {r}", "one-hot") for r in _ROLES]
    + [
        ("save", "armour save", "(7 - save) / 6 (0 = no save)"),
        ("bodyglove", "wears an armoured bodyglove", "0/1"),
    ]
    + [(f"cond_{n}", f"has the {n.capitalize()} condition (4.3; on the board only)", "0/1") for n in _CONDS]
    + [("controlled", "an Insane fighter controlled this activation by a gang other than its own", "0/1")]
)

WEAPON_FEATURES = [
    ("present", "the item slot holds a weapon", "0/1"),
    ("out_of_ammo", "Out of Ammo marker", "0/1"),
    ("jammed", "jammed / unusable for the rest of the game", "0/1"),
    ("two_profiles", "the weapon has a second profile (e.g. shotgun scatter)", "0/1"),
    ("melee_only", "profile 0 has range E (close combat only)", "0/1"),
    ("long_range", "profile 0 long range in inches", "/ 48, clipped (0 for E)"),
    ("short_range", "profile 0 short range in inches", "/ 24, clipped (0 if none)"),
    ("strength", "profile 0 Strength (user S + bonus for S+X weapons)", "/ 10, clipped"),
    ("ap", "profile 0 armour penetration (AP -2 -> 2)", "/ 4, clipped"),
    ("damage", "profile 0 Damage", "/ 3, clipped"),
    ("ammo", "profile 0 Ammo target", "(7 - target) / 6 (0 = none)"),
    ("rapid_fire", "profile 0 has Rapid Fire", "0/1"),
    ("melee", "profile 0 has the Melee trait", "0/1"),
    ("sidearm", "profile 0 has the Sidearm trait", "0/1"),
    ("unwieldy", "profile 0 has the Unwieldy trait", "0/1"),
    ("unsupported", "profile 0 needs rules not implemented yet (template, blast, grenade...)", "0/1"),
]

BOARD_CHANNELS = [
    ("wall", "wall cell", "0/1"),
    ("obstacle", "obstacle (barricade, crate)", "0/1"),
    ("door_closed", "closed (unlocked) door", "0/1"),
    ("door_open", "open or destroyed door", "0/1"),
    ("door_locked", "locked door", "0/1"),
    ("casket", "unopened loot casket", "0/1"),
    ("casket_opened", "opened loot casket", "0/1"),
    ("ductway_end", "end cell of a ductway", "0/1"),
    ("terminal", "door terminal", "0/1"),
    ("own_deploy", "the observing gang's deployment zone", "0/1"),
    ("height", "floor height of the cell in inches (boards with levels; 0 on flat boards)", "/ 15 (MAX_HEIGHT)"),
    ("ladder", "ladder or stairs: climbed at 1\" per 1\"", "0/1"),
    ("railing", "railing along the cell's drop edges (+1 to falling tests)", "0/1"),
] + [(k.name, f"{k.meaning}: cell centre closer than {radius_text(k)} to a {k.name} marker's centre", "0/1")
     for k in MARKER_KINDS]  # one channel per board marker kind (rulesets/necromunda/markers.py), always last

_DK_ORDER = (DK_SELECT, DK_ACTION, DK_FOLLOWUP, DK_BOTTLE, DK_FLEE, DK_GROUP, DK_CHARGE_FIGHT, DK_BLAZE_PRONE,
             DK_RIDE_BY)
_DK_LABEL = ("select_fighter", "choose_action", "fight_followup", "bottle_check", "voluntary_retreat",
             "group_activation", "charge_fight", "blaze_prone", "ride_by_move")

GLOBAL_FEATURES = (
    [("round", "current round", "/ round_limit")]
    + [(f"decision_{n}", f"the pending decision is {n}", "one-hot (all 0 when the game is over)")
       for n in _DK_LABEL]
    + [
        ("my_decision", "the observing gang must decide now", "0/1"),
        ("own_priority", "the observing gang holds Priority this round", "0/1"),
        ("turn_position", "own position in this round's priority order", "/ max(1, G - 1)"),
        ("own_active", "an own fighter (or an Insane enemy it controls) is activated", "0/1"),
        ("active_actions_left", "actions left of the own activated fighter", "/ 2"),
        ("own_bottled", "own gang is Bottled", "0/1"),
        ("enemy_bottled", "enemy gangs that are Bottled", "fraction of enemy gangs"),
        ("own_out", "own gang is out of the battle (eliminated or retreated)", "0/1"),
        ("enemy_out", "enemy gangs out of the battle", "fraction of enemy gangs"),
        ("own_in_action", "own fighters on the board and not Seriously Injured", "/ own starting crew"),
        ("enemy_in_action", "enemy fighters on the board and not Seriously Injured", "/ enemy starting crew"),
        ("own_ready", "own Ready fighters on the board", "/ own starting crew"),
        ("enemy_ready", "enemy Ready fighters on the board", "/ enemy starting crew"),
        ("game_over", "the game has ended", "0/1"),
    ]
)

SPATIAL_FIGHTER_CHANNELS = [
    ("own_fighter", "an own fighter stands in the cell", "0/1"),
    ("enemy_fighter", "an enemy fighter is in the cell", "0/1"),
    ("gang_rel", "gang of the fighter relative to the observer", "(gang - me) mod G / max(1, G - 1)"),
    ("standing", "the fighter is Standing", "0/1"),
    ("pinned", "the fighter is Prone and Pinned", "0/1"),
    ("seriously_injured", "the fighter is Prone and Seriously Injured", "0/1"),
    ("engaged", "the fighter is Engaged", "0/1"),
    ("wounds", "wounds left", "/ starting W"),
    ("ready", "the fighter is Ready", "0/1"),
    ("broken", "the fighter is Broken", "0/1"),
    ("active", "the activated fighter", "0/1"),
    ("facing_dx", "x component of the facing unit vector (east +)", "[-1, 1]"),
    ("facing_dy", "y component of the facing unit vector (south +)", "[-1, 1]"),
    ("blaze", "the fighter is on fire (Blaze)", "0/1"),
    ("blind", "the fighter is Blind", "0/1"),
    ("webbed", "the fighter is Webbed", "0/1"),
    ("insane", "the fighter is Insane", "0/1"),
    ("other_conditions", "Concussion, Hidden, Gunked, Starving, Intoxicated or Mounted (any)", "0/1"),
]

DOOR_FEATURES = [
    ("present", "the door slot holds a door of this board", "0/1"),
    ("closed", "closed (unlocked)", "0/1"),
    ("open", "open", "0/1"),
    ("locked", "locked", "0/1"),
    ("destroyed", "destroyed (counts as open)", "0/1"),
    ("x", "door column", "x / W"),
    ("y", "door row", "y / H"),
]
CASKET_FEATURES = [
    ("present", "the casket slot holds a casket", "0/1"),
    ("opened", "the casket has been opened", "0/1"),
    ("x", "casket column", "x / W"),
    ("y", "casket row", "y / H"),
]
MARKER_FEATURES = [
    ("present", "the marker slot holds a marker", "0/1"),
    ("x", "marker centre column", "x / W"),
    ("y", "marker centre row", "y / H"),
    ("radius", "cells whose centre is closer than this to the marker's centre are covered (inches)",
     f"r / {RADIUS_SCALE:g}, at most 1"),
]


def _index(table):
    return {name: i for i, (name, _, _) in enumerate(table)}


_F = _index(FIGHTER_BASE_FEATURES)
_W = _index(WEAPON_FEATURES)
_B = _index(BOARD_CHANNELS)
_G = _index(GLOBAL_FEATURES)
_S = _index(SPATIAL_FIGHTER_CHANNELS)
NF_BASE = len(FIGHTER_BASE_FEATURES)
NW_FEAT = len(WEAPON_FEATURES)
N_BOARD = len(BOARD_CHANNELS)
N_GLOBAL = len(GLOBAL_FEATURES)
N_SPATIAL_FIGHTER = len(SPATIAL_FIGHTER_CHANNELS)

_CHAR_SCALE = np.array([_CHAR_NORM[c][0] for c in _CHAR_NAMES], F32)
_CHAR_OFFSET = np.array([_CHAR_NORM[c][1] for c in _CHAR_NAMES], F32)
_FACING_VEC = np.array([[dx, dy] for dx, dy in zip(FACING_DX, FACING_DY)], F32)
_FACING_VEC /= np.linalg.norm(_FACING_VEC, axis=1, keepdims=True)
# One lookup fills columns 0..17 of a fighter row from
# code = ((((state * 8 + facing) * 3 + posture) * 2 + ready) * 2 + broken) * 3 + field
_CODE_COLS = np.array([FI_STATE, FI_FACING, FI_POSTURE, FI_READY, FI_BROKEN, FI_FIELD], np.int64)
_CODE_W = np.array([288, 36, 12, 6, 3, 1], np.int64)
N_CODE_COLS = _F["refractor"] + 1


def _code_table():
    tab = np.zeros((4 * 288, N_CODE_COLS), F32)
    for state in range(4):
        for facing in range(8):
            for posture in range(3):
                for ready in range(2):
                    for broken in range(2):
                        for field in range(3):
                            row = tab[state * 288 + facing * 36 + posture * 12 + ready * 6 + broken * 3 + field]
                            row[_F["present"]] = state != 0
                            row[_F["refractor"]] = state != 0 and field == 1
                            if state == FS_OOA:
                                row[_F["out_of_action"]] = 1
                            elif state == FS_FLED:
                                row[_F["fled"]] = 1
                            elif state == FS_ON:
                                row[_F["on_board"]] = 1
                                row[_F["facing_N"] + facing] = 1
                                row[_F["standing"] + posture] = 1
                                row[_F["ready"]] = ready
                                row[_F["broken"]] = broken
    return tab


assert (FS_ON, FS_OOA, FS_FLED) == (1, 2, 3) and (PO_STANDING, PO_PINNED, PO_SI) == (0, 1, 2)
assert FI_Y == FI_X + 1 and (CK_X, CK_Y, CK_STATE) == (0, 1, 2) and _F["on_board"] == 1
assert [n for n, _, _ in FIGHTER_BASE_FEATURES[N_CODE_COLS:N_CODE_COLS + 4]] == ["own", "gang_rel", "x", "y"]
assert _F["flesh_wounds"] == _F["wounds"] + 2 and _F["char_M"] == _F["flesh_wounds"] + 1
_CODE_TAB = _code_table()
# door state (DOOR_*) -> flat door one-hot: closed, open, locked, destroyed
_DOOR_ONEHOT = np.eye(4, dtype=F32)[[DOOR_CLOSED, DOOR_OPEN, DOOR_LOCKED, DOOR_DESTROYED]]
# door state -> board channel
_DOOR_CHANNEL = np.zeros(4, np.int64)
_DOOR_CHANNEL[DOOR_CLOSED] = _B["door_closed"]
_DOOR_CHANNEL[DOOR_OPEN] = _B["door_open"]
_DOOR_CHANNEL[DOOR_LOCKED] = _B["door_locked"]
_DOOR_CHANNEL[DOOR_DESTROYED] = _B["door_open"]


def _weapon_table(profiles: np.ndarray) -> np.ndarray:
    """[n_weapons + 1, NW_FEAT + 1] static weapon features of profile 0; the last row (index -1) is the
    empty slot. The 'strength' column holds the raw PF_S (a fixed S, or the bonus of an S+X weapon) and
    the extra last column flags S+X weapons, whose S is finished with the wielder's S per line-up."""
    n = profiles.shape[0]
    tab = np.zeros((n + 1, NW_FEAT + 1), F32)
    p0 = profiles[:, 0, :].astype(np.float64)
    tr = profiles[:, 0, PF_TRAITS].astype(np.int64)
    tab[:n, _W["present"]] = 1.0
    tab[:n, _W["two_profiles"]] = profiles[:, 1, PF_VALID] != 0
    tab[:n, _W["melee_only"]] = p0[:, PF_LONG] == LONG_MELEE
    tab[:n, _W["long_range"]] = np.clip(p0[:, PF_LONG], 0, 48) / 48
    tab[:n, _W["short_range"]] = np.clip(p0[:, PF_SHORT], 0, 24) / 24
    user = p0[:, PF_S_USER] != 0
    tab[:n, _W["strength"]] = p0[:, PF_S]  # raw: fixed S, or the bonus added to the user's S
    tab[:n, NW_FEAT] = user
    tab[:n, _W["ap"]] = np.clip(p0[:, PF_AP], 0, 4) / 4
    tab[:n, _W["damage"]] = np.clip(p0[:, PF_D], 0, 3) / 3
    ammo = p0[:, PF_AMMO]
    tab[:n, _W["ammo"]] = np.where(ammo > 0, np.clip(7 - ammo, 0, 6) / 6, 0.0)
    tab[:n, _W["rapid_fire"]] = (tr & T_RAPID_FIRE) != 0
    tab[:n, _W["melee"]] = (tr & T_MELEE) != 0
    tab[:n, _W["sidearm"]] = (tr & T_SIDEARM) != 0
    tab[:n, _W["unwieldy"]] = (tr & T_UNWIELDY) != 0
    tab[:n, _W["unsupported"]] = (tr & T_NOT_YET) != 0
    return tab


class _GameTables:
    """Static, per-game tables shared by the encoders (built once per Game object)."""

    def __init__(self, game):
        d = game.dims
        self.dims = d
        self.static = game.static
        self.weapons = game.weapons
        self.armours = game.armours
        self.ng, self.mf, self.mw = d.n_gangs, d.max_fighters, d.max_weapons
        self.nf = d.n_fighters
        self.h, self.w = d.height, d.width
        self.max_doors, self.max_caskets = d.max_doors, d.max_caskets
        ng, mf, nf = self.ng, self.mf, self.nf
        # perm[me][r] = global fighter index of relative row r; inv[me][f] = row of global f
        self.perm = np.array([[((me + r // mf) % ng) * mf + r % mf for r in range(nf)] for me in range(ng)],
                             np.int64)
        self.inv = np.argsort(self.perm, axis=1)
        rel_gang = np.arange(nf) // mf
        self.side_rows = np.stack([rel_gang == 0, rel_gang / max(1, ng - 1)], axis=1).astype(F32)
        self.inv_wh = np.array([1.0 / self.w, 1.0 / self.h], F32)
        self.enemy_pair = rel_gang[:, None] != rel_gang[None, :]  # same in any rotation
        # adjacent[c1, c2]: cells at Chebyshev distance 1 (base contact on the grid); boards up to 48x48
        self.adjacent = None
        if self.h * self.w <= 48 * 48:
            cy, cx = np.divmod(np.arange(self.h * self.w, dtype=np.int16), np.int16(self.w))
            self.adjacent = np.maximum(np.abs(cx[:, None] - cx[None, :]), np.abs(cy[:, None] - cy[None, :])) == 1
        st = game.static
        terrain = st.terrain
        planes = np.zeros((N_BOARD, self.h, self.w), F32)
        planes[_B["wall"]] = terrain == TER_WALL
        planes[_B["obstacle"]] = terrain == TER_OBSTACLE
        for x0, y0, x1, y1 in st.duct:
            planes[_B["ductway_end"], y0, x0] = 1.0
            planes[_B["ductway_end"], y1, x1] = 1.0
        for x, y, _ in st.term:
            planes[_B["terminal"], y, x] = 1.0
        planes[_B["height"]] = st.height.astype(F32) / MAX_HEIGHT
        planes[_B["ladder"]] = (st.feat & (FEAT_LADDER | FEAT_STAIRS)) != 0
        planes[_B["railing"]] = (st.feat & FEAT_RAILING) != 0
        if self.adjacent is not None and st.height.any():
            # base contact needs the same floor height (docs/rules.md 1.2)
            hz = st.height.reshape(-1)
            self.adjacent &= hz[:, None] == hz[None, :]
        # per observing gang: the static planes with its own deployment zone
        self.static_planes = np.repeat(planes[None], ng, axis=0)
        for g in range(ng):
            self.static_planes[g, _B["own_deploy"]] = st.deploy == g
        self.n_doors = len(st.door_xy)
        self.door_x = st.door_xy[:, 0].astype(np.int64)
        self.door_y = st.door_xy[:, 1].astype(np.int64)
        # flat encoder: static door columns (present, x / W, y / H); the state one-hot is filled per call
        self.flat_doors = np.zeros((self.max_doors, len(DOOR_FEATURES)), F32)
        self.flat_doors[:self.n_doors, 0] = 1.0
        self.flat_doors[:self.n_doors, 5] = self.door_x / self.w
        self.flat_doors[:self.n_doors, 6] = self.door_y / self.h
        self.wtab = _weapon_table(game.weapons.profiles)
        self.save = np.asarray(game.armours.table[:, AF_SAVE], np.float64)
        self._static_key = None
        self._static_block = None

    def fighter_static(self, fi, wp, gang):
        """Per line-up data, cached until the line-up (presence, role, armour, characteristics,
        weapons) changes, in ``gang``'s row order: (the static columns of the rows [NF, F],
        1 / starting W [NF], T [NF], 1 / T [NF])."""
        key = ((fi[:, FI_STATE] == 0).tobytes() + fi[:, FI_ROLE:FI_BODYGLOVE + 1].tobytes()
               + fi[:, FI_CH:FI_CH + NCH].tobytes() + wp[:, :, WP_ID].tobytes())
        if key != self._static_key:
            self._static_block = self._build_static(fi, wp)
            self._static_key = key
        return self._static_block[gang]

    def _build_static(self, fi, wp):
        nf, mw = self.nf, self.mw
        out = np.zeros((nf, NF_BASE + mw * NW_FEAT), F32)
        ch = fi[:, FI_CH:FI_CH + NCH].astype(F32)
        c0 = _F["char_M"]
        out[:, c0:c0 + NCH] = np.clip(ch * _CHAR_SCALE + _CHAR_OFFSET, 0.0, 1.0)
        role = fi[:, FI_ROLE].astype(np.int64)
        ok = (role >= 0) & (role < len(_ROLES))
        out[np.flatnonzero(ok), _F["role_leader"] + role[ok]] = 1.0
        save = self.save[fi[:, FI_ARMOUR].astype(np.int64)]
        out[:, _F["save"]] = np.clip((7 - save) / 6, 0.0, 1.0)
        out[:, _F["bodyglove"]] = fi[:, FI_BODYGLOVE] != 0
        wid = wp[:, :, WP_ID].astype(np.int64)  # -1 -> the empty last row of wtab
        wf = self.wtab[wid]  # [NF, MW, NW_FEAT + 1]
        s_fix = wf[:, :, _W["strength"]]
        user = wf[:, :, NW_FEAT]
        wf = wf[:, :, :NW_FEAT].copy()
        wf[:, :, _W["strength"]] = np.clip((s_fix + user * ch[:, CH_S, None]) / 10, 0.0, 1.0)
        out[:, NF_BASE:] = wf.reshape(nf, mw * NW_FEAT)
        present = fi[:, FI_STATE] != 0
        out[~present] = 0.0
        inv_w = (1.0 / np.maximum(ch[:, CH_W], 1.0)).astype(F32)
        tough = ch[:, CH_T].astype(F32)
        per_gang = []
        for g in range(self.ng):
            p = self.perm[g]
            blk = out[p]
            blk[:, N_CODE_COLS:N_CODE_COLS + 2] = self.side_rows * present[p, None]  # own, gang_rel
            per_gang.append((blk, inv_w[p], tough[p], (1.0 / np.maximum(tough[p], 1.0)).astype(F32)))
        return per_gang


def _tables(game) -> _GameTables:
    t = game.__dict__.get("_encoder_tables")
    if (t is None or t.static is not game.static or t.weapons is not game.weapons or t.armours is not game.armours
            or t.dims != game.dims):
        t = _GameTables(game)
        # cached on the game object; Game.clone copies it, which is right: the tables only
        # depend on the static data, and the per-line-up cache is keyed by content
        game.__dict__["_encoder_tables"] = t
    return t


def _use_compiled() -> bool:
    """Encode with the compiled kernel (necro_env/batch/encode.py) unless numba runs as plain
    Python (``NUMBA_DISABLE_JIT=1``), where the numpy code below is the faster one."""
    return COMPILED and not numba.config.DISABLE_JIT


COMPILED = True  # tests set it False to compare with the numpy reference


def _parts(game, gang: int):
    """(fighters, board or None, globals): compiled when available, else the numpy reference
    (which skips the board planes: the callers that need them ask for them)."""
    if _use_compiled():
        from ..batch.encode import encode_game

        return encode_game(game, gang)
    return Encoder.fighters(game, gang), None, Encoder.globals(game, gang)


class Encoder:
    """Base class: ``space(game)`` and ``encode(game, gang)``."""

    name = "base"
    # modules whose ``*_FEATURES`` / ``*_CHANNELS`` tables define the observation besides this one's
    # (agents.checkpoint fingerprints them all, so a re-ordered column refuses an old checkpoint)
    table_modules: tuple[str, ...] = ()

    def space(self, game) -> spaces.Space:
        raise NotImplementedError

    def encode(self, game, gang: int):
        raise NotImplementedError

    def advisors(self) -> dict | None:
        """The scripted policies whose choices the observation shows, with their revisions
        (``necro_env.policies.heuristics.REVISIONS``), or None: checkpoints record it."""
        return None

    # ------------------------------------------------------------------ shared parts
    @staticmethod
    def fighters(game, gang: int) -> np.ndarray:
        """[NF, F] fighter rows, own gang first (see FIGHTER_BASE_FEATURES, WEAPON_FEATURES)."""
        t = _tables(game)
        s = game.state
        fi_g = s.fi[0]
        blk, inv_w, tough, inv_t = t.fighter_static(fi_g, s.wp[0], gang)
        perm = t.perm[gang]
        fi = fi_g[perm]
        out = blk.copy()
        code = fi[:, _CODE_COLS] @ _CODE_W
        head = _CODE_TAB[code]  # present .. refractor
        out[:, :N_CODE_COLS] = head
        out[:, _F["x"]:_F["y"] + 1] = fi[:, FI_X:FI_Y + 1] * (head[:, 1:2] * t.inv_wh)
        st = np.flatnonzero(head[:, _F["standing"]])
        if st.size > 1:
            xs = fi[st, FI_X].astype(np.int64)
            ys = fi[st, FI_Y].astype(np.int64)
            if t.adjacent is not None:
                cells = ys * t.w + xs
                adj = t.adjacent[cells[:, None], cells[None, :]]
            else:
                zs = fi[st, FI_Z].astype(np.int64)  # base contact needs the same floor height
                adj = ((np.maximum(np.abs(xs[:, None] - xs[None, :]), np.abs(ys[:, None] - ys[None, :])) == 1)
                       & (zs[:, None] == zs[None, :]))
            out[st, _F["engaged"]] = (adj & t.enemy_pair[st[:, None], st[None, :]]).any(axis=1)
        g = s.g[0]
        act = int(g[G_ACTIVE])
        if 0 <= act < t.nf:
            r = t.inv[gang, act]
            out[r, _F["active"]] = 1.0
            out[r, _F["actions_left"]] = min(max(int(fi_g[act, FI_ACTS]), 0), 2) / 2
            out[r, _F["aimed"]] = fi_g[act, FI_AIMED] != 0
        fu = int(g[G_FU])
        if 0 <= fu < t.nf:
            out[t.inv[gang, fu], _F["followup"]] = 1.0
        cond = fi[:, FI_COND].astype(np.int64)
        c0 = _F["cond_blaze"]
        out[:, c0:c0 + len(_CONDS)] = ((cond[:, None] & _COND_BITS[None, :]) != 0) * head[:, 1:2]
        out[:, _F["controlled"]] = (fi[:, FI_CTRL] != 0) * head[:, 1]
        flesh = fi[:, FI_FLESH]
        wtf = np.empty((3, t.nf), F32)  # wounds, toughness, flesh_wounds
        np.multiply(fi[:, FI_WOUNDS], inv_w, out=wtf[0])
        np.multiply(tough - flesh, 1 / 6, out=wtf[1])
        np.multiply(flesh, inv_t, out=wtf[2])
        np.maximum(wtf, 0.0, out=wtf)
        np.minimum(wtf, 1.0, out=wtf)
        out[:, _F["wounds"]:_F["flesh_wounds"] + 1] = wtf.T
        # dynamic weapon columns (empty slots hold zeros, so no presence test is needed)
        wp = s.wp[0][perm]
        wv = out[:, NF_BASE:].reshape(t.nf, t.mw, NW_FEAT)  # a view into out
        wv[:, :, _W["out_of_ammo"]] = wp[:, :, WP_OOA] != 0
        wv[:, :, _W["jammed"]] = (wp[:, :, WP_DEAD] & WP_JAMMED) != 0
        return out

    @staticmethod
    def globals(game, gang: int) -> np.ndarray:
        """[G] global features (see GLOBAL_FEATURES)."""
        t = _tables(game)
        s = game.state
        g = s.g[0].tolist()
        gg = s.gang[0].tolist()
        fi = s.fi[0]
        ng, mf = t.ng, t.mf
        out = [0.0] * N_GLOBAL
        done = bool(g[G_DONE])
        out[_G["round"]] = min(max(g[G_ROUND], 0) / max(1, g[G_ROUND_LIMIT]), 1.0)
        dk = g[G_DK]
        if not done and dk in _DK_ORDER:
            out[_G["decision_select_fighter"] + _DK_ORDER.index(dk)] = 1.0
        out[_G["my_decision"]] = float((not done) and g[G_DGANG] == gang)
        out[_G["own_priority"]] = float(g[G_PRIORITY] == gang)
        out[_G["turn_position"]] = min(max(gg[gang][GG_ORDER], 0), ng - 1) / max(1, ng - 1)
        act = g[G_ACTIVE]
        # an Insane fighter controlled by this gang counts as its own for this activation (4.3)
        if 0 <= act < t.nf and (fi[act, FI_CTRL] - 1 if fi[act, FI_CTRL] > 0 else act // mf) == gang:
            out[_G["own_active"]] = 1.0
            out[_G["active_actions_left"]] = min(max(int(fi[act, FI_ACTS]), 0), 2) / 2
        state = fi[:, FI_STATE]
        on = state == FS_ON
        in_action = (on & (fi[:, FI_POSTURE] != PO_SI)).reshape(ng, mf).sum(axis=1).tolist()
        ready = (on & (fi[:, FI_READY] != 0)).reshape(ng, mf).sum(axis=1).tolist()
        ne = ng - 1
        e_bottled = e_out = e_act = e_ready = e_crew = 0
        for k in range(ng):
            row = gg[k]
            out_k = bool(row[GG_OUT] or row[GG_RETREATED])
            crew = max(row[GG_CREW], 1)
            if k == gang:
                out[_G["own_bottled"]] = float(row[GG_BOTTLED] != 0)
                out[_G["own_out"]] = float(out_k)
                out[_G["own_in_action"]] = min(in_action[k] / crew, 1.0)
                out[_G["own_ready"]] = min(ready[k] / crew, 1.0)
            else:
                e_bottled += row[GG_BOTTLED] != 0
                e_out += out_k
                e_act += in_action[k]
                e_ready += ready[k]
                e_crew += crew
        out[_G["enemy_bottled"]] = e_bottled / ne
        out[_G["enemy_out"]] = e_out / ne
        out[_G["enemy_in_action"]] = min(e_act / max(e_crew, 1), 1.0)
        out[_G["enemy_ready"]] = min(e_ready / max(e_crew, 1), 1.0)
        out[_G["game_over"]] = float(done)
        return np.array(out, F32)

    @staticmethod
    def board(game, gang: int) -> np.ndarray:
        """[C, H, W] board planes (see BOARD_CHANNELS)."""
        t = _tables(game)
        s = game.state
        planes = t.static_planes[gang].copy()
        if t.n_doors:
            ds = s.door[0, :t.n_doors, DR_STATE] & 3
            planes[_DOOR_CHANNEL[ds], t.door_y, t.door_x] = 1.0
        for cx, cy, cs in s.casket[0].tolist():
            if cs and 0 <= cx < t.w and 0 <= cy < t.h:
                planes[_B["casket_opened"] if cs == 2 else _B["casket"], cy, cx] = 1.0
        g = s.g[0]
        for k, kind in enumerate(MARKER_KINDS):
            if g[kind.col0:kind.col0 + kind.count].any():
                marker_plane(g, k, t.h, t.w, planes[_B[kind.name]])
        return planes

    @staticmethod
    def markers(game) -> np.ndarray:
        """[sum of marker slots, 4] rows (present, x / W, y / H, radius / RADIUS_SCALE) per slot of
        every marker kind (MARKER_KINDS order; see MARKER_FEATURES)."""
        t = _tables(game)
        g = game.state.g[0]
        rows = []
        for kind in MARKER_KINDS:
            for i in range(kind.count):
                c = int(g[kind.col0 + i]) - 1
                rows.append((1.0, (c % t.w) / t.w, (c // t.w) / t.h,
                             min(marker_radius(g, kind, i) / RADIUS_SCALE, 1.0)) if c >= 0 else (0.0, 0.0, 0.0, 0.0))
        return np.array(rows, F32).reshape(-1, len(MARKER_FEATURES))


class EntityEncoder(Encoder):
    """``Dict(fighters=[NF, F], board=[C, H, W], globals=[G])``."""

    name = "entity"

    def space(self, game):
        t = _tables(game)
        nfeat = NF_BASE + t.mw * NW_FEAT
        return spaces.Dict({
            "fighters": spaces.Box(0.0, 1.0, (t.nf, nfeat), F32),
            "board": spaces.Box(0.0, 1.0, (N_BOARD, t.h, t.w), F32),
            "globals": spaces.Box(0.0, 1.0, (N_GLOBAL,), F32),
        })

    def encode(self, game, gang):
        f, board, glob = _parts(game, gang)
        return {"fighters": f, "board": self.board(game, gang) if board is None else board, "globals": glob}

    def encode_numpy(self, game, gang):
        """The reference encoding in numpy (``encode`` runs the compiled twin, tested equal)."""
        return {
            "fighters": self.fighters(game, gang),
            "board": self.board(game, gang),
            "globals": self.globals(game, gang),
        }


class TacticalEncoder(EntityEncoder):
    """``entity``'s Dict plus ``tactical=[NF, N_TACTICAL]`` (who can shoot whom, path distances:
    one row per fighter, the same row order) and ``tactical_planes=[N_PLANES, H, W]`` (path
    distance to the nearest enemy on every cell; exposure, targets in view and cover on the
    cells the activated fighter has a legal cell action to), from ``necro_env.batch.tactical``:
    what the scripted heuristics decide with. The cell planes 1-3 are those of the deciding
    gang's legal actions; an observer that is not deciding sees them as 0."""

    name = "tactical"
    table_modules = ("necro_env.batch.tactical",)

    def space(self, game):
        from ..batch.tactical import N_PLANES, N_TACTICAL

        t = _tables(game)
        return spaces.Dict({**super().space(game).spaces,
                            "tactical": spaces.Box(0.0, 1.0, (t.nf, N_TACTICAL), F32),
                            "tactical_planes": spaces.Box(0.0, 1.0, (N_PLANES, t.h, t.w), F32)})

    def encode(self, game, gang):
        from ..batch.tactical import tactical_obs

        return {**super().encode(game, gang), **tactical_obs(game, gang)}


class AdvisedEncoder(TacticalEncoder):
    """``tactical``'s Dict plus ``advice=[len(ADVISOR_FEATURES)]``: the action each scripted heuristic
    (gunline, aggressor, sentry) would play now, as flat action indices, ``n_actions`` when the observer
    is not deciding (``necro_env.envs.advice``). ``MultiDiscrete([n_actions + 1] * 3)``: SB3 one-hot encodes
    it, and ``agents.networks.PointerPolicy`` weighs each advisor's action in its logits."""

    name = "advised"
    table_modules = TacticalEncoder.table_modules + ("necro_env.envs.advice",)

    def space(self, game):
        from .advice import ADVISOR_FEATURES

        return spaces.Dict({**super().space(game).spaces,
                            "advice": spaces.MultiDiscrete([game.n_actions + 1] * len(ADVISOR_FEATURES))})

    def encode(self, game, gang):
        from .advice import advice

        return {**super().encode(game, gang), "advice": advice(game, gang)}

    def advisors(self):
        from ..policies.heuristics import REVISIONS
        from .advice import ADVISOR_FEATURES

        return {name: REVISIONS[name] for name in ADVISOR_FEATURES}


class FlatEncoder(Encoder):
    """One vector: fighters (row-major [NF, F] flattened) + globals + doors + caskets + markers.

    The static terrain is left out (it is the same in every observation of a
    board); the dynamic parts of the board (door states, casket states and
    positions, board markers such as smoke clouds) are included per door / casket /
    marker slot."""

    name = "flat"

    def sizes(self, game):
        t = _tables(game)
        return {
            "fighters": t.nf * (NF_BASE + t.mw * NW_FEAT),
            "globals": N_GLOBAL,
            "doors": t.max_doors * len(DOOR_FEATURES),
            "caskets": t.max_caskets * len(CASKET_FEATURES),
            "markers": sum(k.count for k in MARKER_KINDS) * len(MARKER_FEATURES),
        }

    def space(self, game):
        n = sum(self.sizes(game).values())
        return spaces.Box(0.0, 1.0, (n,), F32)

    def encode(self, game, gang):
        t = _tables(game)
        s = game.state
        doors = t.flat_doors.copy()
        if t.n_doors:
            doors[:t.n_doors, 1:5] = _DOOR_ONEHOT[s.door[0, :t.n_doors, DR_STATE] & 3]
        cas = np.zeros((t.max_caskets, len(CASKET_FEATURES)), F32)
        for k, (cx, cy, cs) in enumerate(s.casket[0, :t.max_caskets].tolist()):
            if cs:
                cas[k] = (1.0, float(cs == 2), min(max(cx / t.w, 0.0), 1.0), min(max(cy / t.h, 0.0), 1.0))
        f, _, glob = _parts(game, gang)
        return np.concatenate([f.ravel(), glob, doors.ravel(), cas.ravel(), self.markers(game).ravel()])


class SpatialEncoder(Encoder):
    """``[C, H, W]`` planes: BOARD_CHANNELS, SPATIAL_FIGHTER_CHANNELS, then GLOBAL_FEATURES as constant planes."""

    name = "spatial"

    def space(self, game):
        t = _tables(game)
        c = N_BOARD + N_SPATIAL_FIGHTER + N_GLOBAL
        low = np.zeros((c, t.h, t.w), F32)
        fx = N_BOARD + _S["facing_dx"]
        fy = N_BOARD + _S["facing_dy"]
        low[fx] = -1.0
        low[fy] = -1.0
        return spaces.Box(low, np.ones_like(low), dtype=F32)

    def encode(self, game, gang):
        t = _tables(game)
        c = N_BOARD + N_SPATIAL_FIGHTER + N_GLOBAL
        out = np.empty((c, t.h, t.w), F32)
        rows, board, glob = _parts(game, gang)
        out[:N_BOARD] = self.board(game, gang) if board is None else board
        fp = out[N_BOARD:N_BOARD + N_SPATIAL_FIGHTER]
        fp[...] = 0.0
        s = game.state
        fi = s.fi[0][t.perm[gang]]
        on = np.flatnonzero(fi[:, FI_STATE] == FS_ON)
        if len(on):
            r = rows[on]
            x = fi[on, FI_X].astype(np.int64)
            y = fi[on, FI_Y].astype(np.int64)
            own = r[:, _F["own"]]
            vals = np.empty((N_SPATIAL_FIGHTER, len(on)), F32)
            vals[_S["own_fighter"]] = own
            vals[_S["enemy_fighter"]] = 1.0 - own
            vals[_S["gang_rel"]] = r[:, _F["gang_rel"]]
            vals[_S["standing"]] = r[:, _F["standing"]]
            vals[_S["pinned"]] = r[:, _F["pinned"]]
            vals[_S["seriously_injured"]] = r[:, _F["seriously_injured"]]
            vals[_S["engaged"]] = r[:, _F["engaged"]]
            vals[_S["wounds"]] = r[:, _F["wounds"]]
            vals[_S["ready"]] = r[:, _F["ready"]]
            vals[_S["broken"]] = r[:, _F["broken"]]
            vals[_S["active"]] = r[:, _F["active"]]
            vec = _FACING_VEC[fi[on, FI_FACING].astype(np.int64) & 7]
            vals[_S["facing_dx"]] = vec[:, 0]
            vals[_S["facing_dy"]] = vec[:, 1]
            for name in ("blaze", "blind", "webbed", "insane"):
                vals[_S[name]] = r[:, _F["cond_" + name]]
            c0 = _F["cond_blaze"]
            other = [c0 + _CONDS.index(n) for n in ("concussion", "hidden", "gunked", "starving", "intoxicated",
                                                     "mounted")]
            vals[_S["other_conditions"]] = r[:, other].max(axis=1)
            fp[:, y, x] = vals
        out[N_BOARD + N_SPATIAL_FIGHTER:] = glob[:, None, None]
        return out


ENCODERS = {"entity": EntityEncoder, "flat": FlatEncoder, "spatial": SpatialEncoder, "tactical": TacticalEncoder,
            "advised": AdvisedEncoder}


def make_encoder(encoder) -> Encoder:
    """An encoder from its name ("entity", "flat", "spatial", "tactical", "advised") or an Encoder instance."""
    if isinstance(encoder, Encoder):
        return encoder
    if isinstance(encoder, type) and issubclass(encoder, Encoder):
        return encoder()
    try:
        return ENCODERS[encoder]()
    except (KeyError, TypeError):
        raise ValueError(f"unknown encoder {encoder!r}; allowed: {', '.join(ENCODERS)}") from None


# --------------------------------------------------------------------------- documentation
def _md_table(rows, head=("index", "name", "meaning", "normalisation"), start=0):
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for i, (name, meaning, norm) in enumerate(rows):
        lines.append(f"| {start + i} | `{name}` | {meaning} | {norm} |")
    return "\n".join(lines)


def feature_tables_markdown() -> str:
    """The encoder feature tables as markdown (docs/api.md shows this text)."""
    value = ("channel", "name", "meaning", "value")
    sf0, sf1 = N_BOARD, N_BOARD + N_SPATIAL_FIGHTER - 1
    sections = [
        (f"#### Fighter row: base features (`F = {NF_BASE} + MW * {NW_FEAT}`)",
         _md_table(FIGHTER_BASE_FEATURES)),
        (f"#### Fighter row: per weapon item slot `j` (column `{NF_BASE} + j * {NW_FEAT} + k`)",
         _md_table(WEAPON_FEATURES, ("k", "name", "meaning", "normalisation"))),
        (f"#### Board channels (`C = {N_BOARD}`; also channels 0..{N_BOARD - 1} of `spatial`)",
         _md_table(BOARD_CHANNELS, value)),
        (f"#### Globals (`G = {N_GLOBAL}`; also the last {N_GLOBAL} channels of `spatial`)",
         _md_table(GLOBAL_FEATURES)),
        (f"#### `flat`: per door slot ({len(DOOR_FEATURES)} values)", _md_table(DOOR_FEATURES)),
        (f"#### `flat`: per casket slot ({len(CASKET_FEATURES)} values)", _md_table(CASKET_FEATURES)),
        ("#### `flat`: per board marker slot ({} values; {})".format(
            len(MARKER_FEATURES), ", then ".join(f"{k.count} {k.name} slots" for k in MARKER_KINDS)),
         _md_table(MARKER_FEATURES)),
        (f"#### `spatial`: fighter channels {sf0}..{sf1}", _md_table(SPATIAL_FIGHTER_CHANNELS, value, start=sf0)),
    ]
    return "\n\n".join(f"{title}\n\n{table}" for title, table in sections)
