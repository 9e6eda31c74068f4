"""``Game.activate`` (``necro_env.testing``'s scenario API) selects the fighter as its player does
in play: the engine's select step runs, so a Broken fighter Runs for Cover (§10.2; [HL] §10.4 with
the self-rally) and a leader with Group Activation starts naming members (§2.4). Each scenario is
also played through the real select_fighter decision (a Priority phase rolled 6-1 for gang a) and
both must give the same events and fighters. Orlock gangers (M5, I 4+, Cl 7+); all dice scripted.
"""
import pytest

from necro_env.rulesets.necromunda.engine import begin
from necro_env.rulesets.necromunda.state import FI_STATE, FS_OOA
from scenario_helpers import make, play, u

BOTH = pytest.mark.parametrize("variant", ["core", "house_legacy"])


def selected_in_play(units, name, dice, variant="core"):
    """The same scenario begun with a Priority phase gang a wins (6-1), then ``name`` selected."""
    game = make(*units, variant=variant)
    game.script_dice([6, 1])
    begin(game.state, game.static, 0, game.layout, game.mask)
    assert game.decision == ("select_fighter", 0)
    play(game, dice, "select", fighter=name)
    return game


def snapshot(game):
    names = [n for g in game.fighter_names for n in g]
    return [(e.kind, e.actor, e.target, e.fields) for e in game.events()], [game.fighter(n) for n in names]


@BOTH
def test_broken_fighter_activate_runs_for_cover_with_the_scripted_dice(variant):
    """§10.2 / §10.3: activating a Standing Broken fighter is its Running for Cover, 2D6" (here 3 + 3);
    [HL] §10.4 then the self-rally Cool test (2D6: 1 + 1, failed). activate() rolls those dice and
    ends the activation: the turn passes to gang b. Before 2026-12-01 it ended the activation at
    once and left the dice unused."""
    units = (u(0, "brk", (3, 2), broken=True), u(1, "foe", (1, 2), facing="E"))
    dice = [3, 3] if variant == "core" else [3, 3, 1, 1]
    game = make(*units, variant=variant)
    game.script_dice(dice)
    game.activate("brk")
    assert game.dice_left() == 0
    rfc = game.events("rfc")
    assert len(rfc) == 1 and rfc[0].actor == game.fid("brk") and rfc[0].fields["allowance_inches"] == 6
    assert game.fighter("brk")["cell"] != (3, 2) and not game.fighter("brk")["ready"]
    assert len(game.events("self_rally")) == (variant == "house_legacy")
    assert game.decision == ("select_fighter", 1)
    assert snapshot(game) == snapshot(selected_in_play(units, "brk", dice, variant))


def test_leader_activate_starts_naming_members():
    """§2.4: activating a leader (Group Activation 2) with a Ready friend within 3" asks its player to
    name members first, as selecting it does; the member then activates after the leader. Before
    2026-12-01 activate() went straight to the leader's actions."""
    units = (u(0, "boss", (2, 2), kind="leader"), u(0, "near", (2, 4)), u(1, "foe", (8, 3)))
    game = make(*units)
    game.activate("boss")
    assert game.decision == ("group_activation", 0)
    assert game.can("group", fighter=game.fighter("near")["slot"])
    assert snapshot(game) == snapshot(selected_in_play(units, "boss", []))
    game.act("group", fighter=game.fighter("near")["slot"])
    assert game.decision == ("choose_action", 0) and game.active_fighter == game.fid("boss")
    game.act("end")
    assert game.decision == ("select_fighter", 0)  # the named member comes next, before gang b
    assert [game.describe(i).fighter for i in game.legal_actions()] == [game.fighter("near")["slot"]]


def test_activate_without_ready_all_gives_only_that_fighter_a_ready_marker():
    """§2.3: only a Ready fighter can be selected; ``ready_all=False`` gives the activated fighter its
    Ready marker (and no one else one), then selects it."""
    game = make(u(0, "a", (2, 2)), u(1, "b", (7, 2)))
    game.activate("a", ready_all=False)
    assert game.decision == ("choose_action", 0) and game.active_fighter == game.fid("a")
    assert not any(game.fighter(n)["ready"] for n in ("a", "b", "spare_a", "spare_b"))


def test_activate_refuses_a_fighter_that_cannot_be_selected():
    """A fighter that is not on the battlefield cannot be selected in play; activate() says so in
    one line naming the fighter and changes nothing."""
    game = make(u(0, "a", (2, 2)), u(1, "b", (7, 2)))
    game.state.fi[0, game.fid("a"), FI_STATE] = FS_OOA
    before = [a.copy() for a in game.state]
    with pytest.raises(ValueError, match=r"activate\('a'\): fighter \(0, 0\) is out_of_action"):
        game.activate("a")
    assert all((x == y).all() for x, y in zip(game.state, before))
