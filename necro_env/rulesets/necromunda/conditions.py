"""Conditions (rules 4.3): state, how each is gained and lost, and the small rule hooks
other modules call.

State: ``fi[b, f, FI_COND]`` is a bit mask of the ``C_*`` bits in ``state.py``
(C_BLAZE, C_BLIND, C_CONCUSSION, C_HIDDEN, C_INSANE, C_WEBBED, C_GUNKED, C_STARVING,
C_INTOXICATED, C_MOUNTED, and C_NO_READY: "a Blind fighter without a Ready marker gets
none next round"). ``fi[b, f, FI_CTRL]`` is 1 + the gang controlling an Insane fighter
during its activation (0: its own gang). ``fi[b, f, FI_MOVED]`` counts the half-inches a
fighter moved in its current / last activation (Mounted "I get knocked down").
Ready, Broken, Out of Ammo and Flesh Wound keep their own columns (FI_READY, FI_BROKEN,
WP_OOA, FI_FLESH).

Every change emits ``E_CONDITION(actor=f, target=source, condition=C_*, gained, cause)``.

Functions (all ``@njit``; ``src`` is the fighter causing it, or -1):
- ``has_cond(s, b, f, c)`` / ``set_cond(s, b, f, c, src, cause)`` / ``clear_cond(...)``
- ``apply_blaze(s, st, b, f, src)``: sets Blaze (reveals a Hidden fighter; 4.3 "can never be Hidden").
- ``blaze_trait(s, st, b, att, tgt)``: the Blaze weapon trait (12): D6 4+ (2+ if Gunked) sets
  the target on fire; call it after the attack for a target hit and still on the battlefield.
- ``apply_blind(s, st, b, f, src)``: Blind; removes the Ready marker, or if it had none, marks
  C_NO_READY so the next Priority phase gives it none.
- ``flash_test(s, st, b, att, tgt)``: the Flash trait: Initiative test, failure = Blind.
- ``apply_concussion(s, st, b, f, src)``: Initiative -2 (to no worse than 6+) until the End phase.
- ``apply_hidden`` / ``reveal(s, st, b, f, src)``: Hidden; never while Blazing.
- ``apply_insane(s, st, b, f, src)``; ``cursed_test(s, st, b, att, tgt)``: Willpower or Insane.
- ``apply_webbed(s, st, b, f, src)``: Webbed; the fighter becomes Prone and Seriously Injured
  (with the usual Nerve tests for its friends).
- ``apply_gunked``, ``apply_starving``, ``apply_intoxicated``, ``apply_mounted`` (flags with the
  rules below and in condition_effects.py).
- ``clear_blaze``, ``clear_blind``, ``clear_concussion``, ``clear_insane``, ``clear_webbed``,
  ``clear_gunked``, ``clear_starving``, ``clear_intoxicated``, ``clear_mounted``.
- Hooks: ``query.initiative`` and ``query.movement`` apply Concussion and Gunked;
  ``query.gang_of`` honours FI_CTRL (Insane control); ``charge_d3_allowed`` (Gunked), ``can_react`` (Blaze),
  ``blind_hits`` (Blind: natural 6 only), ``gets_ready`` (Blind), ``end_of_round`` (End phase).
Activation effects (Blaze, Insane, Starving compulsion, Cannibalise) and the Mounted
knock-down test live in ``condition_effects.py``.
"""
from ...core.jit import njit

from .constants import CH_WIL
from .dice import d6, two_d6
from .events import E_CONDITION, E_INIT, E_SERIOUS, E_WILL, emit
from .nerve import nerve_tests
from .query import initiative
from .state import (
    C_BLAZE, C_BLIND, C_CONCUSSION, C_GUNKED, C_HIDDEN, C_INSANE, C_INTOXICATED, C_MOUNTED, C_NO_READY,
    C_STARVING, C_WEBBED, FI_CH, FI_COND, FI_POSTURE, FI_READY, FI_STATE, FS_ON, PO_SI,
)

# causes (E_CONDITION c)
CAUSE_RULE = 0  # scenario / test set-up / a rule without a better code
CAUSE_WEAPON = 1  # a weapon trait
CAUSE_ACTIVATION = 2  # the fighter's own activation (Blind ends, fire put out, Willpower passed)
CAUSE_END_PHASE = 3  # End phase (Concussion ends, Webbed recovery)
CAUSE_SHOT = 4  # Hidden fighter revealed by shooting
CAUSE_FED = 5  # Starving fighter fed by Cannibalise
CAUSE_START = 6  # the fighter starts the battle with it (gang file start_conditions, scenario placement)

# Willpower test reasons (E_WILL d)
WIL_CURSED = 0
WIL_INSANE = 1
WIL_STARVING = 2

# Initiative test reason codes (E_INIT d) used here; running.py uses 1-2, engine 3-5
INIT_FLASH = 6


@njit(cache=True, inline="always")
def has_cond(s, b, f, c):
    return (s.fi[b, f, FI_COND] & c) != 0


@njit(cache=True)
def set_cond(s, b, f, c, src, cause):
    """Give f condition c; returns True if it was not already there."""
    if s.fi[b, f, FI_COND] & c:
        return False
    s.fi[b, f, FI_COND] |= c
    emit(s, b, E_CONDITION, f, src, c, 1, cause, 0, 0)
    return True


@njit(cache=True)
def clear_cond(s, b, f, c, src, cause):
    """Remove condition c from f; returns True if it had it."""
    if (s.fi[b, f, FI_COND] & c) == 0:
        return False
    s.fi[b, f, FI_COND] &= ~c
    emit(s, b, E_CONDITION, f, src, c, 0, cause, 0, 0)
    return True


@njit(cache=True)
def willpower_test(s, b, f, reason):
    r = two_d6(s, b)
    need = s.fi[b, f, FI_CH + CH_WIL]
    ok = r >= need
    emit(s, b, E_WILL, f, -1, r, need, 1 if ok else 0, reason, 0)
    return ok


# ------------------------------------------------------------------ Blaze
@njit(cache=True)
def apply_blaze(s, st, b, f, src):
    if s.fi[b, f, FI_STATE] != FS_ON:
        return False
    clear_cond(s, b, f, C_HIDDEN, src, CAUSE_WEAPON)  # a burning model can never be Hidden (4.3)
    return set_cond(s, b, f, C_BLAZE, src, CAUSE_WEAPON)


@njit(cache=True)
def blaze_trait(s, st, b, att, tgt):
    """Blaze trait (12): a target hit and still on the battlefield catches fire on a D6 of 4+,
    2+ if Gunked (4.3). Returns True if it is on fire afterwards."""
    if s.fi[b, tgt, FI_STATE] != FS_ON:
        return False
    r = d6(s, b)
    need = 2 if has_cond(s, b, tgt, C_GUNKED) else 4
    if r >= need:
        apply_blaze(s, st, b, tgt, att)
    return has_cond(s, b, tgt, C_BLAZE)


@njit(cache=True)
def clear_blaze(s, st, b, f, src):
    return clear_cond(s, b, f, C_BLAZE, src, CAUSE_ACTIVATION)


@njit(cache=True, inline="always")
def can_react(s, b, f):
    """Blazing models make no reaction attacks (4.3, 8.4)."""
    return (s.fi[b, f, FI_COND] & C_BLAZE) == 0


# ------------------------------------------------------------------ Blind
@njit(cache=True)
def apply_blind(s, st, b, f, src):
    """Blind (4.3): loses its Ready marker; without one it gets none next round."""
    if s.fi[b, f, FI_STATE] != FS_ON:
        return False
    if s.fi[b, f, FI_READY]:
        s.fi[b, f, FI_READY] = 0
    else:
        s.fi[b, f, FI_COND] |= C_NO_READY
    set_cond(s, b, f, C_BLIND, src, CAUSE_WEAPON)
    return True


@njit(cache=True)
def flash_test(s, st, b, att, tgt):
    """Flash trait (12): the target tests Initiative; failure = Blind. Returns True if blinded."""
    if s.fi[b, tgt, FI_STATE] != FS_ON:
        return False
    r = d6(s, b)
    need = initiative(s, st, b, tgt)
    ok = r >= need
    emit(s, b, E_INIT, tgt, att, r, need, 1 if ok else 0, INIT_FLASH, 0)
    if not ok:
        apply_blind(s, st, b, tgt, att)
    return not ok


@njit(cache=True)
def clear_blind(s, st, b, f, src):
    return clear_cond(s, b, f, C_BLIND, src, CAUSE_ACTIVATION)


@njit(cache=True, inline="always")
def blind_hits(s, b, f):
    """A Blind fighter's attacks (reactions are the only ones it may make) hit only on a natural 6."""
    return (s.fi[b, f, FI_COND] & C_BLIND) != 0


@njit(cache=True)
def gets_ready(s, b, f):
    """Priority phase (2.2): False for a Blind fighter that had no Ready marker; clears that mark."""
    if s.fi[b, f, FI_COND] & C_NO_READY:
        s.fi[b, f, FI_COND] &= ~C_NO_READY
        return False
    return True


# ------------------------------------------------------------------ Concussion, Gunked
@njit(cache=True)
def apply_concussion(s, st, b, f, src):
    if s.fi[b, f, FI_STATE] != FS_ON:
        return False
    return set_cond(s, b, f, C_CONCUSSION, src, CAUSE_WEAPON)


@njit(cache=True)
def clear_concussion(s, st, b, f, src):
    return clear_cond(s, b, f, C_CONCUSSION, src, CAUSE_END_PHASE)


@njit(cache=True)
def apply_gunked(s, st, b, f, src):
    if s.fi[b, f, FI_STATE] != FS_ON:
        return False
    return set_cond(s, b, f, C_GUNKED, src, CAUSE_WEAPON)


@njit(cache=True)
def clear_gunked(s, st, b, f, src):
    return clear_cond(s, b, f, C_GUNKED, src, CAUSE_RULE)


# Concussion (Initiative +2 on the target number) and Gunked (+1, Movement -1", minimum 1")
# are applied by query.initiative and query.movement, which every rule uses.


@njit(cache=True, inline="always")
def charge_d3_allowed(s, b, f):
    """A Gunked fighter adds no D3" when it charges (4.3)."""
    return (s.fi[b, f, FI_COND] & C_GUNKED) == 0


# ------------------------------------------------------------------ Hidden
@njit(cache=True)
def apply_hidden(s, st, b, f, src):
    """Hidden (4.3): never while Blazing."""
    if s.fi[b, f, FI_STATE] != FS_ON or (s.fi[b, f, FI_COND] & C_BLAZE):
        return False
    return set_cond(s, b, f, C_HIDDEN, src, CAUSE_RULE)


@njit(cache=True)
def reveal(s, st, b, f, src, cause):
    return clear_cond(s, b, f, C_HIDDEN, src, cause)


# ------------------------------------------------------------------ Insane
@njit(cache=True)
def apply_insane(s, st, b, f, src):
    if s.fi[b, f, FI_STATE] != FS_ON:
        return False
    return set_cond(s, b, f, C_INSANE, src, CAUSE_WEAPON)


@njit(cache=True)
def cursed_test(s, st, b, att, tgt):
    """Cursed trait (12): Willpower test or become Insane. Returns True if it became Insane."""
    if s.fi[b, tgt, FI_STATE] != FS_ON:
        return False
    if willpower_test(s, b, tgt, WIL_CURSED):
        return False
    apply_insane(s, st, b, tgt, att)
    return True


@njit(cache=True)
def clear_insane(s, st, b, f, src):
    return clear_cond(s, b, f, C_INSANE, src, CAUSE_ACTIVATION)


# ------------------------------------------------------------------ Webbed
@njit(cache=True)
def apply_webbed(s, st, b, f, src):
    """Webbed (4.3): treated as Seriously Injured: Prone and Seriously Injured now (friends
    within 3" test Nerve, as for any Serious Injury); Recovery in the End phase (phases.py)."""
    if s.fi[b, f, FI_STATE] != FS_ON:
        return False
    set_cond(s, b, f, C_WEBBED, src, CAUSE_WEAPON)
    if s.fi[b, f, FI_POSTURE] != PO_SI:
        s.fi[b, f, FI_POSTURE] = PO_SI
        emit(s, b, E_SERIOUS, f, src, 1, 0, 0, 0, 0)  # a = 1: from Webbed
        nerve_tests(s, b, f)
    return True


@njit(cache=True)
def clear_webbed(s, st, b, f, src):
    return clear_cond(s, b, f, C_WEBBED, src, CAUSE_END_PHASE)


# ------------------------------------------------------------------ flags
@njit(cache=True)
def apply_starving(s, st, b, f, src):
    if s.fi[b, f, FI_STATE] != FS_ON:
        return False
    return set_cond(s, b, f, C_STARVING, src, CAUSE_RULE)


@njit(cache=True)
def clear_starving(s, st, b, f, src):
    return clear_cond(s, b, f, C_STARVING, src, CAUSE_FED)


@njit(cache=True)
def apply_intoxicated(s, st, b, f, src):
    """Intoxicated (4.3): a flag; its effects belong to the skill / terrain / wargear causing it."""
    if s.fi[b, f, FI_STATE] != FS_ON:
        return False
    return set_cond(s, b, f, C_INTOXICATED, src, CAUSE_RULE)


@njit(cache=True)
def clear_intoxicated(s, st, b, f, src):
    return clear_cond(s, b, f, C_INTOXICATED, src, CAUSE_RULE)


@njit(cache=True)
def apply_mounted(s, st, b, f, src):
    if s.fi[b, f, FI_STATE] != FS_ON:
        return False
    return set_cond(s, b, f, C_MOUNTED, src, CAUSE_RULE)


@njit(cache=True)
def clear_mounted(s, st, b, f, src):
    return clear_cond(s, b, f, C_MOUNTED, src, CAUSE_RULE)


@njit(cache=True, inline="always")
def quick_retreat(s, b, f):
    """Mounted, Quick Retreat: +2 to the Initiative test of a Retreat (4.3)."""
    return 2 if (s.fi[b, f, FI_COND] & C_MOUNTED) else 0


@njit(cache=True, inline="always")
def hands_full(s, b, f):
    """Mounted, Hands Full: never more than one weapon in close combat, no Paired bonus (4.3)."""
    return (s.fi[b, f, FI_COND] & C_MOUNTED) != 0


@njit(cache=True, inline="always")
def strength_penalty(s, b, f):
    """Starving: -1 Strength for Strength tests, unarmed attacks and melee weapons (4.3)."""
    return 1 if (s.fi[b, f, FI_COND] & C_STARVING) else 0


# ------------------------------------------------------------------ End phase
@njit(cache=True)
def end_of_round(s, st, b):
    """End of the round (after the End phase steps): Concussion lasts "until the end of the round"."""
    for f in range(s.fi.shape[1]):
        if s.fi[b, f, FI_COND] & C_CONCUSSION:
            clear_concussion(s, st, b, f, -1)


@njit(cache=True)
def announce_start_conditions(s, b):
    """At the start of a battle: E_CONDITION (gained, CAUSE_START) for every condition a fighter on
    the battlefield already has (gang file ``start_conditions``, scenario placements), in slot
    and bit order, so that the event log and the soak's counters show them."""
    for f in range(s.fi.shape[1]):
        if s.fi[b, f, FI_STATE] != FS_ON:
            continue
        for c in (C_BLAZE, C_BLIND, C_CONCUSSION, C_HIDDEN, C_INSANE, C_WEBBED, C_GUNKED, C_STARVING,
                  C_INTOXICATED, C_MOUNTED):
            if s.fi[b, f, FI_COND] & c:
                emit(s, b, E_CONDITION, f, -1, c, 1, CAUSE_START, 0, 0)
