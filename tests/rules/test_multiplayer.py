"""Three and four gangs (rules digest §2.2, §2.3, §2.6, §11.1): activation order, gangs that
run out of Ready fighters, End-phase order and the free-for-all end of the battle."""
from necro_env.rulesets.necromunda.engine import begin
from necro_env.rulesets.necromunda.state import GG_OUT, GG_ORDER
from necro_env.testing import board, fighter, gang, scenario

B = board("\n".join(["." * 12] * 9))
HOUSES = ["orlock", "goliath", "escher", "van_saar"]


def make(sizes, *, round_limit=12, kw=None):
    """Gang g's fighter i is "g<g>f<i>" at (2 i, 2 g): nobody is engaged or within 1"."""
    gangs, places = [], []
    for g, n in enumerate(sizes):
        gangs.append(gang(f"gang{g}", *[fighter(HOUSES[g], "ganger", [], name=f"g{g}f{i}") for i in range(n)]))
        for i in range(n):
            places.append(dict(fighter=f"g{g}f{i}", cell=(2 * i, 2 * g), **(kw or {}).get(f"g{g}f{i}", {})))
    return scenario(B, gangs, places, round_limit=round_limit)


def start(game, dice):
    game.script_dice(dice)
    begin(game.state, game.static, 0, game.layout, game.mask)
    return game


def order(game):
    return sorted(range(game.dims.n_gangs), key=lambda g: int(game.state.gang[0, g, GG_ORDER]))


def play_out_round(game):
    """Activate the first legal fighter and end at once until the round changes; returns the
    gangs in the order they activated."""
    rnd, seen = game.round, []
    while game.round == rnd and not game.done:
        kind, g = game.decision
        assert kind == "select_fighter", game.decision
        seen.append(g)
        game.act("select", fighter=int(game.describe(game.legal_actions()[0]).fighter))
        game.act("end")
    return seen


def test_three_gangs_alternate_in_priority_order_and_skip_gangs_without_ready_fighters():
    """§2.2 / §2.3 multi-player: activations go round in Priority order (here 1, 2, 0); a gang
    with no Ready fighter left is skipped and the others go on in the same order until every
    fighter has activated."""
    game = start(make([1, 3, 2]), [2, 6, 4, 1, 2, 3])  # round 1 and round 2 Priority
    assert order(game) == [1, 2, 0]
    assert play_out_round(game) == [1, 2, 0, 1, 2, 1]
    assert game.dice_left() == 0 and order(game) == [2, 1, 0]


def test_four_gangs_priority_with_a_three_way_tie_rolled_off():
    """§2.2: four gangs; gangs 0, 2 and 3 tie on 4 and roll off (5, 2, 5), then 0 and 3 tie again
    and roll once more (1, 3). Order: 1 (the 6), then 3, 0, 2."""
    game = start(make([1, 1, 1, 1]), [4, 6, 4, 4, 5, 2, 5, 1, 3])
    assert order(game) == [1, 3, 0, 2]
    assert game.dice_left() == 0
    game.script_dice([1, 2, 3, 4])  # round 2 Priority
    assert play_out_round(game) == [1, 3, 0, 2]
    assert order(game) == [3, 2, 1, 0]


def test_a_gang_out_of_the_battle_no_longer_activates_and_the_others_fight_on():
    """§2.6 (decision, free-for-all): a gang with no fighter left that is not Seriously Injured is
    out of the battle for good; the battle goes on while two or more gangs remain. Its Seriously
    Injured fighters stay on the battlefield but never activate again and take no Recovery test."""
    game = make([1, 1, 1], kw={"g2f0": dict(posture="seriously_injured")})
    start(game, [6, 4, 2, 5, 3, 1])  # round 1 and round 2 Priority: nothing else is rolled
    assert not game.done
    assert game.state.gang[0, 2, GG_OUT] == 1
    assert play_out_round(game) == [0, 1]
    # End phase: no Bottle check (GG_OUT), no Recovery roll for g2f0; round 2 Priority only
    assert game.round == 2
    assert game.fighter("g2f0")["posture"] == "seriously_injured"
    assert game.dice_left() == 0  # no Bottle check, no Recovery test
    assert not game.events("recovery") and not game.events("bottle")


def test_last_gang_standing_wins_a_free_for_all():
    """§2.6: with three gangs the battle ends as soon as at most one gang is left in it; that gang
    is the winner. Gang 2 starts out of the battle (only a Seriously Injured fighter), so the game
    goes on; gang 0 then takes gang 1's last fighter Out of Action in a Fight (hit 4, wound 4,
    Injury dice 6) and wins."""
    gangs = [gang("a", fighter("orlock", "ganger", ["fighting_knife"], name="a")),
             gang("b", fighter("orlock", "ganger", ["fighting_knife"], name="b", armour="none")),
             gang("c", fighter("escher", "ganger", [], name="c"))]
    game = scenario(B, gangs, [dict(fighter="a", cell=(2, 2), facing="E"),
                               dict(fighter="b", cell=(3, 2), facing="W"),
                               dict(fighter="c", cell=(10, 8), posture="seriously_injured")])
    game.activate("a")
    assert not game.done and game.state.gang[0, 2, GG_OUT] == 1
    game.script_dice([4, 4, 6])
    game.act("fight", target="b")
    assert game.fighter("b")["state"] == "out_of_action"
    assert game.done and game.winner == 0 and not game.truncated
    assert game.dice_left() == 0


def test_bottle_checks_follow_the_priority_order():
    """§11.1 / §2.5: in the End phase the gangs take their Bottle checks in Priority order (here
    2, 0, 1), each deciding whether to roll or bottle out."""
    kw = {"g0f1": dict(posture="seriously_injured"), "g1f1": dict(posture="seriously_injured"),
          "g2f1": dict(posture="seriously_injured")}
    game = start(make([2, 2, 2], kw=kw), [3, 1, 6])
    assert order(game) == [2, 0, 1]
    for _ in range(6):  # SI fighters are Ready too (they could crawl): every activation just ends
        game.act("select", fighter=int(game.describe(game.legal_actions()[0]).fighter))
        game.act("end")
    asked = []
    # 3 Bottle D6; 3 assisted Recovery tests (the Standing friend 1" away helps: 2 Injury dice each);
    # round-2 Priority
    game.script_dice([1, 1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 3])
    rolled, recovered = [], []
    while game.decision[0] == "bottle_check":
        asked.append(game.decision[1])
        game.act("end")
        rolled += [e.actor for e in game.events("bottle")]
        recovered += [game.fighter(e.actor)["gang"] for e in game.events("recovery")]
    assert asked == [2, 0, 1] and rolled == [2, 0, 1]
    assert recovered == [2, 0, 1]  # Recovery tests in Priority order too
    assert game.dice_left() == 0
