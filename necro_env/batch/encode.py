"""The ``entity`` observation as a numba kernel over a batch of games.

``encode_entity(s, b, gang, et, fighters, board, glob, k)`` writes the observation of game ``b``
from ``gang``'s point of view into row ``k`` of the three output buffers. Its output equals
``necro_env.envs.encoders.EntityEncoder`` exactly (tests/batch/test_encode.py checks it on many
random states). The kernel owns no feature layout of its own: ``entity_tables(game)`` reads
the column and channel positions, the static per-line-up block, the code table and the
static board planes from the Python encoder's tables, so both follow the same feature order;
a feature the kernel does not compute shows up as a mismatch in that test.

The static fighter block (characteristics, role, armour, weapon profiles, ``own`` and
``gang_rel``) is taken from the Python encoder for the game's template line-up: it is the
same for every game of a batch, which all share one template.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._numba_cache import leaf_njit
from ..core.fastcall import Pinned
from ..envs import encoders as E
from ..envs.encoders import M  # board markers: the tables reach the kernel as arguments
from ..rulesets.necromunda.state import (
    CK_STATE, CK_X, CK_Y, DR_STATE, FI_ACTS, FI_AIMED, FI_FLESH, FI_POSTURE, FI_READY, FI_STATE, FI_WOUNDS,
    FI_COND, FI_CTRL, FI_X, FI_Y, FI_Z, FS_ON, G_ACTIVE, G_DGANG, G_DK, G_DONE, G_FU, G_PRIORITY, G_ROUND, G_ROUND_LIMIT, GG_BOTTLED,
    GG_CREW, GG_ORDER, GG_OUT, GG_RETREATED, PO_SI, WP_DEAD, WP_JAMMED, WP_OOA,
)

EntityTables = namedtuple(
    "EntityTables",
    "fstatic inv_w tough inv_t perm inv code_cols code_w code_tab inv_wh planes door_x door_y door_channel "
    "dk_order fcol gcol bcol cond_bits marker_kinds marker_bcol",
)

# positions in EntityTables.fcol (fighter columns)
FC_X, FC_Y, FC_STANDING, FC_ENGAGED, FC_ACTIVE, FC_ACTIONS, FC_AIMED, FC_FOLLOWUP, FC_WOUNDS, FC_TOUGH, \
    FC_FLESH, FC_COND0, FC_CTRL, FC_NBASE, FC_NWFEAT, FC_W_OOA, FC_W_JAM, FC_NCODE, FC_N = range(19)
_FCOL_NAMES = ("x", "y", "standing", "engaged", "active", "actions_left", "aimed", "followup", "wounds",
               "toughness", "flesh_wounds", "cond_" + E._CONDS[0], "controlled")
# positions in EntityTables.gcol (global features)
_GCOL_NAMES = ("round", "decision_select_fighter", "my_decision", "own_priority", "turn_position", "own_active",
               "active_actions_left", "own_bottled", "enemy_bottled", "own_out", "enemy_out", "own_in_action",
               "enemy_in_action", "own_ready", "enemy_ready", "game_over")
GC_ROUND, GC_DK0, GC_MY, GC_PRIO, GC_TURN, GC_OWN_ACTIVE, GC_ACT_LEFT, GC_OWN_BOTTLED, GC_EN_BOTTLED, \
    GC_OWN_OUT, GC_EN_OUT, GC_OWN_INACT, GC_EN_INACT, GC_OWN_READY, GC_EN_READY, GC_OVER = range(16)
BC_CASKET, BC_CASKET_OPENED = 0, 1


def entity_tables(game, template=None) -> EntityTables:
    """The read-only arrays ``encode_entity`` needs, from the Python encoder's tables for
    ``game`` and the line-up of ``template`` (default ``game.template()``)."""
    t = E._tables(game)
    tmpl = game.template() if template is None else template
    fi0, wp0 = tmpl.fi[0], tmpl.wp[0]
    blocks = [t.fighter_static(fi0, wp0, g) for g in range(t.ng)]
    F, W, G, B = E._F, E._W, E._G, E._B
    mk = M.kernel_tables()  # board markers (smoke clouds, Graviton Pulse, ...): one board channel per kind
    fcol = [F[n] for n in _FCOL_NAMES] + [E.NF_BASE, E.NW_FEAT, W["out_of_ammo"], W["jammed"], E.N_CODE_COLS]
    return EntityTables(
        fstatic=np.ascontiguousarray(np.stack([b[0] for b in blocks]), np.float32),
        inv_w=np.ascontiguousarray(np.stack([b[1] for b in blocks]), np.float32),
        tough=np.ascontiguousarray(np.stack([b[2] for b in blocks]), np.float32),
        inv_t=np.ascontiguousarray(np.stack([b[3] for b in blocks]), np.float32),
        perm=np.ascontiguousarray(t.perm, np.int64),
        inv=np.ascontiguousarray(t.inv, np.int64),
        code_cols=np.ascontiguousarray(E._CODE_COLS, np.int64),
        code_w=np.ascontiguousarray(E._CODE_W, np.int64),
        code_tab=np.ascontiguousarray(E._CODE_TAB, np.float32),
        inv_wh=np.ascontiguousarray(t.inv_wh, np.float32),
        planes=np.ascontiguousarray(t.static_planes, np.float32),
        door_x=np.ascontiguousarray(t.door_x, np.int64),
        door_y=np.ascontiguousarray(t.door_y, np.int64),
        door_channel=np.ascontiguousarray(E._DOOR_CHANNEL, np.int64),
        dk_order=np.array(E._DK_ORDER, np.int64),
        fcol=np.array(fcol, np.int64),
        gcol=np.array([G[n] for n in _GCOL_NAMES], np.int64),
        bcol=np.array([B["casket"], B["casket_opened"]], np.int64),
        cond_bits=np.ascontiguousarray(E._COND_BITS, np.int64),
        marker_kinds=mk,
        marker_bcol=np.array([B[k.name] for k in M.MARKER_KINDS], np.int64),
    )


def encode_game(game, gang: int):
    """(fighters, board, globals) of a single ``Game`` seen by ``gang``, by the compiled kernel:
    ``EntityEncoder.encode`` (and the flat encoder's fighter rows and globals) outside
    ``NUMBA_DISABLE_JIT``. The kernel's tables are built from the game's current line-up and
    rebuilt when it changes (the Python encoder's per-line-up cache says when)."""
    t = E._tables(game)
    s = game.state
    t.fighter_static(s.fi[0], s.wp[0], 0)  # refreshes t._static_block if the line-up changed
    cache = game.__dict__.get("_entity_kernel")
    if cache is None or cache[0] is not t or cache[1] is not t._static_block:
        cache = (t, t._static_block, entity_tables(game, s))
        game.__dict__["_entity_kernel"] = cache
    # fresh arrays (the caller keeps them); the kernel writes every value
    f = np.empty((1, t.nf, E.NF_BASE + t.mw * E.NW_FEAT), np.float32)
    bd = np.empty((1, E.N_BOARD, t.h, t.w), np.float32)
    gl = np.empty((1, E.N_GLOBAL), np.float32)
    _ENCODE(s, 0, gang, cache[2], f, bd, gl, 0)
    return f[0], bd[0], gl[0]


def alloc_entity(game, n):
    """Output buffers (fighters, board, globals) for ``n`` observations."""
    t = E._tables(game)
    return (np.zeros((n, t.nf, E.NF_BASE + t.mw * E.NW_FEAT), np.float32),
            np.zeros((n, E.N_BOARD, t.h, t.w), np.float32),
            np.zeros((n, E.N_GLOBAL), np.float32))


@leaf_njit(inline="always")
def _clip01(v):
    return min(max(v, np.float32(0.0)), np.float32(1.0))


@leaf_njit
def encode_fighters(s, b, gang, et, out):
    """``EntityEncoder.fighters``: out[NF, F] for game b seen by ``gang``."""
    # the tables bound once: read through ``et`` inside the loops they are not vectorised
    fc = et.fcol
    fstatic = et.fstatic
    code_tab = et.code_tab
    code_cols = et.code_cols
    code_w = et.code_w
    perm = et.perm
    nf = out.shape[0]
    mf = nf // s.gang.shape[1]
    ncode = fc[FC_NCODE]
    nbase = fc[FC_NBASE]
    nwf = fc[FC_NWFEAT]
    mw = s.wp.shape[2]
    one = np.float32(1.0)
    sixth = np.float32(1.0 / 6.0)
    for r in range(nf):
        f = perm[gang, r]
        for c in range(out.shape[1]):
            out[r, c] = fstatic[gang, r, c]
        code = 0
        for k in range(code_cols.shape[0]):
            code += s.fi[b, f, code_cols[k]] * code_w[k]
        for c in range(ncode):
            out[r, c] = code_tab[code, c]
        on = code_tab[code, 1]
        out[r, fc[FC_X]] = np.float32(s.fi[b, f, FI_X]) * (on * et.inv_wh[0])
        out[r, fc[FC_Y]] = np.float32(s.fi[b, f, FI_Y]) * (on * et.inv_wh[1])
        fl = s.fi[b, f, FI_FLESH]
        out[r, fc[FC_WOUNDS]] = _clip01(np.float32(s.fi[b, f, FI_WOUNDS]) * et.inv_w[gang, r])
        out[r, fc[FC_TOUGH]] = _clip01(np.float32(et.tough[gang, r] - np.float32(fl)) * sixth)
        out[r, fc[FC_FLESH]] = _clip01(np.float32(fl) * et.inv_t[gang, r])
        cond = np.int64(s.fi[b, f, FI_COND])
        for k in range(et.cond_bits.shape[0]):
            out[r, fc[FC_COND0] + k] = on if (cond & et.cond_bits[k]) != 0 else np.float32(0.0)
        out[r, fc[FC_CTRL]] = on if s.fi[b, f, FI_CTRL] != 0 else np.float32(0.0)
        for j in range(mw):
            base = nbase + j * nwf
            out[r, base + fc[FC_W_OOA]] = one if s.wp[b, f, j, WP_OOA] != 0 else np.float32(0.0)
            out[r, base + fc[FC_W_JAM]] = one if (s.wp[b, f, j, WP_DEAD] & WP_JAMMED) != 0 else np.float32(0.0)
    # engaged: Standing, at Chebyshev distance 1 and the same height as a Standing fighter of another gang
    stc = fc[FC_STANDING]
    for r in range(nf):
        if out[r, stc] == 0.0:
            continue
        f = perm[gang, r]
        x = s.fi[b, f, FI_X]
        y = s.fi[b, f, FI_Y]
        for r2 in range(nf):
            if r2 // mf == r // mf or out[r2, stc] == 0.0:
                continue
            f2 = perm[gang, r2]
            d = max(abs(s.fi[b, f2, FI_X] - x), abs(s.fi[b, f2, FI_Y] - y))
            if d == 1 and s.fi[b, f2, FI_Z] == s.fi[b, f, FI_Z]:  # base contact: same floor height
                out[r, fc[FC_ENGAGED]] = one
                break
    act = s.g[b, G_ACTIVE]
    if 0 <= act < nf:
        r = et.inv[gang, act]
        out[r, fc[FC_ACTIVE]] = one
        out[r, fc[FC_ACTIONS]] = min(max(np.int64(s.fi[b, act, FI_ACTS]), 0), 2) / 2.0
        out[r, fc[FC_AIMED]] = one if s.fi[b, act, FI_AIMED] != 0 else np.float32(0.0)
    fu = s.g[b, G_FU]
    if 0 <= fu < nf:
        out[et.inv[gang, fu], fc[FC_FOLLOWUP]] = one


@leaf_njit
def encode_globals(s, b, gang, et, out):
    """``EntityEncoder.globals``: out[G] for game b seen by ``gang``."""
    gc = et.gcol
    ng = s.gang.shape[1]
    nf = s.fi.shape[1]
    mf = nf // ng
    for c in range(out.shape[0]):
        out[c] = 0.0
    done = s.g[b, G_DONE] != 0
    out[gc[GC_ROUND]] = min(max(s.g[b, G_ROUND], 0) / max(1, s.g[b, G_ROUND_LIMIT]), 1.0)
    dk = s.g[b, G_DK]
    if not done:
        for k in range(et.dk_order.shape[0]):
            if et.dk_order[k] == dk:
                out[gc[GC_DK0] + k] = 1.0
    out[gc[GC_MY]] = 1.0 if (not done) and s.g[b, G_DGANG] == gang else 0.0
    out[gc[GC_PRIO]] = 1.0 if s.g[b, G_PRIORITY] == gang else 0.0
    out[gc[GC_TURN]] = min(max(s.gang[b, gang, GG_ORDER], 0), ng - 1) / max(1, ng - 1)
    act = s.g[b, G_ACTIVE]
    # an Insane fighter controlled by this gang counts as its own for this activation (4.3)
    if 0 <= act < nf and (s.fi[b, act, FI_CTRL] - 1 if s.fi[b, act, FI_CTRL] > 0 else act // mf) == gang:
        out[gc[GC_OWN_ACTIVE]] = 1.0
        out[gc[GC_ACT_LEFT]] = min(max(np.int64(s.fi[b, act, FI_ACTS]), 0), 2) / 2.0
    ne = ng - 1
    e_bottled = 0
    e_out = 0
    e_act = 0
    e_ready = 0
    e_crew = 0
    for k in range(ng):
        in_action = 0
        ready = 0
        for i in range(mf):
            f = k * mf + i
            if s.fi[b, f, FI_STATE] == FS_ON:
                if s.fi[b, f, FI_POSTURE] != PO_SI:
                    in_action += 1
                if s.fi[b, f, FI_READY] != 0:
                    ready += 1
        out_k = s.gang[b, k, GG_OUT] != 0 or s.gang[b, k, GG_RETREATED] != 0
        crew = max(s.gang[b, k, GG_CREW], 1)
        if k == gang:
            out[gc[GC_OWN_BOTTLED]] = 1.0 if s.gang[b, k, GG_BOTTLED] != 0 else 0.0
            out[gc[GC_OWN_OUT]] = 1.0 if out_k else 0.0
            out[gc[GC_OWN_INACT]] = min(in_action / crew, 1.0)
            out[gc[GC_OWN_READY]] = min(ready / crew, 1.0)
        else:
            e_bottled += s.gang[b, k, GG_BOTTLED] != 0
            e_out += out_k
            e_act += in_action
            e_ready += ready
            e_crew += crew
    out[gc[GC_EN_BOTTLED]] = e_bottled / ne
    out[gc[GC_EN_OUT]] = e_out / ne
    out[gc[GC_EN_INACT]] = min(e_act / max(e_crew, 1), 1.0)
    out[gc[GC_EN_READY]] = min(e_ready / max(e_crew, 1), 1.0)
    out[gc[GC_OVER]] = 1.0 if done else 0.0


@leaf_njit
def encode_board(s, b, gang, et, out):
    """``EntityEncoder.board``: out[C, H, W] for game b seen by ``gang``."""
    h = out.shape[1]
    w = out.shape[2]
    # the static planes as one flat copy: half the time of numba's 3-d slice assignment
    # (benchmarks/encode_copy.py)
    flat = out.reshape(-1)
    src = et.planes[gang].reshape(-1)
    for i in range(flat.shape[0]):
        flat[i] = src[i]
    for d in range(et.door_x.shape[0]):
        out[et.door_channel[s.door[b, d, DR_STATE] & 3], et.door_y[d], et.door_x[d]] = 1.0
    for k in range(s.casket.shape[1]):
        cs = s.casket[b, k, CK_STATE]
        cx = s.casket[b, k, CK_X]
        cy = s.casket[b, k, CK_Y]
        if cs != 0 and 0 <= cx < w and 0 <= cy < h:
            out[et.bcol[BC_CASKET_OPENED] if cs == 2 else et.bcol[BC_CASKET], cy, cx] = 1.0
    for k in range(et.marker_kinds.shape[0]):  # rulesets/necromunda/markers.py: centre cell + 1 per slot, 0 = none
        col0 = et.marker_kinds[k, 0]
        ch = et.marker_bcol[k]
        for i in range(et.marker_kinds[k, 1]):
            c = s.g[b, col0 + i] - 1
            if c < 0:
                continue
            mx = c % w
            my = c // w
            dm = et.marker_kinds[k, 3]  # the marker's diameter: fixed, or from the state (kernel_tables)
            if et.marker_kinds[k, 2] >= 0:
                dm = s.g[b, et.marker_kinds[k, 2] + i] + et.marker_kinds[k, 4]
            r = (dm + 1) // 2
            for y in range(max(0, my - r), min(h, my + r + 1)):
                for x in range(max(0, mx - r), min(w, mx + r + 1)):
                    if 4 * ((x - mx) * (x - mx) + (y - my) * (y - my)) < dm * dm:
                        out[ch, y, x] = 1.0


@leaf_njit
def encode_entity(s, b, gang, et, fighters, board, glob, k):
    """The entity observation of game b seen by ``gang`` into row k of the buffers."""
    encode_fighters(s, b, gang, et, fighters[k])
    encode_board(s, b, gang, et, board[k])
    encode_globals(s, b, gang, et, glob[k])


# encode_game's call of the kernel without numba's per-call dispatch (core/fastcall.py): the state,
# the tables and fresh output buffers of fixed types
_ENCODE = Pinned(encode_entity, fresh=(4, 5, 6))
