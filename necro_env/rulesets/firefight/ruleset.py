"""Grimdark Future: Firefight behind the ruleset seam (necro_env.rulesets.base.Ruleset; DESIGN.md §11).

Imports happen inside the functions, so asking the registry for "firefight" compiles nothing until a game is
built. The env (firefight_v0) and its Gymnasium wrapper come with a later task: ``env_module`` and ``gym_id``
name where they will live.
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
    """Content hashes of the board and both army lists a game was built from."""
    b = game.board
    lists = [content_hash(lst.name, lst.army.name, tuple((u.unit, u.size, u.quality, u.defense, u.ranged_quality,
                                                          tuple(sorted(u.rules.items())), u.equipment, u.cost)
                                                         for u in lst.units),
                          tuple((w.name, w.range, w.attacks, w.ap, tuple(sorted(w.rules.items())))
                                for w in lst.army.weapons.values()))
             for lst in game.lists]
    return {"board": content_hash(b.name, np.asarray(b.flags), np.asarray(b.heights), np.asarray(b.deploy)),
            "lists": lists}


def action_kinds(game) -> tuple[ActionKind, ...]:
    """The codec's kinds (codec.KINDS) with typed parameters; their sizes are the codec's ranges."""
    from . import codec as C
    from .constants import N_ACTIONS

    d = game.dims
    params = {
        C.P_NONE: (),
        C.P_UNIT: (Param(ParamKind.OWN_ENTITY, d.max_units, "unit"),),
        C.P_ACTION: (Param(ParamKind.ENUM, N_ACTIONS, "action"),),
        C.P_CELL: (Param(ParamKind.CELL, d.height * d.width, "cell"),),
        C.P_ENEMY: (Param(ParamKind.ENEMY_ENTITY, d.max_units, "unit"),),
        C.P_YESNO: (Param(ParamKind.ENUM, 2, "strike back"),),
        C.P_EDGE: (Param(ParamKind.ENUM, 2, "table edge"),),
        C.P_SPELL_UNIT: (Param(ParamKind.ENUM, C.N_SPELLS, "spell"), Param(ParamKind.ENTITY, 2 * d.max_units, "unit")),
        C.P_HELP: (Param(ParamKind.ENUM, 2 * C.HELP_MAX + 1, "tokens"),),
    }
    return tuple(ActionKind(name, params[pk]) for name, pk in C.KINDS)


def _decision_names() -> dict:
    from .state import DK_NAMES

    return dict(DK_NAMES)


RULESET = Ruleset(
    name="firefight",
    version=VERSION,
    players="player",  # firefight_v0 agents: player_0, player_1 (issue "A second game", item 5)
    config_from_json=_config_from_json,
    config_json=_config_json,
    data_hashes=data_hashes,
    action_kinds=action_kinds,
    decision_names=_decision_names,
    env_module="necro_env.firefight_v0",
    gym_id="necro_env/Firefight-v0",
)
