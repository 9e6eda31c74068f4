"""necro_env: Necromunda as a fast, faithful multi-agent RL environment (PettingZoo AEC + Gymnasium).

``from necro_env import necromunda_v0`` gives the PettingZoo env module
(``necromunda_v0.env(...)``, ``necromunda_v0.raw_env(...)``); the Gymnasium id
``necro_env/Necromunda-v0`` is registered on import. Heavy modules (numba
engine, PettingZoo) load lazily, on first use of ``necromunda_v0``.
"""
from importlib import import_module

from . import _numba_cache

__version__ = "0.1.0"

_numba_cache.configure()

GYM_ID = "necro_env/Necromunda-v0"


def _register():
    try:
        import gymnasium
    except ImportError:  # pragma: no cover - gymnasium is a dependency
        return
    if GYM_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ID, entry_point="necro_env.envs.gym_wrapper:NecromundaGymEnv")
    if "necro_env/Firefight-v0" not in gymnasium.registry:  # any ruleset's wrapper, for Firefight (2026-12-02)
        gymnasium.register(id="necro_env/Firefight-v0", entry_point="necro_env.envs.ruleset_gym:RulesetGymEnv",
                           kwargs={"ruleset": "firefight"})


_register()


def __getattr__(name):
    if name == "necromunda_v0":
        return import_module("necro_env.necromunda_v0")
    if name == "firefight_v0":  # from necro_env import firefight_v0 (2026-12-02)
        return import_module("necro_env.firefight_v0")
    raise AttributeError(f"module 'necro_env' has no attribute {name!r}")


__all__ = ["necromunda_v0", "__version__", "GYM_ID"]
