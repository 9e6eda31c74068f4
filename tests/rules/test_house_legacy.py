"""The House Legacy variant (rules digest §4.4, §4.5, §5.3, §10.4; seed 002 [HL]), each rule run
on the same scripted scenario under both variants where the difference shows.

Orlock gangers: M5, WS/BS 4+, S3, T3, W1, I 4+, Cl 7+. All dice are scripted and each ``play``
checks that exactly those dice were used.
"""
import numpy as np
import pytest

from necro_env.rulesets.necromunda.phases import recovery
from necro_env.rulesets.necromunda.state import FI_HL, HL_HARD
from necro_env.testing import board
from scenario_helpers import make, play, u

BOTH = pytest.mark.parametrize("variant", ["core", "house_legacy"])
HL = "house_legacy"
WIDE = board("\n".join(["." * 16] * 3))


def by(game, kind, name):
    return [e for e in game.events(kind) if e.actor == game.fid(name)]


# ---------------------------------------------------------------- 5.3 Charge
@BOTH
def test_charge_distance(variant):
    """§5.3 [HL]: Charge moves 2 x M (10" for M5) with no dice; core: M + D3. The contact cell
    (8, 2) is 8" away: core needs the D3 to be 3 (a 1 falls short), House Legacy always arrives."""
    game = make(u(0, "ch", (0, 2), facing="E"), u(1, "tgt", (9, 2), facing="W"), variant=variant)
    game.activate("ch")
    if variant == "core":
        play(game, [1], "charge", target="tgt")  # D3 = 1: 6" allowance
        ev = game.events("charge")[0].fields
        assert (ev["d3"], ev["allowance_inches"], ev["reached"]) == (1, 6, 0)
    else:
        play(game, [], "charge", target="tgt")
        ev = game.events("charge")[0].fields
        assert (ev["allowance_inches"], ev["reached"]) == (10, 1)
        assert game.fighter("ch")["cell"] == (8, 2)


@BOTH
def test_charge_is_capped_at_12_inches(variant):
    """§5.3 [HL]: 2 x M but never more than 12" (M7: 12", not 14"); core M7 + D3 reaches 10"."""
    game = make(u(0, "ch", (0, 1), facing="E", m=7), u(1, "t12", (13, 0)), u(1, "t13", (14, 2)),
                board_=WIDE, spares=False, variant=variant)
    game.activate("ch")
    # contact cells: (12, 0/1) is 12" away from (0, 1); t13's nearest contact cell (13, 1/2) is 13"
    assert game.can("charge", target="t12") == (variant == HL)
    assert not game.can("charge", target="t13")


@BOTH
def test_prone_fighter_may_charge_up_to_m(variant):
    """§5.3 [HL]: Charge is open to Prone (Pinned) fighters, capped at M; core: Standing and Active
    only. The charger stands up to run."""
    game = make(u(0, "ch", (0, 2), posture="pinned"), u(1, "near", (5, 2)), u(1, "far", (7, 4)),
                variant=variant)
    game.activate("ch")
    assert game.can("charge", target="near") == (variant == HL)  # contact (4, 2) is 4"
    assert not game.can("charge", target="far")  # nearest contact cell (6, 3) is 6" > M
    if variant == HL:
        game.act("charge", target="near")
        f = game.fighter("ch")
        assert f["posture"] == "standing" and f["cell"] == (4, 2)


@BOTH
def test_free_fight_after_a_charge_is_optional(variant):
    """§5.3 [HL]: after a charge that ends Engaged the fighter *may* make a free Fight (a
    charge_fight decision: fight or end); core: the free Fight is made at once (§8.1). Both are
    charging attacks (A1 + 1 = 2 dice)."""
    game = make(u(0, "ch", (2, 2), facing="E"), u(1, "tgt", (5, 2), facing="W"), variant=variant)
    game.activate("ch")
    if variant == "core":
        play(game, [1, 1, 1, 1], "charge", target="tgt")  # D3, two hit rolls, the reaction's hit roll
        assert game.events("attacks")[0].fields["dice"] == 2
        return
    play(game, [], "charge", target="tgt")
    assert game.decision == ("charge_fight", 0)
    assert sorted(a.kind for a in map(game.describe, game.legal_actions())) == ["end", "fight"]
    declined = game.clone()
    declined.act("end")  # no Fight: the Double action has ended the activation
    assert not declined.events("attacks") and declined.decision == ("select_fighter", 1)
    play(game, [1, 1, 1], "fight", target="tgt")  # two charging hit rolls, then the reaction
    assert game.events("attacks")[0].fields["dice"] == 2


@BOTH
def test_pinned_fighter_stood_up_by_a_charge_faces_where_the_enemy_chooses(variant):
    """§4.4 [HL]: a Prone fighter that ends up in base contact stands up Engaged, and the enemy's
    player picks its facing: the engine turns it away from the enemy that engaged it. Core (§4.1,
    docs/rules.md): it faces that enemy."""
    game = make(u(0, "ch", (2, 2), facing="E"), u(1, "tgt", (5, 2), facing="N", posture="pinned"),
                variant=variant)
    game.activate("ch")
    play(game, [1, 1, 1, 1] if variant == "core" else [], "charge", target="tgt")
    f = game.fighter("tgt")
    assert f["posture"] == "standing"
    assert f["facing"] == ("W" if variant == "core" else "E")


# ---------------------------------------------------------------- 4.5 Hard Target
@BOTH
def test_two_moves_in_a_row_make_a_hard_target(variant):
    """§4.5 [HL]: two Move (Simple) actions in a row, not ending Engaged, make a Hard Target; a
    shooter counts its cover one grade better (open ground = partial cover, -1). Core: no such
    condition."""
    game = make(u(0, "mover", (0, 0)), u(1, "shooter", (7, 2), ["lasgun"], facing="W"), variant=variant)
    game.activate("mover")
    game.act("move", cell=(0, 1))
    game.act("move", cell=(0, 2))
    assert bool(by(game, "hard_target", "mover")) == (variant == HL)
    game.act("end")
    game.act("select", fighter=game.fighter("shooter")["slot"])
    play(game, [2, 1], "shoot", weapon=0, target="mover")  # miss, Firepower dice
    shot = game.events("shot")[0].fields
    assert shot["cover"] == 0  # the line of sight itself is open
    assert shot["modifier"] == (1 if variant == "core" else 0)  # Short-range +1, Hard Target -1


def test_a_move_and_another_action_do_not_make_a_hard_target():
    """§4.5 [HL]: the two Moves must be in a row; a Move then Aim (or one Move) gives nothing."""
    game = make(u(0, "mover", (0, 0)), u(1, "foe", (8, 5)), variant=HL)
    game.activate("mover")
    game.act("move", cell=(0, 1))
    game.act("aim")
    assert not game.events("hard_target")
    assert game.state.fi[0, game.fid("mover"), FI_HL] & HL_HARD == 0


def test_hard_target_ends_when_the_fighter_becomes_engaged_or_activates_again():
    """§4.5 [HL]: it stops being a Hard Target when it next activates, or becomes Prone, Engaged
    or Seriously Injured."""
    game = make(u(0, "mover", (0, 0)), u(1, "foe", (4, 3)), variant=HL)
    game.activate("mover")
    game.act("move", cell=(0, 1))
    game.act("move", cell=(2, 1))
    f = game.fid("mover")
    assert game.state.fi[0, f, FI_HL] & HL_HARD
    game.act("end")
    game.act("select", fighter=game.fighter("foe")["slot"])
    play(game, [], "charge", target="mover")  # 2 x M: contact at once; the charge makes it Engaged
    assert game.state.fi[0, f, FI_HL] & HL_HARD == 0
    # and a new activation clears it too
    game2 = make(u(0, "mover", (0, 0)), u(1, "foe", (9, 5)), variant=HL)
    game2.activate("mover")
    game2.act("move", cell=(0, 1))
    game2.act("move", cell=(0, 2))
    from necro_env.rulesets.necromunda.engine import start_activation
    start_activation(game2.state, 0, game2.fid("mover"))
    assert game2.state.fi[0, game2.fid("mover"), FI_HL] & HL_HARD == 0


# ---------------------------------------------------------------- 5.3 Retreat
@BOTH
def test_retreat_passed(variant):
    """§5.3 [HL] Retreat: on a passed Initiative test the fighter moves up to its full M and the
    enemies may only turn; core: each engaged enemy tests Initiative for reaction attacks and the
    retreater moves D6"."""
    game = make(u(0, "r", (2, 2), facing="E"), u(1, "e", (3, 2), facing="W"), variant=variant)
    game.activate("r")
    if variant == "core":
        play(game, [6, 1, 6], "retreat", cell=(0, 2))  # I test, enemy I test fails, D6 = 6
        assert [e.actor for e in game.events("init")] == [game.fid("r"), game.fid("e")]
    else:
        play(game, [6], "retreat", cell=(0, 5))  # 2" W and 3" S: 4.5" of movement, within M5
        assert [e.actor for e in game.events("init")] == [game.fid("r")]
        assert game.fighter("r")["cell"] == (0, 5)
    assert not game.events("attacks")


@BOTH
def test_retreat_failed(variant):
    """§5.3 [HL]: on a failed test every enemy in base contact attacks it as a reaction (no
    Initiative test for them) and it stays; core: enemies that pass an Initiative test react."""
    game = make(u(0, "r", (2, 2), facing="E"), u(1, "e", (3, 2), facing="W"), variant=variant)
    game.activate("r")
    dice = [1, 6, 1] if variant == "core" else [1, 1]  # I test fails; [core: enemy I test]; hit roll
    play(game, dice, "retreat", cell=(0, 2))
    assert len(game.events("reaction")) == 1 and game.fighter("r")["cell"] == (2, 2)


# ---------------------------------------------------------------- 10.4 Broken
@BOTH
def test_broken_fighter_runs_then_may_rally_itself(variant):
    """§10.4 [HL]: a Broken fighter's activation is Run for Cover (Basic) — 2D6" when Active — and
    at its end a Cool test with +1 per capable friend within 3": passing ends Broken. Core (§10.2):
    it runs and stays Broken until the End phase Rally."""
    game = make(u(0, "brk", (2, 2), broken=True), u(0, "pal", (2, 4)), u(1, "foe", (8, 2)), variant=variant)
    game.activate("pal")
    game.act("end")
    game.act("select", fighter=game.fighter("foe")["slot"])
    game.act("end")
    dice = [1, 1] if variant == "core" else [1, 1, 3, 3]  # 2D6" run; [HL] the Cool test 2D6
    play(game, dice, "select", fighter=game.fighter("brk")["slot"])
    assert len(by(game, "rfc", "brk")) == 1
    if variant == "core":
        assert game.fighter("brk")["broken"] and not game.events("self_rally")
    else:
        ev = by(game, "self_rally", "brk")[0].fields
        assert (ev["roll"], ev["need"], ev["passed"]) == (7, 7, 1)  # 3 + 3 + 1 (pal is within 3")
        assert not game.fighter("brk")["broken"]


def test_house_legacy_engaged_broken_fighter_retreats():
    """§10.4 [HL]: an Engaged Broken fighter must Retreat (Basic): Initiative test, a pass moves it
    up to M to the cell Running for Cover would pick, without reaction attacks; then the Cool test."""
    game = make(u(0, "brk", (2, 2), broken=True), u(1, "e", (3, 2)), variant=HL)
    game.activate("e")
    game.act("end")
    play(game, [6, 1, 1], "select", fighter=game.fighter("brk")["slot"])  # I test, Cool 2D6 fails
    assert not game.events("reaction")
    c = game.fighter("brk")["cell"]
    assert max(abs(c[0] - 3), abs(c[1] - 2)) > 1  # no longer in base contact
    assert game.fighter("brk")["broken"]


@BOTH
def test_failed_nerve_test_breaks_but_does_not_run_out_of_turn(variant):
    """§10.4 [HL]: failing a Nerve test makes the fighter Broken; it runs for cover in its own
    activation (it keeps its Ready marker). Core (§10.1): it loses the marker and runs at once."""
    game = make(u(0, "att", (2, 2), ["fighting_knife"], facing="E"),
                u(1, "vic", (3, 2), armour="none", facing="W"), u(1, "pal", (4, 4)), variant=variant)
    game.activate("att")
    dice = [4, 4, 6, 1, 1] + ([3, 3] if variant == "core" else [])  # hit, wound, OOA; Nerve 2D6; [run]
    play(game, dice, "fight", target="vic")
    assert game.fighter("pal")["broken"]
    assert bool(by(game, "rfc", "pal")) == (variant == "core")
    assert game.fighter("pal")["ready"] == (variant == HL)


@BOTH
def test_one_nerve_test_per_turn(variant):
    """§10.4 [HL]: a fighter takes at most one Nerve test per turn (docs/rules.md: per activation).
    A shot leaves vic Seriously Injured (pal tests, passes), a Coup de Grace then takes it Out of
    Action in the same activation: core tests pal again, House Legacy does not."""
    game = make(u(0, "att", (2, 2), ["lasgun"], facing="E"), u(1, "vic", (4, 2), armour="none", facing="W"),
                u(1, "pal", (4, 4)), variant=variant)
    game.activate("att")
    play(game, [4, 1, 4, 3, 6, 6], "shoot", weapon=0, target="vic")  # hit, FP, wound, SI; Nerve 12
    assert game.fighter("vic")["posture"] == "seriously_injured"
    play(game, [6, 6] if variant == "core" else [], "coup_de_grace", target="vic")
    assert len(game.events("nerve")) == (1 if variant == "core" else 0)


@BOTH
def test_broken_fighter_fights_back_with_ws_6(variant):
    """§10.4 [HL]: a Broken fighter's WS counts as 6+ (its reaction attacks need 6s); core (§10.2):
    reaction attacks at -2 (a WS 3+ fighter then needs 5s)."""
    game = make(u(0, "att", (2, 2), facing="E"), u(1, "brk", (3, 2), facing="W", broken=True, ws=3),
                variant=variant)
    game.activate("att")
    play(game, [1, 1], "fight", target="brk")  # the attack misses, then the reaction's hit roll
    need = [e.fields["need"] for e in game.events("hit") if e.actor == game.fid("brk")]
    assert need == [5 if variant == "core" else 6]


# ---------------------------------------------------------------- 5.3 Blind Fire, Carry
@BOTH
def test_no_blind_fire_in_house_legacy(variant):
    """§5.3 [HL]: the Prone fighter's actions list no Blind Fire; core has it (Double, -2)."""
    game = make(u(0, "p", (2, 2), ["lasgun"], posture="pinned"), u(1, "foe", (6, 2)), variant=variant)
    game.activate("p")
    assert game.can("blind_fire", weapon=0, target="foe") == (variant == "core")


@BOTH
def test_carry_moves_the_lower_of_m_and_s(variant):
    """§5.3 [HL] Carry: move up to the lower of M and S (3" for an Orlock ganger); core Carry Loot
    Casket moves the fighter its M (5")."""
    b = board("""
        c.........
        ..........
        ..........
    """)
    game = make(u(0, "p", (0, 1)), u(1, "foe", (9, 0)), board_=b, spares=False, variant=variant)
    game.activate("p")
    assert game.can("carry_casket", cell=(3, 1))  # 3"
    assert game.can("carry_casket", cell=(4, 1)) == (variant == "core")  # 4"
    assert game.can("carry_casket", cell=(5, 1)) == (variant == "core")  # 5"
    assert not game.can("carry_casket", cell=(6, 1))


@BOTH
def test_carry_a_seriously_injured_friend(variant):
    """§5.3 [HL] Carry: a fighter within 1" of a Seriously Injured friend moves up to the lower of
    M and S and takes the friend along; it ends within 1" (put down in the last cell the carrier
    left). The core rules have no such action: it is always masked there."""
    game = make(u(0, "p", (2, 2)), u(0, "si", (1, 2), posture="seriously_injured"), u(1, "foe", (9, 0)),
                variant=variant)
    game.activate("p")
    assert game.can("carry_fighter", cell=(5, 2)) == (variant == HL)  # 3" = min(M5, S3)
    assert not game.can("carry_fighter", cell=(6, 2))  # 4"
    if variant == "core":
        from necro_env.testing import IllegalActionError
        with pytest.raises(IllegalActionError, match="only in the House Legacy variant"):
            game.act("carry_fighter", cell=(5, 2))
        return
    play(game, [], "carry_fighter", cell=(5, 2))
    assert game.fighter("p")["cell"] == (5, 2)
    assert game.fighter("si")["cell"] == (4, 2) and game.fighter("si")["posture"] == "seriously_injured"
    assert game.can("move", cell=(6, 2))  # Simple: the carrier still has an action


# ---------------------------------------------------------------- 4.4 Recovery
@BOTH
def test_no_recovery_within_1_inch_of_a_capable_enemy(variant):
    """§4.4 [HL]: a Seriously Injured fighter within 1" of a capable enemy takes no Recovery test
    in the End phase; core: it always does."""
    game = make(u(0, "si", (2, 2), posture="seriously_injured"), u(1, "e", (4, 2)), variant=variant)
    game.script_dice([2] if variant == "core" else [])
    recovery(game.state, 0, 0, np.zeros(game.dims.n_fighters, np.int64))
    assert game.dice_left() == 0
    assert len(game.events("recovery")) == (1 if variant == "core" else 0)


@BOTH
def test_broken_friend_cannot_assist_recovery_in_house_legacy(variant):
    """§4.5 [HL]: only capable fighters assist Recovery tests, so a Broken friend does not; core
    lets a Standing Broken friend assist (docs/rules.md §11.3)."""
    game = make(u(0, "si", (2, 2), posture="seriously_injured"), u(0, "brk", (3, 2), broken=True),
                u(1, "e", (8, 5)), variant=variant)
    game.script_dice([2, 2] if variant == "core" else [2])
    recovery(game.state, 0, 0, np.zeros(game.dims.n_fighters, np.int64))
    assert game.dice_left() == 0
    ev = game.events("recovery")[0].fields
    assert ev["assistant"] == (game.fid("brk") if variant == "core" else -1)
