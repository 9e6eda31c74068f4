"""DAgger after the warm start: ``--bc-dagger R`` adds R rounds after the first cloning
(training/ppo_extras/bc.py; needs ``--bc-decisions N``, not with ``--bc-winners-only``).

In each round the greedy cloned network plays ``--bc-decisions`` more learner decisions of the same
games, each labelled with the action the demonstrator would take in that state, and the network is
cloned again (``--bc-epochs``) on all decisions so far, so that it learns what to do in the states its
own mistakes lead to.
"""
from __future__ import annotations

import numpy as np
import torch

from training.ppo_extras.bc import collect_demonstrations
from training.ppo_extras.envs import to_torch


def check_args(args) -> None:
    """DAgger rounds need a warm start and label every state the network visits (not only won games)."""
    if args.bc_dagger < 0 or (args.bc_dagger and not args.bc_decisions):
        raise SystemExit(f"--bc-dagger must be >= 0 and needs a warm start (--bc-decisions N), got {args.bc_dagger}")
    if args.bc_dagger and args.bc_winners_only:
        raise SystemExit("--bc-dagger labels every state the network visits; it does not combine with "
                         "--bc-winners-only")


def rounds(cloner, env, demos, args):
    """``--bc-dagger`` rounds on ``env`` (seeds ``--seed`` + 1 + round), each logged: how often the
    network already chose the demonstrator's action, and the accuracy of cloning again on everything."""
    for r in range(args.bc_dagger):
        played, greedy = [], greedy_player(cloner.agent)

        def player(o, m):  # the greedy network plays, and what it played is kept to compare
            played.append(greedy(o, m))
            return played[-1]
        visited = collect_demonstrations(env, args.bc_demonstrator, args.bc_decisions, args.seed + 1 + r,
                                         player=player)
        agreed = float((torch.from_numpy(np.concatenate(played)) == visited[2]).float().mean())
        demos = join_demonstrations(demos, visited)
        accs = cloner.fit(demos)
        print(f"DAgger round {r + 1}: {len(visited[2])} states the cloned network reached (its choice was "
              f"{args.bc_demonstrator}'s in {agreed:.3f}); {len(demos[2])} decisions in all, accuracy "
              f"{', '.join(f'{a:.3f}' for a in accs)} ({cloner.seconds():.0f} s)", flush=True)


def greedy_player(agent):
    """(obs, mask) -> the agent's most likely legal actions, as numpy (for ``collect_demonstrations``)."""
    def play(obs, mask):
        with torch.no_grad():
            return agent.masked_logits(to_torch(obs), torch.from_numpy(mask)).argmax(1).numpy()
    return play


def join_demonstrations(a, b):
    return ({k: torch.cat([a[0][k], b[0][k]]) for k in a[0]}, torch.cat([a[1], b[1]]), torch.cat([a[2], b[2]]))
