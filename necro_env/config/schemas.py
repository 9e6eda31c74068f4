"""Pydantic models of the YAML files under ``configs/`` and the board map check.

These models check one file on its own (types, ranges, names, consistency
inside the file). Checks across files (a gang's weapons exist, a house's
armour exists) live in :mod:`necro_env.config.loader`. File formats are
documented in ``docs/data.md``.
"""

from __future__ import annotations

import difflib
import re
from typing import Annotated, Literal, NamedTuple

import numpy as np
from pydantic import BaseModel, BeforeValidator, ConfigDict, model_validator

from necro_env.config.errors import FieldProblem
from necro_env.core.terrain import (
    DOOR_CLOSED,
    DOOR_LOCKED,
    DOOR_OPEN,
    FEAT_LADDER,
    FEAT_RAILING,
    FEAT_STAIRS,
    MAX_HEIGHT,
    TER_DOOR,
    TER_FLOOR,
    TER_OBSTACLE,
    TER_WALL,
)
from necro_env.rulesets.necromunda.constants import MAX_PROFILES, ROLE_NAMES, TRAIT2_NAMES, TRAIT_NAMES

# ---------------------------------------------------------------------------
# Small reusable field types
# ---------------------------------------------------------------------------


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _did_you_mean(value, choices) -> str:
    close = difflib.get_close_matches(str(value), list(choices), n=1)
    return f"did you mean {close[0]!r}? " if close else ""


def int_in(lo: int, hi: int, what: str, optional: bool = False):
    """An int field limited to lo..hi (null allowed when ``optional``)."""

    def check(v):
        if v is None and optional:
            return v
        if not _is_int(v) or not lo <= v <= hi:
            tail = " or null" if optional else ""
            raise FieldProblem((), v, f"expected {what}: an integer {lo}..{hi}{tail}")
        return v

    return Annotated[int | None if optional else int, BeforeValidator(check)]


_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")


def _check_name(v):
    if not isinstance(v, str) or not _NAME_RE.match(v):
        raise FieldProblem(
            (), v, "expected a snake_case id (lower-case letters, digits and '_', starting with a letter)"
        )
    return v


def _check_text(v):
    if not isinstance(v, str) or not v.strip():
        raise FieldProblem((), v, "expected a non-empty string")
    return v


Name = Annotated[str, BeforeValidator(_check_name)]
Text = Annotated[str, BeforeValidator(_check_text)]


def _check_cell(v):
    if not isinstance(v, (list, tuple)) or len(v) != 2 or not all(_is_int(c) and c >= 0 for c in v):
        raise FieldProblem((), v, "expected a cell [x, y] of two integers >= 0")
    return tuple(v)


def _check_duct(v):
    if not isinstance(v, (list, tuple)) or len(v) != 4 or not all(_is_int(c) and c >= 0 for c in v):
        raise FieldProblem((), v, "expected [x0, y0, x1, y1]: four integers >= 0")
    return tuple(v)


Cell = Annotated[tuple[int, int], BeforeValidator(_check_cell)]
Duct = Annotated[tuple[int, int, int, int], BeforeValidator(_check_duct)]


class Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


def _unique(items, key, path, what):
    seen = {}
    for i, item in enumerate(items):
        k = key(item)
        if k in seen:
            raise FieldProblem(
                path + (i, "name"), k, f"{what} names must be unique; already used by {path[-1]}[{seen[k]}]"
            )
        seen[k] = i


# ---------------------------------------------------------------------------
# weapons.yaml
# ---------------------------------------------------------------------------

PARAM_TRAITS = {"rapid_fire": tuple(range(1, 7)), "blast": (3, 5)}
_TRAIT_HELP = (
    f"allowed: {', '.join([*TRAIT_NAMES, *TRAIT2_NAMES])}; rapid_fire and blast take a value, "
    "written as {rapid_fire: N} (N 1..6) or {blast: 3} / {blast: 5}"
)


def _parse_trait(v):
    """'plentiful' -> ('plentiful', 0); {'rapid_fire': 2} -> ('rapid_fire', 2)."""
    if isinstance(v, str):
        if v in PARAM_TRAITS:
            raise FieldProblem((), v, f"{v} needs a value: {_TRAIT_HELP}")
        if v not in TRAIT_NAMES and v not in TRAIT2_NAMES:
            raise FieldProblem((), v, f"unknown trait; {_did_you_mean(v, [*TRAIT_NAMES, *TRAIT2_NAMES])}{_TRAIT_HELP}")
        return (v, 0)
    if isinstance(v, dict) and len(v) == 1:
        (key, n), = v.items()
        if key in PARAM_TRAITS and _is_int(n) and n in PARAM_TRAITS[key]:
            return (key, n)
        raise FieldProblem((), v, f"bad trait value; {_TRAIT_HELP}")
    raise FieldProblem((), v, f"expected a trait name or a one-key mapping; {_TRAIT_HELP}")


Trait = Annotated[tuple[str, int], BeforeValidator(_parse_trait)]

_GRENADE_RE = re.compile(r"^Sx([1-9])$")
_USER_S_RE = re.compile(r"^S(\+[1-3])?$")


def _check_long(v):
    if (_is_int(v) and 1 <= v <= 99) or v in ("E", "T") or (isinstance(v, str) and _GRENADE_RE.match(v)):
        return v
    raise FieldProblem(
        (), v,
        "expected a long range in inches 1..99, 'E' (close combat only), 'T' (Flame template) "
        "or 'Sx3' (grenade: Strength x 3)",
    )


def _check_strength(v):
    if (_is_int(v) and 0 <= v <= 10) or (isinstance(v, str) and _USER_S_RE.match(v)):
        return v
    raise FieldProblem((), v, "expected a Strength 0..10 (0 = '-') or the wielder's Strength: 'S', 'S+1', 'S+2', 'S+3'")


class ProfileFile(Strict):
    name: str = ""
    short: int_in(0, 99, "a short range in inches", optional=True) = None
    long: Annotated[int | str, BeforeValidator(_check_long)]
    acc_short: int_in(-3, 3, "an accuracy modifier") = 0
    acc_long: int_in(-3, 3, "an accuracy modifier") = 0
    strength: Annotated[int | str, BeforeValidator(_check_strength)]
    ap: int_in(-6, 0, "an AP as printed (-1, -2, ...; 0 for '-')") = 0
    damage: int_in(0, 6, "a Damage (0 for '-')")
    ammo: int_in(2, 6, "an Ammo target (4 for 4+)", optional=True) = None
    traits: list[Trait] = []

    @property
    def trait_dict(self) -> dict[str, int]:
        return dict(self.traits)

    @model_validator(mode="after")
    def _consistent(self):
        traits = self.trait_dict
        if len(traits) != len(self.traits):
            dup = next(n for i, (n, _) in enumerate(self.traits) if n in dict(self.traits[:i]))
            raise FieldProblem(("traits",), dup, "each trait may appear only once per profile")
        if self.name and not _NAME_RE.match(self.name):
            raise FieldProblem(
                ("name",), self.name, "expected a snake_case profile name, or '' for a single-profile weapon"
            )
        long = self.long
        kinds = {"E": "melee", "T": "template"}
        kind = kinds.get(long, "grenade") if isinstance(long, str) else "ranged"
        if kind != "ranged" and self.short is not None:
            raise FieldProblem(("short",), self.short, f"must be null when long is {long!r}")
        if kind == "ranged" and self.short is not None and self.short > long:
            raise FieldProblem(("short",), self.short, f"short range must not exceed long range ({long})")
        if kind == "melee" and self.ammo is not None:
            raise FieldProblem(("ammo",), self.ammo, "must be null for a close-combat-only weapon (long: E)")
        if kind != "melee" and self.ammo is None:
            raise FieldProblem(("ammo",), None, "a weapon that shoots needs an Ammo target 2..6")
        for trait, needed_kind in (("melee", "melee"), ("template", "template"), ("grenade", "grenade")):
            if (kind == needed_kind) and trait not in traits:
                raise FieldProblem(
                    ("traits",), [n for n, _ in self.traits], f"a profile with long {long!r} needs the {trait} trait"
                )
        if "template" in traits and kind != "template":
            raise FieldProblem(("long",), long, "a profile with the template trait needs long: T")
        if "grenade" in traits and kind != "grenade":
            raise FieldProblem(("long",), long, "a profile with the grenade trait needs long: Sx<N>, e.g. Sx3")
        return self


class WeaponFile(Strict):
    name: Name
    cost: int_in(0, 9999, "a cost in credits", optional=True) = None
    profiles: list[ProfileFile]

    @model_validator(mode="after")
    def _profiles(self):
        n = len(self.profiles)
        if not 1 <= n <= MAX_PROFILES:
            raise FieldProblem(
                ("profiles",), [p.name for p in self.profiles], f"a weapon has 1..{MAX_PROFILES} profiles"
            )
        if n > 1:
            names = [p.name for p in self.profiles]
            for i, nm in enumerate(names):
                if not nm or nm in names[:i]:
                    raise FieldProblem(
                        ("profiles", i, "name"), nm, "profiles of a multi-profile weapon need distinct non-empty names"
                    )
        return self


class WeaponsFile(Strict):
    edition: str | None = None
    weapons: list[WeaponFile]

    @model_validator(mode="after")
    def _names(self):
        if not self.weapons:
            raise FieldProblem(("weapons",), [], "at least one weapon")
        _unique(self.weapons, lambda w: w.name, ("weapons",), "weapon")
        return self


# ---------------------------------------------------------------------------
# armour.yaml
# ---------------------------------------------------------------------------


class ArmourFile(Strict):
    name: Name
    save: int_in(2, 7, "a save target (7 = no save)")
    front_save: int_in(2, 6, "a save target against attacks from the front arc", optional=True) = None
    template_save: int_in(2, 6, "a save target against Blast and Flame template attacks", optional=True) = None
    charge_penalty: int_in(0, 3, "inches lost when charging") = 0
    initiative_penalty: int_in(0, 3, "an Initiative penalty") = 0
    cost: int_in(0, 9999, "a cost in credits", optional=True) = None

    @model_validator(mode="after")
    def _better(self):
        for field in ("front_save", "template_save"):
            v = getattr(self, field)
            if v is not None and v >= self.save:
                raise FieldProblem(
                    (field,), v, f"must be a better (smaller) target than save ({self.save}), or left out"
                )
        return self


class ArmoursFile(Strict):
    edition: str | None = None
    armours: list[ArmourFile]

    @model_validator(mode="after")
    def _names(self):
        _unique(self.armours, lambda a: a.name, ("armours",), "armour")
        if "none" not in [a.name for a in self.armours]:
            raise FieldProblem(
                ("armours",), [a.name for a in self.armours], "the list must contain an armour named 'none' (save 7)"
            )
        return self


# ---------------------------------------------------------------------------
# houses/<house>.yaml
# ---------------------------------------------------------------------------

_TARGET = "a target number (3 for 3+)"


class CharsFile(Strict):
    M: int_in(1, 12, "a Movement in inches")
    WS: int_in(2, 12, _TARGET)
    BS: int_in(2, 12, _TARGET)
    S: int_in(1, 10, "a Strength")
    T: int_in(1, 10, "a Toughness")
    W: int_in(1, 10, "a Wounds value")
    I: int_in(2, 12, _TARGET)  # noqa: E741
    A: int_in(1, 10, "an Attacks value")
    Ld: int_in(2, 12, _TARGET)
    Cl: int_in(2, 12, _TARGET)
    Wil: int_in(2, 12, _TARGET)
    Int: int_in(2, 12, _TARGET)


def _check_role(v):
    if v not in ROLE_NAMES:
        raise FieldProblem((), v, f"expected a role, one of: {', '.join(ROLE_NAMES)}")
    return v


def _check_hierarchy(v):
    if v not in (None, "leader", "champion"):
        raise FieldProblem((), v, "expected leader, champion or null (no Gang Hierarchy)")
    return v


def _check_shield(v):
    if v not in ("none", "assault", "energy"):
        raise FieldProblem((), v, "expected none, assault or energy (an Assault / Energy Shield, rules 12)")
    return v


def _check_shield_or_none(v):
    return None if v is None else _check_shield(v)


class FighterTypeFile(Strict):
    role: Annotated[str, BeforeValidator(_check_role)]
    chars: CharsFile
    armour: Name = "none"
    bodyglove: bool = False
    field_armour: bool = False
    group_activation: int_in(0, 5, "a Group Activation (N) value") = 0
    gang_hierarchy: Annotated[str | None, BeforeValidator(_check_hierarchy)] = None
    shield: Annotated[str, BeforeValidator(_check_shield)] = "none"


class HouseFile(Strict):
    name: Name
    edition: str | None = None
    types: dict[str, FighterTypeFile]

    @model_validator(mode="after")
    def _type_names(self):
        if not self.types:
            raise FieldProblem(("types",), {}, "at least one fighter type")
        for key in self.types:
            _check_name_at(("types", key), key)
        return self


def _check_name_at(path, v):
    try:
        _check_name(v)
    except FieldProblem as p:
        raise FieldProblem(path, v, p.allowed) from None


# ---------------------------------------------------------------------------
# gangs/<gang>.yaml
# ---------------------------------------------------------------------------

MAX_WEAPONS = 4

# Conditions a fighter can have before a battle starts (rules 4.3, [KO]; docs/data.md): Starving lasts
# until the fighter is fed (pre-battle sequence), Gunked has no way to be lost in battle, Intoxicated
# comes from skills / wargear, Mounted is the rider's fighter card, Hidden may be granted by the
# scenario. The others (Blaze, Blind, Concussion, Insane, Webbed) are gained in play.
START_CONDITIONS = ("gunked", "starving", "intoxicated", "mounted", "hidden")


def _check_start_conditions(v):
    if not isinstance(v, list):
        raise FieldProblem((), v, f"expected a list of condition names from: {', '.join(START_CONDITIONS)}")
    for j, c in enumerate(v):
        if c not in START_CONDITIONS:
            raise FieldProblem((j,), c, f"{_did_you_mean(c, START_CONDITIONS)}expected one of the conditions a "
                                        f"fighter can have before a battle (rules 4.3): {', '.join(START_CONDITIONS)}")
        if c in v[:j]:
            raise FieldProblem((j,), c, "each condition at most once")
    return v


class GangFighterFile(Strict):
    name: Text
    type: Name
    weapons: list[Name] = []
    armour: Name | None = None
    bodyglove: bool | None = None
    field_armour: bool | None = None
    shield: Annotated[str | None, BeforeValidator(_check_shield_or_none)] = None
    start_conditions: Annotated[list[str], BeforeValidator(_check_start_conditions)] = []

    @model_validator(mode="after")
    def _few_weapons(self):
        if len(self.weapons) > MAX_WEAPONS:
            raise FieldProblem(("weapons",), list(self.weapons), f"at most {MAX_WEAPONS} weapons per fighter")
        return self


class GangFile(Strict):
    name: Text
    house: Name
    fighters: list[GangFighterFile]

    @model_validator(mode="after")
    def _fighters(self):
        if not self.fighters:
            raise FieldProblem(("fighters",), [], "at least one fighter")
        _unique(self.fighters, lambda f: f.name, ("fighters",), "fighter")
        return self


# ---------------------------------------------------------------------------
# scenarios/<scenario>.yaml
# ---------------------------------------------------------------------------


class ScenarioFile(Strict):
    name: Name
    description: str = ""
    board: Text
    gangs: list[Text]
    round_limit: int_in(1, 99, "a number of rounds")
    doors_start: Literal["closed", "open", "map"] = "closed"
    variant: Literal["core", "house_legacy"] = "core"

    @model_validator(mode="after")
    def _gang_count(self):
        if not 2 <= len(self.gangs) <= 4:
            raise FieldProblem(("gangs",), list(self.gangs), "a scenario needs 2..4 gang files")
        return self


# ---------------------------------------------------------------------------
# boards/<board>.yaml
# ---------------------------------------------------------------------------


class TerminalFile(Strict):
    cell: Cell
    door: Cell


def _check_map_text(v):
    if not isinstance(v, str) or not v.strip():
        raise FieldProblem((), v, "expected the map as a YAML block string ('map: |' and then one line per row)")
    return v


def _check_heights_text(v):
    if v is not None and (not isinstance(v, str) or not v.strip()):
        raise FieldProblem(
            (), v,
            "expected the floor heights as a YAML block string ('heights: |', one line per map row), or leave it out",
        )
    return v


class BoardFile(Strict):
    name: Name
    description: str = ""
    map: Annotated[str, BeforeValidator(_check_map_text)]
    terminals: list[TerminalFile] = []
    ductways: list[Duct] = []
    heights: Annotated[str | None, BeforeValidator(_check_heights_text)] = None


# character -> (terrain, door state or None, deployment zone or -1, casket)
LEGEND = {
    "#": (TER_WALL, None, -1, False),
    ".": (TER_FLOOR, None, -1, False),
    "o": (TER_OBSTACLE, None, -1, False),
    "+": (TER_DOOR, DOOR_CLOSED, -1, False),
    "/": (TER_DOOR, DOOR_OPEN, -1, False),
    "L": (TER_DOOR, DOOR_LOCKED, -1, False),
    "c": (TER_FLOOR, None, -1, True),
    "0": (TER_FLOOR, None, 0, False),
    "1": (TER_FLOOR, None, 1, False),
    "2": (TER_FLOOR, None, 2, False),
    "3": (TER_FLOOR, None, 3, False),
    "H": (TER_FLOOR, None, -1, False),
    "S": (TER_FLOOR, None, -1, False),
    "r": (TER_FLOOR, None, -1, False),
}
# map character -> FEAT_* bits of the cell (BoardSpec.features)
FEATURE_CHARS = {"H": FEAT_LADDER, "S": FEAT_STAIRS, "r": FEAT_RAILING}
LEGEND_HELP = (
    "legend: '#' wall, '.' floor, 'o' obstacle, '+' closed door, '/' open door, 'L' locked door, "
    "'c' loot casket, '0'-'3' deployment zone of gang k, 'H' ladder, 'S' stairs, 'r' railing"
)
# heights block: one character per cell, the floor height in inches: '0'-'9', 'a'-'f' = 10-15
HEIGHT_CHARS = "0123456789abcdef"[: MAX_HEIGHT + 1]
HEIGHTS_HELP = "a floor height in inches: '0'-'9', or 'a'-'f' for 10-15"

MAX_BOARD = 128


class BoardGrid(NamedTuple):
    terrain: np.ndarray  # int8 [H, W]
    deploy: np.ndarray  # int8 [H, W]
    doors: np.ndarray  # int32 [n, 3] x, y, state
    terminals: np.ndarray  # int32 [n, 3] x, y, door index
    ductways: np.ndarray  # int32 [n, 4]
    caskets: np.ndarray  # int32 [n, 2]
    heights: np.ndarray  # int8 [H, W] floor height in inches (all 0 without a heights block)
    features: np.ndarray  # int8 [H, W] FEAT_* bits


def _map_rows(text: str) -> list[str]:
    rows = [r.rstrip() for r in text.splitlines()]
    while rows and not rows[-1]:
        rows.pop()
    while rows and not rows[0]:
        rows.pop(0)
    return rows


def _door_axis(terrain, x, y):
    """0 if the door is in an east-west wall (passage north-south), 1 if in a north-south wall, None if no gap."""
    h, w = terrain.shape

    def wall(cx, cy):
        return not (0 <= cx < w and 0 <= cy < h) or terrain[cy, cx] == TER_WALL

    def open_(cx, cy):
        return 0 <= cx < w and 0 <= cy < h and terrain[cy, cx] not in (TER_WALL, TER_DOOR)

    if wall(x - 1, y) and wall(x + 1, y) and open_(x, y - 1) and open_(x, y + 1):
        return 0
    if wall(x, y - 1) and wall(x, y + 1) and open_(x - 1, y) and open_(x + 1, y):
        return 1
    return None


def check_board_map(board: BoardFile) -> BoardGrid:
    """Parse and check the map, terminals and ductways of a board file."""
    rows = _map_rows(board.map)
    if not 2 <= len(rows) <= MAX_BOARD:
        raise FieldProblem(("map",), f"{len(rows)} rows", f"a map has 2..{MAX_BOARD} rows")
    width = len(rows[0])
    if not 2 <= width <= MAX_BOARD:
        raise FieldProblem(("map", 0), rows[0], f"a map row has 2..{MAX_BOARD} characters")
    for y, row in enumerate(rows):
        if len(row) != width:
            raise FieldProblem(
                ("map", y), row, f"every map row must be {width} characters long like row 0; this one has {len(row)}"
            )
        for x, ch in enumerate(row):
            if ch not in LEGEND:
                raise FieldProblem(("map", y, x), ch, f"unknown map character at x={x}, y={y}; {LEGEND_HELP}")

    h = len(rows)
    terrain = np.zeros((h, width), np.int8)
    deploy = np.full((h, width), -1, np.int8)
    features = np.zeros((h, width), np.int8)
    doors, caskets = [], []
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            ter, door, zone, casket = LEGEND[ch]
            terrain[y, x] = ter
            deploy[y, x] = zone
            features[y, x] = FEATURE_CHARS.get(ch, 0)
            if door is not None:
                doors.append((x, y, door))
            if casket:
                caskets.append((x, y))

    for x, y, _ in doors:
        if _door_axis(terrain, x, y) is None:
            raise FieldProblem(
                ("map", y, x), rows[y][x],
                f"a door (at x={x}, y={y}) must fill a 1-cell gap in a wall: walls on both sides along one axis "
                "and open (non-wall, non-door) cells on the two other sides",
            )
    _check_zones(deploy)
    _check_connected(terrain, rows)
    terminals = _check_terminals(board, terrain, doors)
    ducts = _check_ductways(board, terrain)
    heights = _check_heights(board, terrain, features, rows)
    return BoardGrid(
        terrain, deploy,
        np.array(doors, np.int32).reshape(-1, 3),
        np.array(terminals, np.int32).reshape(-1, 3),
        np.array(ducts, np.int32).reshape(-1, 4),
        np.array(caskets, np.int32).reshape(-1, 2),
        heights, features,
    )


def _check_heights(board, terrain, features, rows):
    """Parse the optional ``heights`` block (same shape as the map) and check ladders, stairs and railings."""
    h, w = terrain.shape
    heights = np.zeros((h, w), np.int8)
    if board.heights is not None:
        hrows = _map_rows(board.heights)
        if len(hrows) != h:
            raise FieldProblem(("heights",), f"{len(hrows)} rows", f"the heights block needs {h} rows like the map")
        for y, row in enumerate(hrows):
            if len(row) != w:
                raise FieldProblem(
                    ("heights", y), row,
                    f"every heights row must be {w} characters long like the map; this one has {len(row)}",
                )
            for x, ch in enumerate(row):
                if ch not in HEIGHT_CHARS:
                    raise FieldProblem(("heights", y, x), ch, f"bad height at x={x}, y={y}; expected {HEIGHTS_HELP}")
                heights[y, x] = HEIGHT_CHARS.index(ch)
    for y in range(h):
        for x in range(w):
            f = int(features[y, x])
            if not f:
                continue
            near = [
                int(heights[y + oy, x + ox])
                for ox, oy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if 0 <= x + ox < w and 0 <= y + oy < h and terrain[y + oy, x + ox] != TER_WALL
            ]
            here = int(heights[y, x])
            if f & (FEAT_LADDER | FEAT_STAIRS) and all(n == here for n in near):
                raise FieldProblem(
                    ("map", y, x), rows[y][x],
                    f"a ladder/stairs cell (x={x}, y={y}) must have an orthogonal non-wall neighbour of another height",
                )
            if f & FEAT_RAILING and all(n >= here for n in near):
                raise FieldProblem(
                    ("map", y, x), rows[y][x],
                    f"a railing cell (x={x}, y={y}) must stand on an edge: "
                    "an orthogonal non-wall neighbour lower than it",
                )
    return heights


def _check_zones(deploy):
    zones = sorted(int(z) for z in np.unique(deploy) if z >= 0)
    if zones[:2] != [0, 1] or zones != list(range(len(zones))):
        raise FieldProblem(
            ("map",), zones, "deployment zones '0' and '1' are required, and zone k needs all lower zones (found these)"
        )


def _check_connected(terrain, rows):
    h, w = terrain.shape
    open_cells = list(zip(*np.nonzero(terrain != TER_WALL)))
    if not open_cells:
        raise FieldProblem(("map",), "only walls", "a map needs floor cells")
    seen = np.zeros_like(terrain, dtype=bool)
    stack = [open_cells[0]]
    seen[open_cells[0]] = True
    while stack:
        y, x = stack.pop()
        for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
            if 0 <= ny < h and 0 <= nx < w and not seen[ny, nx] and terrain[ny, nx] != TER_WALL:
                seen[ny, nx] = True
                stack.append((ny, nx))
    for y, x in open_cells:
        if not seen[y, x]:
            raise FieldProblem(
                ("map", int(y), int(x)), rows[y][x],
                f"every non-wall cell must be reachable (orthogonal steps, doors open); x={x}, y={y} is cut off",
            )


def _is_floor(terrain, x, y) -> bool:
    h, w = terrain.shape
    return 0 <= x < w and 0 <= y < h and terrain[y, x] == TER_FLOOR


def _check_terminals(board, terrain, doors):
    h, w = terrain.shape
    locked = {(x, y): i for i, (x, y, s) in enumerate(doors) if s == DOOR_LOCKED}
    sides = {d: set() for d in locked}
    out = []
    for i, term in enumerate(board.terminals):
        (tx, ty), (dx, dy) = term.cell, term.door
        if (dx, dy) not in locked:
            raise FieldProblem(
                ("terminals", i, "door"), [dx, dy],
                f"expected the [x, y] of a locked door ('L'); locked doors: {[list(d) for d in locked]}",
            )
        if not _is_floor(terrain, tx, ty):
            raise FieldProblem(("terminals", i, "cell"), [tx, ty], f"expected a floor cell inside the {w}x{h} map")
        touches_wall = any(
            0 <= tx + ox < w and 0 <= ty + oy < h and terrain[ty + oy, tx + ox] == TER_WALL
            for ox, oy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        )
        if not touches_wall or (tx - dx) ** 2 + (ty - dy) ** 2 > 4:
            raise FieldProblem(
                ("terminals", i, "cell"), [tx, ty],
                f"a terminal must be a floor cell touching a wall (orthogonally) within 1\" of its door [{dx}, {dy}] "
                "(centre distance at most 2 cells)",
            )
        axis = _door_axis(terrain, dx, dy)
        offset = (ty - dy) if axis == 0 else (tx - dx)
        if offset == 0:
            raise FieldProblem(
                ("terminals", i, "cell"), [tx, ty],
                f"a terminal must stand on one side of its door [{dx}, {dy}], not in line with the wall",
            )
        sides[(dx, dy)].add(offset > 0)
        out.append((tx, ty, locked[(dx, dy)]))
    for (dx, dy), got in sides.items():
        if got != {False, True}:
            names = ("north", "south") if _door_axis(terrain, dx, dy) == 0 else ("west", "east")
            lacking = " and ".join(n for n, side in zip(names, (False, True)) if side not in got)
            raise FieldProblem(
                ("terminals",), [dx, dy],
                f"every locked door needs at least one terminal on each side; this one has none on its {lacking} side",
            )
    return out


def _check_ductways(board, terrain):
    out = []
    for i, (x0, y0, x1, y1) in enumerate(board.ductways):
        ok = _is_floor(terrain, x0, y0) and _is_floor(terrain, x1, y1) and (x0 == x1) != (y0 == y1)
        if ok:
            n = abs(x1 - x0) + abs(y1 - y0) - 1
            sx, sy = (x1 > x0) - (x1 < x0), (y1 > y0) - (y1 < y0)
            between = [terrain[y0 + k * sy, x0 + k * sx] for k in range(1, n + 1)]
            ok = 1 <= n <= 2 and all(t == TER_WALL for t in between)
        if not ok:
            raise FieldProblem(
                ("ductways", i), [x0, y0, x1, y1],
                "a ductway joins two floor cells in one row or column on opposite sides of a wall 1-2 cells thick",
            )
        out.append((x0, y0, x1, y1))
    return out
