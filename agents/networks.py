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
"""
from __future__ import annotations

import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn


class EntityExtractor(BaseFeaturesExtractor):
    """Entity observation -> ``features_dim`` features (module docstring)."""

    def __init__(self, observation_space: spaces.Dict, features_dim: int = 256, fighter_dim: int = 64,
                 board_channels: int = 16):
        super().__init__(observation_space, features_dim)
        nf, ff = observation_space["fighters"].shape
        c = observation_space["board"].shape[0]
        ng = observation_space["globals"].shape[0]
        self.fighter = nn.Sequential(nn.Linear(ff, fighter_dim), nn.ReLU(), nn.Linear(fighter_dim, fighter_dim),
                                     nn.ReLU())
        self.board = nn.Sequential(
            nn.Conv2d(c, board_channels, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(board_channels, board_channels, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(4), nn.Flatten())
        n_in = nf * fighter_dim + fighter_dim + board_channels * 16 + ng
        self.out = nn.Sequential(nn.Linear(n_in, features_dim), nn.ReLU())

    def forward(self, obs: dict[str, torch.Tensor]) -> torch.Tensor:
        f = self.fighter(obs["fighters"])  # [B, NF, fighter_dim]
        x = torch.cat([f.flatten(1), f.max(1).values, self.board(obs["board"]), obs["globals"]], 1)
        return self.out(x)


EXTRACTORS = {"entity": EntityExtractor}
