"""Scripted Necromunda players as compiled policy kernels (signature: necro_env/policies/__init__.py).

The heuristics (one scorer, :func:`heuristic_action`, with a ``style``) decode every legal
index of ``mask[b]`` with the codec, score it with the engine's own queries (line of sight and
cover, range bands, hit modifiers, wound and save targets, melee weapon choice) and play the best
one; ties are broken with the player's own ``prng`` (never the game's dice).

- **GUNLINE** (:func:`gunline_action`): activates the fighter with the best shot first;
  Aims when it can still shoot afterwards (not before an Unwieldy weapon's Shoot, a Double
  action, nor at a target it would have to turn to), shoots the target with the best expected
  damage (with two Sidearms, both at once where that is worth more: rules 7.8), advances to a
  cell from which it can shoot (preferring cells few enemies can see) when it has no shot, and
  Takes Cover out of sight when it is exposed and has nothing left to shoot.
- **AGGRESSOR** (:func:`aggressor_action`): closes in along the shortest path to the
  enemy (opening doors on the way), Charges whenever it can (Prone and wounded targets
  first), Fights, and finishes Seriously Injured enemies with Coup de Grace; it shoots
  only when it cannot reach anyone this activation.
- **SENTRY** (:func:`sentry_action`), a defensive style for the weaker gang: it holds its
  ground and lets the enemy come into its sights. Its threat field (:func:`fill_threat_field`)
  marks the cells some enemy could charge next activation (path cost less M + 3", a closed door
  counting 2" more; a cell it could reach only on its charge's highest D3 counts as out of reach:
  ``THREAT``); a move is scored by the cell it ends in (:func:`sentry_place`): out of
  charge reach, out of the sight of enemies within range, not crowded (Nerve tests, stray
  shots), and with a Shoot action left a safe firing position first. It shoots the best target
  by expected damage plus the worth of pinning an enemy that could charge (:func:`pin_worth`)
  less the friends in the stray-shot corridor (:func:`stray_share`), never a shot that cannot
  hurt, nor Aims for one; in charge reach too it Aims and shoots where it stands (revision 9),
  and with no shot it moves out of reach (with no cell out of reach it ends its activation where
  it stands, facing the nearest enemy, rather than move within it); it fights only when engaged
  and, until it goes in to finish the enemy (below), charges only to finish a Seriously Injured
  enemy; holding, the fighters with nothing to do activate first, farthest from the enemy first
  (the others keep their activation for an enemy stepping into sight), and it closes open doors
  the enemy would come through. It advances under cover from round 8 on or while the enemy keeps
  away from its deployment zone (:func:`advancing`), and presses on, seen or not, when it
  outnumbers the enemy 1.2 to 1 or while the enemy keeps away (:func:`pressing`); when it
  outnumbers the enemy 2 to 1, and from round 9 on, it goes in to finish it, into its charge reach,
  charging when it has no shot (:func:`finishing`): a draw is no win.
- **AMBUSHER** (:func:`ambusher_action`): the sentry's action while it lies in wait, before round 3
  with no enemy within 8 cells of its fighters (:func:`ambushing`), the aggressor's after: the
  aggressor's charge without its first rounds in the open, built as the stronger gang's teacher
  (docs/results.md, "The ambusher").

Scores are in "points"; the tables at the top of each scorer (the sentry's: the constants at the
top of the module) are the whole tuning.
The path field is a breadth-first search from every enemy on the board over cells
that are not walls or locked doors (closed doors count as passable: the fighter opens
them when it gets there).

Speed (the search agent plays thousands of these games per decision; benchmarks/heuristic_speed.py):
what depends only on the position is computed once per decision, on first use (the path field,
the sentry's threat field, the deciding fighter's values in ``memo``; both fields in one array
allocated per decision), a costly query is skipped where a bound shows that its answer cannot
change the pick (``floor`` in :func:`score_action`, the Cool-test discount in :func:`best_shot`),
a pair of cells with walls on every ray is rejected from the static tables before the
line-of-sight call (:func:`walled_off`), and on boards up to 64 cells wide both fields are searched
by whole rows of 64-bit sets of cells (:func:`row_search`, :func:`threat_row_search`; the queue
searches, :func:`queue_search` and :func:`threat_queue_search`, give the same fields on any board).
None of this changes a score that can decide the pick, nor the draws from ``prng``: the choices
are those of the plain scorers.
"""
import numba
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from .._numba_cache import leaf_njit
from ..core.bytemask import load_u64
from ..core.rng import rand_below
from ..core.reach import DX8, DY8, _heap_pop, _heap_push
from ..core.terrain import DOOR_CLOSED, DOOR_LOCKED, DOOR_OPEN, TER_DOOR, TER_OBSTACLE, TER_WALL
from ..rulesets.necromunda.actions import twin_sidearms, unwieldy
from ..rulesets.necromunda.codec import (
    A_AIM,
    A_BLIND_FIRE,
    A_BOTTLE,
    A_CHARGE,
    A_CONSOLIDATE,
    A_COUP,
    A_CRAWL,
    A_END,
    A_FIGHT,
    A_FIRE_DUCT,
    A_FLEE,
    A_MOVE,
    A_OPEN_DOOR,
    A_RELOAD,
    A_RETREAT,
    A_SELECT,
    A_SHOOT,
    A_SHOOT_TWIN,
    A_STAND_UP,
    A_TAKE_COVER,
    A_TERMINAL,
    A_TURN,
    decode,
)
from ..rulesets.necromunda.combat import best_melee
from ..rulesets.necromunda.constants import (
    CH_A,
    CH_BS,
    CH_S,
    CH_WS,
    PF_AP,
    PF_D,
    PF_LONG,
    PF_RAPID,
    PF_TRAITS,
    T_RAPID_FIRE,
)
from ..rulesets.necromunda.damage import save_target, wound_target
from ..rulesets.necromunda.legal import charge_allowance_max, rel_to_global
from ..rulesets.necromunda.movement import facing_towards
from ..rulesets.necromunda.query import (
    ALL_RAYS,
    clear_rays,
    clear_rays_cells,
    cover_grade,
    dist2,
    gang_of,
    is_engaged,
    toughness,
)
from ..rulesets.necromunda.shooting import (
    BAND_OUT,
    MOD_TWIN,
    band,
    eligible,
    hit_modifier,
    needs_cool_test,
)
from ..rulesets.necromunda.state import (
    DK_ACTION,
    DR_STATE,
    FI_ACTS,
    FI_AIMED,
    FI_CH,
    FI_POSTURE,
    FI_STATE,
    FI_TURN,
    FI_WOUNDS,
    FI_X,
    FI_Y,
    FS_ON,
    G_ACTIVE,
    G_DGANG,
    G_DK,
    G_FU,
    G_MF,
    G_ROUND,
    PO_SI,
    PO_STANDING,
    WP_ID,
    WP_OOA,
)
from ..rulesets.necromunda.weapons import can_shoot_with, strength

STYLE_GUNLINE = 0
STYLE_AGGRESSOR = 1
STYLE_SENTRY = 2
FAR = 10000  # path distance of a cell no enemy can reach

# SENTRY: the whole tuning (its measured play by side: docs/results.md, "The scripted players")
THREAT = 1  # a cell is in the enemy's charge reach when its threat slack (fill_threat_field) is at most this
# (2 until revision 9: counting slack 2 as out of reach, so taking the chance that the charger needs the
# D3's highest roll, won more games than 2, 0, -1, -2 or 4: docs/results.md, "The sentry Aims in charge reach")
THR_DOOR = 4  # half-inches added to a threat path through a closed door
THR_LIM = 24  # the threat search stops this many half-inches past the enemies' charge reach ...
THR_FAR = 1000  # ... and gives the cells beyond this slack
UNSET = -(1 << 20)  # thr[0] of a threat field not computed yet (every real value is above it)
NEVER = -1e6  # the score of an action it does not take (its End may score below 0)
PIN = 0.5  # a shot's worth of pinning a Standing enemy that could charge one of its fighters, x P(hit)
STRAY = 0.3  # a shot's worth lost per friend in the stray-shot corridor, x its share (stray_share)
# Each script's revision: raised whenever its decisions change. A network observing the scripts' choices
# (the advised encoder, necro_env/envs/advice.py) learned the decisions of the revisions it was trained
# with: its checkpoint records them and is refused by another (agents.checkpoint). Sentry 2 (2026-11-27):
# it goes in to finish a beaten enemy (finishing). Ambusher 1 (2026-11-27): the fourth script; 2
# (2026-11-27): its reach counts the floor-height difference (ambushing). Sentry and ambusher 3 (2026-11-28):
# in charge reach with no cell out of it the sentry ends its activation where it stands (HOLD) instead of
# Aiming with no shot to follow (docs/results.md, "The sentry holds where it stands"). Gunline 2, sentry and
# ambusher 4 (2026-11-28): they Aim only when a shot can follow it: an Unwieldy weapon's Shoot is a Double
# action, so after an Aim its carrier could not fire it (best_shot's ``acts_left``). Gunline 3, sentry and
# ambusher 5 (2026-11-28): nor at a target out of the arc it faces, which it could shoot only by turning
# before its first action (docs/results.md, "The heavy weapons fire"). Gunline 4, aggressor 2, sentry and
# ambusher 6 (2026-11-28): a twin Shoot (two Sidearms, rules §7.8) is scored at its target, as the two shots'
# worth there at -1 each, on the Shoot's scale; it had one score for every target (the best single shot at
# -1, below any Shoot), so it was rarely played and then at a target drawn by the tie-break; and a Shoot
# after an Aim counts the Aim's +1 (docs/results.md, "Twin sidearms at their target").
# Sentry and ambusher 7 (2026-11-28): the sentry values the shot it would Aim for, and whether it has a
# shot worth taking at all, as it scores its Shoot (best_shot's ``sentry``: pinning worth less the stray-shot
# corridor); it Aimed for shots it then did not take. Sentry and ambusher 8 (2026-11-29): in charge reach it
# turns to face the nearest enemy before it ends its activation where it stands, as it does out of reach
# (a fighter charged from outside its vision arc turns to face at -1 to hit, rules 8.1); revision 3's HOLD
# floor on the End had left that Turn below it (docs/results.md, "Where the search's Orlock games are won").
# Sentry and ambusher 9 (2026-11-29): in charge reach too it Aims before its shot, spending both actions
# where it stands; it had shot at once to keep its second action for getting out of the reach, which won
# fewer games; and THREAT is 1, not 2 (docs/results.md, "The sentry Aims in charge reach").
REVISIONS = {"gunline": 4, "aggressor": 2, "sentry": 9, "ambusher": 9}

ADVANCE_ROUND = 8  # it holds its ground until this round, then advances under cover ...
ADVANCE_GAP = 12  # ... or from round 3 on while no enemy is within this many steps of its deployment zone
PRESS_RATIO = 1.2  # it presses on when it outnumbers the enemy this many to one (or while the enemy keeps away)
FINISH_RATIO = 2.0  # it goes in to finish the enemy, into its charge reach, when it outnumbers it this many to one ...
FINISH_ROUND = 9  # ... or from this round on (a draw is worth no more than a loss)
AMBUSH_ROUND = 3  # the ambusher lies in wait as the sentry until this round ...
AMBUSH_REACH = 8  # ... or until an enemy comes within this many cells of its fighters; then the aggressor
# a cell's worth (sentry_place) and the moves (sentry_move)
PLACE_REACH = 150.0  # lost in the enemy's charge reach
PLACE_SLACK = 0.5  # per half-inch of threat slack (up to THR_LIM)
PLACE_SEEN = 30.0  # per enemy within range that sees the cell (exposure in range)
PLACE_FAR = 0.2  # per step of path distance from the enemy (holding)
PLACE_ADVANCE = 2.0  # per step nearer to the enemy (advancing)
PRESS_REACH = 150.0  # pressing: lost in the enemy's charge reach
PRESS_SEEN = 0.0  # pressing: per enemy within range that sees the cell
PRESS_ADVANCE = 5.0  # pressing: per step nearer to the enemy
CROWD = 8.0  # per friend within 2 cells (half that at 3; crowd)
FIRE_POS = 200.0  # a firing position (out of charge reach unless pressing), with a Shoot action left
FIRE_SEEN = 10.0  # per enemy within range that sees the firing position
TAKE_COVER = 20.0  # a Take Cover (it ends Prone) scores this much less than a Move to the same cell
STAY = 1.0  # ending the activation where it stands, over a move to a cell of the same worth
HOLD = 1.0  # the End's floor: in charge reach with no cell out of it, it stays rather than move within it
DOOR_CLOSE = 240.0  # closing an open door the enemy would come through (holding, nothing to shoot)


# ------------------------------------------------------------------ small probabilities
@leaf_njit(inline="always")
def p_roll(need):
    """P(D6 >= need) with a natural 1 always failing (need clipped to 2..7)."""
    need = max(need, 2)
    if need > 6:
        return 0.0
    return (7.0 - need) / 6.0


@leaf_njit
def wound_value(s, b, t, dmg):
    """Worth of one unsaved wound of Damage ``dmg`` on t: a wound that reaches the Injury
    dice (or hits an already Seriously Injured fighter) is worth more."""
    w = s.fi[b, t, FI_WOUNDS]
    v = 1.0
    if dmg >= w:
        v += 1.5
    if s.fi[b, t, FI_POSTURE] == PO_SI:
        v *= 0.6
    return v


# ------------------------------------------------------------------ expected damage
@leaf_njit(inline="always")
def walled_off(st, ax, ay, tx, ty):
    """Every ray from cell (ax, ay) to another cell (tx, ty) crosses a wall: no line of sight,
    whatever else is on the board. This is ``query.clear_rays_cells``'s own first test (it returns 0
    there), made before calling it: the call passes the state's and the tables' arrays field by
    field and was most of the cost of the many pairs of cells with walls between them."""
    w = st.terrain.shape[1]
    ca = ay * w + ax
    ct = ty * w + tx
    return ca != ct and st.los_wall[ca, ct] == ALL_RAYS


@leaf_njit
def shot_base(s, st, b, f, item, p, t, aim_bonus):
    """:func:`shot_value` before the target-priority discount (x 0.6 when f would need a Cool
    test to shoot t), which is the costly part (line of sight to every closer enemy) and can
    only lower the value: callers that only compare the value skip it when it cannot matter."""
    wid = s.wp[b, f, item, WP_ID]
    d2 = dist2(s, b, f, t)
    bnd = band(st, wid, p, d2)
    if bnd == BAND_OUT:
        return 0.0
    cg = cover_grade(clear_rays(s, st, b, f, t, False))
    if cg == 3:
        return 0.0
    mod = hit_modifier(s, st, b, f, t, wid, p, bnd, cg) + aim_bonus
    ph = p_roll(s.fi[b, f, FI_CH + CH_BS] - mod)
    pw = p_roll(wound_target(strength(s, st, b, f, wid, p), toughness(s, b, t)))
    sv = save_target(s, st, b, t, s.fi[b, f, FI_X], s.fi[b, f, FI_Y], st.wprof[wid, p, PF_AP], False,
                     s.fi[b, t, FI_POSTURE] == PO_STANDING)
    pu = 1.0 - p_roll(sv)
    shots = 1.0
    if st.wprof[wid, p, PF_TRAITS] & T_RAPID_FIRE:
        shots += 0.5 * st.wprof[wid, p, PF_RAPID]
    dmg = max(1, st.wprof[wid, p, PF_D])
    return shots * ph * pw * pu * wound_value(s, b, t, dmg)


@leaf_njit(inline="always")
def cool_discount(s, st, b, f, item, p, t, v):
    """v x 0.6 when f needs a Cool test to shoot t (target priority), else v (0 stays 0)."""
    if v > 0.0 and needs_cool_test(s, st, b, f, t, s.wp[b, f, item, WP_ID], p, False):
        v *= 0.6
    return v


@leaf_njit
def shot_value(s, st, b, f, item, p, t, aim_bonus):
    """Expected worth of f shooting t with (item, profile) from where it stands."""
    return cool_discount(s, st, b, f, item, p, t, shot_base(s, st, b, f, item, p, t, aim_bonus))


@leaf_njit
def best_shot(s, st, b, f, aim_bonus, acts_left, sentry):
    """The best shot value f has over every usable weapon profile and eligible target, with
    ``acts_left`` actions left when it shoots: an Unwieldy profile's Shoot is a Double action (rules
    §12), so with fewer than two left it is not counted (after an Aim, one action is left).
    ``sentry``: each shot that can hurt is valued as the sentry scores its Shoot, with the worth of
    pinning the target (:func:`pin_worth`) less the friends in its stray-shot corridor
    (:func:`stray_share`)."""
    nf = s.fi.shape[1]
    np_ = st.wprof.shape[1]
    # the usable (item, profile) pairs
    prof = np.empty(s.wp.shape[2] * np_, np.int64)
    n_prof = 0
    for item in range(s.wp.shape[2]):
        if s.wp[b, f, item, WP_ID] < 0:
            continue
        for p in range(np_):
            if can_shoot_with(s, st, b, f, item, p) and (acts_left >= 2
                                                         or not unwieldy(st, s.wp[b, f, item, WP_ID], p)):
                prof[n_prof] = item * np_ + p
                n_prof += 1
    if n_prof == 0:
        return 0.0
    # the shots' values before the Cool-test discount, and their (item, profile, target)
    raw = np.empty(n_prof * nf)
    shot = np.empty(n_prof * nf, np.int64)
    n = 0
    for t in range(nf):
        # a shot out of range is worth 0 (shot_base): eligibility (line of sight) is asked only
        # of targets in range of some usable profile, once for all of them
        d2 = dist2(s, b, f, t)
        in_range = False
        for k in range(n_prof):
            if band(st, s.wp[b, f, prof[k] // np_, WP_ID], prof[k] % np_, d2) != BAND_OUT:
                in_range = True
                break
        if not in_range:
            continue
        # no line of sight (cover grade 3) makes t ineligible: the engine's first test, made here
        if walled_off(st, s.fi[b, f, FI_X], s.fi[b, f, FI_Y], s.fi[b, t, FI_X], s.fi[b, t, FI_Y]):
            continue
        if not eligible(s, st, b, f, t, False):
            continue
        share = -1.0  # (the stray-shot corridor's share, once per target)
        for k in range(n_prof):
            v = shot_base(s, st, b, f, prof[k] // np_, prof[k] % np_, t, aim_bonus)
            if v > 0.0 and sentry:
                if share < 0.0:
                    share = stray_share(s, b, f, t)
                v = sentry_worth(s, st, b, f, prof[k] // np_, prof[k] % np_, t, v, 1.0, share)
            if v > 0.0:
                raw[n] = v
                shot[n] = prof[k] * nf + t
                n += 1
    # The best discounted value, the shots taken from the highest raw value down: the discount
    # only lowers a value, so once a raw value is no better than the best so far neither is any
    # other (most calls make one Cool-test query, which looks at every closer enemy).
    best = 0.0
    while n > 0:
        j = 0
        for i in range(1, n):
            if raw[i] > raw[j]:
                j = i
        if raw[j] <= best:
            break
        k = shot[j]
        t = k % nf
        p = (k // nf) % np_
        item = k // (nf * np_)
        best = max(best, cool_discount(s, st, b, f, item, p, t, raw[j]))
        n -= 1
        raw[j] = raw[n]
        shot[j] = shot[n]
    return best


@leaf_njit
def longest_range(s, st, b, f):
    r = 0
    for item in range(s.wp.shape[2]):
        wid = s.wp[b, f, item, WP_ID]
        if wid < 0 or s.wp[b, f, item, WP_OOA]:
            continue
        for p in range(st.wprof.shape[1]):
            if can_shoot_with(s, st, b, f, item, p) and st.wprof[wid, p, PF_LONG] > r:
                r = st.wprof[wid, p, PF_LONG]
    return r


@leaf_njit
def melee_value(s, st, b, f, t):
    """Expected worth of f's attacks on t in a fight (best melee profile, or unarmed)."""
    item, p, _ = best_melee(s, st, b, f, -1, True)
    S = s.fi[b, f, FI_CH + CH_S]
    ap = 0
    dmg = 1
    if item >= 0:
        wid = s.wp[b, f, item, WP_ID]
        S = strength(s, st, b, f, wid, p)
        ap = st.wprof[wid, p, PF_AP]
        dmg = max(1, st.wprof[wid, p, PF_D])
    ph = p_roll(s.fi[b, f, FI_CH + CH_WS])
    pw = p_roll(wound_target(S, toughness(s, b, t)))
    sv = save_target(s, st, b, t, s.fi[b, f, FI_X], s.fi[b, f, FI_Y], ap, False, True)
    pu = 1.0 - p_roll(sv)
    n = max(1, s.fi[b, f, FI_CH + CH_A])
    v = n * ph * pw * pu * wound_value(s, b, t, dmg)
    if s.fi[b, t, FI_POSTURE] != PO_STANDING:
        v *= 1.5  # no reaction attacks, easier to finish
    return v


# ------------------------------------------------------------------ board fields
if numba.config.DISABLE_JIT:  # plain Python (NUMBA_DISABLE_JIT=1)
    def lowest_bit(m):
        """The index of the lowest set bit of m (m != 0)."""
        m = int(m)
        return (m & -m).bit_length() - 1
else:
    lowest_bit = trailing_zeros

ONE = np.uint64(1)
ZERO = np.uint64(0)


@leaf_njit(inline="always")
def path_blocked(s, st, b, x, y):
    """Cell (x, y) is closed to the path fields' searches: a wall, or a door locked in game b."""
    ter = st.terrain[y, x]
    if ter == TER_WALL:
        return True
    return ter == TER_DOOR and s.door[b, st.door_of_cell[y, x], DR_STATE] == DOOR_LOCKED


@leaf_njit
def row_search(s, st, b, me, field):
    """:func:`fill_path_field` on a board at most 64 cells wide: a breadth-first search over whole
    rows at once. Row y of the board is a 64-bit set of cells, and a layer of the search is the
    8-neighbour spread of the previous layer (rows y - 1, y, y + 1 or'ed together, shifted a cell
    left and right) less blocked and reached cells; a cell's distance is that of the first layer
    that reaches it, as in a queue search (about twice as fast on the 24 x 24 boards)."""
    h, w = st.terrain.shape
    # one allocation: row y of the free cells (neither walls nor locked doors) and of the reached ones
    # at rows[FREE, y] and rows[SEEN, y]; the last layer and the next at rows[cur] and rows[nxt] (row y
    # at y + 1, with an empty row above and below)
    FREE = 0
    SEEN = 1
    rows = np.zeros((4, h + 2), np.uint64)
    cur = 2
    nxt = 3
    for y in range(h):
        r = ZERO
        for x in range(w):
            if path_blocked(s, st, b, x, y):
                continue
            r |= ONE << np.uint64(x)
        rows[FREE, y] = r
    for c in range(h * w):
        field[c] = FAR
    for t in range(s.fi.shape[1]):
        if s.fi[b, t, FI_STATE] == FS_ON and gang_of(s, b, t) != me:
            x = s.fi[b, t, FI_X]
            y = s.fi[b, t, FI_Y]
            field[y * w + x] = 0
            bit = ONE << np.uint64(x)
            rows[cur, y + 1] |= bit
            rows[SEEN, y] |= bit
    d = 0
    more = True
    while more:
        d += 1
        more = False
        for y in range(h):
            m = rows[cur, y] | rows[cur, y + 1] | rows[cur, y + 2]
            m = (m | (m << ONE) | (m >> ONE)) & rows[FREE, y] & ~rows[SEEN, y]
            rows[nxt, y + 1] = m
            if m != 0:
                more = True
                rows[SEEN, y] |= m
                while m != 0:
                    field[y * w + np.int64(lowest_bit(m))] = d
                    m &= m - ONE
        cur, nxt = nxt, cur


@leaf_njit
def queue_search(s, st, b, me, field):
    """:func:`fill_path_field` on any board: a queue search on a copy of the board padded with a
    blocked border, in which a blocked cell holds -1 and an unvisited open one FAR (one test per
    neighbour, no bounds or terrain checks)."""
    h, w = st.terrain.shape
    pw = w + 2
    grid = np.full((h + 2) * pw, -1, np.int32)
    for y in range(h):
        for x in range(w):
            if path_blocked(s, st, b, x, y):
                continue
            grid[(y + 1) * pw + x + 1] = FAR
    queue = np.empty(h * w, np.int32)
    head = 0
    tail = 0
    for t in range(s.fi.shape[1]):
        if s.fi[b, t, FI_STATE] == FS_ON and gang_of(s, b, t) != me:
            c = (s.fi[b, t, FI_Y] + 1) * pw + s.fi[b, t, FI_X] + 1
            if grid[c] != 0:
                grid[c] = 0
                queue[tail] = c
                tail += 1
    while head < tail:
        c = queue[head]
        head += 1
        nd = grid[c] + 1
        for nc in (c - pw - 1, c - pw, c - pw + 1, c - 1, c + 1, c + pw - 1, c + pw, c + pw + 1):
            if grid[nc] == FAR:
                grid[nc] = nd
                queue[tail] = nc
                tail += 1
    for y in range(h):
        for x in range(w):
            v = grid[(y + 1) * pw + x + 1]
            field[y * w + x] = v if v >= 0 else FAR


@leaf_njit
def fill_path_field(s, st, b, me, field):
    """Write :func:`path_field` into ``field`` (h * w cells)."""
    if st.terrain.shape[1] <= 64:
        row_search(s, st, b, me, field)
    else:
        queue_search(s, st, b, me, field)


@leaf_njit
def path_field(s, st, b, me):
    """Steps (8-neighbour) from each cell to the nearest enemy of gang ``me`` on the board;
    walls and locked doors block, closed doors do not (they can be opened)."""
    field = np.empty(st.terrain.shape[0] * st.terrain.shape[1], np.int32)
    fill_path_field(s, st, b, me, field)
    return field


@leaf_njit(inline="always")
def field_at(s, st, b, me, field, c):
    """field[c] of the decision's lazily computed path field (``field[0] < 0``: not computed yet;
    many decisions need none of it, e.g. a gunline choosing between shots)."""
    if field[0] < 0:
        fill_path_field(s, st, b, me, field)
    return field[c]


@leaf_njit
def exposure(s, st, b, f, x, y, in_range):
    """Enemies (Standing) with line of sight to cell (x, y) if f stood there; with ``in_range``
    (SENTRY) only those whose longest range reaches the cell: an enemy that sees the cell from
    farther away cannot hurt f there (the scripted players still spend a Shoot on it when nothing
    else is in sight)."""
    me = gang_of(s, b, f)
    n = 0
    for e in range(s.fi.shape[1]):
        if s.fi[b, e, FI_STATE] != FS_ON or gang_of(s, b, e) == me or s.fi[b, e, FI_POSTURE] != PO_STANDING:
            continue
        ex = s.fi[b, e, FI_X]
        ey = s.fi[b, e, FI_Y]
        if in_range:
            r = longest_range(s, st, b, e) + 0.5
            if (ex - x) * (ex - x) + (ey - y) * (ey - y) > r * r:
                continue
        if walled_off(st, ex, ey, x, y):
            continue
        if clear_rays_cells(s, st, b, ex, ey, x, y, gang_of(s, b, e), e, f, False) > 0:
            n += 1
    return n


@leaf_njit(separate=False)  # called per candidate cell: linked, not called separately (core.separate)
def view_from(s, st, b, f, x, y, rng):
    """(targets in range and sight, best cover grade against them) if f stood at (x, y)."""
    me = gang_of(s, b, f)
    n = 0
    best = 0.0
    r = rng + 1.0
    for t in range(s.fi.shape[1]):
        if s.fi[b, t, FI_STATE] != FS_ON or gang_of(s, b, t) == me:
            continue
        dx = s.fi[b, t, FI_X] - x
        dy = s.fi[b, t, FI_Y] - y
        if dx * dx + dy * dy > r * r:
            continue
        if walled_off(st, x, y, s.fi[b, t, FI_X], s.fi[b, t, FI_Y]):
            continue  # (no line of sight: cover grade 3)
        cg = cover_grade(clear_rays_cells(s, st, b, x, y, s.fi[b, t, FI_X], s.fi[b, t, FI_Y], me, f, t, False))
        if cg == 3 or (cg > 0 and s.fi[b, t, FI_POSTURE] != PO_STANDING):
            continue
        n += 1
        v = (3.0 - cg) / 3.0
        best = max(best, v)
    return n, best


@leaf_njit
def nearest_enemy(s, b, f):
    best = -1
    bd = 1 << 30
    for t in range(s.fi.shape[1]):
        if s.fi[b, t, FI_STATE] == FS_ON and gang_of(s, b, t) != gang_of(s, b, f):
            d = dist2(s, b, f, t)
            if d < bd:
                bd = d
                best = t
    return best


# ------------------------------------------------------------------ the sentry's queries
@leaf_njit
def fill_threat_field(s, st, b, me, thr):
    """The charge threat to gang ``me``: ``thr[c]`` = the least, over the enemies that could Charge in
    their next activation (Standing and not Engaged), of the half-inch cost of a path from the enemy
    to cell c less twice its largest charge move (``legal.charge_allowance_max``: M + 3). A fighter
    of gang me at c can be charged when a contact cell is within that reach, about when
    ``thr[c] <= THREAT``. Paths cost as in core.reach (2 a step, 3 diagonally without cutting a
    solid corner, 1" more into an obstacle) and do not go through walls or locked doors; a closed
    door costs THR_DOOR more (the enemy opening it cannot Charge in the same activation, a Double
    action, but the next one can: the fighter acts once a round, the enemy gang several times in
    between); other fighters are ignored. The search stops at THR_LIM; cells beyond it hold THR_FAR.

    Boards up to 64 cells wide take :func:`threat_row_search` (rows of 64-bit sets), wider ones
    :func:`threat_queue_search` (a priority queue): both give the exact least costs, so the same field."""
    if st.terrain.shape[1] <= 64:
        threat_row_search(s, st, b, me, thr)
    else:
        threat_queue_search(s, st, b, me, thr)


@leaf_njit(separate=False)
def charger_key(s, st, b, me, e):
    """The threat search's start key of fighter e: minus twice its largest charge move when it is an
    enemy of gang ``me`` that could Charge in its next activation (Standing, not Engaged), else THR_FAR."""
    if (s.fi[b, e, FI_STATE] != FS_ON or gang_of(s, b, e) == me or s.fi[b, e, FI_POSTURE] != PO_STANDING
            or is_engaged(s, b, e)):
        return THR_FAR
    return -2 * charge_allowance_max(s, st, b, e)


@leaf_njit
def threat_queue_search(s, st, b, me, thr):
    """:func:`fill_threat_field` on any board: Dijkstra's search with a binary heap from every enemy
    that could charge."""
    h, w = st.terrain.shape
    n = h * w
    open_ = np.empty(n, np.bool_)
    for y in range(h):
        for x in range(w):
            c = y * w + x
            open_[c] = st.terrain[y, x] != TER_WALL
            thr[c] = THR_FAR
    door_cost = np.zeros(n, np.int32)
    for d in range(st.door_xy.shape[0]):
        ds = s.door[b, d, DR_STATE]
        if st.door_xy[d, 0] < 0:
            continue
        c = st.door_xy[d, 1] * w + st.door_xy[d, 0]
        if ds == DOOR_LOCKED:
            open_[c] = False
        elif ds == DOOR_CLOSED:
            door_cost[c] = THR_DOOR
    cap = 8 * n + 8
    hk = np.empty(cap, np.int32)
    hv = np.empty(cap, np.int32)
    hn = 0
    for e in range(s.fi.shape[1]):
        k = charger_key(s, st, b, me, e)
        if k == THR_FAR:
            continue
        c = s.fi[b, e, FI_Y] * w + s.fi[b, e, FI_X]
        if k < thr[c]:
            thr[c] = k
            hn = _heap_push(hk, hv, hn, k, c)
    while hn > 0:
        d, c, hn = _heap_pop(hk, hv, hn)
        if d > thr[c]:
            continue
        cx = c % w
        cy = c // w
        for k in range(8):
            nx = cx + DX8[k]
            ny = cy + DY8[k]
            if nx < 0 or ny < 0 or nx >= w or ny >= h:
                continue
            nc = ny * w + nx
            if not open_[nc]:
                continue
            step = 2
            if k >= 4:
                if (not open_[cy * w + nx] or not open_[ny * w + cx] or door_cost[cy * w + nx] > 0
                        or door_cost[ny * w + cx] > 0 or door_cost[nc] > 0 or door_cost[c] > 0):
                    continue  # no corner of a wall or a closed door cut, no diagonal through a door
                step = 3
            if st.terrain[ny, nx] == TER_OBSTACLE:
                step += 2
            nd = d + step + door_cost[nc]
            if nd <= THR_LIM and nd < thr[nc]:
                thr[nc] = nd
                if hn < cap:
                    hn = _heap_push(hk, hv, hn, nd, nc)


# the threat row search's sets of cells (rows of ``sets``; each is h + 2 rows of 64-bit sets)
TS_FLOOR = 0  # open floor (walls and locked doors are in no set): a step in costs 2, 3 diagonally
TS_OBST = 1  # obstacles: 2 more
TS_DOOR = 2  # closed doors: THR_DOOR more, straight steps only
TS_DOOR_OBST = 3  # closed doors on an obstacle cell: both
TS_DIAG = 4  # TS_FLOOR | TS_OBST: a diagonal step may cut its corner or end there
TS_FROM = 5  # not a closed door: a diagonal step may start there
TS_MORE = 6  # TS_OBST | TS_DOOR | TS_DOOR_OBST: a step in costs more than 2 (3)
TS_SEEN = 7  # reached at a lower cost
TS_CUR = 8  # reached at the cost being done
TS_PEND = 9  # TS_PEND + i: pending at cost lo + i (the search's lowest start key lo)


@leaf_njit
def threat_row_search(s, st, b, me, thr):
    """:func:`fill_threat_field` on a board at most 64 cells wide: Dijkstra's search by whole rows of
    cells. A step costs at least 2 half-inches, so the cells whose least cost is d are the cells
    pending at cost d and not reached at a lower cost, all known once every lower cost is done.
    Each set of cells is a column of 64-bit rows (bit x of row y + 1: cell (x, y); rows 0 and
    h + 1 stay empty); the cells reached at cost d make their straight neighbours pending at
    d + 2 (+ 2 on an obstacle, + THR_DOOR into a closed door) and their diagonal neighbours at
    d + 3 (+ 2 on an obstacle) where no corner is a wall or closed door and no closed door is left
    or entered (the rules of :func:`threat_queue_search`, which gives the same least costs three to
    five times slower on the 24 x 24 boards)."""
    h, w = st.terrain.shape
    n = h * w
    nf = s.fi.shape[1]
    # the start keys of the enemies that could charge, kept in thr[:nf] until the field is written
    key = thr if nf <= n else np.empty(nf, np.int32)
    lo = THR_LIM + 1
    for e in range(nf):
        k = charger_key(s, st, b, me, e)
        key[e] = k
        lo = min(lo, k)
        if THR_LIM < k < THR_FAR:  # a charge move below -THR_LIM / 2 (never seen): the queue search
            threat_queue_search(s, st, b, me, thr)  # writes that start key where the enemy stands
            return
    if lo > THR_LIM:  # no enemy can charge
        for c in range(n):
            thr[c] = THR_FAR
        return
    nb = THR_LIM - lo + 1  # the costs lo..THR_LIM
    # every set in one allocation, indexed by its TS_* row (no views: each would be reference-counted)
    sets = np.zeros((TS_PEND + nb, h + 2), np.uint64)
    for e in range(nf):
        k = key[e]
        if k != THR_FAR:
            sets[TS_PEND + k - lo, s.fi[b, e, FI_Y] + 1] |= ONE << np.uint64(s.fi[b, e, FI_X])
    for c in range(n):
        thr[c] = THR_FAR
    for y in range(h):
        op = ZERO
        ob = ZERO
        for x in range(w):
            t = st.terrain[y, x]
            op |= np.uint64(t != TER_WALL) << np.uint64(x)
            ob |= np.uint64(t == TER_OBSTACLE) << np.uint64(x)
        sets[TS_FLOOR, y + 1] = op & ~ob
        sets[TS_OBST, y + 1] = op & ob
    for yy in range(h + 2):
        sets[TS_FROM, yy] = ~ZERO
    for dr in range(st.door_xy.shape[0]):
        x = st.door_xy[dr, 0]
        if x < 0:
            continue
        yy = st.door_xy[dr, 1] + 1
        ds = s.door[b, dr, DR_STATE]
        bit = ONE << np.uint64(x)
        if ds == DOOR_LOCKED:
            sets[TS_FLOOR, yy] &= ~bit
            sets[TS_OBST, yy] &= ~bit
        elif ds == DOOR_CLOSED:
            sets[TS_FROM, yy] &= ~bit
            if sets[TS_FLOOR, yy] & bit:
                sets[TS_FLOOR, yy] &= ~bit
                sets[TS_DOOR, yy] |= bit
            elif sets[TS_OBST, yy] & bit:
                sets[TS_OBST, yy] &= ~bit
                sets[TS_DOOR_OBST, yy] |= bit
    for yy in range(h + 2):
        sets[TS_DIAG, yy] = sets[TS_FLOOR, yy] | sets[TS_OBST, yy]
        sets[TS_MORE, yy] = sets[TS_OBST, yy] | sets[TS_DOOR, yy] | sets[TS_DOOR_OBST, yy]
    for i in range(nb):
        d = lo + i
        p = TS_PEND + i
        # the cells reached at cost d, row yy + 1 found before row yy is expanded (which reads it)
        sets[TS_CUR, 1] = sets[p, 1] & ~sets[TS_SEEN, 1]
        for yy in range(1, h + 1):
            if yy < h:
                sets[TS_CUR, yy + 1] = sets[p, yy + 1] & ~sets[TS_SEEN, yy + 1]
            a = sets[TS_CUR, yy - 1]
            m = sets[TS_CUR, yy]
            c = sets[TS_CUR, yy + 1]
            if m != 0:
                sets[TS_SEEN, yy] |= m
                base = (yy - 1) * w
                bits = m
                while bits != 0:
                    thr[base + np.int64(lowest_bit(bits))] = d
                    bits &= bits - ONE
            elif (a | c) == 0:
                continue
            straight = a | c | (m << ONE) | (m >> ONE)
            # diagonal steps into row yy from row yy - 1 (a) and yy + 1 (c): the source not a closed
            # door, the corner in row yy (the source's x) and the one in the source's row (the target's x)
            # open and not closed doors, the target too
            r = sets[TS_DIAG, yy]
            da = a & sets[TS_FROM, yy - 1] & r
            dc = c & sets[TS_FROM, yy + 1] & r
            diag = ((((da << ONE) | (da >> ONE)) & sets[TS_DIAG, yy - 1])
                    | (((dc << ONE) | (dc >> ONE)) & sets[TS_DIAG, yy + 1])) & r
            # (a cost past THR_LIM is pending nowhere: the search stops there)
            if d + 2 <= THR_LIM:
                sets[p + 2, yy] |= straight & sets[TS_FLOOR, yy]
            if d + 3 <= THR_LIM:
                sets[p + 3, yy] |= diag & sets[TS_FLOOR, yy]
            if sets[TS_MORE, yy] != 0:  # (most rows have no obstacle or closed door)
                if d + 4 <= THR_LIM:
                    sets[p + 4, yy] |= straight & sets[TS_OBST, yy]
                if d + 5 <= THR_LIM:
                    sets[p + 5, yy] |= diag & sets[TS_OBST, yy]
                if d + 2 + THR_DOOR <= THR_LIM:
                    sets[p + 2 + THR_DOOR, yy] |= straight & sets[TS_DOOR, yy]
                if d + 4 + THR_DOOR <= THR_LIM:
                    sets[p + 4 + THR_DOOR, yy] |= straight & sets[TS_DOOR_OBST, yy]


@leaf_njit(inline="always")
def threat_at(s, st, b, me, thr, c):
    """thr[c] of the decision's lazily computed threat field (``thr[0] == UNSET``: not computed yet)."""
    if thr[0] == UNSET:
        fill_threat_field(s, st, b, me, thr)
    return thr[c]


@leaf_njit(inline="always")
def crowd(s, b, f, x, y):
    """Friends of f near cell (x, y): 1 for each within 2 cells, 0.5 at 3 (a friend going down within 3"
    makes the others take Nerve tests, and friends close together stand in each other's stray shots)."""
    me = gang_of(s, b, f)
    n = 0.0
    for o in range(s.fi.shape[1]):
        if o == f or s.fi[b, o, FI_STATE] != FS_ON or gang_of(s, b, o) != me:
            continue
        r = max(abs(s.fi[b, o, FI_X] - x), abs(s.fi[b, o, FI_Y] - y))
        if r <= 2:
            n += 1.0
        elif r == 3:
            n += 0.5
    return n


@leaf_njit(inline="always")
def in_corridor(s, b, m, fx, fy, dx, dy, l2):
    """Squared distance from the shooter at (fx, fy) of model m when it stands in the stray-shot corridor
    of a shot along (dx, dy) (rules 7.5: its centre within 1.5 of the segment, ahead of the shooter), else -1."""
    px = s.fi[b, m, FI_X] - fx
    py = s.fi[b, m, FI_Y] - fy
    proj = px * dx + py * dy
    if proj <= 0:
        return -1
    u = min(proj / l2, 1.0)
    ex = px - u * dx
    ey = py - u * dy
    if ex * ex + ey * ey > 2.25:
        return -1
    return px * px + py * py


@leaf_njit
def stray_share(s, b, f, t):
    """The share of f's missed shots at t that would hit a friend of f: the models in the stray-shot
    corridor roll in order of distance from the shooter, a 1-3 hits and stops the rolls (rules 7.5), so
    the k-th nearest is hit by half of what the k - 1 nearer ones let through."""
    fx = s.fi[b, f, FI_X]
    fy = s.fi[b, f, FI_Y]
    dx = s.fi[b, t, FI_X] - fx
    dy = s.fi[b, t, FI_Y] - fy
    l2 = dx * dx + dy * dy
    if l2 == 0:
        return 0.0
    me = gang_of(s, b, f)
    nf = s.fi.shape[1]
    share = 0.0
    for m in range(nf):
        if m == f or m == t or s.fi[b, m, FI_STATE] != FS_ON or gang_of(s, b, m) != me:
            continue
        k = in_corridor(s, b, m, fx, fy, dx, dy, l2)
        if k < 0:
            continue
        rank = 0
        for o in range(nf):
            if o == f or o == t or o == m or s.fi[b, o, FI_STATE] != FS_ON:
                continue
            ko = in_corridor(s, b, o, fx, fy, dx, dy, l2)
            if ko >= 0 and (ko < k or (ko == k and o < m)):
                rank += 1
        share += 0.5 ** (rank + 1)
    return share


@leaf_njit
def pin_worth(s, st, b, f, item, p, t):
    """PIN x P(hit) of f's shot at t with (item, profile) when t is Standing, not Engaged and within its
    largest charge move (+1.5", straight line) of a friend of f: a hit pins it, and a Prone fighter must
    stand up (an action) before it can move, so it cannot Charge in its next activation."""
    if s.fi[b, t, FI_POSTURE] != PO_STANDING or is_engaged(s, b, t):
        return 0.0
    r = charge_allowance_max(s, st, b, t) + 1.5
    me = gang_of(s, b, f)
    tx = s.fi[b, t, FI_X]
    ty = s.fi[b, t, FI_Y]
    near = False
    for o in range(s.fi.shape[1]):
        if s.fi[b, o, FI_STATE] == FS_ON and gang_of(s, b, o) == me:
            dx = s.fi[b, o, FI_X] - tx
            dy = s.fi[b, o, FI_Y] - ty
            if dx * dx + dy * dy <= r * r:
                near = True
                break
    if not near:
        return 0.0
    wid = s.wp[b, f, item, WP_ID]
    bnd = band(st, wid, p, dist2(s, b, f, t))
    if bnd == BAND_OUT:
        return 0.0
    cg = cover_grade(clear_rays(s, st, b, f, t, False))
    if cg == 3:
        return 0.0
    return PIN * p_roll(s.fi[b, f, FI_CH + CH_BS] - hit_modifier(s, st, b, f, t, wid, p, bnd, cg))


@leaf_njit
def sentry_worth(s, st, b, f, item, p, t, v, shots, share):
    """The SENTRY's worth of ``shots`` shots of f at t with (item, profile) whose expected damage is
    ``v``: plus the worth of pinning t (:func:`pin_worth`), less STRAY per shot times ``share``, the
    friends in the stray-shot corridor (:func:`stray_share`, which the caller may reuse across
    profiles). Its Shoot's score (:func:`score_action`) and its Aim's and shot test's value
    (:func:`best_shot` with ``sentry``) are this one value."""
    return v + (pin_worth(s, st, b, f, item, p, t) - shots * STRAY * share)


# ------------------------------------------------------------------ scoring
# Per-decision values of the deciding fighter, computed on first use and reused by every legal
# action that needs them (memo[M_*]; UNKNOWN: not computed yet).
M_EX_HERE = 0  # exposure of its own cell (gunline Take Cover; sentry: in range)
M_RANGE = 1  # longest_range (gunline moves)
M_NEAREST = 2  # nearest_enemy (Turn)
M_SHOT = 3  # best_shot without modifier, as the sentry scores a Shoot (sentry: one is worth taking)
M_PRESS = 4  # the sentry's gang presses on (pressing)
M_KEPT = 5  # the enemy keeps away from the sentry's deployment zone (kept_away)
N_MEMO = 6
UNKNOWN = -2.0


@leaf_njit(inline="always")
def kept_away(s, st, b, me, field, memo):
    """SENTRY: from round 3 on, no enemy is within ADVANCE_GAP steps of gang ``me``'s deployment zone:
    an enemy that does not come is not going to walk into its sights (no zone: never)."""
    if s.g[b, G_ROUND] < 3:
        return False
    if memo[M_KEPT] == UNKNOWN:
        find_kept_away(s, st, b, me, field, memo)
    return memo[M_KEPT] > 0.0


@leaf_njit(separate=False)  # once per decision (memo): linked, not expanded into every caller (compile time)
def find_kept_away(s, st, b, me, field, memo):
    """memo[M_KEPT] for :func:`kept_away`: 1 if no enemy is within ADVANCE_GAP steps of the zone."""
    h, w = st.terrain.shape
    gap = FAR
    for y in range(h):
        for x in range(w):
            if st.deploy[y, x] == me:
                gap = min(gap, field_at(s, st, b, me, field, y * w + x))
        if gap <= ADVANCE_GAP:
            break  # an enemy is near the zone: the other rows cannot change the answer
    memo[M_KEPT] = 1.0 if gap > ADVANCE_GAP and gap < FAR else 0.0


@leaf_njit(inline="always")
def advancing(s, st, b, me, field, memo):
    """SENTRY: gang ``me`` advances (under cover) from ADVANCE_ROUND on, or while the enemy keeps away."""
    return s.g[b, G_ROUND] >= ADVANCE_ROUND or kept_away(s, st, b, me, field, memo)


@leaf_njit(inline="always")
def pressing(s, st, b, me, field, memo):
    """SENTRY: gang ``me`` presses on (advances and accepts being seen) when its fighters still in the
    fight (Standing or Prone, not Seriously Injured) outnumber the enemy's PRESS_RATIO to 1, while the
    enemy keeps away (kept_away), or when it is finishing the enemy (:func:`finishing`): memo[M_PRESS]
    is 2 when finishing, 1 when pressing only, 0 when holding."""
    if memo[M_PRESS] == UNKNOWN:
        find_pressing(s, st, b, me, field, memo)
    return memo[M_PRESS] > 0.0


@leaf_njit(separate=False)  # once per decision (memo): linked, not expanded into every caller (compile time)
def find_pressing(s, st, b, me, field, memo):
    """memo[M_PRESS] for :func:`pressing`."""
    mine = 0
    theirs = 0
    for o in range(s.fi.shape[1]):
        if s.fi[b, o, FI_STATE] == FS_ON and s.fi[b, o, FI_POSTURE] != PO_SI:
            if gang_of(s, b, o) == me:
                mine += 1
            else:
                theirs += 1
    if s.g[b, G_ROUND] >= FINISH_ROUND or (theirs > 0 and mine >= FINISH_RATIO * theirs):
        memo[M_PRESS] = 2.0
    elif mine >= PRESS_RATIO * theirs or kept_away(s, st, b, me, field, memo):
        memo[M_PRESS] = 1.0
    else:
        memo[M_PRESS] = 0.0


@leaf_njit(inline="always")
def finishing(s, st, b, me, field, memo):
    """SENTRY: gang ``me`` goes in to finish the enemy when it outnumbers it FINISH_RATIO to 1
    (fighters in the fight, as :func:`pressing` counts them) or from FINISH_ROUND on: it presses on
    into the enemy's charge reach, and charges like the gunline (when it has no shot worth taking).
    Holding its ground out of the charge reach instead, it drew games in which it outnumbered the
    enemy (docs/results.md, "The sentry finishes")."""
    return pressing(s, st, b, me, field, memo) and memo[M_PRESS] > 1.5


@leaf_njit(inline="always")
def sentry_place(s, st, b, f, c, x, y, dg, field, thr, exposed, memo):
    """SENTRY: the worth of fighter f standing at cell c = (x, y) at the end of its activation
    (``exposed``: that many enemies within range see the cell): out of the enemy's charge reach
    (PLACE_REACH lost in it; the more slack the better), out of sight (PLACE_SEEN per enemy), few
    friends near it (CROWD), a little farther from the enemy while holding, nearer when advancing
    (:func:`advancing`); pressing on (:func:`pressing`), out of charge reach (unless finishing:
    :func:`finishing`) and nearer to the enemy, seen or not."""
    slack = threat_at(s, st, b, dg, thr, c)
    d = min(field_at(s, st, b, dg, field, c), 40)
    if pressing(s, st, b, dg, field, memo):
        v = -PRESS_REACH if slack <= THREAT and not finishing(s, st, b, dg, field, memo) else 0.0
        return v - CROWD * crowd(s, b, f, x, y) - PRESS_SEEN * exposed - PRESS_ADVANCE * d
    v = -PLACE_REACH if slack <= THREAT else 0.0
    v += PLACE_SLACK * min(slack, THR_LIM) - CROWD * crowd(s, b, f, x, y) - PLACE_SEEN * exposed
    if advancing(s, st, b, dg, field, memo):
        return v - PLACE_ADVANCE * d
    return v + PLACE_FAR * d


@leaf_njit(inline="always")  # per legal move: expanded into heuristic_action, as score_action
def sentry_move(s, st, b, f, kind, c, x, y, fx, fy, w, acts, can_shoot, dg, field, thr, memo, floor):
    """SENTRY: points for moving f to cell c = (x, y) (Move, Take Cover, Retreat, Consolidate); the
    arguments as :func:`score_action`'s. 100 + the cell's worth (:func:`sentry_place`), and FIRE_POS
    more for a firing position out of charge reach when it can still shoot this activation; ending
    the activation scores 100 + its own cell's worth + STAY, so it moves only to a better cell."""
    if (kind == A_MOVE or kind == A_TAKE_COVER) and can_shoot:
        return 0.0  # shoot first (and move after)
    if kind == A_CONSOLIDATE or kind == A_RETREAT:
        return 100.0 + sentry_place(s, st, b, f, c, x, y, dg, field, thr, exposure(s, st, b, f, x, y, True),
                                    memo)
    top = 100.0 + sentry_place(s, st, b, f, c, x, y, dg, field, thr, 0, memo)  # if no enemy sees the cell
    if kind == A_TAKE_COVER:
        top -= TAKE_COVER  # it ends Prone: standing up again costs an action
    press = pressing(s, st, b, dg, field, memo)
    if kind == A_MOVE and acts >= 2 and (press or threat_at(s, st, b, dg, thr, c) > THREAT):
        if memo[M_RANGE] == UNKNOWN:
            memo[M_RANGE] = longest_range(s, st, b, f)
        n, cov = view_from(s, st, b, f, x, y, np.int64(memo[M_RANGE]))
        if n > 0:  # a firing position (out of charge reach unless pressing), to shoot from this activation
            top += FIRE_POS + 40.0 * cov
            if top <= floor:
                return top
            return top - FIRE_SEEN * exposure(s, st, b, f, x, y, True)
    seen = PRESS_SEEN if press else PLACE_SEEN
    if top <= floor or seen == 0.0:
        return top
    return top - seen * exposure(s, st, b, f, x, y, True)


@leaf_njit(separate=False)
def sentry_stay(s, st, b, f, fx, fy, w, dg, field, thr, memo):
    """SENTRY: points for ending the activation where f stands (see :func:`sentry_move`), at least
    HOLD: in charge reach with no cell out of it, it stays rather than move within it."""
    if memo[M_EX_HERE] == UNKNOWN:
        memo[M_EX_HERE] = exposure(s, st, b, f, fx, fy, True)
    return max(100.0 + STAY + sentry_place(s, st, b, f, fy * w + fx, fx, fy, dg, field, thr, memo[M_EX_HERE],
                                           memo), HOLD)


@leaf_njit(separate=False)
def sentry_door(s, st, b, kind, d, dx, dy, fx, fy, w, can_shoot, dg, field, memo):
    """SENTRY: points for operating door d at (dx, dy) (Operate Door, Access Terminal): it opens a
    closed door toward the enemy only when advancing, and closes an open one the enemy would come
    through while holding (the enemy must spend an action to open it again, which leaves it no Charge)."""
    if kind == A_TERMINAL:
        return NEVER
    ds = s.door[b, d, DR_STATE]
    toward = field_at(s, st, b, dg, field, dy * w + dx) < field_at(s, st, b, dg, field, fy * w + fx)
    if not toward:
        return NEVER
    adv = advancing(s, st, b, dg, field, memo)
    if ds == DOOR_CLOSED and adv:
        return 260.0
    if ds == DOOR_OPEN and not adv and not can_shoot:
        return DOOR_CLOSE
    return NEVER


@leaf_njit(inline="always")  # per selectable fighter: expanded into heuristic_action, as score_action
def score_select(s, st, b, f, style, field, w, me, thr, memo):
    """Points for selecting fighter f; ``field``: gang ``me``'s path field and ``thr`` its threat
    field (sentry), computed on first use; ``memo``: the decision's memo (sentry: M_KEPT)."""
    if is_engaged(s, b, f):
        return 500.0
    if s.fi[b, f, FI_POSTURE] == PO_SI:
        return 5.0
    here = s.fi[b, f, FI_Y] * w + s.fi[b, f, FI_X]
    # (an Aimed shot with the two actions of a fighter not yet activated: an ordering, not a decision)
    if style == STYLE_GUNLINE:
        v = best_shot(s, st, b, f, 1, 2, False)
        if v > 0:
            return 300.0 + 100.0 * v
        return 100.0 - min(field_at(s, st, b, me, field, here), 90)
    if style == STYLE_SENTRY:
        v = best_shot(s, st, b, f, 1, 2, False)
        if v > 0:
            return 300.0 + 100.0 * v
        if threat_at(s, st, b, me, thr, here) <= THREAT:
            return 250.0  # in charge reach with nothing to shoot: get away first
        if exposure(s, st, b, f, s.fi[b, f, FI_X], s.fi[b, f, FI_Y], True) > 0:
            return 200.0  # seen (outranged) with nothing to shoot: get out of sight
        d = min(field_at(s, st, b, me, field, here), 90)
        if advancing(s, st, b, me, field, memo):
            return 100.0 - d
        # holding: the fighters farthest from the enemy spend their activation first, the nearer ones
        # keep theirs for an enemy stepping into sight later in the round
        return 10.0 + d
    # aggressor: the closest fighters go first (they can charge)
    return 300.0 - min(field_at(s, st, b, me, field, here), 290)


# per legal action: expanded into heuristic_action (a call passes s and st field by field)
@leaf_njit(inline="always")
def score_action(s, st, b, lay, nf, a, f, style, field, w, can_shoot, dg, memo, floor, thr):
    """Points for the legal index a of the active (or following-up) fighter f; ``can_shoot``: a Shoot
    action is legal now (from the mask).

    ``field``: the deciding gang ``dg``'s path field, ``thr`` its threat field (sentry) and ``memo`` the
    values of f (M_*), all computed on first use. ``floor``: the caller ignores a score at or below it
    (it neither beats nor ties the best so far), so where an upper bound of the score is at or below it
    the costly queries are skipped and the bound is returned instead (line of sight of enemies to a
    cell, Cool tests)."""
    kind, p1, p2 = decode(lay, nf, a)
    me = gang_of(s, b, f)
    fx = s.fi[b, f, FI_X]
    fy = s.fi[b, f, FI_Y]
    acts = s.fi[b, f, FI_ACTS]
    gun = style == STYLE_GUNLINE
    sen = style == STYLE_SENTRY
    shooter = style != STYLE_AGGRESSOR  # gunline and sentry score shots, aims and fights alike
    if sen and can_shoot:
        # the sentry counts only a shot that can do harm (the mask also offers shots out of range)
        if memo[M_SHOT] == UNKNOWN:
            memo[M_SHOT] = best_shot(s, st, b, f, 0, acts, True)  # (as it scores its Shoot)
        can_shoot = memo[M_SHOT] > 0.0
    if kind == A_COUP:
        return 2000.0
    if kind == A_FIGHT:
        t = rel_to_global(s, b, me, p1)
        return (700.0 if not shooter else 600.0) + 50.0 * melee_value(s, st, b, f, t)
    if kind == A_CHARGE:
        t = rel_to_global(s, b, me, p1)
        if sen and not finishing(s, st, b, dg, field, memo):
            # only to finish a Seriously Injured enemy (the free Coup de Grace) where no other enemy can
            # charge: a Pinned one stands up as it is engaged, a Standing one attacks back
            if can_shoot or s.fi[b, t, FI_POSTURE] != PO_SI or threat_at(
                    s, st, b, dg, thr, s.fi[b, t, FI_Y] * w + s.fi[b, t, FI_X]) <= THREAT:
                return NEVER
        elif shooter and can_shoot:
            return 50.0
        v = melee_value(s, st, b, f, t)
        if shooter:
            return 150.0 + 20.0 * v
        return 800.0 + 50.0 * v
    if kind == A_FIRE_DUCT:
        return 60.0
    if kind == A_SHOOT or kind == A_SHOOT_TWIN:
        aim = 1 if s.fi[b, f, FI_AIMED] else 0  # the Aim's +1 (rules §5.2), the engine's hit roll
        if kind == A_SHOOT:
            t = rel_to_global(s, b, me, p2)
            item = p1 // 2
            prof = p1 % 2
            v = shot_base(s, st, b, f, item, prof, t, aim)
            shots = 1.0
        else:  # both Sidearms at t, each hit roll at -1 (rules §7.8): the two shots' worth at t
            t = rel_to_global(s, b, me, p1)
            item, prof, i2, q2 = twin_sidearms(s, st, b, f)
            v = (shot_base(s, st, b, f, item, prof, t, aim + MOD_TWIN)
                 + shot_base(s, st, b, f, i2, q2, t, aim + MOD_TWIN))
            shots = 2.0
        base = 400.0 if shooter else 200.0
        if sen:
            if v <= 0.0:
                return 3.0
            # a hit pins an enemy that could charge (it must stand up first); not through its friends
            v = sentry_worth(s, st, b, f, item, prof, t, v, shots, stray_share(s, b, f, t))
            if v <= 0.0:
                return 3.0
        if base + 200.0 * v > floor:  # the Cool-test discount only lowers the score
            v = cool_discount(s, st, b, f, item, prof, t, v)  # (one target-priority test for both)
        return base + 200.0 * v
    if kind == A_AIM:
        if shooter and can_shoot and acts >= 2 and s.fi[b, f, FI_AIMED] == 0:
            # (the sentry in charge reach too: revision 9) after the Aim it can no longer turn (rules
            # §1.3: only before its first action), so the shot to follow is at a target in its arc as
            # it faces now
            turn = s.fi[b, f, FI_TURN]
            s.fi[b, f, FI_TURN] = 0
            # (one action left after the Aim; the sentry values the shot as it will score its Shoot)
            v = best_shot(s, st, b, f, 1, acts - 1, sen)
            s.fi[b, f, FI_TURN] = turn  # (restored: the scorer leaves the state as it found it)
            if v > 0:
                return 450.0 + 200.0 * v
        return NEVER if sen else 1.0  # the sentry never aims with no shot to follow (it stays: its End, HOLD)
    if kind == A_BLIND_FIRE:
        return 40.0
    if kind == A_STAND_UP:
        return 350.0
    if kind == A_RELOAD:
        return 20.0 if can_shoot else 330.0
    if kind == A_MOVE or kind == A_TAKE_COVER or kind == A_CRAWL or kind == A_CONSOLIDATE or kind == A_RETREAT:
        x = p1 % w
        y = p1 // w
        if kind == A_CRAWL:  # Prone: crawl away from the enemy
            return 30.0 + 2.0 * min(field_at(s, st, b, dg, field, p1), 40)
        if sen:
            return sentry_move(s, st, b, f, kind, p1, x, y, fx, fy, w, acts, can_shoot, dg, field, thr, memo,
                               floor)
        if gun:
            if kind == A_TAKE_COVER:
                # exposed after having shot (or with nothing to shoot): hide
                if can_shoot:
                    return 0.0
                if memo[M_EX_HERE] == UNKNOWN:
                    memo[M_EX_HERE] = exposure(s, st, b, f, fx, fy, False)
                if memo[M_EX_HERE] == 0:
                    return 0.0
                d = field_at(s, st, b, dg, field, p1)
                top = 250.0 + 0.1 * min(d, 40)  # the score if no enemy sees the cell
                if top <= floor:
                    return top
                return 250.0 - 60.0 * exposure(s, st, b, f, x, y, False) + 0.1 * min(d, 40)
            if kind == A_MOVE and can_shoot:
                return 0.0  # shoot first
            d = field_at(s, st, b, dg, field, p1)
            if kind == A_CONSOLIDATE or kind == A_RETREAT:
                return 100.0 - 20.0 * exposure(s, st, b, f, x, y, False) + min(d, 40)
            if acts >= 2:
                if memo[M_RANGE] == UNKNOWN:
                    memo[M_RANGE] = longest_range(s, st, b, f)
                n, cov = view_from(s, st, b, f, x, y, np.int64(memo[M_RANGE]))
                if n > 0:  # a firing position it can still shoot from this activation
                    top = 300.0 + 40.0 * cov - 0.5 * d  # the score if no enemy sees the cell
                    if top <= floor:
                        return top
                    return 300.0 + 40.0 * cov - 10.0 * exposure(s, st, b, f, x, y, False) - 0.5 * d
            here = field_at(s, st, b, dg, field, fy * w + fx)
            top = 100.0 + 2.0 * (here - d)  # the score if no enemy sees the cell
            if top <= floor:
                return top
            return 100.0 + 2.0 * (here - d) - 2.0 * exposure(s, st, b, f, x, y, False)
        # aggressor: straight at them
        if kind == A_TAKE_COVER or kind == A_RETREAT:
            return 0.0
        d = field_at(s, st, b, dg, field, p1)
        if kind == A_CONSOLIDATE:
            return 100.0 - d
        return 100.0 + 5.0 * (field_at(s, st, b, dg, field, fy * w + fx) - d)
    if kind == A_OPEN_DOOR or kind == A_TERMINAL:
        dx = st.door_xy[p1, 0]
        dy = st.door_xy[p1, 1]
        if sen:
            return sentry_door(s, st, b, kind, p1, dx, dy, fx, fy, w, can_shoot, dg, field, memo)
        if s.door[b, p1, DR_STATE] == DOOR_CLOSED and (field_at(s, st, b, dg, field, dy * w + dx)
                                                       < field_at(s, st, b, dg, field, fy * w + fx)):
            return 260.0
        return 0.0
    if kind == A_TURN:
        if memo[M_NEAREST] == UNKNOWN:
            memo[M_NEAREST] = nearest_enemy(s, b, f)
        t = np.int64(memo[M_NEAREST])
        if t >= 0 and p1 == facing_towards(s.fi[b, t, FI_X] - fx, s.fi[b, t, FI_Y] - fy):
            if sen and s.g[b, G_DK] == DK_ACTION and s.fi[b, f, FI_POSTURE] == PO_STANDING:  # (then end)
                # over its End: in charge reach too it faces the enemy before it stays (revision 8: a
                # fighter charged from outside its vision arc fights back at -1, rules 8.1 step 1;
                # revision 3 had floored the End alone, leaving this Turn below it there)
                return sentry_stay(s, st, b, f, fx, fy, w, dg, field, thr, memo) + 0.5
            return 20.0
        return 0.0
    if kind == A_END:
        if sen and s.g[b, G_DK] == DK_ACTION and s.fi[b, f, FI_POSTURE] == PO_STANDING:
            return sentry_stay(s, st, b, f, fx, fy, w, dg, field, thr, memo)
        return 10.0
    if kind == A_BOTTLE or kind == A_FLEE:
        return -10.0
    if sen:
        return NEVER  # its End may score only HOLD (sentry_stay): Force Door, caskets, groups... never
    return 1.0


if numba.config.DISABLE_JIT:  # plain Python (NUMBA_DISABLE_JIT=1): no 8-byte loads
    def next_legal(row, i, end):
        """The first index in [i, end) where ``row`` is True; -1 if none."""
        hit = np.flatnonzero(row[i:end])
        return int(i + hit[0]) if hit.shape[0] else -1
else:
    @leaf_njit
    def next_legal(row, i, end):
        """The first index in [i, end) where ``row`` is True; -1 if none. A mask row has a few
        dozen True entries among thousands: empty stretches are skipped 32 bytes, then 8 bytes
        at a time (8-byte loads, core.bytemask)."""
        while i + 32 <= end and (load_u64(row, i) | load_u64(row, i + 8) | load_u64(row, i + 16)
                                 | load_u64(row, i + 24)) == 0:
            i += 32
        while i + 8 <= end and load_u64(row, i) == 0:
            i += 8
        while i < end:
            if row[i]:
                return i
            i += 1
        return -1


assert A_SHOOT_TWIN == A_SHOOT + 1  # heuristic_action tests the two ranges as one


@leaf_njit
def heuristic_action(s, st, b, lay, mask, prng, style):
    """The best-scoring legal index of mask[b] for ``style``; -1 when nothing is legal."""
    n_act = mask.shape[1]
    nf = s.fi.shape[1]
    mf = s.g[b, G_MF]
    me = s.g[b, G_DGANG]
    w = st.terrain.shape[1]
    row = mask[b]
    f = s.g[b, G_ACTIVE]
    if f < 0:
        f = s.g[b, G_FU]
    can_shoot = next_legal(row, lay[A_SHOOT], lay[A_SHOOT_TWIN + 1]) >= 0  # a Shoot or twin Shoot is legal
    # computed on first use (field_at, threat_at), then shared by every legal action: many decisions
    # need neither. One allocation holds both: the path field, then the threat field (sentry only:
    # the other styles never read thr, which is one cell there)
    n = st.terrain.shape[0] * w
    fields = np.empty(2 * n if style == STYLE_SENTRY else n + 1, np.int32)
    field = fields[:n]
    field[0] = -1
    thr = fields[n:]
    thr[0] = UNSET
    memo = np.full(N_MEMO, UNKNOWN)
    best = -1e18
    nbest = 0
    pick = -1
    a = next_legal(row, 0, n_act)
    while a >= 0:
        if a >= lay[A_SELECT] and a < lay[A_SELECT + 1]:
            sc = score_select(s, st, b, me * mf + (a - lay[A_SELECT]), style, field, w, me, thr, memo)
        elif f >= 0:
            sc = score_action(s, st, b, lay, nf, a, f, style, field, w, can_shoot, me, memo, best - 1e-9, thr)
        elif a == lay[A_END]:
            sc = 10.0
        else:
            sc = 0.0
        if sc > best + 1e-9:
            best = sc
            nbest = 1
            pick = a
        elif sc > best - 1e-9:
            nbest += 1
            # reservoir sampling among ties, from the player's generator
            if rand_below(prng, b, nbest) == 0:
                pick = a
        a = next_legal(row, a + 1, n_act)
    return np.int64(pick)


@leaf_njit
def ambushing(s, b, me):
    """AMBUSHER: gang ``me`` still lies in wait: the round is before AMBUSH_ROUND and no enemy on the
    board is within AMBUSH_REACH cells of one of its fighters on the board (the straight-line
    distance between cell centres with the floor-height difference, as the rules measure it:
    query.dist2; revision 1 left out the height, which only boards with levels have)."""
    if s.g[b, G_ROUND] >= AMBUSH_ROUND:
        return False
    nf = s.fi.shape[1]
    for f in range(nf):
        if s.fi[b, f, FI_STATE] != FS_ON or gang_of(s, b, f) != me:
            continue
        for e in range(nf):
            if s.fi[b, e, FI_STATE] != FS_ON or gang_of(s, b, e) == me:
                continue
            if dist2(s, b, f, e) <= AMBUSH_REACH * AMBUSH_REACH:
                return False
    return True


@leaf_njit
def gunline_action(s, st, b, lay, mask, prng):
    """GUNLINE heuristic (module docstring)."""
    return heuristic_action(s, st, b, lay, mask, prng, STYLE_GUNLINE)


@leaf_njit
def aggressor_action(s, st, b, lay, mask, prng):
    """AGGRESSOR heuristic (module docstring)."""
    return heuristic_action(s, st, b, lay, mask, prng, STYLE_AGGRESSOR)


@leaf_njit
def sentry_action(s, st, b, lay, mask, prng):
    """SENTRY heuristic (module docstring)."""
    return heuristic_action(s, st, b, lay, mask, prng, STYLE_SENTRY)


@leaf_njit
def ambusher_action(s, st, b, lay, mask, prng):
    """AMBUSHER heuristic (module docstring): the sentry's action while it lies in wait
    (:func:`ambushing`), the aggressor's after."""
    style = STYLE_SENTRY if ambushing(s, b, s.g[b, G_DGANG]) else STYLE_AGGRESSOR
    return heuristic_action(s, st, b, lay, mask, prng, style)


# Each script's kernel by its name (the names of REVISIONS): its agent (agents/heuristic.py) and the
# advice (necro_env/envs/advice.py) look it up here. The batched core dispatches on integer ids
# instead (necro_env/batch/kernels.py, POLICY_NAMES).
KERNELS = {"gunline": gunline_action, "aggressor": aggressor_action, "sentry": sentry_action,
           "ambusher": ambusher_action}
