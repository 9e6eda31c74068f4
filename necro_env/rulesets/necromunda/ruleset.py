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


# ---------------------------------------------------------------------------- showing a game to a person
# (the optional fields of Ruleset, 2026-12-02, for necro-play: necro_env/play/). The drawing data is the
# replay viewer's (Necromunda's frames.py, moved from necro_env/replay/ 2026-12-02), imported when first used.


def describe_action(game, index: int) -> dict:
    """One legal or illegal index in words, with the piece, target and cell the page highlights."""
    from .explain import describe_index
    from .state import G_ACTIVE

    a = describe_index(game, int(index))
    mf = game.dims.max_fighters
    names = game.fighter_names
    me = game.current_gang

    def who(g, i):
        return names[g][i] if i < len(names[g]) else f"slot {i} of gang_{g}"

    piece = me * mf + a.fighter if a.fighter is not None else int(game.state.g[0, G_ACTIVE])
    target = a.target[0] * mf + a.target[1] if a.target is not None else None
    words = [a.kind]
    if a.fighter is not None:
        words.append(who(me, a.fighter))
    if a.weapon is not None and piece >= 0:
        words.append("with " + _weapon_name(game, piece, a.weapon, a.profile))
    if a.target is not None:
        words.append(f"at {who(*a.target)} (gang_{a.target[0]})")
    if a.cell is not None:
        words.append(f"to ({a.cell[0]},{a.cell[1]})" if a.weapon is None else f"at ({a.cell[0]},{a.cell[1]})")
    for extra in ("door", "casket", "facing"):
        if getattr(a, extra) is not None:
            words.append(f"{extra} {getattr(a, extra)}")
    return {"label": " ".join(words), "kind": a.kind, "piece": piece if piece >= 0 else None, "target": target,
            "cell": list(a.cell) if a.cell is not None else None}


def _weapon_name(game, f: int, item: int, profile: int) -> str:
    from .state import WP_ID

    w = int(game.state.wp[0, f, item, WP_ID])
    if w < 0:
        return f"item {item}"
    names = game.weapons.profile_names[w] if w < len(game.weapons.profile_names) else []
    base = game.weapons.names[w]
    return f"{base} ({names[profile]})" if profile and profile < len(names) and names[profile] else base


def _why_illegal(game, index: int) -> str:
    from .explain import why_illegal

    return why_illegal(game, int(index))


def view(game) -> dict:
    """The replay viewer's static drawing data (board, fighters, gangs, colours, conditions)."""
    from .battlelog import LogNames
    from .rgb import CONDITION_COLOURS, GANG_COLOURS, condition_bits
    from .frames import _hex, board_data, fighters_data

    names = LogNames.from_game(game)
    conds = [name for name, _ in condition_bits()]
    return {"board": board_data(game), "fighters": fighters_data(game, names), "gangs": names.gangs,
            "colours": [_hex(GANG_COLOURS[i % len(GANG_COLOURS)]) for i in range(len(names.gangs))],
            "conditions": conds,
            "condition_colours": [_hex(CONDITION_COLOURS[k % len(CONDITION_COLOURS)]) for k in range(len(conds))]}


def view_frame(game, gang: int, round_: int) -> dict:
    """The current state as one viewer frame; its log holds the last step's events."""
    from .battlelog import LogNames
    from ...replay.format import event_rows
    from .frames import frame_data

    rec = {"round": int(round_), "gang": int(gang), "events": event_rows(game)}
    return frame_data(game, rec, LogNames.from_game(game))


def scoreboard(game) -> dict:
    """Fighters left per gang (on the battlefield, not Out of Action or fled); a gang fight has no
    victory points: it is won by the last gang not bottled out or wiped out (rules 1.5)."""
    from .state import FI_STATE, FS_ON

    fi = game.state.fi[0]
    mf = game.dims.max_fighters
    sides = []
    for g, gang in enumerate(game.gangs):
        left = sum(int(fi[g * mf + i, FI_STATE]) == FS_ON for i in range(len(gang.fighters)))
        sides.append({"name": f"gang_{g}", "house": gang.name, "left": left, "total": len(gang.fighters),
                      "score": None})
    result = None
    if game.done:
        result = "draw (round limit)" if game.truncated or game.winner < 0 else f"gang_{game.winner} wins"
    return {"round": game.round, "round_limit": game.round_limit, "sides": sides, "result": result}


# ---------------------------------------------------------------------------- replays, logs and drawing
# (2026-12-02: the battle log, the text and image renderers moved here from the generic layers behind the seam,
# issue 56 item 1)


def replay_names(game) -> dict:
    """A replay header's names: the battle log's LogNames of the game (gangs named gang_0, gang_1, ...)."""
    from .battlelog import LogNames

    return LogNames.from_game(game).to_dict()


def replay_log(names: dict, rows: list, round_: int) -> list:
    """Battle-log lines of event rows from a replay header's names alone (``necro-replay show``: no game)."""
    from .battlelog import LogNames, log_lines

    return log_lines(rows, LogNames.from_dict(names), round_)


def battle_log(game, agent_names) -> list:
    """The battle-log lines of the last step's events of a live game."""
    from .battlelog import game_log

    return game_log(game, agent_names)


def render_ansi(game, agent_names) -> str:
    """The text board: map, legend, fighter table and status line (render_text.py)."""
    from .render_text import render_text

    return render_text(game, agent_names)


def render_image(game, agent_names, cell: int):
    """The game as a PIL image, ``cell`` pixels a board cell (necro-replay gif)."""
    from .rgb import render_image as draw

    return draw(game, cell, agent_names)


def render_rgb(game, agent_names):
    """The game as ``uint8[H_px, W_px, 3]``, 20 pixels a cell (necromunda_v0's rgb_array render)."""
    from .rgb import render_rgb as draw

    return draw(game, 20, agent_names)


def _make_game(config: dict):
    """``GameConfig`` keyword arguments (build_game's) -> a Game (a bad one refused by GameConfig)."""
    from .game_config import GameConfig

    return GameConfig(**config).build()


def _demo_players() -> dict:
    """The Python demo players by name (demo_players.py: closing), imported when first asked."""
    from .demo_players import DEMO_PLAYERS

    return dict(DEMO_PLAYERS)


def _reward_potential(game, learner: int, spec) -> float:
    """RewardSpec's casualty and approach shaping potential (rewards.py, moved out of envs/rewards.py)."""
    from .rewards import casualty_value

    return casualty_value(game, learner, spec)


def _soak():
    """The random-play soak's part of Necromunda (soak.py, moved out of benchmarks/random_games.py)."""
    from . import soak

    return soak


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
    describe_action=describe_action,
    why_illegal=_why_illegal,
    view=view,
    view_frame=view_frame,
    scoreboard=scoreboard,
    replay_names=replay_names,
    replay_log=replay_log,
    battle_log=battle_log,
    render_ansi=render_ansi,
    render_image=render_image,
    render_rgb=render_rgb,
    make_game=_make_game,  # necro-replay record's games
    demo_players=_demo_players,
    reward_potential=_reward_potential,
    soak=_soak,
)
