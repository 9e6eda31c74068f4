"""Grimdark Future: Firefight data: armies, army lists with the force-organisation checks, and boards.

The YAML files live under ``configs/firefight/`` (``armies/``, ``lists/``, ``boards/``); their
formats, the force-organisation arithmetic and every reading of the rules are in
docs/firefight_data.md. The schemas are pydantic models that refuse unknown keys, as
necro_env/config/schemas.py does, and every problem ends as one ``ConfigError`` naming the file,
the field, the value and what is allowed (the project's ``from_validation_error`` translation).
Files are read with the project's ``read_yaml`` (a key written twice is refused) and paths resolve
as ``necro_env.config.loader`` resolves them (absolute, the working directory, the config root).

    army = load_army("firefight/armies/orc_marauders.yaml")
    lst = load_list("firefight/lists/orc_marauders_195.yaml")   # resolves its army, checks §2.1/§2.2
    board = load_board("firefight/boards/ruined_city.yaml")      # Board: numpy arrays per cell

Section numbers (§) are those of the rules digest ../shared/rules/firefight.md.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections import Counter, deque
from dataclasses import dataclass
from typing import Annotated, Literal, NamedTuple

import numpy as np
from pydantic import BeforeValidator, model_validator

from necro_env.config import schemas as S
from necro_env.config.errors import ConfigError, FieldProblem, from_problem
from necro_env.config.loader import _readonly, _resolve_inner, _validate, config_root, load_file

# ---------------------------------------------------------------------------
# Special rules (§10): every rule of the seed, its parameter and where it may be written
# ---------------------------------------------------------------------------

WEAPON, UNIT, EITHER = "weapon", "unit", "either"


class RuleSpec(NamedTuple):
    param: tuple[int, int] | None  # the allowed X of Name(X), or None: the rule takes no parameter
    where: str  # WEAPON, UNIT or EITHER: what the seed's wording attaches it to (docs/firefight_data.md)


_X = (1, 12)
RULES = {
    "Ambush": RuleSpec(None, UNIT),
    "AP": RuleSpec((1, 6), WEAPON),  # written as the weapon's ``ap`` field, never in a rules list
    "Bane": RuleSpec(None, WEAPON),
    "Blast": RuleSpec(_X, WEAPON),
    "Caster": RuleSpec((1, 6), UNIT),  # a caster holds at most 6 tokens (§10), so more per round means nothing
    "Counter": RuleSpec(None, WEAPON),
    "Deadly": RuleSpec(_X, WEAPON),
    "Fast": RuleSpec(None, UNIT),
    "Fear": RuleSpec(_X, UNIT),
    "Fearless": RuleSpec(None, UNIT),
    "Flying": RuleSpec(None, UNIT),
    "Furious": RuleSpec(None, UNIT),
    "Hero": RuleSpec(None, UNIT),
    "Immobile": RuleSpec(None, UNIT),
    "Impact": RuleSpec(_X, UNIT),
    "Indirect": RuleSpec(None, WEAPON),
    "Limited": RuleSpec(None, EITHER),
    "Regeneration": RuleSpec(None, UNIT),
    "Relentless": RuleSpec(None, UNIT),
    "Reliable": RuleSpec(None, WEAPON),
    "Rending": RuleSpec(None, WEAPON),
    "Scout": RuleSpec(None, UNIT),
    "Slow": RuleSpec(None, UNIT),
    "Stealth": RuleSpec(None, UNIT),
    "Strider": RuleSpec(None, UNIT),
    "Surge": RuleSpec(None, WEAPON),
    "Thrust": RuleSpec(None, EITHER),
    "Tough": RuleSpec(_X, UNIT),
    "Unstoppable": RuleSpec(None, WEAPON),
}
_RULE_RE = re.compile(r"^([A-Za-z]+)(?:\(([0-9]+)\))?$")
_ARMY_RULE_RE = re.compile(r"^[A-Z][A-Za-z]*$")


def allowed_rules(where: str, army_rules=()) -> str:
    """The rules a weapon or a unit may have, as an error message lists them."""
    names = [f"{n}(X)" if spec.param else n
             for n, spec in RULES.items() if spec.where in (where, EITHER) and n != "AP"]
    text = f"rules a {where} may have (firefight.md §10, X an integer): {', '.join(names)}"
    return text + (f"; this army's rules: {', '.join(army_rules)}" if army_rules else "")


def parse_rule(text, where: str, army_rules=()) -> tuple[str, int]:
    """``'Hero'`` -> ``('Hero', 0)``, ``'Tough(3)'`` -> ``('Tough', 3)``; raises FieldProblem naming the
    allowed rules for an unknown name, a missing or unwanted parameter, or a rule of the other kind
    (``where`` is WEAPON or UNIT). ``army_rules``: the names of the army file's own rules (units only)."""
    allowed = allowed_rules(where, army_rules)
    m = _RULE_RE.match(text) if isinstance(text, str) else None
    if m is None:
        raise FieldProblem((), text, f"expected a special rule written Name or Name(X), e.g. 'Hero' or 'Tough(3)'; "
                                     f"{allowed}")
    name, x = m.group(1), m.group(2)
    if name in army_rules and where == UNIT:
        return name, _param(text, name, x, RuleSpec(None, UNIT), allowed)
    spec = RULES.get(name)
    if spec is None:
        hint = S._did_you_mean(name, [*RULES, *army_rules])
        raise FieldProblem((), text, f"unknown special rule; {hint}{allowed}")
    if name == "AP":
        raise FieldProblem((), text, "AP(X) is written as the weapon's field 'ap: X', not in its rules "
                                     "(firefight.md §10)")
    if spec.where not in (where, EITHER):
        raise FieldProblem((), text, f"{name} is a {spec.where} rule (firefight.md §10), not a {where} rule; "
                                     f"{allowed}")
    return name, _param(text, name, x, spec, allowed)


def _param(text, name: str, x: str | None, spec: RuleSpec, allowed: str) -> int:
    """X of Name(X) (0 for a rule without one), checked against the rule's parameter kind."""
    if spec.param is None:
        if x is not None:
            raise FieldProblem((), text, f"{name} takes no parameter: write '{name}'; {allowed}")
        return 0
    lo, hi = spec.param
    if x is None:
        raise FieldProblem((), text, f"{name} needs its parameter: {name}(X) with X an integer {lo}..{hi}; {allowed}")
    if not lo <= int(x) <= hi:
        raise FieldProblem((), text, f"{name}(X) takes an integer X = {lo}..{hi}")
    return int(x)


def _parse_rules(texts, at: tuple, where: str, army_rules=()) -> dict[str, int]:
    """The rules of one list (``at`` its field path) as {name: X}; each rule at most once."""
    out: dict[str, int] = {}
    for j, text in enumerate(texts):
        try:
            name, x = parse_rule(text, where, army_rules)
        except FieldProblem as problem:
            raise FieldProblem(at + (j,), problem.value, problem.allowed) from None
        if name in out:
            raise FieldProblem(at + (j,), text, f"each special rule at most once per {where}")
        out[name] = x
    return out


# ---------------------------------------------------------------------------
# Army files (configs/firefight/armies/<army>.yaml)
# ---------------------------------------------------------------------------

MELEE = 0  # Weapon.range of a melee weapon (it has no range, §1)
MAX_RANGE = 96
MAX_MODELS = 20


def _check_range(v):
    if v == "melee" or (S._is_int(v) and 1 <= v <= MAX_RANGE):
        return v
    raise FieldProblem((), v, f"expected a range in inches 1..{MAX_RANGE}, or 'melee' (melee weapons have no range, "
                              "firefight.md §1)")


def _check_army_rule_name(v):
    if not isinstance(v, str) or not _ARMY_RULE_RE.match(v) or v in RULES:
        raise FieldProblem((), v, "expected an army rule name in CamelCase letters (BadShot) that is not a rule of "
                                  "firefight.md §10")
    return v


def _weapon_rules(v):
    if not isinstance(v, list):
        raise FieldProblem((), v, f"expected a list of special rules; {allowed_rules(WEAPON)}")
    return _parse_rules(v, (), WEAPON)


class WeaponFile(S.Strict):
    name: S.Name
    label: str = ""
    range: Annotated[int | str, BeforeValidator(_check_range)]
    attacks: S.int_in(1, 50, "an Attacks count")
    ap: S.int_in(0, 6, "an AP(X) value (0 for none)") = 0
    rules: Annotated[dict[str, int], BeforeValidator(_weapon_rules)] = {}


class OptionFile(S.Strict):
    name: S.Name
    label: str = ""
    replace: list[S.Name] = []
    add: list[S.Name] = []
    rules: list[str] = []
    cost: S.int_in(0, 1000, "a cost in points")


class UnitFile(S.Strict):
    name: S.Name
    label: str = ""
    size: S.int_in(1, MAX_MODELS, "a number of models")
    quality: S.int_in(2, 6, "a Quality (4 for 4+)")
    defense: S.int_in(2, 6, "a Defense (5 for 5+)")
    rules: list[str] = []
    equipment: list[S.Name]
    cost: S.int_in(1, 1000, "a cost in points")
    options: list[OptionFile] = []
    note: str = ""


class ArmyRuleFile(S.Strict):
    name: Annotated[str, BeforeValidator(_check_army_rule_name)]
    ranged_quality: S.int_in(2, 6, "the Quality of the unit's ranged hit rolls")
    description: str = ""


class ArmyFile(S.Strict):
    name: S.Name
    label: str = ""
    source: str = ""
    army_rules: list[ArmyRuleFile] = []
    weapons: list[WeaponFile]
    units: list[UnitFile]

    @model_validator(mode="after")
    def _consistent(self):
        _check_army(self)
        return self


def _check_army(army: ArmyFile) -> None:
    """Names unique, every weapon a unit or an option names exists, every unit rule known."""
    for field, what in (("weapons", "weapon"), ("units", "unit"), ("army_rules", "army rule")):
        items = getattr(army, field)
        if not items and field != "army_rules":
            raise FieldProblem((field,), [], f"at least one {what}")
        S._unique(items, lambda item: item.name, (field,), what)
    weapons = {w.name for w in army.weapons}
    army_rules = {r.name: r.ranged_quality for r in army.army_rules}
    for i, unit in enumerate(army.units):
        _check_unit(unit, ("units", i), weapons, army_rules)


def _check_unit(unit: UnitFile, at: tuple, weapons: set, army_rules: dict) -> None:
    if not unit.equipment:
        raise FieldProblem(at + ("equipment",), [], "at least one weapon (what each model of the unit carries)")
    _known_weapons(unit.equipment, at + ("equipment",), weapons)
    rules = _parse_rules(unit.rules, at + ("rules",), UNIT, army_rules)
    _hero_alone(rules, unit.size, at + ("size",))
    _one_ranged_quality(rules, army_rules, at + ("rules",))
    S._unique(unit.options, lambda o: o.name, at + ("options",), "option")
    for k, option in enumerate(unit.options):
        _check_option(option, at + ("options", k), unit, rules, weapons, army_rules)


def _check_option(option: OptionFile, at: tuple, unit: UnitFile, rules: dict, weapons: set, army_rules: dict):
    if not (option.replace or option.add or option.rules):
        raise FieldProblem(at, option.name, "an option replaces weapons, adds weapons or adds rules: give at least "
                                            "one of replace, add, rules")
    for j, w in enumerate(option.replace):
        if option.replace[: j + 1].count(w) > unit.equipment.count(w):
            raise FieldProblem(at + ("replace", j), w, f"an option replaces weapons the unit carries: "
                                                       f"{', '.join(unit.equipment)}")
    _known_weapons(option.add, at + ("add",), weapons)
    added = _parse_rules(option.rules, at + ("rules",), UNIT, army_rules)
    for j, name in enumerate(added):
        if name in rules:
            raise FieldProblem(at + ("rules", j), option.rules[j], f"the unit has {name} already")
    _hero_alone(added, unit.size, at + ("rules",))
    _one_ranged_quality({**rules, **added}, army_rules, at + ("rules",))


def _known_weapons(names, at: tuple, weapons: set) -> None:
    for j, w in enumerate(names):
        if w not in weapons:
            hint = S._did_you_mean(w, weapons)
            raise FieldProblem(at + (j,), w, f"{hint}expected a weapon of this file: {', '.join(sorted(weapons))}")


def _hero_alone(rules: dict, size: int, at: tuple) -> None:
    # firefight.md §13 Q28: the seed has no rules for heroes joining units, so a hero is its own one-model unit
    if "Hero" in rules and size != 1:
        raise FieldProblem(at, size, "a Hero is a one-model unit (firefight.md §13 Q28: the seed has no "
                                                 "joining rules)")


def _one_ranged_quality(rules: dict, army_rules: dict, at: tuple) -> None:
    mine = [name for name in rules if name in army_rules]
    if len(mine) > 1:
        raise FieldProblem(at, mine, "at most one army rule setting ranged_quality per unit")


# ---------------------------------------------------------------------------
# Loaded armies
# ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Weapon:
    name: str
    label: str
    range: int  # inches; MELEE (0) for a melee weapon
    attacks: int
    ap: int
    rules: dict[str, int]  # {rule name: X}, X = 0 for a rule without a parameter

    @property
    def melee(self) -> bool:
        return self.range == MELEE


@dataclass(frozen=True, eq=False)
class Option:
    name: str
    label: str
    replace: tuple[str, ...]  # weapon names each model gives up
    add: tuple[str, ...]  # weapon names each model gains
    rules: dict[str, int]  # rules the unit gains
    cost: int


@dataclass(frozen=True, eq=False)
class UnitType:
    name: str
    label: str
    size: int  # models
    quality: int
    defense: int
    ranged_quality: int  # Quality of ranged hit rolls: ``quality`` unless an army rule replaces it (§14)
    rules: dict[str, int]
    equipment: tuple[str, ...]  # weapon names, what each model carries
    cost: int  # points for the whole unit
    options: dict[str, Option]
    note: str = ""


@dataclass(frozen=True, eq=False)
class Army:
    name: str
    label: str
    weapons: dict[str, Weapon]
    units: dict[str, UnitType]
    army_rules: dict[str, int]  # {army rule name: the ranged Quality it sets}
    source_note: str  # where the data comes from (the file's ``source``)
    source: str  # the file


def _weapon(w: WeaponFile) -> Weapon:
    rng = MELEE if w.range == "melee" else w.range
    return Weapon(w.name, w.label or w.name, rng, w.attacks, w.ap, dict(w.rules))


def _ranged_quality(quality: int, rules, army_rules) -> int:
    return next((army_rules[name] for name in rules if name in army_rules), quality)


def _unit_type(u: UnitFile, army_rules: dict) -> UnitType:
    rules = _parse_rules(u.rules, (), UNIT, army_rules)
    options = {o.name: Option(o.name, o.label or o.name, tuple(o.replace), tuple(o.add),
                              _parse_rules(o.rules, (), UNIT, army_rules), o.cost)
               for o in u.options}
    return UnitType(u.name, u.label or u.name, u.size, u.quality, u.defense,
                    _ranged_quality(u.quality, rules, army_rules), rules, tuple(u.equipment),
                    u.cost, options, u.note)


def load_army(path) -> Army:
    """An army file (configs/firefight/armies/<army>.yaml): its weapons, unit types and options."""
    file, data = load_file(ArmyFile, path)
    army_rules = {r.name: r.ranged_quality for r in data.army_rules}
    return Army(
        name=data.name, label=data.label or data.name,
        weapons={w.name: _weapon(w) for w in data.weapons},
        units={u.name: _unit_type(u, army_rules) for u in data.units},
        army_rules=army_rules, source_note=data.source, source=str(file),
    )


# ---------------------------------------------------------------------------
# Army lists (configs/firefight/lists/<list>.yaml)
# ---------------------------------------------------------------------------


class ListUnitFile(S.Strict):
    unit: S.Name
    options: list[S.Name] = []


class ListFile(S.Strict):
    name: S.Name
    description: str = ""
    army: S.Text
    points: S.int_in(1, 10000, "a points limit (firefight.md §2.1 recommends 200, then 300)")
    force_org: bool = True
    units: list[ListUnitFile]

    @model_validator(mode="after")
    def _some_units(self):
        if not self.units:
            raise FieldProblem(("units",), [], "at least one unit")
        return self


@dataclass(frozen=True, eq=False)
class ListUnit:
    """One unit of a list: its type with the chosen options applied."""
    unit: str  # the unit type's name in the army
    label: str
    options: tuple[str, ...]
    size: int
    quality: int
    defense: int
    ranged_quality: int
    rules: dict[str, int]
    equipment: tuple[str, ...]
    cost: int  # the type's cost plus its options'


@dataclass(frozen=True, eq=False)
class ArmyList:
    name: str
    description: str
    army: Army
    points: int  # the points limit (§2.1); the force-organisation limits are computed from it
    force_org: bool  # whether the §2.2 limits were checked
    units: tuple[ListUnit, ...]
    total: int  # what the units cost
    source: str


def _army_file(name: str, file, field: str = "army"):
    """A list's ``army``: an army id (configs/firefight/armies/<id>.yaml) or a path to an army file."""
    if not name.endswith(".yaml"):
        folder = config_root() / "firefight" / "armies"
        path = folder / f"{name}.yaml"
        if not path.is_file():
            known = sorted(p.stem for p in folder.glob("*.yaml"))
            hint = S._did_you_mean(name, known)
            raise ConfigError(file, field, name, f"{hint}expected an army of {folder}: {', '.join(known)}, or a path "
                                                 "to an army .yaml file")
        return path
    return _resolve_inner(name, file, field)


def _list_unit(army: Army, entry: ListUnitFile, file, at: str) -> ListUnit:
    utype = army.units.get(entry.unit)
    if utype is None:
        hint = S._did_you_mean(entry.unit, army.units)
        raise ConfigError(file, f"{at}.unit", entry.unit, f"{hint}expected a unit of army {army.name}: "
                                                          f"{', '.join(army.units)}")
    equipment, rules, cost = list(utype.equipment), dict(utype.rules), utype.cost
    for j, name in enumerate(entry.options):
        option = _option(utype, entry.options, j, file, f"{at}.options[{j}]")
        equipment = _swap(equipment, option, file, f"{at}.options[{j}]")
        twice = sorted(set(option.rules) & set(rules))
        shots = [r for r in {**rules, **option.rules} if r in army.army_rules]
        if twice:
            raise ConfigError(file, f"{at}.options[{j}]", name, f"the unit has {twice} already (from the unit or an "
                                                                "option before this one)")
        if len(shots) > 1:
            raise ConfigError(file, f"{at}.options[{j}]", name, f"at most one army rule setting ranged_quality per "
                                                                f"unit; with this option it has {shots}")
        rules.update(option.rules)
        cost += option.cost
    return ListUnit(utype.name, utype.label, tuple(entry.options), utype.size, utype.quality, utype.defense,
                    _ranged_quality(utype.quality, rules, army.army_rules), rules,
                    tuple(equipment), cost)


def _swap(equipment: list, option: Option, file, field: str) -> list:
    """``equipment`` with the option's weapons replaced; added weapons take the place of the first
    replaced one (a Mortar where the Heavy Machinegun was), else go last."""
    at = len(equipment)
    for w in option.replace:
        if w not in equipment:
            raise ConfigError(file, field, option.name, f"option {option.name} replaces {w}, which an option chosen "
                                                        "before it already replaced: choose one of them")
        at = min(at, equipment.index(w))
        equipment.remove(w)
    return equipment[:at] + list(option.add) + equipment[at:]


def _option(utype: UnitType, chosen: list, j: int, file, field: str) -> Option:
    name = chosen[j]
    if name not in utype.options:
        known = ", ".join(utype.options) or "none (this unit has no options)"
        raise ConfigError(file, field, name, f"{S._did_you_mean(name, utype.options)}expected an option of unit "
                                             f"{utype.name}: {known}")
    if name in chosen[:j]:
        raise ConfigError(file, field, name, "each option at most once per unit")
    return utype.options[name]


def load_list(path) -> ArmyList:
    """An army list: its army loaded, the chosen options applied, the points (§2.1) and, unless the
    file says ``force_org: false``, the force organisation (§2.2) checked."""
    file, data = load_file(ListFile, path)
    army = load_army(_army_file(data.army, file))
    units = tuple(_list_unit(army, entry, file, f"units[{i}]") for i, entry in enumerate(data.units))
    total = sum(u.cost for u in units)
    check_points(total, data.points, file)
    if data.force_org:
        check_force_org(units, data.points, file)
    return ArmyList(data.name, data.description, army, data.points, data.force_org, units, total, str(file))


# ---------------------------------------------------------------------------
# Points (§2.1) and force organisation (§2.2): docs/firefight_data.md
# ---------------------------------------------------------------------------

_FORCE_ORG = "force organisation (firefight.md §2.2)"


def check_points(total: int, points: int, file) -> None:
    """§2.1 and §13.1: armies are built to one points value, the list's limit; the units may cost less."""
    if total > points:
        raise ConfigError(file, "units", total, f"the units cost {total} pts in all; a list's units cost at most its "
                                                f"points limit, points: {points} (firefight.md §2.1)")


def force_org_limits(points: int) -> dict[str, tuple[int, str]]:
    """{limit name: (the limit at ``points``, how it is computed)}. Divisions round down (firefight.md §13 Q1;
    the seed says "full" 20 pts for models); at least one hero is allowed (§13 Q1)."""
    x = points // 150
    cost = points * 35 // 100  # 100 * cost <= 35 * points in whole numbers
    return {
        "heroes": (max(1, x), f"1 per 150 pts: floor({points} / 150) = {x}" + (", raised to 1" if x < 1 else "")),
        "copies": (1 + x, f"1 + X, X = 1 per 150 pts = floor({points} / 150) = {x}"),
        "unit_cost": (cost, f"35 % of {points} pts = {points * 35 / 100:g}"),
        "units": (points // 30, f"1 per 30 pts: floor({points} / 30) = {points // 30}"),
        "models": (points // 20, f"1 per full 20 pts: floor({points} / 20) = {points // 20}"),
    }


def check_force_org(units, points: int, file) -> None:
    """The first §2.2 limit ``units`` (ListUnits) break at ``points``, as a ConfigError naming the unit
    (``units[i]``), its value and the limit with how it is computed. Checked in the order heroes, copies,
    unit cost, unit count, model count."""
    limits = force_org_limits(points)
    _check_heroes(units, points, limits["heroes"], file)
    _check_copies(units, points, limits["copies"], file)
    _check_unit_cost(units, points, limits["unit_cost"], file)
    _check_unit_count(units, points, limits["units"], file)
    _check_model_count(units, points, limits["models"], file)


def _fields(indexes) -> str:
    return ", ".join(f"units[{i}]" for i in indexes)


def _check_heroes(units, points, limit_how, file) -> None:
    limit, how = limit_how
    heroes = [i for i, u in enumerate(units) if "Hero" in u.rules]
    if len(heroes) > limit:
        i = heroes[limit]
        raise ConfigError(file, f"units[{i}]", units[i].unit, f"{_FORCE_ORG}: at most {limit} hero(es) at {points} pts "
                                                              f"({how}); this is hero {limit + 1}, after "
                                                              f"{_fields(heroes[:limit])}")


def _check_copies(units, points, limit_how, file) -> None:
    limit, how = limit_how
    seen: dict[str, list[int]] = {}
    for i, u in enumerate(units):
        seen.setdefault(u.unit, []).append(i)
        if len(seen[u.unit]) > limit:
            raise ConfigError(file, f"units[{i}]", u.unit, f"{_FORCE_ORG}: at most {limit} copies of the same unit at "
                                                           f"{points} pts ({how}); this is copy {limit + 1}, after "
                                                           f"{_fields(seen[u.unit][:limit])}")


def _check_unit_cost(units, points, limit_how, file) -> None:
    limit, how = limit_how
    for i, u in enumerate(units):
        if u.cost > limit:
            raise ConfigError(file, f"units[{i}]", u.cost, f"{_FORCE_ORG}: a single unit costs at most {limit} pts at "
                                                           f"{points} pts ({how}); {u.unit} costs {u.cost}")


def _check_unit_count(units, points, limit_how, file) -> None:
    limit, how = limit_how
    if len(units) > limit:
        allowed = f"{_FORCE_ORG}: at most {limit} units at {points} pts ({how}); this is unit {limit + 1} of " \
                  f"{len(units)}"
        raise ConfigError(file, f"units[{limit}]", units[limit].unit, allowed)


def _check_model_count(units, points, limit_how, file) -> None:
    limit, how = limit_how
    models = 0
    for i, u in enumerate(units):
        models += u.size
        if models > limit:
            raise ConfigError(file, f"units[{i}]", u.unit, f"{_FORCE_ORG}: at most {limit} models at {points} pts "
                                                           f"({how}); units[0]..units[{i}] hold {models} ({u.unit} "
                                                           f"has {u.size})")


# ---------------------------------------------------------------------------
# Boards (configs/firefight/boards/<board>.yaml)
# ---------------------------------------------------------------------------

# Terrain flags of a cell (Board.flags, uint8), §9 and §12.1
TF_COVER = 1
TF_DIFFICULT = 2
TF_DANGEROUS = 4
TF_IMPASSABLE = 8
TF_BLOCKS_SIGHT = 16
# map character -> (kind, flags). Woods do not block sight: the digest makes only sight-blocking pieces
# block it (§9), and §12.6 already gives a target behind a cover cell its cover.
LEGEND = {
    ".": ("open", 0),
    "R": ("ruins", TF_COVER | TF_DIFFICULT),
    "W": ("woods", TF_COVER | TF_DIFFICULT),
    "b": ("barricade", TF_COVER),
    "~": ("dangerous", TF_DANGEROUS),
    "#": ("impassable", TF_IMPASSABLE | TF_BLOCKS_SIGHT),
    "P": ("platform", 0),
}
KINDS = tuple(kind for kind, _ in LEGEND.values())  # Board.kinds holds an index into this
CHAR_OF_KIND = {kind: ch for ch, (kind, _) in LEGEND.items()}
LEGEND_HELP = ("legend: '.' open ground, 'R' ruins (cover, difficult), 'W' woods (cover, difficult), 'b' barricade "
               "(cover), '~' dangerous ground, '#' impassable (blocks sight), 'P' raised platform or its ramp "
               "(height from the heights block)")
TABLE = 48  # inches: the 4' table (§2.3); one cell is one inch (§12)
ZONE_DEPTH = 12  # deploy within 12" of the own table edge (§2.5)
ZONE_GAP = 24  # deployment zones at least 24" apart (§2.3)
MIN_ACROSS = 12
MIN_PIECES = 20  # 20 or more terrain pieces (§2.3)
MAX_STEP = 1  # inches of height a step between neighbouring cells may climb or drop when walking (a ramp)
DEPLOYMENTS = ("top_bottom", "left_right")


class BoardFile(S.Strict):
    name: S.Name
    description: str = ""
    deployment: Literal["top_bottom", "left_right"] = "top_bottom"
    map: Annotated[str, BeforeValidator(S._check_map_text)]
    heights: Annotated[str | None, BeforeValidator(S._check_heights_text)] = None


@dataclass(frozen=True, eq=False)
class Board:
    name: str
    description: str
    height: int  # rows (y)
    width: int  # columns (x)
    flags: np.ndarray  # uint8 [H, W]: TF_* bits
    heights: np.ndarray  # int8 [H, W]: floor height in inches
    deploy: np.ndarray  # int8 [H, W]: deployment zone 0 or 1, -1 outside both
    kinds: np.ndarray  # uint8 [H, W]: index into KINDS (what to draw)
    pieces: int  # terrain pieces: groups of touching non-open cells (8-neighbours)
    deployment: str  # "top_bottom" (zone 0 along y = 0) or "left_right" (zone 0 along x = 0)
    source: str


def _map_cells(model: BoardFile) -> list[str]:
    rows = S._map_rows(model.map)
    along, across = (len(rows), len(rows[0]) if rows else 0)
    if model.deployment == "left_right":
        along, across = across, along
    if along != TABLE:
        raise FieldProblem(("map",), f"{len(rows)} rows of {len(rows[0]) if rows else 0}",
                           f"deployment {model.deployment!r} needs {TABLE} cells between the two deployment edges: "
                           f"zones {ZONE_DEPTH}\" deep (firefight.md §2.5), at least {ZONE_GAP}\" apart (§2.3), on a "
                           f"table at most {TABLE}\" across")
    if not MIN_ACROSS <= across <= TABLE:
        raise FieldProblem(("map",), f"{len(rows)} rows of {len(rows[0])}",
                           f"the board is {MIN_ACROSS}..{TABLE} cells along the deployment edges (firefight.md §2.3)")
    for y, row in enumerate(rows):
        if len(row) != len(rows[0]):
            raise FieldProblem(("map", y), row, f"every map row must be {len(rows[0])} characters long like row 0; "
                                                f"this one has {len(row)}")
        for x, ch in enumerate(row):
            if ch not in LEGEND:
                raise FieldProblem(("map", y, x), ch, f"unknown map character at x={x}, y={y}; {LEGEND_HELP}")
    return rows


def _heights(model: BoardFile, rows: list[str]) -> np.ndarray:
    """The heights block, or zeros; a platform cell ('P') stands 1".. high, every other cell at 0."""
    h, w = len(rows), len(rows[0])
    heights = np.zeros((h, w), np.int8)
    text = S._map_rows(model.heights) if model.heights is not None else ["0" * w] * h
    if len(text) != h:
        raise FieldProblem(("heights",), f"{len(text)} rows", f"the heights block needs {h} rows like the map")
    for y, row in enumerate(text):
        if len(row) != w:
            raise FieldProblem(("heights", y), row, f"every heights row must be {w} characters long like the map")
        for x, ch in enumerate(row):
            if ch not in S.HEIGHT_CHARS:
                raise FieldProblem(("heights", y, x), ch, f"bad height at x={x}, y={y}; expected {S.HEIGHTS_HELP}")
            heights[y, x] = S.HEIGHT_CHARS.index(ch)
            if (rows[y][x] == "P") != (heights[y, x] > 0):
                raise FieldProblem(("heights", y, x), ch, f"a raised platform or ramp cell ('P' on the map) stands 1 "
                                                          f"or more inches high, every other cell at 0; map[{y}][{x}] "
                                                          f"is {rows[y][x]!r}")
    return heights


def zones(height: int, width: int, deployment: str) -> np.ndarray:
    """Deployment zone per cell: 0 within 12" of the first edge, 1 within 12" of the opposite one (§2.5)."""
    deploy = np.full((height, width), -1, np.int8)
    if deployment == "top_bottom":
        deploy[:ZONE_DEPTH, :], deploy[height - ZONE_DEPTH:, :] = 0, 1
    else:
        deploy[:, :ZONE_DEPTH], deploy[:, width - ZONE_DEPTH:] = 0, 1
    return deploy


def count_pieces(kinds: np.ndarray) -> int:
    """Terrain pieces: groups of non-open cells touching by side or corner (touching pieces count as one)."""
    solid = kinds != KINDS.index("open")
    seen = np.zeros_like(solid)
    h, w = solid.shape
    n = 0
    for y0, x0 in zip(*np.nonzero(solid)):
        if seen[y0, x0]:
            continue
        n += 1
        seen[y0, x0] = True
        stack = [(y0, x0)]
        while stack:
            y, x = stack.pop()
            for ny in range(max(0, y - 1), min(h, y + 2)):
                for nx in range(max(0, x - 1), min(w, x + 2)):
                    if solid[ny, nx] and not seen[ny, nx]:
                        seen[ny, nx] = True
                        stack.append((ny, nx))
    return n


def reach(flags: np.ndarray, heights: np.ndarray, sources: np.ndarray) -> np.ndarray:
    """Cells reached from ``sources`` (bool [H, W]) by orthogonal steps into cells that are not impassable,
    climbing or dropping at most MAX_STEP inches a step (a ramp; §11's drops and jumps are not needed)."""
    passable = (flags & TF_IMPASSABLE) == 0
    seen = sources & passable
    h, w = flags.shape
    queue = deque(zip(*np.nonzero(seen)))
    while queue:
        y, x = queue.popleft()
        for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
            if (0 <= ny < h and 0 <= nx < w and passable[ny, nx] and not seen[ny, nx]
                    and abs(int(heights[ny, nx]) - int(heights[y, x])) <= MAX_STEP):
                seen[ny, nx] = True
                queue.append((ny, nx))
    return seen


def unreachable(flags: np.ndarray, heights: np.ndarray, deploy: np.ndarray) -> tuple[int, int, int] | None:
    """(x, y, zone) of the first cell (reading order) that is not impassable and that a zone cannot reach, else None."""
    passable = (flags & TF_IMPASSABLE) == 0
    for zone in (0, 1):
        cut = passable & ~reach(flags, heights, deploy == zone)
        if cut.any():
            y, x = (int(v) for v in np.argwhere(cut)[0])
            return x, y, zone
    return None


def _board(model: BoardFile, source: str) -> Board:
    """The Board of a validated board file; raises FieldProblem (the caller names the file)."""
    rows = _map_cells(model)
    h, w = len(rows), len(rows[0])
    codes = {ch: i for i, ch in enumerate(LEGEND)}
    kinds = np.array([[codes[ch] for ch in row] for row in rows], np.uint8)
    flags = np.array([flag for _, flag in LEGEND.values()], np.uint8)[kinds]
    heights = _heights(model, rows)
    deploy = zones(h, w, model.deployment)
    pieces = count_pieces(kinds)
    if pieces < MIN_PIECES:
        raise FieldProblem(("map",), f"{pieces} pieces", f"a battlefield has {MIN_PIECES} or more terrain pieces "
                                                         "(firefight.md §2.3); a piece is a group of non-'.' cells "
                                                         "touching by side or corner")
    cut = unreachable(flags, heights, deploy)
    if cut is not None:
        x, y, zone = cut
        raise FieldProblem(("map", y, x), rows[y][x], f"every cell that is not impassable must be reachable from both "
                                                      f"deployment zones (orthogonal steps, not through '#', climbing "
                                                      f"at most {MAX_STEP}\" a step); x={x}, y={y} is cut off from "
                                                      f"zone {zone}")
    return Board(model.name, model.description, h, w, _readonly(flags), _readonly(heights), _readonly(deploy),
                 _readonly(kinds), pieces, model.deployment, source)


def board_from_data(data: dict, source: str = "<generated>") -> Board:
    """A Board from the fields of a board file, checked as ``load_board`` checks a file."""
    model = _validate(BoardFile, data, source)
    try:
        return _board(model, source)
    except FieldProblem as problem:
        raise from_problem(source, problem) from None


def load_board(path) -> Board:
    """A board file (configs/firefight/boards/<board>.yaml): terrain flags, heights and zones per cell."""
    file, model = load_file(BoardFile, path)
    try:
        return _board(model, str(file))
    except FieldProblem as problem:
        raise from_problem(file, problem) from None


def board_to_yaml(board: Board, comment: str | None = None) -> str:
    """The text of a board file that ``load_board`` reads back as ``board``."""
    chars = np.array(list(LEGEND))[board.kinds]
    lines = [f"# {line}" for line in (comment or f"Board {board.name}. Format: docs/firefight_data.md.").splitlines()]
    lines += [f"# {line}" for line in textwrap.wrap(f"{LEGEND_HELP}.", 110)]
    lines += ["# Row 0 is the top (y = 0); the column is x; heights in inches ('a'-'f' = 10-15).",
              f"name: {board.name}", f"description: {json.dumps(board.description)}", f"deployment: {board.deployment}",
              "map: |"]
    lines += [f"  {''.join(row)}" for row in chars]
    if board.heights.any():
        lines.append("heights: |")
        lines += [f"  {''.join(S.HEIGHT_CHARS[int(v)] for v in row)}" for row in board.heights]
    return "\n".join(lines) + "\n"
