"""Where numba keeps compiled machine code (docs/testing.md, "Running the tests").

numba re-checks only the source file of the function it loads from its cache, so an
edit to a callee in another module would leave stale machine code behind. We therefore
key the cache folder by a hash of the compiled sources:

- the *engine* (``core/`` and ``rulesets/``) compiles into ``<base>/<engine hash>``;
- *leaf* modules (numba code that calls the engine but that the engine never imports:
  ``necro_env/policies``, ``necro_env/batch``) decorate with :func:`leaf_njit`, which
  compiles into ``<base>/<engine hash>-<leaf hash>``. The leaf hash covers the module's
  own package and the leaf packages it builds on (``batch`` calls ``policies``, so a
  policy edit recompiles both; a batch edit recompiles the batch kernels only). The engine
  functions they call load from the engine cache.

An explicit ``NUMBA_CACHE_DIR`` is respected for everything. Old versions' folders stay until
``python -m necro_env.cache --prune`` deletes them (``necro_env/cache.py``).
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Necromunda's engine: the core and its ruleset. Another ruleset's files are not in its key (editing
# Firefight's data recompiles nothing of Necromunda); a ruleset with compiled code gets a key of its own.
ENGINE_GLOBS = ("core/*.py", "rulesets/*.py", "rulesets/necromunda/*.py")
# leaf package -> the source globs its compiled code depends on (itself and the leaves it calls)
LEAF_DEPS = {
    "policies": ("policies/*.py",),
    "batch": ("policies/*.py", "batch/*.py"),
}


# Python-side modules among those globs: no compiled code reads them (package inits, the game
# object, its event explanations, BatchedGames), so editing them keeps the cache.
# Every other file counts, whether or not it compiles anything itself: the constants modules
# (state.py, constants.py, terrain.py), whose values compiled code has frozen in, and the
# compiler's own machinery (borrowed_args, lazy_link, lazy_code: the code and its cache format).
# tests/properties/test_cache_folders.py checks that no counted module imports one of these.
PYTHON_ONLY = frozenset({
    "core/__init__.py", "core/errors.py", "core/hashing.py",
    "rulesets/__init__.py", "rulesets/base.py", "rulesets/necromunda/__init__.py",
    "rulesets/necromunda/game.py", "rulesets/necromunda/game_config.py", "rulesets/necromunda/ruleset.py",
    "rulesets/necromunda/explain.py", "batch/__init__.py",
})


def hashed_files(globs) -> list[Path]:
    """The source files whose contents key the cache folder of ``globs``."""
    return sorted(q for g in globs for q in HERE.glob(g) if q.relative_to(HERE).as_posix() not in PYTHON_ONLY)


def _hash(globs) -> str:
    h = hashlib.sha1()
    for p in hashed_files(globs):
        h.update(p.relative_to(HERE).as_posix().encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _base() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "necro_env" / "numba"


def _ready(path: Path) -> str | None:
    try:
        path.mkdir(parents=True, exist_ok=True)
        os.utime(path)  # its last use, for ``python -m necro_env.cache --prune --keep N``
    except OSError:  # read-only home: fall back to numba's default (__pycache__ next to the sources)
        return None
    return str(path)


def engine_cache_dir() -> str | None:
    return _ready(_base() / _hash(ENGINE_GLOBS))


_LEAF_DIR: dict = {}


def leaf_cache_dir(package: str = "policies") -> str | None:
    """Cache folder of the leaf package (``policies`` or ``batch``)."""
    if package not in _LEAF_DIR:
        _LEAF_DIR[package] = _ready(_base() / f"{_hash(ENGINE_GLOBS)}-{package}-{_hash(LEAF_DEPS[package])}")
    return _LEAF_DIR[package]


def _leaf_package(f) -> str:
    parts = f.__module__.split(".")
    for name in LEAF_DEPS:
        if name in parts:
            return name
    return "policies"  # leaf code elsewhere (scripts, tests) builds on the policies at most


def configure() -> None:
    """Point numba at the engine cache folder (called when necro_env is imported)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    path = engine_cache_dir()
    if path is not None:
        import numba

        numba.config.CACHE_DIR = path


def leaf_njit(fn=None, **options):
    """``core.jit.njit(cache=True, **options)`` with the cache in the leaf folder.

    numba fixes a function's cache location when it is decorated, so the folder is
    switched for the decoration only. Import the engine modules a leaf calls before
    decorating (ordinary top-of-file imports do this).
    """
    import numba

    from .core.jit import njit  # one compiled version per function, as in the engine

    def deco(f):
        path = leaf_cache_dir(_leaf_package(f))
        if os.environ.get("NUMBA_CACHE_DIR") or path is None:
            return njit(cache=True, **options)(f)
        old = numba.config.CACHE_DIR
        numba.config.CACHE_DIR = path
        try:
            return njit(cache=True, **options)(f)
        finally:
            numba.config.CACHE_DIR = old

    return deco(fn) if fn is not None else deco
