"""Two sidearms fired together (rules digest 7.8), Blind Fire and Fire Through
Ductway (5.2)."""
import pytest

from necro_env.testing import board, fighter, gang, scenario

ROW = """
........
........
"""



def setup(weapons, *, posture="standing", facing="E", target_cell=(5, 0), out_of_ammo=(), enemies=(),
          friends=(), shooter_kw=None, rows=ROW, shooter_cell=(0, 0), ductways=()):
    a = [fighter("orlock", "ganger", list(weapons), name="shooter", **(shooter_kw or {}))]
    b = [fighter("orlock", "ganger", ["fighting_knife"], name="target", armour="none", w=4)]
    where = [dict(fighter="shooter", cell=shooter_cell, facing=facing, posture=posture,
                  out_of_ammo=list(out_of_ammo)),
             dict(fighter="target", cell=target_cell)]
    for name, cell in friends:
        a.append(fighter("orlock", "ganger", ["fighting_knife"], name=name))
        where.append(dict(fighter=name, cell=cell))
    for name, cell in enemies:
        b.append(fighter("orlock", "ganger", ["fighting_knife"], name=name, armour="none"))
        where.append(dict(fighter=name, cell=cell))
    game = scenario(board(rows, ductways=ductways), [gang("a", *a), gang("b", *b)], where)
    game.activate("shooter")
    return game


# ---------------------------------------------------------------- twin sidearms (7.8)
def test_two_sidearms_fire_together_at_minus_one_each():
    """§7.8 a fighter with two Sidearms may fire both in one Shoot action at one target:
    -1 to each hit roll, both hit rolls made before any hit is resolved, and each weapon
    rolls its own Firepower dice (section 14 item 12a)."""
    game = setup(["laspistol", "laspistol"])
    game.script_dice([4, 2, 1, 1, 1])  # hit 1: 4 (needs 4), hit 2: 2 misses, FP 1, wound 1, FP 2
    game.act("shoot_twin", target="target")
    shots = game.events("shot")
    assert [e.fields["weapon"] for e in shots] == [game.weapons.index["laspistol"]] * 2
    assert [e.fields["modifier"] for e in shots] == [0, 0]  # +1 Short accuracy, -1 twin guns
    assert [e.fields["hit"] for e in game.events("hit")] == [1, 0]
    k = [e.kind for e in game.events() if e.kind in ("hit", "firepower", "wound")]
    assert k == ["hit", "hit", "firepower", "wound", "firepower"]
    assert game.dice_left() == 0


def test_twin_sidearms_with_aim():
    """§5.2/§7.8 Aim's +1 applies to both hit rolls of the twin shot."""
    game = setup(["laspistol", "stub_gun"])
    game.act("aim")
    game.script_dice([1, 1, 1, 1])  # two natural 1s, two Firepower dice
    game.act("shoot_twin", target="target")
    assert [e.fields["modifier"] for e in game.events("shot")] == [1, 2]  # +1/+2 accuracy, -1, +1 Aim


@pytest.mark.parametrize("weapons,ooa,legal", [
    (["laspistol", "laspistol"], [], True),
    (["laspistol", "lasgun"], [], False),         # only one Sidearm
    (["laspistol", "laspistol"], [1], False),     # one of them Out of Ammo
    (["laspistol", "fighting_knife"], [], False),
])
def test_twin_shot_needs_two_usable_sidearms(weapons, ooa, legal):
    """§7.8 only a fighter with two (usable) Sidearm weapons can fire two together."""
    game = setup(weapons, out_of_ammo=ooa)
    assert game.can("shoot_twin", target="target") == legal


def test_twin_shot_uses_the_first_usable_profile_of_each_sidearm():
    """§7.8 a two-profile Sidearm fires its first usable profile in a twin shot
    (plasma pistol: low power; docs/rules.md)."""
    game = setup(["plasma_pistol", "laspistol"])
    game.script_dice([1, 1, 1, 1])
    game.act("shoot_twin", target="target")
    assert [e.fields["profile"] for e in game.events("shot")] == [0, 0]


def test_twin_shot_is_the_shoot_basic_action():
    """§5.1/§7.8 the twin shot is one Shoot (Basic): no second Shoot in the activation."""
    game = setup(["laspistol", "laspistol"])
    game.script_dice([1, 1, 1, 1])
    game.act("shoot_twin", target="target")
    assert game.decision[0] == "choose_action"
    assert not game.can("shoot", weapon=0, target="target")
    assert not game.can("shoot_twin", target="target")


# ---------------------------------------------------------------- Blind Fire (5.2)
def test_blind_fire_has_a_360_arc_and_minus_two():
    """§5.2 Blind Fire (Double, Prone and Pinned): vision arc 360 degrees, -2 to hit."""
    game = setup(["laspistol"], posture="pinned", shooter_cell=(7, 0), target_cell=(2, 0))
    game.script_dice([4, 1])  # 4 misses: needs 5 (BS 4+, +1 Short accuracy, -2)
    game.act("blind_fire", weapon=0, target="target")
    assert game.events("shot")[0].fields["modifier"] == -1
    assert game.events("hit")[0].fields == {"roll": 4, "need": 5, "hit": 0, "reason": 0}
    assert game.fighter("shooter")["posture"] == "pinned"
    assert game.decision != ("choose_action", 0)  # a Double action: the activation is over


@pytest.mark.parametrize("posture", ["standing", "seriously_injured"])
def test_blind_fire_only_for_prone_and_pinned(posture):
    """§5.2 Blind Fire is a Prone and Pinned fighter's action."""
    game = setup(["laspistol"], posture=posture, friends=[("friend", (0, 1))])
    assert game.decision[0] == "choose_action"
    assert not game.can("blind_fire", weapon=0, target="target")


def test_pinned_fighter_cannot_shoot_normally():
    """§5.2 Shoot needs a Standing and Active fighter; a Pinned one must Blind Fire."""
    game = setup(["laspistol"], posture="pinned")
    assert not game.can("shoot", weapon=0, target="target")
    assert game.can("blind_fire", weapon=0, target="target")


def test_blind_fire_is_double_so_not_after_another_action():
    """§5.1 a Double action needs both actions: after a Reload there is no Blind Fire."""
    game = setup(["laspistol", "bolt_pistol"], posture="pinned", out_of_ammo=[1])
    game.script_dice([6])
    game.act("reload", weapon=1)
    assert game.decision[0] == "choose_action"
    assert not game.can("blind_fire", weapon=0, target="target")


def test_blind_fire_target_priority_counts_enemies_all_around():
    """§7.2 with a 360-degree arc a closer enemy behind the Blind Firer forces the Cool test."""
    game = setup(["laspistol"], posture="pinned", shooter_cell=(3, 0), target_cell=(7, 1),
                 enemies=[("behind", (1, 0))])
    game.script_dice([6, 6, 1, 1])  # Cool test passes, natural 1 misses, Firepower 1
    game.act("blind_fire", weapon=0, target="target")
    assert len(game.events("cool")) == 1
    assert game.events("shot")[0].target == game.fid("target")


# ---------------------------------------------------------------- Fire Through Ductway (5.2)
DUCT_MAP = """
....#....
....#....
....#....
....#....
"""
DUCT = [(1, 0, 7, 0)]


@pytest.mark.parametrize("bs,roll,hit", [(6, 5, 1), (2, 4, 0)])
def test_fire_through_ductway_hits_on_five_plus_regardless_of_bs(bs, roll, hit):
    """§5.2 Fire Through Ductway: within 1" of a ductway, shoot an enemy within 1" of the
    other end; the attack hits on 5+ regardless of BS and modifiers."""
    game = setup(["lasgun"], rows=DUCT_MAP, ductways=DUCT, shooter_cell=(1, 1), target_cell=(7, 1),
                 shooter_kw=dict(bs=bs))
    assert not game.can("shoot", weapon=0, target="target")  # the wall blocks line of sight
    game.script_dice([roll, 1] + ([1] if hit else []))
    game.act("fire_ductway", weapon=0, target="target")
    assert game.events("hit")[0].fields == {"roll": roll, "need": 5, "hit": hit, "reason": 3}
    assert len(game.events("firepower")) == 1
    assert game.fighter("target")["posture"] == ("pinned" if hit else "standing")
    assert game.dice_left() == 0


@pytest.mark.parametrize("shooter_cell,target_cell,legal", [
    ((1, 1), (7, 1), True),
    ((1, 2), (7, 2), True),    # both exactly 1" (gap) from their ends
    ((1, 3), (7, 1), False),   # shooter 2" from its end of the ductway
    ((1, 1), (7, 3), False),   # target 2" from the far end
])
def test_fire_through_ductway_needs_both_within_one_inch(shooter_cell, target_cell, legal):
    """§5.2 the shooter within 1" of the ductway, the enemy within 1" of the other end."""
    game = setup(["lasgun"], rows=DUCT_MAP, ductways=DUCT, shooter_cell=shooter_cell, target_cell=target_cell)
    assert game.can("fire_ductway", weapon=0, target="target") == legal
