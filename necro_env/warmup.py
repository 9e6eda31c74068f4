"""``python -m necro_env.warmup`` (``necro-warmup``): compile the rules core on several cores at once.

numba compiles one function after another in one process: on an empty cache the first start of
an env, a training run or the test suite spends minutes on one core (docs/performance.md,
"Compile time"). Since :mod:`necro_env.core.compile_lock` a cached function is compiled by one
process at a time and loaded by the others, so processes working through different parts of the
call graph share the compile. This module does that on purpose:

- the *plan* (``compile_plan.json`` beside this file) lists the compiled units a run loads from
  the cache (the functions called from Python and the separately compiled ones, ``core.separate``)
  with their argument types and the units each calls, callees before callers, as recorded from
  :data:`PLAN_SCRIPT` (the engine, the batched core with its compiled policies, the batched env
  and the AEC env with every encoder). The argument types are written as plain data (arrays,
  scalars, named tuples of them; :func:`encode_type`), not as pickled numba objects, so the file
  does not depend on numba's version; ``tests/properties/test_warmup.py`` checks it against a fresh recording;
- :func:`ensure` compiles the plan when its cache is cold: this process and ``jobs - 1`` helper
  processes each take, among the units nobody has claimed whose callees are all compiled, the one
  with the longest chain of compile time still behind it (:func:`ranks`, from the compile seconds
  the recording measured; claims are files in a temporary folder), so they work on different
  branches of the call graph and the longest chain starts first (this process leaves the
  ``parallel=True`` kernels to the helpers and loads nothing it did not compile: loading a batch
  kernel starts numba's OpenMP threads, which made torch's training 1.6-2x slower in a process that
  never ran them). When every unit has a cache entry it returns at once (a few file checks).
  Anything the plan misses compiles on first use as before.

The plan is the fast compile machinery's (``core.jit``): with plain numba (an untested numba
version, or ``NECRO_STOCK_NUMBA=1``) there is no warm-up and numba compiles on first use.

The first game a process builds runs :func:`ensure` (:func:`on_first_game`, called by
``Game.__init__``), so every use of the library starts with it: the envs, the batched core, the
commands (which also call it first, before they build their envs or worker processes) and the test
suite's ``conftest.py``; ``necro-warmup`` runs it alone (for example while installing). ``NECRO_WARMUP_JOBS`` sets the number of processes (default: the usable CPUs,
at most 4; ``1`` or ``0`` turns the warm-up off). Measured: docs/performance.md, "Compile time".

    python -m necro_env.warmup [--jobs N]
    python -m necro_env.warmup --record   # rewrite compile_plan.json after changing the code's types
                                          # (compiles the plan script once on an empty cache, to time it)
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

PLAN_PATH = Path(__file__).with_name("compile_plan.json")
PLAN_FORMAT = 1

PLAN_SCRIPT = r"""
import numpy as np
from necro_env.batch import BatchedGames
from necro_env.envs.batched_env import BatchedEnv
from necro_env.envs.necromunda_env import build_game, env as aec_env
g = build_game()
g.reset(0)
g.step(int(g.legal_actions()[0]))
b = BatchedGames(g, 4).reset()
b.play(4)
for opponent in ("random", "gunline", "aggressor"):
    e = BatchedEnv(4, opponent=opponent)
    e.reset()
    for _ in range(3):
        e.step(np.array([np.flatnonzero(m)[0] for m in e.action_masks()]))
for encoder in ("entity", "flat", "spatial", "tactical"):
    a = aec_env(encoder=encoder)
    a.reset(seed=0)
    for _ in range(3):
        a.step(int(np.flatnonzero(a.observe(a.agent_selection)["action_mask"])[0]))
"""

# what the recording subprocess runs before PLAN_SCRIPT: numba's dispatchers instrumented to list
# the units (functions compiled from Python, or separately compiled) in the order they finish, with
# the CPU seconds each took itself (less the units compiled inside it: on a cold cache its compile
# time, the ranks' weight; on a warm one a load's)
_RECORD = r"""
import atexit, json, os, time
os.environ["NECRO_WARMUP_JOBS"] = "1"  # no warm-up on the first game: the script's own compiles are recorded
from numba.core import sigutils
from necro_env.core import jit, separate
from necro_env import warmup
assert jit.FAST, "the plan is the fast machinery's"
_orig, _rows, _index, _stack = jit.OneVersionDispatcher.compile, [], {}, []
def _compile(self, sig):
    args = tuple(sigutils.normalize_signature(sig)[0])
    key = (self.py_func.__module__, self.py_func.__qualname__, repr(args))
    unit = not _stack or self._necro_is_separate or key in _index
    parent = next((f for f in reversed(_stack) if f[1]), None)  # the nearest unit being compiled
    _stack.append([key, unit, 0.0])  # the third: seconds of the units compiled inside this one
    t0 = time.process_time()
    try:
        out = _orig(self, sig)
    finally:
        inner = _stack.pop()[2]
    spent = time.process_time() - t0
    if unit and parent is not None:
        parent[2] += spent
    if unit:
        if key not in _index:
            _index[key] = len(_rows)
            row = warmup.plan_row(self.py_func.__module__, self.py_func.__qualname__, args)
            row["cost"] = round(spent - inner, 2)
            # the separate functions its machine code calls, directly or through linked helpers (what
            # its cache manifest lists, core.separate), transitively closed: the same on a cold cache
            # as on a warm one (where nesting alone would miss a helper compiled before, for another)
            lib = self.overloads[args].library
            direct = {_index[(m, q, repr(a))] for m, q, a, _ in getattr(lib, separate._DEPS, None) or ()
                      if (m, q, repr(a)) in _index}
            row["deps"] = sorted(direct.union(*(_rows[d]["deps"] for d in direct)))
            row["python"] = False
            _rows.append(row)
        if not _stack:  # called from Python: the warm-up also makes its CPython entry (core.pywrap)
            _rows[_index[key]]["python"] = True
    return out
jit.OneVersionDispatcher.compile = _compile
atexit.register(lambda: open({path!r}, "w").write(json.dumps(_rows)))
"""


class PlanError(ValueError):
    """The plan file is missing, corrupt or names something the code does not have."""


# ---------------------------------------------------------------------------- argument types
def encode_type(t):
    """A numba argument type as JSON-able data: scalars by name, arrays, (named) tuples of them."""
    from numba.core import types

    if isinstance(t, types.Array):
        return {"array": encode_type(t.dtype), "ndim": t.ndim, "layout": t.layout, "readonly": not t.mutable}
    if isinstance(t, (types.Integer, types.Float, types.Boolean)):
        return str(t)
    if isinstance(t, (types.NamedTuple, types.NamedUniTuple)):
        cls = t.instance_class
        return {"namedtuple": f"{cls.__module__}:{cls.__qualname__}", "fields": [encode_type(x) for x in t.types]}
    if isinstance(t, (types.Tuple, types.UniTuple)):
        return {"tuple": [encode_type(x) for x in t.types]}
    raise PlanError(f"argument type {t} ({type(t).__name__}) has no plan encoding; "
                    "extend necro_env.warmup.encode_type / decode_type")


def decode_type(d):
    """The numba type :func:`encode_type` wrote."""
    import numpy as np
    from numba.core import types
    from numba.np.numpy_support import from_dtype

    if isinstance(d, str):
        return from_dtype(np.dtype(d))
    if "array" in d:
        return types.Array(decode_type(d["array"]), d["ndim"], d["layout"], readonly=d["readonly"])
    if "namedtuple" in d:
        module, qualname = d["namedtuple"].split(":")
        from .core.separate import resolve as named

        cls = named(module, qualname)
        fields = [decode_type(x) for x in d["fields"]]
        if fields and all(f == fields[0] for f in fields):
            return types.NamedUniTuple(fields[0], len(fields), cls)
        return types.NamedTuple(fields, cls)
    if "tuple" in d:
        return types.BaseTuple.from_types([decode_type(x) for x in d["tuple"]])
    raise PlanError(f"unknown type entry {d!r}")


def plan_row(module: str, qualname: str, args) -> dict:
    """One unit of the plan; refuses types whose encoding would not give them back."""
    enc = [encode_type(a) for a in args]
    if tuple(decode_type(e) for e in enc) != tuple(args):
        raise PlanError(f"{module}.{qualname}{tuple(args)}: the plan encoding does not round-trip")
    return {"module": module, "function": qualname, "args": enc}


# ---------------------------------------------------------------------------- the plan
def record(script: str = PLAN_SCRIPT, env: dict | None = None, cwd=None, cold: bool = False) -> list[dict]:
    """Run ``script`` in a subprocess with numba's dispatchers instrumented; the units it compiled
    or loaded, callees first, each with its own CPU seconds (``cost``). With a warm cache it takes
    seconds and compiles nothing (the costs are then load times); ``cold``: on an empty temporary
    cache, so that the costs are compile times (what ``--record`` writes; minutes)."""
    import tempfile

    from . import _numba_cache

    if not _numba_cache.fast_machinery():
        raise PlanError("the compile plan is recorded with the fast compile machinery (core.jit); this process "
                        f"uses plain numba (unset {_numba_cache.STOCK_VAR}, or install {_numba_cache.tested_range()})")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "plan.json"
        if cold:
            env = dict(os.environ if env is None else env, NUMBA_CACHE_DIR=str(Path(tmp) / "cache"))
        r = subprocess.run([sys.executable, "-c", _RECORD.replace("{path!r}", repr(str(out))) + script],
                           env=env, cwd=cwd, capture_output=True, text=True, check=False)
        if r.returncode != 0:
            raise RuntimeError(f"recording the compile plan failed:\n{r.stderr[-3000:]}")
        return json.loads(out.read_text())


def write_plan(rows: list[dict], path: Path = PLAN_PATH) -> None:
    """Write the units with each distinct argument type once (``types``; a unit's ``args`` index it)."""
    import numba

    table, index = [], {}
    units = []
    for u in rows:
        ids = []
        for a in u["args"]:
            key = json.dumps(a, sort_keys=True)
            if key not in index:
                index[key] = len(table)
                table.append(a)
            ids.append(index[key])
        units.append({"module": u["module"], "function": u["function"], "args": ids, "deps": u.get("deps", []),
                      **({"python": True} if u.get("python") else {}),
                      **({"cost": round(u["cost"], 1)} if u.get("cost") is not None else {})})
    head = {"format": PLAN_FORMAT, "recorded_with_numba": numba.__version__}
    lines = [json.dumps(head)[:-1] + ',\n"types": [']  # one line per type and per unit, for readable diffs
    lines += [json.dumps(t) + "," for t in table]
    lines[-1] = lines[-1][:-1]
    lines += ['],\n"units": [']
    lines += [json.dumps(u) + "," for u in units]
    lines[-1] = lines[-1][:-1]
    lines += ["]}"]
    path.write_text("\n".join(lines) + "\n")


def read_plan(path: Path = PLAN_PATH) -> list[dict]:
    """The plan's units; :class:`PlanError` naming the file and what is wrong."""
    try:
        doc = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise PlanError(f"{path}: cannot read the compile plan ({e})") from None
    if not (isinstance(doc, dict) and doc.get("format") == PLAN_FORMAT and isinstance(doc.get("units"), list)
            and isinstance(doc.get("types"), list)):
        raise PlanError(f"{path}: not a compile plan of format {PLAN_FORMAT}")
    table, units = doc["types"], []
    for i, u in enumerate(doc["units"]):
        if not (isinstance(u, dict) and {"module", "function", "args", "deps"} <= set(u)
                and isinstance(u["args"], list) and all(isinstance(a, int) and 0 <= a < len(table) for a in u["args"])
                and isinstance(u["deps"], list) and all(isinstance(d, int) and 0 <= d < i for d in u["deps"])):
            raise PlanError(f"{path}: unit {i} is not module / function / args (indices into types) / deps "
                            f"(indices of earlier units): {u!r}")
        if not isinstance(u.get("python", False), bool):
            raise PlanError(f"{path}: unit {i}'s python flag is not true or false: {u!r}")
        cost = u.get("cost")
        if cost is not None and not (isinstance(cost, (int, float)) and not isinstance(cost, bool) and cost >= 0):
            raise PlanError(f"{path}: unit {i}'s cost is not a number of seconds >= 0: {u!r}")
        units.append({"module": u["module"], "function": u["function"], "args": [table[a] for a in u["args"]],
                      "deps": u["deps"], "python": u.get("python", False), "cost": cost})
    return units


def ranks(units: list[dict]) -> list[float]:
    """Each unit's rank for :func:`share`: its compile seconds plus the longest chain of compile
    seconds of the units that wait for it, the unit itself included (a unit's ``cost``, as the
    recording measured it; a unit without one counts as the mean of the others). The processes take
    the ready unit of highest rank, so the longest chain starts first and the other processes fill in
    around it. Measured against the plan's own order (callees first, as recorded: the scripts' long
    unit came last), on two processes: docs/performance.md, "Compile time"."""
    known = [u["cost"] for u in units if u.get("cost") is not None]
    default = sum(known) / len(known) if known else 1.0
    users = [[] for _ in units]
    for i, u in enumerate(units):
        for d in u["deps"]:
            users[d].append(i)
    rank = [0.0] * len(units)
    for i in reversed(range(len(units))):  # deps come before their users: users are ranked first
        cost = units[i].get("cost")
        rank[i] = (default if cost is None else cost) + max((rank[j] for j in users[i]), default=0.0)
    return rank


def resolve(units: list[dict]) -> list[tuple]:
    """(dispatcher, argument types, deps, called from Python) of every unit; :class:`PlanError` for
    one the code lacks."""
    from .core.separate import resolve as named

    out = []
    for u in units:
        try:
            disp = named(u["module"], u["function"])
            args = tuple(decode_type(a) for a in u["args"])
        except (ImportError, AttributeError, KeyError, TypeError, ValueError) as e:
            raise PlanError(f"compile plan unit {u['module']}.{u['function']}: {e}") from None
        if not hasattr(disp, "compile"):
            raise PlanError(f"compile plan unit {u['module']}.{u['function']} is not a compiled function")
        out.append((disp, args, u["deps"], u["python"]))
    return out


def _cached(disp) -> bool:
    from .core.compile_lock import index_path

    path = index_path(disp)
    return path is not None and os.path.exists(path)


def missing(units) -> int:
    """How many of the resolved ``units`` have no cache entry yet."""
    return sum(not _cached(d) for d, *_ in units)


def cpu_jobs() -> int:
    """The warm-up's processes without ``NECRO_WARMUP_JOBS``: the usable CPUs, at most 4."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:
        cpus = os.cpu_count() or 1
    return max(1, min(4, cpus))


def default_jobs() -> int:
    """``NECRO_WARMUP_JOBS`` (ValueError naming it when it is not an integer), else :func:`cpu_jobs`."""
    raw = os.environ.get("NECRO_WARMUP_JOBS")
    if raw is not None:
        try:
            return max(1, int(raw))
        except ValueError:
            raise ValueError(f"NECRO_WARMUP_JOBS must be an integer, got {raw!r}") from None
    return cpu_jobs()


def share(units, claims: Path, alive=lambda: True, poll: float = 0.02, parallel: bool = True,
          rank=None) -> int:
    """This process's share of the plan: claim (an exclusive file in ``claims``) and compile the
    unit of highest ``rank`` (:func:`ranks`; default: the first) not yet claimed whose deps are all
    done, until every unit is claimed; units already cached count as done. Returns the number this
    process compiled. Stops early when ``alive()`` turns false (the other processes' state, checked
    while waiting). ``parallel=False``: leave the ``parallel=True`` kernels to the others (see
    :func:`ensure`)."""
    n, mine = len(units), 0
    order = sorted(range(n), key=lambda i: (-rank[i], i)) if rank is not None else range(n)
    done = [_cached(d) for d, *_ in units]
    claimed = list(done)
    mine_to_take = [parallel or not d.targetoptions.get("parallel") for d, *_ in units]
    while not all(c or not m for c, m in zip(claimed, mine_to_take)):
        for i in range(n):
            if not claimed[i] and os.path.exists(claims / f"{i}.claim"):
                claimed[i] = True
            if not done[i] and os.path.exists(claims / f"{i}.done"):
                done[i] = True
        ready = [i for i in order if mine_to_take[i] and not claimed[i] and all(done[j] for j in units[i][2])]
        took = False
        for i in ready:
            try:
                os.close(os.open(claims / f"{i}.claim", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                claimed[i] = True
                continue
            claimed[i] = took = True
            disp, args, _, python = units[i]
            if python:
                disp.python_entry(args)  # and its CPython entry (core.pywrap)
            else:
                disp.compile(args)
            (claims / f"{i}.done").touch()
            done[i] = True
            mine += 1
            break  # rescan: what this one finished may have made an earlier unit ready
        if not took:
            if not alive():
                break
            time.sleep(poll)
    return mine


def ensure(jobs: int | None = None, path: Path = PLAN_PATH, quiet: bool = False) -> dict:
    """Compile the plan with ``jobs`` processes when a unit of it has no cache entry (module
    docstring). Returns what was done: the plan's ``units``, how many were ``missing`` from the
    cache, ``jobs``, ``seconds``, and when it compiled, ``compiled_here`` and
    ``compiled_by_helpers``. An unreadable or outdated plan, or a helper that dies, does not fail
    the run: numba compiles what is left on first use as usual (a warning says why). With plain
    numba (``stock``: True) there is no warm-up (module docstring)."""
    import warnings

    import numba

    from . import _numba_cache

    t0 = time.perf_counter()
    info = {"units": 0, "missing": 0, "jobs": 0, "seconds": 0.0}
    if numba.config.DISABLE_JIT:
        return info
    if not _numba_cache.fast_machinery():
        info["stock"] = True
        return info
    try:
        rows = read_plan(path)
        units = resolve(rows)
    except PlanError as e:
        warnings.warn(f"necro_env.warmup: {e}; compiling on first use instead", stacklevel=2)
        return info
    info["units"], info["missing"] = len(units), missing(units)
    if info["missing"] == 0:
        return info
    try:
        jobs = min(default_jobs() if jobs is None else max(1, int(jobs)), info["missing"])
    except ValueError as e:  # a bad NECRO_WARMUP_JOBS: said, and the run goes on without the warm-up
        warnings.warn(f"necro_env.warmup: {e}; compiling on first use instead", stacklevel=2)
        return info
    if jobs < 2:  # one process: nothing to share; numba compiles on first use what the run needs
        return info
    info["jobs"] = jobs
    if not quiet:
        print(f"necro_env.warmup: compiling {info['missing']} of {len(units)} units with {jobs} processes "
              "(minutes on a cold cache)", file=sys.stderr, flush=True)
    import shutil
    import tempfile

    claims = Path(tempfile.mkdtemp(prefix="necro_warmup_"))
    helpers = [subprocess.Popen([sys.executable, "-m", "necro_env.warmup", "--helper", str(claims), "--plan", str(path)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(1, jobs)]
    ok = False
    try:
        # this process compiles its share but no parallel kernel and loads nothing more: compiling
        # or loading one starts numba's OpenMP threads, which made torch's training 1.6-2x slower in
        # a process that never ran them (docs/performance.md); a run loads what it uses later
        info["compiled_here"] = share(units, claims, alive=lambda: all(h.poll() is None for h in helpers),
                                      parallel=False, rank=ranks(rows))
        ok = True
    finally:
        info["compiled_by_helpers"] = []
        for h in helpers:
            if not ok:  # this process failed or was interrupted: the helpers would wait for its units
                h.kill()
            out, err = h.communicate()
            if ok and h.returncode != 0:  # what it left compiles on first use
                warnings.warn(f"necro_env.warmup: a helper process failed ({h.returncode}):\n{err.decode()[-1500:]}",
                              stacklevel=2)
            elif ok:
                info["compiled_by_helpers"].append(int(out.split()[-1]))
        shutil.rmtree(claims, ignore_errors=True)
    info["seconds"] = round(time.perf_counter() - t0, 2)
    return info


_first_game = True


def on_first_game() -> None:
    """:func:`ensure`, the first time this process builds a game (``Game.__init__`` calls it): any use
    of the library, an env made in a notebook as much as the commands, compiles a cold cache on every
    core; later calls return at once. ``NECRO_WARMUP_JOBS=1`` turns it off (numba then compiles on
    first use, one function after another)."""
    global _first_game
    if _first_game:
        _first_game = False
        ensure()


def main(argv=None):
    ap = argparse.ArgumentParser(prog="necro-warmup", description="Compile the rules core on several processes at "
                                 "once when the numba cache is cold (a few file checks when it is warm).")
    ap.add_argument("--jobs", type=int, default=None, help="processes in all (default: NECRO_WARMUP_JOBS or the CPUs, at most 4)")
    ap.add_argument("--record", action="store_true", help=f"re-record the plan into {PLAN_PATH.name} (developers)")
    ap.add_argument("--plan", default=str(PLAN_PATH), help=argparse.SUPPRESS)
    ap.add_argument("--helper", default=None, help=argparse.SUPPRESS)  # internal: a helper sharing this claims folder
    args = ap.parse_args(argv)
    from . import _numba_cache

    try:
        _numba_cache.stock_reason()  # a bad NECRO_STOCK_NUMBA: said before anything is compiled
    except ValueError as e:
        raise SystemExit(f"necro-warmup: {e}") from None
    if args.helper is not None:
        parent = os.getppid()
        rows = read_plan(Path(args.plan))
        n = share(resolve(rows), Path(args.helper), alive=lambda: os.getppid() == parent, rank=ranks(rows))
        print(n, flush=True)
        return 0
    if args.record:
        try:
            rows = record(cold=True)
        except PlanError as e:
            raise SystemExit(f"necro-warmup: {e}") from None
        write_plan(rows, Path(args.plan))
        seconds = sum(r["cost"] for r in rows)
        print(f"recorded {len(rows)} units into {args.plan} ({seconds:.0f} s of compile in one process)")
        return 0
    if args.jobs is not None and args.jobs < 1:
        raise SystemExit(f"necro-warmup: --jobs must be at least 1, got {args.jobs}")
    if args.jobs is None:
        try:
            default_jobs()
        except ValueError as e:
            raise SystemExit(f"necro-warmup: {e}") from None
    try:
        read_plan(Path(args.plan))
    except PlanError as e:
        raise SystemExit(f"necro-warmup: {e}") from None
    info = ensure(args.jobs, Path(args.plan))
    if info.get("stock"):
        print("necro-warmup: plain numba (the warning above says why): no warm-up, numba compiles on first use")
        return 0
    if info["missing"] == 0:
        state = "already cached"
    elif info["jobs"] == 0:  # one process: nothing shared, numba compiles on first use
        state = f"{info['missing']} not cached, left to the first use (one process)"
    else:
        state = f"{info['missing']} compiled with {info['jobs']} processes"
    print(f"necro-warmup: {info['units']} units, {state}, {info['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
