"""The scenario API's ``game.activate`` (docs/testing.md): a fighter its gang's select decision would
not offer is refused in one line naming it, and the game is left as it was (state and mask).
"""
from __future__ import annotations

import numpy as np

from .catalogue import Case, refused

AREA = "Scenario API (necro_env.testing)"


def _game():
    from necro_env.testing import board, fighter, gang, scenario

    b = board("......\n......")
    return scenario(b, [gang("a", fighter("orlock", "ganger", name="a")),
                        gang("b", fighter("orlock", "ganger", name="b"))],
                    [dict(fighter="a", cell=(0, 0)), dict(fighter="b", cell=(5, 1))])


def _refused_unchanged(prepare, call):
    """Refusal text of ``call(game)`` after ``prepare(game)``; asserts that the game did not change."""
    game = _game()
    prepare(game)
    state = [a.copy() for a in game.state]
    mask = game.mask.copy()
    text = refused(lambda: call(game), ValueError)
    assert all(np.array_equal(x, y) for x, y in zip(game.state, state)), "activate() changed the state"
    assert np.array_equal(game.mask, mask), "activate() changed the mask"
    return text


def _take_out(game):
    from necro_env.rulesets.necromunda.state import FI_STATE, FS_OOA

    game.state.fi[0, game.fid("a"), FI_STATE] = FS_OOA


CASES = [
    Case("activate-out-of-action", AREA, "`game.activate(\"a\")` for a fighter that is Out of Action",
         r"activate\('a'\): fighter \(0, 0\) is out_of_action; only a fighter on the battlefield can be selected",
         lambda: _refused_unchanged(_take_out, lambda g: g.activate("a"))),
    Case("activate-bad-priority", AREA, "`game.activate(\"a\", priority=5)` in a two-gang game",
         r"activate\('a'\): priority=5; allowed: a gang index 0\.\.1",
         lambda: _refused_unchanged(lambda g: None, lambda g: g.activate("a", priority=5))),
    Case("activate-index-out-of-range", AREA, "`game.activate(99)` with 8 fighter slots",
         r"activate\(99\): fighter index 99 is outside 0\.\.\d+",
         lambda: _refused_unchanged(lambda g: None, lambda g: g.activate(99))),
]
