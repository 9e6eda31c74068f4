"""The legal-action mask is exact both ways (DESIGN.md section 5), at random states of
random games: every unmasked action applies without an exception (on a clone) and
leaves a state satisfying the invariants; every masked action raises
``IllegalActionError`` and leaves the game bit-for-bit unchanged; out-of-range indices
and any action after the game is over raise too.
"""
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from necro_env.rulesets.necromunda.game import IllegalActionError
from necro_env.rulesets.necromunda.query import is_engaged
from necro_env.rulesets.necromunda.state import clone_state, state_equal

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1",
                                reason="random games on 24x24 boards need the numba JIT")
PROFILE = settings.get_profile("necro-properties")

N_MASKED = 50


def _assert_rejected(game, index, context):
    before = clone_state(game.state)
    mask_before = game.mask.copy()
    try:
        game.step(index)
    except IllegalActionError as e:
        assert e.reason, f"{context}: IllegalActionError without a reason"
    else:
        raise AssertionError(f"{context}: masked index {index} ({game.describe(index)}) was accepted")
    assert state_equal(before, game.state), f"{context}: rejected index {index} changed the state"
    assert np.array_equal(mask_before, game.mask), f"{context}: rejected index {index} changed the mask"


def _random_state(data, game_strategy, game_factory, pick, max_steps=250):
    """A random state: up to ``max_steps`` decisions of a uniform or aggressive random player."""
    board, gangs, seed = data.draw(game_strategy, label="game")
    game = game_factory(board, gangs).reset(seed)
    n = data.draw(st.integers(0, max_steps), label="decisions")
    aggressive = data.draw(st.booleans(), label="aggressive")
    rng = np.random.default_rng(seed)
    for _ in range(n):
        if game.done:
            break
        game.step(pick(game, lambda k: int(rng.integers(k)), aggressive))
    return game, f"{board} {gangs} seed {seed} after {n} decisions (aggressive {aggressive})"


@settings(PROFILE, max_examples=20)
@given(data=st.data())
def test_every_legal_action_applies(data, game_strategy, game_factory, check_invariants, pick):
    """Every unmasked index steps a clone without an exception; the results of the first index
    of each action kind and of up to 40 random others satisfy the invariants."""
    game, ctx = _random_state(data, game_strategy, game_factory, pick)
    before = clone_state(game.state)
    legal = game.legal_actions()
    kinds = np.searchsorted(game.layout, legal, side="right")
    checked = set(np.flatnonzero(np.r_[True, kinds[1:] != kinds[:-1]]))
    if len(legal):
        checked |= set(data.draw(st.lists(st.integers(0, len(legal) - 1), max_size=40), label="checked"))
    else:
        assert game.done, f"{ctx}: no legal action but the game is not over"
    for i, a in enumerate(legal):
        c = game.clone()
        c.step(int(a))
        if i in checked:
            check_invariants(c, f"{ctx}: after legal {game.describe(int(a))}")
    assert state_equal(before, game.state), "stepping clones changed the original game"


@settings(PROFILE, max_examples=25)
@given(data=st.data())
def test_masked_actions_raise_and_change_nothing(data, game_strategy, game_factory, pick):
    """50 random masked indices per state raise IllegalActionError; the game is unchanged."""
    game, ctx = _random_state(data, game_strategy, game_factory, pick)
    masked = np.flatnonzero(~game.mask[0])
    picks = data.draw(st.lists(st.integers(0, len(masked) - 1), min_size=N_MASKED, max_size=N_MASKED),
                      label="masked picks")
    for p in picks:
        _assert_rejected(game, int(masked[p]), ctx)


@settings(PROFILE, max_examples=4)
@given(data=st.data())
def test_all_indices_of_a_state(data, game_strategy, game_factory, pick):
    """The whole action space of a few states: exactly the unmasked indices are accepted."""
    game, ctx = _random_state(data, game_strategy, game_factory, pick)
    legal = set(int(a) for a in game.legal_actions())
    for a in range(game.n_actions):
        if a in legal:
            game.clone().step(a)
        else:
            _assert_rejected(game, a, ctx)


@settings(PROFILE, max_examples=10)
@given(data=st.data())
def test_out_of_range_indices_raise(data, game_strategy, game_factory, pick):
    game, ctx = _random_state(data, game_strategy, game_factory, pick, max_steps=50)
    for a in (-1, -game.n_actions, game.n_actions, game.n_actions + 1, 10**9):
        _assert_rejected(game, a, ctx)


@settings(PROFILE, max_examples=5)
@given(data=st.data())
def test_actions_after_the_game_is_over_raise(data, game_strategy, game_factory, pick):
    """Once the game is over (§2.6) there is no legal action: every index raises."""
    board, gangs, seed = data.draw(game_strategy, label="game")
    game = game_factory(board, gangs).reset(seed)
    rng = np.random.default_rng(seed)
    last_legal = None
    while not game.done:
        last_legal = int(rng.choice(game.legal_actions()))
        game.step(last_legal)
    assert game.legal_actions().size == 0
    for a in [last_legal, 0, game.n_actions - 1, -1, game.n_actions] + list(rng.integers(0, game.n_actions, 30)):
        _assert_rejected(game, int(a), f"game over ({board} {gangs} seed {seed})")


RARE = ("fight_followup", "bottle_check", "voluntary_retreat", "engaged", "prone")


def _rare(game, want):
    kind, _ = game.decision
    if want in ("fight_followup", "bottle_check", "voluntary_retreat"):
        return kind == want
    if kind != "choose_action":
        return False
    f = game.fighter(game.active_fighter)
    if want == "prone":
        return f["posture"] != "standing"
    return f["posture"] == "standing" and bool(is_engaged(game.state, 0, game.active_fighter))


@settings(PROFILE, max_examples=10)
@given(data=st.data())
def test_rare_decisions_are_exact(data, game_strategy, game_factory, pick):
    """The whole action space at a rarer decision (fight follow-up, bottle check, voluntary retreat,
    an Engaged or a Prone active fighter), reached by an aggressive random player when it occurs."""
    board, gangs, seed = data.draw(game_strategy, label="game")
    want = data.draw(st.sampled_from(RARE), label="decision")
    game = game_factory(board, gangs).reset(seed)
    rng = np.random.default_rng(seed)
    while not game.done and not _rare(game, want):
        game.step(pick(game, lambda k: int(rng.integers(k)), True))
    legal = set(int(a) for a in game.legal_actions())
    ctx = f"{board} {gangs} seed {seed} at {want}: {game.decision}"
    for a in range(game.n_actions):
        if a in legal:
            game.clone().step(a)
        else:
            _assert_rejected(game, a, ctx)
