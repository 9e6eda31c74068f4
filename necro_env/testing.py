"""The rules-scenario test API (documented in docs/testing.md; keep it stable).

Build a game from a small ASCII board and hand-made fighters, place them,
fix the dice, apply actions by name and read state and events::

    from necro_env.testing import board, fighter, gang, scenario

    b = board('''
        ..........
        ..........
    ''')
    g0 = gang("a", fighter("orlock", "ganger", ["lasgun"], name="shooter"))
    g1 = gang("b", fighter("goliath", "ganger", ["fighting_knife"], name="target"))
    game = scenario(b, [g0, g1], [
        dict(fighter="shooter", cell=(0, 0), facing="E"),
        dict(fighter="target", cell=(8, 0)),
    ])
    game.activate("shooter")
    game.script_dice([4, 1, 5, 3])
    game.act("shoot", weapon=0, target="target")
    assert game.events("hit")[0].fields["hit"] == 1
"""
from __future__ import annotations

import textwrap

import numpy as np

from .config import BoardSpec, FighterSpec, GangSpec, load_armours, load_house, load_weapons
from .config.loader import HIERARCHY
from .rulesets.necromunda.constants import SHIELD_NAMES
from .core.terrain import (
    DOOR_CLOSED, DOOR_LOCKED, DOOR_OPEN, FEAT_LADDER, FEAT_RAILING, FEAT_STAIRS, TER_DOOR, TER_FLOOR, TER_OBSTACLE,
    TER_WALL,
)
from .rulesets.necromunda.codec import Action  # noqa: F401  (re-exported for tests)
from .rulesets.necromunda.game import Game, IllegalActionError  # noqa: F401

_LEGEND = {".": TER_FLOOR, "#": TER_WALL, "o": TER_OBSTACLE, "+": TER_DOOR, "/": TER_DOOR, "L": TER_DOOR,
           "c": TER_FLOOR, "H": TER_FLOOR, "S": TER_FLOOR, "r": TER_FLOOR}
_FEATURES = {"H": FEAT_LADDER, "S": FEAT_STAIRS, "r": FEAT_RAILING}
_HEIGHT_CHARS = "0123456789abcdef"
_DOOR_STATE = {"+": DOOR_CLOSED, "/": DOOR_OPEN, "L": DOOR_LOCKED}


def _rows(text: str) -> list[str]:
    return [r.strip() for r in textwrap.dedent(text).strip("\n").splitlines() if r.strip()]


def board(ascii_map: str, *, terminals=(), ductways=(), name: str = "test", heights=None) -> BoardSpec:
    """A board from an ASCII map (legend as in configs/boards: ``#`` wall, ``.`` floor,
    ``o`` obstacle, ``+`` / ``/`` / ``L`` closed / open / locked door, ``c`` casket,
    ``0``-``3`` deployment cells, ``H`` ladder, ``S`` stairs, ``r`` railing). terminals:
    [((x, y), (door_x, door_y))]; ductways: [(x0, y0, x1, y1)]. Row 0 is y = 0.
    heights: floor heights in inches, either a string shaped like the map (one character per
    cell, ``0``-``9`` then ``a``-``f`` = 10-15) or an int array [H, W]; None = flat (all 0)."""
    rows = _rows(ascii_map)
    h, w = len(rows), len(rows[0])
    if any(len(r) != w for r in rows):
        raise ValueError("board rows must all have the same length")
    height_map = np.zeros((h, w), np.int8)
    if isinstance(heights, str):
        hrows = _rows(heights)
        if len(hrows) != h or any(len(r) != w for r in hrows):
            raise ValueError(f"heights must have {h} rows of {w} characters like the map")
        for y, row in enumerate(hrows):
            for x, ch in enumerate(row):
                if ch not in _HEIGHT_CHARS:
                    raise ValueError(f"bad height {ch!r} at ({x}, {y}); allowed: 0-9, a-f (10-15 inches)")
                height_map[y, x] = _HEIGHT_CHARS.index(ch)
    elif heights is not None:
        height_map = np.asarray(heights, np.int8)
        if height_map.shape != (h, w):
            raise ValueError(f"heights has shape {height_map.shape}; expected {(h, w)}")
    features = np.zeros((h, w), np.int8)
    terrain = np.zeros((h, w), np.int8)
    deploy = np.full((h, w), -1, np.int8)
    doors, caskets = [], []
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch.isdigit():
                deploy[y, x] = int(ch)
                continue
            if ch not in _LEGEND:
                raise ValueError(f"unknown map character {ch!r} at ({x}, {y}); allowed: {''.join(_LEGEND)} 0-3")
            terrain[y, x] = _LEGEND[ch]
            features[y, x] = _FEATURES.get(ch, 0)
            if ch in _DOOR_STATE:
                doors.append((x, y, _DOOR_STATE[ch]))
            if ch == "c":
                caskets.append((x, y))
    door_index = {(x, y): i for i, (x, y, _) in enumerate(doors)}
    term = [(cx, cy, door_index[tuple(d)]) for (cx, cy), d in terminals]
    return BoardSpec(
        name=name, description="test board", height=h, width=w, terrain=terrain,
        doors=np.array(doors, np.int32).reshape(-1, 3), terminals=np.array(term, np.int32).reshape(-1, 3),
        ductways=np.array(ductways, np.int32).reshape(-1, 4), caskets=np.array(caskets, np.int32).reshape(-1, 2),
        deploy=deploy, source="<test>", heights=height_map, features=features,
    )


def fighter(house: str, type_name: str, weapons=(), *, name: str | None = None, armour: str | None = None,
            bodyglove: bool | None = None, field_armour: bool | None = None, shield: str | None = None,
            start_conditions=(), **chars) -> FighterSpec:
    """A fighter of a house type from configs/houses, with weapons by name.
    Keyword characteristics (m, ws, bs, s, t, w, i, a, ld, cl, wil, int_) override the profile;
    ``start_conditions``: condition names it starts every battle with (as a gang file's)."""
    from necro_env.config.loader import start_condition_bits
    from necro_env.config.schemas import START_CONDITIONS

    for cname in start_conditions:
        if cname not in START_CONDITIONS:
            raise ValueError(f"unknown start condition {cname!r}; allowed: {', '.join(START_CONDITIONS)}")
    armours = load_armours()
    weapons_t = load_weapons()
    ft = load_house(f"houses/{house}.yaml", armours).types[type_name]
    c = np.array(ft.chars, np.int32).copy()
    order = ["m", "ws", "bs", "s", "t", "w", "i", "a", "ld", "cl", "wil", "int_"]
    for k, v in chars.items():
        if k not in order:
            raise ValueError(f"unknown characteristic {k!r}; allowed: {order}")
        c[order.index(k)] = v
    arm = armour or ft.armour
    return FighterSpec(
        name=name or type_name, type_name=type_name, role=ft.role, chars=c,
        weapons=tuple(weapons_t.index[w] for w in weapons), armour=armours.index[arm],
        bodyglove=ft.bodyglove if bodyglove is None else bodyglove,
        field_armour=ft.field_armour if field_armour is None else field_armour,
        group_activation=ft.group_activation, gang_hierarchy=HIERARCHY[ft.gang_hierarchy],
        shield=SHIELD_NAMES[ft.shield if shield is None else shield],
        start_conditions=start_condition_bits(start_conditions),
    )


def gang(name: str, *fighters: FighterSpec, house: str = "test") -> GangSpec:
    return GangSpec(name, house, tuple(fighters), "<test>")


def scenario(board_spec: BoardSpec, gangs, placements, *, round_limit: int = 12, seed: int = 0,
             max_weapons: int = 4, weapons=None, armours=None, variant: str = "core") -> Game:
    """A Game with fighters placed (not started). placements: dicts with ``fighter``
    (a unique name, or (gang, slot)) and ``cell``, plus optional facing, posture,
    wounds, flesh_wounds, broken, out_of_ammo (see Game.setup). Then call
    ``game.activate(name)`` to start the Action phase and select that fighter as its player
    would (the engine's select step: Broken fighters run, leaders name members). ``weapons`` /
    ``armours``: replacement tables (e.g. a copy with a trait added) for this game only.
    ``variant``: "core" or "house_legacy" (the rules variant)."""
    game = Game(board_spec, gangs, round_limit=round_limit, max_weapons=max_weapons, weapons=weapons,
                armours=armours, variant=variant)
    resolved = []
    for p in placements:
        p = dict(p)
        who = p.pop("fighter")
        f = game.fid(who)
        p["gang"], p["slot"] = divmod(f, game.dims.max_fighters)
        resolved.append(p)
    game.setup(resolved, seed=seed, start=False)
    return game


class CheckedAgent:
    """Wraps an agent (agents.Agent) for tests of whole games: every index it chooses must be legal,
    and acting must leave the game's dice untouched (an agent draws from its own generator). ``n``
    counts its decisions."""

    def __init__(self, agent):
        self.agent, self.encoder, self.name, self.n = agent, agent.encoder, agent.name, 0

    def reset(self, seed=None):
        self.agent.reset(seed)

    def act(self, obs, mask, game=None):
        rng = game.state.rng.copy()
        a = self.agent.act(obs, mask, game=game)
        assert mask[a], f"{self.name} chose illegal index {a}"
        assert np.array_equal(game.state.rng, rng), f"{self.name} drew from the game's dice"
        self.n += 1
        return a


def kind_of(game: Game, index: int) -> str:
    """The action kind's name (``codec.KIND_NAMES``: "move", "shoot", "charge", ...) of a flat index."""
    from .rulesets.necromunda.codec import KIND_NAMES, decode
    k, _, _ = decode(game.layout, game.dims.n_fighters, int(index))
    return KIND_NAMES[k]
