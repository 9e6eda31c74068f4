"""Bad inputs met where Necromunda's reward terms left the generic reward options for its ruleset (2026-12-02,
issue 56 item 1): casualty shaping asked of a game whose ruleset has no casualty potential is refused in one line
naming the field and the game, and the game is left as it was."""
from __future__ import annotations

from .catalogue import Case, refused

AREA = "Training config"


def _casualty_shaping_on_firefight():
    from necro_env import rulesets
    from necro_env.envs.rewards import RewardSpec

    game = rulesets.get("firefight").feature("make_game")({})
    game.reset(0)
    before = [a.copy() for a in game.state]
    text = refused(lambda: RewardSpec(out_of_action=1.0).casualty_value(game, 0), NotImplementedError)
    assert all((a == b).all() for a, b in zip(before, game.state)), "a refused shaping changed the game"
    return text


CASES = [
    Case("weld2-casualty-shaping-on-firefight", AREA, "`RewardSpec(out_of_action=1.0).casualty_value(game, 0)` "
         "on a Firefight game", r"^'reward_potential' is not supported by this game yet \(firefight\)$",
         _casualty_shaping_on_firefight),
]
