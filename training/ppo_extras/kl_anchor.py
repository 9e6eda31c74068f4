"""The KL anchor: ``--kl-coef C`` adds C x KL(anchor || current) over the legal actions of each PPO
minibatch, the anchor being a frozen copy of the network PPO starts from: the cloned network of a
warm start (``--bc-decisions N``, training/ppo_extras/bc.py) or the ``--init`` network. PPO then
improves on the demonstrator instead of drifting away from it.
"""
from __future__ import annotations

import copy

import torch


def check_args(args) -> None:
    """The anchor is the network PPO starts from: without a warm start or ``--init`` there is none."""
    if args.kl_coef and not (args.bc_decisions or args.init):
        raise SystemExit("--kl-coef needs a warm start or an initial network to anchor to (--bc-decisions N, --init)")


def frozen(agent):
    """The anchor: a copy of ``agent`` that PPO does not train."""
    return copy.deepcopy(agent).eval()


def kl_loss(anchor, obs, mask, logp_all):
    """KL(anchor || current) over the legal actions, the mean over the minibatch; ``logp_all`` is the
    current policy's log-probabilities of every action (``FastNetwork.act_full``)."""
    with torch.no_grad():
        p_ref = torch.softmax(anchor.masked_logits(obs, mask), 1)
    return (p_ref * (torch.log(p_ref.clamp_min(1e-12)) - logp_all)).sum(1).mean()
