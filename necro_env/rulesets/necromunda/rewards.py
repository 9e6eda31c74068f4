"""Necromunda's reward-shaping potential: the casualty and approach terms of ``RewardSpec``.

``RewardSpec`` (necro_env/envs/rewards.py) is the reward options of a training config and is generic;
what its casualty terms count (Out of Action, Seriously Injured, flesh wounds) and how the approach term
measures the distance to the enemy read Necromunda's fighter table, so they live here since 2026-12-02
(issue 56 item 1: a generic layer reaches a game only through the registry) and reach ``RewardSpec``
through the ruleset's ``reward_potential`` field. The compiled twin is necro_env/batch/shaping.py.
"""
from __future__ import annotations

import numpy as np

from .state import FI_FLESH, FI_POSTURE, FI_STATE, FI_X, FI_Y, FS_FLED, FS_OOA, FS_ON, PO_SI


def casualty_value(game, learner: int, spec) -> float:
    """Enemy casualties minus ``spec.own_losses`` x own casualties, weighted by the spec's casualty terms,
    minus ``spec.approach`` x the mean path distance to the nearest enemy."""
    fi = game.state.fi[0]
    mf = game.dims.max_fighters
    gang = np.arange(fi.shape[0]) // mf
    st = fi[:, FI_STATE]
    out = (st == FS_OOA) | (st == FS_FLED)
    si = (fi[:, FI_POSTURE] == PO_SI) & ~out
    fw = fi[:, FI_FLESH].astype(np.float64)
    per = spec.out_of_action * out + spec.seriously_injured * si + spec.flesh_wound * fw
    own = gang == learner
    v = float(per[~own].sum() - spec.own_losses * per[own].sum())
    if spec.approach:
        v -= spec.approach * mean_enemy_distance(game, learner)
    return v


def mean_enemy_distance(game, gang: int) -> float:
    """Mean over gang's fighters on the board of the path distance (steps) to the nearest enemy, each capped
    at the approach term's cap (APPROACH_CAP of envs/rewards.py, which the compiled kernel checks against)."""
    from ...envs.rewards import APPROACH_CAP
    from ...policies.heuristics import path_field

    fi = game.state.fi[0]
    mf = game.dims.max_fighters
    own = fi[gang * mf:(gang + 1) * mf]
    on = own[:, FI_STATE] == FS_ON
    if not on.any():
        return 0.0
    field = path_field(game.state, game.static, 0, gang)
    w = game.dims.width
    d = np.minimum(field[own[on, FI_Y].astype(np.int64) * w + own[on, FI_X]], APPROACH_CAP)
    return float(d.mean())
