"""Config files: YAML that would load with a silently changed meaning (docs/data.md).

Each case writes a small config file in a temporary folder, loads it, and returns the ConfigError's
text; a repeated key used to load silently, the second value winning.
"""
from __future__ import annotations

import tempfile
import textwrap
from pathlib import Path

from .catalogue import Case, refused

AREA = "Config files"


def _load(loader_name, name, text):
    """``necro_env.config.<loader_name>`` on a file ``name`` holding ``text`` -> the refusal's text."""
    import necro_env.config as config

    with tempfile.TemporaryDirectory(prefix="necro_cases_config_") as folder:
        path = Path(folder) / name
        path.write_text(textwrap.dedent(text).lstrip())
        return refused(lambda: getattr(config, loader_name)(path), config.ConfigError)


def _training(text):
    from necro_env.config import ConfigError
    from necro_env.config.training import load_training

    with tempfile.TemporaryDirectory(prefix="necro_cases_config_") as folder:
        path = Path(folder) / "run.yaml"
        path.write_text(textwrap.dedent(text).lstrip())
        return refused(lambda: load_training(path), ConfigError)


CASES = [
    Case("config-duplicate-key-flow", AREA,
         "a weapon profile written `{..., strength: 3, ..., strength: 9}` (the issue's Strength 3 that became 9)",
         r"weapons\.yaml: field 'weapons\[0\]\.profiles\[0\]\.strength': got 'strength'; each key once in a "
         r"mapping: line 5 repeats it \(first at line 5\)",
         lambda: _load("load_weapons", "weapons.yaml", """
             weapons:
               - name: club
                 cost: 5
                 profiles:
                   - {long: E, strength: 3, ap: 0, damage: 1, strength: 9, traits: [melee]}
         """)),
    Case("config-duplicate-key-block", AREA, "a board file with two `map:` blocks",
         r"dup\.yaml: field 'map': got 'map'; each key once in a mapping: line 7 repeats it \(first at line 2\)",
         lambda: _load("load_board", "dup.yaml", """
             name: dup
             map: |
               ####
               #01#
               ####
             description: two maps
             map: |
               #####
               #0.1#
               #####
         """)),
    Case("config-duplicate-key-nested", AREA, "a gang file whose second fighter has `type:` twice",
         r"gang\.yaml: field 'fighters\[1\]\.type': got 'type'; each key once in a mapping: line 8 repeats it "
         r"\(first at line 6\)",
         lambda: _load("load_gang", "gang.yaml", """
             name: twins
             house: orlock
             fighters:
               - {name: a, type: ganger}
               - name: b
                 type: ganger
                 weapons: [autogun]
                 type: leader
         """)),
    Case("config-duplicate-key-training", AREA, "a training config with `total_timesteps:` twice at the top level",
         r"run\.yaml: field 'total_timesteps': got 'total_timesteps'; each key once in a mapping: line 3 repeats it "
         r"\(first at line 2\)",
         lambda: _training("""
             name: twice
             total_timesteps: 1000
             total_timesteps: 50000
         """)),
]
