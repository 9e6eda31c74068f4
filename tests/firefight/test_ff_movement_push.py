"""Pushes (rules digest §11.1, §11.3, §13 Q27): a Shaken result lets the attacker roll a D6; on 4+ it may move the
model up to 2" in any direction (decision ``push`` of the attacker's side); a push off 2" or more is a fall."""
from necro_env.rulesets.firefight.testing import board, scenario, unit

OPEN = board("\n".join(["." * 30] * 30))
# the commander's one shot: hit 6, Defense 1 (fails), wound-effect 2 (+1 marker: Shaken), then the push roll
SHAKEN = [6, 1, 2]


def _shoot(dice, b=OPEN, **kw):
    game = scenario(b, [unit("human_defense_force", "commander", cells=[(5, 5)])],
                    [unit("human_defense_force", "storm_trooper", cells=[(5, 15)])], **kw)
    game.activate((0, 0))
    game.act("action", action="hold")
    game.script_dice(dice + [3] * 10)
    game.act("target", target=0)
    return game


def test_ff_push_on_4_plus_after_a_shaken_result_11_1():
    game = _shoot(SHAKEN + [4])
    assert game.events("push_roll")[0].fields == {"die": 4, "ok": 1}
    assert game.decision == ("push", 0)  # the attacker's side decides
    game.act("cell", cell=(5, 17))
    assert game.models((1, 0)) == [(5, 17)]
    assert game.decision == ("select_unit", 1)  # the activation went on (and ended)


def test_ff_no_push_on_3_11_1():
    game = _shoot(SHAKEN + [3])
    assert game.events("push_roll")[0].fields["ok"] == 0 and game.decision == ("select_unit", 1)


def test_ff_push_up_to_2_inches_and_may_be_declined_11_1():
    game = _shoot(SHAKEN + [6])
    assert game.can("cell", cell=(5, 18)) and game.can("cell", cell=(7, 17))  # centre distance 3 and 2.8: 2"
    assert not game.can("cell", cell=(5, 19)) and not game.can("cell", cell=(7, 18))  # 3" and 2.6"
    assert not game.can("cell", cell=(5, 15))  # staying is declining
    game.act("pass")
    assert game.models((1, 0)) == [(5, 15)] and game.events("push")[0].fields["to_cell"] == -1


def test_ff_push_off_a_height_is_a_fall_11_3():
    rows = ["." * 30] * 14 + ["P" * 30] * 3 + ["." * 30] * 13
    hz = ["0" * 30] * 14 + ["3" * 30] * 3 + ["0" * 30] * 13
    game = _shoot(SHAKEN + [5, 1, 1], b=board("\n".join(rows), heights="\n".join(hz)), heights=True)
    game.act("cell", cell=(5, 13))  # off the 3" platform: a fall with AP(1), Defense 1 fails, wound effect 1
    fall = game.events("fall")[0].fields
    assert fall["drop"] == 3 and fall["ap"] == 1
    assert game.models((1, 0)) == [(5, 13)] and game.unit((1, 0))["wounds"] == [2]
