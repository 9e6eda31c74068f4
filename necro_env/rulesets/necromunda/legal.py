"""The exact legal-action mask of the current decision (DESIGN.md section 5).

``fill_mask`` writes mask[b, :] for whatever decision the game awaits. The
engine's ``step`` accepts an action iff its bit is set here, so the mask and
the rules can never disagree.
"""
import numpy as np
from ...core.bytemask import count_true
from ...core.jit import njit

from ...core.reach import DX8, DY8, INF
from .combat import followup_options, versatile_range2
from .actions import (
    can_afford, casket_near, door_near, door_operable, duct_far_end, status_pp, status_psi, status_sa, status_se,
    clear_within1, terminal_usable, twin_sidearms, unwieldy, carry_inches, charge_allowance, retreat_budget,
    carried_casket, carried_friend,
)
from .group import group_mask
from .variant import house_legacy
from .codec import A_CANNIBALISE
from .codec import (
    A_AIM, A_BLIND_FIRE, A_BOTTLE, A_BYPASS_CASKET, A_CARRY_CASKET, A_CHARGE, A_CONSOLIDATE, A_COUP, A_CRAWL,
    A_CRAWL_DUCT, A_END, A_FIGHT, A_FIRE_DUCT, A_FLEE, A_FORCE_DOOR, A_MOVE, A_OPEN_DOOR, A_RELOAD, A_RETREAT,
    A_SELECT, A_SHOOT, A_SHOOT_TWIN, A_SMASH_CASKET, A_STAND_UP, A_TAKE_COVER, A_TERMINAL, A_TURN,
    A_CARRY_FIGHTER,
)
from .conditions import charge_d3_allowed, has_cond
from .constants import PF_TRAITS, T_BLAST, T_SMOKE, T_TEMPLATE
from .movement import MODE_JUMP, MODE_NORMAL, cell_free_endable, has_levels, near_blocking_enemy, reach
from .query import cell_solid, clear_rays, engaged_with, gang_of, half_movement, movement, within_f
from .shooting import arc_ok, blast_profile, eligible, point_targets, template_target_ok
from .codec import A_SHOOT_CELL
from .codec import A_DEMOLISH, A_GO_PRONE, A_RIDE_BY
from .demolitions import demolitions_item
from .ride_by import ride_by_cells, ride_by_legal
from .state import (
    C_STARVING,
    DK_ACTION, DK_BOTTLE, DK_FLEE, DK_FOLLOWUP, DK_SELECT, DR_STATE, FI_FACING, FI_POSTURE,
    FI_READY, FI_STATE, FI_TURN, FI_X, FI_Y, FS_ON, G_ACTIVE, G_DGANG, G_DK, G_DONE, G_FU, G_FUM0, G_FUM1, G_MF,
    G_NGANGS, PO_SI, PO_STANDING, WP_ID, DK_CHARGE_FIGHT, DK_GROUP, G_CHF, G_GGANG, G_GROUP,
    DK_BLAZE_PRONE, DK_RIDE_BY, C_MOUNTED, G_RB,
)
from ...core.terrain import DOOR_LOCKED
from .weapons import can_reload, can_shoot_with

@njit(cache=True)
def rel_to_global(s, b, me, r):
    mf = s.g[b, G_MF]
    ng = s.g[b, G_NGANGS]
    return ((me + r // mf) % ng) * mf + (r % mf)


@njit(cache=True)
def global_to_rel(s, b, me, f):
    mf = s.g[b, G_MF]
    ng = s.g[b, G_NGANGS]
    return ((f // mf - me) % ng) * mf + (f % mf)


@njit(cache=True)
def fu_engaged(s, b, e):
    if e < 31:
        return (s.g[b, G_FUM0] >> e) & 1
    return (s.g[b, G_FUM1] >> (e - 31)) & 1


@njit(cache=True)
def charge_allowance_max(s, st, b, f):
    """Largest possible charge move in inches: M + 3 (D3), less heavy-armour penalties
    (House Legacy: 2 x M capped at 12", M from Prone; actions.charge_allowance); Gunked: no D3 (4.3)."""
    return charge_allowance(s, st, b, f, 3 if charge_d3_allowed(s, b, f) else 0)


@njit(cache=True)
def contact_cost(s, st, b, f, t, dist):
    """Cheapest cost (half-inches) of a charge path from f ending in base contact with t,
    given ``dist`` from a normal-mode reach of f (INF if none)."""
    h, w = st.terrain.shape
    tx = s.fi[b, t, FI_X]
    ty = s.fi[b, t, FI_Y]
    fx = s.fi[b, f, FI_X]
    fy = s.fi[b, f, FI_Y]
    best = INF
    for k in range(8):
        cx = tx + DX8[k]
        cy = ty + DY8[k]
        if cx < 0 or cy < 0 or cx >= w or cy >= h:
            continue
        if cx == fx and cy == fy:
            return 0
        if not cell_free_endable(s, st, b, cx, cy):
            continue
        for j in range(8):
            nx = cx - DX8[j]
            ny = cy - DY8[j]
            if nx < 0 or ny < 0 or nx >= w or ny >= h:
                continue
            d = dist[ny * w + nx]
            if d >= INF:
                continue
            # n must be an expandable node in the charge search: not itself a contact cell
            if max(abs(nx - tx), abs(ny - ty)) == 1 and not (nx == fx and ny == fy):
                continue
            step = 2
            if j >= 4:
                if cell_solid(s, st, b, cx, ny) or cell_solid(s, st, b, nx, cy):
                    continue
                step = 3
            if d + step < best:
                best = d + step
    return best


@njit(cache=True)
def area_profile(st, wid, p):
    """Blast, Flame template and Smoke profiles cannot Blind Fire (docs/rules.md, 7.9-7.10)."""
    return (st.wprof[wid, p, PF_TRAITS] & (T_BLAST | T_SMOKE | T_TEMPLATE)) != 0


@njit(cache=True)
def blast_or_smoke(st, wid, p):
    """Blast and Smoke profiles cannot Fire Through a Ductway (a Template can: 5.2)."""
    return (st.wprof[wid, p, PF_TRAITS] & (T_BLAST | T_SMOKE)) != 0


@njit(cache=True)
def eligible_targets(s, st, b, f, omni, out):
    """out[t] = shooting.eligible(f, t, omni) for every fighter t (one LOS / cover test each)."""
    for t in range(out.shape[0]):
        out[t] = eligible(s, st, b, f, t, omni)


@njit(cache=True)
def mark_reachable(mask, base, endable, dist, limit):
    """mask[base + c] |= cell c can end a move at distance <= limit, for every cell c. Branch-free,
    so that LLVM vectorises it: the byte-at-a-time loops it replaced were about 8% of random play
    (docs/performance.md, "What was done")."""
    for c in range(dist.shape[0]):
        mask[base + c] |= endable[c] & (dist[c] <= limit)


@njit(cache=True)
def set_cells(mask, base, ok):
    for c in range(ok.shape[0]):
        if ok[c]:
            mask[base + c] = True


@njit(cache=True)
def action_mask(s, st, b, lay, mask, f):
    """Mask of the active fighter f's choices (DK_ACTION), by its status (4.1): Standing and Active
    (sa), Standing and Engaged (se), Prone and Pinned (pp), Prone and Seriously Injured (psi)."""
    mask[lay[A_END]] = True
    standing_f = s.fi[b, f, FI_POSTURE] == PO_STANDING
    # free turn (1.3): not while Standing and Engaged, which turns to face inside a Fight at -1 (8.1)
    if s.fi[b, f, FI_TURN] and standing_f and not status_se(s, b, f):
        for k in range(8):
            if k != s.fi[b, f, FI_FACING]:
                mask[lay[A_TURN] + k] = True
    sa = status_sa(s, b, f)
    se = status_se(s, b, f)
    pp = status_pp(s, b, f)
    psi = status_psi(s, b, f)
    # one set of search arrays serves every movement search below (they run one after another)
    n = st.terrain.shape[0] * st.terrain.shape[1]
    dist = np.empty(n, np.int32)
    prev = np.empty(n, np.int32)
    endable = np.empty(n, np.bool_)
    if sa:
        active_moves_mask(s, st, b, lay, mask, f, dist, prev, endable)
        shoot_mask(s, st, b, lay, mask, f)
        coup_mask(s, st, b, lay, mask, f)
        doors_caskets_mask(s, st, b, lay, mask, f)
        ducts_mask(s, st, b, lay, mask, f)
    if sa or se:
        versatile_fight_mask(s, st, b, lay, mask, f)
        cannibalise_mask(s, st, b, lay, mask, f)
    if (sa or pp) and can_afford(s, b, f, A_RELOAD, False):
        for item in range(s.wp.shape[2]):
            if can_reload(s, st, b, f, item):
                mask[lay[A_RELOAD] + item] = True
    if se:
        engaged_mask(s, st, b, lay, mask, f, dist, prev, endable)
    if pp or psi:
        prone_mask(s, st, b, lay, mask, f, pp, dist, prev, endable)


@njit(cache=True, separate=False)  # linked into action_mask, as the code it replaced was (core.separate)
def mark_targets(s, b, me, mask, base, targets):
    """mask[base + t relative to gang me] for every fighter t with targets[t]."""
    for t in range(targets.shape[0]):
        if targets[t]:
            mask[base + global_to_rel(s, b, me, t)] = True


@njit(cache=True, separate=False)  # linked into action_mask, as the code it replaced was (core.separate)
def mark_profile_targets(s, b, me, mask, base, profiles, targets):
    """The weapon x profile x target block of Shoot, Blind Fire and Fire Through a Ductway (codec):
    mask[base + (item * 2 + p) * nf + t relative to gang me] for every profile with profiles[item, p]
    and every fighter t with targets[t]."""
    nf = targets.shape[0]
    for item in range(profiles.shape[0]):
        for p in range(profiles.shape[1]):
            if profiles[item, p]:
                mark_targets(s, b, me, mask, base + (item * 2 + p) * nf, targets)


@njit(cache=True, separate=False)  # linked into action_mask, as the code it replaced was (core.separate)
def usable_profiles(s, st, b, f, kind):
    """[item, p]: f may attack with profile p of its weapon item by ``kind``, a profile it can fire
    (loaded, ranged: weapons.can_shoot_with) that the kind allows: Shoot, if f can afford it
    (Unwieldy makes it Double, 12); Fire Through a Ductway, not Blast or Smoke (5.2); Blind Fire,
    not Blast, Smoke or a Flame template (7.9-7.10)."""
    out = np.zeros((s.wp.shape[2], st.wprof.shape[1]), np.bool_)
    for item in range(s.wp.shape[2]):
        wid = s.wp[b, f, item, WP_ID]
        if wid < 0:
            continue
        for p in range(st.wprof.shape[1]):
            if not can_shoot_with(s, st, b, f, item, p):
                continue
            if kind == A_SHOOT:
                out[item, p] = can_afford(s, b, f, A_SHOOT, unwieldy(st, wid, p))
            elif kind == A_FIRE_DUCT:
                out[item, p] = not blast_or_smoke(st, wid, p)
            else:
                out[item, p] = not area_profile(st, wid, p)
    return out


@njit(cache=True, separate=False)  # linked into action_mask, as the code it replaced was (core.separate)
def shoot_mask(s, st, b, lay, mask, f):
    """Shoot at a fighter (a Flame template: at an enemy under it, 7.10) or, with a Blast or Smoke
    profile, at a point (7.9); the twin Shoot of two Sidearms (12); Aim."""
    nf = s.fi.shape[1]
    me = gang_of(s, b, f)
    usable = usable_profiles(s, st, b, f, A_SHOOT)
    template = np.zeros_like(usable)
    for item in range(usable.shape[0]):
        for p in range(usable.shape[1]):
            if usable[item, p] and st.wprof[s.wp[b, f, item, WP_ID], p, PF_TRAITS] & T_TEMPLATE:
                template[item, p] = True
                usable[item, p] = False
    if template.any():
        under = np.zeros(nf, np.bool_)
        for t in range(nf):
            under[t] = template_target_ok(s, st, b, f, t)
        mark_profile_targets(s, b, me, mask, lay[A_SHOOT], template, under)
    twin = can_afford(s, b, f, A_SHOOT_TWIN, False) and twin_sidearms(s, st, b, f)[0] >= 0
    if usable.any() or twin:
        # the eligible targets (arc, LOS, cover: 7.2) are the same for every profile and the twin Shoot
        elig = np.zeros(nf, np.bool_)
        eligible_targets(s, st, b, f, False, elig)
        mark_profile_targets(s, b, me, mask, lay[A_SHOOT], usable, elig)
        if twin:
            mark_targets(s, b, me, mask, lay[A_SHOOT_TWIN], elig)
    n = st.terrain.shape[0] * st.terrain.shape[1]
    for item in range(usable.shape[0]):
        for p in range(usable.shape[1]):
            wid = s.wp[b, f, item, WP_ID]
            if (usable[item, p] and st.wprof[wid, p, PF_TRAITS] & (T_BLAST | T_SMOKE)
                    and blast_profile(s, st, b, f, item) == p):
                point_targets(s, st, b, f, wid, p, mask, lay[A_SHOOT_CELL] + item * n)
    if can_afford(s, b, f, A_AIM, False):
        mask[lay[A_AIM]] = True


@njit(cache=True, separate=False)  # linked into action_mask, as the code it replaced was (core.separate)
def active_moves_mask(s, st, b, lay, mask, f, dist, prev, endable):
    """Move, Carry (Simple), Take Cover (Basic), Charge (Double) and Ride By of a Standing and Active
    fighter: one normal-mode search at the largest budget serves them all."""
    w = st.terrain.shape[1]
    start = s.fi[b, f, FI_Y] * w + s.fi[b, f, FI_X]
    m = movement(s, b, f)  # Gunked: -1" (4.3)
    cmax = charge_allowance_max(s, st, b, f)
    reach(s, st, b, f, 2 * max(m, cmax), MODE_NORMAL, -1, dist, prev, endable)
    if can_afford(s, b, f, A_MOVE, False):
        if has_levels(st):
            # a Move may also jump down / leap gaps (rules 6.5-6.6)
            n = dist.shape[0]
            jd = np.empty(n, np.int32)
            jp = np.empty(n, np.int32)
            je = np.empty(n, np.bool_)
            reach(s, st, b, f, 2 * m, MODE_JUMP, -1, jd, jp, je)
            mark_reachable(mask, lay[A_MOVE], je, jd, 2 * m)
        else:
            mark_reachable(mask, lay[A_MOVE], endable, dist, 2 * m)
    if can_afford(s, b, f, A_TAKE_COVER, False):
        mask[lay[A_TAKE_COVER] + start] = True
        half = half_movement(s, b, f)  # halved before Gunked's -1" (3.2)
        mark_reachable(mask, lay[A_TAKE_COVER], endable, dist, 2 * half)
    if can_afford(s, b, f, A_CARRY_CASKET, False) and carried_casket(s, st, b, f) >= 0:
        carry_cells(s, st, b, f, mask, lay[A_CARRY_CASKET], dist, prev, endable, start)
    if house_legacy(s, b) and can_afford(s, b, f, A_CARRY_FIGHTER, False):
        # [HL] 5.3 Carry a Seriously Injured friend: up to min(M, S); the friend is put down in the
        # last cell the carrier left on its path (always within 1" of it), its own cell included
        k = carried_friend(s, st, b, f)
        if k >= 0:
            kc = s.fi[b, k, FI_Y] * w + s.fi[b, k, FI_X]
            carry_cells(s, st, b, f, mask, lay[A_CARRY_FIGHTER], dist, prev, endable, kc)
    if can_afford(s, b, f, A_CHARGE, False):
        charge_mask(s, st, b, lay, mask, f, dist, cmax)
    if can_afford(s, b, f, A_RIDE_BY, False) and has_cond(s, b, f, C_MOUNTED):
        # 4.3 Mounted, Ride By: a Move that pauses in base contact with one enemy (ride_by.py)
        me = gang_of(s, b, f)
        for t in range(s.fi.shape[1]):
            if gang_of(s, b, t) != me and ride_by_legal(s, st, b, f, t):
                mask[lay[A_RIDE_BY] + global_to_rel(s, b, me, t)] = True


@njit(cache=True, separate=False)  # linked into action_mask, as the code it replaced was (core.separate)
def carry_cells(s, st, b, f, mask, base, dist, prev, endable, put_down):
    """The cells a carrier may end a Carry on, within carry_inches: what it carries is put down in
    the last cell it left, which must be its start, the cell ``put_down`` or a cell free to end in."""
    w = st.terrain.shape[1]
    start = s.fi[b, f, FI_Y] * w + s.fi[b, f, FI_X]
    cm = carry_inches(s, b, f)
    for c in range(dist.shape[0]):
        if endable[c] and dist[c] <= 2 * cm:
            p = prev[c]
            if p == start or p == put_down or (p >= 0 and cell_free_endable(s, st, b, p % w, p // w)):
                mask[base + c] = True


@njit(cache=True, separate=False)  # linked into action_mask, as the code it replaced was (core.separate)
def charge_mask(s, st, b, lay, mask, f, dist, cmax):
    """Charge (Double): the enemies whose base contact a path of at most cmax inches reaches, given
    ``dist`` from a normal-mode search of f with a budget of at least 2 * cmax."""
    me = gang_of(s, b, f)
    for t in range(s.fi.shape[1]):
        if s.fi[b, t, FI_STATE] != FS_ON or gang_of(s, b, t) == me:
            continue
        # every step of a path costs at least 2 half-inches (core/reach.py) and a contact
        # cell is one cell nearer than t: a farther enemy cannot be reached
        if max(abs(s.fi[b, t, FI_X] - s.fi[b, f, FI_X]), abs(s.fi[b, t, FI_Y] - s.fi[b, f, FI_Y])) - 1 > cmax:
            continue
        if contact_cost(s, st, b, f, t, dist) <= 2 * cmax:
            mask[lay[A_CHARGE] + global_to_rel(s, b, me, t)] = True


@njit(cache=True, separate=False)  # linked into action_mask, as the code it replaced was (core.separate)
def coup_mask(s, st, b, lay, mask, f):
    """Coup de Grace: a Prone and Seriously Injured enemy within 1" (with the height difference,
    docs/rules.md, levels) and in the vision arc. A Starving fighter must Cannibalise instead (4.3)."""
    if not can_afford(s, b, f, A_COUP, False) or has_cond(s, b, f, C_STARVING):
        return
    me = gang_of(s, b, f)
    fx = s.fi[b, f, FI_X]
    fy = s.fi[b, f, FI_Y]
    for t in range(s.fi.shape[1]):
        if (s.fi[b, t, FI_STATE] == FS_ON and gang_of(s, b, t) != me and s.fi[b, t, FI_POSTURE] == PO_SI
                and clear_within1(s, st, b, fx, fy, s.fi[b, t, FI_X], s.fi[b, t, FI_Y])
                and within_f(s, b, f, t, 1.0)
                and arc_ok(s, st, b, f, t, False)):
            mask[lay[A_COUP] + global_to_rel(s, b, me, t)] = True


@njit(cache=True, separate=False)  # linked into action_mask, as the code it replaced was (core.separate)
def doors_caskets_mask(s, st, b, lay, mask, f):
    """Access Terminal, Operate Door, Force Door and Demolitions (5.2, 12) on the doors near f; Smash
    Open and Bypass Lock on the closed loot caskets near it."""
    term_ok = can_afford(s, b, f, A_TERMINAL, False)
    for d in range(st.door_xy.shape[0]):
        if term_ok and terminal_usable(s, st, b, f, d):
            mask[lay[A_TERMINAL] + d] = True
        if not door_near(s, st, b, f, d):
            continue
        if can_afford(s, b, f, A_OPEN_DOOR, False) and door_operable(s, st, b, d):
            mask[lay[A_OPEN_DOOR] + d] = True
        if can_afford(s, b, f, A_FORCE_DOOR, False) and s.door[b, d, DR_STATE] == DOOR_LOCKED:
            mask[lay[A_FORCE_DOOR] + d] = True
            if can_afford(s, b, f, A_DEMOLISH, False) and demolitions_item(s, st, b, f)[0] >= 0:
                mask[lay[A_DEMOLISH] + d] = True  # 12 Demolitions: a grenade against a locked door
    for k in range(s.casket.shape[1]):
        if s.casket[b, k, 2] == 1 and casket_near(s, st, b, f, k):
            if can_afford(s, b, f, A_SMASH_CASKET, False):
                mask[lay[A_SMASH_CASKET] + k] = True
            if can_afford(s, b, f, A_BYPASS_CASKET, False):
                mask[lay[A_BYPASS_CASKET] + k] = True


@njit(cache=True, separate=False)  # linked into action_mask, as the code it replaced was (core.separate)
def ducts_mask(s, st, b, lay, mask, f):
    """Crawl Through and Fire Through a Ductway (5.2) from an end within 1" of f."""
    for u in range(st.duct.shape[0]):
        ox, oy = duct_far_end(s, st, b, f, u)
        if ox < 0:
            continue
        if can_afford(s, b, f, A_CRAWL_DUCT, False):
            duct_exits(s, st, b, f, mask, lay[A_CRAWL_DUCT], ox, oy)
        if can_afford(s, b, f, A_FIRE_DUCT, False):
            nf = s.fi.shape[1]
            me = gang_of(s, b, f)
            targets = np.zeros(nf, np.bool_)  # an enemy within 1" of the far end
            for t in range(nf):
                targets[t] = (s.fi[b, t, FI_STATE] == FS_ON and gang_of(s, b, t) != me
                              and clear_within1(s, st, b, ox, oy, s.fi[b, t, FI_X], s.fi[b, t, FI_Y]))
            profiles = usable_profiles(s, st, b, f, A_FIRE_DUCT)
            mark_profile_targets(s, b, me, mask, lay[A_FIRE_DUCT], profiles, targets)


@njit(cache=True, separate=False)  # linked into action_mask, as the code it replaced was (core.separate)
def duct_exits(s, st, b, f, mask, base, ox, oy):
    """mask[base + cell] for the cells a ductway crawler may come out in: free to end in, within 1"
    of the far end (ox, oy) and not through a wall, not next to a Standing or Pinned enemy."""
    w = st.terrain.shape[1]
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            x = ox + dx
            y = oy + dy
            if (cell_free_endable(s, st, b, x, y) and clear_within1(s, st, b, ox, oy, x, y)
                    and not near_blocking_enemy(s, b, f, x, y)):
                mask[base + y * w + x] = True


@njit(cache=True, separate=False)  # linked into action_mask, as the code it replaced was (core.separate)
def versatile_fight_mask(s, st, b, lay, mask, f):
    """Versatile (12): during its own activation the wielder may fight a Standing enemy up to the
    weapon's Long range away (combat.versatile_reach), in its vision arc and line of sight."""
    if not can_afford(s, b, f, A_FIGHT, False):
        return
    me = gang_of(s, b, f)
    fx = s.fi[b, f, FI_X]
    fy = s.fi[b, f, FI_Y]
    vr2 = versatile_range2(s, st, b, f)
    for t in range(s.fi.shape[1] if vr2 >= 0 else 0):
        if (t == f or s.fi[b, t, FI_STATE] != FS_ON or gang_of(s, b, t) == me
                or s.fi[b, t, FI_POSTURE] != PO_STANDING
                or max(abs(s.fi[b, t, FI_X] - fx), abs(s.fi[b, t, FI_Y] - fy)) <= 1):
            continue
        dx = s.fi[b, t, FI_X] - fx
        dy = s.fi[b, t, FI_Y] - fy
        if (dx * dx + dy * dy <= vr2 + 1e-9 and arc_ok(s, st, b, f, t, False)
                and clear_rays(s, st, b, f, t, False) > 0):
            mask[lay[A_FIGHT] + global_to_rel(s, b, me, t)] = True


@njit(cache=True, separate=False)  # linked into action_mask, as the code it replaced was (core.separate)
def cannibalise_mask(s, st, b, lay, mask, f):
    """Cannibalise (Basic, a Starving fighter, 4.3): a Prone and Seriously Injured fighter, friend or
    foe, within 1" and in the vision arc (as a Coup de Grace)."""
    if not has_cond(s, b, f, C_STARVING) or not can_afford(s, b, f, A_CANNIBALISE, False):
        return
    me = gang_of(s, b, f)
    fx = s.fi[b, f, FI_X]
    fy = s.fi[b, f, FI_Y]
    for t in range(s.fi.shape[1]):
        if (t != f and s.fi[b, t, FI_STATE] == FS_ON and s.fi[b, t, FI_POSTURE] == PO_SI
                and clear_within1(s, st, b, fx, fy, s.fi[b, t, FI_X], s.fi[b, t, FI_Y])
                and arc_ok(s, st, b, f, t, False)):
            mask[lay[A_CANNIBALISE] + global_to_rel(s, b, me, t)] = True


@njit(cache=True, separate=False)  # linked into action_mask, as the code it replaced was (core.separate)
def engaged_mask(s, st, b, lay, mask, f, dist, prev, endable):
    """A Standing and Engaged fighter: Fight an enemy in base contact, or Retreat (5.2)."""
    if can_afford(s, b, f, A_FIGHT, False):
        me = gang_of(s, b, f)
        for t in range(s.fi.shape[1]):
            if engaged_with(s, b, f, t):
                mask[lay[A_FIGHT] + global_to_rel(s, b, me, t)] = True
    if can_afford(s, b, f, A_RETREAT, False):
        rb = retreat_budget(s, b, f)
        reach(s, st, b, f, rb, MODE_NORMAL, -1, dist, prev, endable)
        mark_reachable(mask, lay[A_RETREAT], endable, dist, rb)


@njit(cache=True, separate=False)  # linked into action_mask, as the code it replaced was (core.separate)
def prone_mask(s, st, b, lay, mask, f, pp, dist, prev, endable):
    """A Prone fighter: Pinned (pp) it may Stand Up, Blind Fire (not [HL], 5.3) and ([HL] 5.3) Charge,
    at most M; Pinned or Seriously Injured it may Crawl."""
    # one normal-mode search serves the [HL] Charge and the Crawl: distances up to a search's
    # budget do not depend on the budget (reached: the budget dist holds, -1 none)
    reached = -1
    if pp and house_legacy(s, b) and can_afford(s, b, f, A_CHARGE, False):
        cmax = charge_allowance_max(s, st, b, f)
        reached = 2 * max(cmax, half_movement(s, b, f))
        reach(s, st, b, f, reached, MODE_NORMAL, -1, dist, prev, endable)
        charge_mask(s, st, b, lay, mask, f, dist, cmax)
    if pp and can_afford(s, b, f, A_STAND_UP, False):
        mask[lay[A_STAND_UP]] = True
    if pp and can_afford(s, b, f, A_BLIND_FIRE, False) and not house_legacy(s, b):
        profiles = usable_profiles(s, st, b, f, A_BLIND_FIRE)
        if profiles.any():
            elig = np.zeros(s.fi.shape[1], np.bool_)  # eligible targets in any arc (7.8)
            eligible_targets(s, st, b, f, True, elig)
            mark_profile_targets(s, b, gang_of(s, b, f), mask, lay[A_BLIND_FIRE], profiles, elig)
    if can_afford(s, b, f, A_CRAWL, False):
        half = half_movement(s, b, f)  # halved before Gunked's -1" (3.2)
        if reached < 2 * half:
            reach(s, st, b, f, 2 * half, MODE_NORMAL, -1, dist, prev, endable)
        mark_reachable(mask, lay[A_CRAWL], endable, dist, 2 * half)


@njit(cache=True)
def followup_mask(s, st, b, lay, mask, f):
    """Rules 8.1 step 8. Returns the number of options besides declining."""
    h, w = st.terrain.shape
    nf = s.fi.shape[1]
    me = gang_of(s, b, f)
    eng = np.zeros(nf, np.bool_)
    for e in range(nf):
        eng[e] = fu_engaged(s, b, e) == 1
    may_coup, may_cons = followup_options(s, b, f, eng)
    count = 0
    mask[lay[A_END]] = True
    if may_coup:
        for e in range(nf):
            if eng[e] and s.fi[b, e, FI_STATE] == FS_ON and s.fi[b, e, FI_POSTURE] == PO_SI:
                mask[lay[A_COUP] + global_to_rel(s, b, me, e)] = True
                count += 1
    if may_cons:
        n = h * w
        dist = np.empty(n, np.int32)
        prev = np.empty(n, np.int32)
        endable = np.empty(n, np.bool_)
        reach(s, st, b, f, 4, MODE_NORMAL, -1, dist, prev, endable)
        for c in range(n):
            if endable[c] and dist[c] <= 4:
                mask[lay[A_CONSOLIDATE] + c] = True
                count += 1
    return count


@njit(cache=True)
def fill_mask(s, st, b, lay, mask):
    """Write the mask of the decision the game awaits; returns the number of legal actions."""
    for i in range(mask.shape[1]):
        mask[b, i] = False
    mb = mask[b]
    if s.g[b, G_DONE]:
        return 0
    dk = s.g[b, G_DK]
    if dk == DK_SELECT:
        g = s.g[b, G_DGANG]
        mf = s.g[b, G_MF]
        grouped = s.g[b, G_GGANG] >= 0  # only the named members of a group activation (2.4)
        for i in range(mf):
            f = g * mf + i
            if s.fi[b, f, FI_STATE] == FS_ON and s.fi[b, f, FI_READY]:
                if not grouped or (s.g[b, G_GROUP] >> i) & 1:
                    mb[lay[A_SELECT] + i] = True
    elif dk == DK_ACTION:
        action_mask(s, st, b, lay, mb, s.g[b, G_ACTIVE])
    elif dk == DK_FOLLOWUP:
        followup_mask(s, st, b, lay, mb, s.g[b, G_FU])
    elif dk == DK_BOTTLE:
        mb[lay[A_END]] = True
        mb[lay[A_BOTTLE]] = True
    elif dk == DK_FLEE:
        mb[lay[A_END]] = True
        mb[lay[A_FLEE]] = True
    elif dk == DK_GROUP:
        group_mask(s, b, lay, mb)
    elif dk == DK_CHARGE_FIGHT:
        # [HL] 5.3: after a charge that ends Engaged the free Fight is optional
        f = s.g[b, G_CHF]
        me = gang_of(s, b, f)
        mb[lay[A_END]] = True
        for t in range(s.fi.shape[1]):
            if engaged_with(s, b, f, t):
                mb[lay[A_FIGHT] + global_to_rel(s, b, me, t)] = True
    elif dk == DK_BLAZE_PRONE:
        mb[lay[A_END]] = True  # stay Standing (4.3 Blaze)
        mb[lay[A_GO_PRONE]] = True
    elif dk == DK_RIDE_BY:
        # 4.3 Mounted, Ride By: finish the Move from the pause cell, or stay there
        mb[lay[A_END]] = True
        f = s.g[b, G_RB] - 1
        n = st.terrain.shape[0] * st.terrain.shape[1]
        dist = np.empty(n, np.int32)
        prev = np.empty(n, np.int32)
        endable = np.empty(n, np.bool_)
        budget = ride_by_cells(s, st, b, f, dist, prev, endable)
        mark_reachable(mb, lay[A_MOVE], endable, dist, budget)
    return count_true(mb)
