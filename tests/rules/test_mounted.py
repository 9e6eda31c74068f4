"""§4.3 Mounted: Grounded (no climbing), Hands Full's loadout limits and Ride By. No fighter data
gives the condition (no mounts or bikes in configs/); scenarios place fighters Mounted."""
import dataclasses

import pytest

from necro_env.config import ConfigError, load_weapons
from necro_env.rulesets.necromunda.constants import PF_TRAITS2, T2_LANCE
from necro_env.testing import IllegalActionError, board

from scenario_helpers import by, make, play, u

WEAPONS = load_weapons()

# a 1" high platform on the right half of the board
LEVELS = board("\n".join(["." * 10] * 6), heights="\n".join(["0000011111"] * 6))


# ---------------------------------------------------------------- Grounded
def test_grounded_mounted_fighter_cannot_climb():
    """§4.3 Mounted, Grounded (§6.4): a Mounted fighter cannot climb: the platform 1" up is
    reachable on foot (2" + 2" for the climb = 4" <= M5) but not when Mounted; level ground
    stays reachable."""
    game = make(u(0, "walker", (3, 2)), u(1, "foe", (0, 5)), board_=LEVELS)
    game.activate("walker")
    assert game.can("move", cell=(5, 2))
    game = make(u(0, "rider", (3, 2), conditions=["mounted"]), u(1, "foe", (0, 5)), board_=LEVELS)
    game.activate("rider")
    assert not game.can("move", cell=(5, 2)) and not game.can("move", cell=(6, 2))
    assert game.can("move", cell=(4, 0)) and game.can("move", cell=(0, 2))


def test_grounded_rider_on_a_platform_cannot_climb_down():
    """§4.3 Grounded: climbing down is climbing too; a Mounted fighter leaves a platform only by
    jumping down (a Move with the Initiative test of §6.6), never by climbing down within M."""
    game = make(u(0, "rider", (6, 2), conditions=["mounted"]), u(1, "foe", (0, 5)), board_=LEVELS)
    game.activate("rider")
    assert game.can("move", cell=(9, 2))  # level ground on the platform
    assert game.can("move", cell=(4, 2))  # only by the jump (MODE_JUMP)
    game.script_dice([6])  # the jump-down Initiative test
    game.act("move", cell=(4, 2))
    assert game.events("init")[0].fields["reason"] == 6  # INIT_JUMP: it jumped, it did not climb


# ---------------------------------------------------------------- Hands Full
def test_hands_full_one_weapon_fewer():
    """§4.3 Mounted, Hands Full: one weapon fewer than the limit of 4 (schemas.MAX_WEAPONS): a
    fighter that starts Mounted with 4 weapons is a configuration error naming file, field,
    value and what is allowed."""
    with pytest.raises(ConfigError, match=r"fighters\[0\] \(rider\) weapons.*at most 3 weapons"):
        make(u(0, "rider", (1, 2), ["autopistol", "laspistol", "fighting_knife", "sword"], conditions=["mounted"]),
             u(1, "foe", (8, 2)))
    make(u(0, "rider", (1, 2), ["autopistol", "laspistol", "fighting_knife"], conditions=["mounted"]),
         u(1, "foe", (8, 2)))  # three is fine


def test_hands_full_no_unwieldy_without_lance():
    """§4.3 Mounted, Hands Full: no Unwieldy weapons unless they also have Lance. No weapon in
    configs/ has Lance: the test gives the heavy stubber the trait (a test weapon)."""
    with pytest.raises(ConfigError, match=r"weapons\[1\]': got 'heavy_stubber'.*Unwieldy.*Lance"):
        make(u(0, "rider", (1, 2), ["autopistol", "heavy_stubber"], conditions=["mounted"]), u(1, "foe", (8, 2)))
    make(u(0, "walker", (1, 2), ["autopistol", "heavy_stubber"]), u(1, "foe", (8, 2)))  # on foot: fine
    prof = WEAPONS.profiles.copy()
    prof[WEAPONS.index["heavy_stubber"], 0, PF_TRAITS2] |= T2_LANCE >> 32
    lance = dataclasses.replace(WEAPONS, profiles=prof)
    make(u(0, "rider", (1, 2), ["autopistol", "heavy_stubber"], conditions=["mounted"]), u(1, "foe", (8, 2)),
         weapons=lance)


# ---------------------------------------------------------------- Ride By
def rider_game(foe_cell=(5, 2), m=7, **foe):
    game = make(u(0, "rider", (1, 2), ["fighting_knife"], conditions=["mounted"], facing="E", m=m),
                u(1, "foe", foe_cell, ["fighting_knife"], facing="W", **foe))
    game.activate("rider")
    return game


def test_ride_by_is_offered_only_to_mounted_fighters_within_reach():
    """§4.3 Ride By: a Move (Simple) of a Mounted fighter that reaches base contact with the enemy
    within its Movement; not for a fighter on foot; not beyond M."""
    assert rider_game().can("ride_by", target="foe")
    assert not rider_game(foe_cell=(9, 2), m=5).can("ride_by", target="foe")  # contact at (8, 2): 7" > 5"
    game = make(u(0, "walker", (1, 2), ["sword"], facing="E"), u(1, "foe", (5, 2)))
    game.activate("walker")
    assert not game.can("ride_by", target="foe")
    with pytest.raises(IllegalActionError, match="Mounted fighter"):
        game.act("ride_by", target="foe")


def test_ride_by_pauses_for_one_attack_and_one_reaction_then_moves_on():
    """§4.3 Ride By: the rider moves to base contact (3", cost 6 half-inches), makes one close combat
    attack (one Attack dice), the enemy one reaction attack; then the rider finishes its Move with
    the 4" left, passing through the enemy's 1" zone (not ending in it)."""
    game = rider_game()
    play(game, [1, 1], "ride_by", target="foe")  # the rider's hit roll 1, the reaction's hit roll 1
    rb = by(game, "ride_by", "rider")[0].fields
    assert rb["pause_cell"] == 2 * 10 + 4 and rb["half_inches_left"] == 14 - 6
    assert [e.fields["dice"] for e in game.events("attacks")] == [1, 1]
    assert len(game.events("reaction")) == 1
    assert game.decision == ("ride_by_move", 0)
    assert game.can("move", cell=(7, 1))  # (4,2) -> (5,1) -> (6,1) -> (7,1): 1.5" + 1" + 1" = 3.5"
    assert not game.can("move", cell=(6, 1))  # within 1" of the enemy: may pass, not stop
    assert game.can("end")
    play(game, [], "move", cell=(7, 1))
    assert game.fighter("rider")["cell"] == (7, 1)
    assert game.decision == ("choose_action", 0)  # its second action


def test_ride_by_stop_at_the_pause_cell_leaves_the_rider_engaged():
    """§4.3 Ride By: ``end`` at the follow-up keeps the rider in base contact (Engaged)."""
    game = rider_game()
    play(game, [1, 1], "ride_by", target="foe")
    play(game, [], "end")
    assert game.fighter("rider")["cell"] == (4, 2)
    assert game.can("fight", target="foe")


def test_ride_by_attack_hits_and_reaction_hit_tests_knock_down_with_this_activations_inches():
    """§4.3 Ride By / I get knocked down: the rider's one attack wounds (hit 6, wound 5 v T3,
    no armour: the foe W2 -> 1); the reaction hits the rider (hit 6), wound roll 2 fails, and the
    rider tests Initiative with the 3" moved in this activation (0-5": S3 AP- D1): a roll of 1
    fails: the hit (wound roll 1 fails), then Prone and Pinned, so the Move ends there: no
    follow-up. In base contact with the Standing foe it then stands up Engaged (§4.1)."""
    game = rider_game(w=2, armour="none")
    play(game, [6, 5, 6, 2, 1, 1], "ride_by", target="foe")
    assert game.fighter("foe")["wounds"] == 1
    kd = [e for e in game.events("init") if e.fields["reason"] == 7]
    assert len(kd) == 1 and kd[0].fields["passed"] == 0
    assert [e.fields["strength"] for e in game.events("wound")] == [3, 3, 3]
    assert len(game.events("standup_engaged")) == 1
    assert game.decision == ("choose_action", 0) and game.can("fight", target="foe")


def test_random_play_with_riders_keeps_the_mask_exact():
    """§4.3 Ride By, mask exactness (DESIGN.md section 5) in random play with Mounted fighters on
    both sides: every legal action applies on a clone without an exception, and every masked
    ``ride_by`` index is rejected with a reason, leaving the game unchanged."""
    import numpy as np

    from necro_env.rulesets.necromunda import codec as K
    from necro_env.rulesets.necromunda.state import clone_state, state_equal

    kw = dict(conditions=["mounted"])
    game = make(u(0, "r1", (1, 1), ["fighting_knife", "autopistol"], **kw), u(0, "r2", (1, 4), ["axe"], **kw),
                u(1, "e1", (6, 1), ["fighting_knife", "autopistol"], **kw), u(1, "e2", (6, 4), ["sword"]))
    game.activate("r1")
    rng = np.random.default_rng(7)
    seen = set()
    lo, hi = int(game.layout[K.A_RIDE_BY]), int(game.layout[K.A_RIDE_BY + 1])
    for _ in range(120):
        if game.done:
            break
        legal = game.legal_actions()
        for a in legal:
            seen.add(game.decision[0] + ":" + K.KIND_NAMES[int(np.searchsorted(game.layout, a, side="right")) - 1])
            game.clone().step(int(a))
        for a in range(lo, hi):
            if not game.mask[0, a]:
                before = clone_state(game.state)
                with pytest.raises(IllegalActionError):
                    game.step(a)
                assert state_equal(before, game.state)
        rides = legal[(legal >= lo) & (legal < hi)]
        game.step(int(rng.choice(rides if len(rides) and rng.random() < 0.5 else legal)))
    assert "choose_action:ride_by" in seen and "ride_by_move:move" in seen
