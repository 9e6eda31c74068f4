"""Scenario tests for Firefight (the counterpart of necro_env/testing.py; docs/rules_firefight.md, "§12 grid").

Build a small board from text, put units of the starter armies on cells, fix the dice, act by name::

    from necro_env.rulesets.firefight.testing import board, unit, scenario

    b = board('''
        ..........
        ....RR....
    ''')
    game = scenario(b, [unit("human_defense_force", "infantry_squad", cells=[(1, 1), (2, 1), (3, 1)])],
                    [unit("orc_marauders", "orc_biker", cells=[(8, 8)])])
    game.activate("Infantry Squad")
    game.act("action", action="advance")
    game.act("cell", cell=(1, 5))

Map legend: data.LEGEND ('.' open, 'R' ruins, 'W' woods, 'b' barricade, '~' dangerous, '#' impassable, 'P'
platform). Zones: rows 0-11 and the last 12 rows (top_bottom). The game starts in round 1 at the select decision
of side 0 (``first``), both sides' units unactivated; ``activate`` hands the turn to a unit's side and selects it
as its player would.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass

import numpy as np

from ...core.rng import seed_game
from . import data as D
from .constants import US_DEAD, US_ON
from .engine import advance
from .game import Game
from .state import (
    DK_NONE, G_DK, G_EVN, G_FIRST, G_OBJ_PLACED, G_PHASE, G_ROLLOFF, G_ROUND, G_TURN, G_ZONE0, M_ALIVE,
    M_WOUNDS, M_X, M_Y, M_Z, O_ON, O_OWNER, O_X, O_Y, PH_ROUND, U_ACTIVATED, U_ARRIVED, U_FATIGUED, U_N, U_SHAKEN,
    U_STATE, U_TOKENS,
)

_ARMIES: dict = {}


def board(text: str, *, heights=None, deployment: str = "top_bottom", name: str = "test") -> D.Board:
    """A board from rows of map characters (row 0 is y = 0); ``heights``: rows of '0'-'f' or an int array."""
    rows = [r.strip() for r in textwrap.dedent(text).strip("\n").splitlines() if r.strip()]
    h, w = len(rows), len(rows[0])
    if any(len(r) != w for r in rows):
        raise ValueError("board rows must all have the same length")
    codes = {ch: i for i, ch in enumerate(D.LEGEND)}
    bad = sorted({ch for r in rows for ch in r} - set(codes))
    if bad:
        raise ValueError(f"unknown map character(s) {bad}; {D.LEGEND_HELP}")
    kinds = np.array([[codes[ch] for ch in r] for r in rows], np.uint8)
    flags = np.array([f for _, f in D.LEGEND.values()], np.uint8)[kinds]
    if heights is None:
        hz = np.zeros((h, w), np.int8)
    elif isinstance(heights, str):
        hrows = [r.strip() for r in textwrap.dedent(heights).strip("\n").splitlines() if r.strip()]
        hz = np.array([[int(ch, 16) for ch in r] for r in hrows], np.int8)
    else:
        hz = np.asarray(heights, np.int8)
    if hz.shape != (h, w):
        raise ValueError(f"heights have shape {hz.shape}; the map is {(h, w)}")
    return D.Board(name, "", h, w, flags, hz, D.zones(h, w, deployment), kinds, D.count_pieces(kinds), deployment,
                   "<test>")


@dataclass(frozen=True)
class UnitSpec:
    army: D.Army
    unit: D.ListUnit
    cells: tuple  # where its models stand; () = not on the table
    shaken: bool = False
    fatigued: bool = False
    wounds: int = 0  # wound markers on its last model


def _army(name):
    if name not in _ARMIES:
        _ARMIES[name] = D.load_army(f"firefight/armies/{name}.yaml")
    return _ARMIES[name]


def unit(army: str, name: str, *, cells=(), label: str | None = None, rules: dict | None = None,
         shaken: bool = False, fatigued: bool = False, wounds: int = 0, equipment=None) -> UnitSpec:
    """A unit of a starter army (configs/firefight/armies/<army>.yaml) with as many models as ``cells``; ``rules``
    adds or overrides special rules ({"Fast": 0, "Tough": 3}); ``equipment`` replaces its weapons."""
    a = _army(army)
    t = a.units[name]
    merged = dict(t.rules, **(rules or {}))
    size = max(1, len(cells))
    lu = D.ListUnit(t.name, label or t.label, (), size, t.quality, t.defense, t.ranged_quality, merged,
                    tuple(equipment) if equipment is not None else t.equipment, t.cost)
    return UnitSpec(a, lu, tuple(tuple(c) for c in cells), shaken, fatigued, wounds)


class ScenarioGame(Game):
    """A Game set up by ``scenario`` (round 1 under way, units on their cells)."""

    def activate(self, unit):
        """Give the turn to the unit's side and select the unit (the select decision, as in play)."""
        u = self.uid(unit)
        side, slot = divmod(u, self.max_units)
        s = self.state
        s.g[0, G_TURN] = side
        s.g[0, G_DK] = DK_NONE
        s.g[0, G_EVN] = 0
        advance(s, self.static, 0, self.layout, self.mask, self.scratch)
        if self.decision != ("select_unit", side):
            raise ValueError(f"activate({unit!r}): the game awaits {self.decision}")
        return self.act("select", unit=slot)

    def place_objective(self, x: int, y: int, owner: int = -1):
        s = self.state
        k = int(s.g[0, G_OBJ_PLACED])
        s.obj[0, k] = 0
        s.obj[0, k, O_X], s.obj[0, k, O_Y], s.obj[0, k, O_ON], s.obj[0, k, O_OWNER] = x, y, 1, owner
        s.g[0, G_OBJ_PLACED] = k + 1
        return self

    def set_unit(self, unit, *, shaken=None, fatigued=None, activated=None, arrived=None, state=None, tokens=None):
        row = self.state.u[0, self.uid(unit)]
        for col, v in ((U_SHAKEN, shaken), (U_FATIGUED, fatigued), (U_ACTIVATED, activated), (U_ARRIVED, arrived),
                       (U_STATE, state), (U_TOKENS, tokens)):
            if v is not None:
                row[col] = int(v)
        return self


def scenario(b: D.Board, side0, side1, *, first: int = 0, round_: int = 1, seed: int = 0,
             **options) -> ScenarioGame:
    """A game on board ``b`` with the units of side0 / side1 (UnitSpecs) on their cells, in round ``round_`` with
    side ``first`` to activate, its dice from the generator seeded with ``seed`` until ``script_dice``.
    ``options``: Game's keywords (keep_away, keep_away_path, coherency, heights, round_limit)."""
    lists = []
    for specs in (side0, side1):
        army = specs[0].army if specs else _army("human_defense_force")
        units = tuple(sp.unit for sp in specs) or (unit("human_defense_force", "commander").unit,)
        lists.append(D.ArmyList("test", "", army, 1000, False, units, sum(u.cost for u in units), "<test>"))
    game = ScenarioGame(b, lists, **options)
    s = game.state
    for a, t in zip(s, game.template()):
        a[...] = t
    seed_game(s.rng, 0, np.uint64(seed))
    for side, specs in enumerate((side0, side1)):
        for i, sp in enumerate(specs):
            _put(game, side * game.max_units + i, sp)
        for i in range(len(specs), game.max_units):
            s.u[0, side * game.max_units + i, U_STATE] = US_DEAD if i < len(lists[side].units) else 0
    s.g[0, G_PHASE], s.g[0, G_ROUND], s.g[0, G_ZONE0], s.g[0, G_ROLLOFF] = PH_ROUND, round_, 0, first
    s.g[0, G_FIRST], s.g[0, G_TURN], s.g[0, G_DK] = first, first, DK_NONE
    advance(s, game.static, 0, game.layout, game.mask, game.scratch)
    return game


def _put(game, u, sp: UnitSpec):
    s = game.state
    if not sp.cells:
        s.u[0, u, U_STATE] = US_DEAD
        return
    s.u[0, u, U_STATE], s.u[0, u, U_N] = US_ON, len(sp.cells)
    s.u[0, u, U_SHAKEN], s.u[0, u, U_FATIGUED] = int(sp.shaken), int(sp.fatigued)
    for i, (x, y) in enumerate(sp.cells):
        m = s.m[0, u, i]
        m[M_X], m[M_Y], m[M_Z], m[M_ALIVE] = x, y, game.board.heights[y, x], 1
    s.m[0, u, len(sp.cells) - 1, M_WOUNDS] = sp.wounds
