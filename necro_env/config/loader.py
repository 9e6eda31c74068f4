"""Load the YAML files under ``configs/`` into read-only tables for the engine.

Each ``load_*`` function reads one file (and the files it names), checks it
completely and only then returns frozen objects holding numpy arrays; any
problem raises :class:`ConfigError` and nothing is returned. File formats and
table encodings are documented in ``docs/data.md``.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pydantic
import yaml

from necro_env.config import schemas as S
from necro_env.config.errors import ConfigError, FieldProblem, format_loc, from_problem, from_validation_error
from necro_env.core.terrain import DOOR_CLOSED, DOOR_OPEN
from necro_env.rulesets.necromunda.constants import (
    AF_CHARGE_PENALTY, AF_FRONT_SAVE, AF_INIT_PENALTY, AF_SAVE, AF_TEMPLATE_SAVE, MAX_PROFILES, NAF, NCH, NPF,
    PF_ACC_L, PF_ACC_S, PF_AMMO, PF_AP, PF_BLAST, PF_D, PF_LONG, PF_RAPID, PF_S, PF_S_USER, PF_SHORT, PF_TRAITS,
    PF_TRAITS2, PF_VALID, ROLE_NAMES, SHIELD_NAMES, TRAIT2_NAMES, TRAIT_NAMES,
)

# PF_LONG codes for weapons without a numeric long range.
LONG_MELEE = -1  # "E": close combat only
LONG_GRENADE = -2  # "Sx3": thrown; PF_SHORT holds the multiplier (3)
LONG_TEMPLATE = -3  # "T": Flame template

HIERARCHY = {None: 0, "champion": 1, "leader": 2}
CHAR_ORDER = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "Cl", "Wil", "Int")  # CH_M .. CH_INT


def config_root() -> Path:
    """``$NECRO_ENV_CONFIGS`` if set, else the repository's ``configs/`` directory."""
    env = os.environ.get("NECRO_ENV_CONFIGS")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "configs"


CONFIG_ROOT: Path = config_root()


# ---------------------------------------------------------------------------
# Result types
# ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class WeaponTable:
    names: tuple[str, ...]
    profile_names: tuple[tuple[str, ...], ...]
    profiles: np.ndarray  # int32 [n, MAX_PROFILES, NPF]
    index: dict[str, int]
    costs: tuple[int | None, ...]
    source: str = ""


@dataclass(frozen=True, eq=False)
class ArmourTable:
    names: tuple[str, ...]
    table: np.ndarray  # int32 [n, NAF]
    index: dict[str, int]
    source: str = ""


@dataclass(frozen=True, eq=False)
class FighterType:
    name: str
    role: int
    chars: np.ndarray  # int32 [NCH]
    armour: str
    bodyglove: bool
    field_armour: bool
    group_activation: int
    gang_hierarchy: str | None
    shield: str = "none"  # Assault / Energy Shield (12): constants.SHIELD_NAMES


@dataclass(frozen=True, eq=False)
class House:
    name: str
    types: dict[str, FighterType]
    source: str = ""


@dataclass(frozen=True, eq=False)
class FighterSpec:
    name: str
    type_name: str
    role: int
    chars: np.ndarray  # int32 [NCH]
    weapons: tuple[int, ...]  # rows of the WeaponTable
    armour: int  # row of the ArmourTable
    bodyglove: bool
    field_armour: bool
    group_activation: int
    gang_hierarchy: int  # 0 none, 1 champion, 2 leader
    shield: int = 0  # constants.SHIELD_* (12 Assault / Energy Shield)
    start_conditions: int = 0  # state.C_* bits the fighter starts the battle with (schemas.START_CONDITIONS)


@dataclass(frozen=True, eq=False)
class GangSpec:
    name: str
    house: str
    fighters: tuple[FighterSpec, ...]
    source: str


@dataclass(frozen=True, eq=False)
class BoardSpec:
    name: str
    description: str
    height: int
    width: int
    terrain: np.ndarray  # int8 [H, W] TER_*
    doors: np.ndarray  # int32 [n_doors, 3] x, y, DOOR_*
    terminals: np.ndarray  # int32 [n, 3] x, y, door index
    ductways: np.ndarray  # int32 [n, 4] x0, y0, x1, y1
    caskets: np.ndarray  # int32 [n, 2] x, y
    deploy: np.ndarray  # int8 [H, W] -1 or gang zone
    source: str
    # Levels (docs/data.md, docs/rules.md 1.2): one floor height per cell in whole inches (0 = ground,
    # 0..MAX_HEIGHT of core.terrain) and a bitmask of FEAT_LADDER / FEAT_STAIRS / FEAT_RAILING per cell.
    # Left out (None) = a flat board: filled with zeros.
    heights: np.ndarray | None = None  # int8 [H, W]
    features: np.ndarray | None = None  # int8 [H, W]

    def __post_init__(self):
        for field in ("heights", "features"):
            a = getattr(self, field)
            if a is None:
                a = np.zeros((self.height, self.width), np.int8)
            else:
                a = np.asarray(a, np.int8)
                if a.shape != (self.height, self.width):
                    raise ValueError(f"BoardSpec.{field} has shape {a.shape}; expected {(self.height, self.width)}")
            object.__setattr__(self, field, a)

    @property
    def has_levels(self) -> bool:
        return bool(self.heights.any())


@dataclass(frozen=True, eq=False)
class ScenarioSpec:
    name: str
    board: BoardSpec
    gangs: tuple[GangSpec, ...]
    round_limit: int
    source: str
    variant: str = "core"  # rules variant: "core" or "house_legacy"
    doors_start: str = "closed"  # how a board given instead of the scenario's starts (doors_at_start)


# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------


def resolve_path(path) -> Path:
    """An absolute path, else relative to the cwd, else relative to the config root."""
    p = Path(path)
    tried = [p] if p.is_absolute() else [Path.cwd() / p, config_root() / p]
    for candidate in tried:
        if candidate.is_file():
            return candidate.resolve()
    raise ConfigError(path, "(file)", str(path), f"no such file; looked at: {', '.join(map(str, tried))}")


def _resolve_inner(path: str, owner: Path, field: str) -> Path:
    """A path written inside a config file: absolute, else relative to the config root, else to the file's folder."""
    p = Path(path)
    tried = [p] if p.is_absolute() else [config_root() / p, owner.parent / p]
    for candidate in tried:
        if candidate.is_file():
            return candidate.resolve()
    raise ConfigError(owner, field, path, f"no such file; looked at: {', '.join(map(str, tried))}")


def resolve_in_config_root(path) -> Path:
    """The file a path from an untrusted source (a replay's header) names: only a relative path to an
    existing ``.yaml`` file that, with ``..`` and symbolic links resolved, lies under the config root.
    Such a path never makes the tool read (and echo in an error) a file from elsewhere, and never
    depends on the current folder. Raises ValueError naming the path and what is allowed."""
    root = config_root().resolve()
    allowed = f"allowed: a .yaml file under the config root {root}, named relative to it (boards/zm_hall.yaml)"
    p = Path(path)
    if p.is_absolute():
        raise ValueError(f"{str(path)!r:.80} is an absolute path; {allowed}")
    full = (root / p).resolve()
    if not full.is_relative_to(root):
        raise ValueError(f"{str(path)!r:.80} is outside the config root (it leaves it with '..' or a link); {allowed}")
    if full.suffix != ".yaml" or not full.is_file():
        raise ValueError(f"{str(path)!r:.80} is not a .yaml file under the config root; {allowed}")
    return full


# libyaml's loader when PyYAML was built with it (the wheels are): the same data and error marks as
# yaml.SafeLoader, about 10x faster (the default game's ten files took 0.26 s of its 0.37 s build)
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_MERGE_TAG = "tag:yaml.org,2002:merge"


class _RepeatedKey(yaml.YAMLError):
    """A key written twice in one mapping (``mapping`` is its node; ``first``/``again`` the key nodes)."""

    def __init__(self, mapping, key, first, again):
        super().__init__(f"repeated key {key!r}")
        self.mapping, self.key, self.first, self.again = mapping, key, first, again


class _UniqueKeyLoader(_YAML_LOADER):
    """The safe loader refusing a key written twice in one mapping: YAML keeps the last value
    silently, so a weapon's ``strength: 3`` written again as ``strength: 9`` loaded as 9 (issue 5,
    2026-12-01). A merge (``<<: *base``) may still be overridden by the mapping's own keys."""

    def get_single_data(self):
        self.root = self.get_single_node()  # kept to name the field path of a repeated key
        return None if self.root is None else self.construct_document(self.root)

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            seen = {}
            for key_node, _ in node.value:
                if key_node.tag == _MERGE_TAG:
                    continue
                key = self.construct_object(key_node, deep=True)  # cached: built once
                try:
                    first = seen.setdefault(key, key_node)
                except TypeError:  # an unhashable key: the safe constructor refuses it below
                    continue
                if first is not key_node:
                    raise _RepeatedKey(node, key, first, key_node)
        return super().construct_mapping(node, deep)


def _node_path(root, target) -> tuple:
    """The keys and list indexes leading from the document ``root`` to the node ``target``
    (a walk with its own stack: deep documents do not reach Python's recursion limit)."""
    stack, seen = [(root, ())], set()
    while stack:
        node, path = stack.pop()
        if node is target:
            return path
        if id(node) in seen:  # an alias: the same node twice
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            stack += [(v, path + (str(k.value) if isinstance(k, yaml.ScalarNode) else "?",)) for k, v in node.value]
        elif isinstance(node, yaml.SequenceNode):
            stack += [(v, path + (i,)) for i, v in enumerate(node.value)]
    return ()


def _load_yaml(file: Path, text: str):
    """The document of ``text``; a repeated key is a ConfigError naming its field path and lines."""
    loader = _UniqueKeyLoader(text)
    try:
        return loader.get_single_data()
    except _RepeatedKey as dup:
        path = _node_path(loader.root, dup.mapping) + (str(dup.key),)
        lines = f"line {dup.again.start_mark.line + 1} repeats it (first at line {dup.first.start_mark.line + 1})"
        raise ConfigError(file, format_loc(path), dup.key, f"each key once in a mapping: {lines}") from None
    finally:
        loader.dispose()


def read_yaml(file: Path) -> dict:
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(file, "(file)", str(file), f"a readable UTF-8 file ({exc})") from None
    try:
        data = _load_yaml(file, text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else 0
        lines = text.splitlines()
        bad = lines[line - 1] if 0 < line <= len(lines) else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise ConfigError(file, f"line {line}", bad.strip(), f"valid YAML ({problem})") from None
    if not isinstance(data, dict):
        raise ConfigError(file, "(top level)", data, "expected a mapping of fields (key: value)")
    return data


def _validate(model, data, file):
    try:
        return model.model_validate(data)
    except pydantic.ValidationError as exc:
        raise from_validation_error(file, exc, model) from None


def load_file(model, path, default: str | None = None, extends: bool = False):
    """(resolved path, validated ``model``) of a YAML config file; ``path=None`` takes ``default``
    under the config root; ``extends``: the file may vary another (``extends:``,
    necro_env/config/extends.py). Errors are ``ConfigError`` naming file, field, value and what is
    allowed."""
    file = config_root() / default if path is None else resolve_path(path)
    if path is None and not file.is_file():
        raise ConfigError(file, "(file)", str(file), "the default config file is missing")
    if extends:
        from .extends import read_with_extends

        return file, _validate(model, read_with_extends(file), file)
    return file, _validate(model, read_yaml(file), file)


def _readonly(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def _choices(names, limit=60) -> str:
    names = list(names)
    text = ", ".join(names[:limit])
    return text + (", ..." if len(names) > limit else "")


# ---------------------------------------------------------------------------
# Weapons and armour
# ---------------------------------------------------------------------------


def _profile_row(p: S.ProfileFile) -> np.ndarray:
    row = np.zeros(NPF, np.int32)
    row[PF_VALID] = 1
    if p.long == "E":
        row[PF_SHORT], row[PF_LONG] = -1, LONG_MELEE
    elif p.long == "T":
        row[PF_SHORT], row[PF_LONG] = -1, LONG_TEMPLATE
    elif isinstance(p.long, str):  # "Sx3"
        row[PF_SHORT], row[PF_LONG] = int(p.long[2:]), LONG_GRENADE
    else:
        row[PF_SHORT], row[PF_LONG] = (-1 if p.short is None else p.short), p.long
    row[PF_ACC_S], row[PF_ACC_L] = p.acc_short, p.acc_long
    if isinstance(p.strength, str):  # "S", "S+1"
        row[PF_S], row[PF_S_USER] = int(p.strength[2:] or 0), 1
    else:
        row[PF_S] = p.strength
    row[PF_AP] = -p.ap
    row[PF_D] = p.damage
    row[PF_AMMO] = p.ammo or 0
    traits = p.trait_dict
    row[PF_RAPID] = traits.get("rapid_fire", 0)
    row[PF_BLAST] = traits.get("blast", 0)
    mask = 0
    mask2 = 0
    for name in traits:
        if name in TRAIT2_NAMES:
            mask2 |= TRAIT2_NAMES[name] >> 32
        else:
            mask |= TRAIT_NAMES[name]
    row[PF_TRAITS] = mask
    row[PF_TRAITS2] = mask2
    return row


def load_weapons(path=None) -> WeaponTable:
    file, data = load_file(S.WeaponsFile, path, "weapons.yaml")
    profiles = np.zeros((len(data.weapons), MAX_PROFILES, NPF), np.int32)
    for i, w in enumerate(data.weapons):
        for j, p in enumerate(w.profiles):
            profiles[i, j] = _profile_row(p)
    names = tuple(w.name for w in data.weapons)
    return WeaponTable(
        names=names,
        profile_names=tuple(tuple(p.name for p in w.profiles) for w in data.weapons),
        profiles=_readonly(profiles),
        index={n: i for i, n in enumerate(names)},
        costs=tuple(w.cost for w in data.weapons),
        source=str(file),
    )


def load_armours(path=None) -> ArmourTable:
    file, data = load_file(S.ArmoursFile, path, "armour.yaml")
    table = np.zeros((len(data.armours), NAF), np.int32)
    for i, a in enumerate(data.armours):
        table[i, AF_SAVE] = a.save
        table[i, AF_FRONT_SAVE] = a.front_save or 0
        table[i, AF_TEMPLATE_SAVE] = a.template_save or 0
        table[i, AF_CHARGE_PENALTY] = a.charge_penalty
        table[i, AF_INIT_PENALTY] = a.initiative_penalty
    names = tuple(a.name for a in data.armours)
    return ArmourTable(names, _readonly(table), {n: i for i, n in enumerate(names)}, str(file))


# ---------------------------------------------------------------------------
# Houses and gangs
# ---------------------------------------------------------------------------


def _unknown(file, field, value, names, what) -> ConfigError:
    names = list(names)
    hint = S._did_you_mean(value, names)
    return ConfigError(file, field, value, f"{hint}expected one of the {what}: {_choices(names)}")


def load_house(path, armours: ArmourTable | None = None) -> House:
    file, data = load_file(S.HouseFile, path)
    armours = armours or load_armours()
    types = {}
    for key, t in data.types.items():
        if t.armour not in armours.index:
            raise _unknown(file, f"types.{key}.armour", t.armour, armours.names, f"armours in {armours.source}")
        chars = np.array([getattr(t.chars, c) for c in CHAR_ORDER], np.int32)
        assert chars.shape == (NCH,)
        types[key] = FighterType(
            name=key, role=ROLE_NAMES[t.role], chars=_readonly(chars), armour=t.armour, bodyglove=t.bodyglove,
            field_armour=t.field_armour, group_activation=t.group_activation, gang_hierarchy=t.gang_hierarchy,
            shield=t.shield,
        )
    return House(data.name, types, str(file))


def load_gang(path, weapons: WeaponTable | None = None, armours: ArmourTable | None = None) -> GangSpec:
    file, data = load_file(S.GangFile, path)
    weapons = weapons or load_weapons()
    armours = armours or load_armours()
    house_file = config_root() / "houses" / f"{data.house}.yaml"
    if not house_file.is_file():
        known = sorted(p.stem for p in house_file.parent.glob("*.yaml"))
        raise _unknown(file, "house", data.house, known, f"houses in {house_file.parent}")
    house = load_house(house_file, armours)
    fighters = []
    for i, f in enumerate(data.fighters):
        at = f"fighters[{i}]"
        if f.type not in house.types:
            raise _unknown(file, f"{at}.type", f.type, house.types, f"fighter types of house {house.name}")
        ftype = house.types[f.type]
        for j, w in enumerate(f.weapons):
            if w not in weapons.index:
                raise _unknown(file, f"{at}.weapons[{j}]", w, weapons.names, f"weapons in {weapons.source}")
        armour = f.armour or ftype.armour
        if armour not in armours.index:
            raise _unknown(file, f"{at}.armour", armour, armours.names, f"armours in {armours.source}")
        fighters.append(FighterSpec(
            name=f.name, type_name=f.type, role=ftype.role, chars=ftype.chars,
            weapons=tuple(weapons.index[w] for w in f.weapons), armour=armours.index[armour],
            bodyglove=ftype.bodyglove if f.bodyglove is None else f.bodyglove,
            field_armour=ftype.field_armour if f.field_armour is None else f.field_armour,
            group_activation=ftype.group_activation, gang_hierarchy=HIERARCHY[ftype.gang_hierarchy],
            shield=SHIELD_NAMES[ftype.shield if f.shield is None else f.shield],
            start_conditions=start_condition_bits(f.start_conditions),
        ))
        if "mounted" in f.start_conditions:  # Hands Full loadout limits (4.3)
            check_mounted_loadout(fighters[-1], weapons, file, f"{at}.weapons")
    return GangSpec(data.name, house.name, tuple(fighters), str(file))


def start_condition_bits(names) -> int:
    """The state.C_* bits of condition names (already checked against schemas.START_CONDITIONS)."""
    from necro_env.rulesets.necromunda.state import COND_NAMES

    bits = 0
    for n in names:
        bits |= COND_NAMES[n]
    return bits


# ---------------------------------------------------------------------------
# Boards and scenarios
# ---------------------------------------------------------------------------


def load_board(path) -> BoardSpec:
    file, data = load_file(S.BoardFile, path)
    try:
        grid = S.check_board_map(data)
    except FieldProblem as problem:
        raise from_problem(file, problem) from None
    h, w = grid.terrain.shape
    return BoardSpec(
        name=data.name, description=data.description, height=h, width=w,
        terrain=_readonly(grid.terrain), doors=_readonly(grid.doors), terminals=_readonly(grid.terminals),
        ductways=_readonly(grid.ductways), caskets=_readonly(grid.caskets), deploy=_readonly(grid.deploy),
        source=str(file), heights=_readonly(grid.heights), features=_readonly(grid.features),
    )


def doors_at_start(board: BoardSpec, mode: str) -> BoardSpec:
    """``board`` with its doors as a scenario's ``doors_start`` says: "closed" or "open" sets
    every door that is not locked, "map" keeps the board's own states."""
    doors = board.doors.copy()
    if mode == "closed":
        doors[doors[:, 2] == DOOR_OPEN, 2] = DOOR_CLOSED
    elif mode == "open":
        doors[doors[:, 2] == DOOR_CLOSED, 2] = DOOR_OPEN
    return dataclasses.replace(board, doors=_readonly(doors))


def load_scenario(path=None) -> ScenarioSpec:
    file, data = load_file(S.ScenarioFile, path, "scenarios/gang_fight.yaml")
    board = load_board(_resolve_inner(data.board, file, "board"))
    zones = int(board.deploy.max()) + 1
    if len(data.gangs) > zones:
        allowed = f"board {board.name!r} has deployment zones for {zones} gangs only"
        raise ConfigError(file, "gangs", list(data.gangs), allowed)
    weapons, armours = load_weapons(), load_armours()
    gangs = tuple(
        load_gang(_resolve_inner(g, file, f"gangs[{i}]"), weapons, armours) for i, g in enumerate(data.gangs)
    )
    board = doors_at_start(board, data.doors_start)
    return ScenarioSpec(data.name, board, gangs, data.round_limit, str(file), data.variant, data.doors_start)


# ---------------------------------------------------------------------------
# Mounted fighters: Hands Full loadout limits (rules 4.3; docs/rules.md)
# ---------------------------------------------------------------------------


def check_mounted_loadout(spec: FighterSpec, weapons: WeaponTable, file, field: str) -> None:
    """A fighter that starts Mounted (Hands Full, rules 4.3) carries one weapon fewer than the
    limit (``schemas.MAX_WEAPONS`` - 1) and no weapon with an Unwieldy profile unless that
    weapon also has Lance. Raises ConfigError naming ``file`` and ``field`` (the fighter's
    weapons list)."""
    from necro_env.rulesets.necromunda.constants import PF_TRAITS, PF_TRAITS2, PF_VALID, T2_LANCE, T_UNWIELDY

    names = [weapons.names[w] for w in spec.weapons]
    limit = S.MAX_WEAPONS - 1
    if len(names) > limit:
        raise ConfigError(file, field, names, f"a Mounted fighter carries one weapon fewer (Hands Full, rules 4.3): "
                                              f"at most {limit} weapons")
    for j, w in enumerate(spec.weapons):
        prof = weapons.profiles[w]
        valid = prof[:, PF_VALID] == 1
        unwieldy = bool(np.any(prof[valid, PF_TRAITS] & T_UNWIELDY))
        lance = bool(np.any(prof[valid, PF_TRAITS2] & (T2_LANCE >> 32)))
        if unwieldy and not lance:
            raise ConfigError(file, f"{field}[{j}]", names[j], "a Mounted fighter carries no Unwieldy weapon unless it "
                                                               "also has Lance (Hands Full, rules 4.3)")
