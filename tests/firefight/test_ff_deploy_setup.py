"""Set-up: markers, roll-offs, deployment, Scout and Ambush (rules digest §2.4, §2.5, §10, §13.1, §13 Q23-Q24)."""
import numpy as np
import pytest

from necro_env.rulesets.firefight.game_config import GameConfig
from necro_env.rulesets.firefight.state import G_NOBJ, G_ZONE0

CFG = GameConfig()


@pytest.fixture(scope="module")
def proto():
    return CFG.build()


def _fresh(proto, dice):
    game = proto.clone()
    game.reset(0, dice=dice)
    return game


def _cells(game):
    lay = game.layout
    w = game.board.width
    return {(int(i - lay[2]) % w, int(i - lay[2]) // w) for i in game.legal_actions() if lay[2] <= i < lay[3]}


def test_ff_d3_plus_2_markers_and_the_deployment_rolloff_2_4_2_5(proto):
    game = _fresh(proto, [3, 2, 5])  # D3 = 2; side 0 rolls 2, side 1 rolls 5
    assert int(game.state.g[0, G_NOBJ]) == 4
    assert game.decision == ("choose_edge", 1)
    assert game.events("rolloff")[0].fields["winner"] == 1
    game = _fresh(proto, [6, 4, 4, 1, 3])  # D3 = 3; a tie re-rolls
    assert int(game.state.g[0, G_NOBJ]) == 5 and game.decision == ("choose_edge", 1)


def test_ff_edge_choice_then_the_markers_rolloff_13_1(proto):
    game = _fresh(proto, [1, 2, 5, 6, 1])
    game.act("edge", edge=0)  # side 1 takes edge 0
    assert int(game.state.g[0, G_ZONE0]) == 1
    assert game.decision == ("place_objective", 0)  # side 0 won the markers' roll-off


def test_ff_markers_outside_zones_and_more_than_9_inches_apart_2_4(proto):
    game = _fresh(proto, [1, 2, 5, 6, 1])
    game.act("edge", edge=0)
    cells = _cells(game)
    assert all(12 <= y <= 35 for _, y in cells)  # outside both 12" zones
    game.act("cell", cell=(24, 20))
    assert game.decision == ("place_objective", 1)
    cells = _cells(game)
    assert (24, 31) in cells  # 11 cells: 10" away
    assert (24, 30) not in cells  # 10 cells: 9" is not more than 9"


def _place_markers(game):
    while game.decision[0] == "place_objective":
        game.step(int(game.legal_actions()[0]))


def test_ff_deployment_alternates_from_the_rolloff_winner_in_its_zone_2_5(proto):
    game = _fresh(proto, [1, 2, 5, 6, 1])
    game.act("edge", edge=0)
    _place_markers(game)
    assert game.decision == ("deploy_unit", 1)
    game.act("select", unit=0)
    assert all(y <= 11 for _, y in _cells(game))  # side 1 has edge 0: rows 0-11
    game.step(int(game.legal_actions()[0]))
    assert game.decision == ("deploy_unit", 0)
    game.act("select", unit=0)
    assert all(y >= 36 for _, y in _cells(game))


def _deploy_holding_back(game):
    """Deploy every unit at its first legal cell, holding back the Scout and Ambush units."""
    lay = game.layout
    while game.decision[0] in ("deploy_unit", "deploy_cell"):
        legal = game.legal_actions()
        hold = lay[5]
        game.step(int(hold if hold in legal else legal[0]))


def test_ff_scout_and_ambush_units_may_be_held_back_10(proto):
    game = _fresh(proto, [1, 2, 5, 6, 1])
    game.act("edge", edge=0)
    _place_markers(game)
    game.act("select", unit=0)  # side 1's Warlord has neither rule
    assert not game.can("hold_back")
    game.step(int(game.legal_actions()[0]))
    game.act("select", unit=4)  # side 0's Storm Trooper: Ambush
    assert game.can("hold_back")
    game.act("hold_back")
    assert game.unit((0, 4))["state"] == "ambush_reserve"


def test_ff_scouts_placed_after_deployment_within_12_inches_of_the_zone_10_13_q24(proto):
    game = _fresh(proto, [1, 2, 5, 6, 1] + [3] * 40)
    game.act("edge", edge=0)
    _place_markers(game)
    _deploy_holding_back(game)
    assert game.decision == ("scout_unit", 1)  # the Commando of side 1 (edge 0)
    game.act("select", unit=5)
    cells = _cells(game)
    assert max(y for _, y in cells) == 23 and (10, 23) in cells  # 12" in front of the zone's 12"
    game.act("cell", cell=(10, 23))
    assert game.decision == ("select_unit", 1)  # round 1: the deployment roll-off's winner starts
    assert game.round == 1


def test_ff_ambush_arrives_from_round_2_more_than_9_inches_from_enemies_10(proto):
    game = _fresh(proto, [1, 2, 5, 6, 1])
    game.act("edge", edge=0)
    game.use_generator()
    _place_markers(game)
    _deploy_holding_back(game)
    rng = np.random.default_rng(1)
    while game.decision[0] == "scout_cell" or game.decision[0] == "scout_unit" or game.round == 1:
        game.step(int(rng.choice(game.legal_actions())))
    while game.decision[0] != "ambush_unit" and not game.done:
        game.step(int(rng.choice(game.legal_actions())))
    assert game.round == 2 and game.decision == ("ambush_unit", game.decision[1])
    if game.decision[1] != 0:
        game.act("pass")
    assert game.decision == ("ambush_unit", 0)
    game.act("select", unit=4)
    cells = _cells(game)
    enemy = [c for u in range(game.max_units) for c in game.models((1, u))]
    for x, y in cells:
        assert all((x - ex) ** 2 + (y - ey) ** 2 > 100 for ex, ey in enemy)
    x, y = sorted(cells)[0]
    game.act("cell", cell=(x, y))
    assert game.unit((0, 4))["state"] == "on_table"
    assert game.events("ambush")
