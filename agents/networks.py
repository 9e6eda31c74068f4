"""Feature extractors for Stable-Baselines3 policies over necro_env observations.

``EntityExtractor`` reads the ``entity`` observation (``fighters [NF, F]``, ``board [C, H, W]``,
``globals [G]``; docs/api.md) the way ``training/ppo_fast.py``'s network does: one small MLP
shared by every fighter row (rows keep their order, so the policy can point at a row: the
action codec's relative target r is row r), the max over rows, a small strided CNN over the
board planes, and the globals, joined by one linear layer. SB3's default ``CombinedExtractor``
flattens the board instead (C x H x W inputs, 8,640 on the default 24 x 24 board) in front of
both the policy and the value MLP, which costs about three times the compute per sample.

Use: ``ppo: {extractor: entity}`` in a training config (training/common.new_model), or
``policy_kwargs={"features_extractor_class": EntityExtractor}``. A checkpoint saved with it
names this class, so loading it needs this module (``agents`` is installed with the project).

``PointerPolicy`` is a MaskablePPO policy with ``agents.pointer_head``'s factored head (each fighter
row and each cell scored by a shared network) in place of the linear action layer: the network of
``training/ppo_fast.py --pointer-head``. Its extractor (``PointerExtractor``) reads the ``entity`` or
``tactical`` or ``advised`` observation (the ``tactical`` rows and planes join the fighter rows and
board planes; the ``advised`` encoder's advice becomes a learned weight per heuristic on the action
that heuristic would play) and hands the trunk's vector, the row embeddings, the board planes and
the raw fighter rows (and the advice) over to the head packed in one tensor (SB3 passes one tensor
from extractor to action net). Use:
``ppo: {extractor: pointer}`` in a training config.
"""
from __future__ import annotations

from dataclasses import asdict

import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn


def row_mlp(n_in: int, dim: int) -> nn.Module:
    """The MLP shared by every fighter row: n_in -> dim -> dim, ReLU."""
    return nn.Sequential(nn.Linear(n_in, dim), nn.ReLU(), nn.Linear(dim, dim), nn.ReLU())


def board_cnn(c: int, channels: int) -> nn.Module:
    """Board planes [C, H, W] -> ``channels`` x 4 x 4 features: two strided 3x3 convolutions, pooled."""
    return nn.Sequential(
        nn.Conv2d(c, channels, 3, stride=2, padding=1), nn.ReLU(),
        nn.Conv2d(channels, channels, 3, stride=2, padding=1), nn.ReLU(),
        nn.AdaptiveAvgPool2d(4), nn.Flatten())


class EntityExtractor(BaseFeaturesExtractor):
    """Entity observation -> ``features_dim`` features (module docstring)."""

    def __init__(self, observation_space: spaces.Dict, features_dim: int = 256, fighter_dim: int = 64,
                 board_channels: int = 16):
        super().__init__(observation_space, features_dim)
        nf, ff = observation_space["fighters"].shape
        c = observation_space["board"].shape[0]
        ng = observation_space["globals"].shape[0]
        self.fighter = row_mlp(ff, fighter_dim)
        self.board = board_cnn(c, board_channels)
        n_in = nf * fighter_dim + fighter_dim + board_channels * 16 + ng
        self.out = nn.Sequential(nn.Linear(n_in, features_dim), nn.ReLU())

    def forward(self, obs: dict[str, torch.Tensor]) -> torch.Tensor:
        f = self.fighter(obs["fighters"])  # [B, NF, fighter_dim]
        x = torch.cat([f.flatten(1), f.max(1).values, self.board(obs["board"]), obs["globals"]], 1)
        return self.out(x)


class PointerExtractor(BaseFeaturesExtractor):
    """``entity`` / ``tactical`` observation -> packed ``[z | row embeddings | board planes | raw fighter
    rows]`` (``unpack`` splits it): ``agents.fast_network.FastNetwork.encode``. Fighter rows (with the ``tactical``
    columns when present) -> shared MLP; board planes (with ``tactical_planes``) -> small strided CNN;
    with the globals -> the ``trunk`` MLP, whose output z is the value's and the head's context."""

    def __init__(self, observation_space: spaces.Dict, trunk=(256, 256), fighter_dim: int = 64,
                 board_channels: int = 16):
        nf, ff_raw = observation_space["fighters"].shape
        c, h, w = observation_space["board"].shape
        ng = observation_space["globals"].shape[0]
        self.tactical = "tactical" in observation_space.spaces
        self.tactical_planes = "tactical_planes" in observation_space.spaces
        self.advice = "advice" in observation_space.spaces
        ff = ff_raw + (observation_space["tactical"].shape[1] if self.tactical else 0)
        c += observation_space["tactical_planes"].shape[0] if self.tactical_planes else 0
        trunk = list(trunk)
        self.sizes = (trunk[-1], nf * fighter_dim, c * h * w, nf * ff_raw)
        self.shapes = ((nf, fighter_dim), (c, h, w), (nf, ff_raw))
        if self.advice:  # passed through to the head, one-hot (SB3 encodes the MultiDiscrete so)
            nvec = observation_space["advice"].nvec
            self.sizes += (int(nvec.sum()),)
            self.shapes += ((len(nvec), int(nvec[0])),)
        super().__init__(observation_space, sum(self.sizes))
        self.fighter = row_mlp(ff, fighter_dim)
        self.board = board_cnn(c, board_channels)
        layers, n_in = [], nf * fighter_dim + fighter_dim + board_channels * 16 + ng
        for width in trunk:
            layers += [nn.Linear(n_in, width), nn.ReLU()]
            n_in = width
        self.trunk = nn.Sequential(*layers)

    def forward(self, obs: dict[str, torch.Tensor]) -> torch.Tensor:
        fo, bo = obs["fighters"], obs["board"]
        if self.tactical:
            fo = torch.cat([fo, obs["tactical"]], 2)
        if self.tactical_planes:
            bo = torch.cat([bo, obs["tactical_planes"]], 1)
        f = self.fighter(fo)  # [B, NF, fighter_dim]
        z = self.trunk(torch.cat([f.flatten(1), f.max(1).values, self.board(bo), obs["globals"]], 1))
        parts = [z, f.flatten(1), bo.flatten(1), obs["fighters"].flatten(1)]
        if self.advice:
            parts.append(obs["advice"])
        return torch.cat(parts, 1)

    def unpack(self, x: torch.Tensor):
        """(z [B, hidden], f [B, NF, fighter_dim], board [B, C, H, W], fighters [B, NF, F]), then with
        the ``advised`` encoder the advice one-hot [B, advisors, A + 1] (the last column: no advice)."""
        return _unpack(x, self.sizes, self.shapes)


def _unpack(x, sizes, shapes):
    z, f, bo, fo, *adv = torch.split(x, sizes, 1)
    b = x.shape[0]
    return (z, f.reshape(b, *shapes[0]), bo.reshape(b, *shapes[1]), fo.reshape(b, *shapes[2]),
            *(a.reshape(b, *shapes[3]) for a in adv))


class _PointerActions(nn.Module):
    """The action net: packed features -> flat logits by the pointer head; with advice (the ``advised``
    encoder), plus ``gate(z)[k]`` on the action advisor k advises: a learned, state-dependent weight
    per advisor, so that following a heuristic is one weight, not a function the head must learn."""

    def __init__(self, sizes, shapes, head):
        super().__init__()
        self.sizes, self.shapes = sizes, shapes
        self.head = head
        self.gate = None
        if len(sizes) > 4:
            self.gate = nn.Linear(sizes[0], shapes[3][0])
            nn.init.orthogonal_(self.gate.weight, 0.01)  # near-uniform initial policy, as the head's outputs
            nn.init.zeros_(self.gate.bias)

    def forward(self, x):
        z, f, bo, fo, *adv = _unpack(x, self.sizes, self.shapes)
        logits = self.head(z, f, bo, fo)
        if self.gate is not None:
            logits = logits + torch.einsum("bk,bka->ba", self.gate(z), adv[0][:, :, :-1])
        return logits


class _TrunkValue(nn.Module):
    """The value net: a linear layer over the trunk's vector z (the first ``hidden`` features)."""

    def __init__(self, hidden):
        super().__init__()
        self.hidden = hidden
        self.v = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.v(x[:, :self.hidden])


class PointerPolicy(MaskableMultiInputActorCriticPolicy):
    """MaskablePPO policy with the pointer head (module docstring). ``layout`` and ``dims`` are the
    game's action layout and ``codec.Dims`` (as a dict): the head's index depends on them, so they
    are saved with the checkpoint. ``net_arch`` (a list of widths) is the trunk. The weights keep
    PyTorch's default initialisation but for the head's output layers (orthogonal, gain 0.01: a
    near-uniform initial policy), as in ppo_fast."""

    def __init__(self, observation_space, action_space, lr_schedule, layout=None, dims=None, net_arch=None,
                 features_extractor_kwargs=None, **kwargs):
        from necro_env.rulesets.necromunda.codec import Dims

        if layout is None or dims is None:
            raise ValueError("PointerPolicy needs the game's action layout and dims: policy_kwargs="
                             "pointer_policy_kwargs(game)")
        self.layout = [int(x) for x in layout]
        self.dims = dict(dims) if not isinstance(dims, Dims) else asdict(dims)
        if int(self.layout[-1]) != action_space.n:
            raise ValueError(f"PointerPolicy: the layout has {self.layout[-1]} actions, the action space "
                             f"{action_space.n}")
        fek = dict(features_extractor_kwargs or {})
        if isinstance(net_arch, (list, tuple)) and net_arch:
            fek.setdefault("trunk", list(net_arch))
        kwargs.pop("features_extractor_class", None)
        super().__init__(observation_space, action_space, lr_schedule, net_arch=[],
                         features_extractor_class=PointerExtractor, features_extractor_kwargs=fek, **kwargs)

    def _build(self, lr_schedule) -> None:
        from agents.pointer_head import PointerHead
        from necro_env.rulesets.necromunda.codec import Dims

        self._build_mlp_extractor()  # net_arch [] : the identity
        fe = self.features_extractor
        hidden, (_, row_dim), (c, _, _) = fe.sizes[0], fe.shapes[0], fe.shapes[1]
        head = PointerHead(self.layout, Dims(**self.dims), hidden, row_dim, c)
        self.action_net = _PointerActions(fe.sizes, fe.shapes, head)
        self.value_net = _TrunkValue(hidden)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _get_constructor_parameters(self):
        data = super()._get_constructor_parameters()
        data.update(layout=self.layout, dims=self.dims)
        return data


def pointer_policy_kwargs(game) -> dict:
    """``policy_kwargs`` entries a PointerPolicy needs for ``game``."""
    return {"layout": [int(x) for x in game.layout], "dims": asdict(game.dims)}


EXTRACTORS = {"entity": EntityExtractor}  # "pointer" is a whole policy (PointerPolicy), not an extractor
