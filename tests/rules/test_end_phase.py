"""The End phase (rules digest section 11: Bottle checks, fleeing, Recovery, Rally), the
voluntary retreat of a bottled gang and the end of the battle (2.6).

Each test places fighters (only the activated one is Ready), ends that activation so the End
phase runs, and scripts every die the End phase and the next Priority phase (one D6 per gang)
consume. Orlock gangers: Cl 7+, I 4+; leader Cl 5+, champion Cl 6+.
"""
import pytest

from necro_env.rulesets.necromunda.engine import begin
from necro_env.rulesets.necromunda.state import GG_BOTTLED
from necro_env.testing import board, fighter, gang, scenario

W, H = 10, 6
OPEN = board("\n".join(["." * W] * H))
LONG = board("\n".join(["." * 16] * 3))
PLACE = ("posture", "wounds", "flesh_wounds", "broken", "out_of_ammo", "facing")
PRIORITY_A = [6, 1]  # next Priority phase: gang a rolls 6, gang b rolls 1


def u(g, name, cell, weapons=("fighting_knife",), house="orlock", kind="ganger", **kw):
    return (g, name, cell, tuple(weapons), house, kind, kw)


def make(*units, board_=OPEN, active="a1", priority=0):
    """Place the units; only ``active`` (gang a's a1 unless given) is Ready and activated."""
    members = ([], [])
    placements = []
    for g, name, cell, wps, house, kind, kw in units:
        place = {k: v for k, v in kw.items() if k in PLACE}
        chars = {k: v for k, v in kw.items() if k not in PLACE}
        members[g].append(fighter(house, kind, list(wps), name=name, **chars))
        placements.append(dict(fighter=name, cell=cell, **place))
    game = scenario(board_, [gang("a", *members[0]), gang("b", *members[1])], placements)
    game.activate(active, priority=priority, ready_all=False)
    return game


def play(game, dice, kind, **kw):
    """Script the dice, apply the decision and check that exactly these dice were used."""
    game.script_dice(dice)
    game.act(kind, **kw)
    assert game.dice_left() == 0, f"{game.dice_left()} scripted dice left unused"
    return game.events()


def names(game, events):
    inv = {game.fid(n): n for g in game.fighter_names for n in g}
    return [inv.get(e.actor, e.actor) for e in events]


def bottled(game, g):
    return bool(game.state.gang[0, g, GG_BOTTLED])


A1 = u(0, "a1", (0, 0))


# ---------------------------------------------------------------- 11.1 Bottle checks
@pytest.mark.parametrize("roll, is_bottled", [(2, True), (1, False)])
def test_bottle_check(roll, is_bottled):
    """§11.1: D6 + casualties (Seriously Injured or Out of Action) greater than the starting crew
    bottles the gang; only a gang with a casualty tests (gang a has none and is not asked)."""
    game = make(A1, u(1, "si1", (3, 4), posture="seriously_injured"),
                u(1, "si2", (6, 4), posture="seriously_injured"), u(1, "b3", (8, 1)))
    game.act("end")
    assert game.decision == ("bottle_check", 1)
    flee = [6, 6] * 3 if is_bottled else []
    ev = play(game, [roll] + flee + [1, 1] + PRIORITY_A, "end")  # roll; [Cool tests]; 2 recoveries
    b = [e for e in ev if e.kind == "bottle"][0]
    assert b.actor == 1
    assert (b.fields["roll"], b.fields["total"], b.fields["crew"], b.fields["bottled"]) == (
        roll, roll + 2, 3, int(is_bottled))
    assert bottled(game, 1) == is_bottled
    assert len([e for e in ev if e.kind == "flee"]) == (3 if is_bottled else 0)


def test_bottle_check_counts_out_of_action_fighters():
    """§11.1: fighters Out of Action count as casualties (taken out during the round)."""
    game = make(u(0, "a1", (2, 2), facing="E"), u(1, "dfn", (3, 2), facing="W", armour="none"),
                u(1, "b2", (8, 4)))
    play(game, [4, 4, 6], "fight", target="dfn")  # dfn Out of Action
    game.act("end")  # decline the follow-up (consolidate)
    game.act("end")  # end the activation
    assert game.decision == ("bottle_check", 1)
    ev = play(game, [2, 6, 6] + PRIORITY_A, "end")  # 2 + 1 > 2: bottled; b2's Cool test
    assert [e.fields["total"] for e in ev if e.kind == "bottle"] == [3]
    assert bottled(game, 1)


def test_voluntary_bottle():
    """§11.1: once a fighter is a casualty, the player may fail the Bottle check on purpose."""
    game = make(A1, u(1, "si", (3, 4), posture="seriously_injured"), u(1, "b2", (8, 1)), u(1, "b3", (8, 3)))
    game.act("end")
    ev = play(game, [1, 6, 6, 6, 6, 6, 6, 1] + PRIORITY_A, "bottle")  # 1 + 1 <= 3, yet bottled
    b = [e for e in ev if e.kind == "bottle"][0].fields
    assert (b["total"], b["bottled"], b["voluntary"]) == (2, 1, 1)
    assert bottled(game, 1)


def test_bottled_gang_stays_bottled_and_makes_no_more_checks():
    """§11.1: once bottled, a gang stays bottled and makes no more Bottle checks (it still makes
    the Cool tests for fleeing every End phase, §11.2)."""
    game = make(A1, u(1, "si", (3, 4), posture="seriously_injured"), u(1, "b2", (8, 1)))
    game.act("end")
    play(game, [2, 6, 6, 6, 6, 3] + PRIORITY_A, "end")  # bottled; Cool tests; recovery: serious
    assert bottled(game, 1) and game.round == 2
    assert game.decision == ("voluntary_retreat", 1)
    game.act("end")  # stay
    for name in ("a1", "b2", "si"):
        if name != "a1":
            game.act("end")
        assert game.decision[0] == "select_fighter"
        game.act("select", fighter=name)
    # ending the last activation runs the round 2 End phase: no Bottle check decision, straight to
    # the Cool tests (b2, si), then si's Recovery test (serious) and the Priority phase
    ev = play(game, [6, 6, 6, 6, 3] + PRIORITY_A, "end")
    assert [e.kind for e in ev if e.kind in ("bottle", "flee")] == ["flee", "flee"]
    assert bottled(game, 1) and game.round == 3


# ---------------------------------------------------------------- 11.2 Fleeing the battlefield
def bottle_b(*units, board_=OPEN, a1=A1):
    """gang b has a Seriously Injured fighter 'si' and bottles on a roll of 6; returns the game
    waiting for gang b's Bottle check decision."""
    game = make(a1, *units, board_=board_)
    game.act("end")
    assert game.decision == ("bottle_check", 1)
    return game


def test_failed_cool_test_flees():
    """§11.2: a bottled gang makes a Cool test per fighter on the battlefield; failing it flees."""
    game = bottle_b(u(1, "si", (3, 4), posture="seriously_injured"), u(1, "b2", (8, 1)), u(1, "b3", (8, 3)))
    # bottle 6; Cool tests si 6+6, b2 1+1 (flees), b3 6+6; recovery si: flesh wound
    ev = play(game, [6, 6, 6, 1, 1, 6, 6, 1] + PRIORITY_A, "end")
    flee = {n: e.fields for n, e in zip(names(game, ev), ev) if e.kind == "flee"}
    assert flee["b2"]["fled"] == 1 and flee["b3"]["fled"] == 0 and flee["si"]["fled"] == 0
    assert game.fighter("b2")["state"] == "fled"
    assert game.fighter("b3")["state"] == "on_board"


def test_gang_hierarchy_leader_covers_12_inches():
    """§11.2 Gang Hierarchy (Leader): a leader that passes its Cool test makes every friend within
    12" pass automatically; it tests first even in the last slot."""
    game = bottle_b(u(1, "si", (2, 2), posture="seriously_injured"), u(1, "g1", (12, 1)), u(1, "g2", (14, 1)),
                    u(1, "boss", (0, 1), kind="leader"), board_=LONG, a1=u(0, "a1", (8, 0)))
    # bottle 4 + 1 > 4; leader 3+3 >= Cl5 passes; g2 (13" away) tests 6+6; recovery si
    ev = play(game, [4, 3, 3, 6, 6, 1] + PRIORITY_A, "end")
    flee = [(n, e.fields["roll"], e.fields["fled"]) for n, e in zip(names(game, ev), ev) if e.kind == "flee"]
    assert flee[0] == ("boss", 6, 0)
    assert ("g1", 0, 0) in flee and ("si", 0, 0) in flee  # automatic passes
    assert ("g2", 12, 0) in flee


def test_gang_hierarchy_champion_covers_6_inches():
    """§11.2 Gang Hierarchy (Champion): friends within 6" of a champion that passes pass automatically."""
    game = bottle_b(u(1, "si", (2, 2), posture="seriously_injured"), u(1, "g1", (6, 1)), u(1, "g2", (8, 1)),
                    u(1, "sarge", (0, 1), kind="champion"), board_=LONG, a1=u(0, "a1", (15, 0)))
    ev = play(game, [4, 3, 3, 6, 6, 1] + PRIORITY_A, "end")  # champion 3+3 >= Cl6; g2 (7" away) tests
    flee = {n: e.fields["roll"] for n, e in zip(names(game, ev), ev) if e.kind == "flee"}
    assert flee == {"sarge": 6, "si": 0, "g1": 0, "g2": 12}


def test_gang_hierarchy_leader_failing_gives_no_protection():
    """§11.2: a leader that fails its own Cool test flees and protects nobody."""
    game = bottle_b(u(1, "si", (2, 2), posture="seriously_injured"), u(1, "g1", (4, 1)),
                    u(1, "boss", (0, 1), kind="leader"), board_=LONG, a1=u(0, "a1", (15, 0)))
    ev = play(game, [4, 1, 1, 6, 6, 6, 6, 1] + PRIORITY_A, "end")  # leader fails; si and g1 test
    flee = {n: e.fields for n, e in zip(names(game, ev), ev) if e.kind == "flee"}
    assert flee["boss"]["fled"] == 1 and flee["g1"]["roll"] == 12 and flee["si"]["roll"] == 12
    assert game.fighter("boss")["state"] == "fled"


def test_gang_hierarchy_champion_passing_automatically_extends_its_cover():
    """§11.2 (docs): a champion that passes automatically within the leader's 12" still counts as
    passing, so friends within its 6" pass too."""
    game = bottle_b(u(1, "si", (2, 2), posture="seriously_injured"), u(1, "far", (15, 1)),
                    u(1, "sarge", (10, 1), kind="champion"), u(1, "boss", (0, 1), kind="leader"),
                    board_=LONG, a1=u(0, "a1", (8, 0)))
    ev = play(game, [5, 3, 3, 1] + PRIORITY_A, "end")  # bottle 5 + 1 > 4; leader passes; recovery si
    flee = {n: e.fields["roll"] for n, e in zip(names(game, ev), ev) if e.kind == "flee"}
    assert flee == {"boss": 6, "sarge": 0, "si": 0, "far": 0}


# ---------------------------------------------------------------- 11.2 voluntary retreat
def retreat_setup():
    """gang b bottles in round 1 (all Cool tests passed); round 2 starts with its retreat decision."""
    game = make(u(0, "a1", (2, 2), facing="E"), u(1, "eng", (3, 2), facing="W"),
                u(1, "si", (5, 4), posture="seriously_injured"), u(1, "b2", (8, 1)),
                u(1, "pin", (8, 4), posture="pinned"))
    game.act("end")
    play(game, [6] + [6, 6] * 4 + [3] + PRIORITY_A, "end")  # bottle 6 + 1 > 4; 4 Cool tests; recovery si
    assert game.round == 2 and game.decision == ("voluntary_retreat", 1)
    return game


@pytest.mark.parametrize("init_roll, eng_state", [(4, "fled"), (3, "on_board")])
def test_voluntary_retreat(init_roll, eng_state):
    """§11.2: a bottled gang may declare at the start of an Action phase that it flees: Standing and
    Active or Prone and Pinned fighters flee, each Engaged one tests Initiative (fail: Seriously
    Injured); once only Seriously Injured fighters remain the battle ends (the other gang wins)."""
    game = retreat_setup()
    play(game, [init_roll], "flee")
    assert game.fighter("b2")["state"] == "fled" and game.fighter("pin")["state"] == "fled"
    assert game.fighter("si")["state"] == "on_board"
    eng = game.fighter("eng")
    assert eng["state"] == eng_state
    if eng_state == "on_board":
        assert eng["posture"] == "seriously_injured"
    assert game.done and game.winner == 0


def test_declining_the_voluntary_retreat():
    """§11.2: the retreat is optional; declining it lets the round proceed (gang a holds Priority)."""
    game = retreat_setup()
    game.act("end")
    assert not game.done
    assert game.decision == ("select_fighter", 0)
    assert game.fighter("b2")["state"] == "on_board"


# ---------------------------------------------------------------- 11.3 Recovery
@pytest.mark.parametrize("face, state, posture, flesh", [
    (6, "out_of_action", None, 0),
    (4, "on_board", "seriously_injured", 1),
    (2, "on_board", "pinned", 1),
])
def test_recovery_results(face, state, posture, flesh):
    """§11.3: one Injury dice per Prone and Seriously Injured fighter: Out of Action; Serious Injury:
    a Flesh Wound, stays Seriously Injured; Flesh Wound: a Flesh Wound and Prone and Pinned."""
    game = make(A1, u(1, "si", (3, 4), posture="seriously_injured"), u(1, "b2", (8, 1)))
    game.act("end")
    play(game, [1, face] + PRIORITY_A, "end")  # bottle 1 + 1 <= 2, recovery
    f = game.fighter("si")
    assert f["state"] == state
    if posture:
        assert (f["posture"], f["flesh_wounds"]) == (posture, flesh)


@pytest.mark.parametrize("faces, posture", [((6, 1), "pinned"), ((3, 6), "seriously_injured")])
def test_assisted_recovery_two_dice_best_kept_no_flesh_wound(faces, posture):
    """§11.3: a Standing and Active friend within 1" assists: two Injury dice, the better one is
    applied (docs: always used), and the fighter suffers no Flesh Wound."""
    game = make(A1, u(1, "si", (3, 4), posture="seriously_injured"), u(1, "helper", (3, 3)))
    game.act("end")
    ev = play(game, [1, *faces] + PRIORITY_A, "end")
    rec = [e for e in ev if e.kind == "recovery"][0].fields
    assert (rec["assistant"], rec["die"], rec["second_die"]) == (game.fid("helper"), faces[0], faces[1])
    f = game.fighter("si")
    assert (f["state"], f["posture"], f["flesh_wounds"]) == ("on_board", posture, 0)


def test_a_fighter_assists_only_one_recovery_test():
    """§11.3: a fighter may assist only one Recovery test per End phase."""
    game = make(A1, u(1, "si1", (4, 4), posture="seriously_injured"), u(1, "si2", (6, 4), posture="seriously_injured"),
                u(1, "helper", (5, 3)))
    game.act("end")
    ev = play(game, [1, 3, 3, 3] + PRIORITY_A, "end")  # bottle 1 + 2 <= 3; si1: two dice; si2: one
    rec = {n: e.fields for n, e in zip(names(game, ev), ev) if e.kind == "recovery"}
    assert rec["si1"]["assistant"] == game.fid("helper") and rec["si2"]["assistant"] == -1
    assert game.fighter("si1")["flesh_wounds"] == 0 and game.fighter("si2")["flesh_wounds"] == 1


@pytest.mark.parametrize("helper_kw, assisted, dice", [
    ({"broken": True}, True, [1, 3, 3, 6, 6]),  # Broken is a condition; it still assists (then rallies)
    ({"posture": "pinned"}, False, [1, 3]),  # a Prone fighter cannot assist
])
def test_who_can_assist_recovery(helper_kw, assisted, dice):
    """§11.3: the assistant must be Standing and Active; being Broken does not prevent it (docs)."""
    game = make(A1, u(1, "si", (3, 4), posture="seriously_injured"), u(1, "helper", (3, 3), **helper_kw))
    game.act("end")
    ev = play(game, dice + PRIORITY_A, "end")
    rec = [e for e in ev if e.kind == "recovery"][0].fields
    assert (rec["assistant"] >= 0) == assisted


def test_out_of_action_in_recovery_can_break_a_friend_who_runs_for_cover_at_once():
    """§10.1 / §11.3 (docs): a Recovery Out of Action triggers Nerve tests; a friend that breaks runs
    for cover at once and can be rallied in the same End phase."""
    game = make(A1, u(1, "si", (3, 4), posture="seriously_injured"), u(1, "b2", (6, 4)), u(1, "b3", (9, 0)))
    game.act("end")
    # bottle 1 + 1 <= 3; recovery: Out of Action; b2's Nerve test 1+1 fails, runs 2D6 = 4";
    # Rally: b2 rolls 6+6
    ev = play(game, [1, 6, 1, 1, 2, 2, 6, 6] + PRIORITY_A, "end")
    kinds = [e.kind for e in ev]
    assert kinds.index("recovery") < kinds.index("nerve") < kinds.index("rfc") < kinds.index("rally")
    assert not game.fighter("b2")["broken"]


# ---------------------------------------------------------------- 11.4 Rally
@pytest.mark.parametrize("dice, passed", [([3, 3], True), ([2, 3], False)])
def test_rally(dice, passed):
    """§11.4: a Cool test per Broken fighter, +1 per friend within 3" that is neither Broken nor
    Seriously Injured; passing removes Broken."""
    game = make(A1, u(1, "brk", (5, 3), broken=True), u(1, "buddy", (6, 3)))
    ev = play(game, dice + PRIORITY_A, "end")
    r = [e for e in ev if e.kind == "rally"][0].fields
    assert (r["roll"], r["need"], r["passed"]) == (sum(dice) + 1, 7, int(passed))
    assert game.fighter("brk")["broken"] == (not passed)


# ---------------------------------------------------------------- order of the End phase
def test_end_phase_order_and_priority_holder_first():
    """§2.5 / §11: Bottle checks, then fleeing, then Recovery, then Rally; in every step the
    Priority holder (here gang b) goes first."""
    game = make(u(0, "a1", (0, 0)), u(0, "a_si", (0, 4), posture="seriously_injured"),
                u(0, "a_brk", (3, 5), broken=True), u(1, "b1", (9, 0)),
                u(1, "b_si", (9, 4), posture="seriously_injured"), u(1, "b_brk", (6, 5), broken=True),
                priority=1)
    game.act("end")
    assert game.decision == ("bottle_check", 1)
    ev = play(game, [1], "end")  # gang b: 1 + 1 <= 3
    assert game.decision == ("bottle_check", 0)
    # gang a's check; recoveries b then a (flesh wounds); rallies b then a; Priority (b keeps it on a tie)
    ev += play(game, [1, 1, 1, 6, 6, 6, 6, 3, 3], "end")
    seq = [(e.kind, e.actor if e.kind == "bottle" else n)
           for n, e in zip(names(game, ev), ev) if e.kind in ("bottle", "recovery", "rally")]
    assert seq == [("bottle", 1), ("bottle", 0), ("recovery", "b_si"), ("recovery", "a_si"),
                   ("rally", "b_brk"), ("rally", "a_brk")]
    assert game.round == 2 and game.decision == ("select_fighter", 0)  # a tie passes Priority on


# ---------------------------------------------------------------- end of the battle
def test_battle_ends_when_the_last_enemy_goes_down():
    """§2.6 (docs): the battle ends as soon as at most one gang has a fighter that is not Prone and
    Seriously Injured; that gang wins."""
    game = make(u(0, "a1", (2, 2), facing="E"), u(1, "dfn", (3, 2), facing="W", armour="none"),
                u(1, "si", (8, 4), posture="seriously_injured"))
    play(game, [4, 4, 3], "fight", target="dfn")  # dfn Seriously Injured
    assert game.done and game.winner == 0
    assert [e.actor for e in game.events("game_end")] == [0]


def test_pinned_fighter_keeps_the_gang_in_the_battle():
    """§2.6 (docs): Prone and Pinned (and Broken) fighters still count; only Seriously Injured do not."""
    game = make(u(0, "a1", (2, 2), facing="E"), u(1, "dfn", (3, 2), facing="W", armour="none"),
                u(1, "pin", (8, 4), posture="pinned", broken=True))
    play(game, [4, 4, 3], "fight", target="dfn")
    assert not game.done and game.decision == ("fight_followup", 0)


def test_nobody_left_standing_is_a_draw():
    """§2.6 (docs): if no gang has a fighter that is not Seriously Injured the battle ends without a winner."""
    game = scenario(OPEN, [gang("a", fighter("orlock", "ganger", [], name="x")),
                           gang("b", fighter("orlock", "ganger", [], name="y"))],
                    [dict(fighter="x", cell=(1, 1), posture="seriously_injured"),
                     dict(fighter="y", cell=(5, 1), posture="seriously_injured")])
    game.script_dice([6, 1])  # the first Priority roll; the battle ends before anyone is selected
    begin(game.state, game.static, 0, game.layout, game.mask)
    assert game.done and game.winner == -1


def test_battle_ends_when_a_bottled_gang_flees():
    """§11.2 / §2.6: when every fighter of a bottled gang that is not Seriously Injured flees, the
    battle ends in the End phase (no further Priority roll)."""
    game = bottle_b(u(1, "si", (3, 4), posture="seriously_injured"), u(1, "b2", (8, 1)))
    play(game, [6, 6, 6, 1, 1], "end")  # bottled; si passes, b2 fails and flees
    assert game.fighter("b2")["state"] == "fled"
    assert game.done and game.winner == 0
