"""The scripted heuristics' choices as an observation: the ``advised`` encoder's ``advice`` key.

``advice(game, gang)`` is ``[len(ADVISOR_FEATURES)]`` int64: for each advisor (the compiled policies
of ``necro_env.policies.heuristics``, in ``ADVISOR_FEATURES`` order) the flat action index it would
play now, or ``n_actions`` ("no advice") when ``gang`` is not the gang that must decide or the game
is over. Its space is ``MultiDiscrete([n_actions + 1] * len(ADVISOR_FEATURES))``; Stable-Baselines3
feeds it to a policy one-hot encoded, so a network can add "what gunline would do here" to the
logits of exactly that action (``agents.networks.PointerPolicy`` does: a learned, state-dependent
weight per advisor).

The advice is a pure function of the game state: each call seeds a fresh player generator with the
same constant for the heuristics' tie-breaks, so the same state always gives the same advice, and
the game's dice are never touched.
"""
from __future__ import annotations

import functools

import numpy as np

from ..core.rng import seed_game

# the advisors, in the order of the ``advice`` entries (agents.checkpoint fingerprints these names)
ADVISOR_FEATURES = ("gunline", "aggressor", "sentry")
ADVICE_SEED = 0x5EED_AD71CE  # the tie-break generator's seed (any constant: the advice must not depend on history)


@functools.cache
def _kernels():
    from ..policies.heuristics import KERNELS

    return [KERNELS[name] for name in ADVISOR_FEATURES]


def no_advice(game) -> np.ndarray:
    """The ``advice`` of an observer that is not deciding."""
    return np.full(len(ADVISOR_FEATURES), game.n_actions, np.int64)


def advice(game, gang: int) -> np.ndarray:
    """``[len(ADVISOR_FEATURES)]`` int64: each advisor's action for ``gang`` now (module docstring)."""
    if game.done or int(game.current_gang) != int(gang):
        return no_advice(game)
    out = np.empty(len(ADVISOR_FEATURES), np.int64)
    prng = np.zeros((1, 2), np.uint64)
    for i, kernel in enumerate(_kernels()):
        seed_game(prng, 0, np.uint64(ADVICE_SEED))
        out[i] = kernel(game.state, game.static, 0, game.layout, game.mask, prng)  # game b = 0 of the [1, A] mask
    return out
