"""The batched core: B independent Necromunda games advanced by one compiled call.

``BatchedGames`` owns the arrays (``State`` with a leading batch axis, the ``[B, n_actions]``
mask, per-slot episode seeds and player PRNGs) and calls the kernels of
``necro_env.batch.kernels`` (numba, ``prange`` over games; the thread count is numba's,
``numba.set_num_threads``). ``necro_env.envs.batched_env`` builds the batched env on it (numpy API;
``necro_env.envs.vector_env`` is its SB3 adapter).

Seeds: slot ``b`` starts with game seed ``seed + b`` (SB3's convention for ``VecEnv.seed``),
and its later episodes follow the slot's own seed stream (``kernels.next_seed``), so a game
seed gives the same game as ``Game.reset(seed)``, whatever the batch size.
"""
from __future__ import annotations

import numpy as np

from ..config.agent_spec import POLICY_NAMES, listed
from ..core.rng import seed_game
from ..rulesets.necromunda.state import State
from . import kernels as K
from .shaping import reward_array

MASK64 = 0xFFFFFFFFFFFFFFFF


def splitmix64(z: int) -> int:
    """Python twin of ``kernels.splitmix64`` (seeds the players' generators)."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def episode_seeds(first_seed: int, n: int) -> list[int]:
    """The first ``n`` game seeds of a slot whose first seed is ``first_seed``."""
    out, s = [], first_seed & MASK64
    for _ in range(n):
        out.append(s)
        s = splitmix64((s + 0x9E3779B97F4A7C15) & MASK64)
    return out


def alloc_like(state: State, batch: int) -> State:
    """A zeroed batch of ``batch`` games with the per-game shapes of ``state``."""
    return State(*(np.zeros((batch,) + a.shape[1:], a.dtype) for a in state))


def policy_id(policy) -> int:
    if isinstance(policy, (int, np.integer)):
        if int(policy) not in K.POLICY_NAMES.values():
            raise ValueError(f"unknown policy id {policy}; allowed: {sorted(K.POLICY_NAMES.values())}")
        return int(policy)
    try:
        return K.POLICY_NAMES[policy]
    except KeyError:
        raise ValueError(f"unknown policy {policy!r}; allowed: {', '.join(K.POLICY_NAMES)}") from None


class BatchedGames:
    """B games of one ``Game`` set-up (board, gangs, limits), stepped together.

    game: a ``Game`` (its template, static tables and codec are shared by every slot).
    batch_size: B. seed: slot b's first game seed is ``seed + b``.
    """

    def __init__(self, game, batch_size: int, seed: int = 0):
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        self.game = game
        self.batch_size = int(batch_size)
        self.template = game.template()
        self.static = game.static
        self.layout = game.layout
        self.n_actions = game.n_actions
        self.n_gangs = game.dims.n_gangs
        self.state = alloc_like(game.state, self.batch_size)
        self.mask = np.zeros((self.batch_size, self.n_actions), np.bool_)
        self.eseed = np.zeros(self.batch_size, np.uint64)
        self.prng = np.zeros((self.batch_size, 2), np.uint64)
        self._et = None
        self._empty = None
        self.seed(seed)

    def seed(self, seed: int = 0):
        """Slot b: first game seed ``seed + b``; players' PRNG seeded from (seed, b)."""
        seed = int(seed)
        for b in range(self.batch_size):
            self.eseed[b] = np.uint64((seed + b) & MASK64)
            seed_game(self.prng, b, np.uint64(splitmix64((seed + b) ^ 0x5EED5EED5EED5EED)))

    def reset(self, seed: int | None = None):
        """(Re)start every slot with its next game seed (after ``seed(seed)`` if given)."""
        if seed is not None:
            self.seed(seed)
        self.run(K.OP_RESET)
        return self

    def step(self, actions):
        """Apply one legal action per game (the gang deciding in each). Returns (rewards for
        the gang that acted, dones, truncated, winners); finished games are auto-reset."""
        a = np.ascontiguousarray(actions, np.int64)
        if a.shape != (self.batch_size,):
            raise ValueError(f"actions must have shape ({self.batch_size},), got {a.shape}")
        self._refuse_illegal(a, np.arange(self.batch_size))
        r = np.zeros(self.batch_size, np.float32)
        d = np.zeros(self.batch_size, np.bool_)
        t = np.zeros(self.batch_size, np.bool_)
        w = np.zeros(self.batch_size, np.int32)
        self.run(K.OP_STEP, actions=a, rewards=r, dones=d, truncs=t, winners=w)
        return r, d, t, w

    def play(self, n_decisions: int, policy="random", counts=None):
        """Every game takes ``n_decisions`` decisions with a compiled policy for all gangs.
        Returns counts [B, 2] (decisions, finished games)."""
        pid = policy_id(policy)
        if pid == K.POLICY_EXTERNAL:
            raise ValueError(f"play needs a compiled policy ({listed(POLICY_NAMES, None)}), not 'external'")
        if counts is None:
            counts = np.zeros((self.batch_size, 2), np.int64)
        self.run(K.OP_PLAY, n=int(n_decisions), pid=pid, counts=counts)
        return counts

    def sample(self, policy="random", prng=None, out=None, games=None):
        """out[b] = a compiled policy's choice in every game (-1 where nothing is legal),
        drawn with ``prng`` (default: the slots' own player generators; pass a copy or a
        separate [B, 2] generator to leave them untouched). With ``games`` ([n] distinct slot
        indices), only those games: out[k] is the choice in game games[k], and only their rows of
        ``prng`` advance. The state is not changed."""
        pid = policy_id(policy)
        if pid == K.POLICY_EXTERNAL:
            raise ValueError(f"sample needs a compiled policy ({listed(POLICY_NAMES, None)}), not 'external'")
        prng = self.prng if prng is None else prng
        if games is None:
            if out is None:
                out = np.zeros(self.batch_size, np.int64)
            self.run(K.OP_SAMPLE, pid=pid, prng=prng, actions=out)
            return out
        idx = np.ascontiguousarray(games, np.int64).reshape(-1)
        if idx.size and (idx.min() < 0 or idx.max() >= self.batch_size):
            raise IndexError(f"games must be slot indices 0..{self.batch_size - 1}, got {idx.tolist()}")
        if np.unique(idx).size != idx.size:  # (two threads would draw from one game's generator row)
            raise ValueError(f"games must be distinct slot indices, got {idx.tolist()}")
        if out is None:
            out = np.zeros(idx.shape[0], np.int64)
        self.run(K.OP_SAMPLE_SOME, pid=pid, prng=prng, idx=idx, actions=out)
        return out

    def load(self, game, row: int = 0):
        """Copy game ``row`` of ``game`` (a ``Game``, or any object with ``state`` and ``mask``
        arrays of this set-up) into every slot: state, dice generator and mask. For search:
        reseed the slots' dice (``reseed``) so that they play different futures."""
        for dst, src in zip(self.state, game.state):
            if dst.shape[1:] != src.shape[1:] or dst.dtype != src.dtype:
                raise ValueError(f"load: the game's arrays do not match this batch's set-up "
                                 f"({src.dtype}{src.shape[1:]} vs {dst.dtype}{dst.shape[1:]})")
            dst[:] = src[row]
        self.mask[:] = game.mask[row]
        return self

    def reseed(self, dice_seeds, player_seeds=None):
        """Seed slot b's dice with ``dice_seeds[b]`` (and its players' generator with
        ``player_seeds[b]``): the episode seed streams are left alone."""
        seeds = [dice_seeds] if player_seeds is None else [dice_seeds, player_seeds]
        for name, arr, x in zip(("dice", "player"), (self.state.rng, self.prng), seeds):
            x = np.ascontiguousarray(x, np.uint64).reshape(-1)
            if x.shape[0] != self.batch_size:
                raise ValueError(f"reseed: {x.shape[0]} {name} seeds for {self.batch_size} games")
            K.seed_rows(arr, x)
        return self

    def rollout(self, first, n_decisions: int, gang: int, own, other, reward=None):
        """Simulate every game from where it stands, without auto-reset: ``first[b]`` (skipped
        where < 0), then up to ``n_decisions`` decisions in which gang ``gang`` plays the compiled
        policy ``own[b]`` and every other gang ``other[b]`` (ids or names), stopping at the
        game's end. Returns (values, dones, winners, decisions): ``values[b]`` is game b's value
        for ``gang`` under ``reward`` (a ``RewardSpec`` or its dict): the terminal reward of a
        finished game (win, loss or draw), else the shaping potential (casualties on both sides)."""
        B = self.batch_size
        first = np.broadcast_to(np.asarray(first, np.int64), (B,)).astype(np.int64)  # (a writable copy)
        own = np.broadcast_to(self._policy_ids(own), (B,)).astype(np.int64)
        other = np.broadcast_to(self._policy_ids(other), (B,)).astype(np.int64)
        if not 0 <= int(gang) < self.n_gangs:
            raise ValueError(f"rollout: gang must be 0..{self.n_gangs - 1}, got {gang}")
        self._refuse_illegal(first, np.flatnonzero(first >= 0))
        values = np.zeros(B, np.float32)
        dones = np.zeros(B, np.bool_)
        winners = np.zeros(B, np.int32)
        counts = np.zeros((B, 2), np.int64)
        self.run(K.OP_ROLLOUT, n=int(n_decisions), actions=first, side=own, oslot=other, learner=int(gang),
                 rewards=values, dones=dones, winners=winners, counts=counts, rw=reward_array(reward))
        return values, dones, winners, counts[:, 0].copy()

    def _refuse_illegal(self, actions, games):
        """IllegalActionError naming the first of ``games`` whose ``actions[b]`` is masked or out of range."""
        a = actions[games]
        bad = (a < 0) | (a >= self.n_actions) | ~self.mask[games, np.clip(a, 0, self.n_actions - 1)]
        if bad.any():
            from ..rulesets.necromunda.game import IllegalActionError
            b = int(games[np.flatnonzero(bad)[0]])
            raise IllegalActionError(int(actions[b]), f"not legal in game {b} of the batch (masked)")

    @staticmethod
    def _policy_ids(p) -> np.ndarray:
        """Policy names or ids (one, or one per game) as int64 ids of compiled policies."""
        ids = np.array([policy_id(x) for x in np.atleast_1d(np.asarray(p, object)).tolist()], np.int64)
        if (ids == K.POLICY_EXTERNAL).any():
            raise ValueError(f"rollout needs compiled policies ({listed(POLICY_NAMES, None)}), not 'external'")
        return ids

    def recompute_masks(self, reps: int = 1, state=None, mask=None):
        """Profiling: recompute the masks of ``state`` (default: the batch's) ``reps`` times
        into ``mask`` (default: the batch's own)."""
        self.run(K.OP_MASK, n=int(reps), state=self.state if state is None else state,
                 mask=self.mask if mask is None else mask)

    # ------------------------------------------------------------------ the one kernel
    @property
    def entity_tables(self):
        """The compiled entity encoder's tables for this set-up (built on first use)."""
        if self._et is None:
            from .encode import entity_tables
            self._et = entity_tables(self.game, self.template)
        return self._et

    def run(self, op: int, **arrays):
        """Call ``kernels.run_batch`` for operation ``op`` (``kernels.OP_*``). Keyword
        arguments replace the defaults: this batch's arrays, and empty arrays of the right
        types for what the operation does not read (every call has the same argument types,
        so the kernel compiles once)."""
        a = self._defaults()
        unknown = set(arrays) - set(a)
        if unknown:
            raise TypeError(f"unknown run_batch argument(s): {sorted(unknown)}; allowed: {list(a)}")
        a.update(arrays)
        K.run_batch(op, *a.values())

    def _defaults(self) -> dict:
        from .encode import alloc_entity
        if self._empty is None:
            tf, tb, tg = alloc_entity(self.game, 0)
            self._empty = dict(
                side=np.zeros(0, np.int64), ep=np.zeros((0, K.N_EP), np.float64), tf=tf, tb=tb, tg=tg,
                waiting=np.zeros(0, np.bool_), idx=np.zeros(0, np.int64), actions=np.zeros(0, np.int64),
                rewards=np.zeros(0, np.float32), dones=np.zeros(0, np.bool_), truncs=np.zeros(0, np.bool_),
                winners=np.zeros(0, np.int32), counts=np.zeros((0, 2), np.int64),
                rw=reward_array(None), mix=np.zeros((0, 2), np.float64),
                oslot=np.zeros(0, np.int64))
        e = self._empty
        # the order of kernels.run_batch's parameters after ``op``
        return dict(n=0, state=self.state, static=self.static, layout=self.layout, mask=self.mask,
                    template=self.template, eseed=self.eseed, prng=self.prng, pid=0, ng=self.n_gangs,
                    side=e["side"], ep=e["ep"], et=self.entity_tables, tf=e["tf"], tb=e["tb"], tg=e["tg"],
                    waiting=e["waiting"], idx=e["idx"], actions=e["actions"], rewards=e["rewards"],
                    dones=e["dones"], truncs=e["truncs"], winners=e["winners"], counts=e["counts"], rw=e["rw"],
                    mix=e["mix"], oslot=e["oslot"], learner=-1)
