"""Doors, door terminals, ductways and loot caskets (rules §6.8, §6.9, §6.10, §5.2).

"Within 1"" of a door, terminal, ductway end or casket cell = gap <= 1" between the fighter's
base and that cell (centre distance squared <= 4: base contact or two cells away orthogonally).
"""
import pytest

from necro_env.core.terrain import DOOR_CLOSED, DOOR_LOCKED, DOOR_OPEN
from necro_env.rulesets.necromunda.state import CK_STATE, CK_X, CK_Y, DR_STATE
from necro_env.testing import IllegalActionError, board, fighter, gang, scenario


def kinds(game):
    return {game.describe(i).kind for i in game.legal_actions()}


def legal(game, kind):
    return [a for a in (game.describe(i) for i in game.legal_actions()) if a.kind == kind]


def cells(game, kind):
    return {a.cell for a in legal(game, kind)}


def door_state(game, d=0):
    return int(game.state.door[0, d, DR_STATE])


def casket(game, k=0):
    c = game.state.casket[0, k]
    return (int(c[CK_X]), int(c[CK_Y])), int(c[CK_STATE])


def game_on(b, me_cell, *, enemy_cell, me=None, friends=(), enemy_kw=None):
    me = me or fighter("orlock", "ganger", ["lasgun"], name="me")
    fr = [fighter("orlock", "ganger", [], name=n) for n, _ in friends]
    en = fighter("goliath", "ganger", [], name="enemy")
    return scenario(b, [gang("a", me, *fr), gang("b", en)], [
        dict(fighter="me", cell=me_cell, facing="E"),
        dict(fighter="enemy", cell=enemy_cell, **(enemy_kw or {})),
        *[dict(fighter=n, cell=c) for n, c in friends],
    ])


def door_board(ch):
    return board(f'''
        .....#....
        .....{ch}....
        .....#....
    ''')


# ------------------------------------------------------------------ doors (6.8)
def test_operate_door_opens_a_closed_door_within_1_inch_and_the_way_is_free():
    """§6.8 / §5.2 Operate Door (Simple): a closed door within 1" opens; closed doors are
    impassable, open ones are not."""
    game = game_on(door_board("+"), (4, 1), enemy_cell=(9, 2))
    game.activate("me")
    assert not any(c[0] >= 5 for c in cells(game, "move"))
    assert [a.door for a in legal(game, "operate_door")] == [0]
    game.act("operate_door", door=0)
    assert door_state(game) == DOOR_OPEN
    ev = game.events("door")[0].fields
    assert ev == {"door": 0, "new_state": DOOR_OPEN}
    ok = cells(game, "move")  # one action left
    assert (5, 1) in ok and (7, 1) in ok


@pytest.mark.parametrize("cell, near", [((3, 1), True), ((4, 0), True), ((3, 0), False), ((2, 1), False)])
def test_operate_door_needs_the_door_within_1_inch(cell, near):
    """§6.8: within 1" = gap <= 1": two cells away orthogonally counts, a knight's move
    (gap 1.24") does not."""
    game = game_on(door_board("+"), cell, enemy_cell=(9, 2))
    game.activate("me")
    assert ("operate_door" in kinds(game)) == near


def test_operate_door_is_simple_open_then_close():
    """§5.2 Operate Door is Simple: open and close again in one activation."""
    game = game_on(door_board("+"), (4, 1), enemy_cell=(9, 2))
    game.activate("me")
    game.act("operate_door", door=0)
    game.act("operate_door", door=0)
    assert door_state(game) == DOOR_CLOSED


def test_closed_door_blocks_line_of_sight_open_door_does_not():
    """§1.4 / §6.8: closed doors block line of sight like walls; open doors do not."""
    game = game_on(door_board("+"), (3, 1), enemy_cell=(8, 1))
    game.activate("me")
    assert legal(game, "shoot") == []
    game.act("operate_door", door=0)
    assert [a.target for a in legal(game, "shoot")] == [(1, 0)]


def test_cannot_close_a_door_on_a_fighter():
    """§6.8 (grid): an open door cannot be closed while a fighter stands in the doorway."""
    game = game_on(door_board("/"), (4, 1), enemy_cell=(9, 2), friends=[("pal", (5, 1))])
    game.activate("me")
    assert "operate_door" not in kinds(game)
    game2 = game_on(door_board("/"), (4, 1), enemy_cell=(9, 2), friends=[("pal", (0, 0))])
    game2.activate("me")
    assert "operate_door" in kinds(game2)


def test_locked_door_cannot_be_operated_but_can_be_forced():
    """§6.8: locked doors cannot be opened with Operate Door; Force Door is offered instead."""
    game = game_on(door_board("L"), (4, 1), enemy_cell=(9, 2))
    game.activate("me")
    assert "operate_door" not in kinds(game)
    assert [a.door for a in legal(game, "force_door")] == [0]
    with pytest.raises(IllegalActionError):
        game.act("operate_door", door=0)


def test_force_door_not_offered_for_unlocked_door():
    """§5.2 Force Door: only a locked door within 1" can be forced."""
    game = game_on(door_board("+"), (4, 1), enemy_cell=(9, 2))
    game.activate("me")
    assert "force_door" not in kinds(game)


@pytest.mark.parametrize("die, opened", [(5, False), (6, True)])
def test_force_door_d6_plus_strength_nine_or_more(die, opened):
    """§5.2 Force Door (Basic): D6 + S (3) >= 9 opens the locked door (and it stays unlocked)."""
    game = game_on(door_board("L"), (4, 1), enemy_cell=(9, 2))
    game.activate("me")
    game.script_dice([die])
    game.act("force_door", door=0)
    ev = game.events("force")[0].fields
    assert ev["roll"] == die and ev["total"] == die + 3 and ev["passed"] == int(opened)
    assert door_state(game) == (DOOR_OPEN if opened else DOOR_LOCKED)
    assert "force_door" not in kinds(game)  # Basic: once per activation
    if opened:
        game.act("operate_door", door=0)  # unlocked now: can be closed normally
        assert door_state(game) == DOOR_CLOSED


@pytest.mark.parametrize("helper_cell, opened", [((4, 0), True), ((4, 2), True), ((3, 1), False)])
def test_force_door_plus_two_per_other_friend_touching_the_door(helper_cell, opened):
    """§5.2 Force Door: +2 for each other friendly fighter touching (in base contact with) the
    door; a friend merely within 1" but not touching does not help. Roll 4 + S3 + 2 = 9."""
    game = game_on(door_board("L"), (4, 1), enemy_cell=(9, 2), friends=[("pal", helper_cell)])
    game.activate("me")
    game.script_dice([4])
    game.act("force_door", door=0)
    assert game.events("force")[0].fields["total"] == (9 if opened else 7)
    assert door_state(game) == (DOOR_OPEN if opened else DOOR_LOCKED)


TERM_BOARD = board('''
    ...........
    ......#....
    ......L....
    ......#....
''', terminals=[((1, 0), (6, 2))])


@pytest.mark.parametrize("dice, opened", [([4, 4], False), ([4, 5], True)])
def test_access_terminal_int_test_at_minus_2_opens_the_door_from_any_distance(dice, opened):
    """§5.2 Access Terminal (Basic): within 1" of the door's terminal, an Intelligence test at -2
    (Int 7+ -> 9+ on 2D6); on a pass the door it controls is operated, however far away."""
    game = game_on(TERM_BOARD, (1, 1), enemy_cell=(10, 3))
    game.activate("me")
    assert "operate_door" not in kinds(game) and "force_door" not in kinds(game)
    assert [a.door for a in legal(game, "access_terminal")] == [0]
    game.script_dice(dice)
    game.act("access_terminal", door=0)
    ev = game.events("intel")[0].fields
    assert ev["roll"] == sum(dice) and ev["need"] == 9 and ev["passed"] == int(opened)
    assert door_state(game) == (DOOR_OPEN if opened else DOOR_LOCKED)
    assert "access_terminal" not in kinds(game)  # Basic: once per activation


def test_access_terminal_closes_an_open_door():
    """§5.2 Access Terminal: the free Operate Door toggles the door (an open door closes)."""
    b = board('''
        ...........
        ......#....
        ....../....
        ......#....
    ''', terminals=[((1, 0), (6, 2))])
    game = game_on(b, (1, 1), enemy_cell=(10, 3))
    game.activate("me")
    game.script_dice([6, 6])
    game.act("access_terminal", door=0)
    assert door_state(game) == DOOR_CLOSED


def test_access_terminal_needs_the_terminal_within_1_inch():
    """§5.2 Access Terminal: the fighter must be within 1" of the terminal."""
    game = game_on(TERM_BOARD, (1, 3), enemy_cell=(10, 3))  # 3 cells from the terminal
    game.activate("me")
    assert "access_terminal" not in kinds(game)


# ------------------------------------------------------------------ ductways (6.9)
DUCT = board('''
    ...#...
    ...#...
    ...#...
    ...#...
    ...#...
''', ductways=[(2, 2, 4, 2)])


def test_crawl_through_ductway_placement_within_1_inch_of_far_end_not_near_enemies():
    """§5.2 Crawl Through Ductway (Double) / §6.9: from within 1" of one end, the fighter is
    placed within 1" of the other end, on a free cell, not within 1" (adjacent) of an enemy."""
    game = game_on(DUCT, (1, 2), enemy_cell=(6, 4))
    game.activate("me")
    ok = cells(game, "crawl_ductway")
    assert ok == {(4, 0), (4, 1), (4, 2), (4, 3), (4, 4), (5, 1), (5, 2), (6, 2)}
    game.act("crawl_ductway", cell=(5, 2))
    assert game.fighter("me")["cell"] == (5, 2)
    ev = game.events("duct")[0].fields
    assert ev == {"from_cell": 2 * 7 + 1, "to_cell": 2 * 7 + 5}
    assert "move" not in kinds(game)  # Double: no action left


def test_crawl_through_ductway_needs_both_actions_and_proximity():
    """§5.2 Crawl Through Ductway is Double and needs an end within 1"."""
    game = game_on(DUCT, (0, 2), enemy_cell=(6, 4))  # 2 cells from the end: gap 1"
    game.activate("me")
    assert "crawl_ductway" in kinds(game)
    game.act("move", cell=(0, 0))  # now 2.24 cells away and one action left
    assert "crawl_ductway" not in kinds(game)


def test_crawl_through_ductway_may_end_next_to_seriously_injured_enemy():
    """§6.9 (decision): the "not within 1" of an enemy" placement rule is the 1" rule, which
    ignores Prone and Seriously Injured enemies."""
    me = fighter("orlock", "ganger", [], name="me")
    en = fighter("goliath", "ganger", [], name="enemy")
    sentry = fighter("goliath", "ganger", [], name="sentry")
    game = scenario(DUCT, [gang("a", me), gang("b", en, sentry)], [
        dict(fighter="me", cell=(1, 2)),
        dict(fighter="enemy", cell=(5, 2), posture="seriously_injured"),
        dict(fighter="sentry", cell=(6, 0)),
    ])
    game.activate("me")
    ok = cells(game, "crawl_ductway")
    assert (4, 2) in ok and (4, 3) in ok  # next to the SI enemy
    assert (5, 1) not in ok  # next to the Standing sentry
    assert (5, 2) not in ok  # occupied


def test_crawl_through_ductway_works_in_both_directions():
    """§6.9: a fighter at either end crawls to the other one (the ends are 2 cells apart through
    the wall, which does not make the near end "within 1"" of the far side, §1.1)."""
    game = game_on(DUCT, (4, 2), enemy_cell=(6, 4))
    game.activate("me")
    ok = cells(game, "crawl_ductway")
    assert ok == {(2, 0), (2, 1), (2, 2), (2, 3), (2, 4), (1, 1), (1, 2), (1, 3), (0, 2)}
    game.act("crawl_ductway", cell=(1, 2))
    assert game.fighter("me")["cell"] == (1, 2)


# ------------------------------------------------------------------ loot caskets (6.10)
CASKET = board('''
    ..........
    .....c....
    ..........
''')


def test_casket_blocks_movement():
    """§6.10 (grid): a loot casket fills its cell; fighters cannot enter or end there."""
    game = game_on(CASKET, (4, 1), enemy_cell=(9, 2))
    game.activate("me")
    assert (5, 1) not in cells(game, "move")


@pytest.mark.parametrize("die, opened", [(2, False), (3, True)])
def test_smash_open_loot_casket_d6_plus_strength_six_or_more(die, opened):
    """§5.2 Smash Open Loot Casket (Basic): within 1", D6 + S (3) >= 6 opens it."""
    game = game_on(CASKET, (4, 1), enemy_cell=(9, 2))
    game.activate("me")
    game.script_dice([die])
    game.act("smash_casket", casket=0)
    ev = game.events("casket")[0].fields
    assert ev["opened"] == int(opened) and ev["roll"] == die
    assert casket(game)[1] == (2 if opened else 1)
    assert "smash_casket" not in kinds(game)  # Basic: once per activation
    assert ("bypass_casket" in kinds(game)) == (not opened)  # another Basic action, only while closed


@pytest.mark.parametrize("dice, opened", [([3, 3], False), ([3, 4], True)])
def test_bypass_loot_casket_lock_intelligence_test(dice, opened):
    """§5.2 Bypass Loot Casket Lock (Basic): an Intelligence test (2D6 >= Int 7) opens it."""
    game = game_on(CASKET, (3, 1), enemy_cell=(9, 2))  # two cells away: within 1"
    game.activate("me")
    game.script_dice(dice)
    game.act("bypass_casket", casket=0)
    assert game.events("intel")[0].fields["need"] == 7
    assert casket(game)[1] == (2 if opened else 1)


def test_casket_actions_need_the_casket_within_1_inch():
    """§5.2: the casket actions need the casket within 1"."""
    game = game_on(CASKET, (3, 0), enemy_cell=(9, 2))  # gap 1.24"
    game.activate("me")
    assert not kinds(game) & {"smash_casket", "bypass_casket", "carry_casket"}


def test_carry_loot_casket_moves_and_places_it_in_base_contact():
    """§5.2 Carry Loot Casket (Simple): a Move carrying the casket; afterwards it is placed in
    base contact: on the cell the fighter last left (decision)."""
    game = game_on(CASKET, (4, 1), enemy_cell=(9, 2))
    game.activate("me")
    assert (1, 1) in cells(game, "carry_casket")
    game.act("carry_casket", cell=(1, 1))
    assert game.fighter("me")["cell"] == (1, 1)
    pos, st = casket(game)
    assert pos == (2, 1) and st == 1
    assert max(abs(pos[0] - 1), abs(pos[1] - 1)) == 1
    assert (5, 1) in cells(game, "move")  # the old casket cell is free now
    game.act("carry_casket", cell=(1, 0))  # Simple: may carry again
    assert casket(game)[0] == (1, 1)


# ------------------------------------------------------------------ "within 1"" is not measured through walls (1.1)
@pytest.mark.parametrize("wall", [True, False])
def test_casket_within_1_inch_not_through_a_wall(wall):
    """§1.1: distances are never measured through solid terrain: a casket two cells away with a
    wall between is not within 1"."""
    mid = "#" if wall else "."
    b = board(f'''
        .......
        ...{mid}c..
        .......
    ''')
    game = game_on(b, (2, 1), enemy_cell=(6, 2))
    game.activate("me")
    assert bool(kinds(game) & {"smash_casket", "bypass_casket", "carry_casket"}) == (not wall)


@pytest.mark.parametrize("wall", [True, False])
def test_terminal_within_1_inch_not_through_a_wall(wall):
    """§1.1 / §5.2 Access Terminal: a terminal behind a wall two cells away is out of reach, while
    the door diagonally touching the fighter at the wall's end is within 1"."""
    mid = "#" if wall else "."
    b = board(f'''
        ...#...
        ...{mid}...
        ...L...
    ''', terminals=[((4, 1), (3, 2))])
    game = game_on(b, (2, 1), enemy_cell=(6, 0))
    game.activate("me")
    assert ("access_terminal" in kinds(game)) == (not wall)
    assert "force_door" in kinds(game)


@pytest.mark.parametrize("wall", [True, False])
def test_coup_de_grace_not_through_a_wall(wall):
    """§1.1 / §5.2 Coup de Grace: a Seriously Injured enemy two cells away behind a wall is not
    within 1"."""
    mid = "#" if wall else "."
    b = board(f'''
        .......
        ...{mid}...
        .......
    ''')
    me = fighter("orlock", "ganger", [], name="me")
    si = fighter("goliath", "ganger", [], name="si")
    sentry = fighter("goliath", "ganger", [], name="sentry")
    game = scenario(b, [gang("a", me), gang("b", si, sentry)], [
        dict(fighter="me", cell=(2, 1)),
        dict(fighter="si", cell=(4, 1), posture="seriously_injured"),
        dict(fighter="sentry", cell=(6, 2)),
    ])
    game.activate("me")
    assert ("coup_de_grace" in kinds(game)) == (not wall)
