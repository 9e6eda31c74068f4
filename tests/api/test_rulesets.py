"""The ruleset seam (DESIGN.md §11; docs/architecture.md, "Rulesets"): one registry, a small typed
interface, a state header generic code reads without a ruleset's state module, and a ratchet on the
generic layers' direct imports of a ruleset."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from necro_env import rulesets
from necro_env.core import header as H
from necro_env.envs.necromunda_env import build_game
from necro_env.rulesets.base import Ruleset

ROOT = Path(__file__).resolve().parents[2]


def test_the_registry_finds_each_ruleset_and_names_the_known_ones_otherwise():
    assert rulesets.names() == ("necromunda", "firefight")
    for name, players in (("necromunda", "gang"), ("firefight", "player")):
        rs = rulesets.get(name)
        assert isinstance(rs, Ruleset) and rs.name == name and rs.players == players
    for bad in ("chess", "", None, 3):
        with pytest.raises(ValueError, match=r"unknown ruleset .*; known: necromunda, firefight$"):
            rulesets.get(bad)


@pytest.mark.parametrize("name", ["necromunda", "firefight"])
def test_getting_a_ruleset_loads_none_of_its_engine(name):
    """Asking the registry compiles nothing: the engine loads when a game is built (DESIGN.md §11);
    and asking for one game loads nothing of another."""
    code = (f"import sys; from necro_env import rulesets; rs = rulesets.get({name!r}); "
            "print(sorted(m for m in sys.modules if m.startswith('necro_env.rulesets.') and m.count('.') == 3))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert json.loads(out.stdout.replace("'", '"')) == [f"necro_env.rulesets.{name}.ruleset"]


def test_the_header_is_where_necromunda_keeps_those_columns():
    from necro_env.rulesets.necromunda import state as S

    ours = {"round": S.G_ROUND, "phase": S.G_PHASE, "decision_kind": S.G_DK, "deciding_player": S.G_DGANG,
            "done": S.G_DONE, "winner": S.G_WINNER, "round_limit": S.G_ROUND_LIMIT, "n_players": S.G_NGANGS,
            "events": S.G_EVN, "events_overflowed": S.G_EVOVF, "truncated": S.G_TRUNC, "decisions": S.G_NDEC}
    assert ours == H.HEADER
    assert set(H.HEADER.values()).isdisjoint(H.RULESET_OWN) and max(H.HEADER.values()) < H.N_HEADER
    game = build_game()
    assert set(H.COMMON_ARRAYS) <= set(game.state._fields) and game.state.g.shape[1] >= H.N_HEADER
    game.reset(3)
    g = game.state.g[0]
    assert (g[H.H_ROUND], g[H.H_DPLAYER], bool(g[H.H_DONE])) == (game.round, game.current_gang, game.done)
    assert rulesets.get("necromunda").decision_names()[int(g[H.H_DK])] == game.decision[0]


@pytest.mark.parametrize("kw", [{}, {"board": "generate:sector:5"}, {"num_gangs": 2, "max_weapons": 6}])
def test_the_typed_action_kinds_are_the_codecs_ranges(kw):
    game = build_game(**kw)
    kinds = rulesets.get("necromunda").action_kinds(game)
    lay = game.layout
    from necro_env.rulesets.necromunda.codec import KIND_NAMES

    assert tuple(k.name for k in kinds) == KIND_NAMES
    assert [k.size for k in kinds] == [int(lay[i + 1] - lay[i]) for i in range(len(kinds))]
    assert sum(k.size for k in kinds) == game.n_actions


def test_a_config_round_trips_through_the_ruleset():
    rs = rulesets.get("necromunda")
    game = build_game(board="generate:sector:7", variant="house_legacy")
    again = rs.config_from_json(json.loads(json.dumps(rs.config_json(game)))).build()
    assert rs.data_hashes(again) == rs.data_hashes(game) and again.variant == "house_legacy"


# ---------------------------------------------------------------------------- the seam's ratchet
GENERIC = ("necro_env/envs", "necro_env/batch", "necro_env/replay", "necro_env/render", "necro_env/policies",
           "necro_env/play", "agents", "training", "benchmarks")
# Generic modules that still import a ruleset module directly (2026-12-01). The seam is being cut one
# layer at a time (issue "A second game": the env, the batch, replays, rendering, agents, training):
# a module moved behind the registry leaves this list, and no module joins it. A ruleset's own benchmark
# (benchmarks/<ruleset name>_*.py, importing that ruleset alone) is not a generic layer: _a_rulesets_own_benchmark.
STILL_WELDED = {
    "agents/fast_network.py", "agents/networks.py", "agents/pointer_head.py",
    "necro_env/batch/__init__.py", "necro_env/batch/encode.py", "necro_env/batch/kernels.py",
    "necro_env/batch/shaping.py", "necro_env/batch/tactical.py",
    "necro_env/envs/batched_env.py", "necro_env/envs/encoders.py", "necro_env/envs/gym_wrapper.py",
    "necro_env/envs/necromunda_env.py",
    "necro_env/policies/heuristics.py",
}


def _imports_a_ruleset(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            mod = ("." * node.level) + (node.module or "")
            names = [a.name for a in node.names]
            if "rulesets." in mod or (mod.endswith("rulesets") and any(n in rulesets.names() for n in names)):
                return True
        elif isinstance(node, ast.Import) and any("rulesets." in a.name for a in node.names):
            return True
    return False


def _rulesets_imported(path: Path) -> set:
    """The packages under necro_env.rulesets that the module at ``path`` imports from (``base`` included)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        mods = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
            [a.name for a in node.names] if isinstance(node, ast.Import) else []
        for mod in mods:
            if "rulesets." in mod:
                out.add(mod.split("rulesets.", 1)[1].split(".")[0])
            elif isinstance(node, ast.ImportFrom) and mod.endswith("rulesets"):
                out |= {a.name for a in node.names if a.name in rulesets.names()}
    return out


def _a_rulesets_own_benchmark(path: Path) -> bool:
    """A benchmark that measures one ruleset's engine internals is not a generic layer: a module under
    benchmarks/ whose file name starts with ``<ruleset name>_`` may import that ruleset, and only that one
    (2026-12-02: benchmarks/necromunda_mask_parts.py times the mask's compiled parts inside numba kernels,
    which no registry field could hand over)."""
    own = [r for r in rulesets.names() if path.name.startswith(f"{r}_")]
    return path.parent.name == "benchmarks" and len(own) == 1 and _rulesets_imported(path) == set(own)


def test_only_a_rulesets_own_benchmark_may_import_it(tmp_path):
    (tmp_path / "benchmarks").mkdir()
    mine, other, generic = (tmp_path / "benchmarks" / n for n in ("necromunda_x.py", "firefight_x.py", "x.py"))
    for p in (mine, other, generic):
        p.write_text("from necro_env.rulesets.necromunda.state import G_DK\n")
    assert _a_rulesets_own_benchmark(mine) and not _a_rulesets_own_benchmark(other)
    assert not _a_rulesets_own_benchmark(generic) and _imports_a_ruleset(generic)
    mine.write_text("from necro_env.rulesets.necromunda import state\nfrom necro_env.rulesets import firefight\n")
    assert not _a_rulesets_own_benchmark(mine)
    assert _a_rulesets_own_benchmark(ROOT / "benchmarks" / "necromunda_mask_parts.py")


def test_generic_layers_import_no_ruleset_module_but_those_not_yet_moved():
    welded = {p.relative_to(ROOT).as_posix() for d in GENERIC for p in (ROOT / d).rglob("*.py")
              if _imports_a_ruleset(p) and not _a_rulesets_own_benchmark(p)}
    welded -= {"necro_env/rulesets/base.py"}
    assert not welded - STILL_WELDED, f"new direct imports of a ruleset (use necro_env.rulesets.get): " \
                                      f"{sorted(welded - STILL_WELDED)}"
    assert not STILL_WELDED - welded, f"no longer welded: remove from STILL_WELDED {sorted(STILL_WELDED - welded)}"
