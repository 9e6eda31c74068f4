"""The shipped Firefight data under configs/firefight/ loads and says what the digest says: the two starter
armies (firefight.md §14.1, §14.2, §14.4), the §14.3 example lists (legal at 200 pts, §2.1-§2.2) and the
48x48 boards (§2.3, §2.5, §9, §12.1)."""
import pickle

import numpy as np
import pytest

from necro_env.config import config_root
from necro_env.rulesets.firefight import data as D
from necro_env.rulesets.firefight.data import load_army, load_board, load_list

ROOT = config_root() / "firefight"
LOADERS = {"armies": load_army, "lists": load_list, "boards": load_board}
BOARDS = sorted((ROOT / "boards").glob("*.yaml"))


def test_every_shipped_file_loads():
    """firefight.md §14 and §2.3: every army, list and board file under configs/firefight/ loads."""
    files = sorted(ROOT.rglob("*.yaml"))
    assert {p.parent.name for p in files} == set(LOADERS)
    assert len(BOARDS) >= 3 and len(files) >= 7
    for path in files:
        assert LOADERS[path.parent.name](path).source == str(path)


# unit -> (label, models, Quality, Defense, rules, weapons of each model, points), as the §14.1 / §14.2 tables
HUMANS = {
    "commander": ("Commander", 1, 4, 5, {"Hero": 0, "Tough": 3}, ("assault_rifle", "ccw_a1"), 50),
    "infantry_squad": ("Infantry Squad", 3, 5, 5, {}, ("assault_rifle", "ccw_a1"), 35),
    "conscripts": ("Conscripts", 5, 6, 5, {}, ("assault_rifle", "ccw_a1"), 40),
    "weapons_team": ("Weapons Team", 1, 5, 5, {"Tough": 3}, ("heavy_machinegun", "ccw_a1"), 40),
    "storm_trooper": ("Storm Trooper", 1, 4, 4, {"Ambush": 0, "Strider": 0}, ("heavy_rifle", "ccw_a1"), 25),
    "cavalry": ("Cavalry", 1, 5, 5, {"Fast": 0, "Impact": 1}, ("pistol", "ccw_a2"), 20),
}
ORCS = {
    "warlord": ("Warlord", 1, 3, 4, {"Hero": 0, "Furious": 0, "Tough": 3, "BadShot": 0}, ("pistol", "ccw_a3"), 50),
    "orc_boyz": ("Orc Boyz", 3, 4, 5, {"Furious": 0, "BadShot": 0}, ("pistol", "ccw_a2"), 45),
    "goblin_herd": ("Goblin Herd", 5, 6, 6, {"GoodShot": 0}, ("pistol", "ccw_a1"), 30),
    "orc_biker": ("Orc Biker", 1, 4, 5, {"Fast": 0, "Furious": 0, "Impact": 1, "BadShot": 0}, ("pistol", "ccw_a2"),
                  25),
    "specialist_orc": ("Specialist Orc", 1, 4, 5, {"Furious": 0, "Relentless": 0, "BadShot": 0},
                       ("carbine", "ccw_a2"), 20),
    "commando": ("Commando", 1, 4, 5, {"Furious": 0, "Scout": 0, "Stealth": 0, "Strider": 0, "BadShot": 0},
                 ("pistol", "ccw_a2"), 25),
}
# weapon -> (range, attacks, AP, rules), as §14.4 (range 0 = melee)
WEAPONS = {
    "assault_rifle": (24, 1, 0, {}), "pistol": (12, 1, 0, {}), "heavy_rifle": (24, 1, 1, {}),
    "heavy_machinegun": (36, 3, 1, {}), "mortar": (48, 1, 0, {"Blast": 3, "Indirect": 0}),
    "carbine": (18, 2, 0, {}), "rocket_launcher": (24, 1, 3, {"Deadly": 3}),
    "ccw_a1": (0, 1, 0, {}), "ccw_a2": (0, 2, 0, {}), "ccw_a3": (0, 3, 0, {}),
}


@pytest.mark.parametrize("army_name, expected", [("human_defense_force", HUMANS), ("orc_marauders", ORCS)])
def test_armies_are_the_starter_tables(army_name, expected):
    """firefight.md §14.1 and §14.2: every unit's models, Quality, Defense, rules, weapons and points."""
    army = load_army(f"firefight/armies/{army_name}.yaml")
    got = {n: (u.label, u.size, u.quality, u.defense, dict(u.rules), u.equipment, u.cost) for n, u in army.units.items()}
    assert got == expected
    for name, weapon in army.weapons.items():
        assert (weapon.range, weapon.attacks, weapon.ap, dict(weapon.rules)) == WEAPONS[name], name
        assert weapon.melee == (weapon.range == 0)


def test_options_and_army_rules():
    """firefight.md §14.1/§14.2 options (+5 pts: Mortar for the HMG, Rocket launcher for the Carbine) and §14's
    army rules: Bad Shot shoots at 5+, Good Shot at 4+, ranged hit rolls only."""
    humans, orcs = load_army("firefight/armies/human_defense_force.yaml"), load_army("firefight/armies/orc_marauders.yaml")
    mortar = humans.units["weapons_team"].options["mortar"]
    assert (mortar.replace, mortar.add, mortar.cost) == (("heavy_machinegun",), ("mortar",), 5)
    rocket = orcs.units["specialist_orc"].options["rocket_launcher"]
    assert (rocket.replace, rocket.add, rocket.cost) == (("carbine",), ("rocket_launcher",), 5)
    assert dict(orcs.army_rules) == {"BadShot": 5, "GoodShot": 4} and dict(humans.army_rules) == {}
    assert {n: (u.quality, u.ranged_quality) for n, u in orcs.units.items()} == {
        "warlord": (3, 5), "orc_boyz": (4, 5), "goblin_herd": (6, 4), "orc_biker": (4, 5), "specialist_orc": (4, 5),
        "commando": (4, 5)}
    assert all(u.ranged_quality == u.quality for u in humans.units.values())


@pytest.mark.parametrize("name, total, picks, models", [
    ("human_defense_force_185", 185, ["commander", "infantry_squad", "infantry_squad", "weapons_team",
                                      "storm_trooper"], 9),
    ("orc_marauders_195", 195, ["warlord", "orc_boyz", "orc_biker", "orc_biker", "specialist_orc", "commando"], 8),
])
def test_example_lists_are_legal(name, total, picks, models):
    """firefight.md §14.3: the example lists pass §2.1 and §2.2 at 200 pts with floor rounding, also when the
    limits are computed from what the list costs instead of its limit (docs/firefight_data.md)."""
    lst = load_list(f"firefight/lists/{name}.yaml")
    assert (lst.points, lst.total, lst.force_org) == (200, total, True)
    assert [u.unit for u in lst.units] == picks and sum(u.size for u in lst.units) == models
    D.check_force_org(lst.units, lst.total, lst.source)


def test_rocket_launcher_option_in_the_orc_list():
    """firefight.md §14.3: "Specialist Orc with Rocket launcher (25)"."""
    specialist = load_list("firefight/lists/orc_marauders_195.yaml").units[4]
    assert (specialist.options, specialist.cost, specialist.equipment) == (("rocket_launcher",), 25,
                                                                         ("rocket_launcher", "ccw_a2"))


def test_legend_flags():
    """firefight.md §9 and §12.1: ruins and woods are cover + difficult, barricades cover, '#' impassable and
    sight-blocking, '~' dangerous; woods do not block sight; platforms carry only a height."""
    flags = {kind: flag for kind, flag in D.LEGEND.values()}
    assert flags == {"open": 0, "ruins": D.TF_COVER | D.TF_DIFFICULT, "woods": D.TF_COVER | D.TF_DIFFICULT,
                     "barricade": D.TF_COVER, "dangerous": D.TF_DANGEROUS,
                     "impassable": D.TF_IMPASSABLE | D.TF_BLOCKS_SIGHT, "platform": 0}
    assert [D.TF_COVER, D.TF_DIFFICULT, D.TF_DANGEROUS, D.TF_IMPASSABLE, D.TF_BLOCKS_SIGHT] == [1, 2, 4, 8, 16]


def layout_problems(board) -> list[str]:
    """The layout rule of docs/firefight_data.md ("Generated boards"), which the shipped boards keep too."""
    out = []
    zone = board.deploy >= 0
    if (board.kinds[[0, 1, -2, -1]] != D.KINDS.index("open")).any():
        out.append("a piece on the two rows along a table edge")
    if (board.flags[zone] & (D.TF_IMPASSABLE | D.TF_DANGEROUS)).any() or board.heights[zone].any():
        out.append("an impassable, dangerous or raised cell in a deployment zone")
    return out


@pytest.mark.parametrize("path", BOARDS, ids=[p.stem for p in BOARDS])
def test_shipped_board(path):
    """firefight.md §2.3 (48x48, 20+ pieces), §12.1 (zones rows 0-11 and 36-47), §9 (ruins, woods, barricades,
    impassable pieces) and §11 (a raised platform 2" or more high: falls from it hurt)."""
    board = load_board(path)
    assert (board.height, board.width, board.deployment) == (48, 48, "top_bottom")
    assert board.flags.dtype == np.uint8 and board.heights.dtype == np.int8 and board.deploy.dtype == np.int8
    assert (board.deploy[:12] == 0).all() and (board.deploy[36:] == 1).all() and (board.deploy[12:36] == -1).all()
    assert board.pieces >= D.MIN_PIECES == 20
    kinds = {D.KINDS[k] for k in np.unique(board.kinds)}
    assert {"ruins", "woods", "barricade", "impassable", "platform"} <= kinds
    assert board.heights.max() >= 2
    assert layout_problems(board) == []
    assert (board.kinds == board.kinds[::-1, ::-1]).all() and (board.heights == board.heights[::-1, ::-1]).all()
    assert D.unreachable(board.flags, board.heights, board.deploy) is None


@pytest.mark.parametrize("path", BOARDS, ids=[p.stem for p in BOARDS])
def test_board_round_trip(tmp_path, path):
    """firefight.md §12.1: board_to_yaml writes a board that load_board reads back cell for cell."""
    board = load_board(path)
    out = tmp_path / "again.yaml"
    out.write_text(D.board_to_yaml(board))
    again = load_board(out)
    for field in ("flags", "heights", "deploy", "kinds"):
        assert np.array_equal(getattr(board, field), getattr(again, field)), field
    assert (again.name, again.description, again.pieces) == (board.name, board.description, board.pieces)


def test_boards_differ():
    """firefight.md §2.3: the shipped tables are different layouts."""
    kinds = [load_board(p).kinds for p in BOARDS]
    assert all(not np.array_equal(a, b) for i, a in enumerate(kinds) for b in kinds[i + 1:])


def test_loaded_data_pickles():
    """firefight.md §14: armies, lists and boards cross to worker processes as they are."""
    lst = load_list("firefight/lists/orc_marauders_195.yaml")
    again = pickle.loads(pickle.dumps(lst))
    assert [u.rules for u in again.units] == [u.rules for u in lst.units] and again.army.units.keys() == \
        lst.army.units.keys()
    board = pickle.loads(pickle.dumps(load_board(BOARDS[0])))
    assert board.pieces >= 20


def test_board_arrays_are_read_only():
    """firefight.md §12.1: the loaded tables are shared, read-only data."""
    board = load_board(BOARDS[0])
    with pytest.raises(ValueError):
        board.flags[0, 0] = 1
