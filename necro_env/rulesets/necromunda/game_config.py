"""``GameConfig``: the one home of a Necromunda game's build parameters (docs/api.md, "The game config").

Every path that builds a game builds it from a ``GameConfig``: ``build_game`` (a thin function over
it), the PettingZoo env's construction and its board draws at reset, the replay recorder (its
header's ``config`` is ``to_json()``) and the Gymnasium wrapper (through the env). Before
2026-12-01 the arguments were copied in four places and the copies drifted: the board draw at reset
dropped ``variant``, so House Legacy turned into the core rules.

::

    cfg = GameConfig(board="generate:sector:train", variant="house_legacy")
    game = cfg.build()                                  # a Game
    data = cfg.to_json()                                # a JSON-able dict; GameConfig.from_json(data)
    loaded = cfg.load()                                 # the files read once; loaded.build() per game
    seed, spec = loaded.draw.draw(rng)                  # a board draw (several seeds)
    game = loaded.with_drawn_board(seed, spec).build()  # the same game on that board

How values serialise (``to_json``): paths as strings, relative to the config root when inside it;
a ``ScenarioSpec`` as its file (``source``); a ``BoardSpec`` inline, as the fields of a board file
(``name``, ``description``, ``map``, ``terminals``, ``ductways``, ``heights``: exact, and read back
with the board file checks); a ``GangSpec`` as the file it was loaded from (``source``). A
``GangSpec`` built in code (``necro_env.testing.gang``) has no file: such a config builds games
but ``to_json`` refuses it, naming the gang. Fields left ``None`` are left out, so a missing key
means the default: for ``variant`` that is the scenario's (replays written before 2026-12-01 do
not store it).
"""
from __future__ import annotations

import dataclasses
import weakref
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml

from ...config import (
    ArmourTable, BoardSpec, GangSpec, ScenarioSpec, WeaponTable, config_root, load_armours, load_board, load_gang,
    load_scenario, load_weapons,
)
from ...config.generator import (
    BoardDraw, board_differences, board_from_data, board_to_yaml, generate, parse_board_arg,
)
from ...config.loader import doors_at_start
from .game import Game
from .state import VARIANTS

FIELDS = ("scenario", "board", "gangs", "num_gangs", "round_limit", "max_fighters", "max_weapons", "max_doors",
          "max_caskets", "variant")
# integer fields: (lowest, highest or None for no bound); the ranges a scenario file and the engine allow
_INT_RANGES = {
    "num_gangs": (2, None),  # the upper bound is the board's deployment zones (LoadedGame.check)
    "round_limit": (1, 99),  # as a scenario file's round_limit (config/schemas.py ScenarioFile)
    "max_fighters": (1, 30),  # group activation bit masks (Game)
    "max_weapons": (1, None),
    "max_doors": (0, None),
    "max_caskets": (0, None),
}
SEED_MAX = 2**64 - 1  # the engine's game seed is one uint64 (Game.reset)

# BoardSpecs that passed the board file checks (or came from them): each is checked once
_CHECKED_BOARDS: weakref.WeakSet = weakref.WeakSet()


def check_seed(seed, what: str = "seed") -> int:
    """``seed`` as an int when it is a whole number 0..2**64-1 (Python or numpy integer), else
    ValueError naming it: a larger seed would wrap around in the engine while ``game_seed``
    reported the large number, and numpy refuses negative or float seeds with less clear words."""
    if not _is_int(seed) or not 0 <= int(seed) <= SEED_MAX:
        raise ValueError(f"{what} must be an integer 0..2**64-1 ({SEED_MAX}), got {seed!r} ({type(seed).__name__})")
    return int(seed)


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _portable(path) -> str:
    """A path as a string, relative to the config root when inside it (replays move between machines)."""
    text = str(path)
    p = Path(text)
    if p.is_absolute():
        try:
            return str(p.resolve().relative_to(config_root().resolve()))
        except ValueError:
            return text
    return text


def check_board_spec(spec: BoardSpec) -> BoardSpec:
    """``spec`` after the checks a board file gets (config/schemas.py, through the generator's
    ``board_to_yaml`` and ``board_from_data``): a deployment zone over walls, a door outside a wall
    gap, an unreachable cell... raise ValueError naming the board."""
    if spec in _CHECKED_BOARDS:
        return spec
    try:
        again = board_from_data(yaml.safe_load(board_to_yaml(spec)), spec.source)
    except ValueError as exc:  # ConfigError is a ValueError
        raise ValueError(f"board {spec.name!r} (a BoardSpec) is not a valid board: {exc}") from None
    diff = board_differences(spec, again)
    if diff:
        raise ValueError(f"board {spec.name!r} (a BoardSpec) is not a valid board: its {', '.join(diff)} "
                         "cannot be written as a board file (docs/data.md)")
    _CHECKED_BOARDS.add(spec)
    return spec


def _board_from_json(data: dict) -> BoardSpec:
    spec = board_from_data(data, f"<board {data.get('name')!r} of a game config>")
    _CHECKED_BOARDS.add(spec)
    return spec


@dataclass(frozen=True)
class GameConfig:
    """The build parameters of one Necromunda game (the env constructor's game arguments).

    scenario: a scenario file path (default configs/scenarios/gang_fight.yaml) or a loaded
        ``ScenarioSpec``. board: a board file path (the scenario's ``doors_start`` applies), a
        ``BoardSpec`` (taken as it is, after the board file checks), the fields of a board file as a
        dict (how ``to_json`` writes a ``BoardSpec``), or ``"generate:KIND:SEEDS[:options]"``
        (docs/boards.md; with several seeds ``build()`` uses the first and ``load().draw`` draws
        the others). gangs: gang file paths or ``GangSpec``s replacing the scenario's. num_gangs:
        2 up to the board's deployment zones (4 at most); above the scenario's count the other
        files of configs/gangs/ are added in name order.
        round_limit: 1..99 (default the scenario's). max_fighters, max_weapons, max_doors,
        max_caskets: the sizes of the spaces (default: the gangs' and the board's; for a board draw
        the generator's ``max_doors`` and casket count). variant: "core" or "house_legacy" (default
        the scenario's; ``load().config`` fills it in).

    Every value is checked here and in ``load()``; a bad one raises ValueError naming the field,
    the value and what is allowed.
    """

    scenario: str | ScenarioSpec | None = None
    board: str | BoardSpec | None = None
    gangs: tuple | None = None
    num_gangs: int | None = None
    round_limit: int | None = None
    max_fighters: int | None = None
    max_weapons: int = 4
    max_doors: int | None = None
    max_caskets: int | None = None
    variant: str | None = None

    def __post_init__(self):
        for name, (lo, hi) in _INT_RANGES.items():
            v = getattr(self, name)
            if v is None and name != "max_weapons":
                continue
            if not _is_int(v) or v < lo or (hi is not None and v > hi):
                allowed = f"{lo}..{hi}" if hi is not None else f"of at least {lo}"
                raise ValueError(f"{name} must be an integer {allowed}, got {v!r} ({type(v).__name__})")
            object.__setattr__(self, name, int(v))
        if self.variant is not None and (not isinstance(self.variant, str) or self.variant not in VARIANTS):
            raise ValueError(f"variant {self.variant!r} is not known; allowed: {', '.join(VARIANTS)}")
        self._normalise_scenario()
        self._normalise_board()
        self._normalise_gangs()

    def _normalise_scenario(self):
        s = self.scenario
        if isinstance(s, Path):
            object.__setattr__(self, "scenario", str(s))
        elif not (s is None or isinstance(s, (str, ScenarioSpec))):
            raise ValueError(f"scenario must be a scenario file path or a ScenarioSpec, got {s!r} ({type(s).__name__})")

    def _normalise_board(self):
        b = self.board
        if isinstance(b, Path):
            b = str(b)
        if isinstance(b, dict):
            b = _board_from_json(b)
        elif isinstance(b, BoardSpec):
            check_board_spec(b)
        elif isinstance(b, str) and b.startswith("generate:"):
            parse_board_arg(b)  # a bad generate string fails here, with its own message
        elif not (b is None or isinstance(b, str)):
            raise ValueError(f"board must be a board file path, a BoardSpec or 'generate:KIND:SEEDS', "
                             f"got {b!r} ({type(b).__name__})")
        object.__setattr__(self, "board", b)

    def _normalise_gangs(self):
        g = self.gangs
        if g is None:
            return
        if isinstance(g, (str, Path, GangSpec)) or not isinstance(g, (list, tuple)):
            raise ValueError(f"gangs must be a list of gang file paths or GangSpecs, got {g!r} ({type(g).__name__})")
        g = tuple(str(x) if isinstance(x, Path) else x for x in g)
        for i, x in enumerate(g):
            if not isinstance(x, (str, GangSpec)):
                raise ValueError(f"gangs[{i}] must be a gang file path or a GangSpec, got {x!r} ({type(x).__name__})")
        if len(g) < 2:
            raise ValueError(f"a game needs at least 2 gangs, got gangs={list(g)!r}")
        if self.num_gangs is not None and self.num_gangs != len(g):
            raise ValueError(f"num_gangs={self.num_gangs} but {len(g)} gangs were given")
        object.__setattr__(self, "gangs", g)

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict:
        """The config as a JSON-able dict (module docstring: how specs serialise); ``None`` fields
        are left out. Raises ValueError for a gang built in code."""
        out = {}
        for name in FIELDS:
            v = getattr(self, name)
            if v is None:
                continue
            if name == "scenario":
                v = _portable(v.source if isinstance(v, ScenarioSpec) else v)
            elif name == "board":
                v = yaml.safe_load(board_to_yaml(v)) if isinstance(v, BoardSpec) else _portable(v)
            elif name == "gangs":
                v = [_gang_json(i, g) for i, g in enumerate(v)]
            out[name] = v
        return out

    @classmethod
    def from_json(cls, data: dict) -> "GameConfig":
        """The config ``to_json`` wrote (a missing key is the default: ``variant`` the scenario's)."""
        if not isinstance(data, dict):
            raise ValueError(f"a game config is a JSON object of {', '.join(FIELDS)}; got {data!r:.80}")
        unknown = sorted(set(data) - set(FIELDS))
        if unknown:
            raise ValueError(f"unknown game config field(s) {', '.join(map(repr, unknown))}; "
                             f"allowed: {', '.join(FIELDS)}")
        return cls(**data)

    # ------------------------------------------------------------------ building
    def load(self) -> "LoadedGame":
        """Read the files (scenario, board, gangs, weapons, armour) once and check the whole; the
        returned ``LoadedGame`` builds games without reading them again."""
        sc = self.scenario if isinstance(self.scenario, ScenarioSpec) else load_scenario(self.scenario)
        weapons, armours = load_weapons(), load_armours()
        board, draw, board_seed = self._board_spec(sc)
        gangs = self._gang_specs(sc, weapons, armours)
        resolved = dataclasses.replace(
            self, variant=self.variant or sc.variant,
            max_doors=draw.max_doors if draw is not None and self.max_doors is None else self.max_doors,
            max_caskets=draw.n_caskets if draw is not None and self.max_caskets is None else self.max_caskets)
        loaded = LoadedGame(resolved, sc, board, gangs, weapons, armours, draw, board_seed)
        loaded.check()
        return loaded

    def build(self) -> Game:
        """The ``Game`` of this config."""
        return self.load().build()

    def _board_spec(self, sc: ScenarioSpec):
        """(board spec, BoardDraw or None, generated board's seed or None)."""
        b = self.board
        if b is None:
            return sc.board, None, None
        if isinstance(b, BoardSpec):
            return b, None, None
        if b.startswith("generate:"):
            kwargs, seeds = parse_board_arg(b)
            seed = int(seeds[0])
            draw = BoardDraw(b) if len(seeds) > 1 else None
            return doors_at_start(generate(seed=seed, **kwargs), sc.doors_start), draw, seed
        return doors_at_start(load_board(b), sc.doors_start), None, None

    def _gang_specs(self, sc: ScenarioSpec, weapons, armours) -> tuple:
        if self.gangs is not None:
            return tuple(g if isinstance(g, GangSpec) else load_gang(g, weapons, armours) for g in self.gangs)
        specs = list(sc.gangs)
        n = self.num_gangs
        if n is not None and n > len(specs):
            # more gangs than the scenario's: the other gang files of configs/gangs/, in name order, repeated
            used = {Path(g.source).resolve() for g in specs}
            extra = [p for p in sorted((config_root() / "gangs").glob("*.yaml")) if p.resolve() not in used]
            pool = [load_gang(p, weapons, armours) for p in extra] or list(sc.gangs)
            specs += [pool[i % len(pool)] for i in range(n - len(specs))]
        return tuple(specs[:n] if n is not None else specs)


def _gang_json(i: int, g) -> str:
    if isinstance(g, str):
        return _portable(g)
    if g.source and Path(g.source).is_file():
        return _portable(g.source)
    raise ValueError(f"gangs[{i}]: gang {g.name!r} was built in code (source {g.source!r}), so a JSON config "
                     "cannot name it; give gang file paths (configs/gangs/*.yaml) to record or save this config")


@dataclass(frozen=True, eq=False)
class LoadedGame:
    """A ``GameConfig`` with its files read: what a ``Game`` is built from.

    config: the config with ``variant`` filled in (and, for a board draw, ``max_doors`` and
    ``max_caskets``): its ``to_json()`` rebuilds this game. draw: the ``BoardDraw`` of a board
    draw (else None). board_seed: the generated board's seed (else None).
    """

    config: GameConfig
    scenario: ScenarioSpec
    board: BoardSpec
    gangs: tuple
    weapons: WeaponTable
    armours: ArmourTable
    draw: BoardDraw | None = None
    board_seed: int | None = None

    def build(self) -> Game:
        """The one place a Game is made from a config; the Game keeps it as ``game.config``."""
        c = self.config
        game = Game(self.board, self.gangs, weapons=self.weapons, armours=self.armours,
                    round_limit=self.scenario.round_limit if c.round_limit is None else c.round_limit,
                    max_fighters=c.max_fighters, max_weapons=c.max_weapons, max_doors=c.max_doors,
                    max_caskets=c.max_caskets, variant=c.variant)
        game.config = c
        return game

    def with_drawn_board(self, seed: int, spec: BoardSpec | None = None) -> "LoadedGame":
        """The same game on the board of ``seed`` of the draw (``spec``: that board, when the draw
        made it already); its config names that one seed, so a replay rebuilds this very board."""
        spec = doors_at_start(spec if spec is not None else self.draw.board(seed), self.scenario.doors_start)
        parts = self.config.board.split(":")
        parts[2] = str(int(seed))
        config = dataclasses.replace(self.config, board=":".join(parts))
        loaded = dataclasses.replace(self, config=config, board=spec, draw=None, board_seed=int(seed))
        loaded.check()
        return loaded

    def check(self):
        """Cross-field checks with the files read: gangs against deployment zones, the maxima
        against the board and the gangs (each would otherwise fail later, less clearly)."""
        c, b = self.config, self.board
        zones = int(b.deploy.max()) + 1
        if len(self.gangs) > zones:
            raise ValueError(f"board {b.name!r} has deployment zones for {zones} gangs, "
                             f"but {len(self.gangs)} gangs were asked for")
        if len(self.gangs) < 2:
            raise ValueError("a game needs at least 2 gangs")
        for name, have in (("max_doors", len(b.doors)), ("max_caskets", len(b.caskets))):
            v = getattr(c, name)
            if v is not None and v < have:
                raise ValueError(f"{name}={v} is less than the {have} {name[4:]} of board {b.name!r}; "
                                 f"allowed: {have} or more, or None (the board's count)")
        if self.draw is not None:
            self._check_draw()
        carried = max(((len(f.weapons), f.name) for g in self.gangs for f in g.fighters), default=(0, ""))
        if carried[0] > c.max_weapons:
            raise ValueError(f"max_weapons={c.max_weapons} is less than the {carried[0]} weapons fighter "
                             f"{carried[1]!r} carries; allowed: {carried[0]} or more")

    def _check_draw(self):
        """Every board of a draw must fit the spaces, not only the first one drawn."""
        c, d = self.config, self.draw
        if c.max_doors < d.max_doors:
            raise ValueError(f"max_doors={c.max_doors} is less than the {d.max_doors} doors a board of "
                             f"{c.board!r} may have; allowed: {d.max_doors} or more (or set max_doors in the "
                             "board text, generate:KIND:SEEDS:max_doors=N)")
        if c.max_caskets < d.n_caskets:
            raise ValueError(f"max_caskets={c.max_caskets} is less than the {d.n_caskets} caskets of every board "
                             f"of {c.board!r}; allowed: {d.n_caskets} or more")


def config_json(obj) -> dict:
    """The JSON of the ``GameConfig`` behind ``obj``, for checkpoint metadata and replays.

    obj: an env (``necromunda_v0.env`` / ``raw_env``, ``NecromundaGymEnv``, or any wrapper with
    ``unwrapped``): the env's config, a board draw included; a ``Game`` built from a config
    (``build_game``, the envs' ``game``): that game's config, a drawn board named by its seed; or
    a ``GameConfig``. Raises ValueError for a Game made without one (``Game(...)``,
    ``necro_env.testing.scenario``) and, from ``to_json``, for gangs built in code.
    """
    if isinstance(obj, GameConfig):
        return obj.to_json()
    cfg = getattr(getattr(obj, "unwrapped", obj), "config", None)
    if not isinstance(cfg, GameConfig):
        raise ValueError(f"{type(obj).__name__} has no game config (a Game made with Game(...) or "
                         "necro_env.testing has none; build it with build_game or GameConfig)")
    return cfg.to_json()
