"""Traits of ranged weapons (rules digest 12) that do not use templates, blasts or
grenades: Knockback, Melta, Toxin, Scattershot, Unstable, Unwieldy; Template / Blast / Grenade
profiles are legal (their rules are tested in test_templates.py and test_grenades.py)."""
import pytest

from necro_env.rulesets.necromunda import constants as C
from necro_env.testing import board, fighter, gang, scenario

BOARD = """
..........
..........
..........
..........
..........
"""
INJ_FLESH, INJ_SERIOUS, INJ_OOA = 0, 1, 2



def setup(weapons, target_cell, *, rows=BOARD, shooter_cell=(0, 1), target=("orlock", "ganger"),
          target_kw=None, friends=(), shooter_kw=None):
    """An Orlock ganger (BS 4+) facing east shooting at an unarmoured fighter."""
    tkw = dict(armour="none")
    tkw.update(target_kw or {})
    a = [fighter("orlock", "ganger", list(weapons), name="shooter", **(shooter_kw or {}))]
    where = [dict(fighter="shooter", cell=shooter_cell, facing="E"), dict(fighter="target", cell=target_cell)]
    for name, cell in friends:
        a.append(fighter("orlock", "ganger", ["fighting_knife"], name=name))
        where.append(dict(fighter=name, cell=cell, facing="W"))
    b = [fighter(target[0], target[1], ["fighting_knife"], name="target", **tkw)]
    game = scenario(board(rows), [gang("a", *a), gang("b", *b)], where)
    game.activate("shooter")
    return game


def patch(game, weapon, profile, traits_add):
    """Add traits to one weapon profile for this game only (no ranged weapon in
    configs/weapons.yaml has Rending, Power or Shock)."""
    wp = game.static.wprof.copy()
    wp[game.weapons.index[weapon], profile, C.PF_TRAITS] |= traits_add
    game.static = game.static._replace(wprof=wp)


def cell_index(game, x, y):
    return y * game.dims.width + x


# ---------------------------------------------------------------- Knockback
def test_knockback_pushes_the_target_one_inch_away():
    """§12 Knockback: if the hit roll is >= the target's Strength, it is pushed 1" directly
    away from the attacker (and, hit, it is Pinned)."""
    game = setup(["shotgun"], (4, 1))
    game.script_dice([4, 1, 1])  # hit roll 4 >= S3, Firepower 1, wound roll 1 fails
    game.act("shoot", weapon=0, profile=0, target="target")
    kb = game.events("knockback")[0]
    assert kb.fields == {"roll": 4, "from_cell": cell_index(game, 4, 1), "to_cell": cell_index(game, 5, 1),
                         "blocked": 0}
    assert game.fighter("target")["cell"] == (5, 1)
    assert game.fighter("target")["posture"] == "pinned"


def test_no_knockback_when_hit_roll_is_below_strength():
    """§12 Knockback needs a hit roll of at least the target's Strength (Goliath S4 here)."""
    game = setup(["shotgun"], (4, 1), target=("goliath", "ganger"))
    game.script_dice([3, 1, 1])  # hit roll 3 (needs 3) < S4
    game.act("shoot", weapon=0, profile=0, target="target")
    assert game.events("hit")[0].fields["hit"] == 1
    assert game.events("knockback") == []
    assert game.fighter("target")["cell"] == (4, 1)


@pytest.mark.parametrize("blocker", ["wall", "fighter"])
def test_blocked_knockback_adds_one_damage(blocker):
    """§12 if the target cannot move the full 1", the hit gets +1 Damage (shotgun D2 -> 3)."""
    rows = BOARD if blocker == "fighter" else """
        ..........
        .....#....
        ..........
    """
    others = [("wall_friend", (5, 1))] if blocker == "fighter" else []
    game = setup(["shotgun"], (4, 1), rows=rows, target_kw=dict(w=4), friends=others)
    game.script_dice([4, 1, 3])  # hit 4, Firepower 1, wound roll 3 (S4 vs T3 needs 3)
    game.act("shoot", weapon=0, profile=0, target="target")
    assert game.events("knockback")[0].fields["blocked"] == 1
    assert game.fighter("target")["cell"] == (4, 1)
    assert game.events("damage")[0].fields == {"damage": 3, "wounds_left": 1}


def test_knockback_direction_snaps_to_eight_directions():
    """§12 Knockback "directly away" on the grid: the shooter-to-target vector snapped to the
    nearest of 8 directions ((3, 2) from the shooter -> south-east)."""
    game = setup(["shotgun"], (3, 3), shooter_cell=(0, 1))
    game.script_dice([4, 1, 1])
    game.act("shoot", weapon=0, profile=0, target="target")
    assert game.fighter("target")["cell"] == (4, 4)


def test_diagonal_knockback_cannot_squeeze_between_walls():
    """§6.1/§12 a diagonal push past two wall corners is blocked like a diagonal move (+1 Damage)."""
    rows = """
        ..........
        ..........
        ..........
        .....#....
        ....#.....
    """
    game = setup(["shotgun"], (4, 3), rows=rows, shooter_cell=(1, 0), target_kw=dict(w=4))
    game.script_dice([4, 1, 3])
    game.act("shoot", weapon=0, profile=0, target="target")
    assert game.events("knockback")[0].fields["blocked"] == 1
    assert game.fighter("target")["cell"] == (4, 3)


def test_knockback_into_contact_with_an_enemy_stands_the_target_up_engaged():
    """§4.1 a Prone and Pinned fighter pushed into base contact with a Standing enemy is
    engaged by it: it stands up for free, Standing and Engaged (docs/rules.md)."""
    game = setup(["shotgun"], (4, 1), friends=[("brawler", (6, 1))])
    game.script_dice([4, 1, 1])
    game.act("shoot", weapon=0, profile=0, target="target")
    assert game.fighter("target")["cell"] == (5, 1)
    assert game.fighter("target")["posture"] == "standing"
    assert len(game.events("standup_engaged")) == 1


# ---------------------------------------------------------------- Melta
@pytest.mark.parametrize("cell,short", [((4, 1), True), ((8, 1), False)])
def test_melta_at_short_range_turns_injury_dice_to_out_of_action(cell, short):
    """§12 Melta: a Short range attack that takes a fighter to 0 Wounds turns every Injury
    dice into Out of Action; at Long range the dice count as rolled."""
    game = setup(["meltagun"], cell, target=("goliath", "ganger"))
    # hit 4 (needs 3 or 4), Firepower 1, wound roll 2 (S8 vs T4), no save (AP -4), D3 on W1: 3 Injury dice
    game.script_dice([4, 1, 2, 1, 2, 3])
    game.act("shoot", weapon=0, target="target")
    assert game.events("shot")[0].fields["band"] == (0 if short else 1)
    results = [e.fields["result"] for e in game.events("injury")]
    if short:
        assert results == [INJ_OOA] * 3
        assert game.fighter("target")["state"] == "out_of_action"
    else:
        assert results == [INJ_FLESH, INJ_FLESH, INJ_SERIOUS]
        assert game.fighter("target")["posture"] == "seriously_injured"
        assert game.fighter("target")["flesh_wounds"] == 2


# ---------------------------------------------------------------- Toxin
@pytest.mark.parametrize("toughness,roll,poisoned", [(3, 3, True), (3, 2, False), (8, 6, True)])
def test_toxin_replaces_the_wound_roll(toughness, roll, poisoned):
    """§12 Toxin: no wound roll; a D6 >= the target's Toughness (or a natural 6) makes it
    roll an Injury dice, ignoring Wounds (Damage "-")."""
    game = setup(["needle_rifle"], (4, 1), target_kw=dict(t=toughness))
    game.script_dice([4, 1, roll] + ([3] if poisoned else []))  # hit, Firepower, toxin roll, Injury die
    game.act("shoot", weapon=0, target="target")
    w = game.events("wound")[0].fields
    assert (w["roll"], w["wounded"]) == (roll, int(poisoned))
    assert [e.fields["result"] for e in game.events("injury")] == ([INJ_SERIOUS] if poisoned else [])
    assert game.fighter("target")["wounds"] == 1
    assert game.dice_left() == 0


@pytest.mark.parametrize("save_roll,saved", [(6, 1), (5, 0)])
def test_toxin_allows_a_save_before_the_injury_dice(save_roll, saved):
    """§12 Toxin: saves are allowed (light carapace 4+, AP -2: 6+)."""
    game = setup(["needle_rifle"], (4, 1), target_kw=dict(armour="light_carapace"))
    game.script_dice([4, 1, 5, save_roll] + ([] if saved else [3]))
    game.act("shoot", weapon=0, target="target")
    assert game.events("save")[0].fields["need"] == 6
    assert game.events("save")[0].fields["saved"] == saved
    assert len(game.events("injury")) == 1 - saved
    assert game.dice_left() == 0


# ---------------------------------------------------------------- Scattershot
def test_scattershot_makes_d6_wound_rolls_per_hit():
    """§12 Scattershot: each hit makes D6 wound rolls instead of one."""
    game = setup(["shotgun"], (3, 1), target_kw=dict(w=3))
    # hit 4, Firepower 1, D6 = 3 wound rolls (S2 vs T3: 5+): 1, 5 (wounds, D1), 2
    game.script_dice([4, 1, 3, 1, 5, 2])
    game.act("shoot", weapon=0, profile=1, target="target")
    assert [e.fields["roll"] for e in game.events("wound")] == [1, 5, 2]
    assert [e.fields["need"] for e in game.events("wound")] == [5, 5, 5]
    assert game.fighter("target")["wounds"] == 2
    assert game.dice_left() == 0


# ---------------------------------------------------------------- Unstable
@pytest.mark.parametrize("unstable_roll,firer_out", [(3, True), (4, False)])
def test_unstable_ammo_symbol_can_take_the_firer_out(unstable_roll, firer_out):
    """§12 Unstable: when the Ammo symbol comes up, roll a D6 as well; on 1-3 the firer goes
    Out of Action, after its attack is resolved."""
    game = setup(["plasma_pistol"], (4, 1), target_kw=dict(w=4))
    # hit 5, Ammo symbol, Ammo test 6 passes, Unstable roll, wound roll 1 (S7 vs T3)
    game.script_dice([5, 6, 6, unstable_roll, 1])
    game.act("shoot", weapon=0, profile=1, target="target")
    assert game.events("unstable")[0].fields == {"roll": unstable_roll, "out_of_action": int(firer_out)}
    assert len(game.events("wound")) == 1  # the attack still resolves
    me = game.fighter("shooter")
    assert me["state"] == ("out_of_action" if firer_out else "on_board")
    if firer_out:
        k = [e.kind for e in game.events()]
        assert k.index("wound") < k.index("ooa")


def test_unstable_rolls_only_on_the_ammo_symbol():
    """§12 Unstable is checked only when the Ammo symbol is rolled; the low-power profile
    (not Unstable) makes only the Ammo test."""
    game = setup(["plasma_pistol"], (4, 1), target_kw=dict(w=4))
    game.script_dice([5, 3, 1])
    game.act("shoot", weapon=0, profile=1, target="target")
    assert game.events("unstable") == []
    game2 = setup(["plasma_pistol"], (4, 1), target_kw=dict(w=4))
    game2.script_dice([5, 6, 6, 1])
    game2.act("shoot", weapon=0, profile=0, target="target")
    assert game2.events("unstable") == [] and len(game2.events("ammo")) == 1


# ---------------------------------------------------------------- Unwieldy
def test_unwieldy_shoot_is_a_double_action():
    """§5.1/§12 Unwieldy: Shoot with it is a Double action (not after another action; it
    uses the whole activation)."""
    game = setup(["heavy_stubber", "laspistol"], (6, 1))
    assert game.can("shoot", weapon=0, target="target")
    game.act("aim")
    assert not game.can("shoot", weapon=0, target="target")
    assert game.can("shoot", weapon=1, target="target")
    game2 = setup(["heavy_stubber"], (6, 1))
    game2.script_dice([1, 1, 1])
    game2.act("shoot", weapon=0, target="target")
    assert game2.decision[0] == "select_fighter"  # the activation is over


# ---------------------------------------------------------------- templates, blasts, grenades
@pytest.mark.parametrize("weapon,profile,legal", [
    ("flamer", 0, True), ("hand_flamer", 0, True), ("heavy_flamer", 0, True), ("web_gun", 0, True),
    ("frag_grenade", 0, True), ("krak_grenade", 0, True), ("smoke_grenade", 0, True),
    ("choke_gas_grenade", 0, True),
    ("grenade_launcher", 0, True), ("grenade_launcher", 1, True),   # frag (Blast) / krak
    ("missile_launcher", 0, True), ("missile_launcher", 1, True),
    ("combat_shotgun", 1, True), ("combat_shotgun", 0, True),       # shredder (Template) / salvo
])
def test_template_blast_and_grenade_profiles_are_legal(weapon, profile, legal):
    """§7.9-§7.10/§12 profiles with Template, Blast or Grenade can shoot at a target in range
    (their rules: tests/rules/test_templates.py, test_grenades.py, test_traits_area.py)."""
    game = setup([weapon], (4, 1))
    assert game.can("shoot", weapon=0, profile=profile, target="target") == legal


# ---------------------------------------------------------------- Rending / Power / Shock
def test_no_ranged_weapon_in_the_data_has_rending_power_or_shock():
    """§12 in configs/weapons.yaml Rending, Power and Shock appear only on melee weapons, so
    the ranged path is checked below with patched data."""
    game = setup(["lasgun"], (4, 1))
    wp = game.static.wprof
    ranged = wp[:, :, C.PF_LONG] > 0
    assert not ((wp[:, :, C.PF_TRAITS] & (C.T_RENDING | C.T_POWER | C.T_SHOCK)) != 0)[ranged].any()


def test_ranged_shock_natural_six_wounds_automatically():
    """§12 Shock: a natural 6 to hit wounds automatically (no wound roll), also at range."""
    game = setup(["laspistol"], (4, 1), target_kw=dict(w=2))
    patch(game, "laspistol", 0, C.T_SHOCK)
    game.script_dice([6, 1])  # natural 6, Firepower 1: no wound roll
    game.act("shoot", weapon=0, target="target")
    assert game.events("wound")[0].fields["wounded"] == 1
    assert game.events("wound")[0].fields["roll"] == 0
    assert game.fighter("target")["wounds"] == 1
    assert game.dice_left() == 0


def test_ranged_power_natural_six_denies_the_save_and_adds_damage():
    """§12 Power: a natural 6 to hit allows no save (except Field armour) and adds +1 Damage."""
    game = setup(["laspistol"], (4, 1), target_kw=dict(w=3, armour="light_carapace"))
    patch(game, "laspistol", 0, C.T_POWER)
    game.script_dice([6, 1, 4])  # natural 6, Firepower 1, wound roll 4 (S3 vs T3): no save roll
    game.act("shoot", weapon=0, target="target")
    assert game.events("save") == []
    assert game.events("damage")[0].fields == {"damage": 2, "wounds_left": 1}
