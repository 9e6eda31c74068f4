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
from ..core.rng import rand_below, seed_game
from ..policies.heuristics import aggressor_action, ambusher_action, gunline_action, sentry_action
from ..policies.random_policy import random_action
from ..rulesets.necromunda.deploy import reset_game
from ..rulesets.necromunda.engine import step
from ..rulesets.necromunda.legal import fill_mask
from ..rulesets.necromunda.state import G_DGANG, G_DONE, G_TRUNC, G_WINNER
from .encode import encode_entity
from .shaping import potential, terminal_reward

POLICY_EXTERNAL = -1
POLICY_RANDOM = 0
POLICY_GUNLINE = 1
POLICY_AGGRESSOR = 2
POLICY_SENTRY = 3
POLICY_AMBUSHER = 4
POLICY_NAMES = {"random": POLICY_RANDOM, "gunline": POLICY_GUNLINE, "aggressor": POLICY_AGGRESSOR,
                "sentry": POLICY_SENTRY, "ambusher": POLICY_AMBUSHER, "external": POLICY_EXTERNAL}

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


@leaf_njit(inline="always")
def policy_action(pid, s, st, b, lay, mask, prng):
    """Dispatch a compiled policy by id (policy kernel signature, necro_env/policies)."""
    if pid == POLICY_GUNLINE:
        return gunline_action(s, st, b, lay, mask, prng)
    if pid == POLICY_AGGRESSOR:
        return aggressor_action(s, st, b, lay, mask, prng)
    if pid == POLICY_SENTRY:
        return sentry_action(s, st, b, lay, mask, prng)
    if pid == POLICY_AMBUSHER:
        return ambusher_action(s, st, b, lay, mask, prng)
    return random_action(s, st, b, lay, mask, prng)


# ------------------------------------------------------------------ the learner's view (vector env)
# columns of the vector env's per-slot episode record ``ep[b]``
EP_REWARD = 0   # the learner's reward for its last step (terminal reward + shaping since its previous decision)
EP_DONE = 1     # a game ended during the learner's last step (the slot has been reset)
EP_TRUNC = 2    # ... at the round limit
EP_STEPS = 3    # learner decisions in the current episode
EP_LEN = 4      # learner decisions in the finished episode
EP_PHI = 5      # shaping potential at the learner's last decision (shaping.potential)
EP_FRESH = 6    # 1 until the learner's first decision of an episode (no shaping across episodes)
EP_OPP = 7      # mix index of the finished episode's opponent (0 without a mix)
EP_RET = 8      # the learner's return so far in the current episode
EP_EPRET = 9    # the learner's return in the finished episode
N_EP = 10


@leaf_njit(inline="always")
def draw_opponent(prng, b, mix):
    """Index into the opponent mix (rows: cumulative probability, policy id) for a new episode."""
    u = rand_below(prng, b, 1 << 30) / np.float64(1 << 30)
    for k in range(mix.shape[0] - 1):
        if u < mix[k, 0]:
            return k
    return mix.shape[0] - 1


@leaf_njit(inline="always")
def new_episode(prng, b, side, ng, learner, mix, oslot, ep):
    """Draw the learner's gang (unless fixed: ``learner`` >= 0) and, with a mix, the opponent."""
    side[b] = rand_below(prng, b, ng) if learner < 0 else learner
    if mix.shape[0] > 0:
        oslot[b] = draw_opponent(prng, b, mix)
    ep[b, EP_FRESH] = 1.0


@leaf_njit(inline="always")
def settle(s, st, b, lay, mask, tmpl, eseed, prng, side, opp, ng, ep, et, tf, tb, tg, rw, mix, oslot, learner):
    """Run game b until the learner (gang ``side[b]``) must decide or an external opponent
    must: compiled opponents play (``opp``, or with a mix ``mix[oslot[b]]``), a finished game
    is scored for the learner (``rw``: shaping.reward_array), its final observation written to
    the terminal buffers (tf, tb, tg) row b, and the slot reset (new seed, learner side and
    opponent). Returns True if an external decision is awaited. ``ep[b]``: the ``EP_*`` columns."""
    while True:
        if s.g[b, G_DONE] != 0:
            g = side[b]
            r = terminal_reward(s.g[b, G_WINNER], g, rw)
            if ep[b, EP_FRESH] == 0.0:  # shaping since the learner's last decision (none yet: none)
                r += potential(s, st, b, g, rw) - ep[b, EP_PHI]
            ep[b, EP_REWARD] += r
            ep[b, EP_EPRET] = ep[b, EP_RET] + r
            ep[b, EP_RET] = 0.0
            ep[b, EP_DONE] = 1.0
            ep[b, EP_TRUNC] = 1.0 if s.g[b, G_TRUNC] != 0 else 0.0
            ep[b, EP_LEN] = ep[b, EP_STEPS]
            ep[b, EP_STEPS] = 0.0
            ep[b, EP_OPP] = oslot[b] if mix.shape[0] > 0 else 0
            encode_entity(s, b, g, et, tf, tb, tg, b)
            reset_game(s, st, b, lay, mask, tmpl, next_seed(eseed, b))
            new_episode(prng, b, side, ng, learner, mix, oslot, ep)
            continue
        if s.g[b, G_DGANG] == side[b]:
            phi = potential(s, st, b, side[b], rw)
            if ep[b, EP_FRESH] == 0.0:
                ep[b, EP_REWARD] += phi - ep[b, EP_PHI]
                ep[b, EP_RET] += phi - ep[b, EP_PHI]
            ep[b, EP_PHI] = phi
            ep[b, EP_FRESH] = 0.0
            return False
        pid = opp if mix.shape[0] == 0 else np.int64(mix[oslot[b], 1])
        if pid == POLICY_EXTERNAL:
            return True
        a = policy_action(pid, s, st, b, lay, mask, prng)
        step(s, st, b, lay, a, mask)


@leaf_njit
def seed_rows(rng, seeds):
    """Seed row b of a [B, 2] PCG32 array (dice or players) with seeds[b] (``rng.seed_game``)."""
    for b in range(seeds.shape[0]):
        seed_game(rng, b, seeds[b])


@leaf_njit
def rollout(s, st, b, lay, mask, prng, first, n, gang, own, other, counts):
    """Game b: the action ``first`` (skipped if < 0), then up to ``n`` decisions of compiled
    policies (gang ``gang``: policy ``own``, every other gang: ``other``), stopping when the game
    ends (a finished game is left as it is, not reset). counts[b, 0] += decisions taken."""
    if first >= 0 and s.g[b, G_DONE] == 0:
        step(s, st, b, lay, first, mask)
        counts[b, 0] += 1
    for _ in range(n):
        if s.g[b, G_DONE] != 0:
            return
        pid = own if s.g[b, G_DGANG] == gang else other
        a = policy_action(pid, s, st, b, lay, mask, prng)
        step(s, st, b, lay, a, mask)
        counts[b, 0] += 1


# ------------------------------------------------------------------ the one engine kernel
# Operations of ``run_batch`` (one compiled entry point for every batched operation: numba
# links and re-optimises the whole engine into each compiled entry point that calls it, so
# eight kernels cost eight engine compiles; docs/performance.md "Compile time").
OP_RESET = 0        # (re)start every game with its slot's next seed
OP_STEP = 1         # actions[b] in every game; rewards/dones/truncs/winners; auto-reset
OP_PLAY = 2         # n decisions of policy pid in every game, for every gang; counts[b] += (decisions, games)
OP_SAMPLE = 3       # actions[b] = policy pid's choice (-1 where nothing is legal), prng = caller's generator
OP_MASK = 4         # recompute every game's mask n times (profiling; the state is not changed)
OP_ENV_RESET = 5    # vector env: reset, draw the learner's side, settle
OP_ENV_STEP = 6     # vector env: the learner's actions[b], then settle
OP_ENV_EXTERNAL = 7  # vector env: an external opponent's actions[k] in games idx[k], then settle
OP_SAMPLE_SOME = 8   # actions[k] = policy pid's choice in game idx[k] (OP_SAMPLE for some games only)
OP_ROLLOUT = 9      # actions[b] (if >= 0), then up to n decisions: gang ``learner`` plays policy side[b], the
#                     others policy oslot[b]; no auto-reset; dones/winners, rewards[b] = the value for
#                     ``learner`` (terminal_reward of a finished game, else the potential, rw),
#                     counts[b, 0] += decisions
OP_NAMES = ("reset", "step", "play", "sample", "mask", "env_reset", "env_step", "env_external", "sample_some",
            "rollout")


@leaf_njit(separate=True)
def run_game(op, n, s, st, lay, mask, tmpl, eseed, prng, pid, ng, side, ep, et, tf, tb, tg, waiting, idx,
             actions, rewards, dones, truncs, winners, counts, rw, mix, oslot, learner, k):
    """:func:`run_batch`'s operation on its k-th game (game ``idx[k]`` for ``OP_ENV_EXTERNAL`` and
    ``OP_SAMPLE_SOME``, else game k). Compiled on its own, not as the parallel loop's body: numba's
    parallel passes took 20 s over this body inlined in the loop, all of it after the rest of the
    core had compiled, on one core (docs/performance.md, "Compile time")."""
    some = op == OP_ENV_EXTERNAL or op == OP_SAMPLE_SOME
    b = k
    if some:
        b = idx[k]
    if op == OP_RESET:
        reset_game(s, st, b, lay, mask, tmpl, next_seed(eseed, b))
    elif op == OP_STEP:
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
    elif op == OP_PLAY:
        for _ in range(n):
            a = policy_action(pid, s, st, b, lay, mask, prng)
            step(s, st, b, lay, a, mask)
            counts[b, 0] += 1
            if s.g[b, G_DONE] != 0:
                counts[b, 1] += 1
                reset_game(s, st, b, lay, mask, tmpl, next_seed(eseed, b))
    elif op == OP_SAMPLE:
        actions[b] = policy_action(pid, s, st, b, lay, mask, prng)
    elif op == OP_SAMPLE_SOME:
        actions[k] = policy_action(pid, s, st, b, lay, mask, prng)
    elif op == OP_MASK:
        for _ in range(n):
            fill_mask(s, st, b, lay, mask)
    elif op == OP_ROLLOUT:
        rollout(s, st, b, lay, mask, prng, actions[b], n, learner, side[b], oslot[b], counts)
        dones[b] = s.g[b, G_DONE] != 0
        winners[b] = s.g[b, G_WINNER]
        if dones[b]:
            rewards[b] = terminal_reward(s.g[b, G_WINNER], learner, rw)
        else:
            rewards[b] = potential(s, st, b, learner, rw)
    elif op == OP_ENV_RESET:
        reset_game(s, st, b, lay, mask, tmpl, next_seed(eseed, b))
        ep[b, :] = 0.0
        new_episode(prng, b, side, ng, learner, mix, oslot, ep)
        waiting[b] = settle(s, st, b, lay, mask, tmpl, eseed, prng, side, pid, ng, ep, et, tf, tb, tg, rw, mix,
                            oslot, learner)
    elif op == OP_ENV_STEP:
        ep[b, EP_REWARD] = 0.0
        ep[b, EP_DONE] = 0.0
        ep[b, EP_TRUNC] = 0.0
        ep[b, EP_STEPS] += 1.0
        step(s, st, b, lay, actions[b], mask)
        waiting[b] = settle(s, st, b, lay, mask, tmpl, eseed, prng, side, pid, ng, ep, et, tf, tb, tg, rw, mix,
                            oslot, learner)
    elif op == OP_ENV_EXTERNAL:
        step(s, st, b, lay, actions[k], mask)
        waiting[b] = settle(s, st, b, lay, mask, tmpl, eseed, prng, side, pid, ng, ep, et, tf, tb, tg, rw, mix,
                            oslot, learner)


@leaf_njit(parallel=True)
def run_batch(op, n, s, st, lay, mask, tmpl, eseed, prng, pid, ng, side, ep, et, tf, tb, tg, waiting, idx,
              actions, rewards, dones, truncs, winners, counts, rw, mix, oslot, learner):
    """One batched operation ``op`` (``OP_*``) over every game b (over ``idx`` for
    ``OP_ENV_EXTERNAL`` and ``OP_SAMPLE_SOME``), in parallel. Arguments an operation does not read may be empty
    arrays of the same types (``necro_env.batch.BatchedGames.run`` fills them in).

    ``pid``: the policy of ``OP_PLAY`` / ``OP_SAMPLE`` or the vector env's opponent;
    ``side``, ``ep``, ``et``, ``tf``/``tb``/``tg``, ``waiting``: the vector env's learner
    sides, episode records, entity tables, terminal observations and external waits
    (``settle``); ``rw`` the reward options (shaping.reward_array), ``mix`` the opponent mix
    (rows: cumulative probability, policy id; empty: ``pid`` in every game), ``oslot`` each
    game's mix row, ``learner`` the learner's fixed gang (-1: drawn per episode). ``OP_ROLLOUT``
    reads ``side[b]`` / ``oslot[b]`` as the policies of gang ``learner`` / of the other gangs and
    writes each game's value for ``learner`` into ``rewards`` (``BatchedGames.rollout``)."""
    some = op == OP_ENV_EXTERNAL or op == OP_SAMPLE_SOME
    m = idx.shape[0] if some else s.g.shape[0]
    for k in prange(m):
        run_game(op, n, s, st, lay, mask, tmpl, eseed, prng, pid, ng, side, ep, et, tf, tb, tg, waiting, idx,
                 actions, rewards, dones, truncs, winners, counts, rw, mix, oslot, learner,
                 np.int64(k))  # (the parfor index may be unsigned: one integer type)


# ------------------------------------------------------------------ observations (encoder only)
@leaf_njit(parallel=True)
def encode_batch(s, et, gangs, idx, fighters, board, glob):
    """Entity observations of games ``idx`` seen by ``gangs[k]`` into rows k."""
    for k in prange(idx.shape[0]):
        encode_entity(s, idx[k], gangs[k], et, fighters, board, glob, np.int64(k))  # (the parfor index may be unsigned)


@leaf_njit(parallel=True)
def encode_all(s, et, side, fighters, board, glob):
    """Entity observations of every game seen by its learner into row b."""
    for k in prange(s.g.shape[0]):
        b = np.int64(k)  # the parfor index may be unsigned: the encoders' int64 versions, not a uint64 copy
        encode_entity(s, b, side[b], et, fighters, board, glob, b)
