"""Shared fixtures and strategies of the property-based tests (random games).

The helpers are exposed as session-scoped fixtures (``game_factory``,
``check_invariants``, ``game_strategy``, ...) rather than imported, so that
several ``conftest.py`` files in the tree never clash on the module name.

Games are played on the real 24x24 boards of ``configs/boards`` with the real
gangs of ``configs/gangs``, 2 to 4 gangs per game; the numba JIT is needed
(pure Python is far too slow on these boards).
"""
from __future__ import annotations

import dataclasses
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from necro_env.config import load_board, load_gang, load_scenario
from necro_env.core.terrain import DOOR_CLOSED, DOOR_LOCKED, TER_DOOR, TER_OBSTACLE, TER_WALL
from necro_env.rulesets.necromunda import codec as K
from necro_env.rulesets.necromunda.constants import CH_T, CH_W
from necro_env.rulesets.necromunda.game import Game
from necro_env.rulesets.necromunda.state import (
    CK_STATE, CK_X, CK_Y, DK_ACTION, DK_FOLLOWUP, DK_NONE, DR_STATE, FI_ACTS, FI_BROKEN, FI_CH, FI_FLESH,
    FI_POSTURE, FI_READY, FI_STATE, FI_WOUNDS, FI_X, FI_Y, FS_EMPTY, FS_ON, G_DGANG, G_DK, G_DONE, G_EVOVF, G_FU,
    G_ROUND, PO_PINNED, PO_SI, PO_STANDING,
)

BOARDS = ("zm_corridors", "zm_hall", "zm_cross")
GANGS = ("orlock", "goliath", "escher", "van_saar")
DEFAULT = "default"  # the default scenario (configs/scenarios/gang_fight.yaml)

# Shared Hypothesis settings of these tests (a parent profile, not loaded globally): no deadline,
# since a decision's duration varies a lot, and no too-slow / data-too-large health checks.
# The examples are the same on every run (derandomize), so the suite and CI are reproducible;
# NECRO_HYPOTHESIS_EXPLORE=1 draws new examples each run to look for new failures (docs/testing.md).
settings.register_profile("necro-properties", deadline=None,
                          derandomize=not os.environ.get("NECRO_HYPOTHESIS_EXPLORE"),
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

_GAMES: dict = {}


def make_game(board: str, gangs: tuple = (), round_limit: int | None = None) -> Game:
    """A (cached, reused) Game on ``board`` with these gangs; ``board == DEFAULT`` is the default scenario.
    Doors start closed as in the default scenario. Call ``reset(seed)`` before use."""
    key = (board, tuple(gangs), round_limit)
    if key not in _GAMES:
        if board == DEFAULT:
            sc = load_scenario()
            _GAMES[key] = Game(sc.board, sc.gangs, round_limit=round_limit or sc.round_limit)
        else:
            spec = load_board(f"boards/{board}.yaml")
            doors = spec.doors.copy()
            doors[doors[:, 2] == 1, 2] = DOOR_CLOSED  # doors_start: closed (the default scenario's choice)
            spec = dataclasses.replace(spec, doors=doors)
            gs = [load_gang(f"gangs/{g}.yaml") for g in gangs]
            _GAMES[key] = Game(spec, gs, round_limit=round_limit or 12)
    return _GAMES[key]


def game_configs():
    """(board, gangs) pairs: the default scenario, or any board with 2-4 gangs (repeats allowed)."""
    other = st.tuples(
        st.sampled_from(BOARDS),
        st.integers(2, 4).flatmap(lambda n: st.lists(st.sampled_from(GANGS), min_size=n, max_size=n).map(tuple)),
    )
    return st.one_of(st.just((DEFAULT, ())), other)


seeds = st.integers(0, 2**32 - 1)


def invariant_violations(game: Game) -> list[str]:
    """Every broken state invariant of ``game`` (an empty list when all hold)."""
    s = game.state
    st_ = game.static
    h, w = st_.terrain.shape
    out = []
    fi = s.fi[0]
    nf = fi.shape[0]
    mf = game.dims.max_fighters
    caskets = {(int(c[CK_X]), int(c[CK_Y])) for c in s.casket[0] if c[CK_STATE] != 0}
    cells = {}
    for f in range(nf):
        r = fi[f]
        state = int(r[FI_STATE])
        if state == FS_EMPTY:
            continue
        x, y = int(r[FI_X]), int(r[FI_Y])
        wmax = int(r[FI_CH + CH_W])
        if not 0 <= r[FI_WOUNDS] <= wmax:
            out.append(f"fighter {f}: wounds {int(r[FI_WOUNDS])} outside [0, {wmax}]")
        if r[FI_POSTURE] not in (PO_STANDING, PO_PINNED, PO_SI):
            out.append(f"fighter {f}: posture {int(r[FI_POSTURE])}")
        if not 0 <= r[FI_ACTS] <= 2:
            out.append(f"fighter {f}: FI_ACTS {int(r[FI_ACTS])} outside [0, 2]")
        if r[FI_READY] and state != FS_ON:
            out.append(f"fighter {f}: Ready but not on the battlefield (state {state})")
        if state != FS_ON:
            continue
        if not (0 <= x < w and 0 <= y < h):
            out.append(f"fighter {f}: cell {(x, y)} off the {w}x{h} board")
            continue
        if (x, y) in cells:
            out.append(f"fighters {cells[(x, y)]} and {f} share cell {(x, y)}")
        cells[(x, y)] = f
        ter = int(st_.terrain[y, x])
        if ter == TER_WALL:
            out.append(f"fighter {f} on a wall at {(x, y)}")
        elif ter == TER_OBSTACLE:
            out.append(f"fighter {f} on an obstacle at {(x, y)}")
        elif ter == TER_DOOR:
            d = int(st_.door_of_cell[y, x])
            if s.door[0, d, DR_STATE] in (DOOR_CLOSED, DOOR_LOCKED):
                out.append(f"fighter {f} in closed/locked door {d} at {(x, y)}")
        if (x, y) in caskets:
            out.append(f"fighter {f} on a loot casket at {(x, y)}")
        if r[FI_FLESH] < 0:
            out.append(f"fighter {f}: flesh wounds {int(r[FI_FLESH])} < 0")
        if r[FI_CH + CH_T] - r[FI_FLESH] <= 0:
            out.append(f"fighter {f}: toughness {int(r[FI_CH + CH_T] - r[FI_FLESH])} <= 0 on the battlefield")
    # §4.1: a fighter can never be both Prone and Pinned and Engaged
    for f in range(nf):
        if fi[f, FI_STATE] != FS_ON or fi[f, FI_POSTURE] != PO_PINNED:
            continue
        for e in range(nf):
            if (e // mf != f // mf and fi[e, FI_STATE] == FS_ON and fi[e, FI_POSTURE] == PO_STANDING
                    and max(abs(int(fi[f, FI_X]) - int(fi[e, FI_X])), abs(int(fi[f, FI_Y]) - int(fi[e, FI_Y]))) == 1):
                out.append(f"fighter {f} is Prone and Pinned in base contact with Standing enemy {e} (§4.1)")
    g = s.g[0]
    n_legal = int(game.mask[0].sum())
    if g[G_DONE]:
        if n_legal:
            out.append(f"game over but {n_legal} legal actions")
        if g[G_DK] != DK_NONE:
            out.append(f"game over but decision kind {int(g[G_DK])}")
    else:
        if n_legal == 0:
            out.append(f"no legal action for gang {int(g[G_DGANG])} in decision {game.decision}")
        if g[G_DK] == DK_ACTION:
            a = game.active_fighter
            if a < 0 or a // mf != g[G_DGANG]:
                out.append(f"active fighter {a} does not belong to deciding gang {int(g[G_DGANG])}")
            elif fi[a, FI_STATE] != FS_ON:
                out.append(f"active fighter {a} is not on the battlefield")
            elif fi[a, FI_BROKEN]:
                out.append(f"active fighter {a} chooses actions while Broken (§10.2)")
            elif fi[a, FI_READY]:
                out.append(f"active fighter {a} still has its Ready marker (§2.3)")
        elif g[G_DK] == DK_FOLLOWUP:
            fu = int(g[G_FU])
            if fu < 0 or fu // mf != g[G_DGANG] or fi[fu, FI_STATE] != FS_ON:
                out.append(f"fight follow-up of fighter {fu} decided by gang {int(g[G_DGANG])}")
    if g[G_EVOVF]:
        out.append("event buffer overflowed")
    if g[G_ROUND] > game.round_limit:
        out.append(f"round {int(g[G_ROUND])} beyond the round limit {game.round_limit}")
    return out


# ------------------------------------------------------------------ fixtures
@pytest.fixture(scope="session")
def game_factory():
    return make_game


@pytest.fixture(scope="session")
def check_invariants():
    def check(game, context=""):
        bad = invariant_violations(game)
        assert not bad, f"{context}: " + "; ".join(bad)
    return check


@pytest.fixture(scope="session")
def game_strategy():
    """Strategy of (board, gangs, seed)."""
    return st.tuples(game_configs(), seeds).map(lambda t: (t[0][0], t[0][1], t[1]))


# Action kinds an "aggressive" random player prefers, to reach combat, doors, ductways, caskets,
# follow-ups and bottling far more often than uniform play does.
PREFERRED = np.array(sorted({
    K.A_CHARGE, K.A_FIGHT, K.A_SHOOT, K.A_SHOOT_TWIN, K.A_COUP, K.A_CONSOLIDATE, K.A_FIRE_DUCT, K.A_CRAWL_DUCT,
    K.A_OPEN_DOOR, K.A_TERMINAL, K.A_FORCE_DOOR, K.A_SMASH_CASKET, K.A_BYPASS_CASKET, K.A_CARRY_CASKET,
    K.A_RELOAD, K.A_BLIND_FIRE,
}))


def pick_action(game: Game, rand, aggressive: bool) -> int:
    """A legal index: uniform (``rand(n)`` gives an int in [0, n)), or, when ``aggressive``, 4 times in 5
    one of the PREFERRED kinds if any is legal, else a Move to one of the 3 cells nearest an enemy."""
    legal = game.legal_actions()
    if aggressive and rand(5):
        kinds = np.searchsorted(game.layout, legal, side="right") - 1
        pref = legal[np.isin(kinds, PREFERRED)]
        if len(pref):
            legal = pref
        else:
            moves = legal[kinds == K.A_MOVE]
            a = game.active_fighter
            if len(moves) and a >= 0:
                fi = game.state.fi[0]
                mf = game.dims.max_fighters
                foes = [e for e in range(fi.shape[0]) if fi[e, FI_STATE] == FS_ON and e // mf != a // mf]
                if foes:
                    cells = moves - game.layout[K.A_MOVE]
                    x, y = cells % game.dims.width, cells // game.dims.width
                    d = np.min([np.maximum(abs(x - fi[e, FI_X]), abs(y - fi[e, FI_Y])) for e in foes], axis=0)
                    legal = moves[np.argsort(d, kind="stable")[:3]]
    return int(legal[rand(len(legal))])


@pytest.fixture(scope="session")
def pick():
    return pick_action


@pytest.fixture(scope="session")
def random_state():
    """play(game, seed, n): reset ``game`` with ``seed`` and make up to n uniform random legal decisions."""
    def play(game, seed, n):
        game.reset(seed)
        rng = np.random.default_rng(seed)
        for _ in range(n):
            if game.done:
                break
            game.step(rng.choice(game.legal_actions()))
        return game
    return play


@pytest.fixture
def cache_env(tmp_path):
    """``env(cache="cache")``: the environment of a subprocess with its own numba cache
    (``tmp_path / cache``) and ``tmp_path`` importable (the module a test writes there), with the
    warm-up's process count left to its default."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

    def env(cache="cache"):
        out = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / cache))
        out["PYTHONPATH"] = os.pathsep.join([str(tmp_path), root, out.get("PYTHONPATH", "")])
        out.pop("NECRO_WARMUP_JOBS", None)
        return out

    return env


@pytest.fixture
def cache_script(tmp_path, cache_env):
    """``run(script, *argv, cache="cache")``: ``python -c script`` in ``tmp_path`` with
    ``cache_env(cache)``; fails the test with the script's stderr when it fails, else returns its
    stdout. Run twice with the same cache, the second process loads what the first compiled."""
    import subprocess
    import sys

    def run(script, *argv, cache="cache"):
        r = subprocess.run([sys.executable, "-c", script, *argv], env=cache_env(cache), cwd=tmp_path,
                           capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr[-2000:]
        return r.stdout

    return run
