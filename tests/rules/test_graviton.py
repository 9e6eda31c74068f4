"""§12 Graviton Pulse (with §3 End phase): no wound roll but a Strength check, Damage with no
save, and a marker that slows movement until the End phase. No weapon in configs/ has the trait
(§13 lists none), so these tests define a test weapon: the frag grenade's profile (Blast 3",
S3, D1) with Graviton Pulse in place of Knockback (docs/rules.md §12)."""
import dataclasses

from necro_env.config import load_weapons
from necro_env.rulesets.necromunda.constants import PF_TRAITS, PF_TRAITS2, T2_GRAVITON, T_KNOCKBACK
from necro_env.rulesets.necromunda.damage import TR_GRAVITON
from necro_env.rulesets.necromunda.state import G_GRAV0, G_GRAVD0
from necro_env.rulesets.necromunda.templates import graviton_end_phase
from necro_env.testing import board

from scenario_helpers import make, play, u

WIDE = board("\n".join(["." * 14] * 6))
WEAPONS = load_weapons()


def grav_table():
    prof = WEAPONS.profiles.copy()
    i = WEAPONS.index["frag_grenade"]
    prof[i, 0, PF_TRAITS] &= ~T_KNOCKBACK
    prof[i, 0, PF_TRAITS2] |= T2_GRAVITON >> 32
    return dataclasses.replace(WEAPONS, profiles=prof)


def thrown(dice, **target):
    game = make(u(0, "thrower", (0, 2), ["frag_grenade"], facing="E"),
                u(1, "target", (4, 2), armour="light_carapace", **target), board_=WIDE, weapons=grav_table())
    game.activate("thrower")
    play(game, dice, "shoot", weapon=0, target="target")
    return game


def test_failed_strength_check_suffers_damage_with_no_save():
    """§12 Graviton Pulse: no wound roll; a D6 above the fighter's S means it suffers the weapon's
    Damage with no save (light carapace would save on 4+). The Blast still pins (§7.9)."""
    # hit roll 4; Strength check 4 > S3: Damage 1 (W2 -> 1); grenade Ammo test 4
    game = thrown([4, 4, 4], w=2)
    tr = game.events("trait")[0].fields
    assert (tr["trait"], tr["roll"], tr["need"], tr["effect"]) == (TR_GRAVITON, 4, 3, 1)
    assert game.events("wound") == [] and game.events("save") == []
    t = game.fighter("target")
    assert t["wounds"] == 1 and t["posture"] == "pinned"


def test_passed_strength_check_has_no_effect_but_pinning():
    """§12 Graviton Pulse: a D6 of S or less: no damage."""
    game = thrown([4, 3, 4], w=2)
    assert game.events("trait")[0].fields["effect"] == 0
    assert game.events("damage") == []
    assert game.fighter("target")["wounds"] == 2


def test_a_six_always_fails_the_check():
    """§12 Graviton Pulse: a 6 always fails, even for S7; a 5 passes for S7. Damage that takes
    the last Wound rolls the Injury dice as any Damage does (§9)."""
    game = thrown([4, 6, 1, 4], s=7, w=1)  # hit, check 6 fails, Injury die 1 (Flesh Wound), Ammo 4
    assert game.events("trait")[0].fields["effect"] == 1
    assert len(game.events("injury")) == 1
    game = thrown([4, 5, 4], s=7, w=1)
    assert game.events("trait")[0].fields["effect"] == 0 and game.events("injury") == []


def test_the_marker_stays_and_is_removed_in_the_end_phase():
    """§12 Graviton Pulse / §3 End phase: the Blast marker is left where it landed until the End
    phase, which removes it (an event names its cell)."""
    game = thrown([4, 3, 4], w=2)
    s = game.state
    assert s.g[0, G_GRAV0] == 2 * 14 + 4 + 1 and s.g[0, G_GRAVD0] == 3
    graviton_end_phase(s, 0)
    assert s.g[0, G_GRAV0] == 0
    assert game.events("grav_gone")[0].fields["cell"] == 2 * 14 + 4


def test_the_end_phase_removes_the_marker_in_play():
    """§3 End phase: played through the engine, the End phase of the round removes the marker."""
    game = make(u(0, "thrower", (0, 2), ["frag_grenade"], facing="E"),
                u(1, "target", (4, 2), armour="light_carapace", w=2), board_=WIDE, weapons=grav_table(),
                spares=False)
    game.activate("thrower")
    play(game, [4, 3, 4], "shoot", weapon=0, target="target")
    assert game.state.g[0, G_GRAV0] != 0
    play(game, [], "end")
    play(game, [], "select", fighter=0)  # the target's activation (Pinned): it ends at once
    game.script_dice([3, 4])  # next round's Priority roll-off
    game.act("end")
    gone = game.events("grav_gone")
    assert [e.fields["cell"] for e in gone] == [2 * 14 + 4]
    assert game.state.g[0, G_GRAV0] == 0 and game.round == 2


def test_moving_through_the_marker_costs_two_inches_per_inch():
    """§12 Graviton Pulse: any fighter moving through the marker's area uses 2" of its Movement
    for every 1" (a step into a cell under the marker costs double, docs/rules.md)."""
    game = make(u(0, "mover", (0, 2), m=4), u(1, "foe", (13, 5)), board_=WIDE)
    game.activate("mover")
    assert game.can("move", cell=(3, 2))  # 3" straight east
    game = make(u(0, "mover", (0, 2), m=4), u(1, "foe", (13, 5)), board_=WIDE)
    game.state.g[0, G_GRAV0] = 2 * 14 + 3 + 1  # a 3" marker on (3, 2): cells x 2-4, y 1-3
    game.state.g[0, G_GRAVD0] = 3
    game.activate("mover")
    assert not game.can("move", cell=(3, 2))  # 1" + 2 x 2" = 5" > 4"
    assert game.can("move", cell=(3, 0))  # around the marker: 1.5" + 1.5" + 1" = 4"
    play(game, [], "move", cell=(2, 2))
    mv = game.events("move")[0].fields
    assert mv["cost_half_inches"] == 2 + 4  # 1" outside, then 1" inside at double cost
