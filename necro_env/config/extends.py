"""``extends:`` in experiment configs (configs/training/*.yaml, configs/ppo_fast/*.yaml): a file names
the config it varies and writes only what differs.

    # configs/training/mirror.yaml
    extends: default.yaml          # a path relative to this file's folder (or absolute)
    name: maskppo_mirror
    scenario: scenarios/orlock_mirror.yaml

The base is read first (itself possibly extending another); then the file's keys are laid over it:
a mapping merges key by key (``ppo: {learning_rate: 0.0003}`` changes one PPO setting and keeps the
rest), anything else (a number, a string, a list, null) replaces the base's value. ``opponent`` is
the exception: an opponent mix ``{spec: weight}`` is one value, so a file's mix replaces the base's
whole (its order is the order of the draws). ``null`` removes a section (``pretrain: null``: no warm
start). Errors name the file and the ``extends`` field; a cycle is refused.
"""
from __future__ import annotations

from pathlib import Path

from .errors import ConfigError
from .loader import read_yaml

EXTENDS = "extends"
WHOLE = frozenset({"opponent"})  # mappings that are one value, replaced and never merged


def read_with_extends(file: Path, _chain: tuple = ()) -> dict:
    """The mapping of YAML file ``file`` with its ``extends:`` chain resolved (module docstring)."""
    file = Path(file).resolve()
    if file in _chain:
        cycle = " -> ".join(p.name for p in _chain + (file,))
        raise ConfigError(_chain[-1], EXTENDS, file.name, f"a config that does not extend itself (cycle: {cycle})")
    data = read_yaml(file)
    base = data.pop(EXTENDS, None)
    if base is None:
        return data
    if not isinstance(base, str) or not base:
        raise ConfigError(file, EXTENDS, base, "the path of the config file this one varies (relative to its folder)")
    path = Path(base) if Path(base).is_absolute() else file.parent / base
    if not path.is_file():
        raise ConfigError(file, EXTENDS, base, f"an existing config file; no such file: {path}")
    return merge(read_with_extends(path, _chain + (file,)), data)


def merge(base: dict, over: dict) -> dict:
    """``over`` laid over ``base`` (a new dict; neither is changed): mappings merge key by key except
    the ``WHOLE`` keys, any other value replaces."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) and key not in WHOLE:
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out
