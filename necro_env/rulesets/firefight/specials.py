"""Terrain hazards (rules digest §9 Dangerous terrain, §13 Q19).

The combat special rules of §10 live where they act: the hit and Defense rules in attack.py,
shooting.py and melee.py, Tough and Regeneration in wounds.py, Hero and Fearless in morale.py,
Caster in spells.py; Limited is a weapon flag (``W_USED``) set by shooting.resolve.

``dangerous_test``: each model that moved through dangerous terrain or was activated in it rolls one
D6, a model with Tough(X) X dice; each 1 is one wound to the unit (the seed: «Za każdy wynik 1
jednostka otrzymuje ranę»). The wounds are one batch without an attacker (wounds.py): in a
multi-model unit each kills a model, the last model takes markers and makes its wound-effect roll.
"""
import numpy as np

from ...core.jit import njit
from .combat_events import E_DANGEROUS_ROLL
from .constants import US_ON
from .dice import d6
from .events import emit
from .state import U_STATE, U_TOUGH
from .wounds import apply_wounds


@njit(cache=True)
def dangerous_test(s, b, unit, n_models):
    """§9: ``n_models`` models of the unit roll (Tough(X): X dice each); each 1 is a wound. Returns the
    models removed."""
    if n_models <= 0 or s.u[b, unit, U_STATE] != US_ON:
        return 0
    dice = n_models * max(np.int64(s.u[b, unit, U_TOUGH]), 1)
    ones = 0
    for _ in range(dice):
        if d6(s, b) == 1:
            ones += 1
    emit(s, b, E_DANGEROUS_ROLL, -1, unit, n_models, dice, ones, 0, 0)
    if ones == 0:
        return 0
    return apply_wounds(s, b, unit, ones, 0)
