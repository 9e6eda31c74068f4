"""Action economy and the action catalogue by status (rules §5.1, §5.2, §1.3, §10.2, §2.3)."""
import pytest

from necro_env.testing import IllegalActionError, board, fighter, gang, scenario


def kinds(game):
    return {game.describe(i).kind for i in game.legal_actions()}


def legal(game, kind):
    return [a for a in (game.describe(i) for i in game.legal_actions()) if a.kind == kind]


B = board('''
    ..........
    ..........
    ..........
    ..........
''')


def setup(me_weapons=("lasgun",), me_kw=None, enemy_cell=(8, 1), enemy_kw=None, me_cell=(1, 1), extra=(),
          me_armour=None):
    """Gang a: "me"; gang b: "enemy" (+ extra enemies as (name, cell, kw))."""
    me = fighter("orlock", "ganger", list(me_weapons), name="me", armour=me_armour)
    en = fighter("goliath", "ganger", ["fighting_knife"], name="enemy")
    ex = [fighter("goliath", "ganger", [], name=n) for n, _, _ in extra]
    return scenario(B, [gang("a", me), gang("b", en, *ex)], [
        dict(fighter="me", cell=me_cell, **{"facing": "E", **(me_kw or {})}),
        dict(fighter="enemy", cell=enemy_cell, **(enemy_kw or {})),
        *[dict(fighter=n, cell=c, **kw) for n, c, kw in extra],
    ])


# ------------------------------------------------------------------ 5.1 action types
def test_two_simple_moves_then_only_end_or_turn():
    """§5.1: up to two actions; Move (Simple) may be repeated. After two moves only ending the
    activation (or the free post-move turn, §1.3) is left."""
    game = setup()
    game.activate("me")
    game.act("move", cell=(2, 0))
    assert "move" in kinds(game)
    game.act("move", cell=(3, 0))
    assert kinds(game) == {"end", "turn"}
    game.act("end")
    assert game.decision == ("select_fighter", 1)


def test_basic_action_at_most_once_per_activation():
    """§5.1: a Basic action (Aim) can be taken only once per activation; a different Basic
    action (Take Cover) is still allowed."""
    game = setup()
    game.activate("me")
    game.act("aim")
    assert "aim" not in kinds(game)
    assert "take_cover" in kinds(game) and "shoot" in kinds(game)
    game.act("take_cover", cell=(1, 1))
    assert game.fighter("me")["posture"] == "pinned"


def test_shoot_only_once_per_activation():
    """§5.1 / §5.2 Shoot (Basic): no second Shoot in the same activation."""
    game = setup()
    game.activate("me")
    game.script_dice([1] * 8)  # the hit roll misses
    game.act("shoot", weapon=0, target="enemy")
    assert game.fighter("enemy")["posture"] == "standing"
    assert "shoot" not in kinds(game)
    assert "move" in kinds(game)


def test_double_action_needs_both_actions():
    """§5.1 / §2.3: a fighter with only one action left cannot take a Double action (Charge)."""
    game = setup(enemy_cell=(6, 1))
    game.activate("me")
    assert "charge" in kinds(game)
    game.act("move", cell=(1, 2))
    assert "charge" not in kinds(game)
    assert "move" in kinds(game)


def test_prone_double_actions_need_both_actions():
    """§5.1: after Reload (Simple) a Pinned fighter can no longer Crawl or Blind Fire (Double)."""
    game = setup(me_weapons=("lasgun", "autopistol"), me_kw=dict(posture="pinned", out_of_ammo=[0]))
    game.activate("me")
    assert {"crawl", "blind_fire", "reload"} <= kinds(game)
    game.act("reload", weapon=0)  # lasgun: Plentiful, reloads automatically
    assert game.fighter("me")["out_of_ammo"] == []
    assert "crawl" not in kinds(game) and "blind_fire" not in kinds(game)
    assert "stand_up" in kinds(game)


def test_double_action_uses_the_whole_activation():
    """§5.1: a Double action counts as both actions; the activation ends after it."""
    game = setup(me_kw=dict(posture="pinned"))
    game.activate("me")
    game.act("crawl", cell=(2, 1))
    assert game.active_fighter == -1
    assert game.decision == ("select_fighter", 1)


def test_unwieldy_shoot_is_a_double_action():
    """§5.1 [N23] / §12 Unwieldy: Shoot with an Unwieldy weapon is a Double action: not
    possible after a Move, and it ends the activation; a normal weapon can still shoot."""
    game = setup(me_weapons=("heavy_stubber", "lasgun"))
    game.activate("me")
    shots = {a.weapon for a in legal(game, "shoot")}
    assert shots == {0, 1}
    game.act("move", cell=(1, 2))
    assert {a.weapon for a in legal(game, "shoot")} == {1}

    game = setup(me_weapons=("heavy_stubber", "lasgun"))
    game.activate("me")
    game.script_dice([1] * 12)
    game.act("shoot", weapon=0, target="enemy")
    assert game.active_fighter == -1


def test_unwieldy_shoot_not_after_aim():
    """§5.1: Aim (Basic) leaves one action, too few for an Unwieldy Shoot (Double)."""
    game = setup(me_weapons=("heavy_stubber",))
    game.activate("me")
    game.act("aim")
    assert legal(game, "shoot") == []


def test_simple_coup_de_grace_may_be_repeated():
    """§5.1 / §5.2 Coup de Grace (Simple): two Seriously Injured enemies within 1" can both be
    finished in one activation."""
    game = setup(me_cell=(2, 1), enemy_cell=(3, 1), enemy_kw=dict(posture="seriously_injured"),
                 extra=[("other", (3, 2), dict(posture="seriously_injured")), ("sentry", (9, 3), {})])
    game.activate("me")
    game.script_dice([6, 6])  # the other casualty's Nerve test (§10.1) passes
    game.act("coup_de_grace", target="enemy")
    assert game.fighter("enemy")["state"] == "out_of_action"
    game.act("coup_de_grace", target="other")
    assert game.fighter("other")["state"] == "out_of_action"


# ------------------------------------------------------------------ facing (1.3)
def test_free_turn_at_activation_start_and_after_moves_only():
    """§1.3: a Standing fighter may turn when activated, before its first action, and after any
    move; not after another action, and only once per opportunity."""
    game = setup()
    game.activate("me")
    assert "turn" in kinds(game)
    game.act("aim")
    assert "turn" not in kinds(game)
    with pytest.raises(IllegalActionError):
        game.act("turn", facing="N")
    game.act("move", cell=(2, 2))
    assert "turn" in kinds(game)
    game.act("turn", facing="N")
    assert game.fighter("me")["facing"] == "N"
    assert "turn" not in kinds(game)


# ------------------------------------------------------------------ 5.2 catalogue by status
def test_standing_active_catalogue():
    """§5.2: a Standing and Active fighter has the SA actions and none of the Engaged/Prone ones."""
    game = setup(enemy_cell=(6, 1))
    game.activate("me")
    k = kinds(game)
    assert {"move", "charge", "take_cover", "shoot", "aim", "end", "turn"} <= k
    assert not k & {"fight", "retreat", "stand_up", "crawl", "blind_fire"}


def test_standing_and_engaged_may_only_fight_or_retreat():
    """§5.2 note [CZ]: a Standing and Engaged fighter may only Fight or Retreat (and it does not
    get the free turn: it turns to face inside the Fight, at -1, §1.3/§8.1)."""
    game = setup(me_weapons=("lasgun", "fighting_knife"), enemy_cell=(2, 1))
    game.activate("me")
    assert kinds(game) == {"end", "fight", "retreat"}


def test_engaged_fighter_facing_away_turns_inside_the_fight_at_minus_one():
    """§8.1 step 1 / §1.3: an Engaged fighter facing away turns to face as part of its Fight
    and suffers -1 to hit (no free turn beforehand)."""
    game = setup(me_kw=dict(facing="W"), enemy_cell=(2, 1))
    game.activate("me")
    with pytest.raises(IllegalActionError):
        game.act("turn", facing="E")
    game.script_dice([1] * 4)
    game.act("fight", target="enemy")
    att = game.events("attacks")[0]
    assert att.actor == game.fid("me") and att.fields["modifier"] == -1
    assert game.fighter("me")["facing"] == "E"


def test_prone_and_pinned_catalogue():
    """§5.2: Prone and Pinned: Stand Up, Crawl, Reload, Blind Fire (nothing else)."""
    game = setup(me_weapons=("lasgun", "autopistol"), me_kw=dict(posture="pinned", out_of_ammo=[1]))
    game.activate("me")
    assert kinds(game) == {"end", "stand_up", "crawl", "reload", "blind_fire"}


def test_seriously_injured_may_only_crawl():
    """§5.2 note [CZ]: a Prone and Seriously Injured fighter may only Crawl."""
    me = fighter("orlock", "ganger", ["lasgun"], name="me")
    pal = fighter("orlock", "ganger", [], name="pal")
    en = fighter("goliath", "ganger", [], name="enemy")
    game = scenario(B, [gang("a", me, pal), gang("b", en)], [
        dict(fighter="me", cell=(1, 1), posture="seriously_injured", out_of_ammo=[0]),
        dict(fighter="pal", cell=(0, 3)),
        dict(fighter="enemy", cell=(8, 1)),
    ])
    game.activate("me")
    assert kinds(game) == {"end", "crawl"}


def test_broken_fighter_activation_is_an_automatic_running_for_cover():
    """§10.2 / §4.3 Broken: when activated, a Broken fighter's only action is Running for Cover
    (Double); no choice is offered and the turn passes to the other gang."""
    me = fighter("orlock", "ganger", ["lasgun"], name="me")
    pal = fighter("orlock", "ganger", [], name="pal")
    en = fighter("goliath", "ganger", [], name="enemy")
    en2 = fighter("goliath", "ganger", [], name="enemy2")
    game = scenario(B, [gang("a", me, pal), gang("b", en, en2)], [
        dict(fighter="me", cell=(5, 1), broken=True),
        dict(fighter="pal", cell=(0, 3)),
        dict(fighter="enemy", cell=(8, 1)),
        dict(fighter="enemy2", cell=(9, 3)),
    ])
    game.activate("pal")
    game.act("end")
    assert game.decision == ("select_fighter", 1)
    game.act("select", fighter="enemy")
    game.act("end")
    assert game.decision == ("select_fighter", 0)
    assert {game.describe(i).fighter for i in game.legal_actions()} == {0}
    game.script_dice([3, 4])  # 2D6 = 7" of running
    game.act("select", fighter="me")
    rfc = game.events("rfc")
    assert len(rfc) == 1 and rfc[0].actor == game.fid("me")
    assert rfc[0].fields["allowance_inches"] == 7
    assert game.fighter("me")["cell"] != (5, 1)
    assert game.events("action") == []  # no choose_action decision was taken
    assert not game.fighter("me")["ready"]
    assert game.decision == ("select_fighter", 1)
