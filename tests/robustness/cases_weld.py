"""Bad inputs met where Necromunda's own code left the generic layers for its ruleset (2026-12-02, issue 56
item 1): a demo player or a showing feature asked of a game that has none is refused in one line naming the
field and the game, and the game is left as it was."""
from __future__ import annotations

import numpy as np

from .catalogue import Case, refused

AREA = "Replays"


def _closing_on_firefight():
    from necro_env import rulesets
    from necro_env.replay.record import closing_policy

    game = rulesets.get("firefight").feature("make_game")({})
    game.reset(0)
    before = [a.copy() for a in game.state]
    text = refused(lambda: closing_policy(game, np.random.default_rng(0)), NotImplementedError)
    assert all((a == b).all() for a, b in zip(before, game.state)), "a refused demo player changed the game"
    return text


def _unknown_feature():
    from necro_env import rulesets

    return refused(lambda: rulesets.get("necromunda").feature("battlelog"), ValueError)


CASES = [
    Case("weld-closing-on-firefight", AREA, "`record(path, ruleset=\"firefight\", policy=closing_policy)` "
         "(Necromunda's demo player)", r"^'demo_players' is not supported by this game yet \(firefight\)$",
         _closing_on_firefight),
    Case("weld-unknown-feature", AREA, "`rulesets.get(\"necromunda\").feature(\"battlelog\")`",
         r"'battlelog' is not an optional field of Ruleset; allowed: .*battle_log, render_image, demo_players",
         _unknown_feature),
]
