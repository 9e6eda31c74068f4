"""The decisions of a Caster's spells (§10 Caster, §13 Q18, §13.1; the spells and their rules are spells.py's).

Before it shoots (Hold, Advance) or makes its charge attacks, a unit that may try a spell is asked (DK_CAST):
a spell and a target (``spells.can_cast`` is the mask), or ``pass`` to go on. For a tried spell every unit that
may help (``spells.can_help``: tokens, within 18" and in sight of the caster's unit, the caster too, either side)
is asked in slot order (DK_HELP): how many tokens, each +1 or -1 to the roll (§13.1: every spender picks its
sign), or none; the caster keeps the spell's cost back. The choices are meant to be simultaneous and secret
(§13.1): the state keeps the running sum in G_CAST_MOD, which an observation must not show the other side.
Then ``spells.cast`` rolls, and the caster is asked again (each spell at most once a round).
"""
import numpy as np

from ...core.jit import njit
from .codec import HELP_MAX
from .seam import can_cast, can_help, cast_spell, spend_tokens
from .spells import N_SPELLS, SPELL_COST
from .state import G_CAST_SPELL, G_MU, U_SIDE, U_TOKENS


@njit(cache=True)
def spell_target_unit(s, b, side, r):
    """Unit of a cast's relative target index r: the deciding side's units first, then the other side's."""
    mu = s.g[b, G_MU]
    return ((side + r // mu) % 2) * mu + r % mu


@njit(cache=True)
def any_cast(st, s, b, u):
    """Has unit u a spell it may try now on some unit?"""
    for spell in range(N_SPELLS):
        for v in range(s.u.shape[1]):
            if can_cast(s, st, b, u, spell, v):
                return True
    return False


@njit(cache=True)
def help_left(s, b, v, caster):
    """Tokens unit v may spend on the roll: all it holds, the caster less the spell's cost."""
    n = np.int64(s.u[b, v, U_TOKENS])
    if v == caster:
        n -= SPELL_COST[s.g[b, G_CAST_SPELL]]
    return min(max(n, 0), HELP_MAX)


@njit(cache=True)
def next_helper(st, s, b, caster, v0):
    """The first unit from slot v0 on that may help the roll, or -1."""
    for v in range(v0, s.u.shape[1]):
        if can_help(s, st, b, v, caster) and help_left(s, b, v, caster) > 0:
            return v
    return -1


@njit(cache=True)
def spend(s, b, helper, caster, signed):
    """The helper spends |signed| tokens; returns the modifier they give."""
    n = spend_tokens(s, b, helper, abs(signed), caster)
    return n if signed >= 0 else -n


@njit(cache=True)
def side_of(s, b, u):
    return s.u[b, u, U_SIDE]


__all__ = ["any_cast", "cast_spell", "help_left", "next_helper", "side_of", "spell_target_unit", "spend"]
