"""Game structure: rounds, the Priority phase, Ready markers, alternating activations,
the End phase and the round limit (rules §2.1, §2.2, §2.3, §2.6)."""
import pytest

from necro_env.rulesets.necromunda.engine import begin
from necro_env.rulesets.necromunda.state import FI_STATE, FS_OOA, G_PRIORITY, GG_ORDER
from necro_env.testing import IllegalActionError, board, fighter, gang, scenario

B = board('''
    ..........
    ..........
    ..........
    ..........
    ..........
    ..........
    ..........
''')


def make(sizes, *, round_limit=12, extra_kw=None):
    """One gang per entry of ``sizes`` (number of gangers); fighter "g<gang>f<slot>" stands at
    (2 * slot, 2 * gang), so that nobody is engaged."""
    houses = ["orlock", "goliath", "escher", "van_saar"]
    gangs, places = [], []
    for g, n in enumerate(sizes):
        fs = [fighter(houses[g], "ganger", [], name=f"g{g}f{i}") for i in range(n)]
        gangs.append(gang(f"gang{g}", *fs))
        for i in range(n):
            places.append(dict(fighter=f"g{g}f{i}", cell=(2 * i, 2 * g), **(extra_kw or {}).get(f"g{g}f{i}", {})))
    return scenario(B, gangs, places, round_limit=round_limit)


def start(game, dice):
    """Begin the battle (first Priority phase) with scripted dice."""
    game.script_dice(dice)
    begin(game.state, game.static, 0, game.layout, game.mask)
    return game


def priority(game):
    return int(game.state.g[0, G_PRIORITY])


def order(game):
    """Gangs in this round's priority order."""
    ng = game.dims.n_gangs
    return sorted(range(ng), key=lambda g: int(game.state.gang[0, g, GG_ORDER]))


def activate_and_end(game, name):
    """Select ``name`` (its gang must be deciding) and end its activation at once."""
    f = game.fighter(name)
    assert game.decision == ("select_fighter", f["gang"]), (name, game.decision)
    game.act("select", fighter=f["slot"])
    game.act("end")


def play_round(game, names):
    for n in names:
        activate_and_end(game, n)


# ------------------------------------------------------------------ 2.1 / 2.2 Priority
def test_higher_priority_roll_holds_priority_and_activates_first():
    """§2.2: each player rolls a D6; the higher roll holds Priority and activates first (§2.3)."""
    game = start(make([1, 1]), [2, 5])
    assert game.round == 1
    assert priority(game) == 1
    assert game.decision == ("select_fighter", 1)
    rolls = {e.actor: e.fields["roll"] for e in game.events("priority") if e.fields["order"] == -1}
    assert rolls == {0: 2, 1: 5}


def test_first_round_tie_is_rerolled():
    """§2.2: a tie on the very first Priority roll of the battle is rolled again."""
    game = start(make([1, 1]), [4, 4, 6, 2])
    assert priority(game) == 0
    assert game.dice_left() == 0
    assert game.decision == ("select_fighter", 0)


def test_two_gang_tie_after_round_one_hands_priority_to_the_opponent():
    """§2.2: on a tie, whoever held Priority last round hands it to the opponent (no re-roll)."""
    game = start(make([1, 1]), [5, 2, 3, 3, 6, 6])
    assert priority(game) == 0
    play_round(game, ["g0f0", "g1f0"])
    assert game.round == 2
    assert priority(game) == 1  # tie 3-3: gang 0 held it, so gang 1 gets it
    assert game.decision == ("select_fighter", 1)
    play_round(game, ["g1f0", "g0f0"])
    assert game.round == 3
    assert priority(game) == 0  # tie 6-6: back to gang 0
    assert game.dice_left() == 0  # no re-roll dice were used


def test_three_gangs_play_in_order_of_rolls_and_tied_gangs_roll_off():
    """§2.2 multi-player: order of play follows the rolls, highest first; gangs that tie roll off
    among themselves (here gangs 1 and 2 tie on 5 and roll again: 3 beats 1)."""
    game = start(make([1, 1, 1]), [2, 5, 5, 3, 1, 1, 2, 3])
    assert order(game) == [1, 2, 0]
    assert priority(game) == 1
    play_round(game, ["g1f0", "g2f0", "g0f0"])


def test_three_gang_tie_after_round_one_is_rolled_off_not_handed_over():
    """§2.2 multi-player (decision): with three or more gangs a tie is always rolled off among the
    tied gangs, even after round 1 (the hand-over rule is a two-player rule)."""
    game = start(make([1, 1, 1]), [6, 4, 2, 3, 3, 1, 2, 5])
    assert order(game) == [0, 1, 2]
    play_round(game, ["g0f0", "g1f0", "g2f0"])
    assert game.round == 2
    assert order(game) == [1, 0, 2]
    assert game.dice_left() == 0


# ------------------------------------------------------------------ Ready markers (2.2, 4.3)
def test_every_fighter_on_the_battlefield_gets_a_ready_marker_each_round():
    """§2.2 Ready Gang / §4.3 Ready: every model on the battlefield is Ready at the start of each
    round; one that is Out of Action is not; activating removes the marker (§2.3)."""
    game = make([2, 1])
    game.state.fi[0, game.fid("g0f1"), FI_STATE] = FS_OOA  # already Out of Action
    start(game, [6, 1, 1, 6, 1])  # Priority, End-phase Bottle check (1 + 1 casualty <= crew 2), Priority
    assert game.fighter("g0f0")["ready"] and game.fighter("g1f0")["ready"]
    assert not game.fighter("g0f1")["ready"]
    assert game.legal_actions().size == 1  # only g0f0 can be selected
    game.act("select", fighter=0)
    assert not game.fighter("g0f0")["ready"]
    game.act("end")
    activate_and_end(game, "g1f0")
    assert game.decision == ("bottle_check", 0)  # End phase (11.1): gang 0 has a casualty
    game.act("end")  # roll the Bottle check
    assert game.round == 2
    assert game.fighter("g0f0")["ready"] and game.fighter("g1f0")["ready"]
    assert not game.fighter("g0f1")["ready"]


# ------------------------------------------------------------------ 2.3 Action phase
def test_gangs_alternate_activations():
    """§2.3: starting with the Priority holder, the gangs take turns to activate one fighter."""
    game = start(make([2, 2]), [1, 6, 4, 3])
    assert priority(game) == 1
    seen = []
    while game.round == 1:
        g = game.decision[1]
        slot = int(game.describe(game.legal_actions()[0]).fighter)
        seen.append(g)
        game.act("select", fighter=slot)
        game.act("end")
    assert seen == [1, 0, 1, 0]


def test_gang_with_fighters_left_activates_all_the_rest():
    """§2.3: when one gang has no Ready fighters left, the other activates all its remaining
    Ready fighters, one after another."""
    game = start(make([3, 1]), [6, 1, 6, 1])
    play_round(game, ["g0f0", "g1f0", "g0f1", "g0f2"])
    assert game.round == 2


def test_must_activate_a_ready_fighter_no_pass():
    """§2.3 [HL] SUGGESTION (both rulesets): a gang whose turn it is must activate a Ready
    fighter; passing is not an option, and already-activated fighters cannot be picked."""
    game = start(make([2, 1]), [6, 1])
    assert {game.describe(i).kind for i in game.legal_actions()} == {"select"}
    with pytest.raises(IllegalActionError):
        game.act("end")
    activate_and_end(game, "g0f0")
    activate_and_end(game, "g1f0")
    legal = [game.describe(i) for i in game.legal_actions()]
    assert [(a.kind, a.fighter) for a in legal] == [("select", 1)]
    with pytest.raises(IllegalActionError):
        game.act("select", fighter=0)


def test_end_phase_runs_then_the_next_round_begins():
    """§2.1: after the Action phase comes the End phase (here a Rally test for a Broken
    fighter, §11.4), then the next round's Priority phase."""
    game = make([2, 1], extra_kw={"g0f1": dict(broken=True)})
    start(game, [6, 1])
    activate_and_end(game, "g0f0")
    activate_and_end(game, "g1f0")
    game.script_dice([3, 3, 6, 6, 2, 5])  # Running for Cover 2D6, Rally 2D6, round-2 Priority
    game.act("select", fighter=1)  # the Broken fighter runs for cover; then the End phase
    kinds = [e.kind for e in game.events()]
    assert kinds.index("rfc") < kinds.index("rally") < kinds.index("round") < kinds.index("priority")
    assert game.events("round")[0].fields["round"] == 2
    assert not game.fighter("g0f1")["broken"]
    assert game.round == 2 and priority(game) == 1
    assert game.dice_left() == 0


@pytest.mark.parametrize("limit", [1, 2])
def test_round_limit_truncates_the_battle(limit):
    """§2.6 SUGGESTION: the battle ends (a draw, truncated) after the last round's End phase."""
    game = start(make([1, 1], round_limit=limit), [6, 1, 6, 1])
    play_round(game, ["g0f0", "g1f0"])
    if limit == 1:
        assert game.done and game.truncated and game.winner == -1
        end = game.events("game_end")
        assert len(end) == 1 and end[0].fields["reason"] == 1
        assert game.legal_actions().size == 0
    else:
        assert not game.done and game.round == 2
        play_round(game, ["g0f0", "g1f0"])
        assert game.done and game.truncated


def test_fighter_taken_out_loses_its_ready_marker():
    """§2.3 [HL]: a model removed from the battlefield loses its Ready marker: a Ready Seriously
    Injured fighter taken out by a Coup de Grace can no longer be activated."""
    b = board('''
        ..........
        ..........
        ..........
    ''')
    me = fighter("orlock", "ganger", [], name="me")
    si = fighter("goliath", "ganger", [], name="si")
    other = fighter("goliath", "ganger", [], name="other")
    game = scenario(b, [gang("a", me), gang("b", si, other)], [
        dict(fighter="me", cell=(2, 1)),
        dict(fighter="si", cell=(3, 1), posture="seriously_injured"),
        dict(fighter="other", cell=(9, 2)),
    ])
    game.activate("me")
    assert game.fighter("si")["ready"]
    game.act("coup_de_grace", target="si")
    assert game.fighter("si")["state"] == "out_of_action" and not game.fighter("si")["ready"]
    game.act("end")
    assert game.decision == ("select_fighter", 1)
    assert [game.describe(i).fighter for i in game.legal_actions()] == [1]
