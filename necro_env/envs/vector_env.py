"""A Stable-Baselines3 ``VecEnv`` over the batched core: ``necro_env.envs.batched_env.BatchedEnv``
(its docstring: opponents inside the batch, observations, rewards, infos, seeds) with SB3's
vector-env interface, so MaskablePPO and SB3's wrappers (``VecMonitor``, ...) drive it.

``NecromundaVecEnv(num_envs, opponent="random", ...)`` takes ``BatchedEnv``'s arguments;
``action_masks()`` serves sb3-contrib's MaskablePPO. Code that drives the games itself
(training/ppo_fast.py) uses ``BatchedEnv`` and does not import SB3 at all.
"""
from __future__ import annotations

from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from .batched_env import BatchedEnv, opponent_mix  # noqa: F401  (opponent_mix: re-exported)


class NecromundaVecEnv(BatchedEnv, VecEnv):
    """SB3 VecEnv of ``num_envs`` batched Necromunda games (``BatchedEnv``'s arguments)."""

    def __init__(self, num_envs: int = 64, opponent="random", seed: int = 0, game=None, reward=None,
                 learner="random", **game_kwargs):
        BatchedEnv.__init__(self, num_envs, opponent, seed, game, reward, learner, **game_kwargs)
        VecEnv.__init__(self, num_envs, self.observation_space, self.action_space)
        self._actions = None

    def reset(self):
        obs = BatchedEnv.reset(self)  # takes the seeds of the last seed(), as SB3 expects
        self._reset_options()
        return obs

    def step_async(self, actions):
        self._actions = actions

    def step_wait(self):
        return BatchedEnv.step(self, self._actions)

    def step(self, actions):  # SB3's step_async + step_wait (BatchedEnv.step comes first in the MRO)
        return VecEnv.step(self, actions)

    def get_attr(self, attr_name, indices=None):
        val = getattr(self, attr_name)
        return [val for _ in self._get_indices(indices)]

    def set_attr(self, attr_name, value, indices=None):
        setattr(self, attr_name, value)

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        idx = list(self._get_indices(indices))
        if method_name == "action_masks":
            m = self.action_masks()
            return [m[i] for i in idx]
        out = getattr(self, method_name)(*method_args, **method_kwargs)
        return [out for _ in idx]

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False for _ in self._get_indices(indices)]
