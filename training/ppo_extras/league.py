"""Self-play (``--opponent self``): when the learner is frozen into the pool, and how the snapshots are
saved and rated.

The first snapshot, snap_0, is the network PPO starts from (after the warm start, if any); every
``--self-play-every`` updates the learner is frozen into a new snapshot, snap_<learner steps>. The pool
(training/ppo_extras/snapshot_pool.py) keeps the ``--pool-size`` newest snapshots plus snap_0 (1, the
default: the newest only). Each game draws its opponent at every episode start, never mid-game: with
probability ``--heuristic-prob`` a compiled heuristic (gunline or aggressor, equally; an anchor against
forgetting), else the newest snapshot with probability ``--latest-prob``, else one uniformly from the
pool; snapshots play sampled actions. With ``--run-dir DIR`` every snapshot is saved as
DIR/pool/snap_<steps>.pt (``--save``'s format: ``necro-eval`` plays them). With ``--rating-pairs N``
each new snapshot, before it joins the pool, plays N paired games per side (greedy, both sides, seeds
200,000 + its steps, inside the batch) against the random agent (and the other compiled
``--rating-anchors``: ``random,gunline,aggressor`` rates the heuristics on the same scale, fixed points
the snapshots' curve can be read against) and every snapshot in the pool; a Bradley-Terry fit over all
such games (random = 0, necro-selfplay's files: DIR/rating_games.csv, ratings.csv, rating_curve.csv and
rating_curve.png) rates every snapshot, and the curve is printed after each. ``--rating-sampled``: the
networks of the rating games sample their actions, as they do in training (greedy policies of one run
tend to draw every mirror game). ``--rate-run DIR`` trains nothing: it plays the full round robin of
DIR's saved snapshots and the anchors (``--rating-pairs`` per side and match) into DIR/round_robin (or
round_robin_sampled), e.g. to rate a finished or stopped run's pool another way.
"""
from __future__ import annotations

import time
from pathlib import Path

from agents.checkpoint import CheckpointMismatch
from agents.fast_network import load_network, save_network
from necro_env.config.agent_spec import listed
from necro_env.config.training import BUILTIN_OPPONENTS
from training.ppo_extras.evaluation import batched_eval
from training.ppo_extras.snapshot_pool import SnapshotPool


def check_args(args) -> None:
    """Refuse the self-play flags without ``--opponent self`` (or ``--rate-run``) and out of range;
    ``args.rating_anchors`` becomes a tuple of names."""
    for name in args.rating_anchors.split(","):
        if name not in BUILTIN_OPPONENTS:
            raise SystemExit(f"--rating-anchors must be {listed(BUILTIN_OPPONENTS)} (or a comma-separated list), "
                             f"got {name!r}")
    if "random" not in args.rating_anchors.split(","):
        raise SystemExit(f"--rating-anchors must include random (the rating scale's 0), got {args.rating_anchors!r}")
    args.rating_anchors = tuple(args.rating_anchors.split(","))
    if args.rate_run and not args.rating_pairs:
        raise SystemExit("--rate-run plays --rating-pairs paired games per side and match: give --rating-pairs N")
    if args.opponent != "self" and not args.rate_run and (args.pool_size != 1 or args.rating_pairs
                                                          or args.heuristic_prob):
        raise SystemExit("--pool-size, --heuristic-prob and --rating-pairs are for self-play (--opponent self)")
    if args.pool_size < 1 or not 0.0 <= args.latest_prob <= 1.0 or not 0.0 <= args.heuristic_prob <= 1.0 \
            or args.rating_pairs < 0:
        raise SystemExit(f"--pool-size must be >= 1, --latest-prob and --heuristic-prob in [0, 1] and "
                         f"--rating-pairs >= 0, got {args.pool_size}, {args.latest_prob}, {args.heuristic_prob}, "
                         f"{args.rating_pairs}")
    if args.rating_pairs and not (args.run_dir or args.rate_run):
        raise SystemExit("--rating-pairs writes the snapshots and the rating curve to a folder: give --run-dir")


def make_pool(args):
    """The opponent pool of ``--opponent self``, seeded by ``--seed``; None for any other opponent."""
    if args.opponent != "self":
        return None
    return SnapshotPool(args.num_envs, args.pool_size, args.latest_prob, args.seed, heuristic_prob=args.heuristic_prob)


class SelfPlay:
    """Freezes the learner into ``pool`` (the module docstring says when), saved into ``--run-dir``'s
    pool/ and rated if asked; the ratings are logged into ``history``."""

    def __init__(self, pool, args, game, history):
        self.pool, self.args, self.game, self.history = pool, args, game, history
        self.run_dir = Path(args.run_dir) if args.run_dir else None
        self.snapshots = []  # (name, learner steps) of every snapshot, for the rating curve

    def start(self, agent):
        """snap_0, the network PPO starts from; the pool's "init" (the opponent while demonstrations were
        recorded) leaves, and a new run's rating fit starts afresh."""
        self.pool.members.clear()
        if self.run_dir is not None and self.args.rating_pairs:
            (self.run_dir / "rating_games.csv").unlink(missing_ok=True)
        self.snapshot(agent, 0)

    def due(self, update):
        return update % self.args.self_play_every == 0

    def snapshot(self, agent, steps):
        """Freeze the learner into the pool as snap_<steps>, saved and rated if asked."""
        args, name = self.args, f"snap_{steps}"
        if self.run_dir is not None:
            (self.run_dir / "pool").mkdir(parents=True, exist_ok=True)
            save_network(agent, self.run_dir / "pool" / f"{name}.pt", self.game, args)
        if args.rating_pairs:
            t0 = time.perf_counter()
            rate_snapshot(agent, name, self.pool.members, self.game, args.rating_pairs, self.run_dir,
                          200_000 + steps, args.rating_anchors, args.rating_sampled)
        self.pool.add(name, agent)
        self.snapshots.append((name, steps))
        if args.rating_pairs:
            self._log_ratings(name, steps, t0)

    def _log_ratings(self, name, steps, t0):
        from training.selfplay import write_rating_curve

        anchors = self.args.rating_anchors
        ratings = write_rating_curve(self.run_dir, self.snapshots, anchors)
        curve = {n: round(ratings[n], 1) for n, _ in self.snapshots}
        curve.update({a: round(ratings[a], 1) for a in anchors if a != "random"})
        self.history.append({"snapshot": name, "steps": steps, "ratings": curve})
        print(f"self-play ratings after {name} (Bradley-Terry, random = 0; rated in "
              f"{time.perf_counter() - t0:.0f} s): " + ", ".join(f"{n} {v:+.0f}" for n, v in curve.items()),
              flush=True)


def rate_run_command(args):
    """``--rate-run DIR``: ``rate_run`` on the scenario's game; a missing, damaged or other game's
    snapshot is one line, no traceback."""
    from necro_env.envs.necromunda_env import build_game

    try:
        return rate_run(args.rate_run, build_game(scenario=args.scenario), args.rating_pairs,
                        args.rating_anchors, args.rating_sampled)
    except CheckpointMismatch as exc:
        raise SystemExit(str(exc)) from None


def rate_snapshot(net, name, members, game, pairs, run_dir, seed0, anchors=("random",), sampled=False):
    """``pairs`` paired games per side (``batched_eval``: greedy, or ``sampled``, inside the batch) of
    snapshot ``name`` against the compiled ``anchors`` and every ``members`` (name, network) of the
    pool; rows appended to run_dir/rating_games.csv in necro-selfplay's format."""
    from training.selfplay import record_rating_game

    for opp_name, opp in [(a, a) for a in anchors] + list(members):
        m = batched_eval(net, game, opp, pairs, seed0, name=opp_name, sampled=sampled)
        record_rating_game(run_dir, name, opp_name, m)
        print(f"rating {name} vs {opp_name}: {m['win']}-{m['draw']}-{m['loss']}", flush=True)


def rate_run(run_dir, game, pairs, anchors=("random",), sampled=False):
    """``--rate-run DIR``: a full round robin of a self-play run's saved snapshots (DIR/pool/snap_*.pt)
    and the compiled ``anchors``, ``pairs`` paired games per side and match (seeds 300,000 + the
    snapshot's steps; ``sampled``: the networks sample their actions), rated like the run's curve
    (necro-selfplay's files) into DIR/round_robin (DIR/round_robin_sampled). Returns the ratings."""
    from training.selfplay import write_rating_curve

    run_dir = Path(run_dir)
    files = sorted((run_dir / "pool").glob("snap_*.pt"), key=lambda f: int(f.stem.split("_")[1]))
    if not files:
        raise SystemExit(f"--rate-run {run_dir}: no snapshots in {run_dir / 'pool'} (snap_<steps>.pt)")
    out = run_dir / ("round_robin_sampled" if sampled else "round_robin")
    out.mkdir(exist_ok=True)
    (out / "rating_games.csv").unlink(missing_ok=True)
    done, snapshots = [], []
    for f in files:
        net, steps = load_network(f, game).net, int(f.stem.split("_")[1])
        rate_snapshot(net, f.stem, done, game, pairs, out, 300_000 + steps, anchors, sampled)
        done.append((f.stem, net))
        snapshots.append((f.stem, steps))
    ratings = write_rating_curve(out, snapshots, anchors, title=f"self-play rating curve: {run_dir.name} (round "
                                                                f"robin, {'sampled' if sampled else 'greedy'} play)")
    print(f"round robin of {len(files)} snapshots ({'sampled' if sampled else 'greedy'} play), Bradley-Terry, "
          f"random = 0: " + ", ".join(f"{n} {ratings[n]:+.0f}" for n in [s for s, _ in snapshots] +
                                     [a for a in anchors if a != 'random']), flush=True)
    return ratings
