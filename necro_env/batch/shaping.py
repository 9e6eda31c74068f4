"""The reward options of ``necro_env.envs.rewards.RewardSpec`` as a numba kernel.

``potential(s, st, b, gang, rw)`` is ``RewardSpec.casualty_value(game, gang)`` for game ``b``
of a batch, so the batched vector env (``necro_env.envs.vector_env``) pays the same shaped
rewards as the Gymnasium view (``NecromundaGymEnv``): the change of the potential between
two learner decisions, plus ``terminal_reward`` when the game ends. ``rw`` is
``reward_array(spec)``: the spec's fields in ``RW_*`` order. tests/batch/test_shaping.py
pins the kernel to the Python definition on many random states.
"""
from __future__ import annotations

import numpy as np

from .._numba_cache import leaf_njit
from ..policies.heuristics import path_field
from ..rulesets.necromunda.state import FI_FLESH, FI_POSTURE, FI_STATE, FI_X, FI_Y, FS_FLED, FS_ON, FS_OOA, G_MF, \
    PO_SI

RW_WIN, RW_LOSS, RW_DRAW, RW_OOA, RW_SI, RW_FW, RW_OWN, RW_APPROACH = range(8)
RW_FIELDS = ("win", "loss", "draw", "out_of_action", "seriously_injured", "flesh_wound", "own_losses", "approach")
# a compile-time constant of the kernel, so it lives in this (leaf-cached) module: the numba cache
# key covers batch/ and policies/ only, and an edit of envs/rewards.APPROACH_CAP would leave a
# stale kernel; reward_array checks that the two agree
APPROACH_CAP = 30


def reward_array(spec) -> np.ndarray:
    """A ``RewardSpec`` (or anything ``RewardSpec.from_config`` takes; None: +1 / -1 / 0 and no
    shaping) as the kernel's float64[8]."""
    from ..envs.rewards import APPROACH_CAP as cap
    from ..envs.rewards import RewardSpec

    assert cap == APPROACH_CAP
    spec = RewardSpec.from_config(spec)
    return np.array([getattr(spec, f) for f in RW_FIELDS], np.float64)


@leaf_njit
def potential(s, st, b, gang, rw):
    """Enemy casualties minus ``own_losses`` x own casualties (each weighted by the casualty
    terms), minus ``approach`` x the mean path distance of ``gang``'s fighters on the board to
    the nearest enemy (0 when none is on the board). 0 when no shaping term is set."""
    if rw[RW_OOA] == 0.0 and rw[RW_SI] == 0.0 and rw[RW_FW] == 0.0 and rw[RW_APPROACH] == 0.0:
        return 0.0
    mf = s.g[b, G_MF]
    enemy = 0.0
    own = 0.0
    for f in range(s.fi.shape[1]):
        st_f = s.fi[b, f, FI_STATE]
        out = st_f == FS_OOA or st_f == FS_FLED
        si = s.fi[b, f, FI_POSTURE] == PO_SI and not out
        per = rw[RW_OOA] * (1.0 if out else 0.0) + rw[RW_SI] * (1.0 if si else 0.0) \
            + rw[RW_FW] * np.float64(s.fi[b, f, FI_FLESH])
        if f // mf == gang:
            own += per
        else:
            enemy += per
    v = enemy - rw[RW_OWN] * own
    if rw[RW_APPROACH] != 0.0:
        n = 0
        total = 0
        field = np.empty(0, np.int32)
        w = st.terrain.shape[1]
        for f in range(gang * mf, (gang + 1) * mf):
            if s.fi[b, f, FI_STATE] != FS_ON:
                continue
            if n == 0:
                field = path_field(s, st, b, gang)
            n += 1
            total += min(np.int64(field[np.int64(s.fi[b, f, FI_Y]) * w + s.fi[b, f, FI_X]]), APPROACH_CAP)
        if n > 0:
            v -= rw[RW_APPROACH] * (total / n)
    return v


@leaf_njit
def terminal_reward(winner, gang, rw):
    """``RewardSpec.terminal`` of a finished game: win, loss, or draw (no winner: the round limit)."""
    if winner < 0:
        return rw[RW_DRAW]
    return rw[RW_WIN] if winner == gang else rw[RW_LOSS]
