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
  processes each take the first unit nobody has claimed whose callees are all compiled
  (:func:`share`; claims are files in a temporary folder), so they work on different branches of
  the call graph (this process leaves the ``parallel=True`` kernels to the helpers and loads
  nothing it did not compile: loading a batch kernel starts numba's OpenMP threads, which made
  torch's training 1.6-2x slower in a process that never ran them). When every unit has a cache
  entry it returns at once (a few file checks). Anything the plan misses compiles on first use as before.

The first game a process builds runs :func:`ensure` (:func:`on_first_game`, called by
``Game.__init__``), so every use of the library starts with it: the envs, the batched core, the
commands (which also call it first, before they build their envs or worker processes) and the test
suite's ``conftest.py``; ``necro-warmup`` runs it alone (for example while installing). ``NECRO_WARMUP_JOBS`` sets the number of processes (default: the usable CPUs,
at most 4; ``1`` or ``0`` turns the warm-up off). Measured: docs/performance.md, "Compile time".

    python -m necro_env.warmup [--jobs N]
    python -m necro_env.warmup --record   # rewrite compile_plan.json after changing the code's types
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
# the units (functions compiled from Python, or separately compiled) in the order they finish
_RECORD = r"""
import atexit, json, os
os.environ["NECRO_WARMUP_JOBS"] = "1"  # no warm-up on the first game: the script's own compiles are recorded
from numba.core import sigutils
from necro_env.core import jit
from necro_env import warmup
_orig, _rows, _index, _stack, _deps = jit.OneVersionDispatcher.compile, [], {}, [], {}
def _compile(self, sig):
    args = tuple(sigutils.normalize_signature(sig)[0])
    key = (self.py_func.__module__, self.py_func.__qualname__, repr(args))
    unit = not _stack or self._necro_is_separate or key in _index
    parent = next((k for k, u in reversed(_stack) if u), None)  # the nearest unit being compiled
    _stack.append((key, unit))
    try:
        out = _orig(self, sig)
    finally:
        _stack.pop()
    if unit:
        if key not in _index:
            _index[key] = len(_rows)
            row = warmup.plan_row(self.py_func.__module__, self.py_func.__qualname__, args)
            direct = {_index[d] for d in _deps.get(key, ()) if d in _index}
            # transitively closed, so that a cold recording (direct callees) and a warm one (the
            # cache manifests' lists) give the same plan
            row["deps"] = sorted(direct.union(*(_rows[d]["deps"] for d in direct)))
            row["python"] = False
            _rows.append(row)
        if not _stack:  # called from Python: the warm-up also makes its CPython entry (core.pywrap)
            _rows[_index[key]]["python"] = True
        if parent is not None and parent != key:
            _deps.setdefault(parent, set()).add(key)
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
def record(script: str = PLAN_SCRIPT, env: dict | None = None, cwd=None) -> list[dict]:
    """Run ``script`` in a subprocess with numba's dispatchers instrumented; the units it compiled
    or loaded, callees first (with a warm cache it takes seconds and compiles nothing)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "plan.json"
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
                      **({"python": True} if u.get("python") else {})})
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
        units.append({"module": u["module"], "function": u["function"], "args": [table[a] for a in u["args"]],
                      "deps": u["deps"], "python": u.get("python", False)})
    return units


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


def share(units, claims: Path, alive=lambda: True, poll: float = 0.02, parallel: bool = True) -> int:
    """This process's share of the plan: claim (an exclusive file in ``claims``) and compile the
    first unit not yet claimed whose deps are all done, until every unit is claimed; units already
    cached count as done. Returns the number this process compiled. Stops early when ``alive()``
    turns false (the other processes' state, checked while waiting). ``parallel=False``: leave the
    ``parallel=True`` kernels to the others (see :func:`ensure`)."""
    n, mine = len(units), 0
    done = [_cached(d) for d, *_ in units]
    claimed = list(done)
    mine_to_take = [parallel or not d.targetoptions.get("parallel") for d, *_ in units]
    while not all(c or not m for c, m in zip(claimed, mine_to_take)):
        for i in range(n):
            if not claimed[i] and os.path.exists(claims / f"{i}.claim"):
                claimed[i] = True
            if not done[i] and os.path.exists(claims / f"{i}.done"):
                done[i] = True
        ready = [i for i in range(n) if mine_to_take[i] and not claimed[i] and all(done[j] for j in units[i][2])]
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
    the run: numba compiles what is left on first use as usual (a warning says why)."""
    import warnings

    import numba

    t0 = time.perf_counter()
    info = {"units": 0, "missing": 0, "jobs": 0, "seconds": 0.0}
    if numba.config.DISABLE_JIT:
        return info
    try:
        units = resolve(read_plan(path))
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
                                      parallel=False)
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
    if args.helper is not None:
        parent = os.getppid()
        n = share(resolve(read_plan(Path(args.plan))), Path(args.helper), alive=lambda: os.getppid() == parent)
        print(n, flush=True)
        return 0
    if args.record:
        rows = record()
        write_plan(rows, Path(args.plan))
        print(f"recorded {len(rows)} units into {args.plan}")
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
