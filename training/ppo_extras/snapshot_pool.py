"""The self-play opponent (``--opponent self``): a pool of frozen copies of the learner that plays
the other gangs inside the batch, one snapshot drawn per game at every episode start.

``--pool-size`` newest snapshots are kept with the first (snap_0); ``--latest-prob`` draws the newest,
``--heuristic-prob`` a compiled heuristic instead (an anchor against forgetting). When snapshots are
taken, saved and rated: training/ppo_extras/league.py.
"""
from __future__ import annotations

import copy

import numpy as np
import torch

from necro_env.core.header import H_DPLAYER


class SnapshotPool:
    """The self-play opponent of ``--opponent self`` (training/ppo_extras/league.py): frozen copies of the
    learner, one drawn for each game at every episode start (``BatchedEnv``'s per-game opponent)
    from the pool's own generator; the games waiting on the opponent are played by their
    snapshots, one batched torch call per snapshot, with sampled actions (``greedy``: the most
    likely ones). Snapshots with tactical inputs get them for the deciding gang from ``core``
    (the env's ``BatchedGames``, set by ``make_env``)."""

    HEURISTICS = ("gunline", "aggressor")

    def __init__(self, num_envs, size=1, latest_prob=0.5, seed=0, greedy=False, heuristic_prob=0.0):
        from necro_env.core.rng import seed_game

        self.size, self.latest_prob, self.greedy = max(1, size), latest_prob, greedy
        self.heuristic_prob = heuristic_prob
        self.rng = np.random.default_rng([seed, 4242])
        self.prng = np.zeros((num_envs, 2), np.uint64)  # the compiled heuristics' dice, apart from the env's
        for b in range(num_envs):
            seed_game(self.prng, b, np.uint64(seed * 1000 + 4243 + b))
        self.members = []  # (name, frozen network), the first one kept while the newest replace the others
        self.slot = [None] * num_envs  # each game's opponent in its running episode: a network or a heuristic's name
        self.core = None

    def add(self, name, agent):
        self.members.append((name, copy.deepcopy(agent).eval()))
        while len(self.members) > self.size:
            del self.members[1]

    def names(self):
        return [n for n, _ in self.members]

    def start_episodes(self, games):
        if not self.members:
            raise RuntimeError("the self-play pool is empty: add a snapshot before resetting the env")
        for b in games:
            if self.heuristic_prob and self.rng.random() < self.heuristic_prob:
                self.slot[b] = self.HEURISTICS[int(self.rng.integers(len(self.HEURISTICS)))]
                continue
            latest = self.rng.random() < self.latest_prob
            self.slot[b] = self.members[-1 if latest else int(self.rng.integers(len(self.members)))][1]

    def __call__(self, obs, mask, games):
        players = [self.slot[b] for b in games]
        acts = np.empty(len(games), np.int64)
        for name in self.HEURISTICS:  # compiled choices in the games where that heuristic plays
            sel = np.array([i for i, p in enumerate(players) if isinstance(p, str) and p == name], np.int64)
            if len(sel):
                acts[sel] = self.core.sample(name, self.prng, games=np.asarray(games)[sel])
        unique = list({id(p): p for p in players if not isinstance(p, str)}.values())  # in order of appearance
        obs = self._tactical(dict(obs), games, any(n.tactical for n in unique), any(n.tactical_planes for n in unique))
        for net in unique:
            sel = np.array([i for i, p in enumerate(players) if p is net])
            o, m = {k: torch.from_numpy(v[sel]) for k, v in obs.items()}, torch.from_numpy(mask[sel])
            with torch.no_grad():
                a = net.masked_logits(o, m).argmax(1) if self.greedy else net.act(o, m)[0]
            acts[sel] = a.numpy()
        return acts

    def _tactical(self, obs, games, rows, planes):
        """``obs`` of the waiting ``games`` with the tactical rows and / or planes of their deciding gangs."""
        if not (rows or planes):
            return obs
        from necro_env.batch.tactical import tactical_features, tactical_planes

        if self.core is None:
            raise RuntimeError("a snapshot with tactical inputs needs the env's core: build the env with make_env")
        gangs = self.core.state.g[:, H_DPLAYER].astype(np.int64)  # the deciding gang
        if rows:
            obs["tactical"] = tactical_features(self.core, gangs, games)
        if planes:  # the waiting games' mask rows are their deciding gang's legal actions
            obs["tactical_planes"] = tactical_planes(self.core, gangs, self.core.mask, games)
        return obs
