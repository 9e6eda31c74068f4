"""Scripted Necromunda players as compiled policy kernels (signature: necro_env/policies/__init__.py).

Both heuristics decode every legal index of ``mask[b]`` with the codec, score it with
the engine's own queries (line of sight and cover, range bands, hit modifiers, wound
and save targets, melee weapon choice) and play the best one; ties are broken with the
player's own ``prng`` (never the game's dice).

- **GUNLINE** (:func:`gunline_action`): activates the fighter with the best shot first;
  Aims when it can still shoot afterwards, shoots the target with the best expected
  damage, advances to a cell from which it can shoot (preferring cells few enemies can
  see) when it has no shot, and Takes Cover out of sight when it is exposed and has
  nothing left to shoot.
- **AGGRESSOR** (:func:`aggressor_action`): closes in along the shortest path to the
  enemy (opening doors on the way), Charges whenever it can (Prone and wounded targets
  first), Fights, and finishes Seriously Injured enemies with Coup de Grace; it shoots
  only when it cannot reach anyone this activation.

Scores are in "points"; the tables at the top of each scorer are the whole tuning.
The path field is a breadth-first search from every enemy on the board over cells
that are not walls or locked doors (closed doors count as passable: the fighter opens
them when it gets there).
"""
import numpy as np

from .._numba_cache import leaf_njit
from ..core.rng import rand_below
from ..core.terrain import DOOR_CLOSED, DOOR_LOCKED, TER_DOOR, TER_WALL
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
from ..rulesets.necromunda.legal import rel_to_global
from ..rulesets.necromunda.movement import facing_towards
from ..rulesets.necromunda.query import (
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
    band,
    eligible,
    hit_modifier,
    needs_cool_test,
)
from ..rulesets.necromunda.state import (
    DR_STATE,
    FI_ACTS,
    FI_AIMED,
    FI_CH,
    FI_POSTURE,
    FI_STATE,
    FI_WOUNDS,
    FI_X,
    FI_Y,
    FS_ON,
    G_ACTIVE,
    G_DGANG,
    G_FU,
    G_MF,
    PO_SI,
    PO_STANDING,
    WP_ID,
    WP_OOA,
)
from ..rulesets.necromunda.weapons import can_shoot_with, strength

STYLE_GUNLINE = 0
STYLE_AGGRESSOR = 1
FAR = 10000  # path distance of a cell no enemy can reach


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
@leaf_njit
def shot_value(s, st, b, f, item, p, t, aim_bonus):
    """Expected worth of f shooting t with (item, profile) from where it stands."""
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
    v = shots * ph * pw * pu * wound_value(s, b, t, dmg)
    if needs_cool_test(s, st, b, f, t, wid, p, False):
        v *= 0.6
    return v


@leaf_njit
def best_shot(s, st, b, f, aim_bonus):
    """The best shot value f has now over every usable weapon profile and eligible target."""
    best = 0.0
    for item in range(s.wp.shape[2]):
        if s.wp[b, f, item, WP_ID] < 0:
            continue
        for p in range(st.wprof.shape[1]):
            if not can_shoot_with(s, st, b, f, item, p):
                continue
            for t in range(s.fi.shape[1]):
                if eligible(s, st, b, f, t, False):
                    v = shot_value(s, st, b, f, item, p, t, aim_bonus)
                    best = max(best, v)
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
@leaf_njit
def path_field(s, st, b, me):
    """Steps (8-neighbour) from each cell to the nearest enemy of gang ``me`` on the board;
    walls and locked doors block, closed doors do not (they can be opened)."""
    h, w = st.terrain.shape
    n = h * w
    field = np.full(n, FAR, np.int32)
    queue = np.empty(n, np.int32)
    head = 0
    tail = 0
    for t in range(s.fi.shape[1]):
        if s.fi[b, t, FI_STATE] == FS_ON and gang_of(s, b, t) != me:
            c = s.fi[b, t, FI_Y] * w + s.fi[b, t, FI_X]
            if field[c] != 0:
                field[c] = 0
                queue[tail] = c
                tail += 1
    while head < tail:
        c = queue[head]
        head += 1
        x = c % w
        y = c // w
        for dy in range(-1, 2):
            for dx in range(-1, 2):
                nx = x + dx
                ny = y + dy
                if (dx == 0 and dy == 0) or nx < 0 or ny < 0 or nx >= w or ny >= h:
                    continue
                nc = ny * w + nx
                if field[nc] != FAR:
                    continue
                ter = st.terrain[ny, nx]
                if ter == TER_WALL:
                    continue
                if ter == TER_DOOR and s.door[b, st.door_of_cell[ny, nx], DR_STATE] == DOOR_LOCKED:
                    continue
                field[nc] = field[c] + 1
                queue[tail] = nc
                tail += 1
    return field


@leaf_njit
def exposure(s, st, b, f, x, y):
    """Enemies (Standing) with line of sight to cell (x, y) if f stood there."""
    me = gang_of(s, b, f)
    n = 0
    for e in range(s.fi.shape[1]):
        if s.fi[b, e, FI_STATE] != FS_ON or gang_of(s, b, e) == me or s.fi[b, e, FI_POSTURE] != PO_STANDING:
            continue
        if clear_rays_cells(s, st, b, s.fi[b, e, FI_X], s.fi[b, e, FI_Y], x, y, gang_of(s, b, e), e, f,
                            False) > 0:
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


# ------------------------------------------------------------------ scoring
@leaf_njit
def score_select(s, st, b, f, style, field, w):
    here = field[s.fi[b, f, FI_Y] * w + s.fi[b, f, FI_X]]
    if is_engaged(s, b, f):
        return 500.0
    if s.fi[b, f, FI_POSTURE] == PO_SI:
        return 5.0
    if style == STYLE_GUNLINE:
        v = best_shot(s, st, b, f, 1)
        if v > 0:
            return 300.0 + 100.0 * v
        return 100.0 - min(here, 90)
    # aggressor: the closest fighters go first (they can charge)
    return 300.0 - min(here, 290)


@leaf_njit(separate=False)  # called per legal action: linked, not called separately (core.separate)
def score_action(s, st, b, lay, nf, a, f, style, field, w, can_shoot):
    """Points for the legal index a of the active (or following-up) fighter f; ``can_shoot``: a Shoot
    action is legal now (from the mask)."""
    kind, p1, p2 = decode(lay, nf, a)
    me = gang_of(s, b, f)
    fx = s.fi[b, f, FI_X]
    fy = s.fi[b, f, FI_Y]
    here = field[fy * w + fx]
    acts = s.fi[b, f, FI_ACTS]
    gun = style == STYLE_GUNLINE
    if kind == A_COUP:
        return 2000.0
    if kind == A_FIGHT:
        t = rel_to_global(s, b, me, p1)
        return (700.0 if not gun else 600.0) + 50.0 * melee_value(s, st, b, f, t)
    if kind == A_CHARGE:
        t = rel_to_global(s, b, me, p1)
        v = melee_value(s, st, b, f, t)
        if gun:
            return 50.0 if can_shoot else 150.0 + 20.0 * v
        return 800.0 + 50.0 * v
    if kind == A_SHOOT or kind == A_FIRE_DUCT:
        t = rel_to_global(s, b, me, p2)
        item = p1 // 2
        prof = p1 % 2
        if kind == A_FIRE_DUCT:
            return 60.0
        v = shot_value(s, st, b, f, item, prof, t, 0)
        return (400.0 if gun else 200.0) + 200.0 * v
    if kind == A_SHOOT_TWIN:
        t = rel_to_global(s, b, me, p1)
        return (380.0 if gun else 190.0) + 100.0 * best_shot(s, st, b, f, -1)
    if kind == A_AIM:
        if gun and can_shoot and acts >= 2 and s.fi[b, f, FI_AIMED] == 0:
            v = best_shot(s, st, b, f, 1)
            if v > 0:
                return 450.0 + 200.0 * v
        return 1.0
    if kind == A_BLIND_FIRE:
        return 40.0
    if kind == A_STAND_UP:
        return 350.0
    if kind == A_RELOAD:
        return 20.0 if can_shoot else 330.0
    if kind == A_MOVE or kind == A_TAKE_COVER or kind == A_CRAWL or kind == A_CONSOLIDATE or kind == A_RETREAT:
        x = p1 % w
        y = p1 // w
        d = field[p1]
        if kind == A_CRAWL:  # Prone: crawl away from the enemy
            return 30.0 + 2.0 * min(d, 40)
        if gun:
            if kind == A_TAKE_COVER:
                # exposed after having shot (or with nothing to shoot): hide
                if can_shoot:
                    return 0.0
                ex_here = exposure(s, st, b, f, fx, fy)
                if ex_here == 0:
                    return 0.0
                return 250.0 - 60.0 * exposure(s, st, b, f, x, y) + 0.1 * min(d, 40)
            rng = longest_range(s, st, b, f)
            n, cov = view_from(s, st, b, f, x, y, rng)
            ex = exposure(s, st, b, f, x, y)
            if kind == A_CONSOLIDATE or kind == A_RETREAT:
                return 100.0 - 20.0 * ex + min(d, 40)
            if can_shoot:
                return 0.0  # shoot first
            if n > 0 and acts >= 2:  # a firing position it can still shoot from this activation
                return 300.0 + 40.0 * cov - 10.0 * ex - 0.5 * d
            return 100.0 + 2.0 * (here - d) - 2.0 * ex
        # aggressor: straight at them
        if kind == A_TAKE_COVER or kind == A_RETREAT:
            return 0.0
        if kind == A_CONSOLIDATE:
            return 100.0 - d
        return 100.0 + 5.0 * (here - d)
    if kind == A_OPEN_DOOR or kind == A_TERMINAL:
        dx = st.door_xy[p1, 0]
        dy = st.door_xy[p1, 1]
        if field[dy * w + dx] < here and s.door[b, p1, DR_STATE] == DOOR_CLOSED:
            return 260.0
        return 0.0
    if kind == A_TURN:
        t = nearest_enemy(s, b, f)
        if t >= 0 and p1 == facing_towards(s.fi[b, t, FI_X] - fx, s.fi[b, t, FI_Y] - fy):
            return 20.0
        return 0.0
    if kind == A_END:
        return 10.0
    if kind == A_BOTTLE or kind == A_FLEE:
        return -10.0
    return 1.0


@leaf_njit
def heuristic_action(s, st, b, lay, mask, prng, style):
    """The best-scoring legal index of mask[b] for ``style``; -1 when nothing is legal."""
    n_act = mask.shape[1]
    nf = s.fi.shape[1]
    mf = s.g[b, G_MF]
    me = s.g[b, G_DGANG]
    w = st.terrain.shape[1]
    field = path_field(s, st, b, me)
    f = s.g[b, G_ACTIVE]
    if f < 0:
        f = s.g[b, G_FU]
    can_shoot = False
    for a in range(lay[A_SHOOT], lay[A_SHOOT + 1]):
        if mask[b, a]:
            can_shoot = True
            break
    if mask[b, lay[A_SHOOT_TWIN]:lay[A_SHOOT_TWIN + 1]].any():
        can_shoot = True
    best = -1e18
    nbest = 0
    pick = -1
    for a in range(n_act):
        if not mask[b, a]:
            continue
        if a >= lay[A_SELECT] and a < lay[A_SELECT + 1]:
            sc = score_select(s, st, b, me * mf + (a - lay[A_SELECT]), style, field, w)
        elif f >= 0:
            sc = score_action(s, st, b, lay, nf, a, f, style, field, w, can_shoot)
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
    return np.int64(pick)


@leaf_njit
def gunline_action(s, st, b, lay, mask, prng):
    """GUNLINE heuristic (module docstring)."""
    return heuristic_action(s, st, b, lay, mask, prng, STYLE_GUNLINE)


@leaf_njit
def aggressor_action(s, st, b, lay, mask, prng):
    """AGGRESSOR heuristic (module docstring)."""
    return heuristic_action(s, st, b, lay, mask, prng, STYLE_AGGRESSOR)
