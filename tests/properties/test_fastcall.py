"""``core.fastcall.Pinned`` calls the compiled entry point only while the arguments keep the
types they were pinned with, and otherwise goes through numba's dispatcher: same results as the
dispatcher in every case (docs/performance.md, "What was done")."""
import numba
import numpy as np
import pytest

from necro_env.core.fastcall import Pinned


@numba.njit(cache=False)
def _add(tup, k, out):
    out[0] = tup[0][0] + k
    return tup[1][0] * k


def test_same_objects_use_the_entry_point_and_give_the_dispatchers_results():
    a, b = np.array([1.5]), np.array([2], np.int64)
    out = np.zeros(1)
    p = Pinned(_add, fresh=(2,))
    assert p((a, b), 3, out) == 6 and out[0] == 4.5
    entry = p.entry
    assert entry is not None
    tup = (a, b)
    assert p(tup, 4, out) == 8 and out[0] == 5.5  # a new tuple of the same arrays: re-pinned
    assert p(tup, 5, np.zeros(1)) == 10  # fresh output buffer: no re-pin
    assert p.entry is entry and p.pin[0][0] is tup


def test_other_types_go_through_the_dispatcher():
    p = Pinned(_add)
    out = np.zeros(1)
    tup = (np.array([1.0]), np.array([2], np.int64))
    p(tup, 1, out)
    first = p.entry
    # another dtype in the same tuple slot: another overload, the right result
    tup2 = (np.array([1.0]), np.array([2.5]))
    assert p(tup2, 2, out) == 5.0
    assert p.entry is not first
    # a float where an int was: numba's type for it, not the int entry point's conversion
    assert p(tup2, 0.5, out) == 1.25 and out[0] == 1.5
    # a bad argument is numba's typing error, not a crash in the entry point
    with pytest.raises(numba.core.errors.TypingError):
        p(tup2, "x", out)


def test_games_called_in_turns_keep_their_pins_up_to_a_bound():
    """Several argument sets (one per game) stay pinned at once: calling them in turns goes
    through the dispatcher once per set, not on every call; the oldest pin goes beyond MAX_PINS."""
    repins = []

    class Counted(Pinned):
        def _pin(self, args):
            repins.append(args[0])
            return super()._pin(args)

    p = Counted(_add, fresh=(2,))
    tups = [(np.array([float(i)]), np.array([i], np.int64)) for i in range(3)]
    for _ in range(4):
        for i, tup in enumerate(tups):
            out = np.zeros(1)
            assert p(tup, 2, out) == 2 * i and out[0] == i + 2
    assert len(repins) == 3 and len(p.pins) == 3
    more = [(np.array([1.0]), np.array([1], np.int64)) for _ in range(Pinned.MAX_PINS)]
    for tup in more:
        p(tup, 1, np.zeros(1))
    assert len(p.pins) == Pinned.MAX_PINS and id(tups[0]) not in p.pins
    assert p.pin[0][0] is more[-1]
    p(tups[0], 1, np.zeros(1))  # evicted: pinned again, as the newest
    assert len(repins) == 3 + Pinned.MAX_PINS + 1 and p.pin[0][0] is tups[0]


def test_game_steps_match_through_the_pinned_step():
    """Game.step goes through a Pinned engine.step: three games from the same seed, one stepped
    through numba's dispatcher, two through Game.step in turns (each with its own pin), stay in
    the same state after every step."""
    from necro_env.envs.necromunda_env import build_game
    from necro_env.rulesets.necromunda.engine import step as engine_step

    g1, g2, g3 = build_game(), build_game(), build_game()
    for g in (g1, g2, g3):
        g.reset(7)
    rng = np.random.default_rng(0)
    for _ in range(60):
        if g1.done:
            break
        a = int(rng.choice(np.flatnonzero(g1.mask[0])))
        g1.step(a)
        engine_step(g2.state, g2.static, 0, g2.layout, a, g2.mask)
        g3.step(a)
        for x, y, z in zip(g1.state, g2.state, g3.state):
            np.testing.assert_array_equal(x, y)
            np.testing.assert_array_equal(z, y)
        np.testing.assert_array_equal(g1.mask, g2.mask)
        np.testing.assert_array_equal(g3.mask, g2.mask)
