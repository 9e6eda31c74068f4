"""Objective control at the end of each round (rules digest §2.4 items 3-7, §13 Q2)."""
from necro_env.rulesets.firefight.testing import board, scenario, unit

OPEN = board("\n".join(["." * 40] * 40))


def _u(army, name, cell, **kw):
    return unit(army, name, cells=[cell], equipment=["ccw_a1"], **kw)


def _round(game):
    """Every unit holds until the round ends."""
    r = game.round
    while game.round == r and not game.done:
        game.step(int(game.legal_actions()[0]))
        if game.decision[0] == "choose_action":
            game.act("action", action="idle" if game.can("action", action="idle") else "hold")


def _owners(game):
    return [o["owner"] for o in game.objectives()]


def test_ff_unit_within_3_inches_seizes_a_marker_2_4():
    game = scenario(OPEN, [_u("human_defense_force", "commander", (20, 16))],
                    [_u("orc_marauders", "warlord", (2, 37))])
    game.place_objective(20, 20)  # centre distance 4: 3"
    _round(game)
    assert _owners(game) == [0]


def test_ff_unit_at_4_inches_does_not_seize_2_4():
    game = scenario(OPEN, [_u("human_defense_force", "commander", (20, 15))],
                    [_u("orc_marauders", "warlord", (2, 37))])
    game.place_objective(20, 20)  # centre distance 5: 4"
    _round(game)
    assert _owners(game) == [-1]


def test_ff_contested_marker_goes_back_to_neutral_2_4():
    game = scenario(OPEN, [_u("human_defense_force", "commander", (20, 17))],
                    [_u("orc_marauders", "warlord", (20, 23))])
    game.place_objective(20, 20, owner=0)
    _round(game)
    assert _owners(game) == [-1]


def test_ff_marker_stays_controlled_after_units_leave_2_4():
    game = scenario(OPEN, [_u("human_defense_force", "commander", (2, 2))],
                    [_u("orc_marauders", "warlord", (2, 37))])
    game.place_objective(20, 20, owner=1)
    _round(game)
    assert _owners(game) == [1]


def test_ff_shaken_units_neither_seize_nor_contest_2_4():
    game = scenario(OPEN, [_u("human_defense_force", "commander", (20, 17))],
                    [_u("orc_marauders", "warlord", (20, 23), shaken=True)])
    game.place_objective(20, 20)
    game.set_unit((1, 0), activated=True)  # it stays Shaken: its idle activation is spent before
    _round(game)
    assert _owners(game) == [0]


def test_ff_ambush_arrivals_neither_seize_nor_contest_that_round_2_4():
    game = scenario(OPEN, [_u("human_defense_force", "commander", (20, 17))],
                    [_u("orc_marauders", "warlord", (20, 23))], round_=2)
    game.place_objective(20, 20)
    game.set_unit((1, 0), arrived=2)
    _round(game)
    assert _owners(game) == [0]


def test_ff_more_markers_wins_equal_is_a_draw_2_4_13_q2():
    game = scenario(OPEN, [_u("human_defense_force", "commander", (20, 16))],
                    [_u("orc_marauders", "warlord", (2, 37))], round_limit=1)
    game.place_objective(20, 20)
    game.place_objective(35, 35, owner=1)
    game.place_objective(5, 20)
    _round(game)
    assert game.done and game.winner == -1 and game.scores == (1, 1)
    game = scenario(OPEN, [_u("human_defense_force", "commander", (20, 16))],
                    [_u("orc_marauders", "warlord", (2, 37))], round_limit=1)
    game.place_objective(20, 20)
    _round(game)
    assert game.done and game.winner == 0 and game.scores == (1, 0)
