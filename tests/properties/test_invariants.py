"""State invariants after every decision of random games (hypothesis picks the seed,
the board, the gangs (2-4) and each action among the legal ones).

Invariants checked (``invariant_violations`` in conftest.py): no two fighters on one
cell; no fighter on a wall, obstacle, closed/locked door or loot casket (§6.3, §6.8,
§6.10) or off the board; wounds in [0, W]; flesh wounds >= 0 and Toughness > 0 on
the battlefield (§9.4); posture Standing / Pinned / Seriously Injured; never Prone and
Pinned and Engaged (§4.1); Ready only on the battlefield; 0-2 actions left (§2.3);
the active fighter belongs to the deciding gang; a legal action exists unless the game
is over (and none after); no event-buffer overflow; the round never passes the limit;
the game ends (§2.6).
"""
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from necro_env.rulesets.necromunda.state import G_NDEC, G_ROUND, G_WINNER

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1",
                                reason="random games on 24x24 boards need the numba JIT")
PROFILE = settings.get_profile("necro-properties")

MAX_DECISIONS = 400


def _play_checked(game, check, choose, n, context):
    """Make up to n decisions with ``choose(game)``, checking invariants after each one."""
    check(game, f"{context} after reset")
    last_round = game.round
    for k in range(n):
        if game.done:
            break
        a = choose(game)
        ndec = int(game.state.g[0, G_NDEC])
        game.step(a)
        check(game, f"{context} after decision {k} ({game.describe(a) if not game.done else a})")
        assert int(game.state.g[0, G_NDEC]) == ndec + 1
        assert game.round >= last_round, "§2.1 rounds never go backwards"
        last_round = game.round
        game.events()  # decodes, raises if the buffer overflowed
    return game


@settings(PROFILE, max_examples=40)
@given(data=st.data())
def test_invariants_hold_after_every_decision(data, game_strategy, game_factory, check_invariants, pick):
    """Hypothesis chooses seed, board, gangs, the player (uniform or aggressive) and every action index."""
    board, gangs, seed = data.draw(game_strategy, label="game")
    aggressive = data.draw(st.booleans(), label="aggressive")
    game = game_factory(board, gangs).reset(seed)

    def choose(g):
        return pick(g, lambda n: data.draw(st.integers(0, n - 1)), aggressive)

    _play_checked(game, check_invariants, choose, MAX_DECISIONS, f"{board} {gangs} seed {seed} aggr {aggressive}")


def _full_game(game, seed, check, pick, aggressive=False):
    rng = np.random.default_rng(seed)
    cap = game.round_limit * 400
    deciders = set()
    game.reset(seed)
    check(game, "after reset")
    k = 0
    while not game.done:
        assert k < cap, f"game not over after {cap} decisions (round {game.round})"
        deciders.add(game.current_gang)
        game.step(pick(game, lambda n: int(rng.integers(n)), aggressive))
        check(game, f"seed {seed} after decision {k}")
        k += 1
    return deciders, k


@settings(PROFILE, max_examples=6)
@given(data=st.data())
def test_random_games_end_within_the_cap(data, game_strategy, game_factory, check_invariants, pick):
    """§2.6: every game ends, by elimination or the round limit, within round_limit x 400 decisions."""
    board, gangs, seed = data.draw(game_strategy, label="game")
    game = game_factory(board, gangs)
    _, k = _full_game(game, seed, check_invariants, pick, data.draw(st.booleans(), label="aggressive"))
    assert game.done and k > 0
    ng = len(game.gangs)
    assert -1 <= game.state.g[0, G_WINNER] < ng
    if game.truncated:
        assert game.winner == -1 and game.round == game.round_limit
    assert game.legal_actions().size == 0


@pytest.mark.parametrize("board", ["zm_corridors", "zm_hall", "zm_cross"])
@pytest.mark.parametrize("gangs", [("orlock", "goliath", "escher"), ("van_saar", "escher", "orlock", "goliath")],
                         ids=["3gangs", "4gangs"])
def test_three_and_four_gang_games(board, gangs, game_factory, check_invariants, pick):
    """§2.3: with N gangs every gang takes its turns; the game still ends and all invariants hold."""
    game = game_factory(board, gangs)
    seen = set()
    for seed in (11, 12):
        deciders, _ = _full_game(game, seed, check_invariants, pick, aggressive=seed == 12)
        seen |= deciders
        assert game.done
    assert seen == set(range(len(gangs)))


def test_round_limit_truncates(game_factory, check_invariants):
    """§2.6: a round limit of 1 ends the game after the first End phase as a draw (unless a gang was wiped out)."""
    game = game_factory("default", (), round_limit=1).reset(3)
    rng = np.random.default_rng(3)
    while not game.done:
        assert game.state.g[0, G_ROUND] == 1
        game.step(rng.choice(game.legal_actions()))
        check_invariants(game, "round limit 1")
    assert game.truncated and game.winner == -1 and game.round == 1


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(10))
def test_soak_full_games_with_invariants(chunk, game_factory, check_invariants, pick):
    """Soak (run with -m slow): 300 full random games over every board and 2-4 gangs, invariants after each decision."""
    boards = ("zm_corridors", "zm_hall", "zm_cross")
    gangs = ("orlock", "goliath", "escher", "van_saar")
    for i in range(30):
        seed = 100_000 + chunk * 30 + i
        r = np.random.default_rng(seed)
        cfg = ("default", ()) if i % 4 == 0 else (
            boards[r.integers(3)], tuple(gangs[k] for k in r.integers(0, 4, int(r.integers(2, 5)))))
        _full_game(game_factory(*cfg), seed, check_invariants, pick, aggressive=i % 2 == 1)
