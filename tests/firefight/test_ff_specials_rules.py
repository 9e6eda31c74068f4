"""Dangerous terrain (rules digest §9, §13 Q19) and Caster(X) with our spell set (§10 Caster, §13 Q18, §13.1)."""
from ff_combat_setup import Scene

from necro_env.rulesets.firefight import constants as C
from necro_env.rulesets.firefight import specials, spells
from necro_env.rulesets.firefight import state as ST
from necro_env.rulesets.firefight.combat_events import (
    E_CAST, E_DANGEROUS_ROLL, E_DEFENSE, E_SHAKEN_CLEARED, E_TOKENS, E_WOUND_EFFECT,
)


def test_ff_dangerous_one_die_per_model_each_1_a_wound_9():
    """§9: each model rolls a D6; each 1 is one wound to the unit (a model of a group dies, §7.3); 2 is safe."""
    sc = Scene()
    u = sc.unit(0, [(10, 10), (11, 10), (12, 10)])
    sc.dice(1, 2, 1)
    assert specials.dangerous_test(sc.s, 0, u, 3) == 2
    (ev,) = sc.events(E_DANGEROUS_ROLL)
    assert (ev["models"], ev["dice"], ev["wounds"]) == (3, 3, 2)
    assert sc.spent() and sc.alive(u) == 1


def test_ff_dangerous_tough_rolls_x_dice_9():
    """§9: a model with Tough(3) rolls 3 dice; two 1s are two markers, below 3: no wound-effect roll."""
    sc = Scene()
    u = sc.unit(0, [(10, 10)], tough=3)
    sc.dice(1, 1, 2)
    assert specials.dangerous_test(sc.s, 0, u, 1) == 0
    assert sc.spent() and sc.markers(u) == 2
    assert sc.events(E_WOUND_EFFECT)[0]["outcome"] == 0


def test_ff_dangerous_nothing_for_no_models_9():
    sc = Scene()
    u = sc.unit(0, [(10, 10)])
    sc.dice()
    assert specials.dangerous_test(sc.s, 0, u, 0) == 0 and not sc.events()


def _casting(tokens=2, caster=2, target_cell=(10, 25), **kw):
    sc = Scene()
    c = sc.unit(0, [(10, 10)], caster=caster, **kw)
    sc.s.u[0, c, ST.U_TOKENS] = tokens
    t = sc.unit(1, [target_cell], defense=5)
    return sc, c, t


def test_ff_caster_gains_x_tokens_at_most_6_10():
    """§10 Caster(X): X tokens at the start of each round, at most 6 held."""
    sc, c, t = _casting(tokens=5, caster=2)
    spells.start_of_round(sc.s, 0)
    assert sc.col(c, ST.U_TOKENS) == 6
    assert sc.events(E_TOKENS)[0]["change"] == 1


def test_ff_bolt_casts_on_4_and_hits_10():
    """§10 Caster: spend the spell's tokens, roll 4+; our Bolt: 1 hit AP(2) on an enemy within 18" in sight."""
    sc, c, t = _casting()
    assert spells.can_cast(sc.s, 0, c, spells.SP_BOLT, t, sc.st)
    sc.dice(4, 6)  # cast; Defense 6 blocks (a natural 6)
    assert spells.cast(sc.s, 0, c, spells.SP_BOLT, t, 0, sc.st) == 1
    assert sc.col(c, ST.U_TOKENS) == 1
    assert sc.events(E_DEFENSE)[0]["modifier"] == -2
    assert not spells.can_cast(sc.s, 0, c, spells.SP_BOLT, t, sc.st)  # one try per spell a round
    spells.start_of_round(sc.s, 0)
    assert spells.can_cast(sc.s, 0, c, spells.SP_BOLT, t, sc.st)


def test_ff_cast_roll_3_fails_and_spends_the_tokens_10():
    sc, c, t = _casting()
    sc.dice(3)
    assert spells.cast(sc.s, 0, c, spells.SP_BOLT, t, 0, sc.st) == 0
    assert sc.col(c, ST.U_TOKENS) == 1 and sc.events(E_CAST)[0]["cast"] == 0


def test_ff_cast_natural_1_fails_with_plus_3_13_1():
    """§13.1: natural 6 / natural 1 apply to the casting roll: 1 + 3 fails, 6 - 3 succeeds."""
    sc, c, t = _casting()
    sc.dice(1)
    assert spells.cast(sc.s, 0, c, spells.SP_BOLT, t, 3, sc.st) == 0
    sc2, c2, t2 = _casting()
    sc2.dice(6, 6)
    assert spells.cast(sc2.s, 0, c2, spells.SP_BOLT, t2, -3, sc2.st) == 1


def test_ff_spell_range_and_sight_10():
    """Our Bolt reaches 18": a target 18" away (centre 19 cells) may be chosen, 19" may not; a
    sight-blocking cell between forbids it; too few tokens forbid it; Shaken casters are idle (§7.2)."""
    sc, c, t = _casting(target_cell=(10, 29))
    assert spells.can_cast(sc.s, 0, c, spells.SP_BOLT, t, sc.st)
    sc.s.m[0, t, 0, ST.M_Y] = 30
    assert not spells.can_cast(sc.s, 0, c, spells.SP_BOLT, t, sc.st)
    sc.s.m[0, t, 0, ST.M_Y] = 20
    sc.terrain([(10, 15)], C.TF_BLOCKS_SIGHT | C.TF_IMPASSABLE)
    assert not spells.can_cast(sc.s, 0, c, spells.SP_BOLT, t, sc.st)
    sc2, c2, t2 = _casting(tokens=1)
    assert not spells.can_cast(sc2.s, 0, c2, spells.SP_STORM, t2, sc2.st)  # Storm costs 2
    assert not spells.can_cast(sc2.s, 0, c2, spells.SP_STEADY, t2, sc2.st)  # Steady targets friends
    sc2.s.u[0, c2, ST.U_SHAKEN] = 1
    assert not spells.can_cast(sc2.s, 0, c2, spells.SP_BOLT, t2, sc2.st)


def test_ff_steady_clears_shaken_of_a_friend_10():
    sc, c, t = _casting()
    f = sc.unit(0, [(12, 10)], shaken=True)
    sc.dice(5)
    assert spells.cast(sc.s, 0, c, spells.SP_STEADY, f, 0, sc.st) == 1
    assert not sc.shaken(f) and sc.events(E_SHAKEN_CLEARED)


def test_ff_helpers_within_18_inches_in_sight_spend_tokens_13_1():
    """§10 Caster / §13.1: units with tokens within 18" and in sight of the caster may spend them, friend
    or foe, each token +1 or -1 (the engine sums the signs); at 19" they may not."""
    sc, c, t = _casting()
    enemy_caster = sc.unit(1, [(10, 29)], caster=1)  # 18" (centre distance 19 cells)
    far_caster = sc.unit(1, [(10, 30)], caster=1)  # 19"
    sc.s.u[0, enemy_caster, ST.U_TOKENS] = 3
    sc.s.u[0, far_caster, ST.U_TOKENS] = 3
    assert spells.can_help(sc.s, 0, enemy_caster, c, sc.st)
    assert not spells.can_help(sc.s, 0, far_caster, c, sc.st)
    assert not spells.can_help(sc.s, 0, t, c, sc.st)  # no tokens
    assert spells.spend_tokens(sc.s, 0, enemy_caster, 5, c) == 3
    sc.dice(6)  # 6 - 3: still a natural 6
    assert spells.cast(sc.s, 0, c, spells.SP_STEADY, c, -3, sc.st) == 1
