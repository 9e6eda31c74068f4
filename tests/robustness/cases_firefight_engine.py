"""Firefight's game and its config (necro_env/rulesets/firefight/game.py, game_config.py): bad values refused in
one line, the game left as it was."""
from __future__ import annotations

from necro_env.core.errors import IllegalActionError

from .catalogue import Case, refused

AREA = "Firefight game"
_GAME = None


def _game():
    global _GAME
    if _GAME is None:
        from necro_env.rulesets.firefight.game_config import GameConfig
        _GAME = GameConfig().build().reset(1)
    return _GAME.clone()


def _unchanged(fn):
    from necro_env.rulesets.firefight.state import clone_state, state_equal

    game = _game()
    before = clone_state(game.state)
    text = refused(lambda: fn(game), IllegalActionError, ValueError)
    assert state_equal(before, game.state)
    return text


def _config(**kw):
    from necro_env.rulesets.firefight.game_config import GameConfig
    return refused(lambda: GameConfig(**kw), ValueError)


def _from_json():
    from necro_env.rulesets.firefight.game_config import GameConfig
    return refused(lambda: GameConfig.from_json({"lists": [], "bogus": 1}), ValueError)


CASES = [
    Case("ffe-illegal-index", AREA, "`game.step(i)` with a masked index",
         r"^illegal action cell\(\d+\): not legal at the choose_edge decision of side \d$",
         lambda: _unchanged(lambda g: g.step(int(g.layout[2])))),
    Case("ffe-index-range", AREA, "`game.step(-1)`", r"index outside the action space \[0, \d+\)",
         lambda: _unchanged(lambda g: g.step(-1))),
    Case("ffe-bad-cell", AREA, "`game.act('cell', cell=(99, 3))`", r"cell=\(99, 3\); allowed: \(x, y\) on the 48x48",
         lambda: _unchanged(lambda g: g.act("cell", cell=(99, 3)))),
    Case("ffe-unknown-kind", AREA, "`game.act('shoot')`", r"unknown action kind 'shoot'; allowed: select, action",
         lambda: _unchanged(lambda g: g.act("shoot"))),
    Case("ffe-bad-dice", AREA, "`game.script_dice([7])`", r"scripted dice: .*each 1\.\.6; got \[7\]",
         lambda: _unchanged(lambda g: g.script_dice([7]))),
    Case("ffe-config-keep-away", AREA, "`GameConfig(keep_away='friends')`",
         r"^keep_away='friends'; allowed: all, enemy$", lambda: _config(keep_away="friends")),
    Case("ffe-config-rounds", AREA, "`GameConfig(round_limit=0)`", r"^round_limit=0; allowed: a whole number 1\.\.99$",
         lambda: _config(round_limit=0)),
    Case("ffe-config-board", AREA, "`GameConfig(board='generate:abc')`",
         r"^board='generate:abc'; allowed: 'generate:' followed by a whole-number seed$",
         lambda: _config(board="generate:abc")),
    Case("ffe-config-field", AREA, "`GameConfig.from_json({'bogus': 1, ...})`",
         r"^unknown game config field\(s\) 'bogus'; allowed: lists, board", _from_json),
]
