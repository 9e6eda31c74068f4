"""The batched env as ppo_fast and its extras build it: ``make_env`` (a ``BatchedEnv``, told its
self-play pool) and, with ``--tactical-features`` / ``--tactical-planes``, ``TacticalEnv``, which
appends to each observation who can target whom (``necro_env.batch.tactical``)."""
from __future__ import annotations

import torch

from agents.fast_network import observation_space
from necro_env.envs.batched_env import BatchedEnv
from training.ppo_extras.snapshot_pool import SnapshotPool


class TacticalEnv:
    """A ``BatchedEnv`` whose observations also carry, seen from the learner's side, ``tactical``
    ([B, NF, N_TACTICAL] rows of ``necro_env.batch.tactical``) for ``--tactical-features`` and
    ``tactical_planes`` ([B, N_PLANES, H, W]) for ``--tactical-planes``."""

    def __init__(self, env, rows=True, planes=False):
        self.env, self.rows, self.planes = env, rows, planes
        self.observation_space = observation_space(env.game, rows, planes)

    def __getattr__(self, name):
        return getattr(self.env, name)

    def _add(self, obs):
        from necro_env.batch.tactical import tactical_features, tactical_planes

        obs = dict(obs)
        if self.rows:
            obs["tactical"] = tactical_features(self.env.core, self.env.side)
        if self.planes:
            obs["tactical_planes"] = tactical_planes(self.env.core, self.env.side, self.env.action_masks())
        return obs

    def reset(self, seed=None):
        return self._add(self.env.reset(seed))

    def step(self, actions):
        obs, rewards, dones, infos = self.env.step(actions)
        return self._add(obs), rewards, dones, infos


def make_env(num_envs, tactical=False, planes=False, **kwargs):
    """``BatchedEnv(num_envs, **kwargs)``, with the tactical rows and / or planes if asked; a
    ``SnapshotPool`` opponent gets the env's core (its snapshots' tactical inputs are computed there)."""
    env = BatchedEnv(num_envs, **kwargs)
    if isinstance(kwargs.get("opponent"), SnapshotPool):
        kwargs["opponent"].core = env.core
    return TacticalEnv(env, tactical, planes) if tactical or planes else env


def to_torch(obs):
    return {k: torch.from_numpy(v) for k, v in obs.items()}
