"""The masked uniform-random agent."""
from __future__ import annotations

import numpy as np

from .base import Agent


class RandomAgent(Agent):
    """Uniform over the legal actions, from its own seeded numpy generator."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, obs, mask, game=None) -> int:
        legal = np.flatnonzero(mask)
        if len(legal) == 0:
            raise ValueError("random: no legal action (is the game over?)")
        return int(legal[self.rng.integers(len(legal))])
