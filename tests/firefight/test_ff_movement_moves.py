"""Movement rules of Grimdark Future: Firefight (rules digest ../shared/rules/firefight.md §3.1, §4, §9, §10, §12).

Distances on the grid (§12.2): one cell is 1"; a straight step costs 1", a diagonal one 1.4"; two models are
"within X"" when their centre distance is at most X + 1 cells.
"""
import pytest

from necro_env.core.errors import IllegalActionError
from necro_env.rulesets.firefight.testing import board, scenario, unit

OPEN = board("\n".join(["." * 40] * 40))


def _far_enemy():
    return [unit("orc_marauders", "warlord", cells=[(39, 39)])]


def _one(rules=None, cell=(5, 20), b=OPEN, army="human_defense_force", name="commander", enemy=None, **kw):
    game = scenario(b, [unit(army, name, cells=[cell], rules=rules)], enemy or _far_enemy(), **kw)
    game.activate((0, 0))
    return game


def _cells(game):
    lay = game.layout
    return {(int(i - lay[2]) % game.board.width, int(i - lay[2]) // game.board.width)
            for i in game.legal_actions() if lay[2] <= i < lay[3]}


def test_ff_advance_reaches_6_inches_not_7_3_1():
    game = _one()
    game.act("action", action="advance")
    cells = _cells(game)
    assert (11, 20) in cells and (12, 20) not in cells  # 6 straight steps, not 7
    assert (5, 26) in cells and (5, 27) not in cells


def test_ff_rush_fast_adds_4_inches_3_1():
    game = _one(rules={"Fast": 0})
    game.act("action", action="rush")
    cells = _cells(game)
    assert (21, 20) in cells and (22, 20) not in cells  # 12 + 4 = 16"


def test_ff_advance_fast_adds_2_slow_takes_2_3_1():
    fast = _one(rules={"Fast": 0})
    fast.act("action", action="advance")
    assert (13, 20) in _cells(fast) and (14, 20) not in _cells(fast)
    slow = _one(rules={"Slow": 0})
    slow.act("action", action="advance")
    assert (9, 20) in _cells(slow) and (10, 20) not in _cells(slow)


def test_ff_rush_slow_takes_4_inches_3_1():
    game = _one(rules={"Slow": 0})
    game.act("action", action="rush")
    assert (13, 20) in _cells(game) and (14, 20) not in _cells(game)


def test_ff_diagonal_steps_cost_1_4_inches_12_2():
    game = _one()
    game.act("action", action="advance")
    cells = _cells(game)
    assert (9, 24) in cells  # 4 diagonal steps = 5.6"
    assert (10, 25) not in cells  # 5 diagonal steps = 7"


def test_ff_difficult_terrain_caps_the_move_at_6_inches_9():
    b = board("\n".join(["." * 6 + "W" + "." * 33] * 40))  # a wood strip across the board in front of the model
    game = _one(b=b)
    game.act("action", action="rush")
    cells = _cells(game)
    assert (11, 20) in cells  # through the wood: 6" in total
    assert (12, 20) not in cells
    assert (5, 32) in cells  # around it, a full 12" Rush on open ground


def test_ff_strider_ignores_difficult_terrain_10():
    game = _one(b=board("\n".join(["." * 6 + "W" + "." * 33] * 40)), rules={"Strider": 0})
    game.act("action", action="rush")
    assert (17, 20) in _cells(game)


def test_ff_impassable_is_never_entered_and_blocks_paths_12_2():
    rows = ["." * 40] * 40
    for y in range(10, 31):
        rows[y] = "." * 7 + "#" + "." * 32
    game = _one(b=board("\n".join(rows)))
    game.act("action", action="rush")
    cells = _cells(game)
    assert not any(x == 7 and 10 <= y <= 30 for x, y in cells)
    assert (9, 20) not in cells  # behind the wall: the way around is longer than 12"


def test_ff_flying_crosses_impassable_10():
    rows = ["." * 40] * 40
    for y in range(10, 31):
        rows[y] = "." * 7 + "#" + "." * 32
    game = _one(b=board("\n".join(rows)), rules={"Flying": 0})
    game.act("action", action="rush")
    cells = _cells(game)
    assert (9, 20) in cells and (7, 20) not in cells  # over it, but never ending in it


def test_ff_immobile_may_only_hold_10():
    game = _one(rules={"Immobile": 0})
    assert game.can("action", action="hold")
    assert not game.can("action", action="advance") and not game.can("action", action="rush")
    assert not game.can("action", action="charge")


def test_ff_shaken_unit_may_only_idle_and_idling_clears_shaken_7_2():
    game = scenario(OPEN, [unit("human_defense_force", "commander", cells=[(5, 20)], shaken=True)], _far_enemy())
    game.activate((0, 0))
    legal = [a for a in ("hold", "advance", "rush", "charge", "idle") if game.can("action", action=a)]
    assert legal == ["idle"]
    game.act("action", action="idle")
    assert not game.unit((0, 0))["shaken"]
    with pytest.raises(IllegalActionError):
        game.act("action", action="idle")


def test_ff_one_inch_rule_keeps_moves_away_from_friends_too_4_2():
    squad = unit("human_defense_force", "commander", cells=[(5, 20)])
    friend = unit("human_defense_force", "weapons_team", cells=[(10, 20)])
    game = scenario(OPEN, [squad, friend], _far_enemy())
    game.activate((0, 0))
    game.act("action", action="advance")
    cells = _cells(game)
    assert (7, 20) in cells  # 3 cells between the centres: more than 1"
    assert (8, 20) not in cells  # centre distance 2: within 1" of the friend
    assert (11, 20) not in cells  # past it: the path would come within 1" (§13.1, path and end)


def test_ff_one_inch_rule_enemy_only_switch_13_q10():
    squad = unit("human_defense_force", "commander", cells=[(5, 20)])
    friend = unit("human_defense_force", "weapons_team", cells=[(10, 20)])
    game = scenario(OPEN, [squad, friend], _far_enemy(), keep_away="enemy", keep_away_path=False)
    game.activate((0, 0))
    game.act("action", action="advance")
    assert (9, 20) in _cells(game) and (11, 20) in _cells(game)
    assert (10, 20) not in _cells(game)  # never on another model


def test_ff_multi_model_unit_keeps_its_offsets_12_3():
    squad = unit("human_defense_force", "infantry_squad", cells=[(5, 20), (6, 20), (7, 20)])
    game = scenario(OPEN, [squad], _far_enemy())
    game.activate((0, 0))
    game.act("action", action="advance")
    game.act("cell", cell=(5, 25))
    assert game.models((0, 0)) == [(5, 25), (6, 25), (7, 25)]
    assert [e.fields["to_cell"] % 40 for e in game.events("move")] == [5, 6, 7]


def test_ff_blocked_offset_takes_the_nearest_reachable_cell_12_3():
    rows = ["." * 40] * 40
    rows[25] = "." * 7 + "#" + "." * 32
    squad = unit("human_defense_force", "infantry_squad", cells=[(5, 20), (6, 20), (7, 20)])
    game = scenario(board("\n".join(rows)), [squad], _far_enemy())
    game.activate((0, 0))
    game.act("action", action="advance")
    game.act("cell", cell=(5, 25))
    cells = game.models((0, 0))
    assert cells[:2] == [(5, 25), (6, 25)] and cells[2] != (7, 25)
    assert len(set(cells)) == 3


def test_ff_coherency_at_the_limit_4_1_12_4():
    """§4.1, §12.4: on the grid, a model needs another within centre distance 2 and all within 7."""
    # one model 2 cells from the others (within 1"), and 7 cells the widest pair (within 6")
    ok = unit("human_defense_force", "infantry_squad", cells=[(5, 20), (7, 20), (9, 20)])
    game = scenario(OPEN, [ok], _far_enemy())
    from necro_env.rulesets.firefight.grid import unit_coherent
    assert unit_coherent(game.state, 0, 0)
    spread = unit("human_defense_force", "infantry_squad", cells=[(5, 20), (8, 20), (10, 20)])
    game = scenario(OPEN, [spread], _far_enemy())
    assert not unit_coherent(game.state, 0, 0)  # 3 cells to the nearest: more than 1"
    wide = unit("human_defense_force", "conscripts", cells=[(5, 20), (7, 20), (9, 20), (11, 20), (13, 20)])
    game = scenario(OPEN, [wide], _far_enemy())
    assert not unit_coherent(game.state, 0, 0)  # 8 cells end to end: more than 6"
    ok6 = unit("human_defense_force", "conscripts", cells=[(5, 20), (7, 20), (9, 20), (11, 20), (12, 20)])
    game = scenario(OPEN, [ok6], _far_enemy())
    assert unit_coherent(game.state, 0, 0)  # 7 cells end to end: exactly 6"


def test_ff_moves_keep_the_unit_coherent_4_1():
    rows = ["." * 40] * 40
    for x in range(3, 12):
        rows[24] = rows[24][:x] + ("#" if x != 8 else ".") + rows[24][x + 1:]
    squad = unit("human_defense_force", "conscripts", cells=[(5, 20), (6, 20), (7, 20), (8, 20), (9, 20)])
    game = scenario(board("\n".join(rows)), [squad], _far_enemy())
    game.activate((0, 0))
    game.act("action", action="rush")
    from necro_env.rulesets.firefight.grid import unit_coherent
    for index in game.legal_actions()[::7]:
        trial = game.clone()
        trial.step(int(index))
        assert unit_coherent(trial.state, 0, 0)


def test_ff_flying_moves_through_enemy_units_10():
    def wall():
        return [unit("orc_marauders", "goblin_herd", cells=[(8, y) for y in range(18, 23)])]
    flyer = _one(rules={"Flying": 0}, enemy=wall())
    flyer.act("action", action="advance")
    assert (11, 20) in _cells(flyer)  # straight over the goblins: 6"
    assert (8, 20) not in _cells(flyer) and (10, 20) not in _cells(flyer)  # never on them, nor within 1" at the end
    walker = _one(enemy=wall(), keep_away_path=False)
    walker.act("action", action="advance")
    assert (11, 20) not in _cells(walker)  # around them is 8.4"


def _dangerous_board():
    return board("\n".join(["." * 6 + "~" + "." * 33] * 40))


def test_ff_moving_through_dangerous_terrain_rolls_once_per_model_9():
    squad = unit("human_defense_force", "infantry_squad", cells=[(5, 19), (5, 20), (5, 21)])
    game = scenario(_dangerous_board(), [squad], _far_enemy(), seed=3)
    game.activate((0, 0))
    game.act("action", action="rush")
    game.script_dice([1, 4, 4])  # one 1: one wound, one model killed (§7.3)
    game.act("cell", cell=(12, 20))
    assert game.events("dangerous")[0].fields["models"] == 3
    assert game.unit((0, 0))["alive"] == 2


def test_ff_activating_in_dangerous_terrain_rolls_tough_x_dice_9():
    game = scenario(_dangerous_board(), [unit("human_defense_force", "commander", cells=[(6, 20)])], _far_enemy())
    game.script_dice([2, 3, 4])  # Tough(3): three dice, no 1
    game.activate((0, 0))
    assert game.events("dangerous")[0].fields["models"] == 1 and game.dice_left() == 0
    game.act("action", action="advance")
    game.act("cell", cell=(9, 20))
    assert not game.events("dangerous")  # one roll a model per activation (§13 Q19)
