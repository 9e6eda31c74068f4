"""The combat functions the decision loop calls, in one place (the combat modules: shooting, melee,
wounds, morale, specials, spells).

The loop calls them by these names: ``resolve`` and ``can_target`` (shooting, with the board for sight and
cover), ``charge_attacks``, ``can_strike_back``, ``strike_back`` and ``aftermath`` (melee; its codes are
``AFTER_*`` below, melee.py's ``AM_*``), ``apply_wounds`` and ``fall_hit`` (wounds), ``dangerous_test``
(specials), ``end_of_round`` and ``clear_shaken`` (morale), ``start_of_round``, ``can_cast``, ``can_help``,
``spend_tokens`` and ``cast_spell`` (spells: Caster, with the board for sight).
"""
from ...core.jit import njit
from .melee import AM_ATTACKER_BACK, AM_ATTACKER_FREE, AM_BOTH_DESTROYED, AM_DEFENDER_FREE
from .melee import aftermath, can_strike_back, charge_attacks, strike_back  # noqa: F401
from .morale import clear_shaken, end_of_round  # noqa: F401
from .shooting import can_target as _can_target
from .shooting import resolve as _resolve
from .specials import dangerous_test  # noqa: F401
from .spells import can_cast as _can_cast
from .spells import can_help as _can_help
from .spells import cast as _cast
from .spells import spend_tokens, start_of_round  # noqa: F401
from .wounds import apply_wounds  # noqa: F401
from .wounds import fall as fall_hit  # noqa: F401

AFTER_FALL_BACK = AM_ATTACKER_BACK  # neither unit destroyed: the charger moves back out of 1" (§6 step 6)
AFTER_ATTACKER_FREE = AM_ATTACKER_FREE  # the defender was destroyed: the charger may move up to 3"
AFTER_DEFENDER_FREE = AM_DEFENDER_FREE  # the charger was destroyed: the defender may move up to 3"
AFTER_NONE = AM_BOTH_DESTROYED  # nothing moves


@njit(cache=True)
def can_target(s, st, b, unit, slot, target):
    """shooting.can_target with the board (range and line of sight, §5.1, §12.5)."""
    return _can_target(s, b, unit, slot, target, st)


@njit(cache=True)
def can_cast(s, st, b, caster, spell, target):
    """spells.can_cast with the board (line of sight)."""
    return _can_cast(s, b, caster, spell, target, st)


@njit(cache=True)
def can_help(s, st, b, helper, caster):
    return _can_help(s, b, helper, caster, st)


@njit(cache=True)
def cast_spell(s, st, b, caster, spell, target, modifier):
    return _cast(s, b, caster, spell, target, modifier, st)


@njit(cache=True)
def resolve(s, st, b, unit):
    """shooting.resolve with the board (cover, §9)."""
    _resolve(s, b, unit, st)


__all__ = ["AFTER_ATTACKER_FREE", "AFTER_DEFENDER_FREE", "AFTER_FALL_BACK", "AFTER_NONE", "aftermath", "apply_wounds",
           "can_strike_back", "can_target", "charge_attacks", "clear_shaken", "dangerous_test", "end_of_round",
           "fall_hit", "resolve", "start_of_round", "strike_back", "can_cast", "can_help", "cast_spell",
           "spend_tokens"]
