"""Where numba keeps compiled machine code, and which compiler the project's functions use
(docs/testing.md, "Running the tests"; docs/performance.md, "numba versions and the fallback").

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

numba fixes a function's cache folder when it is decorated, so ``core.jit.njit`` points
numba at the folder for the project's own decorations only (:func:`decorating_into`); numba's
global setting, and with it every other library's numba cache, is left as numba chose it.
An explicit ``NUMBA_CACHE_DIR`` is respected for everything. Old versions' folders stay until
``python -m necro_env.cache --prune`` deletes them (``necro_env/cache.py``).

The compiler. The project's compile machinery (``core/jit.py`` and the modules it names) builds
on numba's private classes as numba 0.68 has them. :func:`fast_machinery` is the one place
that decides whether it is used: only with numba and llvmlite inside :data:`TESTED` (the range
pyproject.toml pins) and without ``NECRO_STOCK_NUMBA=1``. Otherwise every project function is
plain ``numba.njit(cache=True)`` (the same games, a slower first compile), one
:class:`StockNumbaWarning` says why, and its cache lives under ``<base>/stock`` (or
``$NUMBA_CACHE_DIR/necro_stock``), apart from the fast path's, whose entries stock numba cannot
read (and the reverse).
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Necromunda's engine: the core and its ruleset (the core's own functions are cached here too, where
# they always were). Another ruleset's files are not in its key.
ENGINE_GLOBS = ("core/*.py", "rulesets/*.py", "rulesets/necromunda/*.py")
# every other ruleset with compiled code: its own key and folder, ``<base>/<name>-<hash>``, so that
# editing one game never recompiles another (DESIGN.md §11). Its functions call the core's from the
# folder above: a Necromunda edit recompiles those core functions on their next use, and a Firefight
# function that calls one of them separately (core.separate) follows, nothing of Firefight's own.
RULESET_GLOBS = {
    "firefight": ("core/*.py", "rulesets/*.py", "rulesets/firefight/*.py"),
}
# leaf package -> the source globs its compiled code depends on (itself and the leaves it calls)
LEAF_DEPS = {
    "policies": ("policies/*.py",),
    "batch": ("policies/*.py", "batch/*.py"),
}

# the versions the compile machinery is written and tested against: [low, high) of (major, minor)
TESTED = {"numba": ((0, 68), (0, 69)), "llvmlite": ((0, 50), (0, 51))}
STOCK_VAR = "NECRO_STOCK_NUMBA"  # "1": plain numba.njit even on a tested version (tests, bug hunts)
STOCK_FOLDER = "stock"  # the fallback's cache: <base>/stock/..., or $NUMBA_CACHE_DIR/necro_stock
STOCK_EXPLICIT = "necro_stock"


class StockNumbaWarning(UserWarning):
    """The project's functions compile with plain ``numba.njit`` (:func:`fast_machinery`)."""


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
    "rulesets/firefight/__init__.py", "rulesets/firefight/game.py", "rulesets/firefight/game_config.py",
    "rulesets/firefight/log.py", "rulesets/firefight/ruleset.py", "rulesets/firefight/testing.py",
    "rulesets/firefight/generator.py", "rulesets/firefight/encode.py", "rulesets/firefight/frames.py",
    "rulesets/firefight/render.py",  # (data.py counts: constants.py takes the rule codes from it)
    # Necromunda's ways of showing a game, moved from the generic layers behind the seam (2026-12-02)
    "rulesets/necromunda/battlelog.py", "rulesets/necromunda/render_text.py", "rulesets/necromunda/rgb.py",
    "rulesets/necromunda/frames.py", "rulesets/necromunda/demo_players.py",
    "rulesets/necromunda/markers.py",  # (its tables reach the batch encoder as arguments, never frozen in)
    # Necromunda's parts of the generic layers moved behind the seam later the same day (issue 56, item 1)
    "rulesets/necromunda/rewards.py", "rulesets/necromunda/soak.py",
})


# ---------------------------------------------------------------------------- the compiler
def _minor(version: str):
    """(major, minor) of a version string such as ``0.68.1`` or ``0.69.0rc1``; None if unreadable."""
    m = re.match(r"(\d+)\.(\d+)", version)
    return (int(m[1]), int(m[2])) if m else None


def installed_versions() -> dict[str, str]:
    import llvmlite
    import numba

    return {"numba": numba.__version__, "llvmlite": llvmlite.__version__}


def tested_range() -> str:
    """:data:`TESTED` as pyproject.toml writes it: ``numba>=0.68,<0.69, llvmlite>=0.50,<0.51``."""
    return ", ".join(f"{name}>={lo[0]}.{lo[1]:02d},<{hi[0]}.{hi[1]:02d}" for name, (lo, hi) in TESTED.items())


def stock_reason(environ=None, versions=None) -> str | None:
    """Why the project's functions must compile with plain numba, or None when the fast machinery
    may be used. ValueError (naming the value) for a ``NECRO_STOCK_NUMBA`` other than 0 or 1."""
    environ = os.environ if environ is None else environ
    raw = environ.get(STOCK_VAR, "").strip()
    if raw not in ("", "0", "1"):
        raise ValueError(f"{STOCK_VAR} must be 0 or 1 (or unset), got {raw!r}")
    versions = installed_versions() if versions is None else versions
    outside = [f"{name} {v}" for name, v in versions.items()
               if not (_minor(v) is not None and TESTED[name][0] <= _minor(v) < TESTED[name][1])]
    if outside:
        return f"{' and '.join(outside)} outside the tested range"
    return f"{STOCK_VAR}=1" if raw == "1" else None


_FAST: bool | None = None


def fast_machinery() -> bool:
    """Whether the project's compile machinery is used in this process (decided once, on first call:
    ``core.jit`` asks when it is imported). False with one :class:`StockNumbaWarning` naming the
    installed versions and the tested range."""
    global _FAST
    if _FAST is None:
        reason = stock_reason()
        if reason is not None:
            import warnings

            v = installed_versions()
            warnings.warn(f"necro_env: {reason} (numba {v['numba']}, llvmlite {v['llvmlite']}; tested: "
                          f"{tested_range()}): compiling with plain numba.njit(cache=True), the same games "
                          "after a slower first compile", StockNumbaWarning, stacklevel=2)
        _FAST = reason is None
    return _FAST


# ---------------------------------------------------------------------------- cache folders
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
    """The folder of this process's cache folders: the fallback's apart (module docstring)."""
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "necro_env" / "numba"
    return root if fast_machinery() else root / STOCK_FOLDER


def _ready(path: Path) -> str | None:
    try:
        path.mkdir(parents=True, exist_ok=True)
        os.utime(path)  # its last use, for ``python -m necro_env.cache --prune --keep N``
    except OSError:  # read-only home: fall back to numba's default (__pycache__ next to the sources)
        return None
    return str(path)


_LEAF_DIR: dict = {}  # package (None: the engine) -> its folder, made once per process


def engine_cache_dir(ruleset: str | None = None) -> str | None:
    """The cache folder of Necromunda's engine and the core (``ruleset`` None), or of a ruleset of
    :data:`RULESET_GLOBS`."""
    key = ("ruleset", ruleset) if ruleset else None
    if key not in _LEAF_DIR:
        name = f"{ruleset}-{_hash(RULESET_GLOBS[ruleset])}" if ruleset else _hash(ENGINE_GLOBS)
        _LEAF_DIR[key] = _ready(_base() / name)
    return _LEAF_DIR[key]


def ruleset_of(module: str) -> str | None:
    """The ruleset of :data:`RULESET_GLOBS` whose package holds ``module``, else None (Necromunda's
    engine folder)."""
    parts = module.split(".")
    if len(parts) > 2 and parts[:2] == ["necro_env", "rulesets"] and parts[2] in RULESET_GLOBS:
        return parts[2]
    return None


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


def decoration_folder(folder: str | None) -> str | None:
    """The folder numba is to cache a project function into: ``folder`` (the engine's or a leaf's),
    or under an explicit ``NUMBA_CACHE_DIR`` that folder itself (fast machinery) or its
    ``necro_stock`` subfolder (plain numba). None: numba's own default location."""
    explicit = os.environ.get("NUMBA_CACHE_DIR")
    if explicit:
        return explicit if fast_machinery() else _ready(Path(explicit) / STOCK_EXPLICIT)
    return folder


@contextlib.contextmanager
def decorating_into(folder: str | None):
    """numba caches what is decorated in this block into ``folder`` (None: numba's default);
    numba's global setting is restored after it."""
    if folder is None:
        yield
        return
    import numba

    old = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = folder
    try:
        yield
    finally:
        numba.config.CACHE_DIR = old


def configure() -> None:
    """Called when necro_env is imported. Nothing is set process-wide any more: the project's
    functions are pointed at their cache folders as they are decorated (:func:`decorating_into`),
    so other numba code in the process keeps numba's own cache location."""


def leaf_njit(fn=None, **options):
    """``core.jit.njit(cache=True, **options)`` with the cache in the leaf folder.

    numba fixes a function's cache location when it is decorated, so the folder is
    chosen for the decoration only. Import the engine modules a leaf calls before
    decorating (ordinary top-of-file imports do this).
    """
    from .core.jit import njit  # one compiled version per function, as in the engine

    def deco(f):
        return njit(cache=True, cache_folder=leaf_cache_dir(_leaf_package(f)), **options)(f)

    return deco(fn) if fn is not None else deco
