"""Blast markers, scatter, misfires and the Flame template (rules digest 7.9-7.11)."""
import pytest

from necro_env.rulesets.necromunda.templates import FLAME_N, flame_stencil_text, under_blast
from necro_env.testing import IllegalActionError, board

from scenario_helpers import make, play, u

WIDE = board("\n".join(["." * 14] * 7))


def cell(game, x, y):
    return y * game.dims.width + x


# ---------------------------------------------------------------- stencils
def test_blast_stencils_are_3x3_and_5x5_blocks():
    """§7.9 grid footprint: a base overlapping the marker (centre distance < X/2 + 1/2) is under
    it: the 3x3 block for Blast (3"), the 5x5 block for Blast (5")."""
    for diam, half in ((3, 1), (5, 2)):
        cells = {(dx, dy) for dx in range(-4, 5) for dy in range(-4, 5) if under_blast(diam, dx, dy)}
        assert cells == {(dx, dy) for dx in range(-half, half + 1) for dy in range(-half, half + 1)}


def test_flame_stencil_orthogonal_rows_and_diagonal_size():
    """§7.10 grid stencil: along a facing axis rows 1-8 have widths 1, 1, 3, 3, 3, 3, 3, 1;
    the diagonal stencil uses the same base-overlap rule (26 cells)."""
    assert flame_stencil_text(0) == "\n".join([".#.", "###", "###", "###", "###", "###", ".#.", ".#.", ".A."])
    assert list(FLAME_N) == [18, 26] * 4


# ---------------------------------------------------------------- Blast at a fighter
def test_blast_hit_hits_every_model_under_the_marker_friend_or_foe():
    """§7.9 step 5: the marker stays on a hit and every model under it is hit, friend or foe,
    closest to the centre first; models outside the 3x3 block are not hit."""
    game = make(u(0, "gunner", (0, 3), ["grenade_launcher"], facing="E"),
                u(1, "target", (6, 3), armour="none"),
                u(1, "near", (7, 4), armour="none"),
                u(0, "friend", (5, 2), armour="none"),
                u(1, "outside", (8, 3), armour="none"),
                board_=WIDE)
    game.activate("gunner")
    # hit roll 6 (BS4, frag -1 at short range, -1 target Engaged with "friend": needs 6), Firepower 1;
    # then per model: knockback D6 1, wound roll 1 (fails) -- target, friend, near
    play(game, [6, 1, 1, 1, 1, 1, 1, 1], "shoot", weapon=0, profile=0, target="target")
    blast = game.events("blast")[0].fields
    assert blast == {"cell": cell(game, 6, 3), "diameter": 3, "placement": 0, "models_hit": 3}
    wounded = [e.target for e in game.events("wound")]
    assert wounded == [game.fid("target"), game.fid("friend"), game.fid("near")]
    assert game.fighter("near")["posture"] == "pinned"
    for name in ("target", "friend"):  # Standing and Engaged fighters are not pinned (7.4)
        assert game.fighter(name)["posture"] == "standing"
    assert game.fighter("outside")["posture"] == "standing"


def test_blast_miss_scatters_and_hits_where_it_lands():
    """§7.9 step 4: a miss rolls the Scatter dice (face, direction die, D6 distance) and moves the
    centre; face 1 (arrow, odd) with direction die 2 is 60 degrees (towards east-north-east)."""
    game = make(u(0, "gunner", (0, 5), ["grenade_launcher"], facing="E"),
                u(1, "target", (5, 5), armour="none"),
                u(1, "victim", (7, 3), armour="none"),
                board_=WIDE)
    game.activate("gunner")
    # hit roll 2 misses; Firepower 1; scatter face 1 (arrow), direction 2 (60 deg), distance 2;
    # centre (5,5) + 2" at 60 deg -> (6.73, 4.0) -> cell (7, 4): victim (7,3) is under, target is not.
    play(game, [2, 1, 1, 2, 2, 1, 1], "shoot", weapon=0, profile=0, target="target")
    sc = game.events("scatter")[0].fields
    assert sc == {"hit_symbol": 0, "angle": 60, "distance": 2, "from_cell": cell(game, 5, 5), "misfire_roll": 0}
    bl = game.events("blast")[0].fields
    assert bl["cell"] == cell(game, 7, 4) and bl["placement"] == 1 and bl["models_hit"] == 1
    assert [e.target for e in game.events("wound")] == [game.fid("victim")]
    assert game.fighter("target")["posture"] == "standing"


def test_scatter_stops_before_a_wall():
    """§7.9 step 4: the centre stops if it meets solid terrain."""
    b = board("""
        ..........
        ..........
        ........#.
        ..........
        ..........
        ..........
    """)
    game = make(u(0, "gunner", (0, 2), ["grenade_launcher"], facing="E"),
                u(1, "target", (5, 2), armour="none"), board_=b)
    game.activate("gunner")
    # miss; Firepower 1; face 1, direction 2 -> 60 deg... use direction die 2 with face 2 -> 90 deg (east), D6 6
    play(game, [2, 1, 2, 2, 6], "shoot", weapon=0, profile=0, target="target")
    assert game.events("scatter")[0].fields["angle"] == 90
    assert game.events("blast")[0].fields["cell"] == cell(game, 7, 2)


@pytest.mark.parametrize("second, placement", [(3, 3), (1, 2)])
def test_misfire_dud_or_centred_on_the_attacker(second, placement):
    """§7.9 step 6: Scatter "Hit" with a 1 on the D6: another D6, 2-6 a dud (no marker), 1 the
    marker is centred on the attacker."""
    game = make(u(0, "gunner", (2, 2), ["grenade_launcher"], facing="E", armour="none"),
                u(1, "target", (7, 2), armour="none"))
    game.activate("gunner")
    dice = [2, 1, 5, 1, 1, second]  # miss, Firepower 1, face 5 ("Hit"), direction 1, D6 1, misfire roll
    if second == 1:
        dice += [1, 1]  # the gunner under its own marker: knockback D6 1, wound roll 1
    play(game, dice, "shoot", weapon=0, profile=0, target="target")
    bl = game.events("blast")[0].fields
    assert bl["placement"] == placement
    if placement == 3:
        assert bl["cell"] == -1 and game.events("wound") == []
    else:
        assert bl["cell"] == cell(game, 2, 2)
        assert [e.target for e in game.events("wound")] == [game.fid("gunner")]


def test_walls_shield_models_from_the_blast_centre():
    """§7.9 step 5: a model under the marker is not hit when solid terrain lies between it and
    the marker's centre (the centre-to-centre line crosses a wall)."""
    b = board("""
        ..........
        ......#...
        ......#...
        ......#...
        ..........
        ..........
    """)
    game = make(u(0, "gunner", (0, 2), ["missile_launcher"], facing="E"),
                u(1, "target", (5, 2), armour="none"),
                u(1, "behind", (7, 2), armour="none"), board_=b)
    game.activate("gunner")
    # missile launcher frag (5"): hit roll 4 (BS4 +1 short -> 3+), Firepower 1; target: knockback 1, wound 1
    play(game, [4, 1, 1, 1], "shoot", weapon=0, profile=0, target="target")
    assert game.events("blast")[0].fields["models_hit"] == 1
    assert game.fighter("behind")["posture"] == "standing"


def test_blast_at_a_point_uses_minus_two_and_no_target_priority():
    """§7.9 step 1 / §7.4: a Blast may target a point: -2 to hit unless Smoke; target priority
    does not apply."""
    game = make(u(0, "gunner", (0, 2), ["grenade_launcher"], facing="E"),
                u(1, "near", (3, 2), armour="none"),
                u(1, "far", (8, 2), armour="none"))
    game.activate("gunner")
    # the point (8, 3) is at Long range (accuracy 0): hit roll 6 (needs 6), Firepower 1;
    # far: knockback D6 1, wound roll 1
    play(game, [6, 1, 1, 1], "shoot_cell", weapon=0, profile=0, cell=(8, 3))
    shot = game.events("shot")[0]
    assert shot.target == -1 and shot.fields["modifier"] == -2
    assert game.events("cool") == []
    assert [e.target for e in game.events("wound")] == [game.fid("far")]


def test_point_target_must_be_in_range_and_sight():
    """§7.9 step 2 (docs/rules.md): the point must be in line of sight and, on the grid, within
    Long range; cells behind a wall are not offered."""
    b = board("""
        ..........
        ....#.....
        ..........
        ..........
        ..........
        ..........
    """)
    game = make(u(0, "gunner", (0, 1), ["frag_grenade"], facing="E"),
                u(1, "target", (9, 0)), board_=b)
    game.activate("gunner")
    assert game.can("shoot_cell", weapon=0, cell=(3, 1))
    assert not game.can("shoot_cell", weapon=0, cell=(6, 1))  # behind the wall
    with pytest.raises(IllegalActionError):
        game.act("shoot_cell", weapon=0, cell=(6, 1))


# ---------------------------------------------------------------- Flame template
def test_flame_template_hits_every_model_under_it_without_a_hit_roll():
    """§7.10: no target priority, no hit roll; the Firepower dice is rolled; every model under the
    template is hit, closest first, friend or foe; models outside it are not."""
    game = make(u(0, "burner", (1, 3), ["flamer"], facing="E"),
                u(1, "t1", (3, 3), armour="none"),
                u(1, "t2", (6, 4), armour="none"),
                u(0, "pal", (5, 2), armour="none"),
                u(1, "off", (6, 6), armour="none"),
                board_=WIDE)
    game.activate("burner")
    # Firepower 1; wound rolls 1 (t1, pal, t2: all fail); Blaze rolls 1, 1, 1 (no fire)
    play(game, [1, 1, 1, 1, 1, 1, 1], "shoot", weapon=0, target="t2")
    assert game.events("hit") == []
    assert game.events("flame")[0].fields == {"facing": 2, "models_hit": 3}
    assert [e.target for e in game.events("wound")] == [game.fid("t1"), game.fid("pal"), game.fid("t2")]
    assert game.fighter("off")["posture"] == "standing"


def test_flame_template_blocked_by_walls_and_needs_the_facing():
    """§7.10: models with solid terrain between them and the attacker are not hit; without a
    free turn the template must point along the facing."""
    b = board("""
        ..........
        ....#.....
        ..........
        ..........
        ..........
        ..........
    """)
    game = make(u(0, "burner", (1, 1), ["flamer"], facing="E"),
                u(1, "front", (3, 1), armour="none"),
                u(1, "shadow", (6, 1), armour="none"), board_=b)
    game.activate("burner")
    assert not game.can("shoot", weapon=0, target="shadow")
    play(game, [1, 1, 1], "shoot", weapon=0, target="front")
    assert [e.target for e in game.events("wound")] == [game.fid("front")]
    game2 = make(u(0, "burner", (1, 1), ["flamer"], facing="E"), u(1, "south", (1, 4)), board_=b)
    game2.activate("burner")
    assert game2.can("shoot", weapon=0, target="south")  # it may still turn to face it
    game2.act("turn", facing="N")
    assert not game2.can("shoot", weapon=0, target="south")


def test_cover_from_the_attacker_improves_saves_against_a_flame():
    """§7.11: against a Flame template, cover relative to the attacker gives +1 / +2 to the save
    (an unarmoured fighter counts as 7+ first)."""
    b = board("""
        ..........
        ...o......
        ..........
        ..........
        ..........
        ..........
    """)
    game = make(u(0, "burner", (1, 1), ["flamer"], facing="E"),
                u(1, "hiding", (4, 1), armour="none"), board_=b)
    game.activate("burner")
    # Firepower 1; wound roll 6; save: 7+ -2 full cover = 5+, AP -1 -> 6+: roll 6 saves; Blaze 1
    play(game, [1, 6, 6, 1], "shoot", weapon=0, target="hiding")
    sv = game.events("save")[0].fields
    assert sv["need"] == 6 and sv["saved"] == 1


def test_flamer_through_a_ductway_hits_every_model_within_two_inches_of_the_far_end():
    """§5.2 Fire Through Ductway ([CZ]): a weapon that uses the Flame template instead hits
    automatically every model within 2" of the ductway's other end (no hit roll); Blast weapons
    may not fire through a ductway."""
    b = board("""
        ....#.....
        ....#.....
        ....#.....
        ....#.....
        ....#.....
        ....#.....
    """, ductways=[(1, 0, 7, 0)])
    game = make(u(0, "burner", (1, 1), ["flamer", "grenade_launcher"], facing="E"),
                u(1, "t1", (7, 1), armour="none"),
                u(1, "t2", (9, 2), armour="none"),
                u(1, "far", (7, 4), armour="none"), board_=b)
    game.activate("burner")
    assert not game.can("fire_ductway", weapon=1, profile=0, target="t1")  # frag: Blast
    # Firepower 1; wound rolls 1 (t1, the burner's own spare at (9, 0), t2); Blaze rolls 1, 1, 1
    play(game, [1, 1, 1, 1, 1, 1, 1], "fire_ductway", weapon=0, target="t1")
    assert game.events("hit") == []
    assert [e.target for e in game.events("wound")] == [game.fid("t1"), game.fid("spare_a"), game.fid("t2")]
    assert game.fighter("far")["posture"] == "standing"
