"""Rounds and alternating activations (rules digest §3, §13 Q29) and the end of a round (§3 SUGGESTION order)."""
import pytest

from necro_env.core.errors import IllegalActionError
from necro_env.rulesets.firefight.testing import board, scenario, unit

OPEN = board("\n".join(["." * 40] * 40))


def _melee_only(army, name, cell):
    return unit(army, name, cells=[cell], equipment=["ccw_a1"])


def _game(n0, n1, first=0, **kw):
    s0 = [_melee_only("human_defense_force", "commander", (2 + 4 * i, 2)) for i in range(n0)]
    s1 = [_melee_only("orc_marauders", "warlord", (2 + 4 * i, 37)) for i in range(n1)]
    return scenario(OPEN, s0, s1, first=first, **kw)


def _hold(game):
    """The side on turn activates its first unit that may, and holds."""
    side = game.decision[1]
    game.step(int(game.legal_actions()[0]))
    game.act("action", action="hold")
    return side


def test_ff_sides_alternate_activations_3():
    game = _game(2, 2)
    assert [_hold(game) for _ in range(4)] == [0, 1, 0, 1]


def test_ff_a_unit_activates_once_per_round_3():
    game = _game(2, 2)
    game.act("select", unit=0)
    game.act("action", action="hold")
    _hold(game)
    assert not game.can("select", unit=0) and game.can("select", unit=1)
    with pytest.raises(IllegalActionError):
        game.act("select", unit=0)


def test_ff_side_with_units_left_activates_the_rest_13_q29():
    game = _game(1, 3)
    assert [_hold(game) for _ in range(4)] == [0, 1, 1, 1]
    assert game.round == 2


def test_ff_next_round_starts_with_the_side_that_finished_first_3():
    game = _game(1, 3)
    for _ in range(4):
        _hold(game)
    assert game.round == 2 and game.decision == ("select_unit", 0)
    game = _game(3, 1)
    order = [_hold(game) for _ in range(4)]
    assert order == [0, 1, 0, 0]
    assert game.round == 2 and game.decision == ("select_unit", 1)  # side 1 ran out first


def test_ff_round_end_order_objectives_then_morale_then_fatigue_3():
    game = _game(1, 1, round_limit=4)
    game.place_objective(20, 20)
    game.set_unit((0, 0), fatigued=True)
    _hold(game)
    _hold(game)
    kinds = [e.kind for e in game.events()]
    assert kinds.index("objective_control") < kinds.index("round_end") < kinds.index("round")
    assert not game.unit((0, 0))["fatigued"]


def test_ff_game_ends_after_the_round_limit_2_4():
    game = _game(1, 1, round_limit=4)
    for _ in range(8):
        assert not game.done
        _hold(game)
    assert game.done and game.round == 4
    assert game.events("game_end")[0].fields["winner"] == -1  # no markers: a draw (§13 Q2)
    with pytest.raises(IllegalActionError):
        game.step(0)
