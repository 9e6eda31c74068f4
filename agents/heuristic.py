"""The scripted GUNLINE, AGGRESSOR, SENTRY and AMBUSHER agents: compiled kernels in necro_env/policies/heuristics.py."""
from __future__ import annotations

from necro_env.policies.heuristics import KERNELS

from .base import KernelAgent


class GunlineAgent(KernelAgent):
    """Aims and shoots the best expected-damage target; advances to firing positions; takes cover when exposed."""

    name = "gunline"
    kernel = staticmethod(KERNELS[name])


class AggressorAgent(KernelAgent):
    """Closes in, charges, fights and finishes Seriously Injured enemies with Coup de Grace."""

    name = "aggressor"
    kernel = staticmethod(KERNELS[name])


class SentryAgent(KernelAgent):
    """Holds its ground out of the enemy's charge reach and sight and shoots whoever comes into its
    sights (the best target, pinning would-be chargers first); where an enemy could charge it, Aims
    and shoots if it has a shot, else falls back out of reach; advances under cover late or when the
    enemy keeps away, presses on when ahead and goes in to finish the enemy when twice as many or
    from round 9."""

    name = "sentry"
    kernel = staticmethod(KERNELS[name])


class AmbusherAgent(KernelAgent):
    """Lies in wait as the sentry until round 3 or until an enemy comes within 8 cells of one of its
    fighters, then attacks as the aggressor."""

    name = "ambusher"
    kernel = staticmethod(KERNELS[name])
