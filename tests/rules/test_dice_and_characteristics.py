"""Dice vocabulary (§1.5) and characteristics (§3.1, §3.2): the dice tables over D6 faces, the
starter fighter profiles within the characteristic bounds, and how modifiers to target numbers
work (a worse target number, never beyond 6+)."""
import numpy as np
import pytest

from necro_env.config import config_root, load_house
from necro_env.rulesets.necromunda import constants as K
from necro_env.rulesets.necromunda import dice
from necro_env.rulesets.necromunda.query import initiative
from necro_env.rulesets.necromunda.state import C_CONCUSSION, C_GUNKED, FI_CH, FI_COND
from necro_env.testing import board, fighter, gang, scenario

B = board("""
......
......
""")


def _game():
    a = fighter("orlock", "ganger", ["lasgun"], name="a", armour="none")
    z = fighter("goliath", "ganger", ["fighting_knife"], name="z", armour="none")
    return scenario(B, [gang("A", a), gang("Z", z)], [dict(fighter="a", cell=(0, 0)), dict(fighter="z", cell=(5, 1))])


@pytest.mark.parametrize("face,want", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_d3_is_a_d6_halved_rounding_up(face, want):
    """§1.5 D3: roll a D6 and halve, rounding up (the natural D3 is the halved face)."""
    g = _game()
    g.script_dice([face])
    assert dice.d3(g.state, 0) == want
    assert g.dice_left() == 0


def test_2d6_is_the_sum_of_two_dice():
    """§1.5 2D6: the sum of two dice, each drawn from the game's dice stream."""
    g = _game()
    g.script_dice([6, 3])
    assert dice.two_d6(g.state, 0) == 9
    assert g.dice_left() == 0


def test_injury_dice_faces():
    """§1.5 Injury dice: 2 × Flesh Wound, 3 × Serious Injury, 1 × Out of Action."""
    g = _game()
    g.script_dice([1, 2, 3, 4, 5, 6])
    got = [int(dice.injury_die(g.state, 0)[0]) for _ in range(6)]
    assert got == [dice.INJ_FLESH] * 2 + [dice.INJ_SERIOUS] * 3 + [dice.INJ_OOA]


def test_firepower_dice_faces():
    """§1.5 / §14 item 1 Firepower dice: holes 1, 1, 2, 2, 3 and one Ammo face with 1 hole
    (average 1.67 hits)."""
    holes = dice.FP_HOLES[1:]
    assert list(holes) == [1, 1, 2, 2, 3, 1]
    assert dice.FP_AMMO_FACE == 6
    assert holes.mean() == pytest.approx(10 / 6)


def test_unscripted_dice_are_uniform_d6_faces_from_the_game_generator():
    """§1.5 D6: every face 1-6, uniformly, from the game's own seeded generator."""
    g = _game()
    g.use_generator()
    faces = np.array([dice.d6(g.state, 0) for _ in range(6000)])
    counts = np.bincount(faces, minlength=7)[1:]
    assert counts.sum() == 6000 and counts.min() > 850 and counts.max() < 1150


def test_starter_profiles_respect_the_characteristic_bounds():
    """§3.1 Fighter characteristics: every fighter type of the starter houses lies within the
    2023 min / max table (M 1-8, WS/BS/I 2+-6+, S/T/W 1-6, A 1-10, Ld/Cl/Wil/Int 3+-10+)."""
    bounds = {K.CH_M: (1, 8), K.CH_WS: (2, 6), K.CH_BS: (2, 6), K.CH_S: (1, 6), K.CH_T: (1, 6),
              K.CH_W: (1, 6), K.CH_I: (2, 6), K.CH_A: (1, 10), K.CH_LD: (3, 10), K.CH_CL: (3, 10),
              K.CH_WIL: (3, 10), K.CH_INT: (3, 10)}
    houses = sorted((config_root() / "houses").glob("*.yaml"))
    assert len(houses) >= 4
    for path in houses:
        house = load_house(path)
        for name, t in house.types.items():
            for ch, (lo, hi) in bounds.items():
                assert lo <= t.chars[ch] <= hi, f"{path.name} {name} characteristic {ch} = {t.chars[ch]}"


def test_target_number_modifiers_make_the_test_harder_but_never_beyond_6_plus():
    """§3.2 Modifying characteristics: a modifier to a target-number characteristic is applied to
    the roll (Gunked +1 on Initiative turns I4+ into I5+); Concussion's −2 has a floor of 6+."""
    g = _game()
    s, st = g.state, g.static
    f = g.fid("a")
    base = int(initiative(s, st, 0, f))
    assert base == s.fi[0, f, FI_CH + K.CH_I]  # no armour: the plain I
    s.fi[0, f, FI_COND] = C_GUNKED
    assert initiative(s, st, 0, f) == min(base + 1, 6)
    s.fi[0, f, FI_COND] = C_CONCUSSION | C_GUNKED
    assert initiative(s, st, 0, f) == 6
