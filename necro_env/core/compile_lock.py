"""One process at a time compiles a cached function: a file lock per function across processes.

numba's cache lets every process load what another compiled, but two processes that start on a
cold cache (SubprocVecEnv workers, parallel test or evaluation jobs, a warm-up helper) compile
the same functions side by side, each paying the whole compile, and then both write the same
cache entries. :meth:`necro_env.core.jit.OneVersionDispatcher.compile` holds this lock around its
cache lookup and compile: a second process asking for the same function waits, then finds the
first one's entry in the cache and loads it (numba reads the function's index file on every
lookup). Different functions compile in parallel, so processes that start from different parts of
the call graph share the work (docs/performance.md, "Compile time": two processes, 184 -> 112 s).

The lock is ``flock`` on ``<the function's cache index>.lock``, released by the operating system if
the process dies. Within a process the lock is taken once per function (a function being
compiled may be asked for again while it is typed); there is no other nesting than the call graph,
whose callees are always locked after their callers, so no two processes wait on each other.
Without a cache (``cache=False``, ``NullCache``), without ``fcntl`` (Windows) or when the lock
file cannot be opened (a read-only cache folder) the compile runs unlocked, as numba's would.

The files kept beside a function's cache entry (this lock, ``core.separate``'s manifest,
``core.pywrap``'s wrappers) are named by :func:`sidecar_path`; the two pickled ones are read and
written by :func:`read_sidecar` / :func:`write_sidecar`.
"""
from __future__ import annotations

import contextlib
import os
import pickle
import tempfile

try:
    import fcntl
except ImportError:  # Windows: no cross-process lock; numba's own behaviour
    fcntl = None

_held: set[str] = set()  # the lock files this process holds


def index_path(dispatcher) -> str | None:
    """The cache index file of ``dispatcher``'s cached function, or None when it has no cache file."""
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    return getattr(cache_file, "_index_path", None)


def sidecar_path(dispatcher, suffix: str) -> str | None:
    """``<the cache index of dispatcher's cached function><suffix>``: the files kept beside a
    function's cache entry (its lock here, ``core.separate``'s manifest, ``core.pywrap``'s
    wrappers), or None when it has no cache file."""
    index = index_path(dispatcher)
    return None if index is None else index + suffix


def read_sidecar(path) -> dict:
    """A pickled dict kept next to a cache index (``core.separate``'s manifests, ``core.pywrap``'s
    wrappers); empty when missing or unreadable."""
    try:
        with open(path, "rb") as fh:
            data = pickle.load(fh)
        return data if isinstance(data, dict) else {}
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, TypeError, ValueError):
        return {}


def write_sidecar(path, args, value) -> None:
    """Set ``args``'s entry of the sidecar at ``path`` (replaced atomically)."""
    data = read_sidecar(path)
    data[args] = value
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".sidecar-")
    try:
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(data, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def lock_path(dispatcher) -> str | None:
    """The lock file of ``dispatcher``'s cached function, or None when it has no cache file."""
    return sidecar_path(dispatcher, ".lock")


@contextlib.contextmanager
def held(dispatcher):
    """Hold ``dispatcher``'s compile lock for the ``with`` block (module docstring)."""
    path = lock_path(dispatcher)
    if fcntl is None or path is None or path in _held:
        yield
        return
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fh = open(path, "a")
    except OSError:
        yield
        return
    with fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        _held.add(path)
        try:
            yield
        finally:
            _held.discard(path)
            fcntl.flock(fh, fcntl.LOCK_UN)
