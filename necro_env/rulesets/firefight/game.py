"""A Firefight game as a Python object over the array core (a batch of one), as necromunda/game.py is.

``Game`` owns the board's static tables, one ``State``, the mask and the movement scratch; it turns ``Action``s
into indices, refuses an illegal index with ``IllegalActionError`` (the game unchanged) and decodes events.

    game = GameConfig().build().reset(seed=3)
    while not game.done:
        game.step(rng.choice(game.legal_actions()))
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...core.errors import IllegalActionError
from ...core.fastcall import Pinned
from ...core.rng import seed_game
from ...core.sight import SF_BLOCKS, SF_COVER, make_cells, make_rules
from . import codec as C
from . import data as D
from .codec import Action, Dims, make_layout
from .constants import (
    ACTION_NAMES, OPT_COHERENCY_CONNECTED, OPT_HEIGHTS, OPT_KEEP_AWAY_END_ONLY, OPT_KEEP_AWAY_ENEMY_ONLY, RULE_BIT,
    SCOUT_BAND_IN, TF_BLOCKS_SIGHT, TF_COVER, UNIT_STATE_NAMES, US_WAITING,
)
from .engine import begin, step as _step
from .combat_events import COMBAT_EVENT_FIELDS, COMBAT_EVENT_NAMES
from .events import EVENT_FIELDS, EVENT_NAMES
from .grid import new_scratch
from .paths import step_table
from .state import (
    DK_NAMES, G_ACTIVE, G_ATTACKER, G_CAST_SPELL, G_DEFENDER, G_DK, G_DONE, G_DPLAYER, G_EVN, G_EVOVF, G_FINISHED, G_FREE,
    G_OPTS, G_PUSHED, G_ROUND, G_ROUND_LIMIT, G_SCORE0, G_SCORE1, G_TRUNC, G_WINNER, M_ALIVE, M_WOUNDS, M_X, M_Y, O_ON,
    O_OWNER, O_X, O_Y, Static, U_ACTIVATED, U_CASTER, U_DEFENSE, U_FATIGUED, U_FEAR, U_IMPACT, U_N, U_POINTS,
    U_QUALITY, U_RQUALITY, U_RULES, U_SHAKEN, U_SIDE, U_SIZE, U_START, U_STATE, U_TOUGH, U_TYPE, W_AP, W_ATTACKS,
    W_BLAST, W_COUNT, W_DEADLY, W_ID, W_RANGE, W_RULES, alloc_state, clone_state,
)

# the engine's entry points called directly while the game's arrays stay the same objects (core/fastcall.py:
# numba's per-call dispatch types every array of the State, Static and Scratch tuples, 37 of them)
_STEP = Pinned(_step)
_BEGIN = Pinned(begin)

Event = namedtuple("Event", "kind actor target fields")
NAMES = {**EVENT_NAMES, **COMBAT_EVENT_NAMES}  # the loop's kinds and the combat modules' (64 and up)
FIELDS = {**EVENT_FIELDS, **COMBAT_EVENT_FIELDS}

KEEP_AWAY = ("all", "enemy")  # §13 Q10 / §13.1: which units the 1" rule counts
COHERENCY = ("literal", "connected")  # §13 Q11


def build_static(board: D.Board) -> Static:
    """Read-only tables of one board: terrain flags, heights, zones, Scout bands, sight cells (core/sight.py)."""
    flags = np.ascontiguousarray(board.flags, dtype=np.uint8)
    sflags = np.where(flags & TF_BLOCKS_SIGHT, SF_BLOCKS, 0) | np.where(flags & TF_COVER, SF_COVER, 0)
    height = np.ascontiguousarray(board.heights, dtype=np.int8)
    return Static(flags=flags.copy(), height=height.copy(),
                  zone=np.ascontiguousarray(board.deploy, dtype=np.int8).copy(),
                  sight=make_cells(sflags.astype(np.int64), height.astype(np.int64)),
                  sight_rules=make_rules("permissive"), band=scout_band(board), steps=step_table(flags, height))


def scout_band(board: D.Board) -> np.ndarray:
    """§10 Scout, §13 Q24: cells within 12" in front of each deployment zone (24" from its table edge)."""
    band = np.full((board.height, board.width), -1, np.int8)
    depth = D.ZONE_DEPTH + SCOUT_BAND_IN
    if board.deployment == "top_bottom":
        band[board.height - depth:, :] = 1
        band[:depth, :] = 0
    else:
        band[:, board.width - depth:] = 1
        band[:, :depth] = 0
    return band


def options_bits(keep_away: str, keep_away_path: bool, coherency: str, heights: bool) -> int:
    if keep_away not in KEEP_AWAY:
        raise ValueError(f"keep_away={keep_away!r}; allowed: {', '.join(KEEP_AWAY)} (firefight.md §13 Q10)")
    if coherency not in COHERENCY:
        raise ValueError(f"coherency={coherency!r}; allowed: {', '.join(COHERENCY)} (firefight.md §13 Q11)")
    return ((OPT_KEEP_AWAY_ENEMY_ONLY if keep_away == "enemy" else 0)
            | (0 if keep_away_path else OPT_KEEP_AWAY_END_ONLY)
            | (OPT_COHERENCY_CONNECTED if coherency == "connected" else 0) | (OPT_HEIGHTS if heights else 0))


class Game:
    """One Firefight game between two army lists (data.ArmyList) on a board (data.Board).

    round_limit: rounds of the mission (§2.4: 4). keep_away, keep_away_path, coherency: the §13 switches
    (defaults: the literal rules of §13.1). heights: §11 on (jumps, falls); §12.1's default is a flat board.
    max_units / max_models / max_weapons: slots (default: what the lists need).
    """

    ruleset = "firefight"

    def __init__(self, board: D.Board, lists, *, round_limit: int = 4, keep_away: str = "all",
                 keep_away_path: bool = True, coherency: str = "literal", heights: bool = False,
                 max_units: int | None = None, max_models: int | None = None, max_weapons: int | None = None):
        self.board = board
        self.lists = tuple(lists)
        if len(self.lists) != 2:
            raise ValueError(f"a Firefight game has 2 armies, got {len(self.lists)} lists")
        if isinstance(round_limit, bool) or not isinstance(round_limit, int) or not 1 <= round_limit <= 99:
            raise ValueError(f"round_limit={round_limit!r}; allowed: a whole number 1..99 (the mission has 4, §2.4)")
        self.round_limit = round_limit
        self.opts = options_bits(keep_away, keep_away_path, coherency, heights)
        self._names(max_units, max_models, max_weapons)
        self.dims = Dims(self.max_units, self.max_models, self.max_weapons, board.height, board.width)
        self.layout = make_layout(self.dims)
        self.n_actions = int(self.layout[-1])
        self.static = build_static(board)
        self.state = alloc_state(1, self.max_units, self.max_models, self.max_weapons)
        self.mask = np.zeros((1, self.n_actions), np.bool_)
        self.scratch = new_scratch(board.height * board.width, self.max_models, self.max_units)
        self._template = None

    def _names(self, max_units, max_models, max_weapons):
        units = [u for lst in self.lists for u in lst.units]
        need = {"max_units": max(len(lst.units) for lst in self.lists), "max_models": max(u.size for u in units),
                "max_weapons": max(len(u.equipment) for u in units)}
        given = {"max_units": max_units, "max_models": max_models, "max_weapons": max_weapons}
        for key, n in need.items():
            v = given[key] if given[key] is not None else n
            if not isinstance(v, int) or v < n or v > 64:
                raise ValueError(f"{key}={given[key]!r}; allowed: a whole number {n}..64 (the lists need {n})")
            setattr(self, key, v)
        self.weapon_names = sorted({w for lst in self.lists for w in lst.army.weapons})
        self.type_names = sorted({u.unit for u in units})
        self.unit_names = [[u.label for u in lst.units] for lst in self.lists]

    # ------------------------------------------------------------------ set-up
    def template(self):
        """The seed-independent start: every unit loaded and waiting to deploy, nothing placed."""
        if self._template is None:
            s = alloc_state(1, self.max_units, self.max_models, self.max_weapons)
            s.g[0, G_ROUND_LIMIT] = self.round_limit
            s.g[0, G_OPTS] = self.opts
            s.g[0, G_WINNER] = -1
            for k in (G_ACTIVE, G_FINISHED, G_FREE, G_ATTACKER, G_DEFENDER, G_PUSHED, G_CAST_SPELL):
                s.g[0, k] = -1
            for side, lst in enumerate(self.lists):
                for i, unit in enumerate(lst.units):
                    self._load_unit(s, side * self.max_units + i, side, unit, lst.army)
            self._template = s
        return self._template

    def _load_unit(self, s, u, side, unit, army):
        row = s.u[0, u]
        row[U_STATE], row[U_SIDE], row[U_N], row[U_SIZE] = US_WAITING, side, unit.size, unit.size
        row[U_QUALITY], row[U_RQUALITY], row[U_DEFENSE] = unit.quality, unit.ranged_quality, unit.defense
        row[U_RULES] = sum(RULE_BIT[r] for r in unit.rules if r in RULE_BIT)
        row[U_TOUGH], row[U_IMPACT] = unit.rules.get("Tough", 0), unit.rules.get("Impact", 0)
        row[U_CASTER], row[U_FEAR] = unit.rules.get("Caster", 0), unit.rules.get("Fear", 0)
        row[U_TYPE], row[U_POINTS], row[U_START] = self.type_names.index(unit.unit), unit.cost, 1
        for k, name in enumerate(unit.equipment):
            wp = army.weapons[name]
            w = s.w[0, u, k]
            w[W_ID], w[W_COUNT], w[W_RANGE], w[W_ATTACKS], w[W_AP] = (self.weapon_names.index(name), unit.size,
                                                                        wp.range, wp.attacks, wp.ap)
            w[W_RULES] = sum(RULE_BIT[r] for r in wp.rules if r in RULE_BIT)
            w[W_BLAST], w[W_DEADLY] = wp.rules.get("Blast", 0), wp.rules.get("Deadly", 0)

    def _load_template(self):
        for a, t in zip(self.state, self.template()):
            a[...] = t

    def reset(self, seed: int = 0, dice=None):
        """A new game from the start of the set-up (§2.4, §2.5): roll-offs, then the first decision. ``dice``:
        scripted D6 faces to use from the first roll on (tests), instead of the seeded generator."""
        self._load_template()
        seed_game(self.state.rng, 0, np.uint64(int(seed) & 0xFFFFFFFFFFFFFFFF))
        if dice is not None:
            self.script_dice(dice)
        _BEGIN(self.state, self.static, 0, self.layout, self.mask, self.scratch)
        return self

    # ------------------------------------------------------------------ dice
    def script_dice(self, faces):
        """Replace the generator by these D6 faces; running out raises RuntimeError."""
        faces = list(faces)
        if len(faces) > self.state.script.shape[1] or any(f not in range(1, 7) for f in faces):
            raise ValueError(f"scripted dice: at most {self.state.script.shape[1]} faces, each 1..6; got {faces!r:.80}")
        self.state.script[0, :] = 0
        self.state.script[0, :len(faces)] = faces
        self.state.spos[0] = (0, len(faces))

    def dice_left(self):
        sp = self.state.spos[0]
        return int(sp[1] - sp[0]) if sp[1] >= 0 else None

    def use_generator(self):
        self.state.spos[0, :] = -1

    # ------------------------------------------------------------------ queries
    @property
    def decision(self):
        g = self.state.g[0]
        return DK_NAMES.get(int(g[G_DK]), "none"), int(g[G_DPLAYER])

    @property
    def current_side(self) -> int:
        return int(self.state.g[0, G_DPLAYER])

    @property
    def done(self) -> bool:
        return bool(self.state.g[0, G_DONE])

    @property
    def truncated(self) -> bool:
        return bool(self.state.g[0, G_TRUNC])

    @property
    def winner(self) -> int:
        return int(self.state.g[0, G_WINNER])

    @property
    def round(self) -> int:
        return int(self.state.g[0, G_ROUND])

    @property
    def active_unit(self) -> int:
        return int(self.state.g[0, G_ACTIVE])

    @property
    def scores(self) -> tuple[int, int]:
        return int(self.state.g[0, G_SCORE0]), int(self.state.g[0, G_SCORE1])

    def uid(self, unit) -> int:
        """Global unit slot from an int, a (side, slot) pair or a unique unit label."""
        if isinstance(unit, (int, np.integer)) and not isinstance(unit, bool):
            return int(unit)
        if isinstance(unit, tuple) and len(unit) == 2:
            return unit[0] * self.max_units + unit[1]
        hits = [(s, i) for s, names in enumerate(self.unit_names) for i, n in enumerate(names) if n == unit]
        if len(hits) != 1:
            raise KeyError(f"no unique unit named {unit!r}; units: {self.unit_names}")
        return self.uid(hits[0])

    def models(self, unit) -> list[tuple[int, int]]:
        """Cells (x, y) of the unit's living models, in slot order."""
        m = self.state.m[0, self.uid(unit)]
        return [(int(r[M_X]), int(r[M_Y])) for r in m if r[M_ALIVE]]

    def unit(self, unit) -> dict:
        u = self.uid(unit)
        row = self.state.u[0, u]
        side, i = divmod(u, self.max_units)
        return {"index": u, "side": side, "slot": i,
                "name": self.unit_names[side][i] if i < len(self.unit_names[side]) else None,
                "state": UNIT_STATE_NAMES[int(row[U_STATE])], "models": self.models(u), "alive": int(row[U_N]),
                "shaken": bool(row[U_SHAKEN]), "fatigued": bool(row[U_FATIGUED]), "activated": bool(row[U_ACTIVATED]),
                "wounds": [int(r[M_WOUNDS]) for r in self.state.m[0, u] if r[M_ALIVE]]}

    def objectives(self) -> list[dict]:
        o = self.state.obj[0]
        return [{"cell": (int(r[O_X]), int(r[O_Y])), "owner": int(r[O_OWNER])} for r in o if r[O_ON]]

    def events(self, kind: str | None = None):
        """Events written by the last step (or by reset), decoded."""
        if self.state.g[0, G_EVOVF]:
            raise RuntimeError("event buffer overflowed during the last step")
        out = []
        for row in self.state.ev[0, :int(self.state.g[0, G_EVN])]:
            k = int(row[0])
            fields = {nm: int(v) for nm, v in zip(FIELDS.get(k, ()), row[3:])}
            ev = Event(NAMES.get(k, str(k)), int(row[1]), int(row[2]), fields)
            if kind is None or ev.kind == kind:
                out.append(ev)
        return out

    def battle_log(self) -> list[str]:
        """The last step's events as text lines."""
        from .log import event_text
        return [event_text(self, ev) for ev in self.events()]

    # ------------------------------------------------------------------ actions
    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.mask[0])

    def encode(self, action: Action) -> int:
        """Action -> flat index, for the side deciding now; IllegalActionError if it cannot be encoded."""
        kind = C.KIND_INDEX.get(action.kind)
        if kind is None:
            raise IllegalActionError(action, f"unknown action kind {action.kind!r}; allowed: {', '.join(C.KIND_NAMES)}")
        pk = C.KINDS[kind][1]
        return int(self.layout[kind] + self._param(action, pk))

    def _param(self, action, pk) -> int:
        d = self.dims
        if pk == C.P_NONE:
            return 0
        if pk == C.P_UNIT:
            return self._slot(action, action.unit, self.current_side, "unit")
        if pk == C.P_ENEMY:
            return self._slot(action, action.target, 1 - self.current_side, "target")
        if pk == C.P_CELL:
            if not (isinstance(action.cell, tuple) and len(action.cell) == 2
                    and 0 <= action.cell[0] < d.width and 0 <= action.cell[1] < d.height):
                raise IllegalActionError(action, f"cell={action.cell!r}; allowed: (x, y) on the {d.width}x{d.height} board")
            return action.cell[1] * d.width + action.cell[0]
        if pk == C.P_ACTION:
            if action.action not in ACTION_NAMES:
                raise IllegalActionError(action, f"action={action.action!r}; allowed: {', '.join(ACTION_NAMES)}")
            return ACTION_NAMES.index(action.action)
        if pk == C.P_SPELL_UNIT:
            from .spells import SPELL_NAMES
            if action.spell not in SPELL_NAMES:
                raise IllegalActionError(action, f"spell={action.spell!r}; allowed: {', '.join(SPELL_NAMES)}")
            u = self._any_unit(action, action.target)
            side, slot = divmod(u, self.max_units)
            return SPELL_NAMES.index(action.spell) * 2 * self.max_units + ((side - self.current_side) % 2) * self.max_units + slot
        if pk == C.P_HELP:
            if isinstance(action.tokens, bool) or not isinstance(action.tokens, int) or abs(action.tokens) > C.HELP_MAX:
                raise IllegalActionError(action, f"tokens={action.tokens!r}; allowed: a whole number -{C.HELP_MAX}..{C.HELP_MAX}")
            return action.tokens + C.HELP_MAX
        if pk == C.P_YESNO:
            if not isinstance(action.choice, bool):
                raise IllegalActionError(action, f"choice={action.choice!r}; allowed: True or False")
            return int(action.choice)
        if action.edge not in (0, 1):
            raise IllegalActionError(action, f"edge={action.edge!r}; allowed: 0 or 1")
        return action.edge

    def _any_unit(self, action, ref) -> int:
        if ref is None:
            raise IllegalActionError(action, "this action needs target=<(side, slot) or a unit name>")
        try:
            u = self.uid(ref)
        except KeyError as exc:
            raise IllegalActionError(action, str(exc.args[0])) from None
        if not 0 <= u < 2 * self.max_units:
            raise IllegalActionError(action, f"target={ref!r}; allowed: a unit 0..{2 * self.max_units - 1}")
        return u

    def _slot(self, action, ref, side, what) -> int:
        if ref is None:
            raise IllegalActionError(action, f"this action needs {what}=<slot, (side, slot) or name>")
        if isinstance(ref, (int, np.integer)) and not isinstance(ref, bool):
            if not 0 <= ref < self.max_units:
                raise IllegalActionError(action, f"{what}={ref}; allowed: a slot 0..{self.max_units - 1}")
            return int(ref)
        try:
            u = self.uid(ref)
        except KeyError as exc:
            raise IllegalActionError(action, str(exc.args[0])) from None
        s, i = divmod(u, self.max_units)
        if s != side:
            raise IllegalActionError(action, f"{what} {ref!r} belongs to side {s}; this needs side {side}")
        return i

    def describe(self, index: int) -> str:
        kind, p = (int(v) for v in C.decode(self.layout, int(index)))
        return f"{C.KIND_NAMES[kind]}({p})"

    def step(self, index: int):
        """Apply a flat action index; IllegalActionError (the game unchanged) if it is not legal now."""
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise IllegalActionError(index, f"an action index is a whole number 0..{self.n_actions - 1}")
        index = int(index)
        if not 0 <= index < self.n_actions:
            raise IllegalActionError(index, f"index outside the action space [0, {self.n_actions})")
        if self.done:
            raise IllegalActionError(self.describe(index), "the game is over")
        if not self.mask[0, index]:
            raise IllegalActionError(self.describe(index), f"not legal at the {self.decision[0]} decision of side "
                                                           f"{self.current_side}")
        _STEP(self.state, self.static, 0, self.layout, index, self.mask, self.scratch)
        return self

    def act(self, kind: str, **kw):
        """Apply ``Action(kind, **kw)`` (the scenario-test API)."""
        return self.step(self.encode(Action(kind, **kw)))

    def can(self, kind: str, **kw) -> bool:
        try:
            return bool(self.mask[0, self.encode(Action(kind, **kw))])
        except IllegalActionError:
            return False

    def clone(self) -> "Game":
        g = object.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.state = clone_state(self.state)
        g.mask = self.mask.copy()
        g.scratch = new_scratch(self.board.height * self.board.width, self.max_models, self.max_units)
        return g
