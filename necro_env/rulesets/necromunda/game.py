"""A Necromunda game as a Python object over the array core (batch of one).

``Game`` is what the environments, agents and rule tests use: it owns the
static tables, one ``State`` and the action mask, translates ``Action`` objects
to indices, checks legality (``IllegalActionError`` with the reason, the game
left unchanged) and decodes the event buffer.
"""
from __future__ import annotations

import hashlib
from collections import namedtuple

import numpy as np

from ...config import ArmourTable, BoardSpec, WeaponTable, load_armours, load_weapons
from ...config.loader import check_mounted_loadout
from ...core.errors import IllegalActionError  # noqa: F401  (raised here; re-exported for the rules' users)
from ...core.fastcall import Pinned
from ...core.geometry import build_arc_table, build_los_tables
from ...core.rng import seed_game
from ...core.terrain import FACING_NAMES
from . import codec as C
from .codec import Action, Dims, make_layout
from .constants import CH_W, NCH
from .deploy import reset_game
from .engine import advance, begin, step as _step
from .events import EVENT_FIELDS, EVENT_NAMES
from .state import (
    COND_NAMES, FI_COND,
    CK_STATE, CK_X, CK_Y, DK_NAMES, DR_STATE, DR_WOUNDS, FI_ARMOUR, FI_BODYGLOVE, FI_BROKEN, FI_CH, FI_FACING,
    FI_FIELD, FI_SHIELD, FI_FLESH, FI_GA, FI_HIER, FI_POSTURE, FI_READY, FI_ROLE, FI_STATE, FI_TYPE, FI_WOUNDS, FI_X, FI_Y,
    FS_ON, G_ACTIVE, G_DGANG, G_DK, G_DONE, G_EVN, G_EVOVF, G_FU, G_LASTPRIO, G_MF, G_NGANGS, G_PHASE,
    G_PRIORITY, G_ROUND, G_ROUND_LIMIT, G_TRUNC, G_TURN, G_WINNER, GG_CREW, GG_ORDER, PH_ACTION, PO_PINNED,
    PO_SI, PO_STANDING, Static, WP_ID, alloc_state, clone_state, FI_Z, G_CHF, G_GGANG, G_VARIANT, VARIANTS,
    G_GLEFT, G_GNAME, G_GROUP,
)

Event = namedtuple("Event", "kind actor target fields")

POSTURES = {"standing": PO_STANDING, "pinned": PO_PINNED, "seriously_injured": PO_SI}
POSTURE_NAMES = {v: k for k, v in POSTURES.items()}


# engine.step through its compiled entry point while the game's arrays stay the same objects
# (core/fastcall.py: saves numba's dispatch, about 4 us of a decision's 10)
_STEP = Pinned(_step)

_STATIC_CACHE: dict = {}
_STATIC_CACHE_MAX = 16  # boards kept (oldest dropped): generated boards, a new one per reset, must not pile up


def build_static(board: BoardSpec, weapons: WeaponTable, armours: ArmourTable) -> Static:
    """Read-only tables for one board and data set (LOS tables cached per board content)."""
    key = hashlib.sha1(board.terrain.tobytes() + board.doors[:, :2].tobytes()
                       + str(board.terrain.shape).encode() + board.heights.tobytes()).hexdigest()
    h, w = board.terrain.shape
    door_of_cell = np.full((h, w), -1, np.int16)
    for i, (x, y, _) in enumerate(board.doors):
        door_of_cell[y, x] = i
    if key not in _STATIC_CACHE:
        if len(board.doors) > 32:
            raise ValueError(f"board {board.name}: at most 32 doors are supported, got {len(board.doors)}")
        wall, obst, door = build_los_tables(board.terrain.astype(np.int8), door_of_cell,
                                            board.heights.astype(np.int8))
        while len(_STATIC_CACHE) >= _STATIC_CACHE_MAX:
            _STATIC_CACHE.pop(next(iter(_STATIC_CACHE)))
        _STATIC_CACHE[key] = (wall, obst, door, build_arc_table(h, w))
    wall, obst, door, arc = _STATIC_CACHE[key]
    # Fresh writable C-contiguous copies: numba types readonly and writable arrays differently, and
    # one Static type for every source (config files load readonly, tests build writable arrays)
    # means the engine is compiled once.
    def arr(a, dtype, shape=None):
        out = np.array(a, dtype=dtype, copy=True, order="C")
        return out.reshape(shape) if shape is not None else out

    return Static(
        terrain=arr(board.terrain, np.int8),
        door_of_cell=door_of_cell,
        door_xy=arr(board.doors[:, :2], np.int32, (-1, 2)),
        term=arr(board.terminals, np.int32, (-1, 3)),
        duct=arr(board.ductways, np.int32, (-1, 4)),
        deploy=arr(board.deploy, np.int8),
        los_wall=wall,
        los_obst=obst,
        los_door=door,
        arc=arc,
        wprof=arr(weapons.profiles, np.int32),
        armour=arr(armours.table, np.int32),
        height=arr(board.heights, np.int8),
        feat=arr(board.features, np.int8),
        levels=np.array([1 if np.any(board.heights) else 0], np.int8),  # movement.has_levels
    )


class Game:
    """One Necromunda game (core rules) on a board with gangs from configs.

    Parameters
    ----------
    board, gangs: loaded specs (``necro_env.config``).
    round_limit: the game is truncated (a draw) after this many rounds.
    max_fighters: fighter slots per gang (default: the largest gang).
    max_weapons: weapon items per fighter (default 4).
    max_doors / max_caskets: sizes of the door and casket action ranges.
    variant: "core" (default) or "house_legacy" (docs/rules.md, House Legacy variant).
    """

    ruleset = "necromunda"  # its name in the registry (necro_env.rulesets.get): generic code finds the rest there

    def __init__(self, board: BoardSpec, gangs, *, weapons: WeaponTable | None = None,
                 armours: ArmourTable | None = None, round_limit: int = 12, max_fighters: int | None = None,
                 max_weapons: int = 4, max_doors: int | None = None, max_caskets: int | None = None,
                 variant: str = "core"):
        if variant not in VARIANTS:
            raise ValueError(f"variant {variant!r} is not known; allowed: {', '.join(VARIANTS)}")
        self.variant = variant
        self.board = board
        self.gangs = tuple(gangs)
        if len(self.gangs) < 2:
            raise ValueError("a game needs at least 2 gangs")
        self.weapons = weapons or load_weapons()
        self.armours = armours or load_armours()
        self.round_limit = int(round_limit)
        mf = max_fighters or max(len(g.fighters) for g in self.gangs)
        if mf > 30:
            raise ValueError(f"at most 30 fighter slots per gang are supported (group activation bit masks), got {mf}")
        for g in self.gangs:
            if len(g.fighters) > mf:
                raise ValueError(f"gang {g.name} has {len(g.fighters)} fighters but max_fighters is {mf}")
        from ...warmup import on_first_game

        on_first_game()  # a cold numba cache compiles on every core first (necro_env.warmup)
        nd = max_doors if max_doors is not None else max(1, len(board.doors))
        nk = max_caskets if max_caskets is not None else max(1, len(board.caskets))
        self.dims = Dims(len(self.gangs), mf, max_weapons, board.height, board.width, nd, nk)
        self.layout = make_layout(self.dims)
        self.n_actions = int(self.layout[-1])
        self.static = build_static(board, self.weapons, self.armours)
        self.state = alloc_state(1, len(self.gangs), mf, max_weapons, nd, nk)
        self.mask = np.zeros((1, self.n_actions), np.bool_)
        self.fighter_names = [[f.name for f in g.fighters] for g in self.gangs]
        self._type_names: list[str] = []
        self._template = None

    # ------------------------------------------------------------------ set-up
    def _clear(self, seed):
        s = self.state
        for a in s:
            a[...] = 0
        s.wp[..., WP_ID] = -1
        s.spos[:] = -1
        s.g[0, G_NGANGS] = len(self.gangs)
        s.g[0, G_MF] = self.dims.max_fighters
        s.g[0, G_ROUND_LIMIT] = self.round_limit
        s.g[0, G_ACTIVE] = -1
        s.g[0, G_FU] = -1
        s.g[0, G_LASTPRIO] = -1
        s.g[0, G_WINNER] = -1
        s.g[0, G_VARIANT] = VARIANTS[self.variant]
        s.g[0, G_GGANG] = -1
        s.g[0, G_CHF] = -1
        seed_game(s.rng, 0, np.uint64(seed & 0xFFFFFFFFFFFFFFFF))
        for d, (x, y, st0) in enumerate(self.board.doors):
            s.door[0, d, DR_STATE] = st0
            s.door[0, d, DR_WOUNDS] = 4
        for k, (x, y) in enumerate(self.board.caskets):
            s.casket[0, k, CK_X] = x
            s.casket[0, k, CK_Y] = y
            s.casket[0, k, CK_STATE] = 1
        for g, gang in enumerate(self.gangs):
            s.gang[0, g, GG_CREW] = len(gang.fighters)
            s.gang[0, g, GG_ORDER] = g

    def _put_fighter(self, g, i, spec, x, y, facing):
        s = self.state
        f = g * self.dims.max_fighters + i
        fi = s.fi[0, f]
        fi[FI_STATE] = FS_ON
        fi[FI_X], fi[FI_Y], fi[FI_FACING] = x, y, facing
        fi[FI_Z] = self.board.heights[y, x]
        fi[FI_POSTURE] = PO_STANDING
        fi[FI_CH:FI_CH + NCH] = spec.chars
        fi[FI_WOUNDS] = spec.chars[CH_W]
        fi[FI_ROLE] = spec.role
        fi[FI_ARMOUR] = spec.armour
        fi[FI_BODYGLOVE] = int(spec.bodyglove)
        fi[FI_FIELD] = int(spec.field_armour)
        fi[FI_SHIELD] = int(spec.shield)
        fi[FI_COND] = int(spec.start_conditions)  # conditions from before the battle (gang file start_conditions)
        fi[FI_GA] = spec.group_activation
        fi[FI_HIER] = spec.gang_hierarchy
        if spec.type_name not in self._type_names:
            self._type_names.append(spec.type_name)
        fi[FI_TYPE] = self._type_names.index(spec.type_name)
        if len(spec.weapons) > self.dims.max_weapons:
            raise ValueError(f"fighter {spec.name} carries {len(spec.weapons)} weapons; max_weapons is "
                             f"{self.dims.max_weapons}")
        for j, wid in enumerate(spec.weapons):
            s.wp[0, f, j, WP_ID] = wid
        return f

    def template(self):
        """The seed-independent start state (a batch of one): fighters, weapons, doors and
        caskets set up, nobody placed yet. ``deploy.reset_game`` turns it into a deployed
        game for a seed; the batched core (``necro_env.batch``) uses the same template."""
        if self._template is None:
            for g, gang in enumerate(self.gangs):
                zone = int(np.count_nonzero(self.board.deploy == g))
                if zone < len(gang.fighters):
                    raise ValueError(f"board {self.board.name}: deployment zone {g} has {zone} cells, "
                                     f"gang {gang.name} needs {len(gang.fighters)}")
            self._clear(0)
            for g, gang in enumerate(self.gangs):
                for i, spec in enumerate(gang.fighters):
                    self._put_fighter(g, i, spec, 0, 0, 0)
            self._template = clone_state(self.state)
        return self._template

    def reset(self, seed: int = 0):
        """Deploy the gangs at random in their zones (the game's own seeded generator,
        ``deploy.reset_game``) and run to the first decision."""
        reset_game(self.state, self.static, 0, self.layout, self.mask, self.template(),
                   np.uint64(int(seed) & 0xFFFFFFFFFFFFFFFF))
        return self

    def setup(self, placements, *, seed: int = 0, start: bool = True):
        """Place fighters explicitly: placements is a list of dicts with keys
        gang, slot (index into the gang's fighters), cell (x, y), and optional
        facing (0-7 or "N".."NW"), posture ("standing", "pinned",
        "seriously_injured"), wounds, flesh_wounds, broken, ready,
        out_of_ammo (list of item slots), conditions (names from
        state.COND_NAMES, e.g. ["blaze", "gunked"]; "webbed" implies
        posture "seriously_injured" unless a posture is given). Fighters not listed are not on the
        board. With start=True the first Priority phase is rolled."""
        self._clear(seed)
        for p in placements:
            g = p["gang"]
            i = p["slot"]
            spec = self.gangs[g].fighters[i]
            facing = p.get("facing", 0)
            if isinstance(facing, str):
                facing = FACING_NAMES.index(facing)
            x, y = p["cell"]
            f = self._put_fighter(g, i, spec, x, y, facing)
            fi = self.state.fi[0, f]
            fi[FI_POSTURE] = POSTURES[p.get("posture", "standing")]
            if "wounds" in p:
                fi[FI_WOUNDS] = p["wounds"]
            fi[FI_FLESH] = p.get("flesh_wounds", 0)
            fi[FI_BROKEN] = int(p.get("broken", False))
            for cname in p.get("conditions", ()):
                if cname not in COND_NAMES:
                    raise ValueError(f"placement of fighter ({g}, {i}): unknown condition {cname!r}; "
                                     f"allowed: {', '.join(COND_NAMES)}")
                if cname == "mounted":  # Hands Full loadout limits (4.3)
                    check_mounted_loadout(spec, self.weapons, self.gangs[g].source,
                                          f"fighters[{i}] ({spec.name}) weapons")
                fi[FI_COND] |= COND_NAMES[cname]
                if cname == "webbed" and "posture" not in p:
                    fi[FI_POSTURE] = PO_SI  # Webbed is treated as Seriously Injured (4.3)
            for item in p.get("out_of_ammo", ()):
                self.state.wp[0, f, item, 1] = 1
        if start:
            begin(self.state, self.static, 0, self.layout, self.mask)
        return self

    def activate(self, fighter, *, priority: int = 0, round_: int = 1, ready_all: bool = True):
        """Start the Action phase of round ``round_`` and select ``fighter`` as its player would
        (rule tests).

        No dice are rolled for Priority: gang ``priority`` holds it and the fighter's gang has the
        turn. ``ready_all``: every fighter on the battlefield gets a Ready marker; otherwise only
        ``fighter`` gets one (the others keep theirs). Any group activation in progress is
        cleared. The selection itself is the engine's select step (``engine.step`` at the
        select_fighter decision, through ``Game.step``), so everything selecting a fighter does
        happens here too: conditions acting on activation (4.3), a Broken fighter's Running for
        Cover (10.2; [HL] 10.4 with its self-rally), a leader or champion starting to name its
        group (2.4). A fighter the select decision does not offer raises ValueError, the game
        unchanged.
        """
        f = self.fid(fighter)
        saved = clone_state(self.state), self.mask.copy()
        try:
            self._select_in_action_phase(f, priority, round_, ready_all)
        except ValueError as exc:
            for a, old in zip(self.state, saved[0]):
                a[...] = old  # in place: the compiled step keeps the arrays it was given (_STEP)
            self.mask[...] = saved[1]
            raise ValueError(f"activate({fighter!r}): {exc}") from None
        return self

    def _select_in_action_phase(self, f, priority, round_, ready_all):
        """activate()'s set-up, then the select_fighter decision reached and taken as in play."""
        s = self.state
        mf, ng = self.dims.max_fighters, len(self.gangs)
        if not 0 <= f < self.dims.n_fighters:
            raise ValueError(f"fighter index {f} is outside 0..{self.dims.n_fighters - 1}")
        g, i = divmod(f, mf)
        where = self.fighter(f)["state"]
        if where != "on_board":
            raise ValueError(f"fighter ({g}, {i}) is {where}; only a fighter on the battlefield can be selected")
        if not 0 <= priority < ng:
            raise ValueError(f"priority={priority!r}; allowed: a gang index 0..{ng - 1}")
        s.g[0, G_ROUND] = round_
        s.g[0, G_PHASE] = PH_ACTION
        s.g[0, G_PRIORITY] = priority
        s.g[0, G_LASTPRIO] = priority
        for k in range(ng):
            s.gang[0, k, GG_ORDER] = (k - priority) % ng
        on = s.fi[0, :, FI_STATE] == FS_ON
        if ready_all:
            s.fi[0, :, FI_READY] = on
        s.fi[0, f, FI_READY] = 1
        s.g[0, G_TURN] = s.gang[0, g, GG_ORDER]
        s.g[0, G_ACTIVE] = -1
        s.g[0, G_GGANG] = -1  # no group activation in progress (2.4)
        s.g[0, G_GROUP] = s.g[0, G_GNAME] = s.g[0, G_GLEFT] = 0
        s.g[0, G_EVN] = 0
        advance(s, self.static, 0, self.layout, self.mask)  # to the select_fighter decision, as in play
        if self.done:
            raise ValueError(f"fighter ({g}, {i}) cannot be selected: the battle is over")
        index = self.encode(Action("select", fighter=i)) if self.decision == ("select_fighter", g) else -1
        if index < 0 or not self.mask[0, index]:
            raise ValueError(f"fighter ({g}, {i}) cannot be selected: the game awaits {self.decision[0]} "
                             f"of gang {self.decision[1]}")
        self.step(index)

    # ------------------------------------------------------------------ dice
    def script_dice(self, faces):
        """Replace the generator by these D6 faces; running out raises RuntimeError."""
        faces = list(faces)
        if len(faces) > self.state.script.shape[1]:
            raise ValueError(f"at most {self.state.script.shape[1]} scripted dice")
        self.state.script[0, :] = 0
        self.state.script[0, : len(faces)] = faces
        self.state.spos[0, 0] = 0
        self.state.spos[0, 1] = len(faces)

    def dice_left(self):
        sp = self.state.spos[0]
        return int(sp[1] - sp[0]) if sp[1] >= 0 else None

    def use_generator(self):
        self.state.spos[0, :] = -1

    # ------------------------------------------------------------------ queries
    def fid(self, fighter) -> int:
        """Global fighter index from an int, a (gang, slot) pair or a unique name."""
        if isinstance(fighter, (int, np.integer)):
            return int(fighter)
        if isinstance(fighter, tuple):
            g, i = fighter
            return g * self.dims.max_fighters + i
        matches = [(g, i) for g, names in enumerate(self.fighter_names) for i, n in enumerate(names) if n == fighter]
        if len(matches) != 1:
            raise KeyError(f"no unique fighter named {fighter!r}")
        return self.fid(matches[0])

    @property
    def decision(self):
        g = self.state.g[0]
        return DK_NAMES.get(int(g[G_DK]), "none"), int(g[G_DGANG])

    @property
    def current_gang(self) -> int:
        return int(self.state.g[0, G_DGANG])

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
    def active_fighter(self) -> int:
        return int(self.state.g[0, G_ACTIVE])

    def fighter(self, fighter) -> dict:
        """A readable snapshot of one fighter."""
        f = self.fid(fighter)
        fi = self.state.fi[0, f]
        g, i = divmod(f, self.dims.max_fighters)
        state_names = {0: "empty", 1: "on_board", 2: "out_of_action", 3: "fled"}
        return {
            "index": f, "gang": g, "slot": i,
            "name": self.fighter_names[g][i] if i < len(self.fighter_names[g]) else None,
            "state": state_names[int(fi[FI_STATE])],
            "cell": (int(fi[FI_X]), int(fi[FI_Y])),
            "facing": FACING_NAMES[int(fi[FI_FACING])],
            "posture": POSTURE_NAMES[int(fi[FI_POSTURE])],
            "wounds": int(fi[FI_WOUNDS]),
            "flesh_wounds": int(fi[FI_FLESH]),
            "toughness": int(fi[FI_CH + 4] - fi[FI_FLESH]),
            "ready": bool(fi[FI_READY]),
            "broken": bool(fi[FI_BROKEN]),
            "conditions": [n for n, bit in COND_NAMES.items() if int(fi[FI_COND]) & bit],
            "out_of_ammo": [int(j) for j in range(self.dims.max_weapons)
                            if self.state.wp[0, f, j, WP_ID] >= 0 and self.state.wp[0, f, j, 1]],
            "weapons": [self.weapons.names[int(w)] for w in self.state.wp[0, f, :, WP_ID] if w >= 0],
        }

    def events(self, kind: str | None = None):
        """Events written by the last step (or set-up), decoded."""
        n = int(self.state.g[0, G_EVN])
        out = []
        for row in self.state.ev[0, :n]:
            k = int(row[0])
            names = EVENT_FIELDS.get(k, ())
            fields = {nm: int(v) for nm, v in zip(names, row[3:])}
            ev = Event(EVENT_NAMES.get(k, str(k)), int(row[1]), int(row[2]), fields)
            if kind is None or ev.kind == kind:
                out.append(ev)
        if self.state.g[0, G_EVOVF]:
            raise RuntimeError("event buffer overflowed during the last step")
        return out

    # ------------------------------------------------------------------ actions
    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.mask[0])

    def encode(self, action: Action) -> int:
        """Action -> flat index (the acting gang is the one that must decide now)."""
        kind = C.KIND_INDEX.get(action.kind)
        if kind is None:
            raise IllegalActionError(action, f"unknown action kind; allowed: {', '.join(C.KIND_NAMES)}")
        d = self.dims
        pk = C.KINDS[kind][1]
        if pk == C.P_NONE:
            p1, p2 = 0, 0
        elif pk == C.P_FIGHTER:
            p1, p2 = self._own_slot(action), 0
        elif pk == C.P_CELL:
            if action.cell is None:
                raise IllegalActionError(action, "this action needs cell=(x, y)")
            x, y = action.cell
            if not (0 <= x < d.width and 0 <= y < d.height):
                raise IllegalActionError(action, f"cell {action.cell} is off the {d.width}x{d.height} board")
            p1, p2 = y * d.width + x, 0
        elif pk == C.P_TARGET:
            p1, p2 = self._rel_target(action), 0
        elif pk == C.P_WEAPON_TARGET:
            if action.weapon is None:
                raise IllegalActionError(action, "this action needs weapon=<item slot>")
            if not (0 <= action.weapon < d.max_weapons and action.profile in (0, 1)):
                raise IllegalActionError(action, "weapon slot or profile out of range")
            p1, p2 = action.weapon * 2 + action.profile, self._rel_target(action)
        elif pk == C.P_WEAPON_CELL:
            if action.weapon is None or action.cell is None:
                raise IllegalActionError(action, "this action needs weapon=<item slot> and cell=(x, y)")
            if not 0 <= action.weapon < d.max_weapons:
                raise IllegalActionError(action, "weapon slot out of range")
            x, y = action.cell
            if not (0 <= x < d.width and 0 <= y < d.height):
                raise IllegalActionError(action, f"cell {action.cell} is off the {d.width}x{d.height} board")
            p1, p2 = action.weapon, y * d.width + x  # the item's Blast / Smoke profile is implied
        elif pk == C.P_ITEM:
            if action.weapon is None or not (0 <= action.weapon < d.max_weapons):
                raise IllegalActionError(action, "this action needs weapon=<item slot>")
            p1, p2 = action.weapon, 0
        elif pk == C.P_DOOR:
            if action.door is None or not (0 <= action.door < d.max_doors):
                raise IllegalActionError(action, "this action needs door=<index>")
            p1, p2 = action.door, 0
        elif pk == C.P_CASKET:
            if action.casket is None or not (0 <= action.casket < d.max_caskets):
                raise IllegalActionError(action, "this action needs casket=<index>")
            p1, p2 = action.casket, 0
        else:  # facing
            fc = action.facing
            if isinstance(fc, str):
                fc = FACING_NAMES.index(fc)
            if fc is None or not (0 <= fc < 8):
                raise IllegalActionError(action, "this action needs facing 0-7")
            p1, p2 = fc, 0
        return int(C.encode(self.layout, d.n_fighters, kind, p1, p2))

    def _own_slot(self, action):
        if action.fighter is None:
            raise IllegalActionError(action, "select needs fighter=<slot, (gang, slot) or name>")
        f = self.fid(action.fighter) if not isinstance(action.fighter, (int, np.integer)) else None
        if f is None:
            return int(action.fighter)
        g, i = divmod(f, self.dims.max_fighters)
        if g != self.current_gang:
            raise IllegalActionError(action, f"fighter belongs to gang {g}, but gang {self.current_gang} decides")
        return i

    def _rel_target(self, action):
        if action.target is None:
            raise IllegalActionError(action, "this action needs target=<fighter>")
        f = self.fid(action.target)
        mf, ng = self.dims.max_fighters, self.dims.n_gangs
        if not (0 <= f < mf * ng):
            raise IllegalActionError(action, "target index out of range")
        g, i = divmod(f, mf)
        return ((g - self.current_gang) % ng) * mf + i

    def describe(self, index: int) -> str:
        from .explain import describe_index
        return describe_index(self, index)

    def step(self, index: int):
        """Apply a flat action index; raises IllegalActionError (game unchanged) if masked."""
        index = int(index)
        if self.done:
            raise IllegalActionError(self.describe(index) if 0 <= index < self.n_actions else index,
                                     "the game is over")
        if not (0 <= index < self.n_actions):
            raise IllegalActionError(index, f"index outside the action space [0, {self.n_actions})")
        if not self.mask[0, index]:
            from .explain import why_illegal
            raise IllegalActionError(self.describe(index), why_illegal(self, index))
        _STEP(self.state, self.static, 0, self.layout, index, self.mask)
        return self

    def act(self, kind: str, **kw):
        """Apply ``Action(kind, **kw)`` (the scenario-test API)."""
        return self.step(self.encode(Action(kind, **kw)))

    def can(self, kind: str, **kw) -> bool:
        """Is ``Action(kind, **kw)`` legal for the gang deciding now? (False also when it cannot be encoded.)"""
        try:
            index = self.encode(Action(kind, **kw))
        except IllegalActionError:
            return False
        return bool(self.mask[0, index])

    def clone(self) -> "Game":
        g = object.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.state = clone_state(self.state)
        g.mask = self.mask.copy()
        return g
