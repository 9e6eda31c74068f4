"""The network of ``training/ppo_fast.py`` and its file format, as an agent that plays it.

``FastNetwork``: fighter rows -> shared MLP -> mean and max pool; board planes -> small CNN;
globals; a trunk, then masked policy logits over the flat action space (one linear layer, or
``agents.pointer_head``'s factored head) and a value. ``MaskView`` lays the legal-action mask out
as inputs (``--mask-features``); ``observation_space`` is what the network reads (the ``entity``
observation, plus the ``tactical`` encoder's rows and planes). ``save_network`` / ``load_network``
are ``ppo_fast --save``'s file (weights, network flags, env metadata), and ``GreedyAgent`` plays a
network through the ``agents.Agent`` interface (``necro-eval`` plays ``.pt`` files with it). The
trainer lives in training/ppo_fast.py; this module is what playing a trained network needs.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

from .base import Agent
from .checkpoint import CheckpointMismatch, unpickling_reason


class MaskView(nn.Module):
    """The legal-action mask as network inputs (``--mask-features``), laid out like the entity
    observation: for each fighter row (row r is relative target r, ``necro_env.envs.encoders``),
    whether each fighter-indexed action kind is legal on it (Charge, Fight, Coup de Grace, Shoot
    or Blind Fire with any weapon profile, ...); for each cell, whether each cell-indexed kind is
    (Move, Take Cover, Crawl, Retreat, a Blast point with any item, ...); and the other kinds'
    bits (End, facings, Aim, Reload, doors, caskets, ...). No parameters: index tables built
    from the game's action layout (``codec.KINDS``)."""

    def __init__(self, game):
        super().__init__()
        from necro_env.rulesets.necromunda.codec import (
            KINDS, P_CELL, P_FIGHTER, P_TARGET, P_WEAPON_CELL, P_WEAPON_TARGET,
        )
        d, lay, off = game.dims, game.layout, game.n_actions  # index ``off``: a column always False
        nf, hw, items = d.n_fighters, d.height * d.width, np.arange(d.max_weapons * 2)
        rows, cells, flat = [], [], []
        for k, (_, pk) in enumerate(KINDS):
            base = int(lay[k])
            if pk == P_TARGET:
                rows.append(base + np.arange(nf)[:, None])
            elif pk == P_FIGHTER:  # own fighter slots: the first rows
                rows.append(np.where(np.arange(nf) < d.max_fighters, base + np.arange(nf), off)[:, None])
            elif pk == P_WEAPON_TARGET:
                rows.append(base + items[None, :] * nf + np.arange(nf)[:, None])
            elif pk == P_CELL:
                cells.append(base + np.arange(hw)[:, None])
            elif pk == P_WEAPON_CELL:
                cells.append(base + np.arange(d.max_weapons)[None, :] * hw + np.arange(hw)[:, None])
            else:
                flat.extend(range(base, int(lay[k + 1])))

        def stack(tabs):  # [K, n, widest], padded with the always-False column
            wmax = max(t.shape[1] for t in tabs)
            return torch.from_numpy(np.stack([np.pad(t, ((0, 0), (0, wmax - t.shape[1])), constant_values=off)
                                              for t in tabs]).astype(np.int64))
        self.register_buffer("rows", stack(rows), persistent=False)
        self.register_buffer("cells", stack(cells), persistent=False)
        self.register_buffer("flat", torch.tensor(flat, dtype=torch.int64), persistent=False)
        self.hw = (d.height, d.width)
        self.sizes = (len(rows), len(cells), len(flat))

    def forward(self, mask):
        """mask [B, n_actions] bool -> (rows [B, NF, K_r], planes [B, K_c, H, W], flat [B, K_f]) float."""
        m = torch.cat([mask, mask.new_zeros(mask.shape[0], 1)], 1)
        rows = m[:, self.rows].any(-1).transpose(1, 2).float()
        planes = m[:, self.cells].any(-1).float().reshape(mask.shape[0], -1, *self.hw)
        return rows, planes, m[:, self.flat].float()


def observation_space(game, rows=False, planes=False):
    """The network's inputs: the ``entity`` Dict, plus the ``tactical`` encoder's rows and / or
    planes (``--tactical-features`` / ``--tactical-planes``)."""
    from gymnasium import spaces

    from necro_env.envs.encoders import TacticalEncoder

    full = TacticalEncoder().space(game).spaces
    keys = ["fighters", "board", "globals"] + (["tactical"] if rows else []) + (["tactical_planes"] if planes else [])
    return spaces.Dict({k: full[k] for k in keys})


class FastNetwork(nn.Module):
    """Fighter rows -> shared MLP -> mean and max pool; board planes -> small CNN; globals;
    a trunk, then masked policy logits over the flat action space and a value. With a
    ``MaskView`` the mask's rows, planes and bits are inputs too. The plain head is one linear
    layer over the trunk; with ``pointer=(layout, dims)`` it is ``agents.pointer_head``'s
    factored head (each fighter row and each cell scored by a shared network)."""

    def __init__(self, obs_space, n_actions, hidden=256, mask_view=None, pointer=None):
        super().__init__()
        nf, ff = obs_space["fighters"].shape
        c = obs_space["board"].shape[0]
        ng = obs_space["globals"].shape[0]
        self.mask_view = mask_view
        self.tactical = "tactical" in obs_space.spaces
        self.tactical_planes = "tactical_planes" in obs_space.spaces
        if self.tactical:
            ff += obs_space["tactical"].shape[1]
        if self.tactical_planes:
            c += obs_space["tactical_planes"].shape[0]
        if mask_view is not None:
            ff, c, ng = ff + mask_view.sizes[0], c + mask_view.sizes[1], ng + mask_view.sizes[2]
        self.fighter = nn.Sequential(nn.Linear(ff, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.board = nn.Sequential(nn.Conv2d(c, 16, 3, stride=2, padding=1), nn.ReLU(),
                                   nn.Conv2d(16, 16, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4),
                                   nn.Flatten())
        self.trunk = nn.Sequential(nn.Linear(nf * 64 + 64 + 16 * 16 + ng, hidden), nn.ReLU(),
                                   nn.Linear(hidden, hidden), nn.ReLU())
        self.pointer = None
        # ``v`` is created after the policy head in both branches: the plain head's parameters are
        # drawn in the same order as before the pointer head existed (same seed, same network)
        if pointer is not None:
            from .pointer_head import PointerHead

            self.pointer = PointerHead(*pointer, hidden, 64, c)
            self.v = nn.Linear(hidden, 1)
        else:
            self.pi = nn.Linear(hidden, n_actions)
            self.v = nn.Linear(hidden, 1)
            nn.init.orthogonal_(self.pi.weight, 0.01)
            nn.init.zeros_(self.pi.bias)

    def encode(self, obs, mask):
        """(trunk vector z, fighter-row embeddings, board input planes)."""
        fo, bo, go = obs["fighters"], obs["board"], obs["globals"]
        if self.tactical:
            fo = torch.cat([fo, obs["tactical"]], 2)
        if self.tactical_planes:
            bo = torch.cat([bo, obs["tactical_planes"]], 1)
        if self.mask_view is not None:
            r, p, fl = self.mask_view(mask)
            fo, bo, go = torch.cat([fo, r], 2), torch.cat([bo, p], 1), torch.cat([go, fl], 1)
        f = self.fighter(fo)  # [B, NF, 64]
        x = torch.cat([f.flatten(1), f.max(1).values, self.board(bo), go], 1)
        return self.trunk(x), f, bo

    def value(self, obs, mask):
        return self.v(self.encode(obs, mask)[0]).squeeze(-1)

    def act(self, obs, mask, action=None):
        return self.act_full(obs, mask, action)[:4]

    def masked_logits(self, obs, mask, enc=None):
        """Policy logits with the illegal actions at -1e9 (``enc``: ``encode``'s output, if computed)."""
        z, f, bo = self.encode(obs, mask) if enc is None else enc
        logits = self.pi(z) if self.pointer is None else self.pointer(z, f, bo, obs["fighters"])
        return logits.masked_fill(~mask, -1e9)

    def act_full(self, obs, mask, action=None):
        """(action, its log-probability, entropy, value, log-probabilities of every action)."""
        enc = self.encode(obs, mask)
        logits = self.masked_logits(obs, mask, enc)
        dist = Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.v(enc[0]).squeeze(-1), dist.logits


NETWORK_FORMAT = "necro_env.ppo_fast/1"
NETWORK_FLAGS = ("hidden", "pointer_head", "tactical_features", "tactical_planes", "mask_features")


def input_encoder(flags) -> str:
    """The encoder whose metadata a network's file records: ``tactical`` when it takes the tactical
    rows or planes (so the fingerprint of their column and plane tables is checked on loading),
    else ``entity``."""
    return "tactical" if flags["tactical_features"] or flags["tactical_planes"] else "entity"


def save_network(agent, path, game, args):
    """``--save``: the state dict with what rebuilding and checking the network needs: the
    network flags and the env metadata of ``agents.checkpoint`` (env version, encoder, board, action
    layout), so ``load_network`` and ``necro-eval`` can play it and refuse another game's file."""
    from .checkpoint import env_metadata

    flags = {k: getattr(args, k) for k in NETWORK_FLAGS}
    torch.save({"format": NETWORK_FORMAT, "network": flags, "env": env_metadata(game, input_encoder(flags)),
                "state_dict": agent.state_dict()}, path)


def _read_network(path, what):
    """(state dict, network flags or None, env metadata or None) of a ``--save`` file: the current
    format, or a bare state dict (files saved before the format existed). A missing, unreadable or
    damaged file raises ``CheckpointMismatch`` (``what`` and the path begin its message)."""
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except FileNotFoundError:
        raise CheckpointMismatch(f"{what} {path}: no such file") from None
    except Exception as e:  # noqa: BLE001 - any unpickling failure (torch's refusal of a non-weights global
        # included: nothing in the file runs) means the same to the user, said in one line
        raise CheckpointMismatch(f"{what} {path}: not a ppo_fast network ({unpickling_reason(e)})") from None
    if not isinstance(data, dict):
        raise CheckpointMismatch(f"{what} {path}: not a ppo_fast network (a {type(data).__name__}, "
                                 f"not a state dict)")
    if data.get("format") == NETWORK_FORMAT:
        missing = [k for k in ("state_dict", "network", "env") if not isinstance(data.get(k), dict)]
        missing += [f"network.{k}" for k in NETWORK_FLAGS if k not in data.get("network", {})]
        if missing:
            raise CheckpointMismatch(f"{what} {path}: a damaged ppo_fast network file "
                                     f"(missing {', '.join(missing)})")
        return data["state_dict"], data["network"], data["env"]
    if "format" in data:
        raise CheckpointMismatch(f"{what} {path}: format {data['format']!r}, expected {NETWORK_FORMAT!r}")
    return data, None, None


def load_init(agent, path, what="--init"):
    """Load a network saved by ``--save`` into ``agent`` (``--init``); a missing, corrupt or
    mismatched file raises ``CheckpointMismatch`` saying what differs (the command line turns it
    into its one-line error)."""
    state, _, _ = _read_network(path, what)
    mine = agent.state_dict()
    diffs = [f"missing {k}" for k in mine if k not in state] + [f"unexpected {k}" for k in state if k not in mine]
    diffs += [f"{k}: {tuple(state[k].shape)} in the file, {tuple(v.shape)} here" for k, v in mine.items()
              if k in state and getattr(state[k], "shape", None) != v.shape]
    if diffs:
        shown = "; ".join(diffs[:6]) + (f"; ... ({len(diffs)} differences)" if len(diffs) > 6 else "")
        raise CheckpointMismatch(f"{what} {path}: the network differs from this run's ({shown}); --hidden, "
                                 f"--pointer-head, --tactical-features, --tactical-planes, --mask-features and the "
                                 f"scenario must match the run that saved it")
    agent.load_state_dict(state)


def load_network(path, game):
    """A ``GreedyAgent`` playing the network of a ``--save`` file on ``game`` (``necro-eval`` calls this
    for ``.pt`` specs). The file must carry its flags and env metadata (written by --save since 2026-11-25); a
    file for another game (board, gangs, env version, action layout) is refused naming what differs:
    every refusal (a missing, corrupt, bare or mismatched file) raises ``CheckpointMismatch``, as a
    refused MaskablePPO checkpoint does."""
    from .checkpoint import check_compatible

    _, flags, env = _read_network(path, "network")
    if flags is None:
        raise CheckpointMismatch(f"network {path}: a bare state dict without its network flags (saved before "
                                 f"2026-11-25); continue it with --init and --save it again to play it here")
    check_compatible(env, game, input_encoder(flags), where=f"network {path}")
    net = FastNetwork(observation_space(game, flags["tactical_features"], flags["tactical_planes"]), game.n_actions,
                      flags["hidden"],
                      MaskView(game) if flags["mask_features"] else None,
                      (game.layout, game.dims) if flags["pointer_head"] else None)
    load_init(net, path, "network")
    agent = GreedyAgent(net)
    agent.name = Path(path).stem
    return agent


class GreedyAgent(Agent):
    """The trained network as an ``agents.Agent`` (argmax of the masked logits) for paired games."""

    name = "ppo_fast"
    encoder = "entity"

    def __init__(self, net):
        self.net = net.eval()

    def act(self, obs, mask, game=None):
        if self.net.tactical or self.net.tactical_planes:  # the single game's, from the deciding gang's side
            from necro_env.batch.tactical import tactical_obs

            if game is None:
                raise ValueError("a network trained with --tactical-features or --tactical-planes needs the Game: "
                                 "act(obs, mask, game=game)")
            extra = tactical_obs(game, game.current_gang)
            obs = dict(obs)
            if self.net.tactical:
                obs["tactical"] = extra["tactical"]
            if self.net.tactical_planes:
                obs["tactical_planes"] = extra["tactical_planes"]
        with torch.no_grad():
            o = {k: torch.from_numpy(np.asarray(v))[None] for k, v in obs.items()}
            m = torch.from_numpy(np.asarray(mask, bool))[None]
            return int(self.net.masked_logits(o, m)[0].argmax())
