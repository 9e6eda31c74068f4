"""Determinism (DESIGN.md: seeded PCG32 dice, no hidden state outside ``State``):
the same seed and actions give the same (action, events, state) bit for bit on fresh
Game objects, on reused ones and after ``clone()``; different seeds give different
games; a game replayed from its action list reproduces the final state exactly.
"""
import dataclasses
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from necro_env.config import load_board, load_gang, load_scenario
from necro_env.rulesets.necromunda.game import Game
from necro_env.rulesets.necromunda.state import G_EVN, clone_state, state_equal

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1",
                                reason="random games on 24x24 boards need the numba JIT")
PROFILE = settings.get_profile("necro-properties")

MAX_DECISIONS = 400


def fresh_game(board, gangs):
    """A brand-new Game object (not the cached one of ``game_factory``)."""
    if board == "default":
        sc = load_scenario()
        return Game(sc.board, sc.gangs, round_limit=sc.round_limit)
    spec = load_board(f"boards/{board}.yaml")
    doors = spec.doors.copy()
    doors[doors[:, 2] == 1, 2] = 0
    return Game(dataclasses.replace(spec, doors=doors), [load_gang(f"gangs/{g}.yaml") for g in gangs])


def trajectory(game, seed, n=MAX_DECISIONS, actions=None):
    """Play (random actions from a numpy generator seeded with ``seed``, or the given actions)
    and record (action, events, state) after every decision."""
    rng = np.random.default_rng(seed)
    out = [(None, _events(game), clone_state(game.state), game.mask.copy())]
    for k in range(n if actions is None else len(actions)):
        if game.done:
            break
        a = int(rng.choice(game.legal_actions())) if actions is None else actions[k]
        game.step(a)
        out.append((a, _events(game), clone_state(game.state), game.mask.copy()))
    return out


def _events(game):
    return game.state.ev[0, : game.state.g[0, G_EVN]].copy()


def assert_same(t1, t2, what):
    assert len(t1) == len(t2), f"{what}: {len(t1)} vs {len(t2)} decisions"
    for k, ((a1, e1, s1, m1), (a2, e2, s2, m2)) in enumerate(zip(t1, t2)):
        assert a1 == a2, f"{what}: action {k} differs"
        assert np.array_equal(e1, e2), f"{what}: events of decision {k} differ"
        assert state_equal(s1, s2), f"{what}: state after decision {k} differs"
        assert np.array_equal(m1, m2), f"{what}: mask after decision {k} differs"


@settings(PROFILE, max_examples=8)
@given(data=st.data())
def test_same_seed_same_game_on_fresh_objects(data, game_strategy):
    board, gangs, seed = data.draw(game_strategy, label="game")
    t1 = trajectory(fresh_game(board, gangs).reset(seed), seed)
    t2 = trajectory(fresh_game(board, gangs).reset(seed), seed)
    assert_same(t1, t2, f"{board} {gangs} seed {seed}")


@settings(PROFILE, max_examples=8)
@given(data=st.data())
def test_reset_of_a_used_game_equals_a_fresh_game(data, game_strategy, game_factory):
    """reset(seed) leaves nothing behind from an earlier game."""
    board, gangs, seed = data.draw(game_strategy, label="game")
    other = data.draw(st.integers(0, 2**32 - 1), label="other seed")
    used = game_factory(board, gangs)
    trajectory(used.reset(other), other, n=200)
    assert_same(trajectory(used.reset(seed), seed), trajectory(fresh_game(board, gangs).reset(seed), seed),
                f"{board} {gangs} seed {seed} (used game first played seed {other})")


@settings(PROFILE, max_examples=10)
@given(data=st.data())
def test_clone_continues_identically_and_independently(data, game_strategy, game_factory):
    board, gangs, seed = data.draw(game_strategy, label="game")
    k = data.draw(st.integers(0, 200), label="clone after")
    game = game_factory(board, gangs).reset(seed)
    rng = np.random.default_rng(seed)
    for _ in range(k):
        if game.done:
            break
        game.step(rng.choice(game.legal_actions()))
    snapshot = clone_state(game.state)
    c = game.clone()
    assert state_equal(c.state, game.state) and np.array_equal(c.mask, game.mask)
    t_clone = trajectory(c, seed + 1, n=200)
    assert state_equal(snapshot, game.state), "playing the clone changed the original"
    actions = [a for a, *_ in t_clone[1:]]
    t_orig = trajectory(game, seed + 1, actions=actions)
    assert_same(t_orig, t_clone, f"{board} {gangs} seed {seed} clone after {k}")


@settings(PROFILE, max_examples=8)
@given(data=st.data())
def test_replay_from_the_action_list(data, game_strategy, game_factory):
    """A whole game replayed from its seed and action list ends in the same state."""
    board, gangs, seed = data.draw(game_strategy, label="game")
    game = game_factory(board, gangs).reset(seed)
    t = trajectory(game, seed, n=100_000)
    assert game.done
    final = clone_state(game.state)
    actions = [a for a, *_ in t[1:]]
    replay = fresh_game(board, gangs).reset(seed)
    for a in actions:
        replay.step(a)
    assert replay.done
    assert state_equal(final, replay.state)
    assert replay.winner == game.winner and replay.truncated == game.truncated


def test_different_seeds_give_different_games(game_factory):
    """Usually: of 10 seed pairs, at least 9 differ in deployment or in the first 50 decisions."""
    for board, gangs in (("default", ()), ("zm_cross", ("escher", "van_saar", "goliath"))):
        differ = 0
        for seed in range(10):
            g = game_factory(board, gangs)
            t1 = trajectory(g.reset(seed), seed, n=50)
            t2 = trajectory(g.reset(seed + 1000), seed, n=50)
            if len(t1) != len(t2) or any(not state_equal(x[2], y[2]) for x, y in zip(t1, t2)):
                differ += 1
        assert differ >= 9, f"{board}: only {differ} of 10 seed pairs gave different games"

