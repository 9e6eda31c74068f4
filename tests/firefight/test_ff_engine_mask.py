"""Mask exactness and invariants over random games (DESIGN.md §5, §10; rules digest §4.1, §12.2).

Every legal index steps without error; every illegal index raises IllegalActionError and leaves the game as it
was; after every step no two models share a cell, none stands in impassable terrain, and every unit that moved
in the step without losing a model is coherent (§4.1: after any move).
"""
import numpy as np
import pytest

from necro_env.core.errors import IllegalActionError
from necro_env.rulesets.firefight.constants import TF_IMPASSABLE, US_ON
from necro_env.rulesets.firefight.game_config import GameConfig
from necro_env.rulesets.firefight.grid import unit_coherent
from necro_env.rulesets.firefight.state import M_ALIVE, M_X, M_Y, U_N, U_STATE, state_equal, clone_state


def _invariants(game, before_n):
    s = game.state
    seen = set()
    for u in range(s.u.shape[1]):
        if s.u[0, u, U_STATE] != US_ON:
            continue
        for i in range(s.m.shape[2]):
            if s.m[0, u, i, M_ALIVE]:
                cell = (int(s.m[0, u, i, M_X]), int(s.m[0, u, i, M_Y]))
                assert cell not in seen, f"two models in {cell}"
                seen.add(cell)
                assert not game.static.flags[cell[1], cell[0]] & TF_IMPASSABLE, f"a model in impassable {cell}"
    moved = {e.actor for e in game.events("move")}
    for u in moved:
        if s.u[0, u, U_STATE] == US_ON and s.u[0, u, U_N] == before_n[u] and not game.events("fall"):
            assert unit_coherent(s, 0, u), f"unit {u} incoherent after its move"


@pytest.mark.parametrize("board,seed,heights", [("firefight/boards/ruined_city.yaml", 1, False), ("generate:5", 2, False),
                                                ("firefight/boards/industrial_yard.yaml", 3, True)])
def test_ff_mask_is_exact_over_random_games_5(board, seed, heights):
    game = GameConfig(board=board, heights=heights).build().reset(seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while not game.done:
        legal = game.legal_actions()
        assert len(legal) > 0, game.decision
        illegal = np.setdiff1d(rng.integers(0, game.n_actions, 12), legal)
        snap = clone_state(game.state)
        for a in illegal:
            with pytest.raises(IllegalActionError):
                game.step(int(a))
            assert state_equal(snap, game.state)
        if steps % 15 == 0:
            for a in legal[:: max(1, len(legal) // 25)]:
                game.clone().step(int(a))
        before = game.state.u[0, :, U_N].copy()
        game.step(int(rng.choice(legal)))
        _invariants(game, before)
        steps += 1
    assert steps > 50 and game.round == 4


def test_ff_same_seed_same_game_3():
    def play(seed):
        game = GameConfig().build().reset(seed)
        rng = np.random.default_rng(0)
        while not game.done:
            game.step(int(rng.choice(game.legal_actions())))
        return game.state
    a, b = play(7), play(7)
    assert state_equal(a, b)
