"""Group Activation (rules digest §2.4, core [N23] and House Legacy [HL] seed 002).

Orlock leaders have Group Activation (2), champions Group Activation (1). The battle is begun
with scripted Priority dice (gang 0 wins 6-1), so every activation below goes through the
select_fighter decision as in play.
"""
import pytest

from necro_env.rulesets.necromunda.engine import begin
from necro_env.testing import IllegalActionError
from scenario_helpers import make
from scenario_helpers import u as _u


def u(g, name, cell, kind="ganger", **kw):
    return _u(g, name, cell, (), kind=kind, **kw)


def start(*units, variant="core"):
    game = make(*units, variant=variant)
    game.script_dice([6, 1])
    begin(game.state, game.static, 0, game.layout, game.mask)
    assert game.decision == ("select_fighter", 0)
    return game


def legal(game):
    return sorted((a.kind, a.fighter) for a in map(game.describe, game.legal_actions()))


def slot(game, name):
    return game.fighter(name)["slot"]


def test_leader_names_two_members_within_3_inches_then_they_activate_before_the_turn_passes():
    """§2.4: a leader (Group Activation 2) names up to two Ready friends within 3"; all are named
    before anyone acts; the leader acts, then each member in turn (the player picks the order);
    then the opponent's turn."""
    game = start(u(0, "boss", (2, 2), kind="leader"), u(0, "near1", (2, 4)), u(0, "near2", (5, 2)),
                 u(0, "far", (7, 0)), u(1, "foe", (8, 4)))
    game.act("select", fighter=slot(game, "boss"))
    assert game.decision == ("group_activation", 0)
    # near1 (gap 1") and near2 (gap 2") are in; far (gap 4.4") and spare_a (corner) are not
    assert legal(game) == [("end", None), ("group", slot(game, "near1")), ("group", slot(game, "near2"))]
    game.act("group", fighter=slot(game, "near2"))
    ev = game.events("group")
    assert [(e.actor, e.target, e.fields["members_left"]) for e in ev] == [
        (game.fid("boss"), game.fid("near2"), 1)]
    game.act("group", fighter=slot(game, "near1"))
    # X = 2 reached: the leader's own activation starts at once
    assert game.decision == ("choose_action", 0) and game.active_fighter == game.fid("boss")
    game.act("end")
    # still gang 0: only the two members can be selected, in any order
    assert game.decision == ("select_fighter", 0)
    assert legal(game) == [("select", slot(game, "near1")), ("select", slot(game, "near2"))]
    game.act("select", fighter=slot(game, "near1"))
    assert game.decision == ("choose_action", 0)
    game.act("end")
    assert legal(game) == [("select", slot(game, "near2"))]
    game.act("select", fighter=slot(game, "near2"))
    game.act("end")
    assert game.decision == ("select_fighter", 1)  # the group is over; the turn passes
    assert not any(game.fighter(n)["ready"] for n in ("boss", "near1", "near2"))
    assert game.fighter("far")["ready"]


def test_champion_names_at_most_one_member():
    """§2.4: Champions have Group Activation (1): after one member is named the champion acts."""
    game = start(u(0, "champ", (2, 2), kind="champion"), u(0, "m1", (2, 3)), u(0, "m2", (3, 2)),
                 u(1, "foe", (8, 4)))
    game.act("select", fighter=slot(game, "champ"))
    assert game.decision == ("group_activation", 0)
    game.act("group", fighter=slot(game, "m2"))
    assert game.decision == ("choose_action", 0)
    game.act("end")
    assert legal(game) == [("select", slot(game, "m2"))]


def test_naming_no_one_is_a_normal_activation():
    """§2.4 "may": the leader can decline (``end``) and activate alone; the turn then passes."""
    game = start(u(0, "boss", (2, 2), kind="leader"), u(0, "m1", (2, 3)), u(1, "foe", (8, 4)))
    game.act("select", fighter=slot(game, "boss"))
    game.act("end")  # name nobody
    assert game.decision == ("choose_action", 0)
    game.act("end")
    assert game.decision == ("select_fighter", 1)
    assert game.fighter("m1")["ready"]


def test_no_group_decision_without_a_ready_friend_in_range():
    """§2.4 / docs/rules.md: a decision whose only option is ``end`` is skipped: a leader with no
    Ready friend within 3" goes straight to its actions; a fighter without the rule never names."""
    game = start(u(0, "boss", (2, 2), kind="leader"), u(0, "g1", (2, 3)), u(0, "g2", (7, 2)),
                 u(1, "foe", (8, 4)))
    game.act("select", fighter=slot(game, "g1"))  # a ganger has no Group Activation
    assert game.decision == ("choose_action", 0)
    game.act("end")
    game.act("select", fighter=slot(game, "foe"))
    game.act("end")
    game.act("select", fighter=slot(game, "boss"))  # g1 is no longer Ready, g2 is 4" away
    assert game.decision == ("choose_action", 0)


def test_a_member_cannot_start_its_own_group():
    """§2.4: a fighter activated as part of someone else's group cannot start a group activation
    of its own, even a champion with Ready friends within 3"."""
    game = start(u(0, "boss", (2, 2), kind="leader"), u(0, "champ", (2, 4), kind="champion"),
                 u(0, "g1", (2, 5)), u(1, "foe", (8, 4)))
    game.act("select", fighter=slot(game, "boss"))
    game.act("group", fighter=slot(game, "champ"))
    game.act("end")  # stop naming: only the champion
    game.act("end")  # the leader's activation
    game.act("select", fighter=slot(game, "champ"))
    assert game.decision == ("choose_action", 0)  # no group_activation decision for the member
    game.act("end")
    assert game.decision == ("select_fighter", 1)
    assert game.fighter("g1")["ready"]


def test_selecting_a_fighter_outside_the_group_is_illegal_and_explained():
    """§2.4 / mask exactness: while a group is in progress only its named, still Ready members
    can be selected; anything else raises IllegalActionError naming the reason."""
    game = start(u(0, "boss", (2, 2), kind="leader"), u(0, "m1", (2, 3)), u(0, "other", (7, 0)),
                 u(1, "foe", (8, 4)))
    game.act("select", fighter=slot(game, "boss"))
    game.act("group", fighter=slot(game, "m1"))
    game.act("end")  # no other candidate: naming ended by itself; this ends the leader's activation
    with pytest.raises(IllegalActionError, match="group activation is in progress"):
        game.act("select", fighter=slot(game, "other"))
    with pytest.raises(IllegalActionError, match="cannot join"):
        game2 = start(u(0, "boss", (2, 2), kind="leader"), u(0, "m1", (2, 3)), u(0, "other", (7, 0)),
                      u(1, "foe", (8, 4)))
        game2.act("select", fighter=slot(game2, "boss"))
        game2.act("group", fighter=slot(game2, "other"))


def test_core_broken_and_seriously_injured_friends_may_join_but_a_broken_leader_cannot_lead():
    """§2.4 core: any Ready friend within 3" may be named (a Broken one then just Runs for Cover,
    a Seriously Injured one Crawls); a Broken leader's activation is only its Running for Cover
    (§10.2), so it names nobody (docs/rules.md)."""
    game = start(u(0, "boss", (2, 2), kind="leader"), u(0, "brk", (2, 3), broken=True),
                 u(0, "si", (3, 2), posture="seriously_injured"), u(1, "foe", (8, 4)))
    game.act("select", fighter=slot(game, "boss"))
    assert legal(game) == [("end", None), ("group", slot(game, "brk")), ("group", slot(game, "si"))]
    game = start(u(0, "boss", (2, 2), kind="leader", broken=True), u(0, "m1", (2, 3)), u(1, "foe", (8, 4)))
    game.script_dice([3, 3])  # the leader's Running for Cover (2D6)
    game.act("select", fighter=slot(game, "boss"))
    assert game.events("rfc") and not game.events("group")
    assert game.decision == ("select_fighter", 1)


def test_house_legacy_leader_and_members_must_be_capable():
    """§2.4 / §4.5 [HL]: Seriously Injured and Broken fighters are incapable: they can neither
    start nor join a group activation."""
    units = (u(0, "boss", (2, 2), kind="leader"), u(0, "brk", (2, 3), broken=True),
             u(0, "si", (3, 2), posture="seriously_injured"), u(0, "ok", (1, 1)), u(1, "foe", (8, 4)))
    game = start(*units, variant="house_legacy")
    game.act("select", fighter=slot(game, "boss"))
    assert legal(game) == [("end", None), ("group", slot(game, "ok"))]
    # a Seriously Injured leader is incapable: it only crawls, alone
    game = start(u(0, "boss", (2, 2), kind="leader", posture="seriously_injured"), u(0, "ok", (1, 1)),
                 u(1, "foe", (8, 4)), variant="house_legacy")
    game.act("select", fighter=slot(game, "boss"))
    assert game.decision == ("choose_action", 0)
    core = start(u(0, "boss", (2, 2), kind="leader", posture="seriously_injured"), u(0, "ok", (1, 1)),
                 u(1, "foe", (8, 4)))
    core.act("select", fighter=slot(core, "boss"))
    assert core.decision == ("group_activation", 0)  # core: no capability requirement


def test_house_legacy_insane_fighters_are_incapable():
    """§4.5 [HL]: Insane ("maddened") fighters are incapable like Seriously Injured and Broken
    ones: an Insane friend cannot join a group activation under House Legacy; in the core rules
    it can be named."""
    units = (u(0, "boss", (2, 2), kind="leader"), u(0, "mad", (2, 3), conditions=["insane"]),
             u(0, "ok", (1, 1)), u(1, "foe", (8, 4)))
    game = start(*units, variant="house_legacy")
    game.act("select", fighter=slot(game, "boss"))
    assert legal(game) == [("end", None), ("group", slot(game, "ok"))]
    core = start(*units)
    core.act("select", fighter=slot(core, "boss"))
    assert ("group", slot(core, "mad")) in legal(core)


def test_group_member_that_loses_its_ready_marker_is_skipped():
    """§2.3 / §2.4: a named member that is taken out before its turn has lost its Ready marker
    and cannot activate; the group ends when no named member is left and the turn passes."""
    game = start(u(0, "boss", (2, 2), kind="leader"), u(0, "m1", (2, 3)), u(1, "foe", (8, 4)))
    game.act("select", fighter=slot(game, "boss"))
    game.act("group", fighter=slot(game, "m1"))
    assert game.decision == ("choose_action", 0)
    # the member goes Out of Action during the leader's activation (set directly)
    from necro_env.rulesets.necromunda.state import FI_READY, FI_STATE, FS_OOA
    f = game.fid("m1")
    game.state.fi[0, f, FI_STATE] = FS_OOA
    game.state.fi[0, f, FI_READY] = 0
    game.act("end")
    assert game.decision == ("select_fighter", 1)
