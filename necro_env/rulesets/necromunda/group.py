"""Group Activation (rules 2.4): a fighter with Group Activation (X) names up to X Ready
friends within 3" when it is activated; once it has finished, its gang activates the named
members one at a time, in the order the player picks, before the turn passes on.

State: ``G_GNAME`` while the leader names members (decision DK_GROUP), ``G_GLEFT`` the
members it may still name, ``G_GGANG`` / ``G_GROUP`` the gang and slot bits of the named
members that have not activated yet (the turn does not pass while any is pending).
"""
from ...core.jit import njit

from .codec import A_END, A_GROUP
from .events import E_GROUP, emit
from .query import gang_of, within_f
from .state import (
    FI_BROKEN, FI_GA, FI_READY, FI_STATE, FS_ON, G_ACTIVE, G_GGANG, G_GLEFT, G_GNAME, G_GROUP, G_MF, GG_OUT,
)
from .variant import capable, house_legacy


@njit(cache=True)
def can_lead(s, b, f):
    """f, just activated, may start a group activation: it has Group Activation (X), is not
    itself a member of a group, and is not Broken (a Broken fighter's activation is only its
    Running for Cover, 10.2). House Legacy: the leader must be capable (4.5)."""
    if s.fi[b, f, FI_GA] <= 0 or s.g[b, G_GGANG] >= 0 or s.fi[b, f, FI_BROKEN]:
        return False
    if house_legacy(s, b) and not capable(s, b, f):
        return False
    return True


@njit(cache=True)
def can_join(s, b, leader, o):
    """o may be named a member of leader's group: a Ready friend on the battlefield within 3",
    not yet named. House Legacy: the member must be capable (4.5)."""
    if o == leader or s.fi[b, o, FI_STATE] != FS_ON or not s.fi[b, o, FI_READY]:
        return False
    if gang_of(s, b, o) != gang_of(s, b, leader):
        return False
    if s.g[b, G_GGANG] >= 0 and (s.g[b, G_GROUP] >> (o % s.g[b, G_MF])) & 1:
        return False
    if house_legacy(s, b) and not capable(s, b, o):
        return False
    return within_f(s, b, leader, o, 3.0)


@njit(cache=True)
def begin_naming(s, b, f):
    if can_lead(s, b, f):
        s.g[b, G_GNAME] = 1
        s.g[b, G_GLEFT] = s.fi[b, f, FI_GA]


@njit(cache=True)
def group_mask(s, b, lay, mb):
    """DK_GROUP: ``end`` (stop naming) or ``group`` with a slot that can join."""
    f = s.g[b, G_ACTIVE]
    mb[lay[A_END]] = True
    if s.g[b, G_GLEFT] <= 0:
        return
    mf = s.g[b, G_MF]
    g = gang_of(s, b, f)
    for i in range(mf):
        if can_join(s, b, f, g * mf + i):
            mb[lay[A_GROUP] + i] = True


@njit(cache=True)
def name_member(s, b, slot):
    f = s.g[b, G_ACTIVE]
    g = gang_of(s, b, f)
    s.g[b, G_GGANG] = g
    s.g[b, G_GROUP] |= 1 << slot
    s.g[b, G_GLEFT] -= 1
    emit(s, b, E_GROUP, f, g * s.g[b, G_MF] + slot, s.g[b, G_GLEFT], 0, 0, 0, 0)
    if s.g[b, G_GLEFT] <= 0:
        s.g[b, G_GNAME] = 0


@njit(cache=True)
def group_pending(s, b):
    """Slot bits of named members that can still activate (on the battlefield and Ready)."""
    g = s.g[b, G_GGANG]
    if g < 0 or s.gang[b, g, GG_OUT]:
        return 0
    mf = s.g[b, G_MF]
    bits = 0
    for i in range(mf):
        f = g * mf + i
        if (s.g[b, G_GROUP] >> i) & 1 and s.fi[b, f, FI_STATE] == FS_ON and s.fi[b, f, FI_READY]:
            bits |= 1 << i
    return bits


@njit(cache=True)
def clear_group(s, b):
    s.g[b, G_GGANG] = -1
    s.g[b, G_GROUP] = 0
    s.g[b, G_GNAME] = 0
    s.g[b, G_GLEFT] = 0
