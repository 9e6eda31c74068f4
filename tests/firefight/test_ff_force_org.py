"""Army points (firefight.md §2.1) and the force organisation (§2.2, rounding of §13 Q1): each limit passes at
its exact boundary and is refused one step past it, at 200 and 300 pts, with a ConfigError naming the list
file, the unit (``units[i]``), the value and the limit with how it is computed (docs/firefight_data.md)."""
import pytest
import yaml

from necro_env.config import ConfigError
from necro_env.rulesets.firefight.data import check_force_org, force_org_limits, load_list


def unit(size=1, cost=10, hero=False):
    return {"size": size, "cost": cost, "rules": ["Hero"] if hero else []}


def load(tmp_path, points, picks, types, force_org=True):
    """A list of ``picks`` (unit type names) at ``points`` from an army of ``types`` {name: unit(...)}."""
    army = {"name": "test_army", "weapons": [{"name": "gun", "range": 24, "attacks": 1}],
            "units": [{"name": n, "quality": 4, "defense": 4, "equipment": ["gun"], **spec}
                      for n, spec in types.items()]}
    (tmp_path / "army.yaml").write_text(yaml.safe_dump(army, sort_keys=False))
    lst = {"name": "test_list", "army": "army.yaml", "points": points, "force_org": force_org,
           "units": [{"unit": p} for p in picks]}
    path = tmp_path / "list.yaml"
    path.write_text(yaml.safe_dump(lst, sort_keys=False))
    return load_list(path)


def refused(tmp_path, points, picks, types) -> ConfigError:
    with pytest.raises(ConfigError) as err:
        load(tmp_path, points, picks, types)
    assert err.value.file == str(tmp_path / "list.yaml")
    return err.value


def test_limits_are_the_digest_table():
    """firefight.md §2.2 table (floor rounding, §13 Q1): 1/2 heroes, 2/3 copies, 70/105 pts a unit, 6/10 units,
    10/15 models at 200/300 pts."""
    assert {k: v for k, (v, _) in force_org_limits(200).items()} == \
        {"heroes": 1, "copies": 2, "unit_cost": 70, "units": 6, "models": 10}
    assert {k: v for k, (v, _) in force_org_limits(300).items()} == \
        {"heroes": 2, "copies": 3, "unit_cost": 105, "units": 10, "models": 15}


@pytest.mark.parametrize("points, limit", [(200, 1), (300, 2)])
def test_heroes_per_150_pts(tmp_path, points, limit):
    """firefight.md §2.2: at most 1 hero per 150 pts (floor, §13 Q1)."""
    types = {"grunt": unit(), **{f"hero_{k}": unit(hero=True) for k in range(limit + 1)}}
    heroes = [f"hero_{k}" for k in range(limit + 1)]
    assert len(load(tmp_path, points, ["grunt", *heroes[:limit]], types).units) == limit + 1
    e = refused(tmp_path, points, ["grunt", *heroes], types)
    assert (e.field, e.value) == (f"units[{limit + 1}]", heroes[limit])
    assert f"at most {limit} hero(es) at {points} pts (1 per 150 pts: floor({points} / 150) = {limit})" in e.allowed
    assert f"this is hero {limit + 1}" in e.allowed


def test_heroes_round_down_with_at_least_one(tmp_path):
    """firefight.md §2.2 and §13 Q1: 299 pts allow floor(299 / 150) = 1 hero, and 100 pts still allow one."""
    types = {"hero_a": unit(hero=True), "hero_b": unit(hero=True)}
    e = refused(tmp_path, 299, ["hero_a", "hero_b"], types)
    assert e.field == "units[1]" and "floor(299 / 150) = 1" in e.allowed
    assert load(tmp_path, 100, ["hero_a"], types).units[0].unit == "hero_a"
    assert force_org_limits(100)["heroes"] == (1, "1 per 150 pts: floor(100 / 150) = 0, raised to 1")


@pytest.mark.parametrize("points, limit", [(200, 2), (300, 3)])
def test_copies_of_the_same_unit(tmp_path, points, limit):
    """firefight.md §2.2: at most 1 + X copies of one unit, X = 1 per 150 pts."""
    types = {"grunt": unit(), "other": unit()}
    assert len(load(tmp_path, points, ["other"] + ["grunt"] * limit, types).units) == limit + 1
    e = refused(tmp_path, points, ["other"] + ["grunt"] * (limit + 1), types)
    assert (e.field, e.value) == (f"units[{limit + 1}]", "grunt")
    assert f"at most {limit} copies of the same unit at {points} pts (1 + X, X = 1 per 150 pts = " \
           f"floor({points} / 150) = {limit - 1})" in e.allowed


def test_copies_count_the_unit_type_whatever_its_options(tmp_path):
    """firefight.md §2.2 "the same unit": a unit type with another option is still the same unit."""
    army = {"name": "a", "weapons": [{"name": "gun", "range": 24, "attacks": 1},
                                     {"name": "rifle", "range": 30, "attacks": 1}],
            "units": [{"name": "grunt", "size": 1, "quality": 4, "defense": 4, "equipment": ["gun"], "cost": 10,
                       "options": [{"name": "rifle", "replace": ["gun"], "add": ["rifle"], "cost": 1}]}]}
    (tmp_path / "army.yaml").write_text(yaml.safe_dump(army))
    path = tmp_path / "list.yaml"
    path.write_text(yaml.safe_dump({"name": "l", "army": "army.yaml", "points": 200,
                                    "units": [{"unit": "grunt"}, {"unit": "grunt", "options": ["rifle"]},
                                              {"unit": "grunt", "options": ["rifle"]}]}))
    with pytest.raises(ConfigError) as err:
        load_list(path)
    assert (err.value.field, err.value.value) == ("units[2]", "grunt")


@pytest.mark.parametrize("points, limit", [(200, 70), (300, 105)])
def test_single_unit_at_most_35_percent(tmp_path, points, limit):
    """firefight.md §2.2: no unit costs more than 35 % of the army; exactly 35 % passes, one point more fails."""
    assert load(tmp_path, points, ["big"], {"big": unit(cost=limit)}).units[0].cost == limit
    e = refused(tmp_path, points, ["small", "big"], {"small": unit(), "big": unit(cost=limit + 1)})
    assert (e.field, e.value) == ("units[1]", limit + 1)
    assert f"a single unit costs at most {limit} pts at {points} pts (35 % of {points} pts = {limit})" in e.allowed


@pytest.mark.parametrize("points, limit", [(200, 6), (300, 10)])
def test_one_unit_per_30_pts(tmp_path, points, limit):
    """firefight.md §2.2: at most 1 unit per 30 pts (floor, §13 Q1)."""
    types = {f"t{k}": unit() for k in range(limit + 1)}
    assert len(load(tmp_path, points, list(types)[:limit], types).units) == limit
    e = refused(tmp_path, points, list(types), types)
    assert (e.field, e.value) == (f"units[{limit}]", f"t{limit}")
    assert f"at most {limit} units at {points} pts (1 per 30 pts: floor({points} / 30) = {limit}); " \
           f"this is unit {limit + 1} of {limit + 1}" in e.allowed


@pytest.mark.parametrize("points, limit", [(200, 10), (300, 15), (219, 10)])
def test_one_model_per_full_20_pts(tmp_path, points, limit):
    """firefight.md §2.2: at most 1 model per full 20 pts (219 pts: still 10)."""
    mobs = [f"mob{k}" for k in range(limit // 5)]
    types = {**{m: unit(size=5) for m in mobs}, "single": unit()}
    assert sum(u.size for u in load(tmp_path, points, mobs, types).units) == limit
    e = refused(tmp_path, points, [*mobs, "single"], types)
    assert (e.field, e.value) == (f"units[{len(mobs)}]", "single")
    assert f"at most {limit} models at {points} pts (1 per full 20 pts: floor({points} / 20) = {limit}); " \
           f"units[0]..units[{len(mobs)}] hold {limit + 1}" in e.allowed


@pytest.mark.parametrize("points", [200, 300])
def test_points_within_the_limit(tmp_path, points):
    """firefight.md §2.1 (and §13.1 "Equal points"): the units cost at most the list's points; exactly the
    limit passes, one point more fails."""
    quarter = points // 4
    types = {f"p{k}": unit(cost=quarter) for k in range(3)}
    lst = load(tmp_path, points, ["p0", "p1", "p2", "last"], {**types, "last": unit(cost=quarter)})
    assert lst.total == points and lst.points == points
    e = refused(tmp_path, points, ["p0", "p1", "p2", "last"], {**types, "last": unit(cost=quarter + 1)})
    assert (e.field, e.value) == ("units", points + 1)
    assert f"at most its points limit, points: {points} (firefight.md §2.1)" in e.allowed


def test_force_org_false_skips_the_section_2_2_limits_only(tmp_path):
    """firefight.md §2.2 calls the force organisation optional; §2.1's points limit holds whatever the list says."""
    types = {f"hero_{k}": unit(hero=True, cost=80) for k in range(2)}
    lst = load(tmp_path, 200, list(types), types, force_org=False)
    assert lst.force_org is False and lst.total == 160
    with pytest.raises(ConfigError) as err:
        load(tmp_path, 200, [*types, "hero_0"], types, force_org=False)
    assert (err.value.field, err.value.value) == ("units", 240)


def test_force_org_is_checked_unless_the_list_turns_it_off(tmp_path):
    """firefight.md §2.2: a list without ``force_org`` is checked (the default is true)."""
    army = {"name": "a", "weapons": [{"name": "gun", "range": 24, "attacks": 1}],
            "units": [{"name": "hero", "size": 1, "quality": 4, "defense": 4, "rules": ["Hero"], "equipment": ["gun"],
                       "cost": 10}]}
    (tmp_path / "army.yaml").write_text(yaml.safe_dump(army))
    path = tmp_path / "list.yaml"
    path.write_text(yaml.safe_dump({"name": "l", "army": "army.yaml", "points": 200,
                                    "units": [{"unit": "hero"}, {"unit": "hero"}]}))
    with pytest.raises(ConfigError, match=r"at most 1 hero"):
        load_list(path)


def test_check_force_org_names_the_file_it_is_given(tmp_path):
    """firefight.md §2.2: the check alone (as the engine may call it) raises the same ConfigError."""
    lst = load(tmp_path, 200, ["a", "b"], {"a": unit(hero=True), "b": unit(hero=True)}, force_org=False)
    with pytest.raises(ConfigError) as err:
        check_force_org(lst.units, 200, "somewhere.yaml")
    assert (err.value.file, err.value.field) == ("somewhere.yaml", "units[1]")
