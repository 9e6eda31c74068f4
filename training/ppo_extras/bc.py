"""Warm start by behaviour cloning: ``--bc-decisions N`` records N learner decisions of a compiled
heuristic and clones them into the network before PPO.

The demonstrator (``--bc-demonstrator``, default gunline, or a list ``gunline,aggressor`` that shares
the games between them, or ``sides:gunline,aggressor``: gang g's decisions by the g-th; with
``--bc-winners-only`` only the games the demonstrator won count) plays the learner's side of the same
batched games (its choices drawn by ``BatchedGames.sample``, so the demonstrations cost compiled time
only); ``--bc-epochs`` of masked cross-entropy at ``--bc-learning-rate`` clone them (``--bc-kind-weight
P`` weighs each decision by its kind's count to the power -P, so that rare kinds such as Take Cover are
not drowned by moves and selections). ``--bc-report`` prints the cloned network's accuracy by decision
kind on held-out demonstrations (a fifth as many as ``--bc-decisions``, other seeds). After the warm
start ``--bc-dagger`` (training/ppo_extras/dagger.py) goes on cloning, and ``--kl-coef``
(training/ppo_extras/kl_anchor.py) anchors PPO to the cloned network.
"""
from __future__ import annotations

import time

import numpy as np
import torch
from torch import nn

from agents.base import side_specs
from necro_env.config.agent_spec import listed
from necro_env.config.training import BUILTIN_OPPONENTS
from training.ppo_extras.envs import make_env


def check_args(args) -> None:
    """Refuse a demonstrator that is not a compiled heuristic and the warm-start flags that do not combine."""
    if args.bc_winners_only and args.opponent == "self":
        raise SystemExit("--bc-winners-only records against the compiled opponents, not --opponent self")
    if not 0.0 <= args.bc_kind_weight <= 1.0:
        raise SystemExit(f"--bc-kind-weight must be in [0, 1] (the power of a kind's count), got {args.bc_kind_weight}")
    if args.init and args.bc_decisions:
        raise SystemExit("--init starts from a saved network; it does not combine with a warm start (--bc-decisions)")
    try:
        names = side_specs(args.bc_demonstrator) or args.bc_demonstrator.split(",")
    except ValueError as exc:
        raise SystemExit(f"--bc-demonstrator: {exc}") from None
    for name in names:
        if name not in BUILTIN_OPPONENTS:
            raise SystemExit(f"--bc-demonstrator must be {listed(BUILTIN_OPPONENTS)} (or a list: a,b by slot, "
                             f"sides:a,b by side), got {name!r}")


class Cloner:
    """The warm start's optimiser (Adam at ``--bc-learning-rate``) and clock: ``fit(demos)`` clones
    ``demos`` into ``agent`` (``--bc-epochs``, each decision weighed by ``--bc-kind-weight``)."""

    def __init__(self, agent, args, layout):
        self.agent, self.args, self.layout = agent, args, layout
        self.opt = torch.optim.Adam(agent.parameters(), lr=args.bc_learning_rate)
        self.started = time.perf_counter()

    def fit(self, demos):
        """The accuracy of each epoch."""
        power = self.args.bc_kind_weight
        weights = kind_weights(demos[2].numpy(), self.layout, power) if power else None
        return clone(self.agent, self.opt, demos, self.args.bc_epochs, 512, weights)

    def seconds(self):
        return time.perf_counter() - self.started


def warm_start(agent, env, opponent, args):
    """Record ``--bc-decisions`` of the demonstrator in ``env``'s games and clone them into ``agent``;
    returns (the Cloner, the demonstrations) for DAgger's rounds."""
    cloner = Cloner(agent, args, env.game.layout)
    if args.bc_winners_only:  # a plain-reward twin of the training env says who won each game
        demo_env = make_env(args.num_envs, args.tactical_features, args.tactical_planes, opponent=opponent,
                            seed=args.seed, game=env.game, learner=args.learner)
        demos = collect_demonstrations(demo_env, args.bc_demonstrator, args.bc_decisions, args.seed, True)
    else:
        demos = collect_demonstrations(env, args.bc_demonstrator, args.bc_decisions, args.seed)
    accs = cloner.fit(demos)
    print(f"warm start: {len(demos[2])} decisions of {args.bc_demonstrator}"
          f"{' (won games only)' if args.bc_winners_only else ''}, {args.bc_epochs} epochs, "
          f"accuracy {', '.join(f'{a:.3f}' for a in accs)} ({cloner.seconds():.0f} s)", flush=True)
    return cloner, demos


def report(agent, env, opponent, args):
    """``--bc-report``: the cloned network's accuracy by kind on held-out decisions of the demonstrator,
    in games of their own (other seeds), so that the training env's games stay those of a run without."""
    held_env = make_env(args.num_envs, args.tactical_features, args.tactical_planes, opponent=opponent,
                        seed=args.seed + 100, game=env.game, learner=args.learner)
    held = collect_demonstrations(held_env, args.bc_demonstrator, max(1, args.bc_decisions // 5), args.seed + 100)
    del held_env
    print(f"cloned network on {len(held[2])} held-out decisions of {args.bc_demonstrator}, by kind "
          f"(decisions, same action, same kind):", flush=True)
    for name, (n_k, same, same_kind) in accuracy_by_kind(agent, held, env.game).items():
        print(f"  {name:16s} {n_k:6d} {same:.3f} {same_kind:.3f}", flush=True)


def collect_demonstrations(env, demonstrator, n_decisions, seed, winners_only=False, player=None):
    """``n_decisions`` (observation, mask, action) of ``demonstrator`` playing the learner's side
    of ``env``'s games (compiled choices from its own generators); the env is reset after.
    ``demonstrator`` may be a comma-separated list: game slot b is played by the (b mod k)-th;
    or ``sides:`` and a name per gang: the learner's gang g is played by the g-th (as
    ``agents.base.make_agent``'s side agent).
    With ``winners_only`` only the decisions of games the demonstrator won are kept (``env``
    must pay plain rewards, so that a positive final reward is a win), and recording goes on
    until there are ``n_decisions`` of them (at most 50 x as many steps as without).
    With ``player`` (a function (obs, mask) -> actions) the games are played by it instead and
    the demonstrator only labels the states it reaches (DAgger)."""
    from necro_env.batch import policy_id
    from necro_env.core.rng import seed_game
    from necro_env.envs.rewards import RewardSpec

    names = side_specs(demonstrator)
    by_side = names is not None
    names = names if by_side else demonstrator.split(",")
    if by_side and len(names) != env.n_gangs:
        raise ValueError(f"demonstrator {demonstrator!r} names {len(names)} gangs, the game has {env.n_gangs}")
    if winners_only and env.reward_spec != RewardSpec():
        raise ValueError("winners_only needs an env with plain rewards (reward=None)")
    n = env.num_envs
    prng = np.zeros((n, 2), np.uint64)
    for b in range(n):
        seed_game(prng, b, np.uint64(seed * 1000 + 777 + b))
    slot_of = np.arange(n) % len(names)  # slot b is played by names[b mod k]
    obs, masks, acts, keep = [], [], [], []
    episode = [[] for _ in range(n)]  # the steps of each slot's running game
    kept = 0
    o = env.reset()
    steps = max(1, n_decisions // n)
    for step in range(steps * (50 if winners_only else 1)):
        if winners_only and kept >= n_decisions:
            break
        a = np.full(n, -1, np.int64)
        owner = env.side if by_side else slot_of  # the index into names of each slot's demonstrator
        for name in sorted(set(names), key=policy_id):  # each policy draws once per step, in id order
            pick = np.isin(owner, [i for i, x in enumerate(names) if x == name])
            a[pick] = env.core.sample(name, prng)[pick]
        m = env.action_masks()
        obs.append(o)
        masks.append(m)
        acts.append(a.copy())
        keep.append(np.zeros(n, np.bool_) if winners_only else np.ones(n, np.bool_))
        o, r, d, _ = env.step(a if player is None else player(o, m))
        if winners_only:
            for b in range(n):
                episode[b].append(step)
                if d[b]:
                    if r[b] > 0:
                        for t in episode[b]:
                            keep[t][b] = True
                        kept += len(episode[b])
                    episode[b] = []
    env.reset()
    sel = [np.flatnonzero(k) for k in keep]
    cat = {key: torch.from_numpy(np.concatenate([x[key][i] for x, i in zip(obs, sel)])) for key in obs[0]}
    return (cat, torch.from_numpy(np.concatenate([m[i] for m, i in zip(masks, sel)])),
            torch.from_numpy(np.concatenate([x[i] for x, i in zip(acts, sel)])))


def accuracy_by_kind(agent, demos, game, batch_size=512):
    """{kind name: (decisions, share where the greedy choice is the demonstrator's, share where it
    is of the same kind)} over ``demos``, by the demonstrated action's kind (the ruleset's ``action_kinds``)."""
    from necro_env import rulesets

    names = [k.name for k in rulesets.get(game.ruleset).action_kinds(game)]
    obs, mask, label = demos
    with torch.no_grad():
        pred = torch.cat([agent.masked_logits({k: v[i:i + batch_size] for k, v in obs.items()},
                                              mask[i:i + batch_size]).argmax(1)
                          for i in range(0, len(label), batch_size)]).numpy()
    kind, pkind = action_kinds(label.numpy(), game.layout), action_kinds(pred, game.layout)
    exact = pred == label.numpy()
    return {names[k]: (int((kind == k).sum()), float(exact[kind == k].mean()), float((pkind[kind == k] == k).mean()))
            for k in np.unique(kind)}


def action_kinds(actions, layout):
    """The kind (the index of the ruleset's ``action_kinds``, as ``codec.decode`` gives it) of each flat
    action: the block of the action layout (each kind's first index, then ``n_actions``) it falls in (an
    empty block's start equals the next one's)."""
    return np.searchsorted(np.asarray(layout)[:-1], np.asarray(actions), side="right") - 1


def kind_weights(actions, layout, power):
    """Per-decision weights of the cloning loss (``--bc-kind-weight``): a decision whose action is of a
    kind demonstrated n times weighs n ** -power, scaled to a mean of 1 (power 0: all 1; 0.5: rare
    kinds such as Take Cover count for more than by their share; 1: every kind alike in all)."""
    kinds = action_kinds(actions, layout)
    counts = np.bincount(kinds, minlength=len(layout) - 1).astype(np.float64)
    w = counts[kinds] ** -power
    return torch.from_numpy((w / w.mean()).astype(np.float32))


def clone(agent, opt, demos, epochs, batch_size, weights=None):
    """Masked cross-entropy on the demonstrations (each decision's term times ``weights``, if
    given: ``kind_weights``); returns the accuracy of each epoch."""
    obs, mask, act = demos
    n = len(act)
    accs = []
    for _ in range(epochs):
        perm = torch.randperm(n)
        hit = 0
        for s in range(0, n, batch_size):
            idx = perm[s:s + batch_size]
            logits = agent.masked_logits({k: x[idx] for k, x in obs.items()}, mask[idx])
            if weights is None:
                loss = nn.functional.cross_entropy(logits, act[idx])
            else:
                loss = (nn.functional.cross_entropy(logits, act[idx], reduction="none") * weights[idx]).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            hit += int((logits.argmax(1) == act[idx]).sum())
        accs.append(hit / n)
    return accs
