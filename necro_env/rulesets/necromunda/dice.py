"""Special dice as tables over a D6 face (rules 1.5, DESIGN.md section 3).

Firepower dice (section 14 item 1): faces 1-5 show 1, 1, 2, 2, 3 bullet
holes; face 6 shows the Ammo symbol with 1 hole.
Injury dice ([GH]): faces 1-2 Flesh Wound, 3-5 Serious Injury, 6 Out of Action.
"""
import numpy as np
from ...core.jit import njit

from ...core.rng import roll_d6

FP_HOLES = np.array([0, 1, 1, 2, 2, 3, 1], np.int64)
FP_AMMO_FACE = 6

INJ_FLESH = 0
INJ_SERIOUS = 1
INJ_OOA = 2
INJURY_OF_FACE = np.array([0, INJ_FLESH, INJ_FLESH, INJ_SERIOUS, INJ_SERIOUS, INJ_SERIOUS, INJ_OOA], np.int64)
INJURY_NAMES = ("flesh_wound", "serious_injury", "out_of_action")


@njit(cache=True)
def d6(s, b):
    return roll_d6(s.rng, s.script, s.spos, b)


@njit(cache=True)
def d3(s, b):
    return (d6(s, b) + 1) // 2


@njit(cache=True)
def two_d6(s, b):
    return d6(s, b) + d6(s, b)


@njit(cache=True)
def injury_die(s, b):
    """Returns (result, face)."""
    face = d6(s, b)
    return INJURY_OF_FACE[face], face
