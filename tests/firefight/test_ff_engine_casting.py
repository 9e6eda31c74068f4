"""The Caster decisions of the loop (rules digest §10 Caster, §13 Q18, §13.1; the spells are spells.py's)."""
from necro_env.rulesets.firefight.testing import board, scenario, unit

OPEN = board("\n".join(["." * 30] * 30))


def _caster(tokens=3, enemy_tokens=0):
    game = scenario(OPEN, [unit("human_defense_force", "commander", cells=[(5, 5)], rules={"Caster": 2})],
                    [unit("orc_marauders", "warlord", cells=[(5, 15)], rules={"Caster": 1} if enemy_tokens else None)])
    game.set_unit((0, 0), tokens=tokens)
    game.set_unit((1, 0), tokens=enemy_tokens)
    game.activate((0, 0))
    game.act("action", action="hold")
    return game


def test_ff_caster_is_asked_before_it_shoots_10():
    game = _caster()
    assert game.decision == ("cast", 0)
    assert game.can("cast", spell="bolt", target=(1, 0))  # 9": within its 18"
    assert game.can("cast", spell="storm", target=(1, 0))  # within 12"
    assert not game.can("cast", spell="bolt", target=(0, 0))  # Bolt is for enemies
    assert game.can("cast", spell="steady", target=(0, 0))
    game.act("pass")
    assert game.decision == ("shoot_target", 0)


def test_ff_no_tokens_no_casting_decision_10():
    """§10 (Caster), §12.8: a caster without tokens is offered no casting decision."""
    assert _caster(tokens=0).decision == ("shoot_target", 0)


def test_ff_helpers_of_both_sides_spend_tokens_plus_or_minus_13_1():
    game = _caster(tokens=3, enemy_tokens=2)
    game.act("cast", spell="bolt", target=(1, 0))
    assert game.decision == ("help_cast", 0)  # the caster itself first (slot order), its cost kept back
    assert game.can("help", tokens=2) and not game.can("help", tokens=3) and game.can("help", tokens=-2)
    game.act("help", tokens=1)
    assert game.decision == ("help_cast", 1)  # then the enemy caster within 18" and in sight
    game.script_dice([4, 6] + [3] * 10)  # the casting roll 4 with +1 - 2 = 3: fails
    game.act("help", tokens=-2)
    cast = game.events("cast")[0].fields
    assert cast["modifier"] == -1 and cast["cast"] == 0
    assert game.unit((0, 0))["state"] == "on_table"
    assert int(game.state.u[0, 0, 15]) == 1 and int(game.state.u[0, game.uid((1, 0)), 15]) == 0  # U_TOKENS
    assert game.decision == ("cast", 0)  # asked again: Steady (1 token) is still possible
    assert not game.can("cast", spell="bolt", target=(1, 0))  # tried this round
    assert not game.can("cast", spell="storm", target=(1, 0))  # needs 2 tokens, 1 is left


def test_ff_each_spell_once_then_the_shooting_10():
    game = _caster(tokens=6)
    game.act("cast", spell="steady", target=(0, 0))
    game.script_dice([5] + [3] * 10)
    game.act("help", tokens=0)
    assert game.events("cast")[0].fields["cast"] == 1
    assert game.decision == ("cast", 0) and not game.can("cast", spell="steady", target=(0, 0))


def test_ff_casting_masks_are_exact_in_random_play_5():
    import numpy as np
    import pytest

    from necro_env.core.errors import IllegalActionError
    from necro_env.rulesets.firefight.state import clone_state, state_equal
    game = scenario(OPEN, [unit("human_defense_force", "commander", cells=[(5, 5)], rules={"Caster": 2}),
                           unit("human_defense_force", "infantry_squad", cells=[(10, 5), (11, 5), (12, 5)])],
                    [unit("orc_marauders", "warlord", cells=[(5, 20)], rules={"Caster": 2}),
                     unit("orc_marauders", "orc_boyz", cells=[(12, 20), (13, 20), (14, 20)])], round_limit=4, seed=5)
    game.set_unit((0, 0), tokens=2)
    game.set_unit((1, 0), tokens=2)
    rng = np.random.default_rng(3)
    seen = set()
    while not game.done:
        seen.add(game.decision[0])
        legal = game.legal_actions()
        snap = clone_state(game.state)
        for a in np.setdiff1d(rng.integers(0, game.n_actions, 8), legal):
            with pytest.raises(IllegalActionError):
                game.step(int(a))
            assert state_equal(snap, game.state)
        game.step(int(rng.choice(legal)))
    assert {"cast", "help_cast"} <= seen
