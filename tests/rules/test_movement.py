"""Movement on the grid: costs, walls, obstacles, friends, the 1" rule, Take Cover,
Crawl, Stand Up (rules §1.2, §6.1, §6.3, §5.2, §4.1).

Budgets are in half-inches: an orthogonal step costs 2 (1"), a diagonal 3 (1.5").
"""
from necro_env.testing import board, fighter, gang, scenario


# ------------------------------------------------------------------ helpers
def legal(game, kind):
    return [a for a in (game.describe(i) for i in game.legal_actions()) if a.kind == kind]


def cells(game, kind):
    return {a.cell for a in legal(game, kind)}


def kinds(game):
    return {game.describe(i).kind for i in game.legal_actions()}


def two_gangs(b, mover_cell, enemy_cell, *, mover=None, enemy=None, friends=(), mover_kw=None, enemy_kw=None,
              sentry=None):
    """Gang a: the mover (+ friends as (name, cell)); gang b: one enemy (+ a Standing
    "sentry" at cell ``sentry``, so that gang b stays in the battle when the enemy is
    Seriously Injured)."""
    mover = mover or fighter("orlock", "ganger", ["lasgun"], name="mover")
    enemy = enemy or fighter("goliath", "ganger", [], name="enemy")
    fr = [fighter("orlock", "ganger", [], name=n) for n, _ in friends]
    extra = [fighter("goliath", "ganger", [], name="sentry")] if sentry else []
    game = scenario(b, [gang("a", mover, *fr), gang("b", enemy, *extra)], [
        dict(fighter="mover", cell=mover_cell, **(mover_kw or {})),
        dict(fighter="enemy", cell=enemy_cell, **(enemy_kw or {})),
        *[dict(fighter=n, cell=c) for n, c in friends],
        *([dict(fighter="sentry", cell=sentry)] if sentry else []),
    ])
    return game


OPEN = board('''
    .......
    .......
    .......
    .......
    .......
    .......
''')


# ------------------------------------------------------------------ costs (1.2)
def test_orthogonal_step_costs_1_inch_and_move_is_limited_to_M():
    """§1.2 / §5.2 Move: orthogonal steps cost 1"; an M5 fighter moves exactly 5 cells, not 6."""
    b = board('''
        ..........
        ..........
        ..........
    ''')
    game = two_gangs(b, (0, 1), (9, 2))
    game.activate("mover")
    ok = cells(game, "move")
    assert (5, 1) in ok
    assert (6, 1) not in ok
    game.act("move", cell=(5, 1))
    ev = game.events("move")[0].fields
    assert ev["cost_half_inches"] == 10
    assert game.fighter("mover")["cell"] == (5, 1)


def test_diagonal_step_costs_1_5_inches():
    """§1.2 SUGGESTION: a diagonal step costs 1.5". With M5 (10 half-inches):
    2 diagonals + 2 orthogonals = 5" is legal, 3 diagonals + 1 orthogonal = 5.5" is not
    (it would be legal with Chebyshev costs)."""
    game = two_gangs(OPEN, (0, 0), (6, 5))
    game.activate("mover")
    ok = cells(game, "move")
    assert (4, 2) in ok and (3, 3) in ok and (5, 0) in ok
    assert (4, 3) not in ok and (3, 4) not in ok and (5, 1) not in ok and (4, 4) not in ok
    game.act("move", cell=(3, 3))
    assert game.events("move")[0].fields["cost_half_inches"] == 9


def test_walls_block_and_diagonals_do_not_cut_wall_corners():
    """§6.3 impassable terrain, §1.2: walls cannot be entered, and a diagonal step may not
    cut the corner of a wall cell, so the way round the wall end costs 5" exactly."""
    b = board('''
        .#....
        .#....
        .#....
        ......
    ''')
    game = two_gangs(b, (0, 0), (5, 0))
    game.activate("mover")
    ok = cells(game, "move")
    assert not any(c[0] == 1 and c[1] < 3 for c in ok)  # wall cells
    assert (2, 0) not in ok and (2, 1) not in ok
    # corner cutting (0,2)->(1,3)->(2,2) would cost 1+1+1.5+1.5 = 5"; without it (2,2) costs 6"
    assert (2, 2) not in ok
    assert (2, 3) in ok
    game.act("move", cell=(2, 3))
    assert game.events("move")[0].fields["cost_half_inches"] == 10


def test_no_diagonal_squeeze_between_two_walls():
    """§1.2: a fighter boxed in by walls on both orthogonal sides cannot slip out diagonally."""
    b = board('''
        .#...
        #....
        .....
    ''')
    game = two_gangs(b, (0, 0), (4, 2))
    game.activate("mover")
    assert cells(game, "move") == set()
    assert "move" not in kinds(game)


def test_obstacle_costs_1_inch_extra_and_cannot_be_ended_on():
    """§6.3 Obstacles: crossing costs 1" extra (its height) and a move may not end on it."""
    b = board('''
        ..o....
        ..o....
        ..o....
    ''')
    mover = fighter("orlock", "ganger", [], name="mover", m=4)
    game = two_gangs(b, (0, 1), (6, 0), mover=mover)
    game.activate("mover")
    ok = cells(game, "move")
    assert not any(c[0] == 2 for c in ok)  # never end on the obstacle
    assert (3, 1) in ok  # 1 + (1 + 1 extra) + 1 = 4"
    assert (4, 1) not in ok  # would be 4" without the obstacle
    game.act("move", cell=(3, 1))
    assert game.events("move")[0].fields["cost_half_inches"] == 8


def test_may_pass_through_friends_but_not_end_on_them():
    """§6.1: fighters may move through friendly fighters but not end overlapping."""
    b = board('''
        ##########
        ..........
        ##########
    ''')
    game = two_gangs(b, (0, 1), (9, 1), friends=[("pal", (2, 1))])
    game.activate("mover")
    ok = cells(game, "move")
    assert (2, 1) not in ok
    assert (3, 1) in ok and (5, 1) in ok
    game.act("move", cell=(5, 1))
    assert game.fighter("mover")["cell"] == (5, 1)
    assert game.fighter("pal")["cell"] == (2, 1)


def test_enemy_cells_cannot_be_passed_but_seriously_injured_enemies_may_be_approached():
    """§6.1 1" rule: a fighter may move within 1" of a Prone and Seriously Injured enemy,
    but never through an enemy's base."""
    b = board('''
        ##########
        ..........
        ##########
    ''')
    game = two_gangs(b, (0, 1), (3, 1), enemy_kw=dict(posture="seriously_injured"), sentry=(9, 1))
    game.activate("mover")
    ok = cells(game, "move")
    assert (2, 1) in ok  # base contact with the SI enemy
    assert (4, 1) not in ok and (5, 1) not in ok  # the corridor is blocked by its base


def test_one_inch_rule_around_standing_enemy():
    """§6.1 / §1.2 SUGGESTION: no cell adjacent to a Standing enemy may be entered; a cell
    two steps away orthogonally (gap exactly 1") and a knight's-move cell (gap 1.24") are legal."""
    b = board('''
        .........
        .........
        .........
        .........
        .........
    ''')
    mover = fighter("orlock", "ganger", [], name="mover", m=6)
    game = two_gangs(b, (0, 2), (4, 2), mover=mover)
    game.activate("mover")
    ok = cells(game, "move")
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            assert (4 + dx, 2 + dy) not in ok
    assert (2, 2) in ok  # gap exactly 1"
    assert (2, 1) in ok and (2, 3) in ok  # gap 1.24"
    assert (4, 0) in ok  # two rows above the enemy: gap 1"


def test_one_inch_rule_applies_to_pinned_enemies_too():
    """§1.2 SUGGESTION / §6.1: a Prone and Pinned enemy also blocks the cells around it."""
    game = two_gangs(OPEN, (0, 2), (3, 2), enemy_kw=dict(posture="pinned"))
    game.activate("mover")
    ok = cells(game, "move")
    assert (2, 2) not in ok and (2, 1) not in ok and (2, 3) not in ok
    assert (1, 2) in ok


def test_seriously_injured_enemy_does_not_block_adjacent_cells():
    """§6.1 1" rule exception: cells next to a Prone and Seriously Injured enemy are legal."""
    game = two_gangs(OPEN, (0, 2), (3, 2), enemy_kw=dict(posture="seriously_injured"), sentry=(6, 5))
    game.activate("mover")
    ok = cells(game, "move")
    assert {(2, 2), (2, 1), (2, 3), (3, 1), (4, 2)} <= ok


def test_path_may_not_pass_within_1_inch_of_an_enemy():
    """§6.1: the 1" rule holds for every cell of the path, not only the end cell: an enemy
    in the middle of a 3-wide corridor closes it."""
    b = board('''
        ..........
        ..........
        ..........
    ''')
    mover = fighter("orlock", "ganger", [], name="mover", m=8)
    game = two_gangs(b, (0, 1), (4, 1), mover=mover)
    game.activate("mover")
    ok = cells(game, "move")
    assert (2, 1) in ok
    assert not any(c[0] >= 3 for c in ok)


# ------------------------------------------------------------------ facing after a move (1.3)
def test_fighter_faces_the_way_it_moved_and_may_turn_after_moving():
    """§1.3: after any move a fighter may choose a new facing (until then it faces from its
    start cell towards its end cell)."""
    game = two_gangs(OPEN, (0, 0), (6, 5))
    game.activate("mover")
    game.act("turn", facing="S")
    assert "turn" not in kinds(game)  # the activation's free turn is used up
    game.act("move", cell=(3, 0))
    assert game.fighter("mover")["facing"] == "E"
    assert "turn" in kinds(game)
    game.act("turn", facing="SW")
    assert game.fighter("mover")["facing"] == "SW"


# ------------------------------------------------------------------ Take Cover, Crawl, Stand Up (5.2)
def test_take_cover_moves_half_m_rounded_up_then_pinned():
    """§5.2 Take Cover (Basic): move up to half M (M5 -> 3", rounding up, §1.2), then Prone and Pinned."""
    b = board('''
        ..........
        ..........
    ''')
    game = two_gangs(b, (0, 0), (9, 1))
    game.activate("mover")
    ok = cells(game, "take_cover")
    assert (0, 0) in ok  # may take cover where it stands
    assert (3, 0) in ok and (4, 0) not in ok
    game.act("take_cover", cell=(3, 0))
    f = game.fighter("mover")
    assert f["cell"] == (3, 0) and f["posture"] == "pinned"
    # one action left; a Pinned fighter cannot Move or turn
    assert "move" not in kinds(game) and "turn" not in kinds(game)
    assert "stand_up" in kinds(game)


def test_take_cover_respects_the_one_inch_rule():
    """§5.2 Take Cover is a move: it may not end within 1" of an enemy."""
    game = two_gangs(OPEN, (0, 2), (3, 2))
    game.activate("mover")
    ok = cells(game, "take_cover")
    assert (1, 2) in ok and (2, 2) not in ok


def test_crawl_moves_half_m_and_stays_prone():
    """§5.2 Crawl (Double): a Prone and Pinned fighter moves up to half M and stays Prone."""
    b = board('''
        ..........
        ..........
    ''')
    game = two_gangs(b, (0, 0), (9, 1), mover_kw=dict(posture="pinned"))
    game.activate("mover")
    ok = cells(game, "crawl")
    assert (3, 0) in ok and (4, 0) not in ok
    game.act("crawl", cell=(3, 0))
    f = game.fighter("mover")
    assert f["cell"] == (3, 0) and f["posture"] == "pinned"
    assert game.active_fighter != f["index"]  # Double action: the activation is over


def test_seriously_injured_crawl_stays_seriously_injured():
    """§5.2 Crawl: a Prone and Seriously Injured fighter crawls half M and stays so."""
    b = board('''
        ..........
        ..........
    ''')
    mover = fighter("orlock", "ganger", [], name="mover", m=4)
    game = two_gangs(b, (0, 0), (9, 1), mover=mover, mover_kw=dict(posture="seriously_injured"),
                     friends=[("pal", (6, 1))])  # keeps gang a in the battle
    game.activate("mover")
    ok = cells(game, "crawl")
    assert (2, 0) in ok and (3, 0) not in ok
    game.act("crawl", cell=(2, 0))
    assert game.fighter("mover")["posture"] == "seriously_injured"


def test_stand_up_then_choose_facing_and_move():
    """§5.2 Stand Up (Basic): the fighter becomes Standing and Active; the owner picks its facing."""
    game = two_gangs(OPEN, (0, 0), (6, 5), mover_kw=dict(posture="pinned"))
    game.activate("mover")
    assert "turn" not in kinds(game)  # Prone fighters have no facing (1.3)
    game.act("stand_up")
    assert game.fighter("mover")["posture"] == "standing"
    assert "turn" in kinds(game)
    game.act("turn", facing="SE")
    assert game.fighter("mover")["facing"] == "SE"
    assert "move" in kinds(game) and "stand_up" not in kinds(game)


def test_pinned_fighter_touched_by_a_standing_enemy_stands_up_engaged():
    """§4.1: a Prone and Pinned fighter that ends up in base contact with a Standing enemy
    (here a charger reaching its neighbour) stands up, Standing and Engaged, facing that enemy."""
    b = board('''
        ........
        ........
        ........
        ........
    ''')
    charger = fighter("orlock", "ganger", [], name="charger")
    t = fighter("goliath", "ganger", [], name="target")
    p = fighter("goliath", "ganger", [], name="bystander")
    game = scenario(b, [gang("a", charger), gang("b", t, p)], [
        dict(fighter="charger", cell=(1, 1), facing="E"),
        dict(fighter="target", cell=(5, 1)),
        dict(fighter="bystander", cell=(5, 2), posture="pinned"),
    ])
    game.activate("charger")
    game.script_dice([1] + [1] * 10)  # D3 = 1, then every attack misses (natural 1)
    game.act("charge", target="target")
    assert game.fighter("charger")["cell"] == (4, 1)
    by = game.fighter("bystander")
    assert by["posture"] == "standing"
    assert by["facing"] == "NW"
    stood = game.events("standup_engaged")
    assert [e.actor for e in stood] == [by["index"]]
    # both enemies are engaged with the charger and react to its free Fight (8.1 step 7)
    reactors = {e.actor for e in game.events("reaction")}
    assert reactors == {game.fid("target"), game.fid("bystander")}
