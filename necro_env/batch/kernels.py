"""Batched stepping kernels: one compiled call advances B independent games (``prange``).

Every game ``b`` of a batch shares the static tables ``st``, the codec ``lay`` and the start
template ``tmpl`` (``Game.template()``) and owns:

- its rules state ``s[b]`` with the game's own dice generator (``s.rng[b]``);
- ``eseed[b]``: the slot's episode-seed stream. Episode seeds are drawn by
  ``next_seed`` (splitmix64), so the k-th game of slot b depends on (first seed of b, k)
  only, never on the batch size or on the other slots;
- ``prng[b]``: the players' PCG32 (policy choices, the learner's side), never the dice.

Auto-reset: a finished game is replaced at once by ``deploy.reset_game`` with the slot's next
seed, which is exactly what ``Game.reset(seed)`` does for a single game.

Opponents are compiled policies chosen by id (``POLICY_*``; ``policy_action``); the id
``POLICY_EXTERNAL`` (-1) stops the game for an outside decision (a neural opponent evaluated
in one batched torch call by the vector env).
"""
import numpy as np
from numba import prange

from .._numba_cache import leaf_njit
from ..core.rng import rand_below
from ..policies.heuristics import aggressor_action, gunline_action
from ..policies.random_policy import random_action
from ..rulesets.necromunda.deploy import reset_game
from ..rulesets.necromunda.engine import step
from ..rulesets.necromunda.legal import fill_mask
from ..rulesets.necromunda.state import G_DGANG, G_DONE, G_TRUNC, G_WINNER
from .encode import encode_entity

POLICY_EXTERNAL = -1
POLICY_RANDOM = 0
POLICY_GUNLINE = 1
POLICY_AGGRESSOR = 2
POLICY_NAMES = {"random": POLICY_RANDOM, "gunline": POLICY_GUNLINE, "aggressor": POLICY_AGGRESSOR,
                "external": POLICY_EXTERNAL}

GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@leaf_njit(inline="always")
def splitmix64(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@leaf_njit(inline="always")
def next_seed(eseed, b):
    """The slot's next episode seed (the first one is the slot's seed itself)."""
    s = eseed[b]
    eseed[b] = splitmix64(s + GOLDEN)
    return s


@leaf_njit
def policy_action(pid, s, st, b, lay, mask, prng):
    """Dispatch a compiled policy by id (policy kernel signature, necro_env/policies)."""
    if pid == POLICY_GUNLINE:
        return gunline_action(s, st, b, lay, mask, prng)
    if pid == POLICY_AGGRESSOR:
        return aggressor_action(s, st, b, lay, mask, prng)
    return random_action(s, st, b, lay, mask, prng)


# ------------------------------------------------------------------ the bare batched core
@leaf_njit(parallel=True)
def reset_batch(s, st, lay, mask, tmpl, eseed):
    """(Re)start every game of the batch with its slot's next seed."""
    for b in prange(s.g.shape[0]):
        reset_game(s, st, b, lay, mask, tmpl, next_seed(eseed, b))


@leaf_njit(parallel=True)
def step_batch(s, st, lay, mask, tmpl, eseed, actions, rewards, dones, truncs, winners):
    """Apply ``actions[b]`` (legal) to every game; finished games are reported in
    ``dones`` / ``truncs`` / ``winners`` with ``rewards[b]`` = +1 / -1 / 0 for the gang that
    acted, and auto-reset. Masks of the next decisions are in ``mask``."""
    for b in prange(s.g.shape[0]):
        g = s.g[b, G_DGANG]
        step(s, st, b, lay, actions[b], mask)
        rewards[b] = 0.0
        dones[b] = s.g[b, G_DONE] != 0
        truncs[b] = s.g[b, G_TRUNC] != 0
        winners[b] = s.g[b, G_WINNER]
        if dones[b]:
            w = s.g[b, G_WINNER]
            if w >= 0:
                rewards[b] = 1.0 if w == g else -1.0
            reset_game(s, st, b, lay, mask, tmpl, next_seed(eseed, b))


@leaf_njit(parallel=True)
def play_batch(s, st, lay, mask, tmpl, eseed, prng, pid, n_decisions, counts):
    """Benchmark / self-play kernel: every game takes ``n_decisions`` decisions with policy
    ``pid`` for every gang (masks computed at each decision), auto-resetting finished games.
    counts[b] += (decisions, finished games)."""
    for b in prange(s.g.shape[0]):
        for _ in range(n_decisions):
            a = policy_action(pid, s, st, b, lay, mask, prng)
            step(s, st, b, lay, a, mask)
            counts[b, 0] += 1
            if s.g[b, G_DONE] != 0:
                counts[b, 1] += 1
                reset_game(s, st, b, lay, mask, tmpl, next_seed(eseed, b))


# ------------------------------------------------------------------ the learner's view (vector env)
@leaf_njit
def settle(s, st, b, lay, mask, tmpl, eseed, prng, side, opp, ng, ep, et, tf, tb, tg):
    """Run game b until the learner (gang ``side[b]``) must decide or an external opponent
    must: compiled opponents play, a finished game is scored for the learner, its final
    observation written to the terminal buffers (tf, tb, tg) row b, and the slot reset (new
    seed and a random learner side). Returns True if an external decision is awaited.

    ep[b] columns: 0 reward of a game that ended since the learner's last step, 1 done,
    2 truncated, 3 learner decisions in the current episode, 4 length of the finished one."""
    while True:
        if s.g[b, G_DONE] != 0:
            w = s.g[b, G_WINNER]
            ep[b, 0] = 0.0 if w < 0 else (1.0 if w == side[b] else -1.0)
            ep[b, 1] = 1.0
            ep[b, 2] = 1.0 if s.g[b, G_TRUNC] != 0 else 0.0
            ep[b, 4] = ep[b, 3]
            ep[b, 3] = 0.0
            encode_entity(s, b, side[b], et, tf, tb, tg, b)
            reset_game(s, st, b, lay, mask, tmpl, next_seed(eseed, b))
            side[b] = rand_below(prng, b, ng)
            continue
        if s.g[b, G_DGANG] == side[b]:
            return False
        if opp == POLICY_EXTERNAL:
            return True
        a = policy_action(opp, s, st, b, lay, mask, prng)
        step(s, st, b, lay, a, mask)


@leaf_njit(parallel=True)
def env_reset(s, st, lay, mask, tmpl, eseed, prng, side, opp, ng, ep, et, tf, tb, tg, waiting):
    for b in prange(s.g.shape[0]):
        reset_game(s, st, b, lay, mask, tmpl, next_seed(eseed, b))
        side[b] = rand_below(prng, b, ng)
        ep[b, :] = 0.0
        waiting[b] = settle(s, st, b, lay, mask, tmpl, eseed, prng, side, opp, ng, ep, et, tf, tb, tg)


@leaf_njit(parallel=True)
def env_step(s, st, lay, mask, tmpl, eseed, prng, side, opp, ng, ep, et, tf, tb, tg, waiting, actions):
    """The learner's actions (legal) in every game, then ``settle``."""
    for b in prange(s.g.shape[0]):
        ep[b, 0] = 0.0
        ep[b, 1] = 0.0
        ep[b, 2] = 0.0
        ep[b, 3] += 1.0
        step(s, st, b, lay, actions[b], mask)
        waiting[b] = settle(s, st, b, lay, mask, tmpl, eseed, prng, side, opp, ng, ep, et, tf, tb, tg)


@leaf_njit(parallel=True)
def env_external(s, st, lay, mask, tmpl, eseed, prng, side, opp, ng, ep, et, tf, tb, tg, waiting, idx, actions):
    """External (neural) opponents' actions for games ``idx``, then ``settle`` each."""
    for k in prange(idx.shape[0]):
        b = idx[k]
        step(s, st, b, lay, actions[k], mask)
        waiting[b] = settle(s, st, b, lay, mask, tmpl, eseed, prng, side, opp, ng, ep, et, tf, tb, tg)


@leaf_njit(parallel=True)
def encode_batch(s, et, gangs, idx, fighters, board, glob):
    """Entity observations of games ``idx`` seen by ``gangs[k]`` into rows k."""
    for k in prange(idx.shape[0]):
        encode_entity(s, idx[k], gangs[k], et, fighters, board, glob, k)


@leaf_njit(parallel=True)
def encode_all(s, et, side, fighters, board, glob):
    """Entity observations of every game seen by its learner into row b."""
    for b in prange(s.g.shape[0]):
        encode_entity(s, b, side[b], et, fighters, board, glob, b)


@leaf_njit(parallel=True)
def sample_policy(s, st, lay, mask, prng, pid, out):
    """out[b] = policy ``pid``'s choice in every game (-1 where nothing is legal); ``prng``
    is the caller's own player generator (e.g. a scripted learner in benchmarks)."""
    for b in prange(s.g.shape[0]):
        out[b] = policy_action(pid, s, st, b, lay, mask, prng)


@leaf_njit(parallel=True)
def mask_batch(s, st, lay, mask, reps):
    """Profiling: recompute every game's mask ``reps`` times (the state is not changed)."""
    for b in prange(s.g.shape[0]):
        for _ in range(reps):
            fill_mask(s, st, b, lay, mask)
