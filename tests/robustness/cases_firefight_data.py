"""Firefight data: army, list and board files that break the digest's rules (docs/firefight_data.md).

Each case writes the files in a temporary folder, loads them with the Firefight loaders, checks that the
refusal wrote nothing into that folder, and returns the ConfigError's text.
"""
from __future__ import annotations

import tempfile
import textwrap
from pathlib import Path

from .catalogue import Case, refused

AREA = "Firefight data"

ARMY = """
    name: test_army
    weapons:
      - {name: gun, range: 24, attacks: 1}
    units:
      - {name: hero, size: 1, quality: 4, defense: 4, rules: [Hero, RULE], equipment: [gun], cost: 10}
      - {name: big, size: 1, quality: 4, defense: 4, equipment: [gun], cost: 71}
"""


def _load(loader_name: str, files: dict[str, str]) -> str:
    """Write ``files`` {name: text}, load the last one with ``data.<loader_name>``; the refusal's text."""
    from necro_env.config import ConfigError
    from necro_env.rulesets.firefight import data

    with tempfile.TemporaryDirectory(prefix="necro_cases_firefight_") as folder:
        for name, text in files.items():
            (Path(folder) / name).write_text(textwrap.dedent(text).lstrip())
        before = sorted(p.name for p in Path(folder).iterdir())
        message = refused(lambda: getattr(data, loader_name)(Path(folder) / name), ConfigError)
        assert sorted(p.name for p in Path(folder).iterdir()) == before, "a refused load wrote a file"
        return message


def _army(rule: str) -> str:
    return _load("load_army", {"army.yaml": ARMY.replace("RULE", rule)})


def _list(*units: str) -> str:
    picks = "".join(f"      - {{unit: {u}}}\n" for u in units)
    return _load("load_list", {"army.yaml": ARMY.replace(", RULE", ""),
                               "list.yaml": f"    name: l\n    army: army.yaml\n    points: 200\n    units:\n{picks}"})


def _board_19_pieces() -> str:
    rows = [["."] * 48 for _ in range(48)]
    for k in range(19):
        rows[14 + (k // 10) * 10][2 + (k % 10) * 4] = "b"
    text = "name: b\nmap: |\n" + "".join("  " + "".join(r) + "\n" for r in rows)
    return _load("load_board", {"board.yaml": text})


CASES = [
    Case("firefight-unknown-rule", AREA, "a unit with the rule `Toughness(3)` (firefight.md §10 has Tough(X))",
         r"army\.yaml: field 'units\[0\]\.rules\[1\]': got 'Toughness\(3\)'; unknown special rule; did you mean "
         r"'Tough'\? rules a unit may have \(firefight\.md §10, X an integer\): Ambush, Caster\(X\), .*Tough\(X\)",
         lambda: _army("'Toughness(3)'")),
    Case("firefight-missing-parameter", AREA, "a unit with the rule `Tough` without its X",
         r"army\.yaml: field 'units\[0\]\.rules\[1\]': got 'Tough'; Tough needs its parameter: Tough\(X\) with X an "
         r"integer 1\.\.12; rules a unit may have .*",
         lambda: _army("Tough")),
    Case("firefight-weapon-rule-on-unit", AREA, "a unit with the weapon rule `Blast(3)`",
         r"army\.yaml: field 'units\[0\]\.rules\[1\]': got 'Blast\(3\)'; Blast is a weapon rule \(firefight\.md §10\), "
         r"not a unit rule; .*",
         lambda: _army("'Blast(3)'")),
    Case("firefight-two-heroes-at-200", AREA, "a 200-pt list with two heroes (force organisation on)",
         r"list\.yaml: field 'units\[1\]': got 'hero'; force organisation \(firefight\.md §2\.2\): at most 1 hero\(es\) "
         r"at 200 pts \(1 per 150 pts: floor\(200 / 150\) = 1\); this is hero 2, after units\[0\]",
         lambda: _list("hero", "hero")),
    Case("firefight-unit-over-35-percent", AREA, "a 200-pt list with a 71-pt unit",
         r"list\.yaml: field 'units\[0\]': got 71; force organisation \(firefight\.md §2\.2\): a single unit costs at "
         r"most 70 pts at 200 pts \(35 % of 200 pts = 70\); big costs 71",
         lambda: _list("big")),
    Case("firefight-board-19-pieces", AREA, "a 48x48 board with 19 terrain pieces",
         r"board\.yaml: field 'map': got '19 pieces'; a battlefield has 20 or more terrain pieces \(firefight\.md "
         r"§2\.3\)",
         _board_19_pieces),
]
