"""Loading the YAML files under configs/ and the errors for bad input (docs/data.md)."""

from __future__ import annotations

import textwrap
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from necro_env.config import (
    CONFIG_ROOT,
    LONG_GRENADE,
    LONG_MELEE,
    LONG_TEMPLATE,
    ConfigError,
    config_root,
    load_armours,
    load_board,
    load_gang,
    load_house,
    load_scenario,
    load_weapons,
)
from necro_env.config.errors import MISSING
from necro_env.core.terrain import DOOR_CLOSED, DOOR_LOCKED, DOOR_OPEN, TER_DOOR, TER_FLOOR, TER_OBSTACLE, TER_WALL
from necro_env.rulesets.necromunda.constants import (
    AF_CHARGE_PENALTY, AF_FRONT_SAVE, AF_INIT_PENALTY, AF_SAVE, AF_TEMPLATE_SAVE, CH_A, CH_BS, CH_M, CH_WS,
    MAX_PROFILES, NAF, NCH, NPF, PF_ACC_L, PF_ACC_S, PF_AMMO, PF_AP, PF_BLAST, PF_D, PF_LONG, PF_RAPID, PF_S,
    PF_S_USER, PF_SHORT, PF_TRAITS, PF_VALID, ROLE_CHAMPION, ROLE_GANGER, ROLE_JUVE, ROLE_LEADER,
    ROLE_SPECIALIST, T_BACKSTAB, T_BLAST, T_GRENADE, T_KNOCKBACK, T_MELEE, T_NOT_YET, T_PARRY, T_PLENTIFUL,
    T_RAPID_FIRE, T_RENDING, T_SCATTERSHOT, T_SIDEARM, T_TEMPLATE,
)

HOUSES = ("orlock", "goliath", "escher", "van_saar")
BOARDS = ("zm_corridors", "zm_hall", "zm_cross")


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def expect_error(fn, *args, file, field, value, allowed_has=()):
    """Call fn; it must raise a ConfigError naming file, field, value and what is allowed."""
    with pytest.raises(ConfigError) as info:
        fn(*args)
    err = info.value
    assert err.file == str(file)
    assert err.field == field, str(err)
    assert err.value == value or (value is MISSING and err.value is MISSING), str(err)
    for part in allowed_has:
        assert part in err.allowed, str(err)
    assert str(err) == f"{err.file}: field '{field}': got {err.value!r}; {err.allowed}"
    return err


# ---------------------------------------------------------------------------
# Every shipped file loads
# ---------------------------------------------------------------------------


def test_config_root_is_the_repository_configs_folder():
    assert CONFIG_ROOT == Path(__file__).resolve().parents[2] / "configs"
    assert (CONFIG_ROOT / "weapons.yaml").is_file()


def test_every_shipped_yaml_loads():
    from necro_env.config.training import load_training

    from training import ppo_fast, sweep

    loaders = {"houses": load_house, "gangs": load_gang, "boards": load_board, "scenarios": load_scenario,
               "training": load_training, "ppo_fast": lambda p: ppo_fast.parse_args(["--config", str(p)]),
               "sweeps": lambda p: sweep.load_sweep(p)}
    # Necromunda's files; configs/firefight/ is Firefight's, loaded by its own loaders
    # (tests/firefight/test_ff_data_files.py::test_every_shipped_file_loads)
    files = sorted(p for p in CONFIG_ROOT.rglob("*.yaml") if "firefight" not in p.relative_to(CONFIG_ROOT).parts)
    assert len(files) >= 14
    for path in files:
        folder = path.parent.name
        if path.name == "weapons.yaml":
            load_weapons(path)
        elif path.name == "armour.yaml":
            load_armours(path)
        else:
            loaders[folder](path)


def test_paths_relative_to_config_root_and_cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert load_board("boards/zm_hall.yaml").source == str(CONFIG_ROOT / "boards" / "zm_hall.yaml")
    write(tmp_path, "weapons.yaml", """
        weapons:
          - name: club
            profiles:
              - {long: E, strength: S, damage: 1, traits: [melee]}
    """)
    assert load_weapons("weapons.yaml").names == ("club",)  # the cwd comes first
    assert "lasgun" in load_weapons().names  # the default is always CONFIG_ROOT/weapons.yaml


def test_env_var_overrides_config_root(tmp_path, monkeypatch):
    write(tmp_path, "weapons.yaml", """
        weapons:
          - name: club
            profiles:
              - {long: E, strength: S, damage: 1, traits: [melee]}
    """)
    monkeypatch.setenv("NECRO_ENV_CONFIGS", str(tmp_path))
    assert config_root() == tmp_path
    assert load_weapons().names == ("club",)


# ---------------------------------------------------------------------------
# Weapon and armour tables
# ---------------------------------------------------------------------------


def row(table, weapon, profile=""):
    i = table.index[weapon]
    return table.profiles[i, table.profile_names[i].index(profile)]


def test_weapon_table_shape_and_unused_rows():
    w = load_weapons()
    n = len(w.names)
    assert n == 43 and w.profiles.shape == (n, MAX_PROFILES, NPF) and w.profiles.dtype == np.int32  # 42 + the synthetic test_cursed_lasgun
    assert not w.profiles.flags.writeable
    assert w.index == {name: i for i, name in enumerate(w.names)}
    assert len(w.costs) == n and w.costs[w.index["lasgun"]] == 15
    for i, names in enumerate(w.profile_names):
        assert w.profiles[i, : len(names), PF_VALID].all()
        assert not w.profiles[i, len(names):].any()  # unused profile rows are all zero
    assert "unarmed" not in w.index


def test_lasgun():
    """§13.1 Weapon profiles: the lasgun row as the starter table gives it."""
    r = row(load_weapons(), "lasgun")
    expected = {PF_VALID: 1, PF_SHORT: 18, PF_LONG: 24, PF_ACC_S: 1, PF_ACC_L: 0, PF_S: 3, PF_S_USER: 0,
                PF_AP: 0, PF_D: 1, PF_AMMO: 2, PF_RAPID: 0, PF_BLAST: 0, PF_TRAITS: T_PLENTIFUL}
    assert {k: int(r[k]) for k in expected} == expected


def test_shotgun_profiles():
    """§13.1 Weapon profiles: a two-profile weapon (shotgun solid / scatter)."""
    w = load_weapons()
    assert w.profile_names[w.index["shotgun"]] == ("solid", "scatter")
    solid, scatter = row(w, "shotgun", "solid"), row(w, "shotgun", "scatter")
    cols = [PF_SHORT, PF_LONG, PF_ACC_S, PF_ACC_L, PF_S, PF_AP, PF_D, PF_AMMO]
    assert list(solid[cols]) == [8, 16, 1, 0, 4, 0, 2, 4]
    assert solid[PF_TRAITS] == T_KNOCKBACK
    assert list(scatter[cols]) == [4, 8, 2, 0, 2, 0, 1, 4]
    assert scatter[PF_TRAITS] == T_SCATTERSHOT


def test_chainsword_and_bolt_pistol():
    """§13.1 Weapon profiles: a melee and a sidearm profile."""
    w = load_weapons()
    cs = row(w, "chainsword")
    assert (cs[PF_SHORT], cs[PF_LONG], cs[PF_ACC_S], cs[PF_S], cs[PF_S_USER], cs[PF_AP], cs[PF_D], cs[PF_AMMO]) == (
        -1, LONG_MELEE, 1, 0, 1, 1, 1, 0)
    assert cs[PF_TRAITS] == T_MELEE | T_PARRY | T_RENDING
    bp = row(w, "bolt_pistol")
    cols = [PF_SHORT, PF_LONG, PF_ACC_S, PF_ACC_L, PF_S, PF_S_USER, PF_AP, PF_D, PF_AMMO]
    assert list(bp[cols]) == [6, 12, 1, 0, 4, 0, 1, 2, 6]
    assert bp[PF_TRAITS] == T_SIDEARM


def test_special_encodings():
    w = load_weapons()
    assert row(w, "autopistol")[PF_RAPID] == 1 and row(w, "autopistol")[PF_TRAITS] & T_RAPID_FIRE
    assert row(w, "heavy_stubber")[PF_RAPID] == 2
    frag = row(w, "frag_grenade")
    assert (frag[PF_SHORT], frag[PF_LONG], frag[PF_BLAST]) == (3, LONG_GRENADE, 3)
    assert frag[PF_TRAITS] & (T_GRENADE | T_BLAST) == T_GRENADE | T_BLAST
    assert row(w, "missile_launcher", "frag")[PF_BLAST] == 5
    flamer = row(w, "flamer")
    assert (flamer[PF_SHORT], flamer[PF_LONG], flamer[PF_AP]) == (-1, LONG_TEMPLATE, 1)
    assert flamer[PF_TRAITS] & T_TEMPLATE
    assert (row(w, "power_axe")[PF_S], row(w, "power_axe")[PF_S_USER]) == (2, 1)
    assert row(w, "long_rifle")[[PF_ACC_S, PF_ACC_L]].tolist() == [0, 1]
    assert row(w, "fighting_knife")[PF_TRAITS] == T_BACKSTAB | T_MELEE


def test_condition_grenades():
    """Photon flash and stun grenades (2023 Trading Post [N23], docs/data.md): Flash / Concussion
    traits in the second trait mask, Blast (5") / Blast (3"), thrown Sx3."""
    from necro_env.rulesets.necromunda.constants import PF_TRAITS2, T2_CONCUSSION, T2_FLASH

    w = load_weapons()
    flash = row(w, "photon_flash_grenade")
    cols = [PF_SHORT, PF_LONG, PF_S, PF_AP, PF_D, PF_AMMO, PF_BLAST]
    assert list(flash[cols]) == [3, LONG_GRENADE, 0, 0, 0, 5, 5]
    assert flash[PF_TRAITS] & (T_GRENADE | T_BLAST) == T_GRENADE | T_BLAST
    assert (int(flash[PF_TRAITS2]) << 32) == T2_FLASH
    stun = row(w, "stun_grenade")
    assert list(stun[cols]) == [3, LONG_GRENADE, 2, 1, 1, 4, 3]
    assert (int(stun[PF_TRAITS2]) << 32) == T2_CONCUSSION


def test_default_gangs_carry_condition_weapons():
    """Issue 3: the default gangs carry a weapon for each condition the data can give (Blaze: flamer,
    Blind: photon flash grenade, Concussion: stun grenade, Webbed: web gun)."""
    w = load_weapons()
    carried = set()
    for house in ("orlock", "goliath", "escher", "van_saar"):
        for f in load_gang(f"gangs/{house}.yaml").fighters:
            carried.update(w.names[i] for i in f.weapons)
    assert {"flamer", "photon_flash_grenade", "stun_grenade", "web_gun"} <= carried


def test_armour_table():
    a = load_armours()
    assert a.table.shape == (6, NAF) and a.table.dtype == np.int32
    assert a.names[a.index["none"]] == "none" and a.table[a.index["none"], AF_SAVE] == 7
    hc = a.table[a.index["heavy_carapace"]]
    columns = [AF_SAVE, AF_FRONT_SAVE, AF_TEMPLATE_SAVE, AF_CHARGE_PENALTY, AF_INIT_PENALTY]
    assert hc[columns].tolist() == [4, 3, 0, 1, 1]
    assert a.table[a.index["flak"], AF_TEMPLATE_SAVE] == 5
    assert a.table[a.index["furnace_plates"], AF_FRONT_SAVE] == 5


# ---------------------------------------------------------------------------
# Houses, gangs, scenario
# ---------------------------------------------------------------------------


def test_houses():
    """§13.2 Fighter archetypes: every house has the five fighter types with their profiles."""
    for name in HOUSES:
        house = load_house(f"houses/{name}.yaml")
        assert set(house.types) == {"leader", "champion", "ganger", "juve", "specialist"}
        roles = {t.name: t.role for t in house.types.values()}
        assert roles == {"leader": ROLE_LEADER, "champion": ROLE_CHAMPION, "ganger": ROLE_GANGER,
                         "juve": ROLE_JUVE, "specialist": ROLE_SPECIALIST}
        for t in house.types.values():
            assert t.chars.shape == (NCH,) and t.chars.dtype == np.int32
            assert t.bodyglove == (name == "van_saar")
        assert (house.types["leader"].group_activation, house.types["leader"].gang_hierarchy) == (2, "leader")
        for k in ("champion", "specialist"):
            assert (house.types[k].group_activation, house.types[k].gang_hierarchy) == (1, "champion")
        assert house.types["ganger"].gang_hierarchy is None
    orlock = load_house("houses/orlock.yaml")
    assert orlock.types["ganger"].chars[[CH_M, CH_WS, CH_BS, CH_A]].tolist() == [5, 4, 4, 1]
    assert orlock.types["leader"].armour == "mesh" and orlock.types["juve"].armour == "none"
    assert load_house("houses/goliath.yaml").types["champion"].armour == "furnace_plates"


def test_default_gangs():
    w, a = load_weapons(), load_armours()
    twin_sidearms = 0
    for name in HOUSES:
        gang = load_gang(f"gangs/{name}.yaml", w, a)
        assert gang.house == name and len(gang.fighters) == 8
        crew = Counter(f.type_name for f in gang.fighters)
        assert crew == {"leader": 1, "champion": 1, "ganger": 3, "specialist": 1, "juve": 2}
        for f in gang.fighters:
            assert 1 <= len(f.weapons) <= 4
            for i in f.weapons:
                assert not (w.profiles[i, :, PF_TRAITS] & T_NOT_YET).any(), (name, f.name, w.names[i])
            sidearms = [i for i in f.weapons if w.profiles[i, 0, PF_TRAITS] & T_SIDEARM]
            twin_sidearms += len(sidearms) >= 2
            assert f.bodyglove == (name == "van_saar")
            assert f.gang_hierarchy == {"leader": 2, "champion": 1, "specialist": 1}.get(f.type_name, 0)
    assert twin_sidearms >= 1
    orlock = load_gang("gangs/orlock.yaml", w, a)
    leader = orlock.fighters[0]
    assert [w.names[i] for i in leader.weapons] == ["bolt_pistol", "chainsword"]
    assert a.names[leader.armour] == "light_carapace"  # override
    assert a.names[orlock.fighters[1].armour] == "mesh"  # house default


def test_scenario():
    s = load_scenario()
    assert s.name == "gang_fight" and s.round_limit == 12
    assert s.board.name == "zm_corridors"
    assert [g.house for g in s.gangs] == ["orlock", "goliath"]
    states = s.board.doors[:, 2]
    assert DOOR_OPEN not in states and DOOR_LOCKED in states  # doors_start: closed keeps locks


# ---------------------------------------------------------------------------
# Boards
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", BOARDS)
def test_shipped_board(name):
    b = load_board(f"boards/{name}.yaml")
    assert (b.height, b.width) == (24, 24) and b.name == name and b.description
    assert b.terrain.shape == (24, 24) and b.terrain.dtype == np.int8
    assert b.deploy.shape == (24, 24) and b.deploy.dtype == np.int8
    assert set(np.unique(b.terrain)) <= {TER_FLOOR, TER_WALL, TER_OBSTACLE, TER_DOOR}
    edge = np.concatenate([b.terrain[0], b.terrain[-1], b.terrain[:, 0], b.terrain[:, -1]])
    assert (edge == TER_WALL).all()
    # doors
    assert len(b.doors) >= 2 and b.doors.shape[1] == 3 and (b.doors[:, 2] == DOOR_LOCKED).any()
    assert (b.terrain == TER_DOOR).sum() == len(b.doors)
    for x, y, _ in b.doors:
        assert b.terrain[y, x] == TER_DOOR
    # terminals: every locked door has some
    locked = {i for i, d in enumerate(b.doors) if d[2] == DOOR_LOCKED}
    assert {int(t[2]) for t in b.terminals} == locked
    for x, y, d in b.terminals:
        assert b.terrain[y, x] == TER_FLOOR and b.doors[d, 2] == DOOR_LOCKED
    assert len(b.ductways) >= 1 and b.ductways.shape[1] == 4
    assert 1 <= len(b.caskets) <= 2
    for x, y in b.caskets:
        assert b.terrain[y, x] == TER_FLOOR
    # deployment zones: 0/1 on opposite edges (top/bottom), 2/3 left/right, >= 10 cells each
    for zone in range(4):
        ys, xs = np.nonzero(b.deploy == zone)
        assert len(ys) >= 10
        assert (b.terrain[ys, xs] == TER_FLOOR).all()
    assert np.nonzero(b.deploy == 0)[0].max() < 12 < np.nonzero(b.deploy == 1)[0].min()
    assert np.nonzero(b.deploy == 2)[1].max() < 12 < np.nonzero(b.deploy == 3)[1].min()


def test_boards_differ():
    terrains = [load_board(f"boards/{n}.yaml").terrain for n in BOARDS]
    for i in range(3):
        for j in range(i + 1, 3):
            assert (terrains[i] != terrains[j]).sum() > 50


# ---------------------------------------------------------------------------
# Bad input: each error names file, field, value and what is allowed
# ---------------------------------------------------------------------------

WEAPON = """
    weapons:
      - name: lasgun
        profiles:
          - {short: 18, long: 24, acc_short: 1, strength: 3, damage: 1, ammo: 2, traits: [plentiful]}
"""


def bad_weapons(tmp_path, old, new):
    assert old in WEAPON
    return write(tmp_path, "weapons.yaml", WEAPON.replace(old, new))


def test_good_minimal_weapon_file(tmp_path):
    assert load_weapons(write(tmp_path, "weapons.yaml", WEAPON)).names == ("lasgun",)


def test_unknown_trait(tmp_path):
    path = bad_weapons(tmp_path, "[plentiful]", "[plentyful]")
    err = expect_error(load_weapons, path, file=path, field="weapons[0].profiles[0].traits[0]", value="plentyful",
                       allowed_has=("unknown trait", "did you mean 'plentiful'", "rapid_fire"))
    assert "scattershot" in err.allowed


def test_trait_needing_a_value(tmp_path):
    path = bad_weapons(tmp_path, "[plentiful]", "[plentiful, rapid_fire]")
    expect_error(load_weapons, path, file=path, field="weapons[0].profiles[0].traits[1]", value="rapid_fire",
                 allowed_has=("{rapid_fire: N}",))
    path = bad_weapons(tmp_path, "[plentiful]", "[{blast: 4}]")
    expect_error(load_weapons, path, file=path, field="weapons[0].profiles[0].traits[0]", value={"blast": 4},
                 allowed_has=("{blast: 3}",))


def test_bad_type(tmp_path):
    path = bad_weapons(tmp_path, "damage: 1", "damage: two")
    expect_error(load_weapons, path, file=path, field="weapons[0].profiles[0].damage", value="two",
                 allowed_has=("integer", "0..6"))
    path = bad_weapons(tmp_path, "strength: 3", "strength: S+9")
    expect_error(load_weapons, path, file=path, field="weapons[0].profiles[0].strength", value="S+9",
                 allowed_has=("'S+1'",))


def test_missing_field(tmp_path):
    path = bad_weapons(tmp_path, "strength: 3, ", "")
    expect_error(load_weapons, path, file=path, field="weapons[0].profiles[0].strength", value=MISSING,
                 allowed_has=("required",))


def test_unknown_field(tmp_path):
    path = bad_weapons(tmp_path, "damage: 1", "dmg: 1, damage: 1")
    expect_error(load_weapons, path, file=path, field="weapons[0].profiles[0].dmg", value=1,
                 allowed_has=("unknown field", "damage", "traits"))


def test_negative_range(tmp_path):
    path = bad_weapons(tmp_path, "short: 18", "short: -4")
    expect_error(load_weapons, path, file=path, field="weapons[0].profiles[0].short", value=-4,
                 allowed_has=("0..99",))
    path = bad_weapons(tmp_path, "long: 24", "long: -24")
    expect_error(load_weapons, path, file=path, field="weapons[0].profiles[0].long", value=-24,
                 allowed_has=("1..99", "'E'", "'T'", "'Sx3'"))


def test_inconsistent_profile(tmp_path):
    path = bad_weapons(tmp_path, "long: 24", "long: E")
    expect_error(load_weapons, path, file=path, field="weapons[0].profiles[0].short", value=18,
                 allowed_has=("null",))
    path = bad_weapons(tmp_path, "short: 18, long: 24", "long: T")
    expect_error(load_weapons, path, file=path, field="weapons[0].profiles[0].traits", value=["plentiful"],
                 allowed_has=("template",))


def test_duplicate_weapon_name(tmp_path):
    text = WEAPON + "\n".join(WEAPON.splitlines()[2:])
    path = write(tmp_path, "weapons.yaml", text)
    expect_error(load_weapons, path, file=path, field="weapons[1].name", value="lasgun",
                 allowed_has=("unique", "weapons[0]"))


def test_yaml_syntax_error(tmp_path):
    path = write(tmp_path, "weapons.yaml", "weapons:\n  - name: [lasgun\n    cost: 5\n")
    err = expect_error(load_weapons, path, file=path, field="line 3", value="cost: 5", allowed_has=("valid YAML",))
    assert err.field.startswith("line ")


def test_missing_file(tmp_path):
    missing = tmp_path / "nope.yaml"
    expect_error(load_board, missing, file=missing, field="(file)", value=str(missing), allowed_has=("no such file",))


def test_bad_armour(tmp_path):
    path = write(tmp_path, "armour.yaml", """
        armours:
          - {name: none, save: 7}
          - {name: flak, save: 6, template_save: 6}
    """)
    expect_error(load_armours, path, file=path, field="armours[1].template_save", value=6, allowed_has=("better",))


def test_bad_house_characteristic(tmp_path):
    text = (CONFIG_ROOT / "houses" / "orlock.yaml").read_text().replace("WS: 4, BS: 4", "WS: 4, BS: 0", 1)
    path = write(tmp_path, "orlock.yaml", text)
    expect_error(load_house, path, file=path, field="types.ganger.chars.BS", value=0, allowed_has=("2..12",))


GANG = """
    name: Test Gang
    house: orlock
    fighters:
      - {name: A, type: leader, weapons: [bolt_pistol, chainsword]}
      - {name: B, type: ganger, weapons: [lasgun, fighting_knife]}
"""


def test_unknown_weapon_in_gang(tmp_path):
    path = write(tmp_path, "gang.yaml", GANG.replace("[lasgun,", "[lasgunn,"))
    expect_error(load_gang, path, file=path, field="fighters[1].weapons[0]", value="lasgunn",
                 allowed_has=("did you mean 'lasgun'", "autopistol", "chainsword"))


def test_gang_other_mistakes(tmp_path):
    path = write(tmp_path, "gang.yaml", GANG.replace("type: ganger", "type: boss"))
    expect_error(load_gang, path, file=path, field="fighters[1].type", value="boss", allowed_has=("juve", "ganger"))
    path = write(tmp_path, "gang.yaml", GANG.replace("house: orlock", "house: delaque"))
    expect_error(load_gang, path, file=path, field="house", value="delaque", allowed_has=("orlock", "van_saar"))
    five = "[lasgun, lasgun, lasgun, lasgun, axe]"
    path = write(tmp_path, "gang.yaml", GANG.replace("[lasgun, fighting_knife]", five))
    expect_error(load_gang, path, file=path, field="fighters[1].weapons", value=["lasgun"] * 4 + ["axe"],
                 allowed_has=("at most 4",))
    path = write(tmp_path, "gang.yaml", GANG.replace("type: ganger,", "type: ganger, armour: plate,"))
    expect_error(load_gang, path, file=path, field="fighters[1].armour", value="plate", allowed_has=("mesh",))
    path = write(tmp_path, "gang.yaml", GANG.replace("name: B", "name: A"))
    expect_error(load_gang, path, file=path, field="fighters[1].name", value="A", allowed_has=("unique",))


BOARD = """
    name: tiny
    description: a test board
    map: |
      #######
      #000..#
      ###L###
      #.....#
      #111.c#
      #######
    terminals:
      - {cell: [2, 1], door: [3, 2]}
      - {cell: [2, 3], door: [3, 2]}
    ductways:
      - [1, 1, 1, 3]
"""


def bad_board(tmp_path, old, new):
    assert old in BOARD
    return write(tmp_path, "board.yaml", BOARD.replace(old, new))


def test_tiny_board(tmp_path):
    b = load_board(write(tmp_path, "board.yaml", BOARD))
    assert (b.height, b.width) == (6, 7)
    assert b.doors.tolist() == [[3, 2, DOOR_LOCKED]]
    assert b.terminals.tolist() == [[2, 1, 0], [2, 3, 0]]
    assert b.ductways.tolist() == [[1, 1, 1, 3]] and b.caskets.tolist() == [[5, 4]]
    assert b.deploy[1, 1:4].tolist() == [0, 0, 0] and b.deploy[4, 1:4].tolist() == [1, 1, 1]
    assert b.terrain[2].tolist() == [TER_WALL] * 3 + [TER_DOOR] + [TER_WALL] * 3
    assert not b.terrain.flags.writeable


def test_map_row_of_wrong_length(tmp_path):
    path = bad_board(tmp_path, "  #.....#", "  #....#")
    expect_error(load_board, path, file=path, field="map[3]", value="#....#", allowed_has=("7 characters",))


def test_unknown_map_character(tmp_path):
    path = bad_board(tmp_path, "  #.....#", "  #..x..#")
    expect_error(load_board, path, file=path, field="map[3][3]", value="x", allowed_has=("legend", "'#' wall"))


def test_door_not_in_a_wall_gap(tmp_path):
    path = bad_board(tmp_path, "  #.....#", "  #.+...#")
    expect_error(load_board, path, file=path, field="map[3][2]", value="+", allowed_has=("1-cell gap in a wall",))


def test_terminal_not_next_to_its_door(tmp_path):
    path = bad_board(tmp_path, "{cell: [2, 3], door: [3, 2]}", "{cell: [5, 3], door: [3, 2]}")
    expect_error(load_board, path, file=path, field="terminals[1].cell", value=[5, 3],
                 allowed_has=("touching a wall", "within 1\""))


def test_terminal_problems(tmp_path):
    path = bad_board(tmp_path, "{cell: [2, 3], door: [3, 2]}", "{cell: [2, 3], door: [4, 2]}")
    expect_error(load_board, path, file=path, field="terminals[1].door", value=[4, 2], allowed_has=("[[3, 2]]",))
    path = bad_board(tmp_path, "{cell: [2, 3], door: [3, 2]}", "{cell: [4, 1], door: [3, 2]}")
    expect_error(load_board, path, file=path, field="terminals", value=[3, 2], allowed_has=("each side",))


def test_bad_ductway(tmp_path):
    path = bad_board(tmp_path, "[1, 1, 1, 3]", "[1, 1, 2, 3]")
    expect_error(load_board, path, file=path, field="ductways[0]", value=[1, 1, 2, 3], allowed_has=("wall 1-2 cells",))


def test_board_connectivity_and_zones(tmp_path):
    path = bad_board(tmp_path, "###L###", "#######")
    expect_error(load_board, path, file=path, field="map[3][1]", value=".", allowed_has=("reachable",))
    path = bad_board(tmp_path, "#111.c#", "#....c#")
    expect_error(load_board, path, file=path, field="map", value=[0], allowed_has=("'0' and '1'",))


def test_scenario_errors_and_nothing_half_loaded(tmp_path):
    bad_gang = write(tmp_path, "gang.yaml", GANG.replace("[lasgun,", "[lasgunn,"))
    scen = write(tmp_path, "scen.yaml", f"""
        name: test
        board: boards/zm_hall.yaml
        gangs: [gangs/orlock.yaml, {bad_gang}]
        round_limit: 5
    """)
    # the error names the gang file that is wrong, and no scenario comes back
    expect_error(load_scenario, scen, file=bad_gang, field="fighters[1].weapons[0]", value="lasgunn")
    missing = write(tmp_path, "scen2.yaml", """
        name: test
        board: boards/nope.yaml
        gangs: [gangs/orlock.yaml, gangs/escher.yaml]
        round_limit: 5
    """)
    expect_error(load_scenario, missing, file=missing, field="board", value="boards/nope.yaml",
                 allowed_has=("no such file",))
    too_many = write(tmp_path, "scen3.yaml", """
        name: test
        board: boards/zm_hall.yaml
        gangs: [gangs/orlock.yaml, gangs/escher.yaml, gangs/goliath.yaml, gangs/van_saar.yaml, gangs/orlock.yaml]
        round_limit: 5
    """)
    expect_error(load_scenario, too_many, file=too_many, field="gangs",
                 value=["gangs/orlock.yaml", "gangs/escher.yaml", "gangs/goliath.yaml", "gangs/van_saar.yaml",
                        "gangs/orlock.yaml"], allowed_has=("2..4",))
    # a failed load leaves nothing behind: the shipped files still load the same
    assert load_scenario().gangs[0].name == load_gang("gangs/orlock.yaml").name


def test_doors_start_modes(tmp_path):
    for mode, expect in (("open", {DOOR_OPEN, DOOR_LOCKED}), ("map", {DOOR_OPEN, DOOR_CLOSED, DOOR_LOCKED})):
        scen = write(tmp_path, "scen.yaml", f"""
            name: test
            board: boards/zm_corridors.yaml
            gangs: [gangs/escher.yaml, gangs/van_saar.yaml]
            round_limit: 5
            doors_start: {mode}
        """)
        assert set(load_scenario(scen).board.doors[:, 2].tolist()) == expect
        assert load_scenario(scen).doors_start == mode


def test_build_game_takes_a_loaded_scenario(tmp_path):
    """build_game(ScenarioSpec) is build_game(path): the spec carries doors_start, which applies to
    a board given instead of the scenario's (the env reads the scenario file once)."""
    from necro_env.envs.necromunda_env import build_game

    scen = write(tmp_path, "scen.yaml", """
        name: test
        board: boards/zm_corridors.yaml
        gangs: [gangs/escher.yaml, gangs/van_saar.yaml]
        round_limit: 5
        doors_start: open
    """)
    spec = load_scenario(scen)
    for board in (None, "boards/zm_hall.yaml"):
        a, b = build_game(scen, board=board), build_game(spec, board=board)
        assert np.array_equal(a.board.doors, b.board.doors) and a.round_limit == b.round_limit == 5
        if board is not None:
            assert DOOR_CLOSED not in set(b.board.doors[:, 2].tolist())  # "open" applied to the override


def test_training_config_errors_name_the_field(tmp_path):
    """A bad training config names file, field, value and what is allowed."""
    from necro_env.config.training import load_training

    good = (CONFIG_ROOT / "training" / "default.yaml").read_text()
    bad = tmp_path / "bad.yaml"
    assert "\nencoder: advised " in good
    bad.write_text(good.replace("\nencoder: advised ", "\nencoder: pixels "))
    with pytest.raises(ConfigError) as err:
        load_training(bad)
    msg = str(err.value)
    assert "bad.yaml" in msg and "encoder" in msg and "pixels" in msg
