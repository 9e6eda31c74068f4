"""A factored ("pointer") policy head over the flat Necromunda action space (``ppo_fast --pointer-head``;
as a MaskablePPO policy, ``agents.networks.PointerPolicy``).

The flat space (``necro_env.rulesets.necromunda.codec``) is a concatenation of ranges, one per action
kind, each indexed by the kind's parameter. The plain head is one linear layer over a pooled vector:
it learns a separate weight per fighter slot and per cell, so "activate the fighter nearest the enemy"
(an argmin over rows) is out of its reach even when the distance is an input (docs/results.md,
``--bc-report``). This head scores every parameter with a network shared across parameters:

- fighter-indexed kinds score each fighter row with one MLP of the row's embedding and the trunk's
  vector, one output channel per (kind, weapon profile): Select and Group (own slot j is row j),
  Charge, Fight, Coup de Grace, ... (relative target r is row r: the encoders put the observer's
  fighters first, as the codec does), Shoot, Fire Ductway and Blind Fire (weapon profile w x target r);
- cell-indexed kinds score each cell from a full-resolution convolutional map of the board planes,
  the fighter embeddings placed on their cells and the trunk's vector (dilated 3x3 convolutions:
  a 15 x 15 receptive field), one output channel per (kind, weapon item): Move, Take Cover, Crawl,
  Retreat, Consolidate, ... and Shoot at a point (item x cell);
- the other kinds (End, Turn, Aim, Reload, doors, caskets, ...) come from a linear layer over the trunk.

The pieces are concatenated and gathered once by an index built from the layout, so the output is
the same flat ``[B, A]`` logits as the plain head's and the mask, PPO and cloning are unchanged.
"""
import numpy as np
import torch
from torch import nn

from necro_env.envs.encoders import FIGHTER_BASE_FEATURES
from necro_env.rulesets.necromunda.codec import (
    KINDS, P_CELL, P_FIGHTER, P_TARGET, P_WEAPON_CELL, P_WEAPON_TARGET,
)

_COLUMNS = [name for name, _, _ in FIGHTER_BASE_FEATURES]
COL_ON_BOARD, COL_X, COL_Y = _COLUMNS.index("on_board"), _COLUMNS.index("x"), _COLUMNS.index("y")


def head_index(layout, dims):
    """(index, n_linear, n_row_channels, n_cell_channels): ``index[a]`` is the position of action
    ``a``'s logit in ``cat([linear [n_linear], rows [NF, n_row], cells [n_cell, H, W]])`` flattened."""
    lay = np.asarray(layout, np.int64)
    nf, hw = dims.n_fighters, dims.height * dims.width
    n_prof = dims.max_weapons * 2
    n_lin = n_row = n_cell = 0
    for k, (_, pk) in enumerate(KINDS):
        if pk in (P_FIGHTER, P_TARGET):
            n_row += 1
        elif pk == P_WEAPON_TARGET:
            n_row += n_prof
        elif pk == P_CELL:
            n_cell += 1
        elif pk == P_WEAPON_CELL:
            n_cell += dims.max_weapons
        else:
            n_lin += int(lay[k + 1] - lay[k])
    row_base, cell_base = n_lin, n_lin + nf * n_row
    index = np.empty(int(lay[-1]), np.int64)
    lin = row = cell = 0
    for k, (_, pk) in enumerate(KINDS):
        a0, a1 = int(lay[k]), int(lay[k + 1])
        off = np.arange(a1 - a0)
        if pk in (P_FIGHTER, P_TARGET):
            index[a0:a1] = row_base + off * n_row + row
            row += 1
        elif pk == P_WEAPON_TARGET:  # off = profile * NF + target (codec.encode)
            index[a0:a1] = row_base + (off % nf) * n_row + row + off // nf
            row += n_prof
        elif pk == P_CELL:
            index[a0:a1] = cell_base + cell * hw + off
            cell += 1
        elif pk == P_WEAPON_CELL:  # off = item * H * W + cell
            index[a0:a1] = cell_base + (cell + off // hw) * hw + off % hw
            cell += dims.max_weapons
        else:
            index[a0:a1] = lin + off
            lin += a1 - a0
    return index, n_lin, n_row, n_cell


class PointerHead(nn.Module):
    """Flat logits ``[B, A]`` from the trunk's vector ``z [B, hidden]``, the fighter rows' embeddings
    ``f [B, NF, row_dim]``, the board planes ``[B, C, H, W]`` and the raw fighter rows (for positions)."""

    def __init__(self, layout, dims, hidden, row_dim, board_channels, width=16):
        super().__init__()
        index, n_lin, n_row, n_cell = head_index(layout, dims)
        self.register_buffer("index", torch.from_numpy(index), persistent=False)
        self.h, self.w = dims.height, dims.width
        self.lin = nn.Linear(hidden, n_lin)
        self.row = nn.Sequential(nn.Linear(row_dim + hidden, 64), nn.ReLU(), nn.Linear(64, n_row))
        self.splat = nn.Linear(row_dim, width)
        self.conv1 = nn.Conv2d(board_channels + width, width, 3, padding=1)
        self.ctx = nn.Linear(hidden, width)
        self.conv2 = nn.Conv2d(width, width, 3, padding=2, dilation=2)
        self.conv3 = nn.Conv2d(width, width, 3, padding=4, dilation=4)
        self.cell = nn.Conv2d(width, n_cell, 1)
        for out in (self.lin, self.row[-1], self.cell):  # near-uniform initial policy, as the plain head
            nn.init.orthogonal_(out.weight, 0.01)
            nn.init.zeros_(out.bias)
        for conv in (self.conv1, self.conv2, self.conv3, self.cell):  # twice as fast on CPU (oneDNN)
            conv.to(memory_format=torch.channels_last)

    def forward(self, z, f, board, fighters):
        b, nf, _ = f.shape
        rows = self.row(torch.cat([f, z[:, None].expand(b, nf, z.shape[1])], 2))
        on = fighters[:, :, COL_ON_BOARD:COL_ON_BOARD + 1]
        cell = ((fighters[:, :, COL_Y] * self.h).round() * self.w + (fighters[:, :, COL_X] * self.w).round()).long()
        cell = cell.clamp_(0, self.h * self.w - 1)
        e = (self.splat(f) * on).transpose(1, 2)  # [B, width, NF]
        planes = torch.zeros(b, e.shape[1], self.h * self.w, dtype=e.dtype, device=e.device)
        planes.scatter_add_(2, cell[:, None, :].expand(b, e.shape[1], nf), e)
        x = torch.cat([board, planes.view(b, -1, self.h, self.w)], 1).contiguous(memory_format=torch.channels_last)
        x = torch.relu(self.conv1(x))
        x = torch.relu(self.conv2(x) + self.ctx(z)[:, :, None, None])
        x = torch.relu(self.conv3(x))
        cells = self.cell(x)
        return torch.cat([self.lin(z), rows.flatten(1), cells.flatten(1)], 1).index_select(1, self.index)
