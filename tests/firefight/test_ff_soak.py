"""A quick Firefight soak (benchmarks/ff_random_games.py in small; 2026-12-02): random legal games on generated
boards raise nothing, every counted kind of event occurs where its rule applies, and the board invariants hold
after every decision: no two models in a cell, none in impassable terrain, wound markers only on a unit's last
model (§7.3), and a unit that moved is coherent after its move (§4.1)."""
from pathlib import Path

import numpy as np

from benchmarks.ff_random_games import counted, soak
from necro_env.rulesets.firefight import constants as C
from necro_env.rulesets.firefight import events as E
from necro_env.rulesets.firefight import state as ST
from necro_env.rulesets.firefight.batch import R_GAMES, BatchedFirefight
from necro_env.rulesets.firefight.game_config import DEFAULT_LISTS, GameConfig
from necro_env.rulesets.firefight.generator import board_seeds
from necro_env.rulesets.firefight.grid import unit_coherent

# the Humans list with its weapons team's Mortar (Blast(3)), so that Blast hits can occur
MORTAR_LIST = """name: hdf_mortar
army: human_defense_force
points: 200
units:
  - {unit: commander}
  - {unit: infantry_squad}
  - {unit: infantry_squad}
  - {unit: weapons_team, options: [mortar]}
  - {unit: storm_trooper}
"""
NEEDS_HEIGHTS = {"jumps", "falls"}
NEEDS_LONG_GAMES = {"morale tests", "routs"}  # an army must fall to half its units (§8): more rounds


def _play(cfg, games, seed=0):
    bg = BatchedFirefight(cfg, batch_size=games, seed=seed)
    while (bg.results[:, R_GAMES] < 1).any():
        bg.play(300, max_games=1)
    return {label: int(bg.counts[:, col].sum()) for label, col in counted()}


def test_each_counted_event_occurs_where_its_rule_applies(tmp_path: Path):
    lists = (str(tmp_path / "hdf_mortar.yaml"), DEFAULT_LISTS[1])
    Path(lists[0]).write_text(MORTAR_LIST)
    seeds = board_seeds("train")
    flat = _play(GameConfig(lists=lists, board=f"generate:{seeds[0]}"), 60)
    high = _play(GameConfig(lists=lists, board=f"generate:{seeds[1]}", heights=True), 60)
    long = _play(GameConfig(lists=lists, board=f"generate:{seeds[2]}", round_limit=20), 150)
    for label in flat:
        where = high if label in NEEDS_HEIGHTS else long if label in NEEDS_LONG_GAMES else flat
        assert where[label] > 0, (label, flat, high, long)


def test_soak_script_reports_no_exception():
    out = soak(games=20, boards="generated", per_board=10, heights="both")
    assert out["exceptions"] == 0 and out["games"] == 20
    assert out["wins_side0"] + out["wins_side1"] + out["draws"] == 20


def _invariants(game):
    s, st = game.state, game.static
    occupied = {}
    moved = {ev.actor for ev in game.events("move")}
    hurt = {ev.target for ev in game.events() if ev.kind in ("removed", "destroyed")}
    for u in range(s.u.shape[1]):
        if s.u[0, u, ST.U_STATE] != C.US_ON:
            continue
        alive = s.m[0, u, :, ST.M_ALIVE] != 0
        for i in np.flatnonzero(alive):
            x, y = int(s.m[0, u, i, ST.M_X]), int(s.m[0, u, i, ST.M_Y])
            assert (x, y) not in occupied, f"two models in cell {(x, y)}: {occupied[(x, y)]} and {(u, i)}"
            occupied[(x, y)] = (u, int(i))
            flying = s.u[0, u, ST.U_RULES] & C.R_FLYING
            assert flying or not st.flags[y, x] & C.TF_IMPASSABLE, f"model {(u, i)} in impassable {(x, y)}"
            if s.m[0, u, i, ST.M_WOUNDS]:
                assert alive.sum() == 1, f"wound markers on model {i} of unit {u} with {alive.sum()} models"
        if u in moved and u not in hurt:
            assert unit_coherent(s, 0, u), f"unit {u} not coherent after its move"


def test_board_invariants_after_every_decision():
    for cfg, seeds in ((GameConfig(board=f"generate:{board_seeds('train')[3]}"), range(6)),
                       (GameConfig(board=f"generate:{board_seeds('train')[4]}", heights=True), range(6))):
        game = cfg.build()
        for seed in seeds:
            game.reset(seed=seed)
            rng = np.random.default_rng(seed)
            while not game.done:
                game.step(int(rng.choice(game.legal_actions())))
                _invariants(game)
            assert game.state.g[0, ST.G_DONE] and not game.state.g[0, ST.G_EVOVF]
