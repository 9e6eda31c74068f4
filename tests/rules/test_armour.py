"""Armour against Blast and Flame template attacks (rules digest 9.2, 7.11)."""
from necro_env.rulesets.necromunda.query import clear_rays_cells, cover_grade
from necro_env.testing import board

from scenario_helpers import make, play, u


def test_flak_saves_five_plus_against_templates_six_plus_otherwise():
    """§9.2 Flak: 6+, but 5+ against Blast and Flame template attacks (flamer AP -1 -> 6+)."""
    game = make(u(0, "burner", (1, 2), ["flamer"], facing="E"),
                u(1, "target", (3, 2), armour="flak"))
    game.activate("burner")
    play(game, [1, 6, 6, 1], "shoot", weapon=0, target="target")  # Firepower 1, wound 6, save 6, Blaze 1
    assert game.events("save")[0].fields["need"] == 6 and game.events("save")[0].fields["saved"] == 1

    shot = make(u(0, "gunner", (1, 2), ["lasgun"], facing="E"), u(1, "target", (3, 2), armour="flak"))
    shot.activate("gunner")
    play(shot, [3, 1, 4, 6], "shoot", weapon=0, target="target")  # hit 3, Firepower 1, wound 4, save 6
    assert shot.events("save")[0].fields["need"] == 6


def test_blast_cover_is_judged_from_the_marker_centre():
    """§7.11: a model hit by a Blast in partial / full cover from the marker's centre gets +1 / +2
    to its save (mesh 5+, missile frag AP -1)."""
    game = make(u(0, "gunner", (0, 2), ["missile_launcher"], facing="E"),
                u(1, "target", (4, 2), armour="mesh"),
                u(1, "blocker", (5, 2), armour="mesh"),
                u(1, "behind", (6, 2), armour="mesh"))
    # the Standing blocker hides "behind" from the centre (4, 2) completely: no line of sight from
    # the centre, which counts as full cover (+2); only solid terrain stops the hit itself
    cg = cover_grade(clear_rays_cells(game.state, game.static, 0, 4, 2, 6, 2, -1, -1, game.fid("behind"), False))
    assert cg == 3
    game.activate("gunner")
    # hit roll 5 (BS4, +1 short: needs 3); Firepower 1; target, blocker: knockback 1, wound 1 (fail);
    # behind: knockback 1, wound 6, save 4 (mesh 5+, -2 cover, +1 AP: 4+) saves
    play(game, [5, 1, 1, 1, 1, 1, 1, 6, 4], "shoot", weapon=0, profile=0, target="target")
    sv = game.events("save")[0]
    assert sv.actor == game.fid("behind") and sv.fields["need"] == 4 and sv.fields["saved"] == 1


def test_cover_bonus_never_improves_field_armour():
    """§7.11 / §9.2: the cover bonus improves armour saves but never a Field armour save: an
    unarmoured fighter with a refractor field in full cover uses the field (5+), not a 5+ save."""
    b = board("""
        ..........
        ...o......
        ..........
        ..........
        ..........
        ..........
    """)
    game = make(u(0, "burner", (1, 1), ["flamer"], facing="E"),
                u(1, "target", (4, 1), armour="none", field_armour=True), board_=b)
    game.activate("burner")
    # Firepower 1; the field rolls 4 (fails); wound roll 1 (fails); Blaze roll 1
    play(game, [1, 4, 1, 1], "shoot", weapon=0, target="target")
    assert game.events("field")[0].fields["roll"] == 4
    assert game.events("save") == []
