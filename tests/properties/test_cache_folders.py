"""necro_env.cache: the numba cache's folders grouped by version of the code, and pruning.

- folders are grouped by engine hash (the engine's and its leaf packages'); the running code's
  group comes first and is never pruned, other groups go from the least recently used; an older
  leaf folder of the running engine is a group of its own;
- folders whose names are not cache keys are left alone; ``--keep`` below 0 is refused;
- the cache key covers every module compiled code depends on (constants modules and the compile
  machinery included); the modules it leaves out are imported by none of those;
- each ruleset with compiled code has a folder of its own (``<name>-<hash>``) keyed by the core and
  its own files only: one game's edits never move another's folder (DESIGN.md §11).
"""
import os

import pytest

from necro_env import _numba_cache, cache


def _make(base, name, mtime, size=10):
    d = base / name
    d.mkdir(parents=True)
    (d / "f.nbi").write_bytes(b"x" * size)
    for p in (d / "f.nbi", d):
        os.utime(p, (mtime, mtime))
    return d


@pytest.fixture
def base(tmp_path, monkeypatch):
    monkeypatch.setattr(_numba_cache, "_base", lambda: tmp_path)
    cur = _numba_cache._hash(_numba_cache.ENGINE_GLOBS)
    _make(tmp_path, cur, 1000)  # the running code's, used longest ago
    _make(tmp_path, f"{cur}-batch-{_numba_cache._hash(_numba_cache.LEAF_DEPS['batch'])}", 1000, 5)
    _make(tmp_path, f"{cur}-batch-{'a' * 16}", 1500, 7)  # an older batch layer on the running engine
    _make(tmp_path, "1" * 16, 3000, 20)
    _make(tmp_path, f"{'1' * 16}-policies-{'b' * 16}", 3500)
    _make(tmp_path, "2" * 16, 2000)
    _make(tmp_path, "3" * 16, 4000)
    _make(tmp_path, "not-a-cache-folder", 100)
    return tmp_path


def test_versions_group_folders_and_put_the_running_code_first(base):
    vs = cache.versions()
    cur = _numba_cache._hash(_numba_cache.ENGINE_GLOBS)
    stale = f"{cur}-batch-{'a' * 16}"
    assert [v.engine for v in vs] == [cur, "3" * 16, "1" * 16, "2" * 16, stale]
    assert vs[-1].size == 7 and not vs[-1].current
    assert vs[0].current and not any(v.current for v in vs[1:])
    assert vs[0].size == 15 and len(vs[0].folders) == 2
    one = vs[2]
    assert one.size == 30 and one.last_used == 3500 and len(one.folders) == 2


def test_prune_keeps_the_running_code_and_the_most_recent_others(base):
    gone = cache.prune(keep=1)
    cur = _numba_cache._hash(_numba_cache.ENGINE_GLOBS)
    batch = f"{cur}-batch-{_numba_cache._hash(_numba_cache.LEAF_DEPS['batch'])}"
    assert sorted(v.engine for v in gone) == sorted(["1" * 16, "2" * 16, f"{cur}-batch-{'a' * 16}"])
    left = sorted(p.name for p in base.iterdir())
    assert left == sorted([cur, batch, "3" * 16, "not-a-cache-folder"])
    assert [v.engine for v in cache.prune()] == ["3" * 16]
    assert [v.engine for v in cache.versions()] == [cur]


def test_the_command_lists_prunes_and_refuses_a_negative_keep(base, capsys):
    assert cache.main([]) == 0
    out = capsys.readouterr().out
    assert "5 version(s)" in out and out.count("\n* ") == 1
    with pytest.raises(SystemExit) as e:
        cache.main(["--prune", "--keep", "-1"])
    assert e.value.code == 2 and "--keep must be >= 0, got -1" in capsys.readouterr().err
    assert len(cache.versions()) == 5  # nothing deleted
    assert cache.main(["--prune"]) == 0
    assert "deleted 4 version(s)" in capsys.readouterr().out
    with pytest.raises(ValueError, match="keep must be >= 0"):
        cache.prune(-2)


def _imported_files(path, here):
    """The necro_env source files that the module at ``path`` imports from (relative to ``here``)."""
    import ast

    rel = path.relative_to(here)
    package = ["necro_env", *rel.parts[:-1]]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            mod = base + (node.module.split(".") if node.module else [])
            targets = [mod + [a.name] for a in node.names] + [mod]
        elif isinstance(node, ast.Import):
            targets = [a.name.split(".") for a in node.names]
        else:
            continue
        for t in targets:
            if t[:1] != ["necro_env"]:
                continue
            for cand in (here.joinpath(*t[1:]).with_suffix(".py"), here.joinpath(*t[1:], "__init__.py")):
                if cand.exists():
                    out.add(cand.relative_to(here).as_posix())
    return out


def test_the_cache_key_covers_every_module_compiled_code_depends_on():
    import ast

    here = _numba_cache.HERE
    engine = {p.relative_to(here).as_posix() for p in _numba_cache.hashed_files(_numba_cache.ENGINE_GLOBS)}
    # constants modules without compiled code of their own count (compiled code freezes their values),
    # and so does the machinery that compiles and caches
    assert {"rulesets/necromunda/state.py", "rulesets/necromunda/constants.py", "core/terrain.py",
            "core/lazy_code.py", "core/borrowed_args.py"} <= engine
    assert not engine & _numba_cache.PYTHON_ONLY
    # no counted module (engine or leaf) imports from a Python-only one: its edits cannot reach compiled code
    counted = engine | {p.relative_to(here).as_posix()
                        for globs in (*_numba_cache.LEAF_DEPS.values(), *_numba_cache.RULESET_GLOBS.values())
                        for p in _numba_cache.hashed_files(globs)}
    for rel in sorted(counted):
        bad = (_imported_files(here / rel, here) & _numba_cache.PYTHON_ONLY) - {"core/__init__.py",
                                                                                "rulesets/__init__.py",
                                                                                "rulesets/necromunda/__init__.py",
                                                                                "rulesets/firefight/__init__.py"}
        assert not bad, f"{rel} imports from {sorted(bad)}, which the cache key leaves out"
    # the package inits that counted modules pass through define no values compiled code could read
    for init in ("core/__init__.py", "rulesets/__init__.py", "rulesets/necromunda/__init__.py",
                 "rulesets/firefight/__init__.py"):
        body = ast.parse((here / init).read_text()).body
        assert not any(isinstance(n, (ast.Assign, ast.AnnAssign)) for n in body), init


def test_each_ruleset_caches_in_a_folder_keyed_by_the_core_and_its_own_files():
    necro = {p.relative_to(_numba_cache.HERE).as_posix() for p in _numba_cache.hashed_files(_numba_cache.ENGINE_GLOBS)}
    fire = {p.relative_to(_numba_cache.HERE).as_posix()
            for p in _numba_cache.hashed_files(_numba_cache.RULESET_GLOBS["firefight"])}
    assert "rulesets/firefight/engine.py" in fire and not any(f.startswith("rulesets/firefight/") for f in necro)
    assert "rulesets/necromunda/engine.py" in necro and not any(f.startswith("rulesets/necromunda/") for f in fire)
    assert {f for f in necro if f.startswith("core/")} == {f for f in fire if f.startswith("core/")}
    assert _numba_cache.ruleset_of("necro_env.rulesets.firefight.legal") == "firefight"
    assert _numba_cache.ruleset_of("necro_env.rulesets.necromunda.legal") is None
    assert _numba_cache.ruleset_of("necro_env.core.sight") is None


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1" or os.environ.get("NUMBA_CACHE_DIR") is not None,
                    reason="compiled code in the project's own cache folders only")
def test_a_firefight_function_is_cached_in_the_firefight_folder():
    from necro_env.rulesets.firefight import engine as ff_engine
    from necro_env.rulesets.necromunda import engine as nm_engine

    fire = f"firefight-{_numba_cache._hash(_numba_cache.RULESET_GLOBS['firefight'])}"
    necro = _numba_cache._hash(_numba_cache.ENGINE_GLOBS)
    assert fire + os.sep in ff_engine.step._cache._cache_path
    assert necro in nm_engine.step._cache._cache_path and "firefight" not in nm_engine.step._cache._cache_path


def test_another_rulesets_folder_is_a_version_of_its_own(base):
    fire = f"firefight-{_numba_cache._hash(_numba_cache.RULESET_GLOBS['firefight'])}"
    _make(base, fire, 5000)
    _make(base, f"firefight-{'4' * 16}", 6000)  # an older Firefight engine
    vs = {v.engine: v for v in cache.versions()}
    assert vs[fire].current and not vs[f"firefight-{'4' * 16}"].current
    gone = cache.prune()
    assert f"firefight-{'4' * 16}" in {v.engine for v in gone} and (base / fire).is_dir()
