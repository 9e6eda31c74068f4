"""Charge (rules §5.2 Charge, §6.2 charge procedure, §6.1 1" rule, §4.1, §8.1, §8.5).

A D3 is a D6 halved rounding up: faces 1-2 -> 1, 3-4 -> 2, 5-6 -> 3 (§1.5).
Every close combat die scripted as 1 misses (a natural 1 always misses, §3.3).
"""
import pytest

from necro_env.testing import board, fighter, gang, scenario


def legal(game, kind):
    return [a for a in (game.describe(i) for i in game.legal_actions()) if a.kind == kind]


def charge_targets(game):
    return {a.target for a in legal(game, "charge")}


LANE = board('''
    ............
    ............
    ............
''')


def duel(b, charger_cell, target_cell, *, charger=None, target=None, target_kw=None, others=()):
    """Gang a: the charger; gang b: the target (+ others as (name, cell, kw))."""
    charger = charger or fighter("orlock", "ganger", [], name="charger")
    target = target or fighter("goliath", "ganger", [], name="target")
    extra = [fighter("goliath", "ganger", [], name=n) for n, _, _ in others]
    return scenario(b, [gang("a", charger), gang("b", target, *extra)], [
        dict(fighter="charger", cell=charger_cell, facing="E"),
        dict(fighter="target", cell=target_cell, **(target_kw or {})),
        *[dict(fighter=n, cell=c, **kw) for n, c, kw in others],
    ])


# ------------------------------------------------------------------ allowance (6.2 step 2)
@pytest.mark.parametrize("die, d3, reached", [(2, 1, False), (3, 2, True), (6, 3, True)])
def test_charge_allowance_is_m_plus_d3(die, d3, reached):
    """§5.2 / §6.2: the charge moves M + D3". Contact with a target 8 cells away needs 7":
    an M5 charger makes it with D3 >= 2."""
    game = duel(LANE, (0, 1), (8, 1))
    game.activate("charger")
    game.script_dice([die] + [1] * 6)
    game.act("charge", target="target")
    ev = game.events("charge")[0].fields
    assert ev["d3"] == d3
    assert ev["allowance_inches"] == 5 + d3
    assert ev["reached"] == int(reached)
    assert game.fighter("charger")["cell"] == ((7, 1) if reached else (6, 1))


def test_failed_charge_stops_one_inch_from_the_target():
    """§5.2 / §6.1: a charge that reaches within 1" but cannot make base contact stops 1" away
    (gap exactly 1": two cells away orthogonally) and no fight follows."""
    game = duel(LANE, (0, 1), (8, 1))
    game.activate("charger")
    game.script_dice([1])  # D3 = 1: allowance 6", contact needs 7"
    game.act("charge", target="target")
    assert game.fighter("charger")["cell"] == (6, 1)
    assert game.events("attacks") == []
    assert game.fighter("charger")["posture"] == "standing"
    assert game.active_fighter == -1  # Double action: the activation is over


def test_failed_charge_is_carried_out_in_full():
    """§6.1: a failed charge still moves its whole allowance towards the target."""
    game = duel(LANE, (0, 1), (9, 1))
    game.activate("charger")
    game.script_dice([1])  # allowance 6", contact needs 8"
    game.act("charge", target="target")
    assert game.fighter("charger")["cell"] == (6, 1)
    assert game.events("move")[0].fields["cost_half_inches"] == 12


@pytest.mark.parametrize("die, reached", [(3, False), (5, True)])
def test_heavy_carapace_charges_one_inch_shorter(die, reached):
    """§6.2 step 2 / §9.2 heavy carapace: -1" when charging. Contact needs 7": D3 = 2 gives
    6" (fails), D3 = 3 gives 7" (reaches)."""
    charger = fighter("orlock", "ganger", [], name="charger", armour="heavy_carapace")
    game = duel(LANE, (0, 1), (8, 1), charger=charger)
    game.activate("charger")
    game.script_dice([die] + [1] * 6)
    game.act("charge", target="target")
    ev = game.events("charge")[0].fields
    assert ev["allowance_inches"] == 5 + (die + 1) // 2 - 1
    assert ev["reached"] == int(reached)


# ------------------------------------------------------------------ legality mask
@pytest.mark.parametrize("tx, legal_", [(9, True), (10, False)])
def test_charge_masked_when_unreachable_even_with_d3_of_3(tx, legal_):
    """§6.2 / mask: a target is a legal charge target iff some D3 result can reach base contact.
    M5 + 3 = 8": contact 8" away is legal, 9" away is masked."""
    b = board('''
        ............
        ............
    ''')
    game = duel(b, (0, 0), (tx, 0))
    game.activate("charger")
    assert charge_targets(game) == ({(1, 0)} if legal_ else set())


def test_charge_masked_for_heavy_carapace_beyond_seven_inches():
    """§6.2: the heavy-carapace penalty also shrinks the legal charge range (M + 3 - 1)."""
    charger = fighter("orlock", "ganger", [], name="charger", armour="heavy_carapace")
    game = duel(LANE, (0, 1), (9, 1), charger=charger)  # contact needs 8"
    game.activate("charger")
    assert charge_targets(game) == set()
    game2 = duel(LANE, (0, 1), (8, 1), charger=charger)  # contact needs 7"
    game2.activate("charger")
    assert charge_targets(game2) == {(1, 0)}


def test_charge_path_may_not_pass_next_to_other_enemies():
    """§6.2 step 3 SUGGESTION: the path avoids cells within 1" of enemies other than the target,
    so the charger goes round the bystander and makes contact from below."""
    b = board('''
        ........
        ........
        ........
    ''')
    game = duel(b, (0, 1), (6, 1), others=[("bystander", (3, 0), {})])
    game.activate("charger")
    game.script_dice([1] + [1] * 6)  # allowance 6" = 12 half-inches
    game.act("charge", target="target")
    mv = game.events("move")[0].fields
    assert game.fighter("charger")["cell"] == (5, 2)
    assert mv["cost_half_inches"] == 11  # the straight line to (5, 1) would cost 10
    assert game.events("charge")[0].fields["reached"] == 1


def test_charge_masked_when_every_path_passes_next_to_another_enemy():
    """§6.2 step 3: an enemy standing in the middle of a 3-wide corridor screens the target
    behind it; only the screening enemy can be charged."""
    b = board('''
        ..........
        ..........
        ..........
    ''')
    game = duel(b, (0, 1), (7, 1), others=[("screen", (4, 1), {})])
    game.activate("charger")
    assert charge_targets(game) == {(1, 1)}


def test_contact_cell_may_touch_other_enemies():
    """§5.2 Charge: the charger may end within 1" of several enemies as long as it ends in
    base contact with one; the final cell next to the target may also touch another enemy."""
    b = board('''
        ........
        ........
        ........
    ''')
    game = duel(b, (1, 1), (5, 1), others=[("second", (5, 2), {})])
    game.activate("charger")
    game.script_dice([1] + [1] * 6)
    game.act("charge", target="target")
    assert game.fighter("charger")["cell"] == (4, 1)
    assert len({e.actor for e in game.events("reaction")}) == 2


# ------------------------------------------------------------------ after the charge (5.2, 4.1, 8.1, 8.5)
def test_charged_pinned_enemy_stands_up_engaged():
    """§5.2 Charge / §4.1 / §14 item 6: a charged Prone and Pinned enemy stands up and is
    Standing and Engaged (it then reacts to the free Fight)."""
    game = duel(LANE, (2, 1), (7, 1), target_kw=dict(posture="pinned"))
    game.activate("charger")
    game.script_dice([1] + [1] * 6)
    game.act("charge", target="target")
    t = game.fighter("target")
    assert t["posture"] == "standing"
    assert [e.actor for e in game.events("standup_engaged")] == [t["index"]]
    assert [e.actor for e in game.events("reaction")] == [t["index"]]


def test_free_fight_after_charge_with_one_extra_attack_die():
    """§5.2 Charge / §8.1 step 3: a charger that ends Standing and Engaged immediately makes a
    free Fight with +1 Attack die; the reaction attacks get no charge bonus."""
    game = duel(LANE, (2, 1), (7, 1))
    game.activate("charger")
    game.script_dice([1, 1, 1, 1])  # D3 = 1; two charger dice; one reaction die
    game.act("charge", target="target")
    att = game.events("attacks")
    assert [(e.actor, e.fields["dice"]) for e in att] == [(game.fid("charger"), 2), (game.fid("target"), 1)]
    assert att[0].fields["modifier"] == 0
    assert len(game.events("hit")) == 3
    assert game.dice_left() == 0


def test_charge_at_target_out_of_sight_fights_at_minus_one():
    """§8.1 step 1 [N23]: a fighter that charges an enemy it had no line of sight to
    suffers -1 on the free Fight."""
    b = board('''
        .......
        ..#....
        ..#....
        ..#....
        .......
    ''')
    game = duel(b, (0, 2), (4, 2))
    game.activate("charger")
    game.script_dice([1] * 4)
    game.act("charge", target="target")
    assert game.events("charge")[0].fields["reached"] == 1
    assert game.events("attacks")[0].fields["modifier"] == -1


def test_charging_a_seriously_injured_enemy_gives_a_free_coup_de_grace():
    """§5.2 Charge / §8.5: a charge that ends within 1" of the Prone and Seriously Injured
    target, not engaged with anyone else, ends with a free Coup de Grace (taken automatically)."""
    game = duel(LANE, (2, 1), (7, 1), target_kw=dict(posture="seriously_injured"),
                others=[("sentry", (11, 2), {})])
    game.activate("charger")
    game.script_dice([1])
    game.act("charge", target="target")
    assert game.fighter("charger")["cell"] == (6, 1)
    assert game.fighter("target")["state"] == "out_of_action"
    assert [e.target for e in game.events("coup")] == [game.fid("target")]
    assert game.events("attacks") == []


def test_charge_at_seriously_injured_enemy_next_to_a_standing_one_fights_instead():
    """§5.2 Charge: the free Coup de Grace needs the charger not to be engaged with another
    enemy; ending in contact with a Standing enemy as well gives the free Fight instead."""
    b = board('''
        ........
        ........
        ........
    ''')
    game = duel(b, (1, 1), (5, 1), target_kw=dict(posture="seriously_injured"),
                others=[("guard", (5, 2), {})])
    game.activate("charger")
    game.script_dice([1] * 6)
    game.act("charge", target="target")
    assert game.fighter("charger")["cell"] == (4, 1)
    assert game.events("coup") == []
    assert game.fighter("target")["state"] == "on_board"
    assert game.events("attacks")[0].target == game.fid("guard")


def test_may_charge_an_enemy_already_engaged_with_a_friend():
    """§5.2 Charge / §14 item 5 (default: [N23] allows Standing and Engaged targets)."""
    b = board('''
        ........
        ........
        ........
    ''')
    c = fighter("orlock", "ganger", [], name="charger")
    pal = fighter("orlock", "ganger", [], name="pal")
    t = fighter("goliath", "ganger", [], name="target")
    game = scenario(b, [gang("a", c, pal), gang("b", t)], [
        dict(fighter="charger", cell=(0, 1)),
        dict(fighter="pal", cell=(6, 1)),
        dict(fighter="target", cell=(5, 1)),
    ])
    game.activate("charger")
    assert charge_targets(game) == {(1, 0)}


def test_charge_ends_facing_the_target_and_uses_both_actions():
    """§5.2 Charge (Double): both actions are spent; the charger faces its target."""
    game = duel(LANE, (2, 0), (7, 2))
    game.activate("charger")
    game.script_dice([6] + [1] * 6)
    game.act("charge", target="target")
    f = game.fighter("charger")
    assert f["cell"] == (6, 1)  # the cheapest contact cell (1.5" + 3")
    assert f["facing"] == "SE"
    assert game.active_fighter == -1
    assert game.decision == ("select_fighter", 1)
