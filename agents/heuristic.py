"""The scripted GUNLINE and AGGRESSOR agents: compiled kernels in necro_env/policies/heuristics.py."""
from __future__ import annotations

from necro_env.policies.heuristics import aggressor_action, gunline_action

from .base import KernelAgent


class GunlineAgent(KernelAgent):
    """Aims and shoots the best expected-damage target; advances to firing positions; takes cover when exposed."""

    name = "gunline"
    kernel = staticmethod(gunline_action)


class AggressorAgent(KernelAgent):
    """Closes in, charges, fights and finishes Seriously Injured enemies with Coup de Grace."""

    name = "aggressor"
    kernel = staticmethod(aggressor_action)
