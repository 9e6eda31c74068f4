"""Necromunda behind the ruleset seam (necro_env.rulesets.base.Ruleset; DESIGN.md §11).

Everything here is a thin pointer to the modules that hold the rules; imports happen inside the
functions, so that ``necro_env.rulesets.get("necromunda")`` loads nothing heavy until it is used.
"""
from __future__ import annotations

import numpy as np

from ...core.hashing import content_hash
from ..base import ActionKind, Param, ParamKind, Ruleset

VERSION = "1"


def _config_from_json(data: dict):
    from .game_config import GameConfig

    return GameConfig.from_json(data)


def _config_json(obj) -> dict:
    from .game_config import config_json

    return config_json(obj)


def data_hashes(game) -> dict:
    """Content hashes of the data a game was built from (weapons, armour, board, each gang): a replay
    re-simulates only on the same data."""
    b = game.board
    height = game.static.height
    gangs = []
    for g in game.gangs:
        parts = [g.name, g.house]
        for f in g.fighters:
            parts += [f.name, f.type_name, int(f.role), np.asarray(f.chars, np.int32), tuple(int(w) for w in f.weapons),
                      int(f.armour), bool(f.bodyglove), bool(f.field_armour), int(f.group_activation),
                      int(f.gang_hierarchy), int(f.shield)]
            if f.start_conditions:  # appended only when set: the hashes of older gangs stay as they were
                parts += ["start_conditions", int(f.start_conditions)]
        gangs.append(content_hash(*parts))
    return {
        "weapons": content_hash(tuple(game.weapons.names), np.asarray(game.weapons.profiles)),
        "armour": content_hash(tuple(game.armours.names), np.asarray(game.armours.table)),
        "board": content_hash(b.name, np.asarray(b.terrain), np.asarray(b.doors), np.asarray(b.terminals),
                              np.asarray(b.ductways), np.asarray(b.caskets), np.asarray(b.deploy),
                              np.asarray(height) if np.any(height) else None),
        "gangs": gangs,
    }


def action_kinds(game) -> tuple[ActionKind, ...]:
    """The codec's kinds (codec.KINDS) with typed parameters; their sizes are the codec's ranges."""
    from . import codec as C

    d = game.dims
    fighters, cells = d.n_gangs * d.max_fighters, d.height * d.width
    params = {
        C.P_NONE: (),
        C.P_FIGHTER: (Param(ParamKind.OWN_ENTITY, d.max_fighters, "fighter"),),
        C.P_CELL: (Param(ParamKind.CELL, cells, "cell"),),
        C.P_TARGET: (Param(ParamKind.ENTITY, fighters, "fighter"),),
        C.P_WEAPON_TARGET: (Param(ParamKind.ITEM, d.max_weapons * 2, "weapon profile"),
                            Param(ParamKind.ENTITY, fighters, "fighter")),
        C.P_ITEM: (Param(ParamKind.ITEM, d.max_weapons, "weapon"),),
        C.P_DOOR: (Param(ParamKind.ENUM, d.max_doors, "door"),),
        C.P_CASKET: (Param(ParamKind.ENUM, d.max_caskets, "casket"),),
        C.P_FACING: (Param(ParamKind.ENUM, 8, "facing"),),
        C.P_WEAPON_CELL: (Param(ParamKind.ITEM, d.max_weapons, "weapon"), Param(ParamKind.CELL, cells, "cell")),
    }
    return tuple(ActionKind(name, params[pk]) for name, pk in C.KINDS)


def _decision_names() -> dict:
    from .state import DK_NAMES

    return dict(DK_NAMES)


RULESET = Ruleset(
    name="necromunda",
    version=VERSION,
    players="gang",
    config_from_json=_config_from_json,
    config_json=_config_json,
    data_hashes=data_hashes,
    action_kinds=action_kinds,
    decision_names=_decision_names,
    env_module="necro_env.necromunda_v0",
    gym_id="necro_env/Necromunda-v0",
)
