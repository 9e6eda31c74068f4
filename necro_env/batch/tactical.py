"""Who can shoot whom: line-of-sight features of a batch of games (an experimental network input).

``tactical_all(s, st, games, side, out)`` writes, for each game b of ``games`` seen by gang
``side[b]``, one row per fighter in the entity observation's row order (row r is fighter
``perm[side][r]``: own fighters first, then the next gangs in turn; ``necro_env.envs.encoders``)
with ``N_TACTICAL`` columns:

0. the activated fighter can target this fighter with a ranged attack now (``shooting.eligible``:
   an enemy on the battlefield, in its vision arc and line of sight, not hiding; rules 7.2);
1. the cover of that target from the activated fighter (``query.cover_grade`` / 2: 0 in the open,
   0.5 partial, 1 full; 0 when not eligible);
2. the share of the other gangs' fighters (of one gang's slots) that this fighter can target;
3. the share of the other gangs' fighters that can target this fighter;
4. the path distance from this fighter to the nearest enemy (8-neighbour steps through open and
   closed doors, ``policies.heuristics.path_field``: what both heuristics move by and the gunline
   activates by), capped at ``PATH_CAP`` and divided by it.

Rows of fighters off the battlefield are 0. These are what the scripted heuristics decide with
(the gunline's expected damage needs eligibility and cover; docs/training.md) and what an
observation of board planes leaves the network to infer. ``training/ppo_fast.py
--tactical-features`` appends them to the fighter rows. About 256 eligibility tests per game.

``tactical_planes_all(s, st, games, side, mask, cell_starts, out)`` writes ``N_PLANES`` board
planes per game of ``games``, what the gunline chooses its cells by
(``policies.heuristics.score_action``):

0. the path distance from each cell to the nearest enemy of the observer (``path_field``), capped
   at ``PATH_CAP`` and divided by it, on every cell;
1. on the cells the activated fighter has a legal cell action to (Move, Take Cover, Crawl, ...:
   the kinds starting at ``cell_starts``), the Standing enemies that could see it there
   (``heuristics.exposure``), as a share of one gang's slots;
2. on those cells, the enemies it could target from there within its longest range
   (``heuristics.view_from``), as a share of one gang's slots;
3. on those cells, the best cover grade it would have against them (``view_from``: 1 in the open).

Planes 1-3 are 0 elsewhere and when no fighter is activated. ``ppo_fast --tactical-planes`` appends
them to the board planes.
"""
from __future__ import annotations

import numpy as np
from numba import prange

from .._numba_cache import leaf_njit
from ..policies.heuristics import exposure, longest_range, path_field, view_from
from ..rulesets.necromunda.query import clear_rays, cover_grade
from ..rulesets.necromunda.shooting import eligible
from ..rulesets.necromunda.state import FI_STATE, FI_X, FI_Y, FS_ON, G_ACTIVE, G_MF

# the columns and planes above, in order (agents.checkpoint fingerprints these names)
TACTICAL_FEATURES = ("target_now", "target_cover", "can_target_share", "targeted_by_share", "path_to_enemy")
TACTICAL_CHANNELS = ("path_to_enemy", "seen_by_share", "can_target_share", "best_cover")
N_TACTICAL = len(TACTICAL_FEATURES)
N_PLANES = len(TACTICAL_CHANNELS)
PATH_CAP = 30


@leaf_njit
def tactical_game(s, st, b, gang, out):
    """The rows of game b seen by ``gang`` into out[NF, N_TACTICAL] (module docstring)."""
    nf = s.fi.shape[1]
    ng = s.gang.shape[1]
    mf = nf // ng
    share = 1.0 / mf
    act = s.g[b, G_ACTIVE]
    w = st.terrain.shape[1]
    fields = np.empty((ng, st.terrain.shape[0] * w), np.int32)
    for g in range(ng):
        fields[g] = path_field(s, st, b, g)
    for r in range(nf):
        for c in range(out.shape[1]):
            out[r, c] = 0.0
    for r in range(nf):
        f = ((gang + r // mf) % ng) * mf + r % mf
        if s.fi[b, f, FI_STATE] != FS_ON:
            continue
        out[r, 4] = min(fields[f // mf, s.fi[b, f, FI_Y] * w + s.fi[b, f, FI_X]], PATH_CAP) / PATH_CAP
        if 0 <= act < nf and act != f and eligible(s, st, b, act, f, False):
            out[r, 0] = 1.0
            out[r, 1] = cover_grade(clear_rays(s, st, b, act, f, False)) / 2.0
        for f2 in range(nf):
            if f2 // mf == f // mf:
                continue
            if eligible(s, st, b, f, f2, False):
                out[r, 2] += share
            if eligible(s, st, b, f2, f, False):
                out[r, 3] += share


@leaf_njit(parallel=True)
def tactical_all(s, st, games, side, out):
    """out[i] for game games[i] seen by gang side[games[i]]."""
    for i in prange(games.shape[0]):
        b = games[i]
        tactical_game(s, st, b, side[b], out[i])


def _games(core, games) -> np.ndarray:
    """The game indices a call covers: ``games`` ([n] ints), or every game of ``core``."""
    if games is None:
        return np.arange(core.state.g.shape[0], dtype=np.int64)
    return np.ascontiguousarray(games, np.int64)


def tactical_features(core, side, games=None) -> np.ndarray:
    """[B, NF, N_TACTICAL] float32 for ``BatchedGames`` ``core`` seen by ``side`` ([B] gang indices);
    with ``games`` ([n] indices) only those games' rows, [n, NF, N_TACTICAL], in that order."""
    games = _games(core, games)
    out = np.empty((len(games), core.state.fi.shape[1], N_TACTICAL), np.float32)
    tactical_all(core.state, core.static, games, np.ascontiguousarray(side, np.int64), out)
    return out


@leaf_njit
def tactical_planes_game(s, st, b, gang, mask, cell_starts, out):
    """The planes of game b seen by ``gang`` into out[N_PLANES, H, W]; ``mask``: game b's legal
    actions (module docstring)."""
    h, w = st.terrain.shape
    mf = s.g[b, G_MF]
    field = path_field(s, st, b, gang)
    for c in range(h * w):
        out[0, c // w, c % w] = min(field[c], PATH_CAP) / PATH_CAP
        for k in range(1, out.shape[0]):
            out[k, c // w, c % w] = 0.0
    f = s.g[b, G_ACTIVE]
    if f < 0 or s.fi[b, f, FI_STATE] != FS_ON:
        return
    rng = longest_range(s, st, b, f)
    for c in range(h * w):
        legal = False
        for k0 in cell_starts:
            if mask[k0 + c]:
                legal = True
                break
        if not legal:
            continue
        x = c % w
        y = c // w
        n, best = view_from(s, st, b, f, x, y, rng)
        out[1, y, x] = exposure(s, st, b, f, x, y, False) / mf
        out[2, y, x] = n / mf
        out[3, y, x] = best


@leaf_njit(parallel=True)
def tactical_planes_all(s, st, games, side, mask, cell_starts, out):
    """out[i] for game games[i] seen by gang side[games[i]]; mask [B, A] the deciding gangs' legal actions."""
    for i in prange(games.shape[0]):
        b = games[i]
        tactical_planes_game(s, st, b, side[b], mask[b], cell_starts, out[i])


def cell_kind_starts(layout) -> np.ndarray:
    """The first flat index of every cell-parameter action kind (codec.P_CELL)."""
    from ..rulesets.necromunda.codec import KINDS, P_CELL

    return np.array([layout[k] for k, (_, pk) in enumerate(KINDS) if pk == P_CELL], np.int64)


def tactical_planes(core, side, mask, games=None) -> np.ndarray:
    """[B, N_PLANES, H, W] float32 for ``BatchedGames`` ``core`` seen by ``side`` with the legal
    actions ``mask`` ([B, A] bool); with ``games`` ([n] indices) only those games' planes, in that order."""
    h, w = core.static.terrain.shape
    games = _games(core, games)
    out = np.empty((len(games), N_PLANES, h, w), np.float32)
    tactical_planes_all(core.state, core.static, games, np.ascontiguousarray(side, np.int64), mask,
                        cell_kind_starts(core.game.layout), out)
    return out


def tactical_obs(game, gang: int) -> dict:
    """``{"tactical": [NF, N_TACTICAL], "tactical_planes": [N_PLANES, H, W]}`` of a single ``Game``
    seen by ``gang`` (the ``tactical`` encoder's extra keys). The cell planes use the game's legal
    actions when ``gang`` is deciding, none otherwise (planes 1-3 are then 0)."""
    s, st = game.state, game.static
    rows = np.empty((s.fi.shape[1], N_TACTICAL), np.float32)
    tactical_game(s, st, 0, gang, rows)
    deciding = game.current_gang == gang and not game.done
    mask = game.mask[0] if deciding else np.zeros(game.mask.shape[1], np.bool_)
    planes = np.empty((N_PLANES,) + st.terrain.shape, np.float32)
    tactical_planes_game(s, st, 0, gang, mask, cell_kind_starts(game.layout), planes)
    return {"tactical": rows, "tactical_planes": planes}
