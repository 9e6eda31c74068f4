"""The scripted GUNLINE, AGGRESSOR and SENTRY agents: compiled kernels in necro_env/policies/heuristics.py."""
from __future__ import annotations

from necro_env.policies.heuristics import aggressor_action, gunline_action, sentry_action

from .base import KernelAgent


class GunlineAgent(KernelAgent):
    """Aims and shoots the best expected-damage target; advances to firing positions; takes cover when exposed."""

    name = "gunline"
    kernel = staticmethod(gunline_action)


class AggressorAgent(KernelAgent):
    """Closes in, charges, fights and finishes Seriously Injured enemies with Coup de Grace."""

    name = "aggressor"
    kernel = staticmethod(aggressor_action)


class SentryAgent(KernelAgent):
    """Holds its ground out of the enemy's charge reach and sight and shoots whoever comes into its
    sights (the best target, pinning would-be chargers first); shoots and falls back when an enemy
    could charge it; advances under cover late or when the enemy keeps away, presses on when ahead
    and goes in to finish the enemy when twice as many or from round 9."""

    name = "sentry"
    kernel = staticmethod(sentry_action)
