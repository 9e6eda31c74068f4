"""The seeded procedural board generator (necro_env/config/generator.py, docs/boards.md).

Guarantees checked over many seeds with hypothesis: the board is a valid board file, every
walkable cell is connected to every deployment zone, the zones are disjoint, far apart and big
enough, symmetric boards are symmetric (terrain, zones, doors, terminals, ductways, heights),
the same seed gives the same board, and writing the board to YAML and loading it gives it back.
Generated boards also run in the env, with one board or a new board per reset.
"""
from __future__ import annotations

import dataclasses
import subprocess
import sys
import tempfile
from collections import deque
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from necro_env.config import BoardSpec, ConfigError, config_root, load_board
from necro_env.config.generator import (
    EVAL_SEEDS,
    TRAIN_SEEDS,
    BoardDraw,
    board_chars,
    board_differences,
    board_seeds,
    board_to_yaml,
    generate,
    main,
    parse_board_arg,
)
from necro_env.core.terrain import (
    DOOR_CLOSED,
    DOOR_LOCKED,
    DOOR_OPEN,
    FEAT_LADDER,
    FEAT_STAIRS,
    TER_WALL,
)

REPO = Path(__file__).resolve().parents[2]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# (symmetric, n_zones) combinations; rot90 needs a square board and 4 zones
LAYOUTS = [(True, 2), (True, 3), (True, 4), (False, 2), (False, 3), (False, 4), ("rot180", 2), ("mirror", 2),
           ("mirror", 4), ("rot90", 4)]


@st.composite
def board_args(draw):
    kind = draw(st.sampled_from(["zm", "sector"]))
    symmetric, n_zones = draw(st.sampled_from(LAYOUTS))
    lo = 20 if n_zones >= 3 else 12  # side zones need room beside the top and bottom ones
    w = draw(st.integers(lo, 32))
    h = w if symmetric == "rot90" else draw(st.integers(lo, 32))
    zone_cells = draw(st.integers(8, 14))
    seed = draw(st.integers(0, 2**40))
    return {"kind": kind, "width": w, "height": h, "seed": seed, "symmetric": symmetric, "n_zones": n_zones, "zone_cells": zone_cells}


def _mode(symmetric, n_zones):
    if symmetric is True:
        return "mirror" if n_zones == 3 else "rot180"
    return "none" if symmetric is False else symmetric


def _transforms(mode, w, h):
    """(cell map, zone permutation) of every non-identity element of the symmetry group."""
    X, Y = w - 1, h - 1
    r180 = (lambda x, y: (X - x, Y - y), {0: 1, 1: 0, 2: 3, 3: 2})
    return {
        "none": [],
        "rot180": [r180],
        "mirror": [(lambda x, y: (x, Y - y), {0: 1, 1: 0, 2: 2, 3: 3})],
        "rot90": [(lambda x, y: (X - y, x), {0: 3, 3: 1, 1: 2, 2: 0}), r180,
                  (lambda x, y: (y, X - x), {0: 2, 2: 1, 1: 3, 3: 0})],
    }[mode]


def _walkable(b: BoardSpec) -> np.ndarray:
    """Cells a fighter walks on without crossing anything: not wall, obstacle or casket (doors open)."""
    ok = b.terrain != TER_WALL
    ok &= np.array([[ch not in "o" for ch in row] for row in board_chars(b)])
    for x, y in b.caskets:
        ok[y, x] = False
    return ok


def _reach(ok, start) -> np.ndarray:
    h, w = ok.shape
    seen = np.zeros_like(ok)
    seen[start[1], start[0]] = True
    q = deque([start])
    while q:
        x, y = q.popleft()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < h and ok[ny, nx] and not seen[ny, nx]:
                seen[ny, nx] = True
                q.append((nx, ny))
    return seen


# ---------------------------------------------------------------------------------------- guarantees


@SETTINGS
@given(board_args())
def test_every_walkable_cell_reachable_from_every_zone(args):
    """§1.2/§6.8 Generated boards: every cell that is not wall, obstacle or casket is reachable from
    every deployment zone by orthogonal steps with doors open, crossing no obstacle or casket."""
    b = generate(**args)
    ok = _walkable(b)
    for zone in range(args["n_zones"]):
        ys, xs = np.nonzero(b.deploy == zone)
        reached = _reach(ok, (int(xs[0]), int(ys[0])))
        assert np.array_equal(reached, ok), f"zone {zone} does not reach every walkable cell"


@SETTINGS
@given(board_args())
def test_zones_disjoint_big_and_apart(args):
    """Deployment zones: exactly n_zones of them, each >= zone_cells floor cells (>= 8 fighters),
    none under an obstacle, casket or feature, and enemies' zones at least 4 cells apart."""
    b = generate(**args)
    zones = sorted(int(z) for z in np.unique(b.deploy) if z >= 0)
    assert zones == list(range(args["n_zones"]))
    cells = {z: np.argwhere(b.deploy == z) for z in zones}
    for z, c in cells.items():
        assert len(c) >= args["zone_cells"] >= 8
        assert all(b.terrain[y, x] == 0 and b.features[y, x] == 0 for y, x in c)
        assert not any((x, y) in {tuple(k) for k in b.caskets.tolist()} for y, x in c)
    for a in zones:
        for z in zones:
            if a < z:
                d = np.abs(cells[a][:, None, :] - cells[z][None, :, :]).max(axis=2).min()
                assert d >= 4, f"zones {a} and {z} are {d} cells apart"


@SETTINGS
@given(board_args())
def test_symmetric_boards_are_symmetric(args):
    """symmetric: the map (walls, doors and their states, obstacles, caskets, features), the
    heights, the terminals and the ductways map onto themselves; zone k maps onto its partner."""
    b = generate(**args)
    mode = _mode(args["symmetric"], args["n_zones"])
    rows = board_chars(b)
    w, h = b.width, b.height
    terms = {((int(x), int(y)), (int(b.doors[d, 0]), int(b.doors[d, 1]))) for x, y, d in b.terminals}
    ducts = {frozenset({(int(x0), int(y0)), (int(x1), int(y1))}) for x0, y0, x1, y1 in b.ductways}
    for f, perm in _transforms(mode, w, h):
        for y in range(h):
            for x in range(w):
                tx, ty = f(x, y)
                ch = rows[y][x]
                want = str(perm[int(ch)]) if ch in "0123" else ch
                assert rows[ty][tx] == want, (x, y, tx, ty)
                assert b.heights[ty, tx] == b.heights[y, x]
        assert {(f(*t), f(*d)) for t, d in terms} == terms
        assert {frozenset(f(*c) for c in pair) for pair in ducts} == ducts


@SETTINGS
@given(board_args())
def test_same_seed_same_board_and_yaml_round_trip(args):
    """Determinism and round trip: generate twice -> identical; board_to_yaml then load_board -> the
    same BoardSpec (every field but source)."""
    a, b = generate(**args), generate(**args)
    assert board_differences(a, b) == []
    assert board_differences(a, load_board_text(board_to_yaml(a))) == []


def test_seeds_give_different_boards():
    """Different seeds give different boards (of both kinds)."""
    for kind in ("zm", "sector"):
        maps = {tuple(board_chars(generate(kind, seed=s))) for s in range(20)}
        assert len(maps) == 20


def test_zone_mortalis_features():
    """Zone Mortalis boards have a wall border, rooms joined by doors (some locked, with a terminal
    on each side), ductways, obstacles and caskets; over a few seeds every kind of door appears."""
    states, n_ducts, n_obst = set(), 0, 0
    for seed in range(10):
        b = generate("zm", seed=seed)
        t = b.terrain
        assert (t[0] == TER_WALL).all() and (t[-1] == TER_WALL).all()
        assert (t[:, 0] == TER_WALL).all() and (t[:, -1] == TER_WALL).all()
        assert len(b.caskets) == 2 and not b.has_levels
        assert 1 <= len(b.doors) <= 24
        states |= {int(s) for s in b.doors[:, 2]}
        locked = {i for i, s in enumerate(b.doors[:, 2]) if s == DOOR_LOCKED}
        assert {int(d) for d in b.terminals[:, 2]} == locked
        n_ducts += len(b.ductways)
        n_obst += int((t == 2).sum())
    assert states == {DOOR_CLOSED, DOOR_OPEN, DOOR_LOCKED}
    assert n_ducts > 0 and n_obst > 0


def test_max_doors_is_respected():
    """max_doors bounds the number of doors (the env sizes its door actions with it)."""
    for seed in range(10):
        assert len(generate("zm", seed=seed, max_doors=4).doors) <= 4
        assert len(generate("zm", seed=seed, max_doors=0).doors) == 0


def test_sector_platforms_have_ladders_or_stairs():
    """§6.4 Sector boards with levels: every raised platform has a ladder or stairs cell next to it
    (so it is reached without climbing); platforms appear over a few seeds; flat=no heights."""
    raised_seen = 0
    for seed in range(12):
        b = generate("sector", seed=seed)
        hgt = b.heights
        raised = hgt > 0
        seen = np.zeros_like(raised)
        for y, x in zip(*np.nonzero(raised)):
            if seen[y, x]:
                continue
            region = _reach(raised & (hgt == hgt[y, x]), (int(x), int(y)))
            seen |= region
            raised_seen += 1
            access = False
            for ry, rx in zip(*np.nonzero(region)):
                for nx, ny in ((rx + 1, ry), (rx - 1, ry), (rx, ry + 1), (rx, ry - 1)):
                    if 0 <= nx < b.width and 0 <= ny < b.height and b.features[ny, nx] & (FEAT_LADDER | FEAT_STAIRS):
                        access = True
            assert access, f"seed {seed}: platform at ({x}, {y}) has no ladder or stairs"
        assert not generate("sector", seed=seed, levels=False).has_levels
    assert raised_seen >= 12


def test_shipped_boards_round_trip():
    """board_to_yaml writes any board file's board back exactly (every configs/boards file)."""
    files = sorted((config_root() / "boards").glob("*.yaml"))
    assert files
    for f in files:
        b = load_board(f)
        again = load_board_text(board_to_yaml(b))
        assert board_differences(b, again) == [], f.name


def load_board_text(text: str) -> BoardSpec:
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "b.yaml"
        p.write_text(text, encoding="utf-8")
        return load_board(p)


# ---------------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("kwargs, needle", [
    ({"kind": "cave"}, "kind must be one of"),
    ({"width": 8}, "width must be an integer 12..128"),
    ({"height": 200}, "height must be an integer 12..128"),
    ({"n_zones": 5}, "n_zones must be an integer 2..4"),
    ({"n_zones": 3, "symmetric": "rot180"}, "needs n_zones 2 or 4"),
    ({"n_zones": 2, "symmetric": "rot90"}, "needs n_zones=4"),
    ({"n_zones": 4, "symmetric": "rot90", "width": 24, "height": 30}, "needs a square board"),
    ({"symmetric": "diagonal"}, "symmetric must be True, False or one of"),
    ({"caskets": 3}, "caskets must be a multiple of 2"),
    ({"max_doors": 40}, "max_doors must be an integer 0..32"),
    ({"seed": -1}, "seed must be an integer"),
    ({"n_zones": 4, "width": 12, "height": 12}, "use a bigger board or smaller zones"),
    ({"kind": "zm", "levels": True}, "levels=True is only for kind='sector'"),
])
def test_bad_arguments(kwargs, needle):
    with pytest.raises(ValueError, match=None) as err:
        generate(**kwargs)
    assert needle in str(err.value)


def test_board_to_yaml_refuses_what_a_file_cannot_hold():
    b = generate("zm", seed=1)
    doors = b.doors.copy()
    doors[0, 2] = 3  # DOOR_DESTROYED
    with pytest.raises(ValueError, match="cannot hold"):
        board_to_yaml(dataclasses.replace(b, doors=doors))


def test_generated_board_is_checked_like_a_file():
    """A broken generator output would be refused by the board schema with a ConfigError."""
    from necro_env.config.generator import board_from_data, generate_data

    data = generate_data("zm", seed=2)
    data["map"] = data["map"].replace("1", "x", 1)
    with pytest.raises(ConfigError, match="unknown map character"):
        board_from_data(data)


# ---------------------------------------------------------------------------------------- seeds, CLI


def test_train_and_eval_seeds_are_disjoint():
    assert board_seeds("train") is TRAIN_SEEDS and board_seeds("eval") is EVAL_SEEDS
    assert TRAIN_SEEDS.stop <= EVAL_SEEDS.start and len(EVAL_SEEDS) == 10_000
    with pytest.raises(ValueError, match="split must be"):
        board_seeds("test")


def test_parse_board_arg():
    assert parse_board_arg("generate:zm:3") == ({"kind": "zm"}, range(3, 4))
    assert parse_board_arg("generate:sector:eval") == ({"kind": "sector"}, EVAL_SEEDS)
    kw, seeds = parse_board_arg("generate:zm:10-19:width=16,height=14,symmetric=false,n_zones=3")
    assert kw == {"kind": "zm", "width": 16, "height": 14, "symmetric": False, "n_zones": 3} and seeds == range(10, 20)
    for bad in ("generate:zm", "generate:cave:1", "generate:zm:x", "generate:zm:5-2", "generate:zm:1:depth=3",
                "generate:zm:1:width=big"):
        with pytest.raises(ValueError, match="board 'generate"):
            parse_board_arg(bad)


def test_cli_writes_a_loadable_board(tmp_path):
    """python -m necro_env.config.generator --kind zm --seed 3 --out file.yaml writes the board of generate()."""
    out = tmp_path / "zm3.yaml"
    r = subprocess.run([sys.executable, "-m", "necro_env.config.generator", "--kind", "zm", "--seed", "3",
                        "--out", str(out)], check=False, cwd=REPO, capture_output=True, text=True, env=_env())
    assert r.returncode == 0, r.stderr
    assert board_differences(load_board(out), generate("zm", seed=3)) == []
    assert main(["--kind", "sector", "--seed", "4", "--n-zones", "4", "--out", str(tmp_path / "s.yaml")]) == 0
    assert board_differences(load_board(tmp_path / "s.yaml"), generate("sector", seed=4, n_zones=4)) == []
    assert main(["--kind", "zm", "--width", "5"]) == 2


def _env():
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env


# ---------------------------------------------------------------------------------------- the env


SMALL = "width=12,height=12"


def _play(env, rng, max_steps):
    """Random legal actions until the game ends or max_steps; returns the number of steps."""
    n = 0
    while env.agents and n < max_steps:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        obs = env.observe(agent)
        assert env.observation_space(agent).contains(obs)
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        env.step(int(rng.choice(legal)))
        n += 1
    return n


def test_env_plays_on_a_generated_board():
    """board="generate:zm:SEED" plays on the board generate() makes (scenario's doors_start applied)."""
    from necro_env.envs.necromunda_env import raw_env

    e = raw_env(board=f"generate:zm:5:{SMALL}")
    want = generate("zm", 12, 12, seed=5)
    assert e.board_draw is None and e.board_seed == 5
    assert np.array_equal(e.game.board.terrain, want.terrain)
    assert (e.game.board.doors[:, 2] != DOOR_OPEN).all()  # gang_fight: doors_start closed
    e.reset(seed=1)
    assert _play(e, np.random.default_rng(0), 60) > 0


def test_env_draws_a_new_board_per_reset():
    """board="generate:KIND:A-B": each reset draws a board seed from the env's generator; the spaces
    stay the same; reset(seed=s) gives the same board and game again; random games run on them."""
    from necro_env.envs.necromunda_env import raw_env

    e = raw_env(board=f"generate:sector:0-999:{SMALL}", seed=0)
    n_actions, space = e.n_actions, e.observation_space("gang_0")
    boards = []
    rng = np.random.default_rng(1)
    for s in range(3):
        e.reset(seed=100 + s)
        boards.append((e.board_seed, tuple(board_chars(e.game.board))))
        assert e.n_actions == n_actions == e.game.n_actions and e.observation_space("gang_0") == space
        _play(e, rng, 25)
    assert len({seed for seed, _ in boards}) == 3
    e.reset(seed=101)
    assert (e.board_seed, tuple(board_chars(e.game.board))) == boards[1]


def test_gym_wrapper_draws_boards():
    from necro_env.envs.gym_wrapper import NecromundaGymEnv

    env = NecromundaGymEnv(board=f"generate:zm:0-999:{SMALL}")
    seen = set()
    for s in (3, 4):
        obs, _ = env.reset(seed=s)
        assert env.observation_space.contains(obs)
        seen.add(env.aec.board_seed)
        mask = env.action_masks()
        obs, *_ = env.step(int(np.flatnonzero(mask)[0]))
        assert env.observation_space.contains(obs)
    assert len(seen) == 2


def test_board_draw_sizes_fixed():
    d = BoardDraw("generate:zm:0-49:max_doors=10")
    assert d.max_doors == 10 and d.n_caskets == 2
    for s in range(0, 50, 7):
        b = d.board(s)
        assert len(b.doors) <= 10 and len(b.caskets) == 2 and (b.height, b.width) == (24, 24)


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning")
def test_pettingzoo_api_and_seed_tests_with_board_draws():
    """PettingZoo's api_test and seed_test pass when every reset draws a new generated board."""
    from pettingzoo.test import api_test, seed_test

    from necro_env import necromunda_v0

    api_test(necromunda_v0.env(board=f"generate:zm:0-999:{SMALL}", encoder="flat", seed=0), num_cycles=60)
    seed_test(lambda: necromunda_v0.env(board=f"generate:sector:train:{SMALL}", encoder="flat"), num_cycles=60)


def test_docs_boards_md_example_runs():
    """The API example of docs/boards.md runs as written."""
    doc = REPO / "docs" / "boards.md"
    code = doc.read_text().split("## API")[1].split("```python\n")[1].split("```")[0]
    ns = {}
    exec(compile(code, str(doc), "exec"), ns)  # noqa: S102
    assert isinstance(ns["b"], BoardSpec) and ns["b"].name == "gen_zm_3"
    assert sorted(int(z) for z in np.unique(ns["s"].deploy)) == [-1, 0, 1, 2, 3]
    assert board_differences(ns["b"], load_board_text(ns["text"])) == []


def test_line_of_sight_tables_of_drawn_boards_do_not_pile_up(monkeypatch):
    """Each new board's LOS tables are cached by content; the cache keeps only the newest
    _STATIC_CACHE_MAX boards, so drawing a new board per reset does not grow memory without end."""
    from necro_env.config import load_armours, load_weapons
    from necro_env.rulesets.necromunda import game as G

    monkeypatch.setattr(G, "_STATIC_CACHE", {})
    monkeypatch.setattr(G, "_STATIC_CACHE_MAX", 2)
    weapons, armours = load_weapons(), load_armours()
    for s in range(4):
        G.build_static(generate("zm", 12, 12, seed=s), weapons, armours)
        assert len(G._STATIC_CACHE) == min(s + 1, 2)
