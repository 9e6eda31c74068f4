"""Evaluation of the trained network: paired games inside the batch (``batched_eval``, the periodic
evaluations of ``--eval-every`` and self-play's ratings play them) and the final paired evaluation of
necro-eval (``evaluate``: ``--eval-pairs N`` games per side against each ``--eval-opponent``)."""
from __future__ import annotations

import json
import time

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

from agents.fast_network import GreedyAgent
from training.ppo_extras.envs import make_env, to_torch
from training.ppo_extras.snapshot_pool import SnapshotPool


def batched_eval(net, game, opponent, pairs, seed0=20_000, name=None, sampled=False):
    """Paired games inside the batch: for each side, ``pairs`` games (slot b: game seed
    seed0 + b, so both sides play the same deployments and dice streams) of the greedy policy
    against the compiled ``opponent`` (a name) or another network (greedy too; reported as
    ``name``); the first episode of every slot counts (plain rewards: +1 win, -1 loss, 0 draw or
    round limit). ``sampled``: the networks sample their actions instead (torch's generator seeded
    with seed0 for the match, and restored after)."""
    if isinstance(opponent, nn.Module):
        pool = SnapshotPool(pairs, greedy=not sampled)
        pool.add(name, opponent)
        name, opponent = name or "network", pool
    res = {"opponent": name or opponent, "games": 0, "win": 0, "draw": 0, "loss": 0,
           "sides": [[0, 0, 0] for _ in range(game.dims.n_gangs)],  # W-D-L with the network on gang g
           "outcomes": []}  # every game's code (0 win, 1 draw, 2 loss), side by side, slot by slot
    with torch.random.fork_rng():
        torch.manual_seed(seed0)
        for side in range(game.dims.n_gangs):
            _play_side(net, game, opponent, pairs, seed0, side, sampled, res)
    return res


def _play_side(net, game, opponent, pairs, seed0, side, sampled, res):
    """``batched_eval``'s games with the network on gang ``side``; adds the results to ``res``."""
    env = make_env(pairs, net.tactical, net.tactical_planes, opponent=opponent, seed=seed0, game=game,
                   learner=side)
    obs = env.reset()
    finished = np.zeros(pairs, np.bool_)
    outcomes = np.zeros(pairs, np.int64)
    while not finished.all():
        with torch.no_grad():
            logits = net.masked_logits(to_torch(obs), torch.from_numpy(env.action_masks()))
            a = (Categorical(logits=logits).sample() if sampled else logits.argmax(1)).numpy()
        obs, r, d, _ = env.step(a)
        for b in np.flatnonzero(d & ~finished):
            outcome = 0 if r[b] > 0 else 2 if r[b] < 0 else 1
            res[("win", "draw", "loss")[outcome]] += 1
            res["sides"][side][outcome] += 1
            outcomes[b] = outcome
        finished |= d
    res["games"] += pairs
    res["outcomes"] += outcomes.tolist()


def evaluate(agent, game, args, train_seconds, opponent):
    """Paired games (training/evaluate.py, seeds 10,000+ as necro-train's final evaluation)."""
    from agents import make_agent
    from training.evaluate import paired_match, summarize

    t0 = time.perf_counter()
    m = paired_match(game, GreedyAgent(agent), make_agent(opponent, seed=1), args.eval_pairs, seed0=10_000)
    row = summarize("ppo_fast", opponent, m)
    row.update(train_seconds=round(train_seconds, 1), eval_seconds=round(time.perf_counter() - t0, 1))
    print(f"evaluation vs {opponent}: {m['win']}-{m['draw']}-{m['loss']} in {m['games']} paired games, "
          f"win rate {row['win_rate']:.3f} [{row['win_ci_low']:.3f}, {row['win_ci_high']:.3f}] "
          f"(trained {train_seconds:.0f} s)", flush=True)
    if args.log_json:
        print(json.dumps(row), flush=True)
    return row
