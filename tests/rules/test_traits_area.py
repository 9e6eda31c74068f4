"""Traits that arrive with templates, blasts and grenades (rules digest 12): Gas, Web, Blaze,
Smoke; and the Template / Blast profiles are no longer masked."""
from necro_env.rulesets.necromunda import constants as C
from necro_env.rulesets.necromunda.query import clear_rays
from necro_env.rulesets.necromunda.state import G_SMOKE0
from necro_env.rulesets.necromunda.templates import smoke_end_phase
from necro_env.testing import board

from scenario_helpers import make, play, u

WIDE = board("\n".join(["." * 14] * 6))


def test_no_trait_is_masked_any_more():
    """§12: every trait of the starter data is implemented (T_NOT_YET is empty)."""
    assert C.T_NOT_YET == 0


def test_gas_uses_toughness_no_pinning_and_no_save():
    """§12 Gas: no pinning and no wound roll: a D6 >= the target's Toughness rolls an Injury dice
    (ignoring Wounds); no save is ever allowed (light carapace 4+ here)."""
    game = make(u(0, "thrower", (0, 2), ["choke_gas_grenade"], facing="E"),
                u(1, "target", (4, 2), armour="light_carapace"), board_=WIDE)
    game.activate("thrower")
    # hit roll 4 (needs 4); gas roll 3 >= T3; Injury dice face 3 (Serious Injury); Ammo test 5 (5+)
    play(game, [4, 3, 3, 5], "shoot", weapon=0, target="target")
    assert game.events("pinned") == []
    assert game.events("save") == []
    assert game.events("wound")[0].fields["need"] == 3
    assert game.fighter("target")["posture"] == "seriously_injured"

    game = make(u(0, "thrower", (0, 2), ["choke_gas_grenade"], facing="E"),
                u(1, "target", (4, 2), armour="light_carapace"), board_=WIDE)
    game.activate("thrower")
    play(game, [4, 2, 5], "shoot", weapon=0, target="target")  # gas roll 2 < T3: no effect
    assert game.fighter("target")["posture"] == "standing"
    assert game.events("injury") == []


def test_web_makes_the_target_webbed_without_damage_or_save():
    """§12 Web: if the wound roll succeeds the target becomes Webbed (4.3: treated as Seriously
    Injured); no damage, no save, no Injury roll."""
    game = make(u(0, "webber", (1, 2), ["web_gun"], facing="E"),
                u(1, "target", (3, 2), armour="mesh"), board_=WIDE)
    game.activate("webber")
    play(game, [1, 3], "shoot", weapon=0, target="target")  # Firepower 1; wound roll 3 (S5 vs T3: 3+)
    t = game.fighter("target")
    assert "webbed" in t["conditions"] and t["posture"] == "seriously_injured"
    assert game.events("save") == [] and game.events("injury") == [] and game.events("damage") == []

    game = make(u(0, "webber", (1, 2), ["web_gun"], facing="E"),
                u(1, "target", (3, 2), armour="mesh"), board_=WIDE)
    game.activate("webber")
    play(game, [1, 2], "shoot", weapon=0, target="target")  # wound roll 2 fails: only pinned
    assert game.fighter("target")["conditions"] == [] and game.fighter("target")["posture"] == "pinned"


def test_blaze_sets_a_hit_target_on_fire_on_four_plus():
    """§12 Blaze: after the attack, a target hit and not taken Out of Action catches fire on a D6
    of 4+."""
    game = make(u(0, "burner", (1, 2), ["flamer"], facing="E"),
                u(1, "hot", (3, 2), armour="none"),
                u(1, "cold", (4, 2), armour="none"), board_=WIDE)
    game.activate("burner")
    # Firepower 1; wound rolls 1, 1 (hot, cold); Blaze rolls 4 (hot catches fire), 3 (cold does not)
    play(game, [1, 1, 1, 4, 3], "shoot", weapon=0, target="cold")
    assert "blaze" in game.fighter("hot")["conditions"]
    assert "blaze" not in game.fighter("cold")["conditions"]


def test_smoke_cloud_blocks_line_of_sight_and_causes_no_hits():
    """§12 Smoke: no hits, no pinning, no wounds; a cloud 2.5" around the impact point blocks
    line of sight into, out of and through it; a Smoke Blast aimed at a point has no -2."""
    game = make(u(0, "thrower", (0, 2), ["smoke_grenade"], facing="E"),
                u(1, "near", (5, 3), armour="none"),
                u(1, "far", (10, 2), armour="none"), board_=WIDE)
    game.activate("thrower")
    th, far = game.fid("thrower"), game.fid("far")
    assert clear_rays(game.state, game.static, 0, th, far, False) == 5
    play(game, [4, 4], "shoot_cell", weapon=0, cell=(5, 2))  # hit roll 4 (needs 4: no -2), Ammo test 4
    assert game.events("shot")[0].fields["modifier"] == 0
    assert game.events("blast")[0].fields["models_hit"] == 0
    assert game.fighter("near")["posture"] == "standing"
    assert game.state.g[0, G_SMOKE0] == 2 * 14 + 5 + 1
    assert clear_rays(game.state, game.static, 0, th, far, False) == 0


def test_smoke_dissipates_in_the_end_phase_on_one_to_four():
    """§12 Smoke: in the End phase a D6 of 1-4 removes the cloud."""
    game = make(u(0, "a", (0, 2)), u(1, "b", (10, 2)), board_=WIDE)
    game.state.g[0, G_SMOKE0] = 30
    game.script_dice([5])
    smoke_end_phase(game.state, game.static, 0)
    assert game.state.g[0, G_SMOKE0] == 30
    game.script_dice([4])
    smoke_end_phase(game.state, game.static, 0)
    assert game.state.g[0, G_SMOKE0] == 0
