"""Hit rolls and the delivery of hits, shared by shooting and melee (rules digest §5.2, §6 step 4, §10).

``hit_rolls`` is one Quality test per attack (§1: natural 6 hits, natural 1 misses; a fatigued unit
hits only on natural 6s in melee, §6 step 7); each natural 6 that hits scores ``extra`` more hits
(Surge, Furious, Relentless: each rule that applies adds one; only the original hit counts as a 6,
so only it gets Rending's AP(4)). ``deliver`` takes one weapon's hits to the unit attacked: Blast(X)
multiplies and spreads them (§10, §13 Q13), Defense rolls (AP, cover, Bane's re-roll), then wounds
(Deadly(X) packets, Regeneration unless Bane, Rending or Unstoppable).
"""
import numpy as np

from ...core.jit import njit
from .combat_events import E_BLAST, E_WOUNDS
from .constants import R_BANE, R_RENDING, R_UNSTOPPABLE, US_ON
from .dice import d6, passes
from .events import emit
from .grid import within
from .state import G_MU, M_ALIVE, M_X, M_Y, U_N, U_SIDE, U_STATE
from .wounds import defense_rolls, regenerate, wound_packet, wounds_to

BLAST_REACH_IN = 3  # §10 Blast: models and units within 3" of the target unit
RENDING_AP = 4  # §10 Rending: natural 6s to hit get AP(4)


@njit(cache=True)
def hit_rolls(s, b, n, quality, modifier, six_only, extra):
    """n Quality tests; returns (hits including extra hits, natural 6s that hit)."""
    hits = 0
    sixes = 0
    for _ in range(n):
        face = d6(s, b)
        if face == 6:
            sixes += 1
            hits += 1 + extra
        elif not six_only and passes(face, quality, modifier):
            hits += 1
    return hits, sixes


@njit(cache=True)
def _models_near(s, b, v, t, inches):
    """Models of unit v within ``inches`` of any model of unit t."""
    n = 0
    mm = s.m.shape[2]
    for j in range(mm):
        if s.m[b, v, j, M_ALIVE] == 0:
            continue
        for i in range(mm):
            if s.m[b, t, i, M_ALIVE] and within(np.int64(s.m[b, v, j, M_X]), np.int64(s.m[b, v, j, M_Y]),
                                                np.int64(s.m[b, t, i, M_X]), np.int64(s.m[b, t, i, M_Y]), inches):
                n += 1
                break
    return n


@njit(cache=True)
def blast_units(s, b, t, units):
    """The units Blast spreads its hits over (§10): the target first, then every unit of its side with a
    model within 3" of it, in slot order. Fills ``units``; returns (how many, N = their models in reach)."""
    units[0] = t
    k = 1
    n_models = np.int64(s.u[b, t, U_N])
    for v in range(2 * s.g[b, G_MU]):
        if v == t or s.u[b, v, U_STATE] != US_ON or s.u[b, v, U_SIDE] != s.u[b, t, U_SIDE]:
            continue
        near = _models_near(s, b, v, t, BLAST_REACH_IN)
        if near > 0:
            units[k] = v
            k += 1
            n_models += near
    return k, n_models


@njit(cache=True)
def _share(total, k, i):
    """Unit i's share when ``total`` hits go round the k units in turn, the target first (§13 Q13:
    as evenly as possible; the remainder to the target, then the others in slot order)."""
    return total // k + (1 if i < total % k else 0)


@njit(cache=True)
def deliver(s, b, att, slot, t, hits, sixes, ap, wrules, deadly, blast, cover, touched):
    """One weapon's ``hits`` (``sixes`` of them natural 6s) on unit t: Blast, Defense, wounds (module
    docstring). ``cover``: +1 to t's Defense rolls (shooting in cover, §9), ignored by Blast."""
    if hits <= 0 or s.u[b, t, U_STATE] != US_ON:
        return
    if blast > 0:
        _deliver_blast(s, b, att, slot, t, hits, sixes, ap, wrules, deadly, blast, touched)
        return
    hits_on(s, b, att, slot, t, hits - sixes, sixes, ap, wrules, deadly, cover, touched)


@njit(cache=True)
def _deliver_blast(s, b, att, slot, t, hits, sixes, ap, wrules, deadly, blast, touched):
    """§10 Blast(X): each hit x min(X, N), spread round the units within 3" of t; no cover."""
    units = np.zeros(2 * s.g[b, G_MU], np.int64)
    k, n_models = blast_units(s, b, t, units)
    mult = min(blast, n_models)
    emit(s, b, E_BLAST, att, t, slot, mult, hits * mult, k, 0)
    for i in range(k):
        h6 = _share(sixes * mult, k, i)
        hits_on(s, b, att, slot, units[i], _share(hits * mult, k, i) - h6, h6, ap, wrules, deadly, 0, touched)


@njit(cache=True)
def hits_on(s, b, att, slot, v, hn, h6, ap, wrules, deadly, cover, touched):
    """Defense rolls of unit v against hn ordinary hits and h6 natural-6 hits (Rending: AP(4)), then wounds."""
    ap6 = max(ap, RENDING_AP) if wrules & R_RENDING else ap
    bane = (wrules & R_BANE) != 0
    through = defense_rolls(s, b, v, hn, ap, cover, att, slot, bane)
    through += defense_rolls(s, b, v, h6, ap6, cover, att, slot, bane)
    wounds_from(s, b, att, v, through, deadly, wrules, touched)


@njit(cache=True)
def wounds_from(s, b, att, v, through, deadly, wrules, touched):
    """Hits that got through: one wound each, or a Deadly(X) packet of X wounds on one model (§10),
    after Regeneration per wound (§13 Q30)."""
    ignored = (wrules & (R_BANE | R_RENDING | R_UNSTOPPABLE)) != 0
    if deadly <= 0:
        wounds_to(s, b, v, through, att, touched, ignored)
        return
    for _ in range(through):
        k = regenerate(s, b, v, deadly, ignored)
        emit(s, b, E_WOUNDS, att, v, k, deadly - k, 1, 0, 0)
        wound_packet(s, b, v, k, att, touched)
