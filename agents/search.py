"""A search agent: policy switching by short rollouts on the batched core.

At every decision where its candidate policies (default: the gunline and the aggressor
heuristics) would choose different actions, ``RolloutAgent`` copies the game into a
``BatchedGames`` batch and, for each candidate policy, plays ``rollouts`` short futures of
``horizon`` decisions in which its own gang keeps to that policy and the other gangs play the
opponent models (``opponents``, cycled over the rollouts). It takes the action of the
policy whose futures are worth most on average under ``value`` (a ``RewardSpec``: casualties
on both sides and, for a game that ends inside the horizon, its result). Every candidate
plays the same dice and the same opponent draws in its k-th rollout (common random numbers),
so the comparison is between policies, not between dice.

This is policy switching (as in real-time strategy game AI: choose among scripted policies by
simulating them), not a tree search: it improves on its scripts where their futures differ,
and is only as farsighted as ``horizon``. The game's own dice are never touched: the agent
draws its rollouts' seeds from its own generator (``reset(seed)``), so paired evaluation
stays paired. docs/results.md, "A search agent", has its results.

With a ``prior`` (any agent: a MaskablePPO checkpoint, a ``ppo_fast`` network, ...), the prior's
action is a candidate too: where it differs from every policy's choice, it is simulated once per
policy as the continuation (its futures play the prior's action, then that policy), and the
agent plays the first action of the best (action, continuation) pair. This is search at play time
around a trained network (``make_agent("rollout:<spec>")``): the network proposes, the
simulations check its proposal against the scripts'.

With ``then`` (a policy name), every candidate's futures continue with that one policy instead of
the candidate's own: the agent plays the first action (each policy's choice here, and the prior's)
whose futures are worth most when ``then`` plays on. This is the rollout algorithm's one-step
improvement of ``then`` (Bertsekas; Tesauro and Galperin's backgammon rollouts): its choice is
one that a player who afterwards plays like ``then`` can follow up, which is what a network
cloned from ``then`` does (docs/results.md, "The search that continues as its student").
"""
from __future__ import annotations

import numpy as np

from necro_env.batch import BatchedGames, policy_id
from necro_env.config.agent_spec import POLICY_NAMES, listed
from necro_env.envs.rewards import RewardSpec

from .base import Agent

# the value of a rollout's end: a win or loss outweighs a gang's worth of casualties
DEFAULT_VALUE = dict(win=8.0, loss=-8.0, draw=0.0, out_of_action=1.0, seriously_injured=0.5, flesh_wound=0.1,
                     own_losses=1.0)


class RolloutAgent(Agent):
    """Chooses among compiled policies by simulating each (``rollouts`` futures of ``horizon``
    decisions against ``opponents``) and taking the action of the best on average."""

    name = "rollout"

    def __init__(self, seed: int = 0, policies=("gunline", "aggressor"), opponents=("gunline", "aggressor"),
                 rollouts: int = 64, horizon: int = 120, value=None, prior: Agent | None = None,
                 then: str | None = None):
        if len(policies) < 1 or len(opponents) < 1:
            raise ValueError("RolloutAgent needs at least one policy and one opponent model")
        if rollouts < 1 or horizon < 0:
            raise ValueError(f"rollouts must be >= 1 and horizon >= 0, got {rollouts} and {horizon}")
        self.policies = [policy_id(p) for p in policies]
        self.opponents = [policy_id(p) for p in opponents]
        for p in self.policies + self.opponents:
            if p < 0:
                raise ValueError(f"RolloutAgent simulates compiled policies ({listed(POLICY_NAMES, None)}), "
                                 f"not 'external'")
        self.then = None if then is None else policy_id(then)
        if self.then is not None and self.then < 0:
            raise ValueError(f"RolloutAgent continues with a compiled policy ({listed(POLICY_NAMES, None)}), "
                             f"not {then!r}")
        self.rollouts = int(rollouts)
        self.horizon = int(horizon)
        self.value = RewardSpec.from_config(DEFAULT_VALUE if value is None else value)
        self.prior = prior
        self.encoder = None if prior is None else prior.encoder  # the prior reads observations
        if prior is not None:
            self.name = f"rollout+{prior.name}"
        self._batches = {}  # batch size -> BatchedGames of the game being played
        self.searches = 0  # decisions decided by simulation (the candidates disagreed)
        self.prior_chosen = 0  # searches won by the prior's action where no policy chose it
        self._prior_own = None  # that action at the last search, None where a policy chose it too
        self.last_search = None  # (candidates' actions, their mean values) of the last act() that simulated
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(0 if seed is None else int(seed))
        if self.prior is not None:
            self.prior.reset(seed)

    def _batch_for(self, game, n: int) -> BatchedGames:
        bg = self._batches.get(n)
        if bg is None or bg.game is not game:
            if any(b.game is not game for b in self._batches.values()):
                self._batches = {}
            bg = self._batches[n] = BatchedGames(game, n)
        return bg

    def _seeds(self, n):
        return self.rng.integers(0, 2**63, size=n, dtype=np.uint64)

    def act(self, obs, mask, game=None) -> int:
        if game is None:
            raise ValueError(f"{self.name} needs the Game: call act(obs, mask, game=game)")
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError(f"{self.name}: no legal action (is the game over?)")
        self.last_search = None
        if legal.size == 1:
            return int(legal[0])
        first, values = self.evaluate(game, obs, mask)
        if values is None:
            return int(first[0])
        self.last_search = (first, values)
        best = int(np.argmax(values))
        if self._prior_own is not None and first[best] == self._prior_own:
            self.prior_chosen += 1
        return int(first[best])

    def evaluate(self, game, obs=None, mask=None):
        """(each candidate's action here, each candidate's mean rollout value). The candidates are
        the policies (their choice, then their own play), then, with a prior whose action no policy
        chose, (the prior's action, then policy k) for each policy k. With ``then`` the candidates are
        the distinct first actions (the policies' choices, then the prior's), each continued by
        ``then``. The values are None when every candidate plays the same action (nothing to
        simulate)."""
        P, R = len(self.policies), self.rollouts
        self._prior_own = None  # the prior's action where no policy chose it
        bg = self._batch_for(game, P * R).load(game)
        # each policy's choice here, from one shared players' draw
        bg.reseed(self._seeds(P * R), np.tile(self._seeds(1), P * R))
        first = np.array([bg.sample(p, games=[k])[0] for k, p in enumerate(self.policies)], np.int64)
        cont = np.array(self.policies, np.int64)  # each candidate's own play after its first action
        if self.prior is not None:
            if mask is None:
                mask = game.mask[0]
            a = int(self.prior.act(obs, mask, game=game))
            if not (first == a).any():
                self._prior_own = a
                first = np.concatenate([first, np.full(P, a, np.int64)])
                cont = np.concatenate([cont, cont])
        if self.then is not None:  # one continuation for all: each distinct first action once
            _, at = np.unique(first, return_index=True)
            first = first[np.sort(at)]
            cont = np.full(first.size, self.then, np.int64)
        if (first == first[0]).all():
            return first, None
        self.searches += 1
        C = first.size
        if C != P:  # another batch size: the prior's candidates, or fewer distinct ones with ``then``
            bg = self._batch_for(game, C * R).load(game)
        # common random numbers: rollout r of every candidate plays the same dice and players' draws.
        # Slot r * C + k is candidate k's rollout r: interleaved, so that each of numba's threads (a
        # contiguous share of the slots) gets every candidate's futures, whose lengths differ.
        bg.reseed(np.repeat(self._seeds(R), C), np.repeat(self._seeds(R), C))  # (sample left the games as loaded)
        own = np.tile(cont, R)
        other = np.repeat(np.resize(self.opponents, R), C)
        values, _, _, _ = bg.rollout(np.tile(first, R), self.horizon, int(game.current_gang), own, other,
                                     self.value)
        # each candidate's values contiguous before the mean: the same sums, in the same order, as
        # when the slots were laid out candidate by candidate
        return first, np.ascontiguousarray(values.reshape(R, C).T).mean(axis=1)
