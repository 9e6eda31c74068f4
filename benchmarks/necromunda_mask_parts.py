"""Where the legal-action mask's time goes: compiled timings of its parts.

    python -m benchmarks.necromunda_mask_parts [--batch 256] [--decisions 40] [--reps 20] [--states FILE.npz]
    python -m benchmarks.necromunda_mask_parts --save-states FILE.npz

Plays ``--decisions`` random decisions in each of ``--batch`` games of the default scenario
(``BatchedGames.play``), or loads saved states (``--states``, see ``profile_saved``), keeps the
states awaiting a ``choose_action`` decision, and times on them (one thread, compiled,
microseconds per state):

- ``fill_mask``: the whole mask (what the engine computes after every decision);
- ``clear_count``: clearing and counting the mask row alone (part of every fill);
- ``reach``: one movement reachability of the active fighter at its largest budget
  (Move / Charge / Take Cover share it);
- ``build_masks``: the movement masks that ``reach`` builds before its search (part of ``reach``);
- ``eligibility``: one pass of ``shooting.eligible`` (LOS and cover) over every fighter;
- ``blast_points``: ``shooting.point_target_ok`` over every cell for each Blast / Smoke item;
- ``blast_points_bulk``: ``shooting.point_targets`` (what the mask calls: the same cells, its
  window in range, the per-item work done once) for each Blast / Smoke item.

These are parts, not a partition: the mask calls some of them several times. The figures are
printed with the state counts they were measured on.
"""
from __future__ import annotations

import argparse
import json
import time

import numpy as np

from necro_env._numba_cache import leaf_njit
from necro_env.rulesets.necromunda.actions import status_sa
from necro_env.rulesets.necromunda.legal import charge_allowance_max, fill_mask
from necro_env.rulesets.necromunda.movement import MODE_NORMAL, build_masks, reach
from necro_env.rulesets.necromunda.query import movement
from necro_env.rulesets.necromunda.shooting import blast_profile, eligible, point_target_ok, point_targets
from necro_env.rulesets.necromunda.state import G_ACTIVE, WP_ID


@leaf_njit
def k_fill(s, st, lay, mask, reps):
    for b in range(s.g.shape[0]):
        for _ in range(reps):
            fill_mask(s, st, b, lay, mask)


@leaf_njit
def k_clear_count(mask, reps):
    tot = 0
    for b in range(mask.shape[0]):
        for _ in range(reps):
            for i in range(mask.shape[1]):
                mask[b, i] = False
            for i in range(mask.shape[1]):
                if mask[b, i]:
                    tot += 1
    return tot


@leaf_njit
def k_reach(s, st, masks_only, reps):
    """One reachability search of the active fighter at its largest budget per state, or with
    ``masks_only`` just the movement masks it builds first."""
    h, w = st.terrain.shape
    n = h * w
    dist = np.empty(n, np.int32)
    prev = np.empty(n, np.int32)
    endable = np.empty(n, np.bool_)
    enter = np.empty(n, np.bool_)
    solid = np.empty(n, np.bool_)
    extra = np.empty(n, np.int32)
    terminal = np.empty(n, np.bool_)
    done = 0
    for b in range(s.g.shape[0]):
        f = s.g[b, G_ACTIVE]
        if not status_sa(s, b, f):
            continue
        budget = 2 * max(movement(s, b, f), charge_allowance_max(s, st, b, f))
        for _ in range(reps):
            if masks_only:
                build_masks(s, st, b, f, MODE_NORMAL, -1, enter, solid, extra, terminal, endable)
            else:
                reach(s, st, b, f, budget, MODE_NORMAL, -1, dist, prev, endable)
        done += 1
    return done


@leaf_njit
def k_eligibility(s, st, reps):
    """One eligibility pass per state; returns (states, shootable profiles summed)."""
    nf = s.fi.shape[1]
    tot = 0
    for b in range(s.g.shape[0]):
        f = s.g[b, G_ACTIVE]
        for _ in range(reps):
            for t in range(nf):
                if eligible(s, st, b, f, t, False):
                    tot += 1
    return tot


@leaf_njit
def k_blast_points(s, st, reps):
    h, w = st.terrain.shape
    n = h * w
    items = 0
    tot = 0
    for b in range(s.g.shape[0]):
        f = s.g[b, G_ACTIVE]
        for item in range(s.wp.shape[2]):
            wid = s.wp[b, f, item, WP_ID]
            if wid < 0:
                continue
            p = blast_profile(s, st, b, f, item)
            if p < 0:
                continue
            items += 1
            for _ in range(reps):
                for c in range(n):
                    if point_target_ok(s, st, b, f, wid, p, c % w, c // w):
                        tot += 1
    return items


@leaf_njit
def k_blast_points_bulk(s, st, reps):
    h, w = st.terrain.shape
    out = np.zeros(h * w, np.bool_)
    items = 0
    for b in range(s.g.shape[0]):
        f = s.g[b, G_ACTIVE]
        for item in range(s.wp.shape[2]):
            wid = s.wp[b, f, item, WP_ID]
            if wid < 0:
                continue
            p = blast_profile(s, st, b, f, item)
            if p < 0:
                continue
            items += 1
            for _ in range(reps):
                point_targets(s, st, b, f, wid, p, out, 0)
    return items


def _timed(fn, *args):
    fn(*args[:-1], 1)  # compile / load
    t0 = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - t0, out


def time_parts(s, static, layout, mask, reps):
    """Microseconds per state of each part on the batch of states ``s`` (one thread)."""
    from necro_env.rulesets.necromunda.state import DK_ACTION, G_DK, State

    idx = np.flatnonzero(s.g[:, G_DK] == DK_ACTION)
    a = State(*(x[idx].copy() for x in s))
    m = mask[idx].copy()
    k = len(idx)
    res = {"states": int(s.g.shape[0]), "action_states": k, "reps": reps}
    dt, _ = _timed(k_fill, s, static, layout, mask.copy(), reps)
    res["fill_mask_us_all_states"] = round(1e6 * dt / (reps * s.g.shape[0]), 2)
    dt, _ = _timed(k_fill, a, static, layout, m, reps)
    res["fill_mask_us"] = round(1e6 * dt / (reps * k), 2)
    dt, _ = _timed(k_clear_count, m.copy(), reps)
    res["clear_count_us"] = round(1e6 * dt / (reps * k), 2)
    dt, nr = _timed(k_reach, a, static, False, reps)
    res["reach_us"] = round(1e6 * dt / (reps * max(nr, 1)), 2)
    res["reach_states"] = int(nr)
    dt, nr = _timed(k_reach, a, static, True, reps)
    res["build_masks_us"] = round(1e6 * dt / (reps * max(nr, 1)), 2)
    dt, _ = _timed(k_eligibility, a, static, reps)
    res["eligibility_pass_us"] = round(1e6 * dt / (reps * k), 2)
    dt, items = _timed(k_blast_points, a, static, reps)
    res["blast_points_us_per_item"] = round(1e6 * dt / (reps * max(items, 1)), 2)
    dt, items = _timed(k_blast_points_bulk, a, static, reps)
    res["blast_points_bulk_us_per_item"] = round(1e6 * dt / (reps * max(items, 1)), 2)
    res["blast_items_per_state"] = round(items / k, 2)
    return res


def profile_mask_parts(batch=256, decisions_per_game=40, reps=20):
    """The parts on the states reached by random play in the default scenario (``BatchedGames``)."""
    import numba

    from necro_env.batch import BatchedGames
    from necro_env.envs.necromunda_env import build_game

    numba.set_num_threads(1)
    core = BatchedGames(build_game(), batch, seed=0).reset()
    core.play(1)
    core.play(decisions_per_game)
    res = time_parts(core.state, core.static, core.layout, core.mask, reps)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return res


# the configurations of a saved states file (see ``profile_saved``)
CONFIGS = ((None, None, None), ("boards/zm_hall.yaml", 3, None), ("boards/zm_cross.yaml", 4, None),
           (None, None, "house_legacy"))


def save_states(path, per_config=120, every=3, max_decisions=300):
    """Save states for ``profile_saved``: random legal play (numpy Generator seeded with the game
    number) in each configuration of CONFIGS, keeping every ``every``-th state of the first
    ``max_decisions`` decisions of each game, with its mask, until ``per_config`` are kept.
    The figures in docs/performance.md used the states saved by this function under
    ``NUMBA_DISABLE_JIT=1`` (plain Python) with the code before the change."""
    from necro_env.envs.necromunda_env import build_game
    from necro_env.rulesets.necromunda.state import clone_state

    out = {}
    for k, (board, ng, variant) in enumerate(CONFIGS):
        game = build_game(board=board, num_gangs=ng, variant=variant)
        states, masks = [], []
        seed = 0
        while len(states) < per_config:
            game.reset(1000 * k + seed)
            rng = np.random.default_rng(seed)
            seed += 1
            for i in range(max_decisions):
                if game.done or len(states) >= per_config:
                    break
                if i % every == 0:
                    states.append(clone_state(game.state))
                    masks.append(game.mask.copy())
                try:
                    game.step(int(rng.choice(game.legal_actions())))
                except OverflowError:  # int16 arithmetic of plain-Python mode only: next game
                    break
        for name in states[0]._fields:
            out[f"{k}_{name}"] = np.concatenate([getattr(x, name) for x in states])
        out[f"{k}_mask"] = np.concatenate(masks)
    np.savez_compressed(path, **out)


def profile_saved(path, reps=20):
    """The parts on saved states: ``path`` (.npz) holds, for each configuration k of CONFIGS
    (board, number of gangs, variant of ``build_game``), the State arrays ``{k}_{field}`` and the
    masks ``{k}_mask`` the engine gave them. Also counts the states whose recomputed mask differs
    from the saved one (0 when the mask is unchanged)."""
    import numba

    from necro_env.envs.necromunda_env import build_game
    from necro_env.rulesets.necromunda.state import State

    numba.set_num_threads(1)
    data = np.load(path)
    out = {}
    for k, (board, ng, variant) in enumerate(CONFIGS):
        if f"{k}_mask" not in data:
            continue
        game = build_game(board=board, num_gangs=ng, variant=variant)
        s = State(*(data[f"{k}_{name}"] for name in State._fields))
        saved = data[f"{k}_mask"]
        m = np.zeros_like(saved)
        k_fill(s, game.static, game.layout, m, 1)
        res = time_parts(s, game.static, game.layout, saved, reps)
        res["mismatching_masks"] = int((m != saved).any(axis=1).sum())
        out[f"{board or 'default'} gangs={ng or 2} {variant or 'core'}"] = res
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--decisions", type=int, default=40)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--states", default=None, help="time on saved states (.npz, see profile_saved) instead")
    ap.add_argument("--save-states", default=None, help="only save states for --states to this .npz")
    args = ap.parse_args(argv)
    if args.save_states:
        save_states(args.save_states)
        return None
    if args.states:
        res = profile_saved(args.states, args.reps)
    else:
        res = profile_mask_parts(args.batch, args.decisions, args.reps)
    print(json.dumps(res, indent=1))
    return res


if __name__ == "__main__":
    main()
