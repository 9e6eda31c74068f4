"""Shooting basics (rules digest 7.1-7.4): eligibility (vision arc, line of sight,
hiding), turning to face, range bands and Accuracy, out-of-range shots, the
hit-roll modifiers, natural 1s and improbable shots.

Dice order of a shot (docs/rules.md): [Cool test 2D6] -> hit roll
(an improbable shot: a 6, then a roll against the unmodified BS) -> Firepower
die (Ammo test right after an Ammo symbol) -> per hit: wound roll, [save],
[Injury dice].
"""
import pytest

from necro_env.testing import IllegalActionError, board, fighter, gang, scenario

SHORT, LONG, OUT = 0, 1, 2
COVER_NONE, COVER_PARTIAL, COVER_FULL = 0, 1, 2
HIT_NORMAL, HIT_OUT_OF_RANGE, HIT_IMPROBABLE = 0, 1, 2


def duel(rows, weapons, shooter_cell, target_cell, *, facing="E", target_posture="standing",
         shooter_kw=None, extra_a=(), extra_b=()):
    """An Orlock ganger (BS 4+) shooting at an unarmoured Orlock ganger (T3, W1).

    extra_a / extra_b: (FighterSpec, placement dict without 'fighter') for more fighters."""
    a = [fighter("orlock", "ganger", weapons, name="shooter", **(shooter_kw or {}))]
    b = [fighter("orlock", "ganger", ["fighting_knife"], name="target", armour="none")]
    where = [dict(fighter="shooter", cell=shooter_cell, facing=facing),
             dict(fighter="target", cell=target_cell, posture=target_posture)]
    for spec, pl in extra_a:
        a.append(spec)
        where.append(dict(pl, fighter=spec.name))
    for spec, pl in extra_b:
        b.append(spec)
        where.append(dict(pl, fighter=spec.name))
    return scenario(board(rows), [gang("a", *a), gang("b", *b)], where)


def shot(game):
    return game.events("shot")[0].fields


def hit(game):
    return game.events("hit")[0].fields


ROW8 = """
........
........
"""

COVER_PARTIAL_MAP = """
........
........
........
....o...
........
"""  # shooter (0, 3) -> target (6, 4): the obstacle hides 1 of the 5 rays

COVER_FULL_MAP = """
........
........
........
........
....o...
"""  # shooter (0, 3) -> target (6, 4): the obstacle hides 4 of the 5 rays


# ---------------------------------------------------------------- range bands and accuracy
def test_short_range_adds_short_accuracy():
    """§7.3/§7.4 lasgun (18"/24", +1/-) at 5": Short band, +1, BS 4+ needs 3."""
    game = duel(ROW8, ["lasgun"], (0, 0), (6, 0))
    game.activate("shooter")
    game.script_dice([3, 1, 3])  # hit 3, Firepower 1, wound roll 3 (needs 4)
    game.act("shoot", weapon=0, target="target")
    assert shot(game)["band"] == SHORT and shot(game)["modifier"] == 1 and shot(game)["cover"] == COVER_NONE
    assert hit(game) == {"roll": 3, "need": 3, "hit": 1, "reason": HIT_NORMAL}
    assert game.events("wound")[0].fields["roll"] == 3
    assert game.dice_left() == 0


def test_long_range_uses_long_accuracy():
    """§7.3 autopistol (4"/12", +1/-) at 5": Long band, no Accuracy bonus, needs 4."""
    game = duel(ROW8, ["autopistol"], (0, 0), (6, 0))
    game.activate("shooter")
    game.script_dice([3, 1])  # hit roll 3 misses, Firepower 1
    game.act("shoot", weapon=0, target="target")
    assert shot(game)["band"] == LONG and shot(game)["modifier"] == 0
    assert hit(game) == {"roll": 3, "need": 4, "hit": 0, "reason": HIT_NORMAL}
    assert game.dice_left() == 0


@pytest.mark.parametrize("weapon,cell,band", [
    ("autopistol", (5, 0), SHORT),   # gap 4.0 = Short range 4"
    ("autopistol", (6, 0), LONG),    # gap 5.0
    ("autopistol", (4, 3), SHORT),   # diagonal: centre distance 5, gap 4.0
    ("sawn_off_shotgun", (9, 0), LONG),  # gap 8.0 = Long range 8"
    ("sawn_off_shotgun", (10, 0), OUT),  # gap 9.0 > 8"
])
def test_range_band_boundaries_are_inclusive(weapon, cell, band):
    """§7.3 / §1.2: range is the base-to-base gap (centre distance - 1); "within" is inclusive."""
    game = duel("""
        ...........
        ...........
        ...........
        ...........
    """, [weapon], (0, 0), cell, facing="E")
    game.activate("shooter")
    game.script_dice([2, 1])  # a miss (or no roll when out of range) and the Firepower die
    game.act("shoot", weapon=0, target="target")
    assert shot(game)["band"] == band


def test_out_of_range_shot_is_legal_misses_and_still_rolls_firepower():
    """§7.3/§7.6 beyond Long range the attack misses automatically, but the Firepower dice is
    rolled (an Ammo symbol can run the weapon dry). It "hits nothing": no stray shots
    even with a model next to the line of fire."""
    bystander = fighter("orlock", "ganger", ["fighting_knife"], name="bystander", armour="none")
    game = duel("""
        ...........
        ...........
    """, ["sawn_off_shotgun"], (0, 0), (10, 0), extra_a=[(bystander, dict(cell=(5, 1)))])
    game.activate("shooter")
    game.script_dice([6, 2])  # Firepower: Ammo symbol; Ammo test 2 fails (needs 6+)
    game.act("shoot", weapon=0, target="target")
    assert hit(game) == {"roll": 0, "need": 0, "hit": 0, "reason": HIT_OUT_OF_RANGE}
    assert [e.fields["face"] for e in game.events("firepower")] == [6]
    assert game.events("ammo")[0].fields["passed"] == 0
    assert game.fighter("shooter")["out_of_ammo"] == [0]
    assert game.events("stray") == [] and game.events("wound") == []
    assert game.fighter("target")["posture"] == "standing"
    assert game.dice_left() == 0


# ---------------------------------------------------------------- hit modifiers (7.4)
@pytest.mark.parametrize("rows,cover,need", [
    (COVER_PARTIAL_MAP, COVER_PARTIAL, 4),  # +1 Short accuracy, -1 partial cover
    (COVER_FULL_MAP, COVER_FULL, 5),        # +1 Short accuracy, -2 full cover
])
def test_cover_modifier(rows, cover, need):
    """§7.4 partial cover -1, full cover -2 (cover from the 5-ray test, §1.4)."""
    game = duel(rows, ["lasgun"], (0, 3), (6, 4))
    game.activate("shooter")
    game.script_dice([need - 1, 1])  # one short of the need: a miss
    game.act("shoot", weapon=0, target="target")
    assert shot(game)["cover"] == cover
    assert hit(game)["need"] == need and hit(game)["hit"] == 0


def test_friend_in_base_contact_with_shooter_gives_no_cover():
    """§1.4 friendly fighters in base contact with the attacker are ignored for cover
    (the friend still stands in the line of fire: a miss puts it at risk, §7.5)."""
    friend = fighter("orlock", "ganger", ["fighting_knife"], name="friend")
    game = duel("""
        ........
    """, ["lasgun"], (0, 0), (6, 0), extra_a=[(friend, dict(cell=(1, 0)))])
    game.activate("shooter")
    game.script_dice([2, 1, 5])  # miss, Firepower 1, stray-shot roll 5 for the friend
    game.act("shoot", weapon=0, target="target")
    assert shot(game)["cover"] == COVER_NONE
    assert [e.target for e in game.events("stray")] == [game.fid("friend")]


def test_standing_target_engaged_is_minus_one():
    """§7.4 target Standing and Engaged: -1 (here +1 Short accuracy -1 = 0, needs 4)."""
    friend = fighter("orlock", "ganger", ["fighting_knife"], name="friend")
    game = duel(ROW8, ["lasgun"], (0, 0), (6, 0), extra_a=[(friend, dict(cell=(7, 0), facing="W"))])
    game.activate("shooter")
    game.script_dice([4, 1, 1])  # hit 4, Firepower 1, wound roll 1
    game.act("shoot", weapon=0, target="target")
    assert shot(game)["modifier"] == 0
    assert hit(game) == {"roll": 4, "need": 4, "hit": 1, "reason": HIT_NORMAL}


@pytest.mark.parametrize("cell,band,need", [
    ((4, 0), SHORT, 3),  # Prone at Short range: no penalty (+1 accuracy)
    ((6, 0), LONG, 5),   # Prone at Long range: -1
])
def test_prone_target_minus_one_only_at_long_range(cell, band, need):
    """§7.4 target Prone (Pinned or Seriously Injured) and the shot at Long range: -1."""
    game = duel(ROW8, ["autopistol"], (0, 0), cell, target_posture="pinned")
    game.activate("shooter")
    game.script_dice([need - 1, 1])
    game.act("shoot", weapon=0, target="target")
    assert shot(game)["band"] == band
    assert hit(game)["need"] == need and hit(game)["hit"] == 0


@pytest.mark.parametrize("aim,need", [(False, 3), (True, 2)])
def test_aim_gives_plus_one_to_a_later_shoot(aim, need):
    """§5.2 Aim (Basic): a Shoot later in the same activation gets +1 to hit."""
    game = duel(ROW8, ["lasgun"], (0, 0), (6, 0))
    game.activate("shooter")
    if aim:
        game.act("aim")
    game.script_dice([2, 1, 1])  # hit roll 2, Firepower 1, (wound roll 1 if hit)
    game.act("shoot", weapon=0, target="target")
    assert shot(game)["modifier"] == (2 if aim else 1)
    assert hit(game)["need"] == need and hit(game)["hit"] == int(aim)


def test_aim_bonus_does_not_carry_into_the_next_activation():
    """§5.2 Aim only helps a Shoot later in the same activation."""
    game = duel(ROW8, ["lasgun"], (0, 0), (6, 0))
    game.activate("shooter")
    game.act("aim")
    game.act("end")
    game.activate("shooter", round_=2)
    game.script_dice([2, 1])
    game.act("shoot", weapon=0, target="target")
    assert shot(game)["modifier"] == 1 and hit(game)["hit"] == 0


def test_natural_one_always_misses():
    """§7.4 a natural 1 misses even when the modifiers would make it a hit (needs 2+)."""
    game = duel(ROW8, ["lasgun"], (0, 0), (6, 0), shooter_kw=dict(bs=2))
    game.activate("shooter")
    game.act("aim")  # BS 2+, +1 accuracy, +1 Aim: any roll would do but a 1
    game.script_dice([1, 1])
    game.act("shoot", weapon=0, target="target")
    assert hit(game) == {"roll": 1, "need": 2, "hit": 0, "reason": HIT_NORMAL}
    assert game.fighter("target")["posture"] == "standing"


@pytest.mark.parametrize("dice,hit_ev,hits", [
    ([6, 5, 1, 1], {"roll": 5, "need": 5, "hit": 1, "reason": HIT_IMPROBABLE}, True),   # 6, then 5 vs BS 5+
    ([6, 4, 1], {"roll": 4, "need": 5, "hit": 0, "reason": HIT_IMPROBABLE}, False),     # 6, then 4 < BS 5+
    ([5, 1], {"roll": 5, "need": 7, "hit": 0, "reason": HIT_IMPROBABLE}, False),        # not a 6: miss
])
def test_improbable_shot(dice, hit_ev, hits):
    """§7.4 improbable shots: needing 7+, roll a D6; on a 6 roll again needing the
    unmodified BS. Juve BS 5+, full cover -2, autopistol at Long range (+0): 7+."""
    game = duel(COVER_FULL_MAP, ["autopistol"], (0, 3), (6, 4), shooter_kw=dict(bs=5))
    game.activate("shooter")
    game.script_dice(dice)  # ... Firepower 1, (wound roll 1 on a hit)
    game.act("shoot", weapon=0, target="target")
    assert shot(game)["modifier"] == -2 and shot(game)["band"] == LONG
    assert hit(game) == hit_ev
    assert game.fighter("target")["posture"] == ("pinned" if hits else "standing")
    assert game.dice_left() == 0


# ---------------------------------------------------------------- eligibility (7.2)
def test_target_outside_vision_arc_cannot_be_shot_once_turning_is_over():
    """§1.3/§7.2 eligible targets are in the vision arc; after a first action (Aim) the
    fighter may no longer turn, so an enemy behind it cannot be shot."""
    front = fighter("orlock", "ganger", ["fighting_knife"], name="front", armour="none")
    game = duel(ROW8, ["lasgun"], (3, 0), (0, 0), facing="E", extra_b=[(front, dict(cell=(7, 1)))])
    game.activate("shooter")
    game.act("aim")
    with pytest.raises(IllegalActionError):
        game.act("shoot", weapon=0, target="target")
    game.script_dice([1, 1])
    game.act("shoot", weapon=0, target="front")  # in the arc: legal
    assert shot(game)["band"] == SHORT


def test_freshly_activated_fighter_turns_to_face_its_target():
    """§1.3 a Standing fighter may turn when activated (before its first action): it can
    shoot an enemy behind it and ends facing that enemy."""
    game = duel(ROW8, ["lasgun"], (5, 0), (0, 0), facing="E")
    game.activate("shooter")
    game.script_dice([2, 1])
    game.act("shoot", weapon=0, target="target")
    assert game.fighter("shooter")["facing"] == "W"
    assert len(game.events("hit")) == 1


def test_fighter_may_turn_after_a_move_before_shooting():
    """§1.3 after any move a fighter may choose a new facing: Move east, then shoot west."""
    game = duel(ROW8, ["lasgun"], (3, 1), (0, 0), facing="E")
    game.activate("shooter")
    game.act("move", cell=(5, 1))
    assert game.fighter("shooter")["facing"] == "E"
    game.script_dice([2, 1])
    game.act("shoot", weapon=0, target="target")
    assert game.fighter("shooter")["facing"] in ("W", "NW")


@pytest.mark.parametrize("tile,legal", [("#", False), ("+", False), ("L", False), ("/", True)])
def test_walls_and_closed_doors_block_line_of_sight(tile, legal):
    """§1.4 solid terrain and closed doors block line of sight; an open door does not."""
    game = duel(f"""
        ...{tile}....
    """, ["lasgun"], (0, 0), (6, 0))
    game.activate("shooter")
    if legal:
        game.script_dice([2, 1])
        game.act("shoot", weapon=0, target="target")
        assert shot(game)["cover"] == COVER_NONE
    else:
        with pytest.raises(IllegalActionError):
            game.act("shoot", weapon=0, target="target")


@pytest.mark.parametrize("posture,legal", [("standing", False), ("pinned", True)])
def test_standing_models_block_line_of_sight_prone_ones_do_not(posture, legal):
    """§1.4 Standing models block line of sight (rays through their base); Prone models never do."""
    blocker = fighter("orlock", "ganger", ["fighting_knife"], name="blocker", armour="none")
    game = duel("""
        ........
    """, ["lasgun"], (0, 0), (6, 0), extra_a=[(blocker, dict(cell=(3, 0), posture=posture))])
    game.activate("shooter")
    if legal:
        game.script_dice([1, 1, 5])  # natural 1 misses, Firepower 1, stray roll 5 for the Prone friend
        game.act("shoot", weapon=0, target="target")
        assert shot(game)["cover"] == COVER_NONE
    else:
        with pytest.raises(IllegalActionError):
            game.act("shoot", weapon=0, target="target")


@pytest.mark.parametrize("posture,legal", [
    ("standing", True), ("pinned", False), ("seriously_injured", False),
])
def test_prone_fighter_in_cover_is_hiding(posture, legal):
    """§7.2 fighters in hiding: a Prone (Pinned or Seriously Injured) target in partial or
    full cover cannot be targeted; the same target Standing can. A Standing friend of the target
    far off keeps its gang in the battle (§2.6): without it a Seriously Injured target's gang is
    out at once and the battle is over before the shooter is selected."""
    spare = fighter("orlock", "ganger", ["fighting_knife"], name="spare")
    game = duel(COVER_PARTIAL_MAP, ["lasgun"], (0, 3), (6, 4), target_posture=posture,
                extra_b=[(spare, dict(cell=(7, 0)))])
    game.activate("shooter")
    if legal:
        game.script_dice([1, 1])
        game.act("shoot", weapon=0, target="target")
        assert shot(game)["cover"] == COVER_PARTIAL
    else:
        with pytest.raises(IllegalActionError):
            game.act("shoot", weapon=0, target="target")


def test_prone_fighter_in_the_open_can_be_targeted():
    """§7.2 hiding needs cover: a Seriously Injured fighter in the open is a legal target."""
    other = fighter("orlock", "ganger", ["fighting_knife"], name="other", armour="none")
    game = duel(ROW8, ["lasgun"], (0, 0), (4, 0), target_posture="seriously_injured",
                extra_b=[(other, dict(cell=(7, 1)))])
    game.activate("shooter")
    game.script_dice([1, 1])
    game.act("shoot", weapon=0, target="target")
    assert shot(game)["cover"] == COVER_NONE


def test_standing_and_engaged_fighter_cannot_shoot():
    """§5.2 Shoot needs a Standing and Active fighter."""
    enemy = fighter("orlock", "ganger", ["fighting_knife"], name="enemy", armour="none")
    game = duel(ROW8, ["lasgun"], (0, 0), (6, 0), extra_b=[(enemy, dict(cell=(1, 0)))])
    game.activate("shooter")
    with pytest.raises(IllegalActionError):
        game.act("shoot", weapon=0, target="target")
