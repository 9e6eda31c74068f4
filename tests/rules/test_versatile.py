"""§12 Versatile: during its own activation the wielder can engage and attack enemies up to the
weapon's Long range away; they do not engage it back unless they also have Versatile reach.

No §13 weapon has Versatile, so these tests give a sword Versatile with Long 3" in a copy of the
weapon table for one game (the config files are untouched)."""
import pytest

from necro_env.config import load_weapons
from necro_env.rulesets.necromunda.constants import PF_LONG, PF_TRAITS, T_VERSATILE
from necro_env.testing import IllegalActionError, board, fighter, gang, scenario

WEAPONS = load_weapons()
SWORD = WEAPONS.index["sword"]

OPEN = board("""
.........
.........
.........
.........
""")
WALLED = board("""
.........
.........
...#.....
.........
""")


def game_with(att_weapons, dfn_weapons, dfn_cell, b=OPEN, dfn_facing="W"):
    att = fighter("orlock", "ganger", att_weapons, name="att", armour="none")
    dfn = fighter("orlock", "ganger", dfn_weapons, name="dfn", armour="none")
    game = scenario(b, [gang("a", att), gang("b", dfn)], [
        dict(fighter="att", cell=(1, 2), facing="E"),
        dict(fighter="dfn", cell=dfn_cell, facing=dfn_facing),
    ])
    prof = WEAPONS.profiles.copy()
    prof[SWORD, 0, PF_LONG] = 3
    prof[SWORD, 0, PF_TRAITS] |= T_VERSATILE
    game.static = game.static._replace(wprof=prof)
    game.activate("att")
    return game


def test_versatile_fight_at_reach_without_reaction():
    """§12 Versatile: a Standing and Active wielder fights an enemy 2" away with the Versatile
    weapon only; the target, without Versatile reach, makes no reaction attacks."""
    game = game_with(["sword", "fighting_knife"], ["fighting_knife"], (4, 2))
    assert game.fighter("att")["posture"] == "standing"
    game.script_dice([4, 4, 1])  # hit (WS 4+, sword +1: 3+), wound (S3 vs T3: 4+), injury die: flesh wound
    game.act("fight", target="dfn")
    att = game.events("attacks")[0].fields
    assert att["dice"] == 1 and att["weapon1"] == SWORD and att["weapon2"] == -1
    assert game.events("reaction") == []
    assert game.fighter("dfn")["flesh_wounds"] == 1
    assert game.dice_left() == 0


def test_versatile_target_with_reach_reacts():
    """§12 Versatile: a target that also has Versatile reach fights back."""
    game = game_with(["sword"], ["sword"], (4, 2))
    game.script_dice([1, 1])  # attacker misses; the target's reaction misses
    game.act("fight", target="dfn")
    assert [e.actor for e in game.events("reaction")] == [game.fid("dfn")]
    assert game.dice_left() == 0


def test_versatile_reach_is_limited_to_long_range():
    """§12 Versatile: an enemy beyond the weapon's Long range (gap 4" > 3") cannot be fought."""
    game = game_with(["sword"], ["fighting_knife"], (6, 2))
    with pytest.raises(IllegalActionError):
        game.act("fight", target="dfn")


def test_versatile_needs_line_of_sight():
    """§12 Versatile with §1.4: a wall between the two fighters blocks the attack at reach."""
    game = game_with(["sword"], ["fighting_knife"], (4, 2), b=WALLED)
    with pytest.raises(IllegalActionError):
        game.act("fight", target="dfn")


def test_without_versatile_no_fight_at_distance():
    """§5.2 Fight: without Versatile a Standing and Active fighter has no Fight action."""
    game = game_with(["fighting_knife"], ["fighting_knife"], (4, 2))
    with pytest.raises(IllegalActionError):
        game.act("fight", target="dfn")
