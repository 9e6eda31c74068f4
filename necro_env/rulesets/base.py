"""What a ruleset gives the rest of the package (DESIGN.md §11; docs/architecture.md, "Rulesets").

A ruleset is a package under ``necro_env/rulesets/<name>/`` with a module ``ruleset.py`` that defines
``RULESET``, a :class:`Ruleset`. Generic layers reach a game only through it (found by
``necro_env.rulesets.get(name)``) and through the state header (``necro_env.core.header``), so adding
a game is one package, its configs, its tests and one line in the registry.

The fields are small and typed. Heavy modules (the numba engine, encoders, scripts) load only when a
field's function is called: asking for one ruleset never imports, and so never compiles, another.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Callable


class ParamKind(enum.Enum):
    """What one parameter of an action kind indexes: enough for a generic codec, for pointer networks
    (an entity or a cell parameter is scored per row or per cell) and for the docs' action tables."""

    OWN_ENTITY = "own entity"  # a slot of the deciding player's own pieces (fighter, unit, regiment)
    ENTITY = "entity"  # any piece, relative to the deciding player: own first, then the others in turn
    ENEMY_ENTITY = "enemy entity"  # an opponent's piece
    CELL = "cell"  # a board cell, y * W + x
    ITEM = "item"  # a slot of the acting piece's equipment (weapon, weapon profile, spell)
    ENUM = "enum"  # a small fixed choice (a facing, a door of the board, a reaction)


@dataclass(frozen=True)
class Param:
    kind: ParamKind
    size: int
    name: str  # what it is in this game ("fighter", "weapon profile", "door", "facing", ...)


@dataclass(frozen=True)
class ActionKind:
    """One range of the flat action space: ``size`` indices, one per combination of ``params`` (the
    first parameter varies slowest)."""

    name: str
    params: tuple[Param, ...]

    @property
    def size(self) -> int:
        n = 1
        for p in self.params:
            n *= p.size
        return n


@dataclass(frozen=True)
class Ruleset:
    """One rule system behind the seam.

    name, version: the registry's name and the ruleset's own version (replays and checkpoints
      store both).
    players: the agents' name prefix (``gang`` -> ``gang_0``, ``gang_1``).
    config_from_json: a JSON dict (a replay's or a checkpoint's ``config``) -> the game config, whose
      ``build()`` makes a game and ``to_json()`` gives the dict back.
    config_json: an env, a game or a config -> its config as JSON.
    data_hashes: a game -> content hashes of the data it was built from (replays check them).
    action_kinds: a game -> its action kinds, in the codec's order (their sizes add up to n_actions).
    decision_names: the decision kind codes (header column H_DK) -> names.
    env_module: the PettingZoo module (``env()``, ``raw_env()``), by import path.
    gym_id: the Gymnasium id of its single-agent wrapper.

    Optional fields (None: the game does not offer it yet; ``feature`` says so in one line). They
    serve a person playing through ``necro-play`` (necro_env/play/, added 2026-12-02) and anything
    else that shows a game rather than trains on it:
    describe_action: (game, index) -> {"label": the action with its parameters in words, "kind": its
      kind's name, "piece": the piece it acts with or on (a global entity index) or None, "target": the
      targeted piece or None, "cell": [x, y] or None} for the player deciding now.
    why_illegal: (game, index) -> the engine's reason that a masked action cannot be taken now.
    view: game -> the pieces to draw, once per game: a JSON dict in the shape the replay viewer's
      drawing code (necro_env/replay/board.js) reads (board, fighters, gangs, colours, conditions).
    view_frame: (game, gang, round_) -> the state to draw now and the battle-log lines of the last step
      (``gang`` decided it, in round ``round_``), as one frame of the replay viewer.
    scoreboard: game -> {"round", "round_limit", "sides": [{"name", "left", "total", "score"}], "result"}:
      each side's remaining models, its objectives or victory points, and the result once over.
    """

    name: str
    version: str
    players: str
    config_from_json: Callable[[dict], Any]
    config_json: Callable[[Any], dict]
    data_hashes: Callable[[Any], dict]
    action_kinds: Callable[[Any], tuple[ActionKind, ...]]
    decision_names: Callable[[], dict]
    env_module: str
    gym_id: str
    describe_action: Callable[[Any, int], dict] | None = None
    why_illegal: Callable[[Any, int], str] | None = None
    view: Callable[[Any], dict] | None = None
    view_frame: Callable[[Any, int, int], dict] | None = None
    scoreboard: Callable[[Any], dict] | None = None
    make_game: Callable[[dict], Any] | None = None  # config keyword arguments -> a Game with .config (envs/ruleset_env.py)
    encoders: Callable[[], dict] | None = None  # -> {name: encoder class with space(game), encode(game, player)}
    render_ansi: Callable[[Any, list], str] | None = None  # (game, agent names) -> a text board and a status line
    render_rgb: Callable[[Any, list], Any] | None = None  # (game, agent names) -> uint8[H_px, W_px, 3] image
    shaping_value: Callable[[Any, int], float] | None = None  # (game, player) -> the reward-shaping potential
    replay_names: Callable[[Any], dict] | None = None  # game -> a replay header's names
    replay_log: Callable[[dict, list, int], list] | None = None  # (header names, event rows, round) -> battle-log lines
    scripts: Callable[[], dict] | None = None  # -> {name: compiled policy(s, st, b, lay, mask, prng) -> index} (agents/game_agent.py)
    batched: Callable[[], Any] | None = None  # -> the batched-core module (compiled kernels over B games; benchmarks)
    battle_log: Callable[[Any, list], list] | None = None  # (game, agent names) -> the last step's battle-log lines (training's final_game.log)
    render_image: Callable[[Any, list, int], Any] | None = None  # (game, agent names, cell px) -> a PIL image at that cell size (None: render_rgb's own size)
    demo_players: Callable[[], dict] | None = None  # -> {name: Python policy(game, rng) -> index}: demo players (necro-replay record --policy)
    reward_potential: Callable[[Any, int, Any], float] | None = None  # (game, player, RewardSpec) -> the casualty shaping potential (envs/rewards.py)
    soak: Callable[[], Any] | None = None  # -> the random-play soak's module: build_game, notable(event rows), KIND_NAMES (benchmarks/random_games.py)

    def feature(self, field_name: str) -> Callable:
        """An optional field's function, or NotImplementedError saying this game lacks it (a game whose
        ruleset leaves it None is refused in one line, never with an AttributeError)."""
        if field_name not in OPTIONAL:
            raise ValueError(f"{field_name!r} is not an optional field of Ruleset; allowed: {', '.join(OPTIONAL)}")
        fn = getattr(self, field_name)
        if fn is None:
            raise NotImplementedError(f"'{field_name}' is not supported by this game yet ({self.name})")
        return fn


# Ruleset's optional fields: what the browser game shows (describe_action ... scoreboard), the generic env
# (make_game ... shaping_value), replays of any ruleset (replay_names, replay_log), the scripted players
# (scripts) and the batched core (batched). Necromunda reaches its env, batch and scripts by its own modules still
# (tests/api/test_rulesets.py, STILL_WELDED); since 2026-12-02 it fills the browser game's five, make_game,
# render_ansi, render_rgb, replay_names, replay_log and the three added below.
OPTIONAL = ("describe_action", "why_illegal", "view", "view_frame", "scoreboard",
            "make_game", "encoders", "render_ansi", "render_rgb", "shaping_value",
            "replay_names", "replay_log", "scripts", "batched")
# Added 2026-12-02 as Necromunda's battle log and drawing moved behind the seam (issue 56, item 1): the battle
# log of a live game and images at a chosen cell size (necro-replay gif's --cell).
OPTIONAL += ("battle_log", "render_image")
OPTIONAL += ("demo_players",)  # 2026-12-02: Python demo players moved out of necro_env/replay/record.py
OPTIONAL += ("reward_potential",)  # 2026-12-02: Necromunda's casualty terms moved out of necro_env/envs/rewards.py
OPTIONAL += ("soak",)  # 2026-12-02: Necromunda's soak game and event counts moved out of benchmarks/random_games.py
