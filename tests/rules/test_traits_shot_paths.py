"""Reckless and Master-crafted (rules digest 12) on every kind of shot: the twin-sidearm shot
(7.8) and Fire Through Ductway (5.2) use the same trait handling as an ordinary Shoot
(shooting.shot_target / reckless_pick, shooting.master_reroll).

No weapon of the starter data carries these traits: the tests give a pistol or a lasgun the trait
in a copied weapon table (tests/rules/test_traits_more.py). Fighters are Orlock gangers
(BS 4+, S3, T3); dice are scripted.
"""
from scenario_helpers import by, make, play, u
from test_traits_more import table, traits

from necro_env.rulesets.necromunda.damage import TR_MASTER_CRAFTED, TR_RECKLESS
from necro_env.rulesets.necromunda.state import WP_FLAGS, WPF_MC_USED
from necro_env.testing import board

DUCT_BOARD = board("""
....#....
....#....
....#....
....#....
""", ductways=[(1, 0, 7, 0)])


def twin_game(trait, *others, weapons=("laspistol", "stub_gun"), traited="laspistol"):
    game = make(u(0, "shooter", (0, 2), list(weapons), facing="E"), u(0, "friend", (3, 4)),
                u(1, "target", (4, 2), armour="none"), *others, weapons=table(traited, trait), spares=False)
    game.activate("shooter")
    return game


def duct_game(trait, *others):
    game = make(u(0, "shooter", (1, 1), ["lasgun"]), u(1, "target", (7, 1), armour="none"), *others,
                board_=DUCT_BOARD, weapons=table("lasgun", trait), spares=False)
    game.activate("shooter")
    return game


# ---------------------------------------------------------------- twin sidearms (7.8)
def test_reckless_pistol_in_a_twin_shot_draws_its_own_target():
    """§12 Reckless with §7.8 twin sidearms: the Reckless laspistol's target is drawn at random
    among the models in arc, sight and range, [friend, target]: a D6 of 1 picks the friend; the
    other pistol (not Reckless) shoots the declared target after target priority (no test needed:
    it is the closest enemy)."""
    game = twin_game("reckless")
    play(game, [1, 1, 1, 1, 1], "shoot_twin", target="target")  # pick 1; two missed hit rolls; two FP dice
    pick = traits(game, TR_RECKLESS)
    assert len(pick) == 1 and pick[0].fields["need"] == 2 and pick[0].fields["effect"] == game.fid("friend")
    shots = game.events("shot")
    assert [e.target for e in shots] == [game.fid("friend"), game.fid("target")]
    assert [e.fields["weapon"] for e in shots] == [game.weapons.index["laspistol"], game.weapons.index["stub_gun"]]
    assert game.events("cool") == []


def test_two_reckless_pistols_in_a_twin_shot_draw_a_target_each():
    """§12 Reckless, §7.8: with both pistols Reckless each draws its own target (two D6: 2 picks
    the target, 1 the friend); no target priority at all."""
    game = twin_game("reckless", weapons=("laspistol", "laspistol"))
    play(game, [2, 1, 1, 1, 1, 1], "shoot_twin", target="target")
    assert [e.fields["effect"] for e in traits(game, TR_RECKLESS)] == [game.fid("target"), game.fid("friend")]
    assert [e.target for e in game.events("shot")] == [game.fid("target"), game.fid("friend")]


def test_master_crafted_pistol_rerolls_its_failed_hit_in_a_twin_shot():
    """§12 Master-crafted with §7.8 twin sidearms: the Master-crafted laspistol's failed hit roll
    (2, needs 4: +1 Short, -1 twin) is re-rolled (5 hits); the stub gun's miss stands. Then the
    Firepower dice and the wound roll (1 fails)."""
    game = twin_game("master_crafted")
    play(game, [2, 5, 1, 1, 1, 1], "shoot_twin", target="target")
    assert [e.fields["hit"] for e in by(game, "hit", "shooter")] == [0, 1, 0]
    mc = traits(game, TR_MASTER_CRAFTED)
    assert len(mc) == 1 and mc[0].fields["roll"] == 2
    assert game.state.wp[0, game.fid("shooter"), 0, WP_FLAGS] & WPF_MC_USED
    assert game.state.wp[0, game.fid("shooter"), 1, WP_FLAGS] & WPF_MC_USED == 0


# ---------------------------------------------------------------- Fire Through Ductway (5.2)
def test_master_crafted_rerolls_a_failed_ductway_hit():
    """§12 Master-crafted with §5.2 Fire Through Ductway: the failed 5+ hit roll (3) is re-rolled
    (5 hits), once per battle; then the Firepower dice and the wound roll."""
    game = duct_game("master_crafted")
    play(game, [3, 5, 1, 1], "fire_ductway", weapon=0, target="target")
    hits = by(game, "hit", "shooter")
    assert [(e.fields["roll"], e.fields["hit"], e.fields["reason"]) for e in hits] == [(3, 0, 3), (5, 1, 3)]
    assert traits(game, TR_MASTER_CRAFTED)[0].fields["roll"] == 3
    assert game.fighter("target")["posture"] == "pinned"
    game.activate("shooter", round_=2)
    play(game, [4, 1], "fire_ductway", weapon=0, target="target")  # used up: the miss stands
    assert [e.fields["hit"] for e in by(game, "hit", "shooter")] == [0]


def test_reckless_ductway_shot_goes_to_a_random_model_at_the_far_end():
    """§12 Reckless with §5.2 Fire Through Ductway: the target is drawn among the models, friend or
    foe, within 1" of the far end of the ductway, [friend, target]: a D6 of 1 picks the friend."""
    game = duct_game("reckless", u(0, "friend", (5, 0)))
    play(game, [1, 6, 1, 1], "fire_ductway", weapon=0, target="target")  # pick, hit 6, FP, wound 1
    pick = traits(game, TR_RECKLESS)
    assert len(pick) == 1 and pick[0].fields["need"] == 2 and pick[0].fields["effect"] == game.fid("friend")
    assert game.events("shot")[0].target == game.fid("friend")
    assert game.fighter("friend")["posture"] == "pinned" and game.fighter("target")["posture"] == "standing"


def test_reckless_ductway_shot_ignores_models_away_from_the_far_end():
    """§12 Reckless, §5.2: a model 2" from the far end is no candidate; with the target alone the
    pick rolls no die (the trait event has 1 candidate and roll 0)."""
    game = duct_game("reckless", u(0, "friend", (7, 3)))
    play(game, [1, 1], "fire_ductway", weapon=0, target="target")  # hit 1 misses, FP
    pick = traits(game, TR_RECKLESS)
    assert [(e.fields["roll"], e.fields["need"], e.fields["effect"]) for e in pick] == [(0, 1, game.fid("target"))]
    assert game.events("shot")[0].target == game.fid("target")
