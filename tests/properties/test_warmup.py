"""necro_env.warmup: the shipped compile plan is the code's, and processes compiling it fill a cold cache.

- the plan in ``necro_env/compile_plan.json`` equals a fresh recording of ``PLAN_SCRIPT`` (units,
  order and argument types): a change of the compiled functions' names or types must re-record it;
  every unit carries the compile seconds a cold recording measured;
- its argument types round-trip through the JSON encoding;
- the processes take the ready unit with the longest chain of compile seconds behind it first
  (``ranks``), not the plan's first;
- with plain numba (``core.jit``'s fallback) there is no warm-up and no recording;
- on a small module: the recording lists the units callees first, with the units each calls; a
  helper compiles the units no other process has claimed; ``necro-warmup --jobs 2`` on an empty cache compiles every unit (a script then
  loads each from the cache), and a second run finds them all cached;
- a corrupt plan is refused with a message naming the file (the command) or skipped with a warning
  (``ensure`` inside a run, which then compiles on first use as before);
- the first game a process builds runs the warm-up, later ones do not; the plan's recording turns
  that off.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from necro_env import warmup

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiled code only")

ROOT = Path(__file__).resolve().parents[2]

MODULE = '''
from necro_env.core.jit import njit

@njit(cache=True, separate=True)
def base(x, k):
    s = 0
    for i in range(k):
        s += x * i
    return s

@njit(cache=True, separate=True)
def mid(x):
    return base(x, 4)

@njit(cache=True)
def uses_base(x):
    return mid(x) + 1

@njit(cache=True)
def scale(a, f):
    return a.sum() * f

@njit(cache=True)
def pair(t):
    return t[0] + t[1]
'''

SCRIPT = '''
import numpy as np
import wmod
print(wmod.uses_base(3), wmod.scale(np.arange(4, dtype=np.int16), 0.5), wmod.pair((np.int64(2), np.int64(5))))
print(sum(sum(f.stats.cache_hits.values()) for f in (wmod.base, wmod.mid, wmod.uses_base, wmod.scale, wmod.pair)),
      sum(sum(f.stats.cache_misses.values()) for f in (wmod.base, wmod.mid, wmod.uses_base, wmod.scale, wmod.pair)))
'''


def _structure(rows):
    """A plan's units without their measured seconds (which differ from one recording to the next)."""
    return [{k: v for k, v in r.items() if k != "cost"} for r in rows]


def _index_files(cache_dir: Path) -> set[str]:
    return {p.name.split("-")[0].split(".")[-1] for p in cache_dir.rglob("*.nbi")}  # wmod.scale-20.py311.nbi


def test_the_shipped_plan_is_a_fresh_recording_of_the_plan_script():
    shipped = warmup.read_plan()
    fresh = warmup.record()
    assert [(u["module"], u["function"]) for u in fresh] == [(u["module"], u["function"]) for u in shipped], \
        "the compile plan is outdated: run `python -m necro_env.warmup --record`"
    assert _structure(fresh) == _structure(shipped), "argument types changed: run `python -m necro_env.warmup --record`"
    assert len(shipped) > 50  # the engine, the batch kernel and the encoders
    # timed on a cold cache (--record): the scripts' long unit weighs as it compiles
    costs = {u["function"]: u["cost"] for u in shipped}
    assert all(c is not None and c >= 0 for c in costs.values())
    assert costs["heuristic_action"] > 5 * sorted(costs.values())[len(costs) // 2]


def test_the_plan_types_round_trip_and_resolve():
    units = warmup.read_plan()
    resolved = warmup.resolve(units)
    for u, (disp, args, deps, python) in zip(units, resolved):
        assert [warmup.encode_type(a) for a in args] == u["args"]
        assert disp.py_func.__qualname__ == u["function"] and deps == u["deps"] and python == u["python"]
    # what the env calls from Python is flagged, so that the warm-up makes its CPython entry
    flagged = {u["function"] for u in units if u["python"]}
    assert {"step", "reset_game", "run_batch", "encode_all"} <= flagged and "action_mask" not in flagged


def test_recording_a_helper_slice_and_a_two_process_warm_up_on_a_cold_cache(tmp_path, cache_env):
    (tmp_path / "wmod.py").write_text(MODULE)
    rows = warmup.record(SCRIPT, env=cache_env("c0"), cwd=tmp_path)
    # the units in the order they finished: base and mid (separate) before their callers; scale
    # with int16 arrays; the units each calls, transitively
    assert [r["function"] for r in rows] == ["base", "mid", "uses_base", "scale", "pair"]
    assert [r["deps"] for r in rows] == [[], [0], [0, 1], [], []]
    assert [r["python"] for r in rows] == [False, False, True, True, True]  # called by the script itself
    assert rows[3]["args"] == [{"array": "int16", "ndim": 1, "layout": "C", "readonly": False}, "float64"]
    assert rows[4]["args"] == [{"tuple": ["int64", "int64"]}]
    assert all(r["cost"] >= 0 for r in rows)  # each unit's own compile seconds
    # recorded again on the cache the first recording filled (numba now loads, with the callees
    # named by the cache's manifests instead of compiled): the same plan
    assert _structure(warmup.record(SCRIPT, env=cache_env("c0"), cwd=tmp_path)) == _structure(rows)
    plan = tmp_path / "plan.json"
    warmup.write_plan(rows, plan)
    assert _structure(warmup.read_plan(plan)) == _structure(rows)
    assert [u["cost"] for u in warmup.read_plan(plan)] == [round(r["cost"], 1) for r in rows]

    # a helper takes the units no other process has claimed (units 0-2 are claimed and done here)
    env = cache_env("c1")
    claims = tmp_path / "claims"
    claims.mkdir()
    for i in (0, 1, 2):
        (claims / f"{i}.claim").touch()
        (claims / f"{i}.done").touch()
    cmd = [sys.executable, "-m", "necro_env.warmup", "--plan", str(plan)]
    r = subprocess.run(cmd + ["--helper", str(claims)], env=env, cwd=tmp_path, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["2"]
    assert _index_files(tmp_path / "c1") == {"scale", "pair"}
    assert sorted(p.name for p in claims.iterdir()) == sorted(f"{i}.{k}" for i in range(5) for k in ("claim", "done"))

    env = cache_env("c2")
    r = subprocess.run(cmd + ["--jobs", "2"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "5 compiled with 2 processes" in r.stdout
    assert _index_files(tmp_path / "c2") == {"base", "mid", "uses_base", "scale", "pair"}
    # and the CPython entries of the units the script calls (core.pywrap's sidecars)
    assert {p.name.split("-")[0].split(".")[-1] for p in (tmp_path / "c2").rglob("*.pyw")} == \
        {"uses_base", "scale", "pair"}
    r = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=tmp_path, capture_output=True, text=True,
                       timeout=600, check=True)
    first, counts = r.stdout.strip().splitlines()
    assert first.split() == ["19", "3.0", "7"]
    assert counts.split() == ["5", "0"]  # every unit loaded from the warm-up's cache, none compiled
    r = subprocess.run(cmd, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600, check=True)
    assert "5 units, already cached" in r.stdout


SHARED = '''
from necro_env.core.jit import njit

@njit(cache=True, separate=True)
def base(x, k):
    return x * k

@njit(cache=True, separate=False)
def helper(x):  # linked into both units below; calls a separate function
    return base(x, 2) + 1

@njit(cache=True)
def first(x):
    return helper(x) + 1

@njit(cache=True)
def second(x):
    return helper(x) * 2
'''


def test_a_cold_recording_lists_the_separate_callees_of_shared_helpers(tmp_path, cache_env):
    # ``second`` reaches ``base`` through ``helper``, which ``first`` had already compiled: its
    # deps come from what its code calls (its cache manifest), not from what compiled inside it
    (tmp_path / "smod.py").write_text(SHARED)
    script = "import smod\nprint(smod.first(3), smod.second(3))\n"
    cold = warmup.record(script, env=cache_env("s"), cwd=tmp_path)
    assert [(r["function"], r["deps"]) for r in cold] == [("base", []), ("first", [0]), ("second", [0])]
    assert _structure(warmup.record(script, env=cache_env("s"), cwd=tmp_path)) == _structure(cold)


def test_a_corrupt_plan_is_refused_by_the_command_and_skipped_by_runs(tmp_path):
    bad = tmp_path / "plan.json"
    bad.write_text('{"format": 1, "types": [], "units": [{"module": "x"}]}')
    r = subprocess.run([sys.executable, "-m", "necro_env.warmup", "--plan", str(bad)], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode != 0
    assert str(bad) in r.stderr and "unit 0" in r.stderr and "Traceback" not in r.stderr
    with pytest.warns(UserWarning, match="compiling on first use"):
        assert warmup.ensure(path=bad)["units"] == 0
    bad.write_text("not json")
    with pytest.raises(warmup.PlanError, match="cannot read the compile plan"):
        warmup.read_plan(bad)
    missing = tmp_path / "missing.json"
    warmup.write_plan([{"module": "necro_env.core.rng", "function": "no_such_function", "args": ["int64"]}], missing)
    with pytest.raises(warmup.PlanError, match="necro_env.core.rng.no_such_function"):
        warmup.resolve(warmup.read_plan(missing))


def test_unsupported_argument_types_are_named():
    from numba.core import types

    with pytest.raises(warmup.PlanError, match="no plan encoding"):
        warmup.encode_type(types.unicode_type)


def test_the_jobs_variable_is_checked(monkeypatch):
    monkeypatch.setenv("NECRO_WARMUP_JOBS", "3")
    assert warmup.default_jobs() == 3
    monkeypatch.setenv("NECRO_WARMUP_JOBS", "two")
    with pytest.raises(ValueError, match="NECRO_WARMUP_JOBS must be an integer, got 'two'"):
        warmup.default_jobs()
    # a run is not stopped by it (the first game of every process runs ensure): said, no warm-up
    monkeypatch.setattr(warmup, "missing", lambda units: 1)  # as on a cold cache
    with pytest.warns(UserWarning, match="NECRO_WARMUP_JOBS must be an integer, got 'two'; compiling on first use"):
        assert warmup.ensure()["jobs"] == 0
    # the command refuses it with a message, not a traceback
    r = subprocess.run([sys.executable, "-m", "necro_env.warmup"], cwd=ROOT, capture_output=True, text=True,
                       timeout=120, env=dict(os.environ, NECRO_WARMUP_JOBS="two"))
    assert r.returncode != 0 and "NECRO_WARMUP_JOBS must be an integer, got 'two'" in r.stderr
    assert "Traceback" not in r.stderr
    assert json.loads(warmup.PLAN_PATH.read_text())["format"] == warmup.PLAN_FORMAT


def test_the_first_game_of_a_process_runs_the_warm_up_once(monkeypatch):
    from necro_env.envs.necromunda_env import build_game

    calls = []
    monkeypatch.setattr(warmup, "ensure", lambda *a, **k: calls.append(a) or {})
    monkeypatch.setattr(warmup, "_first_game", True)  # as in a new process
    build_game()
    assert calls == [()]
    build_game()  # later games: nothing more
    assert calls == [()]


def test_recording_turns_the_first_games_warm_up_off():
    # the recording subprocess must see the plan script's own compiles, not a warm-up's
    assert 'os.environ["NECRO_WARMUP_JOBS"] = "1"' in warmup._RECORD
    assert warmup._RECORD.index("NECRO_WARMUP_JOBS") < warmup._RECORD.index("from necro_env")


class _Unit:
    """A plan unit's dispatcher for ``share``: records the order it is compiled in."""

    targetoptions = {}

    def __init__(self, name, log):
        self.name, self.log = name, log

    def compile(self, args):
        self.log.append(self.name)


def test_the_unit_with_the_longest_chain_behind_it_goes_first(tmp_path):
    # 0 and 2 are ready at once; 2 is long (the scripts' heuristic_action), 3 waits for both
    rows = [{"deps": [], "cost": 1.0}, {"deps": [0], "cost": 1.0}, {"deps": [], "cost": 10.0},
            {"deps": [0, 2], "cost": 1.0}]
    assert warmup.ranks(rows) == [2.0, 1.0, 11.0, 1.0]
    # a unit without a recorded cost weighs as the mean of the others
    assert warmup.ranks([{"deps": [], "cost": None}, {"deps": [0], "cost": 4.0}, {"deps": [], "cost": 2.0}]) == \
        [7.0, 4.0, 2.0]
    for rank, want in ((warmup.ranks(rows), ["2", "0", "1", "3"]), (None, ["0", "1", "2", "3"])):
        log = []
        units = [(_Unit(str(i), log), (), r["deps"], False) for i, r in enumerate(rows)]
        claims = tmp_path / ("ranked" if rank else "in_order")
        claims.mkdir()
        assert warmup.share(units, claims, rank=rank) == 4
        assert log == want


def test_plain_numba_has_no_warm_up_and_no_recording(monkeypatch):
    from necro_env import _numba_cache

    monkeypatch.setattr(_numba_cache, "_FAST", False)  # as after an untested numba or NECRO_STOCK_NUMBA=1
    monkeypatch.setattr(warmup, "missing", lambda units: 1)  # as on a cold cache
    assert warmup.ensure(jobs=2) == {"units": 0, "missing": 0, "jobs": 0, "seconds": 0.0, "stock": True}
    with pytest.raises(warmup.PlanError, match="recorded with the fast compile machinery"):
        warmup.record()
