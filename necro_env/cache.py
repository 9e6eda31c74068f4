"""``python -m necro_env.cache``: list and prune necro_env's numba cache folders.

The compiled code is cached per hash of the sources (``necro_env._numba_cache``): every edit of
the engine, or every release installed, starts a new set of folders (the engine's and its leaf
packages', about 40 MB together) and nothing deletes the old ones. This lists them with their
size and last use and removes those of other versions of the code:

    python -m necro_env.cache                  # list (the running code's folders marked *)
    python -m necro_env.cache --prune          # delete every other version's folders
    python -m necro_env.cache --prune --keep 2 # ... but keep the 2 most recently used other versions

An older leaf folder of the running engine (after an edit of ``necro_env/batch`` or
``policies``) counts as a version of its own. Only folders under ``$XDG_CACHE_HOME/necro_env/numba``
(default ``~/.cache``) whose names are cache keys are touched; an explicit ``NUMBA_CACHE_DIR`` is the user's and is never pruned. A
process still running an older version recompiles what it has not loaded yet, nothing worse.
"""
from __future__ import annotations

import argparse
import re
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from . import _numba_cache

_NAME = re.compile(r"^(?:(?P<ruleset>[a-z0-9_]+)-)??(?P<engine>[0-9a-f]{16})(?:-(?P<leaf>[a-z_]+)-[0-9a-f]{16})?$")


@dataclass
class Version:
    """The folders of one engine hash: the engine's own and its leaf packages'. A leaf folder of the
    running engine whose leaf hash is not the running code's (an older ``batch`` or ``policies``)
    is a version of its own, named by the folder."""

    engine: str
    folders: list[Path]
    size: int  # bytes
    last_used: float  # newest modification time of a folder or a file in it (seconds since the epoch)
    current: bool  # the running code's


def _scan(folder: Path) -> tuple[int, float]:
    size, newest = 0, folder.stat().st_mtime
    for p in folder.rglob("*"):
        st = p.stat()
        newest = max(newest, st.st_mtime)
        if p.is_file():
            size += st.st_size
    return size, newest


def versions(base: Path | None = None) -> list[Version]:
    """The cache's versions, most recently used first (folders with other names are ignored)."""
    base = _numba_cache._base() if base is None else base
    current = _numba_cache._hash(_numba_cache.ENGINE_GLOBS)
    # another ruleset's folder, <name>-<hash>, is a version of its own (current if its hash is today's)
    today = {f"{name}-{_numba_cache._hash(globs)}" for name, globs in _numba_cache.RULESET_GLOBS.items()}
    leaves = {f"{current}-{pkg}-{_numba_cache._hash(globs)}" for pkg, globs in _numba_cache.LEAF_DEPS.items()}
    groups: dict[str, list[Path]] = {}
    if base.is_dir():
        for p in sorted(base.iterdir()):
            m = _NAME.match(p.name)
            if m and p.is_dir():
                if m["ruleset"]:
                    groups.setdefault(p.name, []).append(p)
                    continue
                stale_leaf = m["engine"] == current and m["leaf"] and p.name not in leaves
                groups.setdefault(p.name if stale_leaf else m["engine"], []).append(p)
    out = []
    for engine, folders in groups.items():
        scans = [_scan(f) for f in folders]
        out.append(Version(engine, folders, sum(s for s, _ in scans), max(t for _, t in scans),
                           engine == current or engine in today))
    return sorted(out, key=lambda v: (not v.current, -v.last_used))


def prune(keep: int = 0, base: Path | None = None) -> list[Version]:
    """Delete the folders of every version but the running code's and the ``keep`` most recently
    used others; returns the deleted versions."""
    if keep < 0:
        raise ValueError(f"keep must be >= 0, got {keep}")
    others = [v for v in versions(base) if not v.current]
    gone = others[keep:]
    for v in gone:
        for f in v.folders:
            shutil.rmtree(f, ignore_errors=True)
    return gone


def _mb(n: int) -> str:
    return f"{n / 1e6:,.1f} MB"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m necro_env.cache", description=__doc__.split("\n\n")[0])
    ap.add_argument("--prune", action="store_true", help="delete the folders of other versions of the code")
    ap.add_argument("--keep", type=int, default=0,
                    help="with --prune: keep this many most recently used other versions")
    args = ap.parse_args(argv)
    if args.keep < 0:
        ap.error(f"--keep must be >= 0, got {args.keep}")
    base = _numba_cache._base()
    if args.prune:
        gone = prune(args.keep, base)
        print(f"deleted {len(gone)} version(s), {_mb(sum(v.size for v in gone))} from {base}")
        return 0
    vs = versions(base)
    print(f"{base}: {len(vs)} version(s), {_mb(sum(v.size for v in vs))}")
    for v in vs:
        used = time.strftime("%Y-%m-%d %H:%M", time.localtime(v.last_used))
        mark = "*" if v.current else " "
        print(f"{mark} {v.engine}  {_mb(v.size):>10}  last used {used}  {len(v.folders)} folder(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
