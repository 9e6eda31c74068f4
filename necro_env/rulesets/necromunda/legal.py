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
    carried_friend,
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
    """Mask of the active fighter f's choices (DK_ACTION)."""
    h, w = st.terrain.shape
    n = h * w
    nf = s.fi.shape[1]
    me = gang_of(s, b, f)
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
    m = movement(s, b, f)  # Gunked: -1" (4.3)
    dist = np.empty(n, np.int32)
    prev = np.empty(n, np.int32)
    endable = np.empty(n, np.bool_)
    fx = s.fi[b, f, FI_X]
    fy = s.fi[b, f, FI_Y]
    start = fy * w + fx
    if sa:
        # Move / Carry (Simple), Take Cover (Basic), Charge (Double): one search at the largest budget
        cmax = charge_allowance_max(s, st, b, f)
        budget = 2 * max(m, cmax)
        reach(s, st, b, f, budget, MODE_NORMAL, -1, dist, prev, endable)
        if can_afford(s, b, f, A_MOVE, False):
            if has_levels(st):
                # a Move may also jump down / leap gaps (rules 6.5-6.6)
                jd = np.empty(n, np.int32)
                jp = np.empty(n, np.int32)
                je = np.empty(n, np.bool_)
                reach(s, st, b, f, 2 * m, MODE_JUMP, -1, jd, jp, je)
                mark_reachable(mask, lay[A_MOVE], je, jd, 2 * m)
            else:
                mark_reachable(mask, lay[A_MOVE], endable, dist, 2 * m)
        if can_afford(s, b, f, A_TAKE_COVER, False):
            half = half_movement(s, b, f)  # halved before Gunked's -1" (3.2)
            mask[lay[A_TAKE_COVER] + start] = True
            mark_reachable(mask, lay[A_TAKE_COVER], endable, dist, 2 * half)
        if can_afford(s, b, f, A_CARRY_CASKET, False):
            near = False
            for k in range(s.casket.shape[1]):
                if casket_near(s, st, b, f, k):
                    near = True
            if near:
                cm = carry_inches(s, b, f)
                for c in range(n):
                    if endable[c] and dist[c] <= 2 * cm:
                        p = prev[c]
                        if p == start or (p >= 0 and cell_free_endable(s, st, b, p % w, p // w)):
                            mask[lay[A_CARRY_CASKET] + c] = True
        if can_afford(s, b, f, A_CHARGE, False):
            for t in range(nf):
                if s.fi[b, t, FI_STATE] != FS_ON or gang_of(s, b, t) == me:
                    continue
                # every step of a path costs at least 2 half-inches (core/reach.py) and a contact
                # cell is one cell nearer than t: a farther enemy cannot be reached
                if max(abs(s.fi[b, t, FI_X] - fx), abs(s.fi[b, t, FI_Y] - fy)) - 1 > cmax:
                    continue
                if contact_cost(s, st, b, f, t, dist) <= 2 * cmax:
                    mask[lay[A_CHARGE] + global_to_rel(s, b, me, t)] = True
        if can_afford(s, b, f, A_RIDE_BY, False) and has_cond(s, b, f, C_MOUNTED):
            # 4.3 Mounted, Ride By: a Move that pauses in base contact with one enemy (ride_by.py)
            for t in range(nf):
                if gang_of(s, b, t) != me and ride_by_legal(s, st, b, f, t):
                    mask[lay[A_RIDE_BY] + global_to_rel(s, b, me, t)] = True
        if house_legacy(s, b) and can_afford(s, b, f, A_CARRY_FIGHTER, False):
            # [HL] 5.3 Carry a Seriously Injured friend: up to min(M, S); the friend is put down in the
            # last cell the carrier left on its path (always within 1" of it)
            k = carried_friend(s, st, b, f)
            if k >= 0:
                cm = carry_inches(s, b, f)
                kc = s.fi[b, k, FI_Y] * w + s.fi[b, k, FI_X]
                for c in range(n):
                    if endable[c] and dist[c] <= 2 * cm:
                        p = prev[c]
                        if p == start or p == kc or (p >= 0 and cell_free_endable(s, st, b, p % w, p // w)):
                            mask[lay[A_CARRY_FIGHTER] + c] = True
        # Shoot / twin Shoot / Aim; the eligible targets (arc, LOS, cover: 7.2) are the same for
        # every profile and the twin Shoot, so they are found once, when first needed
        elig = np.zeros(nf, np.bool_)
        elig_known = False
        for item in range(s.wp.shape[2]):
            wid = s.wp[b, f, item, WP_ID]
            if wid < 0:
                continue
            for p in range(st.wprof.shape[1]):
                if not can_shoot_with(s, st, b, f, item, p):
                    continue
                if not can_afford(s, b, f, A_SHOOT, unwieldy(st, wid, p)):
                    continue
                tr = st.wprof[wid, p, PF_TRAITS]
                if tr & T_TEMPLATE:  # Flame template (7.10): aimed at an enemy under it
                    for t in range(nf):
                        if template_target_ok(s, st, b, f, t):
                            mask[lay[A_SHOOT] + (item * 2 + p) * nf + global_to_rel(s, b, me, t)] = True
                    continue
                if not elig_known:
                    eligible_targets(s, st, b, f, False, elig)
                    elig_known = True
                for t in range(nf):
                    if elig[t]:
                        mask[lay[A_SHOOT] + (item * 2 + p) * nf + global_to_rel(s, b, me, t)] = True
                if tr & (T_BLAST | T_SMOKE) and blast_profile(s, st, b, f, item) == p:  # a point (7.9)
                    point_targets(s, st, b, f, wid, p, mask, lay[A_SHOOT_CELL] + item * n)
        if can_afford(s, b, f, A_SHOOT_TWIN, False):
            i1, p1, i2, p2 = twin_sidearms(s, st, b, f)
            if i1 >= 0:
                if not elig_known:
                    eligible_targets(s, st, b, f, False, elig)
                    elig_known = True
                for t in range(nf):
                    if elig[t]:
                        mask[lay[A_SHOOT_TWIN] + global_to_rel(s, b, me, t)] = True
        if can_afford(s, b, f, A_AIM, False):
            mask[lay[A_AIM]] = True
        if can_afford(s, b, f, A_COUP, False) and not has_cond(s, b, f, C_STARVING):
            # a Starving fighter must Cannibalise instead of a Coup de Grace (4.3)
            for t in range(nf):
                if (s.fi[b, t, FI_STATE] == FS_ON and gang_of(s, b, t) != me and s.fi[b, t, FI_POSTURE] == PO_SI
                        and clear_within1(s, st, b, fx, fy, s.fi[b, t, FI_X], s.fi[b, t, FI_Y])
                        and within_f(s, b, f, t, 1.0)  # with the height difference (docs/rules.md, levels)
                        and arc_ok(s, st, b, f, t, False)):
                    mask[lay[A_COUP] + global_to_rel(s, b, me, t)] = True
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
        for u in range(st.duct.shape[0]):
            ox, oy = duct_far_end(s, st, b, f, u)
            if ox < 0:
                continue
            if can_afford(s, b, f, A_CRAWL_DUCT, False):
                for dy in range(-2, 3):
                    for dx in range(-2, 3):
                        x = ox + dx
                        y = oy + dy
                        if not cell_free_endable(s, st, b, x, y) or not clear_within1(s, st, b, ox, oy, x, y):
                            continue
                        if near_blocking_enemy(s, b, f, x, y):
                            continue
                        mask[lay[A_CRAWL_DUCT] + y * w + x] = True
            if can_afford(s, b, f, A_FIRE_DUCT, False):
                for t in range(nf):
                    if (s.fi[b, t, FI_STATE] != FS_ON or gang_of(s, b, t) == me
                            or not clear_within1(s, st, b, ox, oy, s.fi[b, t, FI_X], s.fi[b, t, FI_Y])):
                        continue
                    for item in range(s.wp.shape[2]):
                        wid = s.wp[b, f, item, WP_ID]
                        if wid < 0:
                            continue
                        for p in range(st.wprof.shape[1]):
                            if can_shoot_with(s, st, b, f, item, p) and not blast_or_smoke(st, wid, p):
                                mask[lay[A_FIRE_DUCT] + (item * 2 + p) * nf + global_to_rel(s, b, me, t)] = True
    if (sa or se) and can_afford(s, b, f, A_FIGHT, False):
        # Versatile (12): during its own activation the wielder may fight a Standing enemy
        # up to the weapon's Long range away (combat.versatile_reach), in its vision arc and
        # line of sight
        vr2 = versatile_range2(s, st, b, f)
        for t in range(nf if vr2 >= 0 else 0):
            if (t == f or s.fi[b, t, FI_STATE] != FS_ON or gang_of(s, b, t) == me
                    or s.fi[b, t, FI_POSTURE] != PO_STANDING
                    or max(abs(s.fi[b, t, FI_X] - fx), abs(s.fi[b, t, FI_Y] - fy)) <= 1):
                continue
            dx = s.fi[b, t, FI_X] - fx
            dy = s.fi[b, t, FI_Y] - fy
            if (dx * dx + dy * dy <= vr2 + 1e-9 and arc_ok(s, st, b, f, t, False)
                    and clear_rays(s, st, b, f, t, False) > 0):
                mask[lay[A_FIGHT] + global_to_rel(s, b, me, t)] = True
    if (sa or se) and has_cond(s, b, f, C_STARVING) and can_afford(s, b, f, A_CANNIBALISE, False):
        # Cannibalise (Basic, 4.3): a Prone and Seriously Injured fighter, friend or foe, within 1"
        # and in the vision arc (as a Coup de Grace)
        for t in range(nf):
            if (t != f and s.fi[b, t, FI_STATE] == FS_ON and s.fi[b, t, FI_POSTURE] == PO_SI
                    and clear_within1(s, st, b, fx, fy, s.fi[b, t, FI_X], s.fi[b, t, FI_Y])
                    and arc_ok(s, st, b, f, t, False)):
                mask[lay[A_CANNIBALISE] + global_to_rel(s, b, me, t)] = True
    if sa or pp:
        if can_afford(s, b, f, A_RELOAD, False):
            for item in range(s.wp.shape[2]):
                if can_reload(s, st, b, f, item):
                    mask[lay[A_RELOAD] + item] = True
    if se:
        if can_afford(s, b, f, A_FIGHT, False):
            for t in range(nf):
                if engaged_with(s, b, f, t):
                    mask[lay[A_FIGHT] + global_to_rel(s, b, me, t)] = True
        if can_afford(s, b, f, A_RETREAT, False):
            rb = retreat_budget(s, b, f)
            reach(s, st, b, f, rb, MODE_NORMAL, -1, dist, prev, endable)
            mark_reachable(mask, lay[A_RETREAT], endable, dist, rb)
    # one normal-mode search serves a Prone fighter's Charge ([HL]) and Crawl: distances up to a
    # search's budget do not depend on the budget (reached: the budget dist holds, -1 none)
    reached = -1
    if pp and house_legacy(s, b) and can_afford(s, b, f, A_CHARGE, False):
        # [HL] 5.3: a Prone and Pinned fighter may Charge, at most M
        cmax = charge_allowance_max(s, st, b, f)
        reached = 2 * max(cmax, half_movement(s, b, f))
        reach(s, st, b, f, reached, MODE_NORMAL, -1, dist, prev, endable)
        for t in range(nf):
            if s.fi[b, t, FI_STATE] != FS_ON or gang_of(s, b, t) == me:
                continue
            if contact_cost(s, st, b, f, t, dist) <= 2 * cmax:
                mask[lay[A_CHARGE] + global_to_rel(s, b, me, t)] = True
    if pp:
        if can_afford(s, b, f, A_STAND_UP, False):
            mask[lay[A_STAND_UP]] = True
        if can_afford(s, b, f, A_BLIND_FIRE, False) and not house_legacy(s, b):  # [HL] 5.3: no Blind Fire
            elig = np.zeros(nf, np.bool_)  # eligible targets (any arc), found once for every profile
            elig_known = False
            for item in range(s.wp.shape[2]):
                wid = s.wp[b, f, item, WP_ID]
                if wid < 0:
                    continue
                for p in range(st.wprof.shape[1]):
                    if not can_shoot_with(s, st, b, f, item, p) or area_profile(st, wid, p):
                        continue
                    if not elig_known:
                        eligible_targets(s, st, b, f, True, elig)
                        elig_known = True
                    for t in range(nf):
                        if elig[t]:
                            mask[lay[A_BLIND_FIRE] + (item * 2 + p) * nf + global_to_rel(s, b, me, t)] = True
    if (pp or psi) and can_afford(s, b, f, A_CRAWL, False):
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
