"""The numba versions the compile machinery runs on, and the plain-numba fallback elsewhere.

- pyproject.toml pins numba and llvmlite to exactly the tested range of ``_numba_cache.TESTED``,
  and the installed versions are inside it (so this suite runs the fast machinery);
- a version outside the range, or ``NECRO_STOCK_NUMBA=1``, means plain numba, with the reason;
  any other value of the variable is refused with a message naming it;
- with the fallback forced, in a fresh process with its own empty cache: one warning naming the
  installed versions and the tested range, none of the machinery's modules imported, every project
  function numba's own dispatcher, numba's classes untouched, the cache under ``stock/``, no
  warm-up; and it plays the same games bit for bit as this process does with the machinery: 20
  random games of the default scenario, one of House Legacy and one on a generated board, the
  state hashed after every decision.

The fallback's structure is checked in every run (a fresh process that compiles next to nothing);
the games need plain numba to compile the whole engine from scratch, which takes longer than the
rest of the suite (docs/performance.md, "numba versions and the fallback"), so that comparison is a
``slow`` test: ``python -m pytest -m slow tests/properties/test_numba_fallback.py``.
"""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from necro_env import _numba_cache

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiled code only")

ROOT = Path(__file__).resolve().parents[2]

GAMES = r'''
import hashlib
import numpy as np
from necro_env.envs.necromunda_env import build_game

def play():
    """The sha1 of every state (and mask) after every decision of the fixed games."""
    games = [(build_game(), seed) for seed in range(20)]
    games += [(build_game(variant="house_legacy"), 100), (build_game(board="generate:sector:7"), 200)]
    out = []
    for g, seed in games:
        g.reset(seed)
        rng = np.random.default_rng(seed)
        hashes = []
        while not g.done:
            g.step(int(rng.choice(g.legal_actions())))
            h = hashlib.sha1(g.mask.tobytes())
            for a in g.state:
                h.update(a.tobytes())
            hashes.append(h.hexdigest())
        out.append(hashes)
    return out
'''

STOCK = r'''
import json, sys, time, warnings
t0 = time.perf_counter()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    from necro_env.core import jit  # the compiler is chosen once, here
    from necro_env.rulesets.necromunda import engine
    from necro_env import warmup
    from numba.core import codegen, dispatcher, registry
said = [f"{w.category.__name__}: {w.message}" for w in caught]
''' + GAMES + r'''
machinery = sorted(m for m in sys.modules if m.split(".")[-1] in
                   ("separate", "lazy_code", "lazy_link", "pywrap", "borrowed_args", "compile_lock"))
def _fn(v):
    v = v.__func__ if isinstance(v, (classmethod, staticmethod)) else v
    return v.fget if isinstance(v, property) else v
def _ours(v):
    return callable(_fn(v)) and not (getattr(_fn(v), "__module__", None) or "numba.").startswith(("numba.", "llvmlite."))
foreign = [(c.__name__, n) for c in (codegen.CPUCodeLibrary, codegen.JITCodeLibrary, codegen.JITCPUCodegen,
                                     dispatcher.Dispatcher, registry.CPUDispatcher)
           for n, v in vars(c).items() if _ours(v)]
from necro_env.core.bytemask import count_true, nth_true
rng = np.random.default_rng(1)
rows = [rng.random(n) < 0.05 for n in (7, 8, 77, 4000)]
bytemask_ok = all(count_true(r) == np.count_nonzero(r) and
                  [nth_true(r, k) for k in range(-1, count_true(r) + 1)] ==
                  [-1] + np.flatnonzero(r).tolist() + [-1] for r in rows)
hashes = play() if "--play" in sys.argv else None
print(json.dumps({"warnings": said, "machinery": machinery, "foreign": foreign, "bytemask_ok": bytemask_ok,
                  "step": type(engine.step).__name__, "cache": engine.step._cache._cache_path,
                  "warmup": warmup.ensure(), "seconds": round(time.perf_counter() - t0, 1), "hashes": hashes}))
'''


def _pins():
    text = (ROOT / "pyproject.toml").read_text()
    return {name: re.search(rf'"{name}([^"]*)"', text)[1] for name in ("numba", "llvmlite")}


def test_pyproject_pins_the_tested_range_and_it_is_installed():
    pins = _pins()
    assert ", ".join(f"{n}{p}" for n, p in pins.items()) == _numba_cache.tested_range()
    assert _numba_cache.stock_reason(environ={}) is None  # this suite runs the fast machinery
    assert _numba_cache.fast_machinery()


def test_versions_outside_the_range_or_the_variable_mean_plain_numba():
    ok = {"numba": "0.68.1", "llvmlite": "0.50.0"}
    assert _numba_cache.stock_reason({}, ok) is None
    assert _numba_cache.stock_reason({"NECRO_STOCK_NUMBA": "0"}, ok) is None
    assert _numba_cache.stock_reason({"NECRO_STOCK_NUMBA": "1"}, ok) == "NECRO_STOCK_NUMBA=1"
    assert _numba_cache.stock_reason({}, dict(ok, numba="0.69.0rc1")) == "numba 0.69.0rc1 outside the tested range"
    assert _numba_cache.stock_reason({}, {"numba": "0.67.3", "llvmlite": "0.51.1"}) == \
        "numba 0.67.3 and llvmlite 0.51.1 outside the tested range"
    assert _numba_cache.stock_reason({}, dict(ok, llvmlite="dev")) == "llvmlite dev outside the tested range"
    with pytest.raises(ValueError, match=r"^NECRO_STOCK_NUMBA must be 0 or 1 \(or unset\), got 'yes'$"):
        _numba_cache.stock_reason({"NECRO_STOCK_NUMBA": "yes"}, ok)


def _fallback_run(tmp_path, *args, timeout):
    """The STOCK script in a fresh process with the fallback forced and an empty cache of its own."""
    env = dict(os.environ, NECRO_STOCK_NUMBA="1", XDG_CACHE_HOME=str(tmp_path / "xdg"), PYTHONPATH=str(ROOT))
    env.pop("NUMBA_CACHE_DIR", None)  # the fallback's own folders, from scratch
    r = subprocess.run([sys.executable, "-c", STOCK, *args], env=env, cwd=ROOT, capture_output=True, text=True,
                       timeout=timeout)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_the_fallback_is_plain_numba_with_one_warning_and_a_cache_of_its_own(tmp_path):
    out = _fallback_run(tmp_path, timeout=900)
    (said,) = out["warnings"]
    v = _numba_cache.installed_versions()
    assert said.startswith("StockNumbaWarning: necro_env: NECRO_STOCK_NUMBA=1 (")
    assert f"numba {v['numba']}, llvmlite {v['llvmlite']}" in said and _numba_cache.tested_range() in said
    assert out["machinery"] == [] and out["foreign"] == [] and out["bytemask_ok"]
    assert out["step"] == "CPUDispatcher"
    assert out["cache"].startswith(str(tmp_path / "xdg" / "necro_env" / "numba" / "stock") + os.sep)
    assert out["warmup"].get("stock") is True
    assert out["hashes"] is None


@pytest.mark.slow
def test_the_fallback_plays_the_same_games_bit_for_bit(tmp_path):
    out = _fallback_run(tmp_path, "--play", timeout=4 * 3600)
    assert out["machinery"] == [] and out["step"] == "CPUDispatcher"
    ns = {}
    exec(GAMES, ns)  # noqa: S102 - the same games in this process, with the machinery
    mine = ns["play"]()
    assert [len(h) for h in out["hashes"]] == [len(h) for h in mine]
    assert sum(map(len, mine)) > 5000
    for k, (theirs, ours) in enumerate(zip(out["hashes"], mine)):
        first = next((i for i, (a, b) in enumerate(zip(theirs, ours)) if a != b), None)
        assert first is None, f"game {k}: the fallback's state differs after decision {first}"
    print(f"fallback compile and play: {out['seconds']} s")
