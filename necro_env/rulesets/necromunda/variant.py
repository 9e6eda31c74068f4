"""The House Legacy variant switch and the [HL] conditions shared by several rules
(rules 4.5 capable / incapable, Hard Target; docs/rules.md "House Legacy variant").

The variant is one global column, ``G_VARIANT``; every rule that differs reads it
through ``house_legacy``.
"""
from ...core.jit import njit

from .query import is_engaged
from .state import (
    C_INSANE, FI_BROKEN, FI_COND, FI_HL, FI_POSTURE, FI_STATE, FS_ON, G_VARIANT, HL_HARD, PO_SI, PO_STANDING, VAR_HOUSE_LEGACY,
)


@njit(cache=True, inline="always")
def house_legacy(s, b):
    return s.g[b, G_VARIANT] == VAR_HOUSE_LEGACY


@njit(cache=True)
def capable(s, b, f):
    """[HL] 4.5: on the battlefield and neither Seriously Injured, Broken nor Insane."""
    return (s.fi[b, f, FI_STATE] == FS_ON and s.fi[b, f, FI_POSTURE] != PO_SI and s.fi[b, f, FI_BROKEN] == 0
            and (s.fi[b, f, FI_COND] & C_INSANE) == 0)


@njit(cache=True)
def hard_target(s, b, f):
    """[HL] 4.5 Hard Target (only ever set under House Legacy)."""
    return (s.fi[b, f, FI_HL] & HL_HARD) != 0


@njit(cache=True)
def clear_lost_hard_targets(s, b):
    """[HL] 4.5: a fighter stops being a Hard Target when it becomes Prone, Engaged or Seriously Injured."""
    for f in range(s.fi.shape[1]):
        if (s.fi[b, f, FI_HL] & HL_HARD) == 0:
            continue
        if (s.fi[b, f, FI_STATE] != FS_ON or s.fi[b, f, FI_POSTURE] != PO_STANDING
                or is_engaged(s, b, f)):
            s.fi[b, f, FI_HL] &= ~HL_HARD
