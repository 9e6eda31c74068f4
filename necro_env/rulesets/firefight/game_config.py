"""``GameConfig``: the one home of a Firefight game's build parameters (JSON round trip, as Necromunda's).

    cfg = GameConfig(lists=("firefight/lists/human_defense_force_185.yaml", "firefight/lists/orc_marauders_195.yaml"),
                     board="firefight/boards/ruined_city.yaml")
    game = cfg.build().reset(seed=1)
    GameConfig.from_json(cfg.to_json()) == cfg

``board`` is a board file, or ``"generate:<seed>"`` for a board of generator.py. Every bad value is refused in
one line naming the field, the value and what is allowed.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from . import data as D
from . import generator
from .game import COHERENCY, KEEP_AWAY, Game

DEFAULT_LISTS = ("firefight/lists/human_defense_force_185.yaml", "firefight/lists/orc_marauders_195.yaml")
GENERATE = "generate:"


@dataclass(frozen=True)
class GameConfig:
    lists: tuple = DEFAULT_LISTS
    board: str = "firefight/boards/ruined_city.yaml"
    round_limit: int = 4
    keep_away: str = "all"
    keep_away_path: bool = True
    coherency: str = "literal"
    heights: bool = False
    max_units: int | None = None
    max_models: int | None = None
    max_weapons: int | None = None

    def __post_init__(self):
        lists = self.lists
        if not (isinstance(lists, (tuple, list)) and len(lists) == 2 and all(isinstance(p, str) for p in lists)):
            raise ValueError(f"lists={lists!r}; allowed: two army-list files (firefight/lists/<name>.yaml)")
        object.__setattr__(self, "lists", tuple(lists))
        if not isinstance(self.board, str) or not self.board:
            raise ValueError(f"board={self.board!r}; allowed: a board file or 'generate:<seed>'")
        if self.board.startswith(GENERATE) and not self.board[len(GENERATE):].isdigit():
            raise ValueError(f"board={self.board!r}; allowed: 'generate:' followed by a whole-number seed")
        for name in ("keep_away_path", "heights"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name}={getattr(self, name)!r}; allowed: true or false")
        if self.keep_away not in KEEP_AWAY:
            raise ValueError(f"keep_away={self.keep_away!r}; allowed: {', '.join(KEEP_AWAY)}")
        if self.coherency not in COHERENCY:
            raise ValueError(f"coherency={self.coherency!r}; allowed: {', '.join(COHERENCY)}")
        if isinstance(self.round_limit, bool) or not isinstance(self.round_limit, int) or not 1 <= self.round_limit <= 99:
            raise ValueError(f"round_limit={self.round_limit!r}; allowed: a whole number 1..99")

    def load_board(self) -> D.Board:
        if self.board.startswith(GENERATE):
            return generator.generate(int(self.board[len(GENERATE):]))
        return D.load_board(self.board)

    def build(self) -> Game:
        game = Game(self.load_board(), [D.load_list(p) for p in self.lists], round_limit=self.round_limit,
                    keep_away=self.keep_away, keep_away_path=self.keep_away_path, coherency=self.coherency,
                    heights=self.heights, max_units=self.max_units, max_models=self.max_models,
                    max_weapons=self.max_weapons)
        game.config = self
        return game

    def to_json(self) -> dict:
        out = dataclasses.asdict(self)
        out["lists"] = list(self.lists)
        return {k: v for k, v in out.items() if v is not None}

    @classmethod
    def from_json(cls, data: dict) -> "GameConfig":
        if not isinstance(data, dict):
            raise ValueError(f"a Firefight game config is a JSON object; got {data!r:.80}")
        fields = [f.name for f in dataclasses.fields(cls)]
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise ValueError(f"unknown game config field(s) {', '.join(map(repr, unknown))}; allowed: {', '.join(fields)}")
        return cls(**data)


def config_json(obj) -> dict:
    """The JSON of a GameConfig, or of the config a Game was built from."""
    if isinstance(obj, GameConfig):
        return obj.to_json()
    cfg = getattr(obj, "config", None) or getattr(getattr(obj, "game", None), "config", None)
    if cfg is None:
        raise ValueError(f"{type(obj).__name__} was not built from a Firefight GameConfig")
    return cfg.to_json()
