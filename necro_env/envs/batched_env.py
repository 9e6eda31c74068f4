"""Batched Necromunda games for training loops, with a plain numpy API and no RL framework.

``BatchedEnv(num_envs, opponent="random", ...)``: ``num_envs`` games in one set of arrays
(``necro_env.batch``). In each game the learner plays one gang, drawn at random at every
episode start (from the slot's player PRNG); every other gang is played inside the batch by

- a compiled policy, by a name of ``necro_env.config.agent_spec.POLICY_NAMES`` (``"random"``:
  necro_env/policies/random_policy.py; the scripted ones, e.g. ``"gunline"``:
  necro_env/policies/heuristics.py), run in the same compiled call as the learner's step; or
- a mix of compiled policies, ``opponent={"random": 0.2, "gunline": 0.4, "aggressor": 0.4}``:
  each game draws its opponent at every episode start (never mid-game) with probability
  weight / sum, from the slot's player PRNG; or
- a neural opponent: ``opponent=callable`` taking ``(obs, action_mask)`` for the k games
  waiting on it (obs a dict of ``[k, ...]`` arrays seen from the deciding gang, mask
  ``[k, n_actions]`` bool) and returning k legal action indices; it is called once per
  round of waiting games (one batched torch call), until every game waits on the learner.
  A callable that also has a ``start_episodes(games)`` method is a per-game opponent (a pool
  of networks, one drawn per game and episode): it is told the slots whose new episode begins
  (every slot at ``reset``, a finished game's slot before the opponent's first decision in
  the new one) and called as ``(obs, action_mask, games)``, games the k slot indices.

The API is the vector-env one without the framework: ``reset(seed=None) -> obs``,
``step(actions) -> (obs, rewards, dones, infos)``, ``action_masks()``. Observations are the
``entity`` encoding (``Dict(fighters, board, globals)``, computed by the compiled twin of
``EntityEncoder``), always from the learner's side. Each step's observation is in arrays of
its own: arrays the env returned earlier are written again only once nothing but the env refers
to them (the caller dropped them, and no view or tensor shares their memory), which saves the
page faults of fresh 35 KB-per-game arrays; arrays the caller still holds never change. The env
keeps up to ``BatchedEnv.POOL`` (4) observations' arrays for this, about 140 MB at 1,024 games. Rewards
follow ``reward`` (a ``RewardSpec`` or its dict, as ``NecromundaGymEnv(reward=...)``; default
+1 win, -1 loss, 0 draw or round limit): the change of the shaping potential between two
learner decisions (``necro_env.batch.shaping``), plus the terminal reward on the learner's step
during which the game ended; ``infos[i]`` then holds ``terminal_observation``,
``TimeLimit.truncated``, ``episode`` (``r`` the episode's return, ``l`` its learner steps) and,
with a mix, ``opponent``; the slot has already been reset (auto-reset). Episode seeds: see
``necro_env.batch``.

This module imports numpy, gymnasium's spaces and the compiled core only, so a training loop
that drives it directly (training/ppo_fast.py) starts without Stable-Baselines3.
``necro_env.envs.vector_env.NecromundaVecEnv`` is the same env as an SB3 ``VecEnv``.
"""
from __future__ import annotations

import sys

import numpy as np
from gymnasium import spaces

from ..batch import BatchedGames, policy_id
from ..batch import kernels as K
from ..batch.encode import alloc_entity
from ..batch.shaping import reward_array
from ..config.agent_spec import POLICY_NAMES, listed
from ..rulesets.necromunda.game import IllegalActionError
from ..rulesets.necromunda.state import G_DGANG
from .encoders import EntityEncoder
from .rewards import RewardSpec
from .necromunda_env import action_indices, build_game


def _refcounts(arrays):
    return [sys.getrefcount(a) for a in arrays]


# what _refcounts reports for arrays only a pool tuple holds (measured, not assumed: the
# interpreter's own references vary between Python versions)
_FREE = max(_refcounts((np.empty(1),)))


class BatchedEnv:
    """``num_envs`` batched Necromunda games with the learner's side encoded (module docstring).

    num_envs: batch size. opponent: a compiled policy's name (``agent_spec.POLICY_NAMES``), a mix
    ``{name: weight}`` of those, or a callable (neural opponent). seed: slot b's first game seed is
    ``seed + b``. reward: a ``RewardSpec`` or its dict (shaping as ``NecromundaGymEnv``). learner: the
    learner's gang index, or "random" (drawn per episode). Other keyword arguments go to
    ``build_game`` (scenario, board, gangs, num_gangs, round_limit, ...); ``game=`` passes a
    ready ``Game`` instead.
    """

    def __init__(self, num_envs: int = 64, opponent="random", seed: int = 0, game=None, reward=None,
                 learner="random", **game_kwargs):
        self.game = game if game is not None else build_game(**game_kwargs)
        self.core = BatchedGames(self.game, num_envs, seed)
        self.num_envs = num_envs
        self.n_actions = self.game.n_actions
        self.n_gangs = self.game.dims.n_gangs
        self.observation_space = EntityEncoder().space(self.game)
        self.action_space = spaces.Discrete(self.n_actions)
        self.render_mode = None
        self.reset_infos = [{} for _ in range(num_envs)]
        self._seeds = [None] * num_envs  # seeds for the next reset (``seed()``), as SB3's VecEnv keeps them
        self.opponent_fn, self.opponent, self.mix_names = None, K.POLICY_RANDOM, []
        self.per_game = False  # a callable opponent told of episode starts and called with the slots
        self.mix = np.zeros((0, 2), np.float64)
        if callable(opponent):
            self.opponent_fn, self.opponent = opponent, K.POLICY_EXTERNAL
            self.per_game = callable(getattr(opponent, "start_episodes", None))
        elif isinstance(opponent, dict):
            self.mix_names, self.mix = opponent_mix(opponent)
        else:
            self.opponent = policy_id(opponent)
            if self.opponent == K.POLICY_EXTERNAL:
                raise ValueError("opponent='external' needs a callable opponent")
        self.reward_spec = RewardSpec.from_config(reward)
        self.rw = reward_array(self.reward_spec)
        if learner == "random":
            self.learner = -1
        elif isinstance(learner, (int, np.integer)) and 0 <= int(learner) < self.n_gangs:
            self.learner = int(learner)
        else:
            raise ValueError(f"learner must be 'random' or a gang index 0..{self.n_gangs - 1}, got {learner!r}")
        self.et = self.core.entity_tables
        n = num_envs
        self.obs_shapes = [(n,) + a.shape[1:] for a in alloc_entity(self.game, 0)]
        self.term = alloc_entity(self.game, n)
        self._obs_pool = []  # observation arrays returned before, reused once only the pool holds them
        self.side = np.zeros(n, np.int64)
        self.oslot = np.zeros(n if len(self.mix_names) else 0, np.int64)
        self.ep = np.zeros((n, K.N_EP), np.float64)
        self.waiting = np.zeros(n, np.bool_)
        self._told = np.zeros(n, np.bool_)  # slots whose new episode a per-game opponent knows of this step
        self._needs_reset = True

    # ------------------------------------------------------------------ helpers
    def _run(self, op, **arrays):
        tf, tb, tg = self.term
        self.core.run(op, pid=self.opponent, side=self.side, ep=self.ep, tf=tf, tb=tb, tg=tg,
                      waiting=self.waiting, rw=self.rw, mix=self.mix, oslot=self.oslot, learner=self.learner,
                      **arrays)

    def _resolve_external(self):
        c = self.core
        while True:
            if self.per_game:  # games that ended (and were reset) since the opponent was last told
                new = (self.ep[:, K.EP_DONE] != 0) & ~self._told
                if new.any():
                    self.opponent_fn.start_episodes(np.flatnonzero(new))
                    self._told |= new
            if not self.waiting.any():
                return
            idx = np.flatnonzero(self.waiting).astype(np.int64)
            gangs = c.state.g[idx, G_DGANG].astype(np.int64)
            f, bd, gl = alloc_entity(self.game, len(idx))
            K.encode_batch(c.state, self.et, gangs, idx, f, bd, gl)
            obs = {"fighters": f, "board": bd, "globals": gl}
            acts = np.asarray(self.opponent_fn(obs, c.mask[idx], idx) if self.per_game else
                              self.opponent_fn(obs, c.mask[idx])).reshape(-1)
            # integers in range only (a float was cast, a negative index read the mask from the end)
            if (acts.dtype.kind not in "iu" or acts.shape != idx.shape or (acts < 0).any()
                    or (acts >= self.n_actions).any() or not c.mask[idx, acts].all()):
                raise IllegalActionError(acts, "the neural opponent returned an illegal or misshaped action "
                                               f"({len(idx)} integer indices, each legal in its game)")
            acts = acts.astype(np.int64)
            self._run(K.OP_ENV_EXTERNAL, idx=idx, actions=acts)

    POOL = 4  # observation triples kept for reuse

    def _obs_arrays(self):
        """Arrays for the next observation: a triple returned before that nobody else refers to
        any more (module docstring), else new ones (np.empty: the kernel sets every value)."""
        for trip in self._obs_pool:
            if max(_refcounts(trip)) <= _FREE:
                return trip
        trip = tuple(np.empty(shape, np.float32) for shape in self.obs_shapes)
        if len(self._obs_pool) < self.POOL:
            self._obs_pool.append(trip)
        return trip

    def _observe(self):
        f, bd, gl = self._obs_arrays()
        K.encode_all(self.core.state, self.et, self.side, f, bd, gl)
        return {"fighters": f, "board": bd, "globals": gl}

    # ------------------------------------------------------------------ API
    def seed(self, seed: int | None = None) -> list:
        """Seeds for the next ``reset()``: slot b's game seed becomes ``seed + b`` (None: drawn
        from numpy's global generator, as SB3's ``VecEnv.seed``)."""
        if seed is None:
            seed = int(np.random.randint(0, np.iinfo(np.uint32).max, dtype=np.uint32))
        self._seeds = [seed + b for b in range(self.num_envs)]
        return self._seeds

    def reset(self, seed: int | None = None):
        """Start a new episode in every game; returns the learner's observations. ``seed``
        (or the last ``seed()``) reseeds slot b with ``seed + b``."""
        if seed is not None:
            self.seed(seed)
        if self._seeds[0] is not None:
            self.core.seed(self._seeds[0])
        self._seeds = [None] * self.num_envs
        self._run(K.OP_ENV_RESET)
        if self.per_game:
            self.opponent_fn.start_episodes(np.arange(self.num_envs))
        self._told[:] = False
        self._resolve_external()
        self._needs_reset = False
        self.reset_infos = [{"learner_gang": int(g)} for g in self.side]
        if self.mix_names:
            for info, o in zip(self.reset_infos, self.oslot):
                info["opponent"] = self.mix_names[o]
        return self._observe()

    def opponents(self) -> list[str]:
        """The name of each game's current opponent (a mix's draw, or the one opponent)."""
        if self.mix_names:
            return [self.mix_names[o] for o in self.oslot]
        name = "external" if self.opponent_fn is not None else \
            next(k for k, v in K.POLICY_NAMES.items() if v == self.opponent)
        return [name] * self.num_envs

    def step(self, actions):
        """Play the learner's ``actions`` ([num_envs] ints, each legal in its game) and every
        opponent decision up to the learner's next one; returns (obs, rewards, dones, infos)."""
        if self._needs_reset:
            raise RuntimeError("call reset() before step()")
        a = action_indices(actions, self.num_envs)  # integers only: 3.7 or True is refused, not cast
        c = self.core
        ok = (a >= 0) & (a < self.n_actions)
        ok[ok] = c.mask[np.flatnonzero(ok), a[ok]]
        if not ok.all():
            b = int(np.flatnonzero(~ok)[0])
            raise IllegalActionError(int(a[b]), f"masked in game {b} of the vector env")
        self._run(K.OP_ENV_STEP, actions=a)
        self._told[:] = False
        self._resolve_external()
        obs = self._observe()
        ep = self.ep
        rewards = ep[:, K.EP_REWARD].astype(np.float32)
        dones = ep[:, K.EP_DONE] != 0
        infos = [{} for _ in range(self.num_envs)]
        for b in np.flatnonzero(dones):
            tf, tb, tg = self.term
            infos[b] = {
                "terminal_observation": {"fighters": tf[b].copy(), "board": tb[b].copy(), "globals": tg[b].copy()},
                "TimeLimit.truncated": bool(ep[b, K.EP_TRUNC]),
                "episode": {"r": float(ep[b, K.EP_EPRET]), "l": int(ep[b, K.EP_LEN])},
            }
            if self.mix_names:
                infos[b]["opponent"] = self.mix_names[int(ep[b, K.EP_OPP])]
        return obs, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """[num_envs, n_actions] bool: the learner's legal actions (a copy)."""
        return self.core.mask.copy()

    def close(self):
        pass


def opponent_mix(weights: dict) -> tuple[list[str], np.ndarray]:
    """A mix ``{name: weight}`` of compiled policies as (names, [K, 2] rows of cumulative
    probability and policy id) for ``kernels.run_batch``."""
    if not weights:
        raise ValueError("an opponent mix needs at least one policy")
    names, ids, w = [], [], []
    for name, weight in weights.items():
        pid = policy_id(name)
        if pid == K.POLICY_EXTERNAL:
            raise ValueError(f"an opponent mix takes compiled policies only ({listed(POLICY_NAMES, None)})")
        if not float(weight) > 0:
            raise ValueError(f"opponent mix: the weight of {name!r} must be a number > 0, got {weight!r}")
        names.append(name)
        ids.append(pid)
        w.append(float(weight))
    cum = np.cumsum(w) / sum(w)
    cum[-1] = 1.0
    return names, np.stack([cum, np.array(ids, np.float64)], axis=1)
