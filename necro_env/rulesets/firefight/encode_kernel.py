"""Compiled kernels of Firefight's observation encoders (encode.py: the feature tables, the spaces, the meaning).

encode.py's feature tables (UNIT_FEATURES, MODEL_FEATURES, GLOBAL_FEATURES, SPATIAL_PLANES) name the columns;
the kernels below write them in that order into float32 arrays the caller allocates, one game ``b`` of a batch at
a time. encode.py checks at import that the column counts here match its tables. Written 2026-12-02: numpy on
such small arrays cost 160 us per ``entity`` observation and 200 us per ``spatial`` one, more than an engine step;
these cost a few microseconds.

Values are computed as the numpy encoder they replace computed them (integer sums, then float64 divisions, then
clipped to [0, 1] and rounded to float32 once), so the observations are the same bit for bit
(tests/firefight/test_ff_encode_compiled.py keeps that numpy encoder as the reference).
"""
from ...core.jit import njit
from .constants import (
    ACTION_NAMES, MAX_OBJ, OBJ_RANGE_IN, RULE_NAMES, TF_BLOCKS_SIGHT, TF_COVER, TF_DANGEROUS, TF_DIFFICULT,
    TF_IMPASSABLE, UNIT_STATE_NAMES,
)
from .spells import N_SPELLS
from .state import (
    G_ACTIVE, G_ATTACKER, G_CAST_SPELL, G_CAST_TARGET, G_CTARGET, G_DEFENDER, G_DK, G_DONE, G_DPLAYER, G_FINISHED,
    G_FIRST, G_MOVED_FIFTHS, G_NOBJ, G_OBJ_PLACED, G_PHASE, G_PUSHED, G_ROLLOFF, G_ROUND, G_ROUND_LIMIT, G_SCORE0,
    G_SCORE1, G_TURN, G_ZONE0, M_ALIVE, M_WOUNDS, M_X, M_Y, M_Z, N_DK, O_ON, O_OWNER, O_X, O_Y, PH_OVER, U_ACTION,
    U_ACTIVATED, U_ARRIVED, U_CASTER, U_CHARGED, U_DEFENSE, U_FATIGUED, U_FEAR, U_IMPACT, U_N, U_POINTS, U_QUALITY,
    U_RQUALITY, U_RULES, U_SHAKEN, U_SIZE, U_STATE, U_STRUCK, U_TOKENS, U_TOUGH, W_AP, W_ATTACKS, W_COUNT, W_ID,
    W_RANGE,
)

HEIGHT_SCALE = 12  # inches: floor heights and model heights are divided by it (clipped)
N_STATES = len(UNIT_STATE_NAMES) - 1  # one-hot of U_STATE 1.. ("empty" rows are all zero)
N_ACT = len(ACTION_NAMES)
N_RULES = len(RULE_NAMES)
N_PHASES = PH_OVER + 1
N_MARKS = 6  # active, charge target, attacker, defender, pushed, cast target
OBJ_R2 = (OBJ_RANGE_IN + 1) ** 2  # "within 3\"" as an integer test (constants.py docstring)

# unit columns: the blocks of UNIT_FEATURES in order
UC_STATE = 2
UC_ALIVE = UC_STATE + N_STATES
UC_ACTION = UC_ALIVE + 16  # alive .. ambushed
UC_MARKS = UC_ACTION + N_ACT
UC_POINTS = UC_MARKS + N_MARKS
UC_RULES = UC_POINTS + 7  # points, x, y, ranged and melee attacks, max range, max AP
FU = UC_RULES + N_RULES
FM = 11
# global columns: the blocks of GLOBAL_FEATURES in order
GC_PHASE = 2
GC_DK = GC_PHASE + N_PHASES
GC_MID = GC_DK + N_DK
GC_CAST = GC_MID + 11
FG = GC_CAST + N_SPELLS + 1
N_PLANES = 26


@njit(cache=True)
def _c(v):
    """A value clipped to [0, 1] (float64; the store into a float32 array rounds it once)."""
    return min(max(v, 0.0), 1.0)


@njit(cache=True)
def _slot(r, player, mu):
    """Global unit slot of the observer's row r: its own units first, then the enemy's."""
    return (player * mu + r) if r < mu else ((1 - player) * mu + r - mu)


@njit(cache=True)
def _centroid(m, b, uu, width, height):
    """Mean (x, y) of the unit's living models scaled to [0, 1]; 0 for none."""
    n, sx, sy = 0, 0, 0
    for i in range(m.shape[2]):
        if m[b, uu, i, M_ALIVE] > 0:
            n += 1
            sx += m[b, uu, i, M_X]
            sy += m[b, uu, i, M_Y]
    n = max(n, 1)
    return sx / n / max(width - 1, 1), sy / n / max(height - 1, 1)


@njit(cache=True)
def _weapons(w, b, uu, row):
    """Ranged and melee attacks of all models, longest range and highest AP, into row[0:4]."""
    ranged, melee, rng, ap = 0, 0, 0, 0
    for k in range(w.shape[2]):
        if w[b, uu, k, W_ID] < 0:  # an empty slot counts 0 (and 0 in the maxima)
            continue
        att = w[b, uu, k, W_ATTACKS] * w[b, uu, k, W_COUNT]
        if w[b, uu, k, W_RANGE] > 0:
            ranged += att
        else:
            melee += att
        rng = max(rng, w[b, uu, k, W_RANGE])
        ap = max(ap, w[b, uu, k, W_AP])
    row[0], row[1], row[2], row[3] = _c(ranged / 40), _c(melee / 40), _c(rng / 36), _c(ap / 4)


@njit(cache=True)
def _unit_stats(u, b, uu, row):
    """Columns alive .. ambushed of unit uu (UNIT_FEATURES)."""
    row[0] = _c(u[b, uu, U_N] / max(u[b, uu, U_SIZE], 1))
    row[1] = _c(u[b, uu, U_SIZE] / 20)
    for j, col in enumerate((U_QUALITY, U_RQUALITY, U_DEFENSE)):
        row[2 + j] = _c((7 - u[b, uu, col]) / 6)
    row[5] = _c(u[b, uu, U_TOUGH] / 12)
    for j, col in enumerate((U_IMPACT, U_CASTER, U_FEAR, U_TOKENS)):
        row[6 + j] = _c(u[b, uu, col] / 6)
    for j, col in enumerate((U_SHAKEN, U_FATIGUED, U_ACTIVATED, U_CHARGED, U_STRUCK)):
        row[10 + j] = _c(1.0 * u[b, uu, col])
    row[15] = 1.0 if u[b, uu, U_ARRIVED] > 0 else 0.0


@njit(cache=True)
def _unit_row(g, u, m, w, b, uu, own, width, height, row):
    """One present unit's row (UNIT_FEATURES)."""
    row[0], row[1] = 1.0, own
    st = u[b, uu, U_STATE] - 1
    if 0 <= st < N_STATES:
        row[UC_STATE + st] = 1.0
    _unit_stats(u, b, uu, row[UC_ALIVE:UC_ACTION])
    act = u[b, uu, U_ACTION]
    if 0 <= act < N_ACT:
        row[UC_ACTION + act] = 1.0
    for j, col in enumerate((G_ACTIVE, G_CTARGET, G_ATTACKER, G_DEFENDER, G_PUSHED)):
        row[UC_MARKS + j] = 1.0 if g[b, col] == uu else 0.0
    row[UC_MARKS + 5] = 1.0 if g[b, G_CAST_SPELL] >= 0 and g[b, G_CAST_TARGET] == uu else 0.0
    row[UC_POINTS] = _c(u[b, uu, U_POINTS] / 400)
    x, y = _centroid(m, b, uu, width, height)
    row[UC_POINTS + 1], row[UC_POINTS + 2] = _c(x), _c(y)
    _weapons(w, b, uu, row[UC_POINTS + 3:UC_RULES])
    rules = u[b, uu, U_RULES]
    for k in range(N_RULES):
        row[UC_RULES + k] = (rules >> k) & 1


@njit(cache=True)
def _near_objective(obj, b, x, y):
    for k in range(obj.shape[1]):
        if obj[b, k, O_ON] > 0:
            dx, dy = x - obj[b, k, O_X], y - obj[b, k, O_Y]
            if dx * dx + dy * dy <= OBJ_R2:
                return 1.0
    return 0.0


@njit(cache=True)
def _model_rows(u, m, obj, flags, b, uu, own, out):
    """The [MM, FM] model rows of unit uu (MODEL_FEATURES); dead models' rows stay zero."""
    height, width = flags.shape
    last = -1
    for i in range(m.shape[2]):
        if m[b, uu, i, M_ALIVE] > 0:
            last = i
    tough = max(u[b, uu, U_TOUGH], 1)
    for i in range(last + 1):
        if m[b, uu, i, M_ALIVE] <= 0:
            continue
        x, y = int(m[b, uu, i, M_X]), int(m[b, uu, i, M_Y])
        f = flags[min(max(y, 0), height - 1), min(max(x, 0), width - 1)]
        row = out[i]
        row[0], row[1] = 1.0, own
        row[2], row[3] = _c(x / max(width - 1, 1)), _c(y / max(height - 1, 1))
        row[4] = _c(m[b, uu, i, M_Z] / HEIGHT_SCALE)
        row[5] = _c(m[b, uu, i, M_WOUNDS] / tough)
        row[6] = 1.0 if i == last else 0.0
        row[7] = 1.0 if f & TF_COVER else 0.0
        row[8] = 1.0 if f & TF_DIFFICULT else 0.0
        row[9] = 1.0 if f & TF_DANGEROUS else 0.0
        row[10] = _near_objective(obj, b, x, y)


@njit(cache=True)
def _globals(g, b, player, out):
    """The [FG] globals from the observer's side (GLOBAL_FEATURES; never G_CAST_MOD, encode.py's docstring)."""
    live = g[b, G_DONE] == 0
    out[0] = _c(g[b, G_ROUND] / max(g[b, G_ROUND_LIMIT], 1))
    out[1] = _c(g[b, G_ROUND_LIMIT] / 10)
    if 0 <= g[b, G_PHASE] < N_PHASES:
        out[GC_PHASE + g[b, G_PHASE]] = 1.0
    if live and 0 <= g[b, G_DK] < N_DK:
        out[GC_DK + g[b, G_DK]] = 1.0
    me, foe = (G_SCORE0, G_SCORE1) if player == 0 else (G_SCORE1, G_SCORE0)
    mid = out[GC_MID:GC_CAST]
    mid[0] = 1.0 if g[b, G_DPLAYER] == player and live else 0.0
    for j, col in enumerate((G_TURN, G_FIRST, G_ROLLOFF)):
        mid[1 + j] = 1.0 if g[b, col] == player else 0.0
    for j, col in enumerate((me, foe, G_NOBJ, G_OBJ_PLACED)):
        mid[4 + j] = _c(g[b, col] / MAX_OBJ)
    mid[8] = 1.0 if g[b, G_FINISHED] == player else 0.0
    mid[9] = 1.0 if g[b, G_FINISHED] == 1 - player else 0.0
    mid[10] = _c(g[b, G_MOVED_FIFTHS] / 60)
    if 0 <= g[b, G_CAST_SPELL] < N_SPELLS:
        out[GC_CAST + g[b, G_CAST_SPELL]] = 1.0
    out[FG - 1] = _c(1.0 * g[b, G_DONE])


@njit(cache=True)
def encode_entity(g, u, m, w, obj, flags, b, player, units, models, glob):
    """Game b seen by ``player`` into zeroed ``units`` [2*MU, FU], ``models`` [2*MU*MM, FM], ``glob`` [FG]."""
    height, width = flags.shape
    mu, mm = u.shape[1] // 2, m.shape[2]
    for r in range(2 * mu):
        uu = _slot(r, player, mu)
        if u[b, uu, U_STATE] <= 0:  # an empty slot: its unit and model rows stay zero
            continue
        own = 1.0 if r < mu else 0.0
        _unit_row(g, u, m, w, b, uu, own, width, height, units[r])
        _model_rows(u, m, obj, flags, b, uu, own, models[r * mm:(r + 1) * mm])
    _globals(g, b, player, glob)


@njit(cache=True)
def _board_planes(g, obj, flags, heights, zone, b, player, out):
    """Planes cover .. objective_enemy (SPATIAL_PLANES)."""
    own_zone = g[b, G_ZONE0] if player == 0 else 1 - g[b, G_ZONE0]
    for y in range(flags.shape[0]):
        for x in range(flags.shape[1]):
            f = flags[y, x]
            for i, bit in enumerate((TF_COVER, TF_DIFFICULT, TF_DANGEROUS, TF_IMPASSABLE, TF_BLOCKS_SIGHT)):
                out[i, y, x] = 1.0 if f & bit else 0.0
            out[5, y, x] = _c(heights[y, x] / HEIGHT_SCALE)
            out[6, y, x] = 1.0 if zone[y, x] == own_zone else 0.0
            out[7, y, x] = 1.0 if zone[y, x] == 1 - own_zone else 0.0
    for k in range(obj.shape[1]):
        if obj[b, k, O_ON]:
            owner = obj[b, k, O_OWNER]
            out[8 + (0 if owner < 0 else 1 if owner == player else 2), obj[b, k, O_Y], obj[b, k, O_X]] = 1.0


@njit(cache=True)
def _model_planes(g, u, m, b, player, out):
    """Planes own_models .. targeted (SPATIAL_PLANES), unit by unit in slot order."""
    mu = u.shape[1] // 2
    cast = g[b, G_CAST_TARGET] if g[b, G_CAST_SPELL] >= 0 else -1
    for uu in range(2 * mu):
        if u[b, uu, U_N] <= 0:
            continue
        side = 0 if uu // mu == player else 1
        tough = max(u[b, uu, U_TOUGH], 1)
        marked = uu == g[b, G_CTARGET] or uu == g[b, G_DEFENDER] or uu == cast
        for i in range(m.shape[2]):
            if m[b, uu, i, M_ALIVE] <= 0:
                continue
            y, x = m[b, uu, i, M_Y], m[b, uu, i, M_X]
            out[11 + side, y, x] = 1.0
            out[13 + side, y, x] = _c(m[b, uu, i, M_WOUNDS] / tough)
            out[15 + side, y, x] = _c(1.0 * u[b, uu, U_SHAKEN])
            out[17 + side, y, x] = _c(1.0 * u[b, uu, U_ACTIVATED])
            out[19, y, x] = 1.0 if uu == g[b, G_ACTIVE] else 0.0
            out[20, y, x] = 1.0 if marked else 0.0


@njit(cache=True)
def encode_spatial(g, u, m, obj, flags, heights, zone, b, player, out):
    """Game b seen by ``player`` into ``out`` [N_PLANES, H, W] (every cell written)."""
    out[8:21] = 0.0  # the planes written only where a marker or a model is
    _board_planes(g, obj, flags, heights, zone, b, player, out)
    _model_planes(g, u, m, b, player, out)
    me, foe = (G_SCORE0, G_SCORE1) if player == 0 else (G_SCORE1, G_SCORE0)
    live = g[b, G_DONE] == 0
    out[21] = _c(g[b, G_ROUND] / max(g[b, G_ROUND_LIMIT], 1))
    out[22] = 1.0 if g[b, G_DPLAYER] == player and live else 0.0
    out[23] = _c(max(g[b, G_DK], 0) / (N_DK - 1))
    out[24] = _c(g[b, me] / MAX_OBJ)
    out[25] = _c(g[b, foe] / MAX_OBJ)
