"""Grenades (rules digest 7.6, 12 Grenade, 13.1): thrown with Shoot (Basic), no Short range,
Long range = Strength x 3, no Firepower dice, an automatic Ammo test after the attack, and a
failed test uses the grenade up for the battle."""
from necro_env.testing import board

from scenario_helpers import make, play, u

WIDE = board("\n".join(["." * 16] * 6))


def test_grenade_range_is_strength_times_three():
    """§12 Grenade: Long range = S x 3 (S3 -> 9"), no Short range: a target at 9" is at Long range
    (krak Accuracy -1), one at 10" is out of range for S3 but in range for an S4 thrower."""
    game = make(u(0, "thrower", (0, 2), ["krak_grenade"], facing="E"),
                u(1, "target", (10, 2), armour="none"), board_=WIDE, spares=False)
    game.activate("thrower")
    # hit roll 6 (BS4, -1: needs 5), no Firepower dice; wound S6 vs T3 (2+) roll 1 fails; Ammo test 4 passes
    play(game, [6, 1, 4], "shoot", weapon=0, target="target")
    shot = game.events("shot")[0].fields
    assert shot["band"] == 1 and shot["modifier"] == -1
    assert game.events("firepower") == []

    far = make(u(0, "thrower", (0, 2), ["krak_grenade"], facing="E"),
               u(1, "target", (11, 2), armour="none"), board_=WIDE, spares=False)
    far.activate("thrower")
    play(far, [4], "shoot", weapon=0, target="target")  # out of range: no hit roll, Ammo test 4
    assert far.events("shot")[0].fields["band"] == 2
    strong = make(u(0, "thrower", (0, 2), ["krak_grenade"], facing="E", s=4),
                  u(1, "target", (11, 2), armour="none"), board_=WIDE, spares=False)
    strong.activate("thrower")
    play(strong, [1, 4], "shoot", weapon=0, target="target")  # hit roll 1 misses (no stray: it is alone)
    assert strong.events("shot")[0].fields["band"] == 1


def test_failed_automatic_ammo_test_uses_the_grenade_up():
    """§12 Grenade / §7.6: after the attack an Ammo test is made automatically; on a failure that
    grenade is used up for the battle: it cannot be thrown again nor reloaded."""
    game = make(u(0, "thrower", (0, 2), ["krak_grenade", "autopistol"], facing="E"),
                u(1, "target", (5, 2), armour="none"), board_=WIDE)
    game.activate("thrower")
    play(game, [6, 1, 3], "shoot", weapon=0, target="target")  # hit, wound roll 1, Ammo test 3 fails (4+)
    ammo = game.events("ammo")[0].fields
    assert ammo == {"roll": 3, "need": 4, "passed": 0, "slot": 0}
    assert not game.can("reload", weapon=0)
    assert game.can("reload", weapon=1) is False  # the autopistol is loaded
    assert game.fighter("thrower")["out_of_ammo"] == [0]


def test_frag_grenade_out_of_range_slides_back():
    """§7.9 step 3: a Blast centred beyond Long range slides straight back toward the thrower
    until it is in range; it then counts as aimed at a point (-2)."""
    game = make(u(0, "thrower", (0, 2), ["frag_grenade"], facing="E"),
                u(1, "target", (13, 2), armour="none"),
                u(1, "short", (9, 3), armour="none"), board_=WIDE)
    game.activate("thrower")
    # the nearer enemy "short" is the closest target: shooting "target" needs a Cool test (2D6 7+)
    # Cool 4+3 passes; slid to (10, 2) (gap 9"): hit roll 6 (needs 6); short: knockback 1, wound 1;
    # Ammo test 4
    play(game, [4, 3, 6, 1, 1, 4], "shoot", weapon=0, target="target")
    bl = game.events("blast")[0].fields
    assert bl["placement"] == 4 and bl["cell"] == 2 * 16 + 10
    assert game.events("shot")[0].target == -1
    assert [e.target for e in game.events("wound")] == [game.fid("short")]


def test_grenade_throw_is_a_basic_shoot_action():
    """§12 Grenade: thrown with the Shoot (Basic) action: once per activation."""
    game = make(u(0, "thrower", (0, 2), ["frag_grenade", "krak_grenade"], facing="E"),
                u(1, "target", (5, 2), armour="none"), board_=WIDE)
    game.activate("thrower")
    play(game, [6, 1, 4], "shoot", weapon=1, target="target")  # krak: hit, wound 1, Ammo 4
    assert not game.can("shoot", weapon=0, target="target")
    assert not game.can("shoot_cell", weapon=0, cell=(5, 3))
