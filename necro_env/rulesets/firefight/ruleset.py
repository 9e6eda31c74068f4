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


def _shown(name: str):
    """A function of frames.py (the replay viewer's and the play page's words and drawing data), imported
    when first used (2026-12-02)."""
    from . import frames

    return getattr(frames, name)


def _env_part(name: str):
    """A function of the env's modules (encode.py, render.py, below), imported when first used (firefight_v0,
    2026-12-02)."""
    from . import encode, render

    return {"encoders": lambda: dict(encode.ENCODERS), "render_ansi": render.text_board,
            "render_rgb": render.rgb_array}[name]


def _make_game(config: dict):
    """GameConfig keyword arguments -> a Game (unknown or bad ones refused in one line by GameConfig)."""
    from .game_config import GameConfig

    return GameConfig.from_json(dict(config)).build()


def objective_balance(game, player: int) -> float:
    """Objective markers ``player`` holds minus those the enemy holds now: firefight_v0's shaping potential
    (the markers decide the game, §2.4)."""
    from .state import O_ON, O_OWNER

    o = game.state.obj[0]
    owner = o[o[:, O_ON] > 0, O_OWNER]
    return float((owner == player).sum() - (owner == 1 - player).sum())


def _scripts() -> dict:
    """The compiled scripted players by name (policies.py: holder, charger, random), imported when first asked."""
    from .policies import SCRIPTS

    return dict(SCRIPTS)


def _batch_module():
    from . import batch

    return batch


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
    describe_action=lambda game, i: _shown("describe_action")(game, i),  # showing a game: firefight/frames.py
    why_illegal=lambda game, i: _shown("why_illegal")(game, i),
    view=lambda game: _shown("view")(game),
    view_frame=lambda game, side, round_: _shown("view_frame")(game, side, round_),
    scoreboard=lambda game: _shown("scoreboard")(game),
    replay_names=lambda game: _shown("replay_names")(game),
    replay_log=lambda names, rows, round_: _shown("replay_log")(names, rows, round_),
    make_game=_make_game,  # the generic env (necro_env/envs/ruleset_env.py) and firefight_v0
    encoders=lambda: _env_part("encoders")(),
    render_ansi=lambda game, names: _env_part("render_ansi")(game, names),
    render_rgb=lambda game, names: _env_part("render_rgb")(game, names),
    shaping_value=objective_balance,
    scripts=_scripts,  # the scripted players (policies.py; agents/game_agent.py builds their agents)
    batched=lambda: _batch_module(),  # compiled kernels over B games (batch.py; the soak and the benchmark)
)
