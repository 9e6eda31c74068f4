"""The Python Game of Firefight: config, reset, step, mask, clone, events (DESIGN.md §2, §5, §7, §11)."""
import json

import numpy as np
import pytest

from necro_env.core import header as H
from necro_env.core.errors import IllegalActionError
from necro_env.rulesets.firefight import state as S
from necro_env.rulesets.firefight.game_config import GameConfig
from necro_env.rulesets.firefight.ruleset import RULESET


def test_ff_state_header_matches_the_shared_header_11():
    for name, col in H.HEADER.items():
        assert getattr(S, "G_" + {"deciding_player": "DPLAYER", "decision_kind": "DK", "n_players": "NPLAYERS",
                                   "events": "EVN", "events_overflowed": "EVOVF", "truncated": "TRUNC",
                                   "decisions": "NDEC"}.get(name, name.upper())) == col
    assert set(H.COMMON_ARRAYS) <= set(S.State._fields) and S.State._fields[0] == "g"


def test_ff_state_fits_32_kb_per_game_at_the_starter_armies_2():
    game = GameConfig().build()
    size = sum(a[0].nbytes for a in game.state)
    print(f"Firefight state per game: {size} bytes")
    assert size <= 32 * 1024


def test_ff_config_json_round_trip_11():
    cfg = GameConfig(board="generate:3", keep_away="enemy", heights=True)
    data = json.loads(json.dumps(cfg.to_json()))
    assert GameConfig.from_json(data) == cfg
    assert RULESET.config_from_json(data) == cfg
    game = cfg.build()
    assert RULESET.config_json(game) == cfg.to_json()
    assert sum(k.size for k in RULESET.action_kinds(game)) == game.n_actions


def test_ff_reset_reaches_the_first_decision_and_logs_it_2_5():
    game = GameConfig().build().reset(4)
    assert game.decision[0] == "choose_edge" and list(game.legal_actions()) == list(game.layout[8] + np.arange(2))
    assert "roll-off" in game.battle_log()[0]


def test_ff_clone_is_independent_2():
    game = GameConfig().build().reset(1)
    twin = game.clone()
    game.step(int(game.legal_actions()[0]))
    assert twin.decision[0] == "choose_edge" and game.decision[0] != "choose_edge"
    twin.step(int(twin.legal_actions()[0]))
    assert S.state_equal(twin.state, game.state)


def test_ff_illegal_action_names_the_action_and_changes_nothing_5():
    game = GameConfig().build().reset(1)
    before = S.clone_state(game.state)
    with pytest.raises(IllegalActionError, match=r"illegal action cell\(\d+\): not legal at the choose_edge"):
        game.step(int(game.layout[2]))
    assert S.state_equal(before, game.state)
    with pytest.raises(IllegalActionError, match="outside the action space"):
        game.step(game.n_actions)
