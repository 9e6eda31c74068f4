"""Demolitions (rules 12; doors 5.2 / 6.8): a grenade with the trait used in close combat against
a locked door. The door is hit automatically; doors have Toughness 5 and 4 Wounds and are removed
at 0 Wounds (6.8 [N23]), so the hit rolls to wound against T5 and takes the grenade's Damage off
the door's Wounds (doors have no save). A removed door counts as open (DOOR_DESTROYED). The
grenade then takes its automatic Ammo test (12 Grenade). docs/rules.md, 12 Demolitions."""
from ...core.jit import njit

from ...core.terrain import DOOR_DESTROYED
from .constants import PF_D, PF_TRAITS, T_DEMOLITIONS, T_GRENADE
from .damage import wound_target
from .dice import d6
from .events import E_DEMOLISH, emit
from .state import DR_STATE, DR_WOUNDS, WP_ID, WP_OOA
from .weapons import grenade_ammo, profile_usable, strength

DOOR_TOUGHNESS = 5  # 6.8 [N23]


@njit(cache=True)
def demolitions_item(s, st, b, f):
    """The grenade f would use against a door: the first item with a usable Demolitions Grenade
    profile that is not Out of Ammo, as (item, profile); (-1, 0) if none."""
    for item in range(s.wp.shape[2]):
        wid = s.wp[b, f, item, WP_ID]
        if wid < 0 or s.wp[b, f, item, WP_OOA]:
            continue
        for p in range(st.wprof.shape[1]):
            if profile_usable(s, st, b, f, item, p):
                tr = st.wprof[wid, p, PF_TRAITS]
                if (tr & T_DEMOLITIONS) and (tr & T_GRENADE):
                    return item, p
    return -1, 0


@njit(cache=True)
def demolish(s, st, b, f, d):
    """One automatic hit on locked door d with f's Demolitions grenade, then its Ammo test."""
    item, p = demolitions_item(s, st, b, f)
    if item < 0:
        return
    wid = s.wp[b, f, item, WP_ID]
    need = wound_target(strength(s, st, b, f, wid, p), DOOR_TOUGHNESS)
    r = d6(s, b)
    if r >= need:
        s.door[b, d, DR_WOUNDS] = max(0, s.door[b, d, DR_WOUNDS] - max(1, st.wprof[wid, p, PF_D]))
        if s.door[b, d, DR_WOUNDS] == 0:
            s.door[b, d, DR_STATE] = DOOR_DESTROYED
    emit(s, b, E_DEMOLISH, f, -1, d, r, need, s.door[b, d, DR_WOUNDS], s.door[b, d, DR_STATE])
    grenade_ammo(s, st, b, f, item, p)
