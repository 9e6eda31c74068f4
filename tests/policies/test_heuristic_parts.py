"""The heuristics' fast parts give what their plain definitions give (necro_env/policies/heuristics.py,
"Speed"): the path field and the sentry's threat field by rows of bits equal the queue searches, the best shot found from the
highest value down equals the maximum over every usable profile and eligible target, and the
mask scan finds every legal index. (Whole games of the heuristics were compared action for action
with the code before these parts when they were written: docs/performance.md, "Heuristics".)"""
import numpy as np
import pytest

from necro_env.core.rng import seed_game
from necro_env.envs.necromunda_env import build_game
from necro_env.policies import heuristics as H
from necro_env.rulesets.necromunda.actions import unwieldy
from necro_env.rulesets.necromunda.shooting import eligible
from necro_env.rulesets.necromunda.weapons import can_shoot_with

WP_ID, FI_STATE, FS_ON = H.WP_ID, H.FI_STATE, H.FS_ON  # the heuristics' own imports of the layout


def positions(scenario, n, seed):
    """Copies of the game along a gunline-against-aggressor game (restarted when it ends)."""
    g = build_game(scenario).reset(seed)
    prng = np.zeros((1, 2), np.uint64)
    seed_game(prng, 0, np.uint64(seed))
    out = []
    while len(out) < n:
        if g.done:
            g.reset(seed + len(out))
        out.append(g.clone())
        k = H.gunline_action if g.current_gang == 0 else H.aggressor_action
        g.step(int(k(g.state, g.static, 0, g.layout, g.mask, prng)))
    return out


@pytest.fixture(scope="module")
def games():
    return positions("configs/scenarios/gang_fight.yaml", 120, 3) + positions("configs/scenarios/hall_fight.yaml",
                                                                               60, 4)


def same_fields(g, row_search, queue_search):
    """Each gang's field by the row search, checked equal to the queue search's; the fields."""
    h, w = g.static.terrain.shape
    assert w <= 64  # the boards of these tests take the row searches in heuristic play
    fields = []
    for me in range(g.dims.n_gangs):
        rows = np.empty(h * w, np.int32)
        queue = np.empty(h * w, np.int32)
        row_search(g.state, g.static, 0, me, rows)
        queue_search(g.state, g.static, 0, me, queue)
        assert np.array_equal(rows, queue)
        fields.append(rows)
    return fields


def test_the_row_search_gives_the_queue_searchs_path_field(games):
    for g in games[::3]:
        for field in same_fields(g, H.row_search, H.queue_search):
            assert (field == 0).sum() > 0  # some enemy on the board: a real field, not all FAR


def test_the_threat_row_search_gives_the_queue_searchs_threat_field(games):
    """The sentry's threat field (fill_threat_field) by rows of bits equals Dijkstra's search with a
    heap, on positions of two boards and with the doors set at random (open, closed, locked)."""
    rng = np.random.default_rng(5)
    states = (H.DOOR_OPEN, H.DOOR_CLOSED, H.DOOR_LOCKED)
    reached = 0
    for i, g in enumerate(games[::2]):
        if i % 2 and g.state.door.shape[1]:
            g = g.clone()
            g.state.door[0, :, H.DR_STATE] = rng.choice(states, g.state.door.shape[1])
        for field in same_fields(g, H.threat_row_search, H.threat_queue_search):
            reached += int((field <= H.THREAT).any())
    assert reached > 20  # fields with cells in some enemy's charge reach, not all THR_FAR


def test_best_shot_is_the_maximum_over_usable_profiles_and_eligible_targets(games):
    """With ``acts_left`` under 2 an Unwieldy profile does not count (its Shoot is a Double action);
    with ``sentry`` each shot that can hurt counts as the sentry scores its Shoot (pinning worth less
    the stray-shot corridor), before the Cool-test discount."""
    s, checked, positive, heavy_only, sentry_differs = None, 0, 0, 0, 0
    for g in games:
        s, st = g.state, g.static
        for f in range(s.fi.shape[1]):
            if s.fi[0, f, FI_STATE] != FS_ON:
                continue
            for aim in (0, 1, -1):
                got = {}
                for acts_left, sentry in ((1, False), (2, False), (1, True), (2, True)):
                    want = 0.0
                    for item in range(s.wp.shape[2]):
                        if s.wp[0, f, item, WP_ID] < 0:
                            continue
                        for p in range(st.wprof.shape[1]):
                            if not can_shoot_with(s, st, 0, f, item, p):
                                continue
                            if acts_left < 2 and unwieldy(st, s.wp[0, f, item, WP_ID], p):
                                continue
                            for t in range(s.fi.shape[1]):
                                if not eligible(s, st, 0, f, t, False):
                                    continue
                                v = H.shot_base(s, st, 0, f, item, p, t, aim)
                                if v > 0.0 and sentry:
                                    v += (H.pin_worth(s, st, 0, f, item, p, t)
                                          - H.STRAY * H.stray_share(s, 0, f, t))
                                want = max(want, H.cool_discount(s, st, 0, f, item, p, t, v))
                    got[acts_left, sentry] = H.best_shot(s, st, 0, f, aim, acts_left, sentry)
                    assert got[acts_left, sentry] == pytest.approx(want, abs=1e-12), (f, aim, acts_left, sentry)
                    checked += 1
                    positive += want > 0
                heavy_only += got[2, False] > got[1, False] == 0.0
                sentry_differs += got[2, True] != got[2, False]
    # shots were on, some of them only with an Unwieldy weapon (the heavy stubber and heavy bolter), and
    # the sentry's terms changed some of the best values
    assert checked > 2000 and positive > 80 and heavy_only > 0 and sentry_differs > 0


def test_the_mask_scan_finds_every_legal_index():
    rng = np.random.default_rng(0)
    for n in (1, 7, 8, 31, 33, 100, 7487):
        for density in (0.0, 0.003, 0.05, 0.5):
            row = np.ascontiguousarray(rng.random(n) < density)
            found, i = [], H.next_legal(row, 0, n)
            while i >= 0:
                found.append(i)
                i = H.next_legal(row, i + 1, n)
            assert found == np.flatnonzero(row).tolist()
            if n > 10:  # a window ends the scan where asked
                assert H.next_legal(row, 3, 9) == next((int(j) for j in np.flatnonzero(row) if 3 <= j < 9), -1)
