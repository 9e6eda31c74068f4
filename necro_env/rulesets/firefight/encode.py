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
The values are computed by the compiled kernels of encode_kernel.py (2026-12-02: numpy on such small arrays cost
more than an engine step), which write these columns in this order; each ``encode`` returns new arrays, so an
observation never changes when the game steps on.
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces

from . import encode_kernel as K
from .codec import N_SPELLS
from .constants import ACTION_NAMES, MAX_OBJ, OBJ_RANGE_IN, RULE_NAMES, UNIT_STATE_NAMES
from .encode_kernel import HEIGHT_SCALE
from .state import DK_NAMES, N_DK

F32 = np.float32
PHASES = ("setup", "deploy", "scout", "round", "ambush", "over")  # state.PH_* in order

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


# the kernels write the columns of these tables by position: a table edited without its kernel fails here
assert (len(UNIT_FEATURES), len(MODEL_FEATURES), len(GLOBAL_FEATURES), len(SPATIAL_PLANES)) == (
    K.FU, K.FM, K.FG, K.N_PLANES), "encode.py's feature tables and encode_kernel.py's columns disagree"
assert len(PHASES) == K.N_PHASES


def _player(player) -> int:
    """The observer as an int; ValueError for anything but side 0 or 1 (the kernels index with it unchecked)."""
    if isinstance(player, (bool, np.bool_)) or not isinstance(player, (int, np.integer)) or player not in (0, 1):
        raise ValueError(f"player={player!r}; allowed: 0 or 1 (the side that observes)")
    return int(player)


def _entity(game, player, units, models, glob):
    """Fill zeroed ``units``, ``models`` and ``glob`` with ``player``'s view of the game."""
    s = game.state
    K.encode_entity(s.g, s.u, s.m, s.w, s.obj, game.static.flags, 0, _player(player), units, models, glob)


class EntityEncoder:
    """``Dict(units, models, globals)`` (the module docstring)."""

    name = "entity"

    def space(self, game) -> spaces.Space:
        mu, mm = game.max_units, game.max_models
        return spaces.Dict({"units": spaces.Box(0, 1, (2 * mu, len(UNIT_FEATURES)), F32),
                            "models": spaces.Box(0, 1, (2 * mu * mm, len(MODEL_FEATURES)), F32),
                            "globals": spaces.Box(0, 1, (len(GLOBAL_FEATURES),), F32)})

    def encode(self, game, player: int):
        mu, mm = game.max_units, game.max_models
        out = {"units": np.zeros((2 * mu, K.FU), F32), "models": np.zeros((2 * mu * mm, K.FM), F32),
               "globals": np.zeros(K.FG, F32)}
        _entity(game, player, out["units"], out["models"], out["globals"])
        return out


class FlatEncoder(EntityEncoder):
    """One vector: ``entity``'s units, models and globals flattened, in that order."""

    name = "flat"

    def space(self, game):
        n = sum(int(np.prod(b.shape)) for b in super().space(game).spaces.values())
        return spaces.Box(0, 1, (n,), F32)

    def encode(self, game, player):
        mu, mm = game.max_units, game.max_models
        nu, nm = 2 * mu * K.FU, 2 * mu * mm * K.FM
        out = np.zeros(nu + nm + K.FG, F32)  # the kernel writes the three parts straight into their places
        _entity(game, player, out[:nu].reshape(2 * mu, K.FU), out[nu:nu + nm].reshape(-1, K.FM), out[nu + nm:])
        return out


class SpatialEncoder:
    """``[C, H, W]`` planes (SPATIAL_PLANES)."""

    name = "spatial"

    def space(self, game):
        return spaces.Box(0, 1, (len(SPATIAL_PLANES), game.dims.height, game.dims.width), F32)

    def encode(self, game, player):
        s, st = game.state, game.static
        out = np.empty((K.N_PLANES, game.dims.height, game.dims.width), F32)  # the kernel writes every cell
        K.encode_spatial(s.g, s.u, s.m, s.obj, st.flags, st.height, st.zone, 0, _player(player), out)
        return out


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
