"""Heights (rules digest §4.3 special movement, as §11 gives it: §11.2 jumping, §11.3 falling, §12.1: a board with heights; §13 Q25, Q26).

A step may climb 1" (a ramp), drop up to 3" freely, or drop 4"-6" as a jump: X + 1 dice (X = full 3" of the
drop), each 3+ (Strider 2+). A failed jump is a fall at the foot of the drop, and the activation ends.
"""
from necro_env.rulesets.firefight.testing import board, scenario, unit

W = 30


def _board(z, ramp=False):
    rows = ["P" * 6 + "." * (W - 6)] * W
    hz = ["".join(format(z if x < 6 else (1 if ramp and x == 6 and z == 2 else 0), "x") for x in range(W))] * W
    if ramp:
        rows = ["P" * 7 + "." * (W - 7)] * W
    return board("\n".join(rows), heights="\n".join(hz))


def _game(z, rules=None, cells=((5, 15),), name="commander", heights=True, ramp=False):
    game = scenario(_board(z, ramp), [unit("human_defense_force", name, cells=list(cells), rules=rules)],
                    [unit("orc_marauders", "warlord", cells=[(W - 1, W - 1)])], heights=heights)
    game.activate((0, 0))
    game.act("action", action="rush")
    return game


def test_ff_free_drop_up_to_3_inches_11_2():
    game = _game(3)
    assert game.can("cell", cell=(8, 15))
    game.act("cell", cell=(8, 15))
    assert game.models((0, 0)) == [(8, 15)] and not game.events("jump")


def test_ff_drop_over_6_inches_is_not_allowed_13_q25():
    game = _game(7)
    assert not game.can("cell", cell=(8, 15))
    assert _game(6).can("cell", cell=(8, 15))


def test_ff_climbing_needs_a_ramp_11_2():
    rows = ["." * 6 + "P" * (W - 6)] * W
    hz = ["0" * 6 + "2" * (W - 6)] * W
    game = scenario(board("\n".join(rows), heights="\n".join(hz)),
                    [unit("human_defense_force", "commander", cells=[(5, 15)])],
                    [unit("orc_marauders", "warlord", cells=[(W - 1, W - 1)])], heights=True)
    game.activate((0, 0))
    game.act("action", action="rush")
    assert not game.can("cell", cell=(7, 15))  # a 2" step up
    hz = ["0" * 6 + "1" + "2" * (W - 7)] * W
    game = scenario(board("\n".join(rows), heights="\n".join(hz)),
                    [unit("human_defense_force", "commander", cells=[(5, 15)])],
                    [unit("orc_marauders", "warlord", cells=[(W - 1, W - 1)])], heights=True)
    game.activate((0, 0))
    game.act("action", action="rush")
    assert game.can("cell", cell=(7, 15))  # up the 1" ramp


def test_ff_jump_of_5_inches_rolls_2_dice_needing_3_11_2():
    game = _game(5)
    game.script_dice([3, 3])
    game.act("cell", cell=(8, 15))
    jump = game.events("jump")[0].fields
    assert jump["dice"] == 2 and jump["ok"] == 1 and jump["drop"] == 5
    assert game.models((0, 0)) == [(8, 15)] and not game.events("fall")


def test_ff_failed_jump_falls_at_the_foot_and_ends_the_activation_11_3():
    game = _game(5)
    game.script_dice([3, 2, 1])  # the second die fails; the fall's hit: Defense 1 fails
    game.act("cell", cell=(8, 15))
    fall = game.events("fall")[0].fields
    assert fall["drop"] == 5 and fall["ap"] == 1
    assert game.models((0, 0)) == [(6, 15)]  # the foot of the drop
    assert game.unit((0, 0))["wounds"] == [1]
    assert game.decision == ("select_unit", 1)  # no shooting after the fall: the activation ended


def test_ff_strider_jumps_on_2_11_2():
    game = _game(5, rules={"Strider": 0})
    game.script_dice([2, 2])
    game.act("cell", cell=(8, 15))
    assert game.events("jump")[0].fields["ok"] == 1 and not game.events("fall")


def test_ff_fall_kills_a_model_outright_in_a_multi_model_unit_11_3():
    game = _game(5, name="infantry_squad", cells=((5, 14), (5, 15), (5, 16)))
    game.script_dice([1, 3] + [6] * 10)
    game.act("cell", cell=(8, 15))
    falls = game.events("fall")
    assert falls and falls[0].fields["killed"] == 1
    assert game.unit((0, 0))["alive"] == 2


def test_ff_flat_board_default_ignores_heights_12_1():
    game = _game(7, heights=False)
    assert game.can("cell", cell=(8, 15))
    game.act("cell", cell=(8, 15))
    assert not game.events("jump")


def _gap_game(width):
    rows = ["P" * 6 + "." * width + "P" * (W - 6 - width)] * W
    hz = ["3" * 6 + "0" * width + "3" * (W - 6 - width)] * W
    game = scenario(board("\n".join(rows), heights="\n".join(hz)),
                    [unit("human_defense_force", "commander", cells=[(5, 15)])],
                    [unit("orc_marauders", "warlord", cells=[(W - 1, W - 1)])], heights=True)
    game.activate((0, 0))
    game.act("action", action="rush")
    return game


def test_ff_a_1_inch_gap_is_crossed_by_a_normal_move_11_2():
    game = _gap_game(1)
    game.act("cell", cell=(8, 15))
    assert game.models((0, 0)) == [(8, 15)] and not game.events("jump")


def test_ff_a_3_inch_gap_is_a_jump_of_2_dice_11_2():
    game = _gap_game(3)
    game.script_dice([4, 4])
    game.act("cell", cell=(10, 15))
    jump = game.events("jump")[0].fields
    assert jump["dice"] == 2 and jump["ok"] == 1 and jump["distance"] == 3
    assert game.models((0, 0)) == [(10, 15)]


def test_ff_failed_gap_jump_falls_into_the_gap_11_3():
    game = _gap_game(3)
    game.script_dice([4, 1, 6])  # the second die fails; the fall (3": AP 1) is blocked on a 6
    game.act("cell", cell=(10, 15))
    fall = game.events("fall")[0].fields
    assert fall["drop"] == 3 and fall["ap"] == 1
    assert game.models((0, 0)) == [(6, 15)]
