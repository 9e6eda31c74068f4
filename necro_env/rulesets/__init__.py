"""The registry of rule systems (DESIGN.md §11), as Pgx's ``make`` and OpenSpiel's ``load_game``.

    from necro_env import rulesets
    rs = rulesets.get("necromunda")      # a necro_env.rulesets.base.Ruleset
    game = rs.config_from_json({"variant": "house_legacy"}).build()

``get`` imports only the ruleset asked for. Adding a game is one line here (docs/architecture.md,
"How to add a ruleset").
"""
from __future__ import annotations

from importlib import import_module

_ENTRIES = {
    "necromunda": "necro_env.rulesets.necromunda.ruleset",
}


def names() -> tuple[str, ...]:
    return tuple(_ENTRIES)


def get(name: str):
    """The ``Ruleset`` called ``name``; ValueError naming the known ones for any other name."""
    if not isinstance(name, str) or name not in _ENTRIES:
        raise ValueError(f"unknown ruleset {name!r}; known: {', '.join(_ENTRIES)}")
    return import_module(_ENTRIES[name]).RULESET
