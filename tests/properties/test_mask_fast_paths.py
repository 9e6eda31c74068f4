"""The legal mask's shortcuts equal the plain definitions they replace (docs/performance.md,
"What was done"), on random small boards: random walls, obstacles, doors in random states,
smoke clouds, fighters with random weapons, postures and facings.

- ``query.clear_rays_cells`` (early exit when every ray crosses a wall, door states read only when
  a ray crosses a door, models outside the box of the two cells skipped, each model tested once
  for all rays) returns what the plain per-ray loop below returns, for every fighter cell against
  every cell, with and without models;
- ``legal.action_mask`` finds the eligible targets once per fighter for every Shoot profile, the
  twin Shoot and Blind Fire, and tests Blast points only in the profile's range window: every such
  row of the mask equals the row of the predicate (``shooting.eligible``,
  ``shooting.template_target_ok``, ``shooting.point_target_ok``) evaluated for every target / cell.

Runs with and without the numba JIT (small boards).
"""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from necro_env.core.geometry import N_RAYS, ray_blocked_by_model
from necro_env.core.terrain import DOOR_CLOSED, DOOR_DESTROYED, DOOR_LOCKED, DOOR_OPEN
from necro_env.rulesets.necromunda import legal
from necro_env.rulesets.necromunda.actions import can_afford, status_pp, status_sa, twin_sidearms, unwieldy
from necro_env.rulesets.necromunda.codec import A_BLIND_FIRE, A_SHOOT, A_SHOOT_CELL, A_SHOOT_TWIN
from necro_env.rulesets.necromunda.constants import PF_TRAITS, T_TEMPLATE
from necro_env.rulesets.necromunda.query import clear_rays_cells, closed_door_mask, gang_of, standing
from necro_env.rulesets.necromunda.shooting import (
    blast_profile, eligible, point_target_ok, template_target_ok,
)
from necro_env.rulesets.necromunda.state import (
    DR_STATE, FI_STATE, FI_TURN, FI_X, FI_Y, FS_ON, G_SMOKE0, WP_ID,
)
from necro_env.rulesets.necromunda.templates import smoke_blocks
from necro_env.rulesets.necromunda.variant import house_legacy
from necro_env.rulesets.necromunda.weapons import can_shoot_with
from necro_env.testing import board, fighter, gang, scenario

PROFILE = settings.get_profile("necro-properties")
W, H = 9, 7
WEAPONS = ("lasgun", "autopistol", "laspistol", "frag_grenade", "smoke_grenade", "flamer", "boltgun",
           "grenade_launcher", "shotgun", "fighting_knife", "stub_gun")
POSTURES = ("standing", "standing", "standing", "pinned", "seriously_injured")


def random_game(seed):
    """A random small board and six fighters (three per gang); gang 0's first Standing or Pinned
    fighter is activated; then random door states, smoke clouds and free-turn flag."""
    rng = np.random.default_rng(seed)
    grid = rng.choice(list(".#o+/"), p=[0.72, 0.12, 0.08, 0.04, 0.04], size=(H, W))
    floor = [(x, y) for y in range(H) for x in range(W) if grid[y, x] == "."]
    while len(floor) < 8:  # enough room for the fighters
        x, y = int(rng.integers(W)), int(rng.integers(H))
        grid[y, x] = "."
        floor = sorted(set(floor) | {(x, y)})
    spots = rng.choice(len(floor), 6, replace=False)
    gangs, placements = [], []
    for g in range(2):
        members = []
        for i in range(3):
            name = f"g{g}f{i}"
            ws = list(rng.choice(WEAPONS, int(rng.integers(1, 4)), replace=False))
            members.append(fighter(("orlock", "goliath")[g], "ganger", ws, name=name))
            posture = "standing" if g == 0 and i == 0 else str(rng.choice(POSTURES))
            if g == 0 and i == 0 and rng.random() < 0.3:
                posture = "pinned"
            if g == 1 and i == 0 and posture == "seriously_injured":
                posture = "pinned"  # keeps gang 1 in the battle (2.6), so gang 0's fighter can be selected
            placements.append({"fighter": name, "cell": floor[spots[3 * g + i]], "facing": int(rng.integers(8)),
                               "posture": posture})
        gangs.append(gang(f"gang{g}", *members))
    game = scenario(board("\n".join("".join(r) for r in grid)), gangs, placements, seed=seed)
    game.activate("g0f0")
    s = game.state
    for d in range(game.static.door_xy.shape[0]):  # a board without doors has no door table
        if game.static.door_xy[d, 0] >= 0:
            s.door[0, d, DR_STATE] = int(rng.choice([DOOR_CLOSED, DOOR_OPEN, DOOR_LOCKED, DOOR_DESTROYED]))
    for i in range(int(rng.integers(0, 3))):
        x, y = floor[int(rng.integers(len(floor)))]
        s.g[0, G_SMOKE0 + i] = y * W + x + 1
    s.fi[0, game.active_fighter, FI_TURN] = int(rng.integers(2))
    legal.fill_mask(s, game.static, 0, game.layout, game.mask)
    return game, rng


def clear_rays_reference(s, st_, b, ax, ay, tx, ty, ga, skip1, skip2, ignore_models):
    """The plain definition (rules 1.4): each of the 5 rays in turn against walls, closed doors,
    every Standing model, then obstacles."""
    w = st_.terrain.shape[1]
    ca, ct = ay * w + ax, ty * w + tx
    if ca == ct:
        return N_RAYS
    if smoke_blocks(s, b, w, ax, ay, tx, ty):
        return 0
    closed = closed_door_mask(s, st_, b)
    n, soft = 0, False
    for k in range(N_RAYS):
        bit = 1 << k
        if st_.los_wall[ca, ct] & bit or st_.los_door[ca, ct, k] & closed:
            continue
        blocked = False
        if not ignore_models:
            for m in range(s.fi.shape[1]):
                if m in (skip1, skip2) or not standing(s, b, m):
                    continue
                mx, my = s.fi[b, m, FI_X], s.fi[b, m, FI_Y]
                if (mx, my) in ((ax, ay), (tx, ty)):
                    continue
                if gang_of(s, b, m) == ga and max(abs(mx - ax), abs(my - ay)) == 1:
                    continue
                if ray_blocked_by_model(ax, ay, tx, ty, k, mx, my):
                    blocked = True
                    break
        if blocked:
            continue
        if st_.los_obst[ca, ct] & bit:
            soft = True
            continue
        n += 1
    return 1 if n == 0 and soft else n


@settings(PROFILE, max_examples=25)
@given(seed=st.integers(0, 2**32 - 1))
def test_clear_rays_equals_the_plain_loop(seed):
    game, rng = random_game(seed)
    s, st_ = game.state, game.static
    on = [f for f in range(s.fi.shape[1]) if s.fi[0, f, FI_STATE] == FS_ON]
    cells = {(int(s.fi[0, f, FI_X]), int(s.fi[0, f, FI_Y])): f for f in on}
    for a in on:
        ax, ay = int(s.fi[0, a, FI_X]), int(s.fi[0, a, FI_Y])
        ga = gang_of(s, 0, a)
        for ty in range(H):
            for tx in range(W):
                t = cells.get((tx, ty), -1)
                for ignore in (False, True):
                    got = clear_rays_cells(s, st_, 0, ax, ay, tx, ty, ga, a, t, ignore)
                    want = clear_rays_reference(s, st_, 0, ax, ay, tx, ty, ga, a, t, ignore)
                    assert got == want, f"seed {seed}: rays {a}@{(ax, ay)} -> {(tx, ty)} ignore {ignore}"
    # a cell pair seen from a cell no fighter stands on (Blast markers, running targets)
    for _ in range(40):
        ax, ay, tx, ty = (int(v) for v in rng.integers(0, (W, H, W, H)))
        ga = int(rng.integers(2))
        assert (clear_rays_cells(s, st_, 0, ax, ay, tx, ty, ga, -1, -1, False)
                == clear_rays_reference(s, st_, 0, ax, ay, tx, ty, ga, -1, -1, False))


@settings(PROFILE, max_examples=40)
@given(seed=st.integers(0, 2**32 - 1))
def test_shooting_rows_equal_their_predicates(seed):
    game, _ = random_game(seed)
    s, st_, lay, mask = game.state, game.static, game.layout, game.mask[0]
    f = game.active_fighter
    nf = s.fi.shape[1]
    n = W * H
    me = gang_of(s, 0, f)
    rel = [legal.global_to_rel(s, 0, me, t) for t in range(nf)]

    def row(pred):
        r = np.zeros(nf, np.bool_)
        for t in range(nf):
            r[rel[t]] = pred(t)
        return r

    sa, pp = status_sa(s, 0, f), status_pp(s, 0, f)
    aim = row(lambda t: eligible(s, st_, 0, f, t, False))
    blind = row(lambda t: eligible(s, st_, 0, f, t, True))
    for item in range(s.wp.shape[2]):
        wid = s.wp[0, f, item, WP_ID]
        if wid < 0:
            continue
        bp = blast_profile(s, st_, 0, f, item)
        for p in range(st_.wprof.shape[1]):
            if not can_shoot_with(s, st_, 0, f, item, p):
                continue
            at = lay[A_SHOOT] + (item * 2 + p) * nf
            shoot = sa and can_afford(s, 0, f, A_SHOOT, unwieldy(st_, wid, p))
            if st_.wprof[wid, p, PF_TRAITS] & T_TEMPLATE:
                want = row(lambda t: template_target_ok(s, st_, 0, f, t))
            else:
                want = aim
            assert np.array_equal(mask[at:at + nf], want & shoot), f"seed {seed}: Shoot item {item} profile {p}"
            if p == bp:
                pts = np.array([point_target_ok(s, st_, 0, f, wid, p, c % W, c // W) for c in range(n)])
                at = lay[A_SHOOT_CELL] + item * n
                assert np.array_equal(mask[at:at + n], pts & shoot), f"seed {seed}: Blast points of item {item}"
            if not legal.area_profile(st_, wid, p):
                at = lay[A_BLIND_FIRE] + (item * 2 + p) * nf
                bf = pp and can_afford(s, 0, f, A_BLIND_FIRE, False) and not house_legacy(s, 0)
                assert np.array_equal(mask[at:at + nf], blind & bf), f"seed {seed}: Blind Fire {item} {p}"
    twin = sa and can_afford(s, 0, f, A_SHOOT_TWIN, False) and twin_sidearms(s, st_, 0, f)[0] >= 0
    at = lay[A_SHOOT_TWIN]
    assert np.array_equal(mask[at:at + nf], aim & twin), f"seed {seed}: twin Shoot"


@settings(PROFILE, max_examples=40)
@given(seed=st.integers(0, 2**32 - 1))
def test_movement_masks_follow_cell_solid(seed):
    """``movement.build_masks`` writes the terrain without ``query.cell_solid``'s per-cell branches
    and then the closed and locked doors (docs/performance.md, "What was done"): ``solid`` is
    ``cell_solid`` on every cell, obstacles cost their 1" extra, and away from fighters and
    caskets a cell may be entered iff it is not solid and ended in iff it is neither solid nor
    an obstacle (rules 1.2, 6.1)."""
    from necro_env.core.terrain import TER_OBSTACLE
    from necro_env.rulesets.necromunda.movement import MODE_CHARGE, MODE_NORMAL, OBSTACLE_EXTRA, build_masks
    from necro_env.rulesets.necromunda.query import cell_solid
    from necro_env.rulesets.necromunda.state import CK_STATE, CK_X, CK_Y

    game, rng = random_game(seed)
    s, st_ = game.state, game.static
    f = game.active_fighter
    n = H * W
    near = np.zeros((H, W), bool)  # cells a fighter, the 1" rule or a casket may change
    for e in range(s.fi.shape[1]):
        if s.fi[0, e, FI_STATE] == FS_ON:
            x, y = int(s.fi[0, e, FI_X]), int(s.fi[0, e, FI_Y])
            near[max(0, y - 1):y + 2, max(0, x - 1):x + 2] = True
    for k in range(s.casket.shape[1]):
        if s.casket[0, k, CK_STATE] != 0:
            near[s.casket[0, k, CK_Y], s.casket[0, k, CK_X]] = True
    enemies = [e for e in range(s.fi.shape[1])
               if s.fi[0, e, FI_STATE] == FS_ON and gang_of(s, 0, e) != gang_of(s, 0, f)]
    for mode, target in ((MODE_NORMAL, -1), (MODE_CHARGE, enemies[0] if enemies else -1)):
        if target < 0 and mode == MODE_CHARGE:
            continue
        enter, solid, terminal, endable = (np.ones(n, np.bool_) for _ in range(4))
        extra = np.full(n, -7, np.int32)
        build_masks(s, st_, 0, f, mode, target, enter, solid, extra, terminal, endable)
        for y in range(H):
            for x in range(W):
                c = y * W + x
                sol = bool(cell_solid(s, st_, 0, x, y))
                ob = st_.terrain[y, x] == TER_OBSTACLE
                assert solid[c] == sol, (seed, x, y)
                assert extra[c] == (OBSTACLE_EXTRA if ob else 0), (seed, x, y)
                if not near[y, x]:
                    assert enter[c] == (not sol), (seed, mode, x, y)
                    assert endable[c] == (not sol and not ob), (seed, mode, x, y)
                    assert not terminal[c], (seed, mode, x, y)
