"""Firefight's scripted players as compiled policies (numba; the counterpart of necro_env/policies/heuristics.py).

Every policy has the signature of Necromunda's, so a batched kernel can call it per game (added 2026-12-02)::

    policy(s, st, b, lay, mask, prng) -> int64   # a legal flat index of mask[b] for game b; -1 if none

``s`` is the ``State`` batch (state.py), ``st`` the board's ``Static`` tables, ``lay`` the codec layout
(codec.make_layout), ``mask`` the ``[B, n_actions]`` bool mask of legal actions, ``prng`` a ``[B, 2]`` uint64
PCG32 state that belongs to the *player*: a policy draws only from it (ties, the random player), never from
``s.rng``, so its choices never shift the game's dice (paired evaluation relies on it). A policy reads the state
and writes nothing but ``prng``: a pure function of its inputs.

One scorer (:func:`scripted_action`) decodes every legal index, scores it by the decision kind in ``g[b, G_DK]``
and plays the best; ties go to the player's generator (reservoir sampling). The styles:

- **HOLDER** takes and holds objectives: it places markers near its own zone, deploys towards them, sends each
  unit to the nearest marker no friend already holds, stands on it (Hold, so it still shoots) in cover where it
  can, shoots the nearest threat, charges only a unit it expects to beat clearly (:func:`charge_worth`), and
  pushes enemy models away from the markers.
- **CHARGER** closes in and charges: it Rushes at the nearest enemy (Advances when it can shoot after the move),
  charges whenever it can (the unit it hurts most), always strikes back, and walks onto markers on the way
  (a marker counts as a target of its moves, so the ones near its path are taken).
- **RANDOM**: uniform over the mask, from the player's generator.

Both scripts: Scout and Ambush units are held back (they arrive nearer the action), an Ambush unit comes on as
soon as it can, Caster tokens go on the best spell (Storm, Bolt, Steady on a Shaken friend) and each helper
spends one token for its own side's caster and one against the enemy's.
"""
import numpy as np

from ...core.bytemask import count_true, nth_true
from ...core.jit import njit
from ...core.rng import rand_below
from .casting import spell_target_unit
from .codec import (
    A_ACTION, A_CAST, A_CELL, A_HELP, A_HOLD_BACK, A_NO_TARGET, A_PASS, A_SELECT, A_STRIKE, A_TARGET, HELP_MAX,
    decode,
)
from .constants import (
    ACT_ADVANCE, ACT_CHARGE, ACT_HOLD, ACT_RUSH, OBJ_RANGE_IN, TF_COVER, US_ON,
)
from .spells import SP_STEADY, SPELL_FRIENDLY, SPELL_HITS
from .state import (
    DK_AMBUSH_CELL, DK_CHARGE_TARGET, DK_DEPLOY_CELL, DK_FREE_MOVE, DK_MOVE_CELL, DK_PLACE_OBJ, DK_PUSH,
    DK_SCOUT_CELL, DK_SELECT, G_ACTIVE, G_DK, G_DPLAYER, G_FREE, G_MU, G_PUSHED, G_ZONE0, M_ALIVE, M_X, M_Y, O_ON, O_OWNER, O_X, O_Y,
    U_DEFENSE, U_FATIGUED, U_IMPACT, U_N, U_QUALITY, U_SHAKEN, U_SIDE, U_STATE, U_TOUGH, W_AP, W_ATTACKS, W_COUNT,
    W_ID, W_RANGE,
)

STYLE_HOLDER = 0
STYLE_CHARGER = 1
FAR = 1e9  # squared distance when there is nothing to measure to
NEVER = -1e12  # below every score a script gives

# HOLDER's tuning (scores in inches of distance saved, unless said)
COVER = 2.0  # an anchor cell in cover (§9) is worth this many inches nearer the goal
BEAT_RATIO = 1.5  # it charges only when its expected wounds are this many times the strike-back's ...
BEAT_MIN = 1.0  # ... and at least this many
# CHARGER's tuning
MARKER_PULL = 4.0  # a marker not its own counts as this many inches nearer than an enemy unit


@njit(cache=True)
def anchor(s, b, u):
    """The cell of unit u's first living model, (-1, -1) if none."""
    for i in range(s.m.shape[2]):
        if s.m[b, u, i, M_ALIVE]:
            return np.int64(s.m[b, u, i, M_X]), np.int64(s.m[b, u, i, M_Y])
    return np.int64(-1), np.int64(-1)


@njit(cache=True)
def unit_cell_d2(s, b, u, x, y):
    """The squared centre distance from cell (x, y) to the nearest living model of unit u."""
    best = FAR
    for i in range(s.m.shape[2]):
        if s.m[b, u, i, M_ALIVE]:
            dx = np.float64(s.m[b, u, i, M_X] - x)
            dy = np.float64(s.m[b, u, i, M_Y] - y)
            best = min(best, dx * dx + dy * dy)
    return best


@njit(cache=True)
def nearest_enemy_d2(s, b, side, x, y):
    """Squared distance from (x, y) to the nearest enemy model on the table."""
    best = FAR
    for v in range(s.u.shape[1]):
        if s.u[b, v, U_STATE] == US_ON and s.u[b, v, U_SIDE] != side:
            best = min(best, unit_cell_d2(s, b, v, x, y))
    return best


@njit(cache=True)
def friend_on_marker(s, b, side, k, skip):
    """Does a unit of ``side`` other than ``skip`` stand within 3" of marker k (§2.4)?"""
    r = np.float64(OBJ_RANGE_IN + 1)
    for v in range(s.u.shape[1]):
        if v != skip and s.u[b, v, U_STATE] == US_ON and s.u[b, v, U_SIDE] == side:
            if unit_cell_d2(s, b, v, s.obj[b, k, O_X], s.obj[b, k, O_Y]) <= r * r:
                return True
    return False


@njit(cache=True)
def marker_goal(s, b, u, x, y):
    """HOLDER: the marker unit u (standing at (x, y)) goes for: the nearest one no friend holds, else the nearest;
    returns its index or -1 when there is none."""
    side = s.u[b, u, U_SIDE]
    best = FAR
    pick = -1
    for pass_ in range(2):
        for k in range(s.obj.shape[1]):
            if not s.obj[b, k, O_ON] or (pass_ == 0 and friend_on_marker(s, b, side, k, u)):
                continue
            dx = np.float64(s.obj[b, k, O_X] - x)
            dy = np.float64(s.obj[b, k, O_Y] - y)
            if dx * dx + dy * dy < best:
                best = dx * dx + dy * dy
                pick = k
        if pick >= 0:
            return pick
    return pick


@njit(cache=True)
def marker_d2(s, b, side, x, y, not_own):
    """Squared distance from (x, y) to the nearest marker (only those ``side`` does not own when ``not_own``)."""
    best = FAR
    for k in range(s.obj.shape[1]):
        if s.obj[b, k, O_ON] and not (not_own and s.obj[b, k, O_OWNER] == side):
            dx = np.float64(s.obj[b, k, O_X] - x)
            dy = np.float64(s.obj[b, k, O_Y] - y)
            best = min(best, dx * dx + dy * dy)
    return best


@njit(cache=True)
def p_at_least(need):
    """P(D6 >= need), a natural 6 always passing and a natural 1 always failing (§13.1)."""
    return min(max((7.0 - need) / 6.0, 1.0 / 6.0), 5.0 / 6.0)


@njit(cache=True)
def melee_wounds(s, b, u, v, charging):
    """Expected wounds unit u's melee attacks (and Impact when it charges) do to unit v: hits on its Quality (6s
    only when fatigued, §6 step 7), Defense with AP (§5), before Tough."""
    hit = 1.0 / 6.0 if s.u[b, u, U_FATIGUED] else p_at_least(s.u[b, u, U_QUALITY])
    total = 0.0
    for k in range(s.w.shape[2]):
        if s.w[b, u, k, W_ID] >= 0 and s.w[b, u, k, W_RANGE] == 0:
            fail = 1.0 - p_at_least(s.u[b, v, U_DEFENSE] + s.w[b, u, k, W_AP])
            total += s.w[b, u, k, W_ATTACKS] * s.w[b, u, k, W_COUNT] * hit * fail
    if charging and not s.u[b, u, U_FATIGUED]:
        total += s.u[b, u, U_IMPACT] * s.u[b, u, U_N] * (5.0 / 6.0) * (1.0 - p_at_least(s.u[b, v, U_DEFENSE]))
    return total


@njit(cache=True)
def charge_worth(s, b, u, v):
    """Expected wounds u's charge does to v less what v's strike-back does to u, each in the share of the unit's
    wounds (models x Tough) it takes; and whether u beats v clearly (HOLDER charges only then)."""
    dealt = melee_wounds(s, b, u, v, True)
    back = melee_wounds(s, b, v, u, False)
    hp_v = s.u[b, v, U_N] * max(1, s.u[b, v, U_TOUGH])
    hp_u = s.u[b, u, U_N] * max(1, s.u[b, u, U_TOUGH])
    clear = dealt >= BEAT_MIN and dealt >= BEAT_RATIO * back
    return min(dealt / hp_v, 1.0) - min(back / hp_u, 1.0), clear


@njit(cache=True)
def beats_someone(s, b, u, reach):
    """Does an enemy unit within ``reach`` inches stand that u beats clearly in a charge?"""
    side = s.u[b, u, U_SIDE]
    x, y = anchor(s, b, u)
    r = np.float64(reach + 1)
    for v in range(s.u.shape[1]):
        if s.u[b, v, U_STATE] == US_ON and s.u[b, v, U_SIDE] != side and unit_cell_d2(s, b, v, x, y) <= r * r:
            if charge_worth(s, b, u, v)[1]:
                return True
    return False


@njit(cache=True)
def longest_range(s, b, u):
    best = 0
    for k in range(s.w.shape[2]):
        if s.w[b, u, k, W_ID] >= 0:
            best = max(best, s.w[b, u, k, W_RANGE])
    return best


@njit(cache=True)
def zone_centre(s, st, b, side):
    """The centre of the deployment zone of ``side`` (Static.zone, G_ZONE0)."""
    z = s.g[b, G_ZONE0] if side == 0 else 1 - s.g[b, G_ZONE0]
    h, w = st.zone.shape
    sx = 0.0
    sy = 0.0
    n = 0
    for y in range(h):
        for x in range(w):
            if st.zone[y, x] == z:
                sx += x
                sy += y
                n += 1
    if n == 0:
        return w / 2.0, h / 2.0
    return sx / n, sy / n


@njit(cache=True)
def cell_goal(s, st, b, u, x, y, style):
    """Worth of unit u's anchor ending in cell (x, y): HOLDER nears its marker (held within 3") and likes cover;
    CHARGER nears the nearest enemy or a marker not its own; before any marker or enemy, the board's centre."""
    side = s.u[b, u, U_SIDE]
    h, w = st.flags.shape
    cover = COVER if st.flags[y, x] & TF_COVER else 0.0
    if style == STYLE_HOLDER:
        ux, uy = anchor(s, b, u)
        k = marker_goal(s, b, u, ux if ux >= 0 else x, uy if uy >= 0 else y)
        if k >= 0:
            dx = np.float64(s.obj[b, k, O_X] - x)
            dy = np.float64(s.obj[b, k, O_Y] - y)
            return -max(np.sqrt(dx * dx + dy * dy) - OBJ_RANGE_IN, 0.0) + cover
    else:
        d = min(np.sqrt(nearest_enemy_d2(s, b, side, x, y)),
                np.sqrt(marker_d2(s, b, side, x, y, True)) - MARKER_PULL)
        if d < FAR / 2:
            return -d
    dx = x - w / 2.0
    dy = y - h / 2.0
    return -np.sqrt(dx * dx + dy * dy) + cover


@njit(cache=True)
def score_select(s, st, b, u, style):
    """Which unit activates: the one nearest the enemy first (it shoots or charges before the enemy does);
    a Shaken unit last (it can only idle)."""
    if s.u[b, u, U_SHAKEN]:
        return -1000.0
    x, y = anchor(s, b, u)
    return -np.sqrt(nearest_enemy_d2(s, b, s.u[b, u, U_SIDE], x, y))


@njit(cache=True)
def score_action(s, st, b, u, act, style):
    """Hold / Advance / Rush / Charge / Idle for unit u (module docstring)."""
    x, y = anchor(s, b, u)
    side = s.u[b, u, U_SIDE]
    enemy = np.sqrt(nearest_enemy_d2(s, b, side, x, y))
    shoots = longest_range(s, b, u) >= enemy - 6
    if style == STYLE_CHARGER:
        if act == ACT_CHARGE:
            return 100.0
        if act == ACT_ADVANCE:
            return 70.0 if shoots and longest_range(s, b, u) > 0 else 50.0
        if act == ACT_RUSH:
            return 60.0
        return 10.0
    if act == ACT_CHARGE:
        return 100.0 if beats_someone(s, b, u, 12) else -100.0
    here = cell_goal(s, st, b, u, x, y, STYLE_HOLDER)
    if here >= 0.0:  # on its marker
        return 50.0 if act == ACT_HOLD else 10.0
    if act == ACT_HOLD:
        return 10.0
    far = here < -6.0
    if act == ACT_RUSH:
        return 45.0 if far and not shoots else 30.0
    return 40.0


@njit(cache=True)
def score_target(s, b, u, v, style):
    """A shooting target: the nearest threat; among equals the one with fewer wounds left."""
    x, y = anchor(s, b, u)
    hp = s.u[b, v, U_N] * max(1, s.u[b, v, U_TOUGH])
    return 100.0 - np.sqrt(unit_cell_d2(s, b, v, x, y)) - 0.1 * hp


@njit(cache=True)
def score_cast(s, b, side, u, r, style):
    """A spell at relative target r (own units first): damage spells by their hits, Steady only on a Shaken friend,
    the target nearest the caster first."""
    mu2 = 2 * s.g[b, G_MU]
    spell = r // mu2
    v = spell_target_unit(s, b, side, r % mu2)
    x, y = anchor(s, b, u)
    near = -0.01 * np.sqrt(unit_cell_d2(s, b, v, x, y))
    if spell == SP_STEADY:
        return (3.0 if s.u[b, v, U_SHAKEN] else -1.0) + near
    if SPELL_FRIENDLY[spell]:
        return -1.0
    return SPELL_HITS[spell] + near


@njit(cache=True)
def score_index(s, st, b, lay, a, dk, side, u, style, zx, zy):
    """The worth of legal index ``a`` at decision ``dk`` (module docstring)."""
    kind, p = decode(lay, a)
    h, w = st.flags.shape
    if dk == DK_PLACE_OBJ:  # markers near the own zone
        x = p % w
        y = p // w
        return -np.sqrt((x - zx) ** 2 + (y - zy) ** 2)
    if kind == A_HOLD_BACK:
        return 1e6  # Scout and Ambush units wait: they arrive nearer the action
    if kind == A_SELECT:
        if dk == DK_SELECT:
            return score_select(s, st, b, side * s.g[b, G_MU] + p, style)
        return 1.0
    if kind == A_PASS:
        if dk == DK_FREE_MOVE:
            x, y = anchor(s, b, u)
            return cell_goal(s, st, b, u, x, y, style)
        if dk == DK_PUSH:
            x, y = anchor(s, b, s.g[b, G_PUSHED])
            return np.sqrt(marker_d2(s, b, -1, x, y, False))
        return 0.0
    if kind == A_CELL:
        x = p % w
        y = p // w
        if dk == DK_PUSH:  # the pushed enemy model away from the markers
            return np.sqrt(marker_d2(s, b, -1, x, y, False)) + 0.01
        if dk == DK_FREE_MOVE or dk == DK_MOVE_CELL or dk == DK_DEPLOY_CELL or dk == DK_SCOUT_CELL \
                or dk == DK_AMBUSH_CELL:
            return cell_goal(s, st, b, u, x, y, style)
        return 0.0
    if kind == A_ACTION:
        return score_action(s, st, b, u, p, style)
    if kind == A_TARGET:
        v = (1 - side) * s.g[b, G_MU] + p
        if dk == DK_CHARGE_TARGET:
            return charge_worth(s, b, u, v)[0]
        return score_target(s, b, u, v, style)
    if kind == A_NO_TARGET:
        return -1000.0
    if kind == A_STRIKE:
        return np.float64(p)  # always strike back (yes is index 1)
    if kind == A_CAST:
        return score_cast(s, b, side, u, p, style)
    if kind == A_HELP:
        k = p - HELP_MAX
        own = s.u[b, u, U_SIDE] == side
        want = 1 if own else -1
        return -np.float64(abs(k - want))
    return 0.0  # A_EDGE: either edge


@njit(cache=True)
def scripted_action(s, st, b, lay, mask, prng, style):
    """The best-scoring legal index of mask[b] for ``style``; ties drawn from ``prng``; -1 when nothing is legal."""
    row = mask[b]
    dk = s.g[b, G_DK]
    side = s.g[b, G_DPLAYER]
    u = s.g[b, G_FREE] if dk == DK_FREE_MOVE else s.g[b, G_ACTIVE]
    zx = 0.0
    zy = 0.0
    if dk == DK_PLACE_OBJ:
        zx, zy = zone_centre(s, st, b, side)
    best = NEVER
    nbest = 0
    pick = np.int64(-1)
    for a in range(row.shape[0]):
        if not row[a]:
            continue
        sc = score_index(s, st, b, lay, a, dk, side, u, style, zx, zy)
        if sc > best + 1e-9:
            best = sc
            nbest = 1
            pick = np.int64(a)
        elif sc > best - 1e-9:
            nbest += 1
            if rand_below(prng, b, nbest) == 0:  # reservoir sampling among ties, from the player's generator
                pick = np.int64(a)
    return pick


@njit(cache=True)
def holder_action(s, st, b, lay, mask, prng):
    """HOLDER (module docstring)."""
    return scripted_action(s, st, b, lay, mask, prng, STYLE_HOLDER)


@njit(cache=True)
def charger_action(s, st, b, lay, mask, prng):
    """CHARGER (module docstring)."""
    return scripted_action(s, st, b, lay, mask, prng, STYLE_CHARGER)


@njit(cache=True)
def random_action(s, st, b, lay, mask, prng):
    """RANDOM: a uniformly random legal index of mask[b] from the player's ``prng``; -1 when nothing is legal."""
    row = mask[b]
    n = count_true(row)
    if n == 0:
        return np.int64(-1)
    return np.int64(nth_true(row, rand_below(prng, b, n)))


# name -> policy: RULESET.scripts (ruleset.py) hands this to the generic layers (agents/game_agent.py)
SCRIPTS = {"holder": holder_action, "charger": charger_action, "random": random_action}
