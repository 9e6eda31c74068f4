"""A Stable-Baselines3 ``VecEnv`` over the batched core (``necro_env.batch``).

``NecromundaVecEnv(num_envs, opponent="random", ...)``: ``num_envs`` games in one set of
arrays. In each game the learner plays one gang, drawn at random at every episode start
(from the slot's player PRNG); every other gang is played inside the batch by

- a compiled policy: ``"random"`` (necro_env/policies/random_policy.py), ``"gunline"`` or
  ``"aggressor"`` (necro_env/policies/heuristics.py), run in the same compiled call as the
  learner's step; or
- a neural opponent: ``opponent=callable`` taking ``(obs, action_mask)`` for the k games
  waiting on it (obs a dict of ``[k, ...]`` arrays seen from the deciding gang, mask
  ``[k, n_actions]`` bool) and returning k legal action indices; it is called once per
  round of waiting games (one batched torch call), until every game waits on the learner.

Observations are the ``entity`` encoding (``Dict(fighters, board, globals)``, computed by the
compiled twin of ``EntityEncoder``), always from the learner's side. ``action_masks()``
serves sb3-contrib's MaskablePPO. Rewards: +1 win, -1 loss, 0 draw or round limit, given on
the learner's step during which the game ended; ``infos[i]`` then holds
``terminal_observation``, ``TimeLimit.truncated`` and ``episode`` (``r``, ``l``) as SB3 expects,
and the slot has already been reset (auto-reset). Episode seeds: see ``necro_env.batch``.
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from ..batch import BatchedGames, policy_id
from ..batch import kernels as K
from ..batch.encode import alloc_entity
from ..rulesets.necromunda.game import IllegalActionError
from ..rulesets.necromunda.state import G_DGANG
from .encoders import EntityEncoder
from .necromunda_env import build_game


class NecromundaVecEnv(VecEnv):
    """SB3 VecEnv of ``num_envs`` batched Necromunda games (module docstring).

    num_envs: batch size. opponent: "random", "gunline", "aggressor" or a callable
    (neural opponent). seed: slot b's first game seed is ``seed + b``. Other keyword
    arguments go to ``build_game`` (scenario, board, gangs, num_gangs, round_limit, ...);
    ``game=`` passes a ready ``Game`` instead.
    """

    def __init__(self, num_envs: int = 64, opponent="random", seed: int = 0, game=None, **game_kwargs):
        self.game = game if game is not None else build_game(**game_kwargs)
        self.core = BatchedGames(self.game, num_envs, seed)
        self.n_actions = self.game.n_actions
        self.n_gangs = self.game.dims.n_gangs
        obs_space = EntityEncoder().space(self.game)
        self.render_mode = None
        super().__init__(num_envs, obs_space, spaces.Discrete(self.n_actions))
        if callable(opponent):
            self.opponent_fn, self.opponent = opponent, K.POLICY_EXTERNAL
        else:
            self.opponent_fn, self.opponent = None, policy_id(opponent)
            if self.opponent == K.POLICY_EXTERNAL:
                raise ValueError("opponent='external' needs a callable opponent")
        self.et = self.core.entity_tables
        n = num_envs
        self.obs = alloc_entity(self.game, n)
        self.term = alloc_entity(self.game, n)
        self.side = np.zeros(n, np.int64)
        self.ep = np.zeros((n, 5), np.float64)
        self.waiting = np.zeros(n, np.bool_)
        self._actions = None
        self._needs_reset = True

    # ------------------------------------------------------------------ helpers
    def _run(self, op, **arrays):
        tf, tb, tg = self.term
        self.core.run(op, pid=self.opponent, side=self.side, ep=self.ep, tf=tf, tb=tb, tg=tg,
                      waiting=self.waiting, **arrays)

    def _resolve_external(self):
        c = self.core
        while self.waiting.any():
            idx = np.flatnonzero(self.waiting).astype(np.int64)
            gangs = c.state.g[idx, G_DGANG].astype(np.int64)
            f, bd, gl = alloc_entity(self.game, len(idx))
            K.encode_batch(c.state, self.et, gangs, idx, f, bd, gl)
            acts = np.asarray(self.opponent_fn({"fighters": f, "board": bd, "globals": gl}, c.mask[idx]),
                              np.int64).reshape(-1)
            if acts.shape != idx.shape or not c.mask[idx, acts].all():
                raise IllegalActionError(acts, "the neural opponent returned an illegal or misshaped action")
            self._run(K.OP_ENV_EXTERNAL, idx=idx, actions=acts)

    def _observe(self):
        c = self.core
        K.encode_all(c.state, self.et, self.side, *self.obs)
        f, bd, gl = self.obs
        return {"fighters": f.copy(), "board": bd.copy(), "globals": gl.copy()}

    # ------------------------------------------------------------------ VecEnv API
    def reset(self):
        if self._seeds[0] is not None:
            self.core.seed(self._seeds[0])
        self._reset_seeds()
        self._reset_options()
        self._run(K.OP_ENV_RESET)
        self._resolve_external()
        self._needs_reset = False
        self.reset_infos = [{"learner_gang": int(g)} for g in self.side]
        return self._observe()

    def step_async(self, actions):
        self._actions = np.ascontiguousarray(np.asarray(actions).reshape(-1), np.int64)

    def step_wait(self):
        if self._needs_reset:
            raise RuntimeError("call reset() before step()")
        a = self._actions
        c = self.core
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {a.shape}")
        ok = (a >= 0) & (a < self.n_actions)
        ok[ok] = c.mask[np.flatnonzero(ok), a[ok]]
        if not ok.all():
            b = int(np.flatnonzero(~ok)[0])
            raise IllegalActionError(int(a[b]), f"masked in game {b} of the vector env")
        self._run(K.OP_ENV_STEP, actions=a)
        self._resolve_external()
        obs = self._observe()
        rewards = self.ep[:, 0].astype(np.float32)
        dones = self.ep[:, 1] != 0
        infos = [{} for _ in range(self.num_envs)]
        for b in np.flatnonzero(dones):
            tf, tb, tg = self.term
            infos[b] = {
                "terminal_observation": {"fighters": tf[b].copy(), "board": tb[b].copy(), "globals": tg[b].copy()},
                "TimeLimit.truncated": bool(self.ep[b, 2]),
                "episode": {"r": float(self.ep[b, 0]), "l": int(self.ep[b, 4])},
            }
        return obs, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """[num_envs, n_actions] bool: the learner's legal actions (MaskablePPO)."""
        return self.core.mask.copy()

    def close(self):
        pass

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
