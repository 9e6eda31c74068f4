"""Rollouts on the batched core (``BatchedGames.load / reseed / rollout``, kernel op
``OP_ROLLOUT``): a loaded game's futures are exactly what single games stepped by the same
policies with the same dice give, a finished future is left finished, and bad input is
refused with nothing changed. The search agent (agents/search.py) is built on them."""
import numpy as np
import pytest

from necro_env.batch import BatchedGames
from necro_env.core.rng import seed_game
from necro_env.envs.rewards import RewardSpec
from necro_env.policies.heuristics import aggressor_action, gunline_action
from necro_env.rulesets.necromunda.game import IllegalActionError
from necro_env.rulesets.necromunda.state import G_DONE, state_equal, state_slice

KERNELS = {"gunline": gunline_action, "aggressor": aggressor_action}
VALUE = RewardSpec(win=8.0, loss=-8.0, draw=-1.0, out_of_action=1.0, seriously_injured=0.5, flesh_wound=0.1,
                   own_losses=1.0)


def midgame(game, seed=7, n=60):
    """A game of the default scenario after n decisions of gunline play on both sides."""
    g = game.clone().reset(seed)
    prng = np.zeros((1, 2), np.uint64)
    seed_game(prng, 0, np.uint64(99))
    for _ in range(n):
        g.step(int(gunline_action(g.state, g.static, 0, g.layout, g.mask, prng)))
    assert not g.done
    return g


def single_future(g, dice, players, first, n, gang, own, other):
    """The same future played on a single Game: returns (game, decisions)."""
    h = g.clone()
    seed_game(h.state.rng, 0, np.uint64(dice))
    prng = np.zeros((1, 2), np.uint64)
    seed_game(prng, 0, np.uint64(players))
    h.step(first)
    k = 1
    for _ in range(n):
        if h.done:
            break
        pol = own if h.current_gang == gang else other
        h.step(int(KERNELS[pol](h.state, h.static, 0, h.layout, h.mask, prng)))
        k += 1
    return h, k


def test_rollout_matches_single_games_played_by_the_same_policies_with_the_same_dice(game2):
    g = midgame(game2)
    gang = g.current_gang
    first = int(aggressor_action(g.state, g.static, 0, g.layout, g.mask, np.ones((1, 2), np.uint64)))
    dice, players = [11, 12, 13], [21, 22, 23]
    others = ["aggressor", "gunline", "aggressor"]
    core = BatchedGames(game2, 3).load(g).reseed(dice, players)
    values, dones, winners, n = core.rollout(first, 40, gang, "gunline", others, VALUE)
    for b in range(3):
        h, k = single_future(g, dice[b], players[b], first, 40, gang, "gunline", others[b])
        assert state_equal(state_slice(core.state, b), h.state)
        assert np.array_equal(core.mask[b], h.mask[0])
        assert n[b] == k and dones[b] == h.done and winners[b] == h.winner
        want = VALUE.terminal(h, gang) if h.done else VALUE.casualty_value(h, gang)
        assert values[b] == pytest.approx(want, abs=1e-5)
    # the three futures differ (other dice, other opponents), so the comparison above is not vacuous
    assert not state_equal(state_slice(core.state, 0), state_slice(core.state, 2))


def test_rollout_leaves_a_finished_game_finished_and_scores_its_result(game2):
    g = game2.clone().reset(3)
    core = BatchedGames(game2, 2).load(g).reseed([1, 2], [3, 4])
    values, dones, winners, n = core.rollout(-1, 5000, 0, "aggressor", "aggressor", VALUE)
    assert dones.all() and (core.state.g[:, G_DONE] == 1).all()  # not auto-reset
    for b in range(2):
        h = core.game.clone()
        for dst, src in zip(h.state, core.state):
            dst[0] = src[b]
        assert winners[b] == h.winner
        assert values[b] == VALUE.terminal(h, 0) and values[b] in (8.0, -8.0, -1.0)
    # a finished game takes no more decisions
    _, _, _, n2 = core.rollout(-1, 10, 0, "gunline", "gunline")
    assert (n2 == 0).all()


def test_load_copies_the_game_and_rollouts_leave_the_game_itself_unchanged(game2):
    g = midgame(game2, seed=5, n=20)
    before = g.clone()
    core = BatchedGames(game2, 2).load(g)
    for b in range(2):
        assert state_equal(state_slice(core.state, b), g.state) and np.array_equal(core.mask[b], g.mask[0])
    core.reseed([5, 6])
    core.rollout(-1, 30, 0, "random", "gunline")
    assert state_equal(g.state, before.state) and np.array_equal(g.mask, before.mask)


def test_rollout_refuses_bad_input_and_changes_nothing(game2):
    g = midgame(game2, seed=4, n=10)
    core = BatchedGames(game2, 2).load(g)
    snap = [state_slice(core.state, b) for b in range(2)]
    illegal = int(np.flatnonzero(~g.mask[0])[0])
    with pytest.raises(IllegalActionError, match="game 0"):
        core.rollout(illegal, 10, 0, "gunline", "gunline")
    with pytest.raises(ValueError, match="unknown policy"):
        core.rollout(-1, 10, 0, "sniper", "gunline")
    with pytest.raises(ValueError, match="external"):
        core.rollout(-1, 10, 0, "gunline", "external")
    with pytest.raises(ValueError, match="gang"):
        core.rollout(-1, 10, 2, "gunline", "gunline")
    with pytest.raises(ValueError, match="3 dice seeds for 2 games"):
        core.reseed([1, 2, 3])
    for b in range(2):
        assert state_equal(state_slice(core.state, b), snap[b])


def test_load_refuses_a_game_of_another_set_up(game2, game3):
    core = BatchedGames(game2, 2)
    with pytest.raises(ValueError, match="do not match"):
        core.load(game3.clone().reset(0))
