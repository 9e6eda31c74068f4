"""Bad army, list and board files are refused with one ConfigError naming the file, the field, the value and
what is allowed (docs/firefight_data.md, "Errors"): unknown special rules (firefight.md §10), missing or
unwanted parameters, rules on the wrong kind of item, duplicate keys, wrong types, unknown names, and boards
that break §2.3, §2.5 or the reachability rule."""
import textwrap

import numpy as np
import pytest

from necro_env.config import ConfigError
from necro_env.config.errors import MISSING
from necro_env.rulesets.firefight.data import KINDS, RULES, count_pieces, load_army, load_board, load_list

ARMY = """
    name: test_army
    weapons:
      - {name: gun, range: 24, attacks: 1, rules: [WEAPON_RULES]}
      - {name: knife, range: melee, attacks: 1}
    units:
      - {name: grunt, size: 1, quality: 4, defense: 5, rules: [UNIT_RULES], equipment: [gun, knife], cost: 10,
         options: [{name: pistol, replace: [gun], add: [knife], cost: 0}, {name: swap, replace: [gun], add: [], cost: 0}]}
"""


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def army_error(tmp_path, unit_rules="", weapon_rules="", text=ARMY) -> ConfigError:
    path = write(tmp_path, "army.yaml", text.replace("UNIT_RULES", unit_rules).replace("WEAPON_RULES", weapon_rules))
    with pytest.raises(ConfigError) as err:
        load_army(path)
    assert err.value.file == str(path)
    assert len(str(err.value).splitlines()) == 1
    return err.value


def test_the_test_army_loads(tmp_path):
    """firefight.md §10: the army the bad cases below vary is good as written."""
    path = write(tmp_path, "army.yaml", ARMY.replace("UNIT_RULES", "Hero, 'Tough(3)'").replace("WEAPON_RULES",
                                                                                                  "'Blast(3)'"))
    army = load_army(path)
    assert dict(army.units["grunt"].rules) == {"Hero": 0, "Tough": 3}
    assert dict(army.weapons["gun"].rules) == {"Blast": 3} and army.weapons["knife"].melee


def test_unknown_unit_rule_lists_the_allowed_rules(tmp_path):
    """firefight.md §10: a rule that is not in the glossary is refused with the rules a unit may have."""
    e = army_error(tmp_path, unit_rules="'Toughness(3)'")
    assert (e.field, e.value) == ("units[0].rules[0]", "Toughness(3)")
    assert e.allowed.startswith("unknown special rule; did you mean 'Tough'? rules a unit may have (firefight.md §10")
    for name in ("Ambush", "Caster(X)", "Fearless", "Hero", "Impact(X)", "Scout", "Strider", "Tough(X)"):
        assert name in e.allowed


def test_unknown_weapon_rule_lists_the_allowed_rules(tmp_path):
    """firefight.md §10: the seed's spelling "Rendering" is not a rule name (the digest's Rending is)."""
    e = army_error(tmp_path, weapon_rules="Rendering")
    assert (e.field, e.value) == ("weapons[0].rules[0]", "Rendering")
    assert "did you mean 'Rending'?" in e.allowed and "Blast(X), Counter, Deadly(X)" in e.allowed


@pytest.mark.parametrize("rule, where", [("Tough", "unit_rules"), ("Caster", "unit_rules"),
                                         ("Deadly", "weapon_rules"), ("Blast", "weapon_rules")])
def test_missing_parameter(tmp_path, rule, where):
    """firefight.md §10: Tough(X), Caster(X), Deadly(X), Blast(X) need their X."""
    e = army_error(tmp_path, **{where: rule})
    assert e.value == rule and e.field.endswith(".rules[0]")
    assert e.allowed.startswith(f"{rule} needs its parameter: {rule}(X) with X an integer")
    kind = "unit" if where == "unit_rules" else "weapon"
    assert f"; rules a {kind} may have (firefight.md §10, X an integer): " in e.allowed


def test_parameter_on_a_rule_without_one(tmp_path):
    """firefight.md §10: Hero takes no parameter."""
    e = army_error(tmp_path, unit_rules="'Hero(2)'")
    assert (e.field, e.value) == ("units[0].rules[0]", "Hero(2)")
    assert e.allowed.startswith("Hero takes no parameter: write 'Hero'")


def test_parameter_out_of_range(tmp_path):
    """firefight.md §10 Caster(X): a caster holds at most 6 tokens, so X is 1..6."""
    e = army_error(tmp_path, unit_rules="'Caster(7)'")
    assert (e.value, e.allowed) == ("Caster(7)", "Caster(X) takes an integer X = 1..6")


@pytest.mark.parametrize("where, rule, kind", [("unit_rules", "'Blast(3)'", "weapon"),
                                               ("weapon_rules", "'Tough(3)'", "unit")])
def test_rule_on_the_wrong_kind_of_item(tmp_path, where, rule, kind):
    """firefight.md §10: Blast multiplies a weapon's hits; Tough is a model's."""
    e = army_error(tmp_path, **{where: rule})
    assert f"is a {kind} rule (firefight.md §10)" in e.allowed


def test_ap_is_a_field_not_a_rule(tmp_path):
    """firefight.md §10 AP(X): written once, as the weapon's ap field."""
    e = army_error(tmp_path, weapon_rules="'AP(1)'")
    assert "written as the weapon's field 'ap: X'" in e.allowed


def test_a_rule_twice(tmp_path):
    """firefight.md §10: each rule once per unit."""
    e = army_error(tmp_path, unit_rules="Fast, Fast")
    assert (e.field, e.value, e.allowed) == ("units[0].rules[1]", "Fast", "each special rule at most once per unit")


def test_army_rule_must_be_declared(tmp_path):
    """firefight.md §14: BadShot is an army rule of the source: a unit may have it only when its army file
    declares it."""
    e = army_error(tmp_path, unit_rules="BadShot")
    assert e.value == "BadShot" and e.allowed.startswith("unknown special rule")
    text = ARMY.replace("weapons:", "army_rules: [{name: BadShot, ranged_quality: 5}]\n    weapons:", 1)
    path = write(tmp_path, "army.yaml", textwrap.dedent(text).replace("UNIT_RULES", "BadShot").replace(
        "WEAPON_RULES", ""))
    assert load_army(path).units["grunt"].ranged_quality == 5


def test_duplicate_key(tmp_path):
    """firefight.md §1: a profile's Quality written twice would load the second silently; refused."""
    text = ARMY.replace("quality: 4,", "quality: 4, quality: 2,")
    e = army_error(tmp_path, text=text)
    assert (e.field, e.value) == ("units[0].quality", "quality")
    assert e.allowed.startswith("each key once in a mapping: line 6 repeats it")


@pytest.mark.parametrize("old, new, field, value, allowed", [
    ("quality: 4", "quality: '4'", "units[0].quality", "4", "expected a Quality (4 for 4+): an integer 2..6"),
    ("defense: 5", "defense: 7", "units[0].defense", 7, "expected a Defense (5 for 5+): an integer 2..6"),
    ("attacks: 1,", "attacks: 1.5,", "weapons[0].attacks", 1.5, "expected an Attacks count: an integer 1..50"),
    ("range: 24", "range: far", "weapons[0].range", "far", "expected a range in inches 1..96, or 'melee'"),
    ("size: 1", "size: true", "units[0].size", True, "expected a number of models: an integer 1..20"),
    ("cost: 10", "costs: 10", "units[0].costs", 10, "unknown field; allowed fields here: name, label, size"),
    ("equipment: [gun, knife]", "equipment: [gun, knive]", "units[0].equipment[1]", "knive",
     "did you mean 'knife'? expected a weapon of this file: gun, knife"),
])
def test_wrong_type_or_value(tmp_path, old, new, field, value, allowed):
    """firefight.md §1 profiles: Quality and Defense 2+..6+, Attacks a count, range in inches or melee."""
    e = army_error(tmp_path, text=ARMY.replace(old, new, 1))
    assert (e.field, e.value) == (field, value)
    assert e.allowed.startswith(allowed)


def test_missing_field(tmp_path):
    """firefight.md §1: every unit has a Quality."""
    e = army_error(tmp_path, text=ARMY.replace("quality: 4, ", ""))
    assert (e.field, e.value, e.allowed) == ("units[0].quality", MISSING, "this field is required")


def test_hero_is_one_model(tmp_path):
    """firefight.md §13 Q28: heroes are separate one-model units."""
    e = army_error(tmp_path, unit_rules="Hero", text=ARMY.replace("size: 1", "size: 3"))
    assert (e.field, e.value) == ("units[0].size", 3) and "§13 Q28" in e.allowed


def test_option_replaces_a_weapon_the_unit_lacks(tmp_path):
    """firefight.md §14.4 options: an option swaps a weapon the unit carries."""
    e = army_error(tmp_path, text=ARMY.replace("replace: [gun], add: [knife]", "replace: [rifle], add: [knife]"))
    assert (e.field, e.value) == ("units[0].options[0].replace[0]", "rifle")


# ---------------------------------------------------------------------------- lists

LIST = """
    name: test_list
    army: army.yaml
    points: 200
    units:
      - {unit: grunt, options: OPTIONS}
"""


def list_error(tmp_path, options="[]", text=LIST) -> ConfigError:
    write(tmp_path, "army.yaml", ARMY.replace("UNIT_RULES", "").replace("WEAPON_RULES", ""))
    path = write(tmp_path, "list.yaml", text.replace("OPTIONS", options))
    with pytest.raises(ConfigError) as err:
        load_list(path)
    assert err.value.file == str(path)
    return err.value


def test_list_unknown_unit_and_option(tmp_path):
    """firefight.md §14.3: a list picks units and options of its army."""
    e = list_error(tmp_path, text=LIST.replace("unit: grunt", "unit: grunts"))
    assert (e.field, e.value) == ("units[0].unit", "grunts") and "did you mean 'grunt'?" in e.allowed
    e = list_error(tmp_path, options="[pistols]")
    assert (e.field, e.value) == ("units[0].options[0]", "pistols")
    assert e.allowed == "did you mean 'pistol'? expected an option of unit grunt: pistol, swap"


def test_list_option_twice_or_options_that_exclude_each_other(tmp_path):
    """firefight.md §14.4 options: each option once; two options swapping the same weapon exclude each other."""
    e = list_error(tmp_path, options="[pistol, pistol]")
    assert (e.field, e.allowed) == ("units[0].options[1]", "each option at most once per unit")
    e = list_error(tmp_path, options="[pistol, swap]")
    assert (e.field, e.value) == ("units[0].options[1]", "swap") and "already replaced" in e.allowed


def test_list_options_adding_two_ranged_qualities(tmp_path):
    """firefight.md §14 [army rule]: Bad Shot and Good Shot both set the ranged Quality; one unit has one."""
    army = ARMY.replace("weapons:", "army_rules: [{name: BadShot, ranged_quality: 5}, {name: GoodShot, "
                                    "ranged_quality: 4}]\n    weapons:", 1)
    army = army.replace("{name: swap, replace: [gun], add: [], cost: 0}",
                        "{name: bad, rules: [BadShot], cost: 0}, {name: good, rules: [GoodShot], cost: 0}")
    write(tmp_path, "army.yaml", army.replace("UNIT_RULES", "").replace("WEAPON_RULES", ""))
    path = write(tmp_path, "list.yaml", LIST.replace("OPTIONS", "[bad, good]"))
    with pytest.raises(ConfigError) as err:
        load_list(path)
    assert (err.value.field, err.value.value) == ("units[0].options[1]", "good")
    assert err.value.allowed == "at most one army rule setting ranged_quality per unit; with this option it has " \
                                "['BadShot', 'GoodShot']"
    path.write_text(path.read_text().replace("[bad, good]", "[good]"))
    assert load_list(path).units[0].ranged_quality == 4


def test_list_options_adding_one_rule_twice(tmp_path):
    """firefight.md §10: two options that both give Fast would give it twice."""
    army = ARMY.replace("{name: swap, replace: [gun], add: [], cost: 0}",
                        "{name: fast, rules: [Fast], cost: 5}, {name: faster, rules: [Fast], cost: 5}")
    write(tmp_path, "army.yaml", army.replace("UNIT_RULES", "").replace("WEAPON_RULES", ""))
    path = write(tmp_path, "list.yaml", LIST.replace("OPTIONS", "[fast, faster]"))
    with pytest.raises(ConfigError) as err:
        load_list(path)
    assert (err.value.field, err.value.value) == ("units[0].options[1]", "faster")
    assert err.value.allowed.startswith("the unit has ['Fast'] already")


def test_list_unknown_army(tmp_path):
    """firefight.md §14: a list names one of the shipped armies (or a path to an army file)."""
    e = list_error(tmp_path, text=LIST.replace("army.yaml", "orc_marauder"))
    assert (e.field, e.value) == ("army", "orc_marauder")
    assert "did you mean 'orc_marauders'?" in e.allowed and "human_defense_force" in e.allowed


def test_list_force_org_must_be_a_bool(tmp_path):
    """firefight.md §2.2: the optional force organisation is switched with true or false."""
    e = list_error(tmp_path, text=LIST + "    force_org: 'no'\n")
    assert (e.field, e.value, e.allowed) == ("force_org", "no", "expected true or false")


def test_list_failure_leaves_no_half_loaded_state(tmp_path):
    """firefight.md §2.2: a refused list is refused again the same way (the loaders keep nothing)."""
    first = list_error(tmp_path, options="[pistols]")
    again = list_error(tmp_path, options="[pistols]")
    assert str(first) == str(again)


# ---------------------------------------------------------------------------- boards

def board_text(rows, heights=None, deployment=None):
    text = "name: test_board\n" + (f"deployment: {deployment}\n" if deployment else "")
    text += "map: |\n" + "".join(f"  {r}\n" for r in rows)
    if heights is not None:
        text += "heights: |\n" + "".join(f"  {r}\n" for r in heights)
    return text


def good_rows():
    """A 48x48 map with 20 barricades in no-man's land (rows 12-35)."""
    rows = [["."] * 48 for _ in range(48)]
    for k in range(20):
        x, y = 2 + (k % 10) * 4, 14 + (k // 10) * 10
        rows[y][x] = "b"
    return rows


def board_error(tmp_path, rows, heights=None, deployment=None) -> ConfigError:
    path = write(tmp_path, "board.yaml", board_text(["".join(r) for r in rows], heights, deployment))
    with pytest.raises(ConfigError) as err:
        load_board(path)
    assert err.value.file == str(path)
    return err.value


def test_the_test_board_loads(tmp_path):
    """firefight.md §2.3: a 48x48 table with 20 pieces is a board."""
    board = load_board(write(tmp_path, "board.yaml", board_text(["".join(r) for r in good_rows()])))
    assert board.pieces == 20 and board.flags.shape == (48, 48)


def test_board_with_19_pieces(tmp_path):
    """firefight.md §2.3: 20 or more terrain pieces."""
    rows = good_rows()
    rows[14][2] = "."
    e = board_error(tmp_path, rows)
    assert (e.field, e.value) == ("map", "19 pieces") and "20 or more terrain pieces (firefight.md §2.3)" in e.allowed


def test_pieces_touching_by_a_corner_are_one_piece():
    """firefight.md §2.3: pieces are counted as groups touching by side or corner, so the count never overstates."""
    kinds = np.zeros((6, 6), np.uint8)
    kinds[1, 1] = kinds[2, 2] = KINDS.index("woods")  # corner to corner: one piece
    kinds[4, 1] = kinds[4, 2] = KINDS.index("ruins")  # side by side: one piece
    kinds[1, 4] = KINDS.index("barricade")
    assert count_pieces(kinds) == 3


def test_board_too_short_for_the_zones(tmp_path):
    """firefight.md §2.3 and §2.5: zones 12" deep and 24" apart need 48 rows between the deployment edges."""
    e = board_error(tmp_path, good_rows()[:40])
    assert (e.field, e.value) == ("map", "40 rows of 48") and "needs 48 cells between the two deployment" in e.allowed


def test_board_unknown_character(tmp_path):
    """firefight.md §9: every map character is a terrain of the legend."""
    rows = good_rows()
    rows[20][5] = "x"
    e = board_error(tmp_path, rows)
    assert (e.field, e.value) == ("map[20][5]", "x") and "'W' woods (cover, difficult)" in e.allowed


def test_board_height_only_on_platforms(tmp_path):
    """firefight.md §11 and §12.1: heights belong to raised platforms ('P'); a 'P' cell stands 1" or more high."""
    rows = good_rows()
    heights = ["0" * 48 for _ in range(48)]
    heights[20] = "0" * 5 + "3" + "0" * 42
    e = board_error(tmp_path, rows, heights)
    assert (e.field, e.value) == ("heights[20][5]", "3") and "map[20][5] is '.'" in e.allowed
    rows[20][5] = "P"
    e = board_error(tmp_path, rows)
    assert (e.field, e.value) == ("heights[20][5]", "0")


def test_board_cell_cut_off(tmp_path):
    """firefight.md §12.2: paths may not enter impassable cells; a pocket walled in by '#' is refused."""
    rows = good_rows()
    for x, y in ((20, 19), (21, 19), (22, 19), (20, 20), (22, 20), (20, 21), (21, 21), (22, 21)):
        rows[y][x] = "#"
    e = board_error(tmp_path, rows)
    assert (e.field, e.value) == ("map[20][21]", ".") and "is cut off from zone 0" in e.allowed


def test_board_platform_without_a_ramp(tmp_path):
    """firefight.md §11: the seed has no climbing up: a platform 3" high without a ramp cannot be reached."""
    rows = good_rows()
    rows[20][30] = "P"
    heights = ["0" * 48 for _ in range(48)]
    heights[20] = "0" * 30 + "3" + "0" * 17
    e = board_error(tmp_path, rows, heights)
    assert e.field == "map[20][30]" and "climbing at most 1\" a step" in e.allowed
    rows[20][31] = rows[20][32] = "P"
    heights[20] = "0" * 30 + "321" + "0" * 15
    board = load_board(write(tmp_path, "board.yaml", board_text(["".join(r) for r in rows], heights)))
    assert board.heights[20, 30:33].tolist() == [3, 2, 1]


def test_board_bad_deployment(tmp_path):
    """firefight.md §2.5: zones lie along two opposite table edges."""
    e = board_error(tmp_path, good_rows(), deployment="diagonal")
    assert (e.field, e.value, e.allowed) == ("deployment", "diagonal", "expected 'top_bottom' or 'left_right'")


def test_every_glossary_rule_is_known():
    """firefight.md §10: the 29 rules of the glossary (AP(X) included) and no others."""
    assert sorted(RULES) == sorted(
        "Ambush AP Bane Blast Caster Counter Deadly Fast Fear Fearless Flying Furious Hero Immobile Impact Indirect "
        "Limited Regeneration Relentless Reliable Rending Scout Slow Stealth Strider Surge Thrust Tough "
        "Unstoppable".split())
    assert {n for n, s in RULES.items() if s.param} == {"AP", "Blast", "Caster", "Deadly", "Fear", "Impact", "Tough"}
