"""firefight_v0's compiled encoders (necro_env/rulesets/firefight/encode_kernel.py) against the numpy encoder they
replaced on 2026-12-02 (written in commit 74ce2e0), kept below as the reference: the same observations bit for bit
on the default board, a generated board, a generated board with heights and a game of casters, for both players at
every decision of random legal games, and on values past their normalisation's end; observations that belong to
the caller (new arrays, never a view of the game or of a buffer the next call reuses); observers other than 0 and
1 refused.

The reference reads the feature tables from encode.py (their one definition) and computes each column as that
encoder did, with numpy over the whole state.
"""
from __future__ import annotations

import numpy as np
import pytest

from necro_env.rulesets.firefight import encode as E
from necro_env.rulesets.firefight.codec import N_SPELLS
from necro_env.rulesets.firefight.constants import (
    ACTION_NAMES, MAX_OBJ, OBJ_RANGE_IN, RULE_NAMES, TF_BLOCKS_SIGHT, TF_COVER, TF_DANGEROUS, TF_DIFFICULT,
    TF_IMPASSABLE, UNIT_STATE_NAMES,
)
from necro_env.rulesets.firefight.game_config import GameConfig
from necro_env.rulesets.firefight.state import (
    G_ACTIVE, G_ATTACKER, G_CAST_SPELL, G_CAST_TARGET, G_CTARGET, G_DEFENDER, G_DK, G_DONE, G_DPLAYER, G_FINISHED,
    G_FIRST, G_MOVED_FIFTHS, G_NOBJ, G_OBJ_PLACED, G_PHASE, G_PUSHED, G_ROLLOFF, G_ROUND, G_ROUND_LIMIT, G_SCORE0,
    G_SCORE1, G_TURN, G_ZONE0, M_ALIVE, M_WOUNDS, M_X, M_Y, M_Z, N_DK, O_ON, O_OWNER, O_X, O_Y, U_ACTION,
    U_ACTIVATED, U_ARRIVED, U_CASTER, U_CHARGED, U_DEFENSE, U_FATIGUED, U_FEAR, U_IMPACT, U_N, U_POINTS, U_QUALITY,
    U_RQUALITY, U_RULES, U_SHAKEN, U_SIZE, U_STATE, U_STRUCK, U_TOKENS, U_TOUGH, W_AP, W_ATTACKS, W_COUNT, W_ID,
    W_RANGE,
)

F32 = np.float32
HEIGHT_SCALE = E.HEIGHT_SCALE


# --------------------------------------------------------------------------- the numpy reference (74ce2e0)
def _clip(a):
    return np.clip(a, 0.0, 1.0).astype(F32)


def _order(game, player):
    mu = game.max_units
    return np.r_[player * mu:(player + 1) * mu, (1 - player) * mu:(2 - player) * mu]


def _one_hot(values, n):
    return np.asarray(values)[:, None] == np.arange(n)


def _centroids(game, m):
    alive = m[:, :, M_ALIVE] > 0
    n = np.maximum(alive.sum(1), 1)
    x = (m[:, :, M_X] * alive).sum(1) / n / max(game.dims.width - 1, 1)
    y = (m[:, :, M_Y] * alive).sum(1) / n / max(game.dims.height - 1, 1)
    return x, y


def _weapons(w):
    used = w[:, :, W_ID] >= 0
    att = w[:, :, W_ATTACKS] * w[:, :, W_COUNT] * used
    ranged = w[:, :, W_RANGE] > 0
    return ((att * ranged).sum(1) / 40, (att * ~ranged).sum(1) / 40, (w[:, :, W_RANGE] * used).max(1) / 36,
            (w[:, :, W_AP] * used).max(1) / 4)


def ref_units(game, player):
    order = _order(game, player)
    s, g = game.state, game.state.g[0]
    u, m, w = s.u[0, order], s.m[0, order], s.w[0, order]
    present = u[:, U_STATE] > 0
    size = np.maximum(u[:, U_SIZE], 1)
    marks = [g[k] for k in (G_ACTIVE, G_CTARGET, G_ATTACKER, G_DEFENDER, G_PUSHED)]
    marks.append(g[G_CAST_TARGET] if g[G_CAST_SPELL] >= 0 else -1)
    x, y = _centroids(game, m)
    blocks = [np.stack([present, present & (np.arange(len(order)) < game.max_units)], 1),
              _one_hot(u[:, U_STATE] - 1, len(UNIT_STATE_NAMES) - 1),
              u[:, [U_N]] / size[:, None], u[:, [U_SIZE]] / 20, (7 - u[:, [U_QUALITY, U_RQUALITY, U_DEFENSE]]) / 6,
              u[:, [U_TOUGH]] / 12, u[:, [U_IMPACT, U_CASTER, U_FEAR, U_TOKENS]] / 6,
              u[:, [U_SHAKEN, U_FATIGUED, U_ACTIVATED, U_CHARGED, U_STRUCK]], u[:, [U_ARRIVED]] > 0,
              _one_hot(u[:, U_ACTION], len(ACTION_NAMES)), order[:, None] == np.asarray(marks)[None, :],
              np.stack([u[:, U_POINTS] / 400, x, y, *_weapons(w)], 1),
              (u[:, U_RULES, None] >> np.arange(len(RULE_NAMES))) & 1]
    out = _clip(np.concatenate([np.asarray(b, np.float64) for b in blocks], axis=1))
    out[~present] = 0
    assert out.shape[1] == len(E.UNIT_FEATURES)
    return out


def _near_objective(game, mx, my):
    o = game.state.obj[0]
    placed = o[o[:, O_ON] > 0]
    if not len(placed):
        return np.zeros(mx.shape, bool)
    dx = mx[..., None] - placed[:, O_X]
    dy = my[..., None] - placed[:, O_Y]
    return ((dx * dx + dy * dy) <= (OBJ_RANGE_IN + 1) ** 2).any(-1)


def ref_models(game, player):
    order = _order(game, player)
    s = game.state
    m = s.m[0, order].astype(np.int64)
    alive = m[:, :, M_ALIVE] > 0
    mx, my = m[:, :, M_X], m[:, :, M_Y]
    flags = game.static.flags[np.clip(my, 0, game.dims.height - 1), np.clip(mx, 0, game.dims.width - 1)]
    tough = np.maximum(s.u[0, order, U_TOUGH], 1)[:, None]
    slot = np.arange(m.shape[1])[None, :]
    last = alive & (slot == np.where(alive, slot, -1).max(1, keepdims=True))
    own = np.broadcast_to((np.arange(len(order)) < game.max_units)[:, None], alive.shape)
    cols = [alive, own, mx / max(game.dims.width - 1, 1), my / max(game.dims.height - 1, 1),
            m[:, :, M_Z] / HEIGHT_SCALE,
            m[:, :, M_WOUNDS] / tough, last, (flags & TF_COVER) > 0, (flags & TF_DIFFICULT) > 0,
            (flags & TF_DANGEROUS) > 0, _near_objective(game, mx, my)]
    out = np.stack([np.asarray(c, np.float64) for c in cols], axis=-1)
    out = _clip(out.reshape(-1, len(E.MODEL_FEATURES)))
    out[~alive.reshape(-1)] = 0
    return out


def ref_globals(game, player):
    g = game.state.g[0]
    me, foe = (G_SCORE0, G_SCORE1) if player == 0 else (G_SCORE1, G_SCORE0)
    live = not g[G_DONE]
    mid = [g[G_DPLAYER] == player and live, g[G_TURN] == player, g[G_FIRST] == player, g[G_ROLLOFF] == player,
           g[me] / MAX_OBJ, g[foe] / MAX_OBJ, g[G_NOBJ] / MAX_OBJ, g[G_OBJ_PLACED] / MAX_OBJ,
           g[G_FINISHED] == player, g[G_FINISHED] == 1 - player, g[G_MOVED_FIFTHS] / 60]
    parts = [[g[G_ROUND] / max(g[G_ROUND_LIMIT], 1), g[G_ROUND_LIMIT] / 10], _one_hot([g[G_PHASE]], len(E.PHASES))[0],
             _one_hot([g[G_DK]], N_DK)[0] & live, mid, _one_hot([g[G_CAST_SPELL]], N_SPELLS)[0], [g[G_DONE]]]
    out = _clip(np.concatenate([np.asarray(p, np.float64) for p in parts]))
    assert out.shape == (len(E.GLOBAL_FEATURES),)
    return out


def ref_spatial(game, player):
    d, st, g = game.dims, game.static, game.state.g[0]
    out = np.zeros((len(E.SPATIAL_PLANES), d.height, d.width), F32)
    for i, bit in enumerate((TF_COVER, TF_DIFFICULT, TF_DANGEROUS, TF_IMPASSABLE, TF_BLOCKS_SIGHT)):
        out[i] = (st.flags & bit) > 0
    out[5] = np.clip(st.height / HEIGHT_SCALE, 0, 1)
    own_zone = g[G_ZONE0] if player == 0 else 1 - g[G_ZONE0]
    out[6], out[7] = st.zone == own_zone, st.zone == 1 - own_zone
    for o in game.state.obj[0]:
        if o[O_ON]:
            out[8 + (0 if o[O_OWNER] < 0 else 1 if o[O_OWNER] == player else 2), o[O_Y], o[O_X]] = 1
    _ref_model_planes(game, player, out)
    glob = ref_globals(game, player)
    names = [f[0] for f in E.GLOBAL_FEATURES]
    ratio = (g[G_ROUND] / max(g[G_ROUND_LIMIT], 1), g[G_DPLAYER] == player and not g[G_DONE],
             max(g[G_DK], 0) / (N_DK - 1), glob[names.index("own_score")], glob[names.index("enemy_score")])
    out[21:] = np.asarray(ratio, F32)[:, None, None]
    return np.clip(out, 0, 1)


def _ref_model_planes(game, player, out):
    s, g = game.state, game.state.g[0]
    marked = {int(g[G_CTARGET]), int(g[G_DEFENDER]), int(g[G_CAST_TARGET]) if g[G_CAST_SPELL] >= 0 else -1}
    for u in np.flatnonzero(s.u[0, :, U_N] > 0):
        rows = s.m[0, u]
        rows = rows[rows[:, M_ALIVE] > 0]
        ys, xs = rows[:, M_Y], rows[:, M_X]
        side = 0 if u // game.max_units == player else 1
        out[11 + side, ys, xs] = 1
        out[13 + side, ys, xs] = rows[:, M_WOUNDS] / max(int(s.u[0, u, U_TOUGH]), 1)
        out[15 + side, ys, xs] = s.u[0, u, U_SHAKEN]
        out[17 + side, ys, xs] = s.u[0, u, U_ACTIVATED]
        out[19, ys, xs] = u == g[G_ACTIVE]
        out[20, ys, xs] = u in marked


# --------------------------------------------------------------------------- helpers
BOARDS = {"default": {}, "generated": {"board": "generate:7"}, "heights": {"board": "generate:3", "heights": True}}


def decisions(config: GameConfig, games: int, seed: int):
    """Every decision of ``games`` random legal games (and each final position), the same game object stepped on."""
    game, rng = config.build(), np.random.default_rng(seed)
    for k in range(games):
        game.reset(seed=seed + k)
        while not game.done:
            yield game
            game.step(int(rng.choice(np.flatnonzero(game.mask[0]))))
        yield game


def casting_decisions(seed: int):
    """A random game of two casters with tokens and their squads, one of them arrived by Ambush (the rows and
    globals of spells, tokens and arrivals, which the starter lists' games seldom or never reach)."""
    from necro_env.rulesets.firefight.testing import board, scenario, unit

    game = scenario(board("\n".join(["." * 30] * 30)),
                    [unit("human_defense_force", "commander", cells=[(5, 5)], rules={"Caster": 2}),
                     unit("human_defense_force", "infantry_squad", cells=[(10, 5), (11, 5), (12, 5)])],
                    [unit("orc_marauders", "warlord", cells=[(5, 20)], rules={"Caster": 2}),
                     unit("orc_marauders", "orc_boyz", cells=[(12, 20), (13, 20), (14, 20)])], seed=seed)
    game.set_unit((0, 0), tokens=2).set_unit((1, 0), tokens=2).set_unit((1, 1), arrived=1)
    rng = np.random.default_rng(seed)
    while not game.done:
        yield game
        game.step(int(rng.choice(np.flatnonzero(game.mask[0]))))
    yield game


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


# --------------------------------------------------------------------------- tests
def assert_same_as_reference(game, where):
    """Both players' entity, flat and spatial observations of ``game`` equal the reference's bit for bit."""
    for player in (0, 1):
        ref = {"units": ref_units(game, player), "models": ref_models(game, player),
               "globals": ref_globals(game, player)}
        ent = E.EntityEncoder().encode(game, player)
        assert all(same_bits(ent[k], ref[k]) for k in ref), (where, player, game.decision)
        assert same_bits(E.FlatEncoder().encode(game, player), np.concatenate([ref[k].reshape(-1) for k in ref]))
        assert same_bits(E.SpatialEncoder().encode(game, player), ref_spatial(game, player)), (where, player)


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_ff_compiled_encoders_equal_the_numpy_reference_bit_for_bit(board):
    seen = {"decisions": 0, "wounds": 0, "heights": 0, "rounds": 0}
    for game in decisions(GameConfig(**BOARDS[board]), games=4, seed=11):
        seen["decisions"] += 1
        m = game.state.m[0]
        seen["wounds"] += int((m[:, :, M_WOUNDS] > 0).any())
        seen["heights"] += int((m[:, :, M_Z] * m[:, :, M_ALIVE] > 0).any())
        seen["rounds"] = max(seen["rounds"], int(game.state.g[0, G_ROUND]))
        assert_same_as_reference(game, board)
    # the games went through the rounds with wounds on the table; on the default board's ruins models stood above
    # the ground (random play seldom climbs a generated platform, whose heights the spatial planes show)
    assert seen["decisions"] > 100 and seen["rounds"] >= 2 and seen["wounds"] > 0, seen
    assert seen["heights"] > 0 or board != "default", seen
    assert (game.static.height > 0).any()


def test_ff_compiled_encoders_equal_the_reference_while_spells_are_cast():
    seen = {"cast": 0, "help": 0, "arrived": 0}
    for seed in range(3):
        for game in casting_decisions(seed):
            g, u = game.state.g[0], game.state.u[0]
            seen["cast"] += int(g[G_CAST_SPELL] >= 0)
            seen["help"] += int(game.decision[0] == "help_cast")
            seen["arrived"] += int((u[:, U_ARRIVED] > 0).any())
            assert_same_as_reference(game, ("casting", seed))
    assert min(seen.values()) > 0, seen


def test_ff_compiled_encoders_equal_the_reference_on_values_out_of_range():
    """Values past their normalisation's end are clipped as the reference clips them; a finished game shows no
    pending decision even if the state still names one."""
    game = next(g for i, g in enumerate(decisions(GameConfig(), games=1, seed=3)) if i == 60).clone()
    s = game.state
    on = np.flatnonzero(s.u[0, :, U_N] > 0)
    s.u[0, on[0], [U_TOKENS, U_POINTS, U_TOUGH, U_SIZE]] = (9, 500, 0, 30)
    alive = np.flatnonzero(s.m[0, on[1], :, M_ALIVE])
    s.m[0, on[1], alive[-1], [M_WOUNDS, M_Z]] = (7, 40)
    s.m[0, on[1], alive[0], M_Z] = -3
    s.g[0, G_MOVED_FIFTHS] = 99
    assert_same_as_reference(game, "clipped")
    s.g[0, G_DONE], s.g[0, G_DK] = 1, 7
    assert_same_as_reference(game, "done")


def _arrays(obs):
    return list(obs.values()) if isinstance(obs, dict) else [obs]


def test_ff_observations_belong_to_the_caller():
    """An observation is new memory: no view of the state, the board, the mask or the scratch, not written by the
    next encode, and not changed by the game stepping on."""
    game = next(g for i, g in enumerate(decisions(GameConfig(), games=1, seed=5)) if i == 40)
    shared = [x for x in (*game.state, *game.static, *game.scratch, game.mask) if isinstance(x, np.ndarray)]
    rng = np.random.default_rng(5)
    for name, cls in E.ENCODERS.items():
        enc = cls()
        first = [_arrays(enc.encode(game, p)) for p in (0, 1)]
        kept = [[a.copy() for a in obs] for obs in first]
        assert not any(np.shares_memory(a, x) for obs in first for a in obs for x in shared), name
        again = [_arrays(enc.encode(game, p)) for p in (0, 1)]
        assert not any(np.shares_memory(a, b) for o1 in first for o2 in again for a in o1 for b in o2), name
        for a in again[0]:
            a[...] = 1  # the caller may write into its observation
        for _ in range(20):
            game.step(int(rng.choice(np.flatnonzero(game.mask[0]))))
        later = [_arrays(enc.encode(game, p)) for p in (0, 1)]
        assert all(same_bits(a, b) for obs, copies in zip(first, kept) for a, b in zip(obs, copies)), name
        # the game did move on: the same call now says something else
        assert not all(same_bits(a, b) for obs, copies in zip(later, kept) for a, b in zip(obs, copies)), name


@pytest.mark.parametrize("player", [2, -1, True, 0.0, "0", None])
def test_ff_encoders_refuse_a_player_that_is_not_a_side(player):
    game = next(decisions(GameConfig(), games=1, seed=1))
    before = [a.copy() for a in game.state]
    for name, cls in E.ENCODERS.items():
        with pytest.raises(ValueError, match=r"player=.*; allowed: 0 or 1"):
            cls().encode(game, player)
    assert all(np.array_equal(a, b) for a, b in zip(game.state, before))
