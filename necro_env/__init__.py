"""necro_env: Necromunda as a fast, faithful multi-agent RL environment (PettingZoo AEC + Gymnasium).

``from necro_env import necromunda_v0`` gives the PettingZoo env module
(``necromunda_v0.env(...)``, ``necromunda_v0.raw_env(...)``); the Gymnasium id
``necro_env/Necromunda-v0`` is registered on import. Heavy modules (numba
engine, PettingZoo) load lazily, on first use of ``necromunda_v0``.
"""
import hashlib
import os
from importlib import import_module
from pathlib import Path

__version__ = "0.1.0"


def _numba_cache_dir():
    """Key numba's on-disk cache by a hash of the compiled sources.

    numba re-checks only the file of the function it loads from cache, so an edit to a
    callee in another module would leave stale machine code behind. A directory per
    source hash makes every edit start from a clean cache. An explicit
    NUMBA_CACHE_DIR is respected.
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    here = Path(__file__).resolve().parent
    h = hashlib.sha1()
    for p in sorted([*here.glob("core/*.py"), *here.glob("rulesets/**/*.py")]):
        text = p.read_bytes()
        if b"njit" in text:  # only modules with compiled code matter
            h.update(p.relative_to(here).as_posix().encode())
            h.update(text)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "necro_env" / "numba"
    path = base / h.hexdigest()[:16]
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:  # read-only home: fall back to numba's default (__pycache__ next to the sources)
        return
    import numba

    numba.config.CACHE_DIR = str(path)


_numba_cache_dir()

GYM_ID = "necro_env/Necromunda-v0"


def _register():
    try:
        import gymnasium
    except ImportError:  # pragma: no cover - gymnasium is a dependency
        return
    if GYM_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ID, entry_point="necro_env.envs.gym_wrapper:NecromundaGymEnv")


_register()


def __getattr__(name):
    if name == "necromunda_v0":
        return import_module("necro_env.necromunda_v0")
    raise AttributeError(f"module 'necro_env' has no attribute {name!r}")


__all__ = ["necromunda_v0", "__version__", "GYM_ID"]
