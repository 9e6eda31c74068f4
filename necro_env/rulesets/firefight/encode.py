"""Observation encoders of Firefight: a ``Game`` -> the numpy observation of one player (firefight_v0).

Three encoders, by name (``ENCODERS``; the generic env finds them through ``Ruleset.encoders``):

- ``entity``: ``Dict(units=[2*MU, FU], models=[2*MU*MM, FM], globals=[FG])``
- ``flat``: one vector, ``entity``'s three parts flattened and joined in that order
- ``spatial``: ``[C, H, W]`` planes over the board: terrain, heights, zones, objectives, models and unit
  state of each side, and a few globals broadcast as constant planes

Every observation is the observer's: unit rows are the observer's units first (its slots 0..MU-1), then the
enemy's, so row ``r`` is what the codec's ``unit`` parameter calls own slot ``r`` (and enemy slot ``r - MU``,
and the ``cast`` kind's relative unit ``r``): a policy can point at rows. Model rows follow their unit's row.
"own" / "enemy" features are relative in the same way. All values are float32 in [0, 1].

Hidden information: the Caster helpers' running sum (state ``G_CAST_MOD``) is in no observation. The seed
makes the helpers' spending secret and simultaneous (docs/rules_firefight.md §10 Caster) while the loop asks one
unit after the other; the sum mixes both sides' signs, so showing it to either side would tell it the other's.
The feature tables below are the one source of the column order and of docs/api.md (``feature_tables_markdown``).
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces

from .codec import N_SPELLS
from .constants import (
    ACTION_NAMES, MAX_OBJ, OBJ_RANGE_IN, RULE_NAMES, TF_BLOCKS_SIGHT, TF_COVER, TF_DANGEROUS, TF_DIFFICULT,
    TF_IMPASSABLE, UNIT_STATE_NAMES,
)
from .state import (
    DK_NAMES, G_ACTIVE, G_CAST_SPELL, G_CAST_TARGET, G_CTARGET, G_DEFENDER, G_ATTACKER, G_DK, G_DONE, G_DPLAYER,
    G_FINISHED, G_FIRST, G_MOVED_FIFTHS, G_NOBJ, G_OBJ_PLACED, G_PHASE, G_PUSHED, G_ROLLOFF, G_ROUND,
    G_ROUND_LIMIT, G_SCORE0, G_SCORE1, G_TURN, G_ZONE0, M_ALIVE, M_WOUNDS, M_X, M_Y, M_Z, N_DK, O_ON, O_OWNER, O_X,
    O_Y, U_ACTION, U_ACTIVATED, U_ARRIVED, U_CASTER, U_CHARGED, U_DEFENSE, U_FATIGUED, U_FEAR, U_IMPACT, U_N,
    U_POINTS, U_QUALITY, U_RQUALITY, U_RULES, U_SHAKEN, U_SIZE, U_STATE, U_STRUCK, U_TOKENS, U_TOUGH, W_AP,
    W_ATTACKS, W_COUNT, W_ID, W_RANGE,
)

F32 = np.float32
PHASES = ("setup", "deploy", "scout", "round", "ambush", "over")  # state.PH_* in order
HEIGHT_SCALE = 12  # inches: floor heights and model heights are divided by it (clipped)

# --------------------------------------------------------------------------- feature tables
# (name, meaning, normalisation); the order is the column / channel order.
UNIT_FEATURES = (
    [("present", "the slot holds a unit", "0/1"), ("own", "the observer's unit", "0/1")]
    + [(f"state_{n}", f"unit state is {n}", "one-hot") for n in UNIT_STATE_NAMES[1:]]
    + [("alive", "models alive / models at the start", "ratio"), ("size", "models at the start", "/ 20, clipped"),
       ("quality", "melee and morale Quality X+", "(7 - X) / 6"),
       ("ranged_quality", "ranged Quality X+", "(7 - X) / 6"),
       ("defense", "Defense X+", "(7 - X) / 6"), ("tough", "Tough(X)", "/ 12, clipped"),
       ("impact", "Impact(X)", "/ 6, clipped"), ("caster", "Caster(X)", "/ 6, clipped"),
       ("fear", "Fear(X)", "/ 6, clipped"),
       ("tokens", "spell tokens held", "/ 6, clipped"), ("shaken", "Shaken (§7.2)", "0/1"),
       ("fatigued", "Fatigued (§6 step 7)", "0/1"), ("activated", "activated this round", "0/1"),
       ("charged", "charged this round", "0/1"), ("struck_back", "struck back this round", "0/1"),
       ("ambushed", "arrived by Ambush", "0/1")]
    + [(f"action_{n}", f"this round's action was {n}", "one-hot") for n in ACTION_NAMES]
    + [("active", "the unit in activation or being placed", "0/1"), ("charge_target", "the charge's target", "0/1"),
       ("attacker", "the charging unit of the melee in progress", "0/1"),
       ("defender", "the charged unit of the melee in progress", "0/1"), ("pushed", "the unit being pushed", "0/1"),
       ("cast_target", "the target of the spell being tried", "0/1"), ("points", "points cost", "/ 400, clipped"),
       ("x", "mean x of its living models", "/ (W - 1)"), ("y", "mean y of its living models", "/ (H - 1)"),
       ("ranged_attacks", "ranged attacks of all its models", "/ 40, clipped"),
       ("melee_attacks", "melee attacks of all its models", "/ 40, clipped"),
       ("max_range", "longest weapon range (inches)", "/ 36, clipped"), ("max_ap", "highest AP", "/ 4, clipped")]
    + [(f"rule_{n}", f"has the special rule {n}", "0/1") for n in RULE_NAMES]
)
MODEL_FEATURES = [
    ("alive", "on the table", "0/1"), ("own", "the observer's model", "0/1"), ("x", "column", "/ (W - 1)"),
    ("y", "row", "/ (H - 1)"), ("z", "floor height of its cell (inches)", f"/ {HEIGHT_SCALE}, clipped"),
    ("wounds", "wound markers (§7.1)", "/ max(Tough, 1), clipped"),
    ("last", "its unit's last living model (wound markers build up there, §7.3)", "0/1"),
    ("cover", "stands in cover terrain", "0/1"), ("difficult", "stands in difficult terrain", "0/1"),
    ("dangerous", "stands in dangerous terrain", "0/1"),
    ("near_objective", f"within {OBJ_RANGE_IN}\" of a placed objective marker", "0/1"),
]
GLOBAL_FEATURES = (
    [("round", "round", "/ round limit"), ("round_limit", "rounds of the mission", "/ 10, clipped")]
    + [(f"phase_{n}", f"phase is {n}", "one-hot") for n in PHASES]
    + [(f"decision_{DK_NAMES[k]}", f"decision awaited: {DK_NAMES[k]}", "one-hot") for k in range(N_DK)]
    + [("deciding", "the observer decides now", "0/1"), ("my_turn", "the observer activates or places next", "0/1"),
       ("first", "the observer activates first this round", "0/1"),
       ("won_rolloff", "the observer won the deployment roll-off", "0/1"),
       ("own_score", "markers the observer controls", f"/ {MAX_OBJ}"),
       ("enemy_score", "markers the enemy controls", f"/ {MAX_OBJ}"),
       ("objectives", "objective markers this game", f"/ {MAX_OBJ}"),
       ("objectives_placed", "markers placed so far", f"/ {MAX_OBJ}"),
       ("own_finished", "the observer finished its activations first", "0/1"),
       ("enemy_finished", "the enemy finished its activations first", "0/1"),
       ("moved", "inches the active unit moved this activation", "/ 12, clipped")]
    + [(f"casting_{k}", f"spell {k} is being tried", "one-hot") for k in range(N_SPELLS)]
    + [("done", "the game is over", "0/1")]
)
SPATIAL_PLANES = [
    ("cover", "cover terrain", "0/1"), ("difficult", "difficult terrain", "0/1"),
    ("dangerous", "dangerous terrain", "0/1"), ("impassable", "impassable terrain", "0/1"),
    ("blocks_sight", "blocks line of sight", "0/1"), ("height", "floor height", f"/ {HEIGHT_SCALE}, clipped"),
    ("own_zone", "the observer's deployment zone", "0/1"), ("enemy_zone", "the enemy's deployment zone", "0/1"),
    ("objective_neutral", "a neutral objective marker", "0/1"),
    ("objective_own", "a marker the observer controls", "0/1"),
    ("objective_enemy", "a marker the enemy controls", "0/1"),
    ("own_models", "an own model", "0/1"), ("enemy_models", "an enemy model", "0/1"),
    ("own_wounds", "wound markers on an own model", "/ max(Tough, 1)"),
    ("enemy_wounds", "wound markers on an enemy model", "/ max(Tough, 1)"),
    ("own_shaken", "a model of a Shaken own unit", "0/1"), ("enemy_shaken", "a model of a Shaken enemy unit", "0/1"),
    ("own_activated", "a model of an own unit activated this round", "0/1"),
    ("enemy_activated", "a model of an enemy unit activated this round", "0/1"),
    ("active", "a model of the unit in activation", "0/1"),
    ("targeted", "a model of the charge target, the melee's defender or the spell's target", "0/1"),
    ("g_round", "round / round limit, everywhere", "ratio"),
    ("g_deciding", "the observer decides now, everywhere", "0/1"),
    ("g_decision", "decision kind code / 17, everywhere", "ratio"),
    ("g_own_score", f"markers the observer controls / {MAX_OBJ}, everywhere", "ratio"),
    ("g_enemy_score", f"markers the enemy controls / {MAX_OBJ}, everywhere", "ratio"),
]


def _clip(a):
    return np.clip(a, 0.0, 1.0).astype(F32)


def _order(game, player: int) -> np.ndarray:
    """Global unit slots in the observer's row order: its own first, then the enemy's."""
    mu = game.max_units
    return np.r_[player * mu:(player + 1) * mu, (1 - player) * mu:(2 - player) * mu]


def _one_hot(values, n):
    """[len(values), n] one-hot rows; a value outside 0..n-1 (none yet) gives a row of zeros."""
    return np.asarray(values)[:, None] == np.arange(n)


def _centroids(game, m):
    """Mean (x, y) of each unit's living models, scaled to [0, 1]; 0 for a unit with none."""
    alive = m[:, :, M_ALIVE] > 0
    n = np.maximum(alive.sum(1), 1)
    x = (m[:, :, M_X] * alive).sum(1) / n / max(game.dims.width - 1, 1)
    y = (m[:, :, M_Y] * alive).sum(1) / n / max(game.dims.height - 1, 1)
    return x, y


def _weapons(w):
    """Ranged and melee attacks of all models, longest range and highest AP of each unit."""
    used = w[:, :, W_ID] >= 0
    att = w[:, :, W_ATTACKS] * w[:, :, W_COUNT] * used
    ranged = w[:, :, W_RANGE] > 0
    return ((att * ranged).sum(1) / 40, (att * ~ranged).sum(1) / 40, (w[:, :, W_RANGE] * used).max(1) / 36,
            (w[:, :, W_AP] * used).max(1) / 4)


def units(game, player: int) -> np.ndarray:
    """``[2*MU, FU]`` unit rows, the observer's first."""
    order = _order(game, player)
    s, g = game.state, game.state.g[0]
    u, m, w = s.u[0, order], s.m[0, order], s.w[0, order]
    present = u[:, U_STATE] > 0
    size = np.maximum(u[:, U_SIZE], 1)
    marks = [g[k] for k in (G_ACTIVE, G_CTARGET, G_ATTACKER, G_DEFENDER, G_PUSHED)]
    marks.append(g[G_CAST_TARGET] if g[G_CAST_SPELL] >= 0 else -1)
    x, y = _centroids(game, m)
    # blocks of columns joined once (a column at a time cost most of an env step, 2026-12-02)
    blocks = [np.stack([present, present & (np.arange(len(order)) < game.max_units)], 1),
              _one_hot(u[:, U_STATE] - 1, len(UNIT_STATE_NAMES) - 1),
              u[:, [U_N]] / size[:, None], u[:, [U_SIZE]] / 20, (7 - u[:, [U_QUALITY, U_RQUALITY, U_DEFENSE]]) / 6,
              u[:, [U_TOUGH]] / 12, u[:, [U_IMPACT, U_CASTER, U_FEAR, U_TOKENS]] / 6,
              u[:, [U_SHAKEN, U_FATIGUED, U_ACTIVATED, U_CHARGED, U_STRUCK]], u[:, [U_ARRIVED]] > 0,
              _one_hot(u[:, U_ACTION], len(ACTION_NAMES)), order[:, None] == np.asarray(marks)[None, :],
              np.stack([u[:, U_POINTS] / 400, x, y, *_weapons(w)], 1),
              (u[:, U_RULES, None] >> np.arange(len(RULE_NAMES))) & 1]
    out = _clip(np.concatenate([np.asarray(b, np.float64) for b in blocks], axis=1))
    out[~present] = 0
    return out


def _near_objective(game, mx, my):
    o = game.state.obj[0]
    placed = o[o[:, O_ON] > 0]
    if not len(placed):
        return np.zeros(mx.shape, bool)
    dx = mx[..., None] - placed[:, O_X]
    dy = my[..., None] - placed[:, O_Y]
    return ((dx * dx + dy * dy) <= (OBJ_RANGE_IN + 1) ** 2).any(-1)


def models(game, player: int) -> np.ndarray:
    """``[2*MU*MM, FM]`` model rows, unit by unit in the observer's row order."""
    order = _order(game, player)
    s = game.state
    m = s.m[0, order].astype(np.int64)
    alive = m[:, :, M_ALIVE] > 0
    mx, my = m[:, :, M_X], m[:, :, M_Y]
    flags = game.static.flags[np.clip(my, 0, game.dims.height - 1), np.clip(mx, 0, game.dims.width - 1)]
    tough = np.maximum(s.u[0, order, U_TOUGH], 1)[:, None]
    slot = np.arange(m.shape[1])[None, :]
    last = alive & (slot == np.where(alive, slot, -1).max(1, keepdims=True))
    own = np.broadcast_to((np.arange(len(order)) < game.max_units)[:, None], alive.shape)
    cols = [alive, own, mx / max(game.dims.width - 1, 1), my / max(game.dims.height - 1, 1),
            m[:, :, M_Z] / HEIGHT_SCALE,
            m[:, :, M_WOUNDS] / tough, last, (flags & TF_COVER) > 0, (flags & TF_DIFFICULT) > 0,
            (flags & TF_DANGEROUS) > 0, _near_objective(game, mx, my)]
    out = np.stack([np.asarray(c, np.float64) for c in cols], axis=-1)
    out = _clip(out.reshape(-1, len(MODEL_FEATURES)))
    out[~alive.reshape(-1)] = 0
    return out


def globals_(game, player: int) -> np.ndarray:
    """``[FG]`` game-wide features from the observer's side (never ``G_CAST_MOD``: see the module docstring)."""
    g = game.state.g[0]
    me, foe = (G_SCORE0, G_SCORE1) if player == 0 else (G_SCORE1, G_SCORE0)
    live = not g[G_DONE]
    mid = [g[G_DPLAYER] == player and live, g[G_TURN] == player, g[G_FIRST] == player, g[G_ROLLOFF] == player,
           g[me] / MAX_OBJ, g[foe] / MAX_OBJ, g[G_NOBJ] / MAX_OBJ, g[G_OBJ_PLACED] / MAX_OBJ,
           g[G_FINISHED] == player, g[G_FINISHED] == 1 - player, g[G_MOVED_FIFTHS] / 60]
    parts = [[g[G_ROUND] / max(g[G_ROUND_LIMIT], 1), g[G_ROUND_LIMIT] / 10], _one_hot([g[G_PHASE]], len(PHASES))[0],
             _one_hot([g[G_DK]], N_DK)[0] & live, mid, _one_hot([g[G_CAST_SPELL]], N_SPELLS)[0], [g[G_DONE]]]
    return _clip(np.concatenate([np.asarray(p, np.float64) for p in parts]))


class EntityEncoder:
    """``Dict(units, models, globals)`` (the module docstring)."""

    name = "entity"

    def space(self, game) -> spaces.Space:
        mu, mm = game.max_units, game.max_models
        return spaces.Dict({"units": spaces.Box(0, 1, (2 * mu, len(UNIT_FEATURES)), F32),
                            "models": spaces.Box(0, 1, (2 * mu * mm, len(MODEL_FEATURES)), F32),
                            "globals": spaces.Box(0, 1, (len(GLOBAL_FEATURES),), F32)})

    def encode(self, game, player: int):
        return {"units": units(game, player), "models": models(game, player), "globals": globals_(game, player)}


class FlatEncoder(EntityEncoder):
    """One vector: ``entity``'s units, models and globals flattened, in that order."""

    name = "flat"

    def space(self, game):
        n = sum(int(np.prod(b.shape)) for b in super().space(game).spaces.values())
        return spaces.Box(0, 1, (n,), F32)

    def encode(self, game, player):
        parts = super().encode(game, player)
        return np.concatenate([parts[k].reshape(-1) for k in ("units", "models", "globals")])


class SpatialEncoder:
    """``[C, H, W]`` planes (SPATIAL_PLANES)."""

    name = "spatial"

    def space(self, game):
        return spaces.Box(0, 1, (len(SPATIAL_PLANES), game.dims.height, game.dims.width), F32)

    def encode(self, game, player):
        d, st, g = game.dims, game.static, game.state.g[0]
        out = np.zeros((len(SPATIAL_PLANES), d.height, d.width), F32)
        for i, bit in enumerate((TF_COVER, TF_DIFFICULT, TF_DANGEROUS, TF_IMPASSABLE, TF_BLOCKS_SIGHT)):
            out[i] = (st.flags & bit) > 0
        out[5] = np.clip(st.height / HEIGHT_SCALE, 0, 1)
        own_zone = g[G_ZONE0] if player == 0 else 1 - g[G_ZONE0]
        out[6], out[7] = st.zone == own_zone, st.zone == 1 - own_zone
        for o in game.state.obj[0]:
            if o[O_ON]:
                out[8 + (0 if o[O_OWNER] < 0 else 1 if o[O_OWNER] == player else 2), o[O_Y], o[O_X]] = 1
        self._models(game, player, out)
        glob = globals_(game, player)
        ratio = (g[G_ROUND] / max(g[G_ROUND_LIMIT], 1), g[G_DPLAYER] == player and not g[G_DONE],
                 max(g[G_DK], 0) / (N_DK - 1), glob[GLOBAL_NAMES.index("own_score")],
                 glob[GLOBAL_NAMES.index("enemy_score")])
        out[21:] = np.asarray(ratio, F32)[:, None, None]
        return np.clip(out, 0, 1)

    @staticmethod
    def _models(game, player, out):
        s, g = game.state, game.state.g[0]
        marked = {int(g[G_CTARGET]), int(g[G_DEFENDER]), int(g[G_CAST_TARGET]) if g[G_CAST_SPELL] >= 0 else -1}
        for u in np.flatnonzero(s.u[0, :, U_N] > 0):
            rows = s.m[0, u]
            rows = rows[rows[:, M_ALIVE] > 0]
            ys, xs = rows[:, M_Y], rows[:, M_X]
            side = 0 if u // game.max_units == player else 1
            out[11 + side, ys, xs] = 1
            out[13 + side, ys, xs] = rows[:, M_WOUNDS] / max(int(s.u[0, u, U_TOUGH]), 1)
            out[15 + side, ys, xs] = s.u[0, u, U_SHAKEN]
            out[17 + side, ys, xs] = s.u[0, u, U_ACTIVATED]
            out[19, ys, xs] = u == g[G_ACTIVE]
            out[20, ys, xs] = u in marked


GLOBAL_NAMES = [f[0] for f in GLOBAL_FEATURES]
ENCODERS = {"entity": EntityEncoder, "flat": FlatEncoder, "spatial": SpatialEncoder}


def _md_table(rows):
    lines = ["| index | name | meaning | normalisation |", "|---|---|---|---|"]
    lines += [f"| {i} | `{n}` | {m} | {z} |" for i, (n, m, z) in enumerate(rows)]
    return "\n".join(lines)


def feature_tables_markdown() -> str:
    """docs/api.md's "Firefight observations" tables, from the feature lists above (a test keeps them equal)."""
    parts = [("Unit rows (`entity` `units`, `[2*MU, FU]`)", UNIT_FEATURES),
             ("Model rows (`entity` `models`, `[2*MU*MM, FM]`)", MODEL_FEATURES),
             ("Globals (`entity` `globals`)", GLOBAL_FEATURES), ("Planes of `spatial` (`[C, H, W]`)", SPATIAL_PLANES)]
    return "\n\n".join(f"#### {title}\n\n{_md_table(rows)}" for title, rows in parts) + "\n"
