"""Charges and the melee moves (rules digest §4.2, §6, §12.7, §13.1; ../shared/rules/firefight.md).

The combat itself (hits, wounds, strike-back effects) is the combat modules'; these tests check the moves and
the decisions around them, with the dice from the seeded generator where the combat rolls.
"""
from necro_env.rulesets.firefight.grid import dist2
from necro_env.rulesets.firefight.testing import board, scenario, unit

OPEN = board("\n".join(["." * 40] * 40))


def _duel(dx, rules=None, b=OPEN, seed=0, target="warlord"):
    game = scenario(b, [unit("human_defense_force", "commander", cells=[(5, 20)], rules=rules)],
                    [unit("orc_marauders", target, cells=[(5 + dx, 20)])], seed=seed)
    game.activate((0, 0))
    return game


def test_ff_charge_distance_12_inches_at_13_cells_not_14_4_2():
    assert _duel(13).can("action", action="charge")  # centre distance 13 = 12"
    assert not _duel(14).can("action", action="charge")  # 13"


def test_ff_fast_charges_16_inches_slow_8_4_2():
    assert _duel(17, rules={"Fast": 0}).can("action", action="charge")
    assert not _duel(18, rules={"Fast": 0}).can("action", action="charge")
    assert _duel(9, rules={"Slow": 0}).can("action", action="charge")
    assert not _duel(10, rules={"Slow": 0}).can("action", action="charge")


def test_ff_charge_move_ends_in_base_contact_6():
    game = _duel(13)
    game.act("action", action="charge")
    game.act("target", target=0)
    moves = game.events("move")
    assert moves and moves[0].fields["to_cell"] == 20 * 40 + 17  # 12 steps: next to the target at (18, 20)
    assert game.events("charge")[0].fields["contact"] == 1


def test_ff_strike_back_is_the_defenders_decision_6():
    """§6, §12.8: the strike-back is a decision of the defender's player: the header's deciding player changes."""
    for seed in range(12):
        game = _duel(5, seed=seed)
        game.act("action", action="charge")
        game.act("target", target=0)
        if game.decision[0] == "strike_back":
            assert game.decision == ("strike_back", 1)
            assert game.can("strike_back", choice=True) and game.can("strike_back", choice=False)
            return
    raise AssertionError("no seed left the defender standing to strike back")


def test_ff_difficult_cap_may_stop_a_charge_short_13_1():
    rows = ["." * 40] * 40
    rows = ["." * 7 + "WWWWWWWWWWWW" + "." * 21 for _ in range(40)]
    game = _duel(13, b=board("\n".join(rows)))
    assert game.can("action", action="charge")  # eligibility is the plain 12" (§13.1)
    game.act("action", action="charge")
    game.act("target", target=0)
    assert game.events("charge")[0].fields["contact"] == 0
    assert game.events("no_contact") and game.decision == ("select_unit", 1)
    assert game.models((0, 0))[0] == (11, 20)  # 6" in total


def test_ff_defenders_close_in_at_most_3_inches_6():
    squad = unit("orc_marauders", "orc_boyz", cells=[(20, 20), (20, 22), (20, 24)])
    game = scenario(OPEN, [unit("human_defense_force", "commander", cells=[(8, 20)])], [squad])
    game.activate((0, 0))
    game.act("action", action="charge")
    game.act("target", target=0)
    close = [e for e in game.events("move") if e.actor == game.uid((1, 0))]
    assert close, "the defenders moved in"
    for e in close:
        assert e.fields["fifths"] <= 15
    assert game.events("close_in")[0].fields["moved"] >= 1


def test_ff_charger_falls_back_out_of_1_inch_when_both_stand_6_12_7():
    for seed in range(20):
        game = _duel(5, seed=seed)
        game.act("action", action="charge")
        game.act("target", target=0)
        if game.decision[0] == "strike_back":
            game.act("strike_back", choice=False)
        codes = [e.fields["code"] for e in game.events("aftermath")]
        if codes == [0] and game.unit((0, 0))["state"] == "on_table":
            (ax, ay), (bx, by) = game.models((0, 0))[0], game.models((1, 0))[0]
            assert dist2(ax, ay, bx, by) > 4  # more than 1" apart
            return
    raise AssertionError("no seed left both units standing")


def test_ff_survivor_may_consolidate_3_inches_6():
    for seed in range(40):
        game = scenario(OPEN, [unit("orc_marauders", "warlord", cells=[(5, 20)])],
                        [unit("human_defense_force", "storm_trooper", cells=[(10, 20)])], seed=seed)
        game.activate((0, 0))
        game.act("action", action="charge")
        game.act("target", target=0)
        if game.decision == ("free_move", 0):
            assert game.can("pass")
            game.act("cell", cell=(9 + 3, 20)) if game.can("cell", cell=(12, 20)) else game.act("pass")
            assert game.decision == ("select_unit", 1) or game.done or game.decision[0] == "select_unit"
            return
    raise AssertionError("no seed destroyed the defender")
