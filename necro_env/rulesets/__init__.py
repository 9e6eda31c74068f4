"""The registry of rule systems (DESIGN.md §11), as Pgx's ``make`` and OpenSpiel's ``load_game``.

    from necro_env import rulesets
    rs = rulesets.get("necromunda")      # a necro_env.rulesets.base.Ruleset
    game = rs.config_from_json({"variant": "house_legacy"}).build()

``get`` imports only the ruleset asked for. Adding a game is one line in ``_entries`` (docs/architecture.md,
"How to add a ruleset").
"""
from __future__ import annotations

from importlib import import_module



def _entries() -> dict:
    """name -> the module defining its RULESET. (A function, not a module-level table: this package's
    init holds no values, so the engine's cache key can leave it out: necro_env/_numba_cache.py.)"""
    return {
        "necromunda": "necro_env.rulesets.necromunda.ruleset",
        "firefight": "necro_env.rulesets.firefight.ruleset",
    }


def names() -> tuple[str, ...]:
    return tuple(_entries())


def get(name: str):
    """The ``Ruleset`` called ``name``; ValueError naming the known ones for any other name."""
    entries = _entries()
    if not isinstance(name, str) or name not in entries:
        raise ValueError(f"unknown ruleset {name!r}; known: {', '.join(entries)}")
    return import_module(entries[name]).RULESET
