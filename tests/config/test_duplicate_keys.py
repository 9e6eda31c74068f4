"""A key written twice in one YAML mapping is refused (issue 5, 2026-12-01): YAML itself keeps the
last value silently, so a weapon's Strength 3 written again as 9 loaded as 9."""
import textwrap

import pytest

from necro_env.config import ConfigError, load_board, load_weapons
from necro_env.config.loader import read_yaml

WEAPON = """
    weapons:
      - name: club
        profiles:
          - {long: E, strength: 3, damage: 1, traits: [melee], strength: 9}
"""


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def test_repeated_key_is_refused_with_file_field_and_line(tmp_path):
    path = write(tmp_path, "weapons.yaml", WEAPON)
    with pytest.raises(ConfigError) as err:
        load_weapons(path)
    e = err.value
    assert (e.file, e.field, e.value) == (str(path), "weapons[0].profiles[0].strength", "strength")
    assert e.allowed == "each key once in a mapping: line 4 repeats it (first at line 4)"


def test_repeated_key_in_every_loader(tmp_path):
    """read_yaml is the one reader of every config file: boards, gangs, scenarios, training configs."""
    path = write(tmp_path, "b.yaml", """
        name: b
        name: c
        map: |
          ###
    """)
    with pytest.raises(ConfigError, match=r"field 'name': got 'name'; each key once in a mapping: line 2"):
        load_board(path)
    extends = write(tmp_path, "base.yaml", "a: 1\nb:\n  c: 2\n  c: 3\n")
    with pytest.raises(ConfigError, match=r"field 'b\.c'.*line 4 repeats it \(first at line 3\)"):
        read_yaml(extends)


def test_keys_that_differ_only_in_type_and_merge_keys_still_load(tmp_path):
    """1 and "1" are two keys; a YAML merge (<<) may be overridden by the mapping's own key."""
    path = write(tmp_path, "ok.yaml", """
        base: &b {x: 1, y: 2}
        over:
          <<: *b
          x: 5
        1: int
        "1": str
    """)
    data = read_yaml(path)
    assert data["over"] == {"x": 5, "y": 2} and data[1] == "int" and data["1"] == "str"
