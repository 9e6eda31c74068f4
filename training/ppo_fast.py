"""Fast masked PPO on the batched vector env, in one readable file (CleanRL style).

    python -m training.ppo_fast [--config file.yaml] [--num-envs 256] [--total-steps 1000000] ...

The learner plays one gang (drawn per episode; ``--learner g``: always gang g, e.g. to train the weak
side of an uneven scenario) of ``BatchedEnv`` games (no SB3 needed); the other gangs
are played inside the compiled batch by ``--opponent`` (a compiled policy of
``necro_env.config.agent_spec.POLICY_NAMES``, or in the config file a mix ``{random: 1, gunline: 1}``
drawn per episode) or, with ``--opponent self``, by frozen snapshots of the learner
(``SnapshotPool``), evaluated in one batched
torch call per snapshot and step. Illegal actions are masked out of
the policy's logits. Every update prints environment steps per second (the learner's steps
over all games), the time split between the environment and the network, and the finished games'
mean return. A YAML file given with ``--config`` sets defaults for any flag (keys use
underscores: ``num_envs: 512``; ``extends: base.yaml`` varies another file, necro_env/config/extends.py);
flags on the command line win. ``reward:`` (config file only)
takes the reward options of ``necro_env.envs.rewards.RewardSpec`` (draw penalty, casualty and
approach shaping), paid inside the compiled batch. ``--eval-pairs N`` ends the run with the
paired evaluation of ``necro-eval`` (training/evaluate.py: N seeds x both sides, the greedy
policy against ``--eval-opponent``), so its win rate compares with the SB3 runs'.
``--eval-every U`` also plays, every U updates (and once before the first), ``--eval-games``
paired games per side against each ``--eval-opponent`` inside the batch (``batched_eval``:
the greedy policy, one torch call per step, seeds 20,000+, apart from the final evaluation's),
and prints them with each side's share (W-D-L as gang 0 / as gang 1); with ``--keep-best`` the
run ends with (saves and finally evaluates) the policy of the best periodic score (mean over the
opponents of (wins + draws / 2) / games; a tie goes to the later policy); with ``--keep-margin Z``
(default 0) a later policy replaces the kept one only when its mean per-game score on the same
periodic games beats the kept one's by more than Z standard errors of the paired difference
(training/evaluate.py ``replaces_kept``, the rule of necro-train's ``eval.keep_margin``).

Warm start and anchor: with ``--bc-decisions N`` the run first records N learner decisions of a
compiled heuristic (``--bc-demonstrator``, default gunline, or a list ``gunline,aggressor`` that
shares the games between them, or ``sides:gunline,aggressor``: gang g's decisions by the g-th;
with ``--bc-winners-only`` only the games the demonstrator won count) playing the learner's side
of the same batched games (its choices drawn by ``BatchedGames.sample``, so the demonstrations
cost compiled time only), clones them into the network (``--bc-epochs`` of masked cross-entropy;
``--bc-kind-weight P`` weighs each decision by its kind's count to the power -P, so that rare kinds
such as Take Cover are not drowned by moves and selections),
and keeps a frozen copy of the cloned network. ``--kl-coef`` then adds kl_coef x KL(cloned ||
current) over the legal actions of each PPO minibatch, so PPO improves on the demonstrator instead
of drifting away from it.
``--bc-dagger R`` adds R rounds of DAgger after the first cloning: the greedy cloned network plays
``--bc-decisions`` more learner decisions of the same games, each labelled with the action the
demonstrator would take in that state, and the network is cloned again (``--bc-epochs``) on all
decisions so far, so that it learns what to do in the states its own mistakes lead to.
``--mask-features`` also feeds the legal-action mask to the network, laid out like the
observation (``MaskView``: per fighter row the legal target actions on it, per cell the legal
cell actions, and the other kinds' bits). ``--bc-report`` prints the cloned network's accuracy
by decision kind on held-out demonstrations (a fifth as many as ``--bc-decisions``, other seeds)
after the warm start. ``--tactical-features`` appends to each fighter row
who can target whom (``necro_env.batch.tactical``: eligible from the activated fighter and in
what cover, and how many enemies the fighter can target and be targeted by).
``--tactical-planes`` appends board planes of what the gunline picks its cells by (path distance to
the enemy; on the cells the activated fighter can move to, how many enemies could see it there,
how many it could target and its best cover). ``--init PATH`` starts from a network saved by
``--save`` (same network flags) instead of a warm start, e.g. to continue a run; ``--kl-coef``
then anchors to it. A ``--save`` file holds the weights with the network flags and the env
metadata (``save_network``), so ``necro-eval`` plays it like a checkpoint (``load_network``).
``--pointer-head`` replaces the linear policy head by a factored one (``agents.pointer_head``:
each fighter row and each board cell scored by a network shared across rows and cells).
``--vf-warmup U``: the first U updates train the value head alone (its last linear layer, Adam at 1e-3, on the
rollouts of the unchanged policy) before PPO changes the policy; a cloned network's value head is
untrained, so PPO's first advantages would be measured against a random baseline.

Self-play (``--opponent self``): the first snapshot, snap_0, is the network PPO starts from
(after the warm start, if any); every ``--self-play-every`` updates the learner is frozen into a
new snapshot, snap_<learner steps>. The pool keeps the ``--pool-size`` newest snapshots plus
snap_0 (1, the default: the newest only). Each game draws its opponent at every episode start,
never mid-game: with probability ``--heuristic-prob`` a compiled heuristic (gunline or aggressor,
equally; an anchor against forgetting), else the newest snapshot with probability
``--latest-prob``, else one uniformly from the pool; snapshots play sampled actions. With
``--run-dir DIR`` every snapshot is saved as DIR/pool/snap_<steps>.pt (``--save``'s format:
``necro-eval`` plays them). With
``--rating-pairs N`` each new snapshot, before it joins the pool, plays N paired games per side
(greedy, both sides, seeds 200,000 + its steps, inside the batch) against the random agent (and the
other compiled ``--rating-anchors``: ``random,gunline,aggressor`` rates the heuristics on the same
scale, fixed points the snapshots' curve can be read against) and every snapshot in the pool;
a Bradley-Terry fit over all such games (random = 0, necro-selfplay's
files: DIR/rating_games.csv, ratings.csv, rating_curve.csv and rating_curve.png) rates every
snapshot, and the curve is printed after each. ``--rating-sampled``: the networks of the rating
games sample their actions, as they do in training (greedy policies of one run tend to draw
every mirror game). ``--rate-run DIR`` trains nothing: it plays the full round robin of DIR's
saved snapshots and the anchors (``--rating-pairs`` per side and match) into DIR/round_robin
(or round_robin_sampled), e.g. to rate a finished or stopped run's pool another way.
"""
from __future__ import annotations

import copy
import json
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

from agents.base import side_specs
from agents.checkpoint import CheckpointMismatch
from agents.fast_network import (
    FastNetwork, GreedyAgent, MaskView, load_init, load_network, observation_space, save_network,
)
from necro_env.config.agent_spec import listed
from necro_env.config.training import BUILTIN_OPPONENTS
from necro_env.envs.batched_env import BatchedEnv, opponent_mix
from necro_env.warmup import ensure as warm_up
from training.common import Parser, UsageError, at_least, input_path, run_cli

DEFAULTS = dict(
    scenario=None, num_envs=256, num_steps=32, total_steps=1_000_000, learning_rate=2.5e-4, gamma=0.99,
    gae_lambda=0.95, num_minibatches=4, update_epochs=4, clip_coef=0.2, ent_coef=0.01, vf_coef=0.5,
    max_grad_norm=0.5, hidden=256, seed=0, opponent="random", self_play_every=10, pool_size=1, latest_prob=0.5,
    heuristic_prob=0.0, rating_pairs=0, rating_anchors="random", rating_sampled=False, rate_run=None, run_dir=None,
    threads=2, torch_threads=2,
    save=None, log_json=False, reward=None, eval_pairs=0, eval_opponent="random",
    bc_decisions=0, bc_demonstrator="gunline", bc_epochs=4, bc_learning_rate=1e-3, kl_coef=0.0,
    eval_every=0, eval_games=32, keep_best=False, keep_margin=0.0, bc_winners_only=False, bc_dagger=0,
    mask_features=False, tactical_features=False, bc_report=False, pointer_head=False, tactical_planes=False,
    init=None, learner="random", bc_kind_weight=0.0, vf_warmup=0,
)
CONFIG_ONLY = ("reward",)  # set in the --config file, not on the command line


def parse_args(argv=None):
    pre = Parser(prog="training.ppo_fast", add_help=False)
    pre.add_argument("--config", default=None)
    known, _ = pre.parse_known_args(argv)
    defaults = dict(DEFAULTS)
    if known.config:
        from necro_env.config.errors import ConfigError
        from necro_env.config.extends import read_with_extends

        try:  # found from any folder as necro-train finds its --config (training.common.input_path)
            data = read_with_extends(Path(input_path("--config", known.config)))  # may vary another (extends:)
        except ConfigError as exc:
            raise SystemExit(str(exc)) from None
        unknown = sorted(set(data) - set(DEFAULTS))
        if unknown:
            raise SystemExit(f"{known.config}: unknown keys {unknown}; allowed: {sorted(DEFAULTS)}")
        defaults.update(data)
    ap = Parser(prog="training.ppo_fast", description=__doc__.splitlines()[0], parents=[pre])
    for k, v in defaults.items():
        if k in CONFIG_ONLY:
            continue
        flag = "--" + k.replace("_", "-")
        if isinstance(DEFAULTS[k], bool):
            ap.add_argument(flag, action="store_true", default=v)
        elif DEFAULTS[k] is None:
            ap.add_argument(flag, default=v)
        else:
            ap.add_argument(flag, type=type(DEFAULTS[k]), default=v)
    args = ap.parse_args(argv)
    for k in CONFIG_ONLY:
        setattr(args, k, defaults[k])
    check_numbers_and_outputs(args)
    if isinstance(args.opponent, dict):  # a mix {name: weight} from the config file, drawn per episode
        try:
            opponent_mix(args.opponent)
        except ValueError as e:
            raise SystemExit(f"opponent: {e}") from None
    elif args.opponent not in BUILTIN_OPPONENTS + ("self",):
        raise SystemExit(f"--opponent must be {listed(BUILTIN_OPPONENTS + ('self',))} (or, in the config file, a "
                         f"mix {{name: weight}} of {listed(BUILTIN_OPPONENTS, 'and')}), got {args.opponent!r}")
    for flag, value in (("--eval-opponent", args.eval_opponent), ("--rating-anchors", args.rating_anchors)):
        for name in value.split(","):
            if name not in BUILTIN_OPPONENTS:
                raise SystemExit(f"{flag} must be {listed(BUILTIN_OPPONENTS)} (or a comma-separated list), "
                                 f"got {name!r}")
    if "random" not in args.rating_anchors.split(","):
        raise SystemExit(f"--rating-anchors must include random (the rating scale's 0), got {args.rating_anchors!r}")
    args.rating_anchors = tuple(args.rating_anchors.split(","))
    if args.bc_winners_only and args.opponent == "self":
        raise SystemExit("--bc-winners-only records against the compiled opponents, not --opponent self")
    if args.bc_dagger < 0 or (args.bc_dagger and not args.bc_decisions):
        raise SystemExit(f"--bc-dagger must be >= 0 and needs a warm start (--bc-decisions N), got {args.bc_dagger}")
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
    if args.learner != "random":
        try:
            args.learner = int(args.learner)
        except ValueError:
            raise SystemExit(f"--learner must be random or a gang index (0, 1, ...), got {args.learner!r}") from None
        if args.learner < 0:
            raise SystemExit(f"--learner must be random or a gang index (0, 1, ...), got {args.learner}")
    if args.keep_margin < 0:
        raise SystemExit(f"--keep-margin must be >= 0 (standard errors of the paired difference), got {args.keep_margin}")
    if args.keep_best and not args.eval_every:
        raise SystemExit("--keep-best keeps the best policy of the periodic evaluations: give --eval-every U")
    if args.keep_margin and not args.keep_best:
        raise SystemExit(f"--keep-margin {args.keep_margin} is keep-best's margin: give --keep-best (and --eval-every U)")
    if not 0.0 <= args.bc_kind_weight <= 1.0:
        raise SystemExit(f"--bc-kind-weight must be in [0, 1] (the power of a kind's count), got {args.bc_kind_weight}")
    if args.init and args.bc_decisions:
        raise SystemExit("--init starts from a saved network; it does not combine with a warm start (--bc-decisions)")
    if args.bc_dagger and args.bc_winners_only:
        raise SystemExit("--bc-dagger labels every state the network visits; it does not combine with "
                         "--bc-winners-only")
    try:
        names = side_specs(args.bc_demonstrator) or args.bc_demonstrator.split(",")
    except ValueError as exc:
        raise SystemExit(f"--bc-demonstrator: {exc}") from None
    for name in names:
        if name not in BUILTIN_OPPONENTS:
            raise SystemExit(f"--bc-demonstrator must be {listed(BUILTIN_OPPONENTS)} (or a list: a,b by slot, "
                             f"sides:a,b by side), got {name!r}")
    return args


# (flag, least value): the sizes and counts a run needs at least that much of; a run given less
# used to start anyway (--total-steps -5 trained one update) or fail naming another flag
AT_LEAST = (("num_envs", 1), ("num_steps", 1), ("total_steps", 1), ("num_minibatches", 1), ("update_epochs", 1),
            ("hidden", 1), ("threads", 1), ("torch_threads", 1), ("self_play_every", 1), ("eval_pairs", 0),
            ("eval_games", 1), ("eval_every", 0), ("bc_decisions", 0), ("bc_epochs", 1), ("vf_warmup", 0))


def check_numbers_and_outputs(args) -> None:
    """Before any work: the counts of AT_LEAST, a positive learning rate, the scenario file, and the
    outputs (``--save`` a file in an existing folder, ``--run-dir`` a folder), so that a run is not
    refused after it trained (UsageError; a bad scenario file: its ConfigError)."""
    for name, least in AT_LEAST:
        at_least("--" + name.replace("_", "-"), getattr(args, name), least)
    for name in ("learning_rate", "bc_learning_rate"):  # (0 keeps the weights: the tests use it)
        if not getattr(args, name) >= 0:
            raise UsageError(f"--{name.replace('_', '-')} {getattr(args, name)}: expected a number >= 0")
    if args.scenario is not None:
        from necro_env.config.loader import load_scenario

        load_scenario(args.scenario)
    check_save(args)
    if args.run_dir is not None and Path(args.run_dir).exists() and not Path(args.run_dir).is_dir():
        raise UsageError(f"--run-dir {args.run_dir} is a file: expected a folder (made if missing)")


def check_save(args) -> None:
    """``--save`` names a file in a folder that exists, or in the --run-dir a self-play run makes
    (configs/ppo_fast/selfplay_hall.yaml), so the network trained is not lost to a bad path at the end."""
    if args.save is None:
        return
    save = Path(args.save)
    made = (args.run_dir is not None and args.opponent == "self"
            and save.parent.resolve() == Path(args.run_dir).resolve())
    if save.is_dir() or not (save.parent.is_dir() or made):
        what = "is a folder" if save.is_dir() else f"is in a folder that does not exist ({save.parent})"
        raise UsageError(f"--save {args.save} {what}: expected a file path (.pt) in an existing folder")


class TacticalEnv:
    """A ``BatchedEnv`` whose observations also carry, seen from the learner's side, ``tactical``
    ([B, NF, N_TACTICAL] rows of ``necro_env.batch.tactical``) for ``--tactical-features`` and
    ``tactical_planes`` ([B, N_PLANES, H, W]) for ``--tactical-planes``."""

    def __init__(self, env, rows=True, planes=False):
        self.env, self.rows, self.planes = env, rows, planes
        self.observation_space = observation_space(env.game, rows, planes)

    def __getattr__(self, name):
        return getattr(self.env, name)

    def _add(self, obs):
        from necro_env.batch.tactical import tactical_features, tactical_planes

        obs = dict(obs)
        if self.rows:
            obs["tactical"] = tactical_features(self.env.core, self.env.side)
        if self.planes:
            obs["tactical_planes"] = tactical_planes(self.env.core, self.env.side, self.env.action_masks())
        return obs

    def reset(self, seed=None):
        return self._add(self.env.reset(seed))

    def step(self, actions):
        obs, rewards, dones, infos = self.env.step(actions)
        return self._add(obs), rewards, dones, infos


class SnapshotPool:
    """The self-play opponent of ``--opponent self`` (module docstring): frozen copies of the
    learner, one drawn for each game at every episode start (``BatchedEnv``'s per-game opponent)
    from the pool's own generator; the games waiting on the opponent are played by their
    snapshots, one batched torch call per snapshot, with sampled actions (``greedy``: the most
    likely ones). Snapshots with tactical inputs get them for the deciding gang from ``core``
    (the env's ``BatchedGames``, set by ``make_env``)."""

    HEURISTICS = ("gunline", "aggressor")

    def __init__(self, num_envs, size=1, latest_prob=0.5, seed=0, greedy=False, heuristic_prob=0.0):
        from necro_env.core.rng import seed_game

        self.size, self.latest_prob, self.greedy = max(1, size), latest_prob, greedy
        self.heuristic_prob = heuristic_prob
        self.rng = np.random.default_rng([seed, 4242])
        self.prng = np.zeros((num_envs, 2), np.uint64)  # the compiled heuristics' dice, apart from the env's
        for b in range(num_envs):
            seed_game(self.prng, b, np.uint64(seed * 1000 + 4243 + b))
        self.members = []  # (name, frozen network), the first one kept while the newest replace the others
        self.slot = [None] * num_envs  # each game's opponent in its running episode: a network or a heuristic's name
        self.core = None

    def add(self, name, agent):
        self.members.append((name, copy.deepcopy(agent).eval()))
        while len(self.members) > self.size:
            del self.members[1]

    def names(self):
        return [n for n, _ in self.members]

    def start_episodes(self, games):
        if not self.members:
            raise RuntimeError("the self-play pool is empty: add a snapshot before resetting the env")
        for b in games:
            if self.heuristic_prob and self.rng.random() < self.heuristic_prob:
                self.slot[b] = self.HEURISTICS[int(self.rng.integers(len(self.HEURISTICS)))]
                continue
            latest = self.rng.random() < self.latest_prob
            self.slot[b] = self.members[-1 if latest else int(self.rng.integers(len(self.members)))][1]

    def __call__(self, obs, mask, games):
        players = [self.slot[b] for b in games]
        acts = np.empty(len(games), np.int64)
        for name in self.HEURISTICS:  # compiled choices in the games where that heuristic plays
            sel = np.array([i for i, p in enumerate(players) if isinstance(p, str) and p == name], np.int64)
            if len(sel):
                acts[sel] = self.core.sample(name, self.prng, games=np.asarray(games)[sel])
        unique = list({id(p): p for p in players if not isinstance(p, str)}.values())  # in order of appearance
        obs = self._tactical(dict(obs), games, any(n.tactical for n in unique), any(n.tactical_planes for n in unique))
        for net in unique:
            sel = np.array([i for i, p in enumerate(players) if p is net])
            o, m = {k: torch.from_numpy(v[sel]) for k, v in obs.items()}, torch.from_numpy(mask[sel])
            with torch.no_grad():
                a = net.masked_logits(o, m).argmax(1) if self.greedy else net.act(o, m)[0]
            acts[sel] = a.numpy()
        return acts

    def _tactical(self, obs, games, rows, planes):
        """``obs`` of the waiting ``games`` with the tactical rows and / or planes of their deciding gangs."""
        if not (rows or planes):
            return obs
        from necro_env.batch.tactical import tactical_features, tactical_planes
        from necro_env.rulesets.necromunda.state import G_DGANG

        if self.core is None:
            raise RuntimeError("a snapshot with tactical inputs needs the env's core: build the env with make_env")
        gangs = self.core.state.g[:, G_DGANG].astype(np.int64)
        if rows:
            obs["tactical"] = tactical_features(self.core, gangs, games)
        if planes:  # the waiting games' mask rows are their deciding gang's legal actions
            obs["tactical_planes"] = tactical_planes(self.core, gangs, self.core.mask, games)
        return obs


def rate_snapshot(net, name, members, game, pairs, run_dir, seed0, anchors=("random",), sampled=False):
    """``pairs`` paired games per side (``batched_eval``: greedy, or ``sampled``, inside the batch) of
    snapshot ``name`` against the compiled ``anchors`` and every ``members`` (name, network) of the
    pool; rows appended to run_dir/rating_games.csv in necro-selfplay's format."""
    from training.selfplay import record_rating_game

    for opp_name, opp in [(a, a) for a in anchors] + list(members):
        m = batched_eval(net, game, opp, pairs, seed0, name=opp_name, sampled=sampled)
        record_rating_game(run_dir, name, opp_name, m)
        print(f"rating {name} vs {opp_name}: {m['win']}-{m['draw']}-{m['loss']}", flush=True)


def make_env(num_envs, tactical=False, planes=False, **kwargs):
    env = BatchedEnv(num_envs, **kwargs)
    if isinstance(kwargs.get("opponent"), SnapshotPool):
        kwargs["opponent"].core = env.core
    return TacticalEnv(env, tactical, planes) if tactical or planes else env


def to_torch(obs):
    return {k: torch.from_numpy(v) for k, v in obs.items()}


def collect_demonstrations(env, demonstrator, n_decisions, seed, winners_only=False, player=None):
    """``n_decisions`` (observation, mask, action) of ``demonstrator`` playing the learner's side
    of ``env``'s games (compiled choices from its own generators); the env is reset after.
    ``demonstrator`` may be a comma-separated list: game slot b is played by the (b mod k)-th;
    or ``sides:`` and a name per gang: the learner's gang g is played by the g-th (as
    ``agents.base.make_agent``'s side agent).
    With ``winners_only`` only the decisions of games the demonstrator won are kept (``env``
    must pay plain rewards, so that a positive final reward is a win), and recording goes on
    until there are ``n_decisions`` of them (at most 50 x as many steps as without).
    With ``player`` (a function (obs, mask) -> actions) the games are played by it instead and
    the demonstrator only labels the states it reaches (DAgger)."""
    from necro_env.batch import policy_id
    from necro_env.core.rng import seed_game
    from necro_env.envs.rewards import RewardSpec

    names = side_specs(demonstrator)
    by_side = names is not None
    names = names if by_side else demonstrator.split(",")
    if by_side and len(names) != env.n_gangs:
        raise ValueError(f"demonstrator {demonstrator!r} names {len(names)} gangs, the game has {env.n_gangs}")
    if winners_only and env.reward_spec != RewardSpec():
        raise ValueError("winners_only needs an env with plain rewards (reward=None)")
    n = env.num_envs
    prng = np.zeros((n, 2), np.uint64)
    for b in range(n):
        seed_game(prng, b, np.uint64(seed * 1000 + 777 + b))
    slot_of = np.arange(n) % len(names)  # slot b is played by names[b mod k]
    obs, masks, acts, keep = [], [], [], []
    episode = [[] for _ in range(n)]  # the steps of each slot's running game
    kept = 0
    o = env.reset()
    steps = max(1, n_decisions // n)
    for step in range(steps * (50 if winners_only else 1)):
        if winners_only and kept >= n_decisions:
            break
        a = np.full(n, -1, np.int64)
        owner = env.side if by_side else slot_of  # the index into names of each slot's demonstrator
        for name in sorted(set(names), key=policy_id):  # each policy draws once per step, in id order
            pick = np.isin(owner, [i for i, x in enumerate(names) if x == name])
            a[pick] = env.core.sample(name, prng)[pick]
        m = env.action_masks()
        obs.append(o)
        masks.append(m)
        acts.append(a.copy())
        keep.append(np.zeros(n, np.bool_) if winners_only else np.ones(n, np.bool_))
        o, r, d, _ = env.step(a if player is None else player(o, m))
        if winners_only:
            for b in range(n):
                episode[b].append(step)
                if d[b]:
                    if r[b] > 0:
                        for t in episode[b]:
                            keep[t][b] = True
                        kept += len(episode[b])
                    episode[b] = []
    env.reset()
    sel = [np.flatnonzero(k) for k in keep]
    cat = {key: torch.from_numpy(np.concatenate([x[key][i] for x, i in zip(obs, sel)])) for key in obs[0]}
    return (cat, torch.from_numpy(np.concatenate([m[i] for m, i in zip(masks, sel)])),
            torch.from_numpy(np.concatenate([x[i] for x, i in zip(acts, sel)])))


def greedy_player(agent):
    """(obs, mask) -> the agent's most likely legal actions, as numpy (for ``collect_demonstrations``)."""
    def play(obs, mask):
        with torch.no_grad():
            return agent.masked_logits(to_torch(obs), torch.from_numpy(mask)).argmax(1).numpy()
    return play


def join_demonstrations(a, b):
    return ({k: torch.cat([a[0][k], b[0][k]]) for k in a[0]}, torch.cat([a[1], b[1]]), torch.cat([a[2], b[2]]))


def accuracy_by_kind(agent, demos, game, batch_size=512):
    """{kind name: (decisions, share where the greedy choice is the demonstrator's, share where it
    is of the same kind)} over ``demos``, by the demonstrated action's kind (``codec.KINDS``)."""
    from necro_env.rulesets.necromunda.codec import KINDS

    obs, mask, label = demos
    with torch.no_grad():
        pred = torch.cat([agent.masked_logits({k: v[i:i + batch_size] for k, v in obs.items()},
                                              mask[i:i + batch_size]).argmax(1)
                          for i in range(0, len(label), batch_size)]).numpy()
    kind, pkind = action_kinds(label.numpy(), game.layout), action_kinds(pred, game.layout)
    exact = pred == label.numpy()
    return {KINDS[k][0]: (int((kind == k).sum()), float(exact[kind == k].mean()), float((pkind[kind == k] == k).mean()))
            for k in np.unique(kind)}


def action_kinds(actions, layout):
    """The kind (``codec.KINDS`` index, as ``codec.decode`` gives it) of each flat action: the block
    of the action layout it falls in (an empty block's start equals the next one's)."""
    from necro_env.rulesets.necromunda.codec import N_KINDS

    return np.searchsorted(np.asarray(layout)[:N_KINDS], np.asarray(actions), side="right") - 1


def kind_weights(actions, layout, power):
    """Per-decision weights of the cloning loss (``--bc-kind-weight``): a decision whose action is of a
    kind demonstrated n times weighs n ** -power, scaled to a mean of 1 (power 0: all 1; 0.5: rare
    kinds such as Take Cover count for more than by their share; 1: every kind alike in all)."""
    from necro_env.rulesets.necromunda.codec import N_KINDS

    kinds = action_kinds(actions, layout)
    counts = np.bincount(kinds, minlength=N_KINDS).astype(np.float64)
    w = counts[kinds] ** -power
    return torch.from_numpy((w / w.mean()).astype(np.float32))


def clone(agent, opt, demos, epochs, batch_size, weights=None):
    """Masked cross-entropy on the demonstrations (each decision's term times ``weights``, if
    given: ``kind_weights``); returns the accuracy of each epoch."""
    obs, mask, act = demos
    n = len(act)
    accs = []
    for _ in range(epochs):
        perm = torch.randperm(n)
        hit = 0
        for s in range(0, n, batch_size):
            idx = perm[s:s + batch_size]
            logits = agent.masked_logits({k: x[idx] for k, x in obs.items()}, mask[idx])
            if weights is None:
                loss = nn.functional.cross_entropy(logits, act[idx])
            else:
                loss = (nn.functional.cross_entropy(logits, act[idx], reduction="none") * weights[idx]).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            hit += int((logits.argmax(1) == act[idx]).sum())
        accs.append(hit / n)
    return accs


def main(argv=None):
    args = parse_args(argv)
    import numba

    numba.set_num_threads(args.threads)
    torch.set_num_threads(args.torch_threads)
    torch.set_flush_denormal(True)  # denormal floats slow a trained network's backward pass several-fold
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    warm_up()  # a cold cache compiles on every core (necro_env.warmup)
    if args.rate_run:
        from necro_env.envs.necromunda_env import build_game

        try:
            return rate_run(args.rate_run, build_game(scenario=args.scenario), args.rating_pairs,
                            args.rating_anchors, args.rating_sampled)
        except CheckpointMismatch as exc:  # a missing, damaged or other game's snapshot: one line, no traceback
            raise SystemExit(str(exc)) from None

    pool = SnapshotPool(args.num_envs, args.pool_size, args.latest_prob, args.seed,
                        heuristic_prob=args.heuristic_prob) if args.opponent == "self" else None
    opponent = pool if pool is not None else args.opponent
    try:
        env = make_env(args.num_envs, args.tactical_features, args.tactical_planes, opponent=opponent, seed=args.seed,
                       scenario=args.scenario, reward=args.reward, learner=args.learner)
    except ValueError as exc:
        raise SystemExit(f"--learner: {exc}") from None
    agent = FastNetwork(env.observation_space, env.n_actions, args.hidden,
                        MaskView(env.game) if args.mask_features else None,
                        (env.game.layout, env.game.dims) if args.pointer_head else None)
    if args.init:
        try:
            load_init(agent, args.init)
        except CheckpointMismatch as exc:  # a missing, damaged or mismatched file: one line, no traceback
            raise SystemExit(str(exc)) from None
        print(f"initial network: {args.init}", flush=True)
    opt = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    anchor = copy.deepcopy(agent).eval() if args.init else None
    if pool is not None:
        pool.add("init", agent)  # the self-play opponent while demonstrations are recorded
    if args.bc_decisions:
        t0 = time.perf_counter()
        if args.bc_winners_only:  # a plain-reward twin of the training env says who won each game
            demo_env = make_env(args.num_envs, args.tactical_features, args.tactical_planes, opponent=opponent,
                                seed=args.seed, game=env.game, learner=args.learner)
            demos = collect_demonstrations(demo_env, args.bc_demonstrator, args.bc_decisions, args.seed, True)
        else:
            demos = collect_demonstrations(env, args.bc_demonstrator, args.bc_decisions, args.seed)
        bc_opt = torch.optim.Adam(agent.parameters(), lr=args.bc_learning_rate)
        weigh = (lambda d: kind_weights(d[2].numpy(), env.game.layout, args.bc_kind_weight)) \
            if args.bc_kind_weight else (lambda d: None)
        accs = clone(agent, bc_opt, demos, args.bc_epochs, 512, weigh(demos))
        print(f"warm start: {len(demos[2])} decisions of {args.bc_demonstrator}"
              f"{' (won games only)' if args.bc_winners_only else ''}, {args.bc_epochs} epochs, "
              f"accuracy {', '.join(f'{a:.3f}' for a in accs)} ({time.perf_counter() - t0:.0f} s)", flush=True)
        for r in range(args.bc_dagger):
            played, greedy = [], greedy_player(agent)

            def player(o, m):
                played.append(greedy(o, m))
                return played[-1]
            visited = collect_demonstrations(env, args.bc_demonstrator, args.bc_decisions, args.seed + 1 + r,
                                             player=player)
            agreed = float((torch.from_numpy(np.concatenate(played)) == visited[2]).float().mean())
            demos = join_demonstrations(demos, visited)
            accs = clone(agent, bc_opt, demos, args.bc_epochs, 512, weigh(demos))
            print(f"DAgger round {r + 1}: {len(visited[2])} states the cloned network reached (its choice was "
                  f"{args.bc_demonstrator}'s in {agreed:.3f}); {len(demos[2])} decisions in all, accuracy "
                  f"{', '.join(f'{a:.3f}' for a in accs)} ({time.perf_counter() - t0:.0f} s)", flush=True)
        del demos
        if args.bc_report:
            # in games of their own (other seeds), so that the training env's games stay those of a run without
            held_env = make_env(args.num_envs, args.tactical_features, args.tactical_planes, opponent=opponent,
                                seed=args.seed + 100, game=env.game, learner=args.learner)
            held = collect_demonstrations(held_env, args.bc_demonstrator, max(1, args.bc_decisions // 5),
                                          args.seed + 100)
            del held_env
            print(f"cloned network on {len(held[2])} held-out decisions of {args.bc_demonstrator}, by kind "
                  f"(decisions, same action, same kind):", flush=True)
            for name, (n_k, same, same_kind) in accuracy_by_kind(agent, held, env.game).items():
                print(f"  {name:16s} {n_k:6d} {same:.3f} {same_kind:.3f}", flush=True)
        anchor = copy.deepcopy(agent).eval()
    elif args.kl_coef and not args.init:
        raise SystemExit("--kl-coef needs a warm start or an initial network to anchor to (--bc-decisions N, --init)")
    run_dir = Path(args.run_dir) if args.run_dir else None
    history = []
    snapshots = []  # (name, learner steps) of every self-play snapshot, for the rating curve

    def snapshot(steps):
        """Freeze the learner into the self-play pool (module docstring), saved and rated if asked."""
        name = f"snap_{steps}"
        if run_dir is not None:
            (run_dir / "pool").mkdir(parents=True, exist_ok=True)
            save_network(agent, run_dir / "pool" / f"{name}.pt", env.game, args)
        if args.rating_pairs:
            t0 = time.perf_counter()
            rate_snapshot(agent, name, pool.members, env.game, args.rating_pairs, run_dir, 200_000 + steps,
                          args.rating_anchors, args.rating_sampled)
        pool.add(name, agent)
        snapshots.append((name, steps))
        if args.rating_pairs:
            from training.selfplay import write_rating_curve

            ratings = write_rating_curve(run_dir, snapshots, args.rating_anchors)
            curve = {n: round(ratings[n], 1) for n, _ in snapshots}
            curve.update({a: round(ratings[a], 1) for a in args.rating_anchors if a != "random"})
            history.append({"snapshot": name, "steps": steps, "ratings": curve})
            print(f"self-play ratings after {name} (Bradley-Terry, random = 0; rated in "
                  f"{time.perf_counter() - t0:.0f} s): " + ", ".join(f"{n} {v:+.0f}" for n, v in curve.items()),
                  flush=True)

    if pool is not None:
        pool.members.clear()  # "init" played while demonstrations were recorded; snap_0 is the start of PPO
        if run_dir is not None and args.rating_pairs:
            (run_dir / "rating_games.csv").unlink(missing_ok=True)  # a new run's fit
        snapshot(0)

    n, t_steps = args.num_envs, args.num_steps
    space = env.observation_space
    buf_obs = {k: torch.zeros((t_steps, n) + space[k].shape) for k in space.spaces}
    buf_mask = torch.zeros((t_steps, n, env.n_actions), dtype=torch.bool)
    buf_act = torch.zeros((t_steps, n), dtype=torch.long)
    buf_logp = torch.zeros((t_steps, n))
    buf_rew = torch.zeros((t_steps, n))
    buf_done = torch.zeros((t_steps, n))
    buf_val = torch.zeros((t_steps, n))

    obs = to_torch(env.reset())
    mask = torch.from_numpy(env.action_masks())
    done = torch.zeros(n)
    batch = n * t_steps
    mb = batch // args.num_minibatches
    opt_v = torch.optim.Adam(agent.v.parameters(), lr=1e-3, eps=1e-5) if args.vf_warmup else None  # a fresh head
    n_updates = max(1, args.total_steps // batch)
    returns_log, global_step, t_start = [], 0, time.perf_counter()
    best = None  # (score, update, state dict, outcomes) of the kept periodic evaluation (--keep-best)

    def periodic_eval(update):
        nonlocal best
        rows = [batched_eval(agent, env.game, name, args.eval_games) for name in args.eval_opponent.split(",")]
        score = float(np.mean([(r["win"] + r["draw"] / 2) / r["games"] for r in rows]))
        row = {"periodic_eval": update, "steps": global_step, "score": round(score, 4),
               **{r["opponent"]: f"{r['win']}-{r['draw']}-{r['loss']}" for r in rows},
               "by_side": {r["opponent"]: ["-".join(map(str, wdl)) for wdl in r["sides"]] for r in rows}}
        history.append(row)
        if args.log_json:
            print(json.dumps(row), flush=True)
        else:
            print(f"periodic evaluation at {global_step} steps ({args.eval_games} paired games per opponent): "
                  + ", ".join(f"{r['opponent']} {r['win']}-{r['draw']}-{r['loss']}"
                              f" ({' / '.join(row['by_side'][r['opponent']])} by side)" for r in rows)
                  + f", score {score:.3f}", flush=True)
        if not args.keep_best:
            return
        from training.evaluate import replaces_kept

        outcomes = [o for r in rows for o in r["outcomes"]]  # the same games at every evaluation: paired
        if best is not None:
            replace, test = replaces_kept(score, outcomes, best[0], best[3], args.keep_margin)
            if not replace:
                if test is not None:
                    print(f"keep-best: kept the policy of update {best[1]}: update {update} scores {test[0]:+.3f} "
                          f"per game on the same periodic games, within {args.keep_margin} standard errors "
                          f"({args.keep_margin * test[1]:.3f}; --keep-margin)", flush=True)
                return
        best = (score, update, copy.deepcopy(agent.state_dict()), outcomes)

    if args.eval_every:
        periodic_eval(0)
    for update in range(1, n_updates + 1):
        t_env = t_net = 0.0
        for t in range(t_steps):
            for k, buf in buf_obs.items():
                buf[t] = obs[k]
            buf_mask[t] = mask
            buf_done[t] = done
            t0 = time.perf_counter()
            with torch.no_grad():
                a, logp, _, v = agent.act(obs, mask)
            t1 = time.perf_counter()
            o, r, d, infos = env.step(a.numpy())
            t2 = time.perf_counter()
            t_net += t1 - t0
            t_env += t2 - t1
            buf_act[t], buf_logp[t], buf_val[t] = a, logp, v
            buf_rew[t] = torch.from_numpy(r)
            obs, done = to_torch(o), torch.from_numpy(d.astype(np.float32))
            mask = torch.from_numpy(env.action_masks())
            for i in np.flatnonzero(d):
                returns_log.append(infos[i]["episode"]["r"])
            global_step += n
        # generalised advantage estimation
        t0 = time.perf_counter()
        with torch.no_grad():
            next_v = agent.value(obs, mask)
            adv = torch.zeros_like(buf_rew)
            last = torch.zeros(n)
            for t in reversed(range(t_steps)):
                nonterm = 1.0 - (done if t == t_steps - 1 else buf_done[t + 1])
                nv = next_v if t == t_steps - 1 else buf_val[t + 1]
                delta = buf_rew[t] + args.gamma * nv * nonterm - buf_val[t]
                last = delta + args.gamma * args.gae_lambda * nonterm * last
                adv[t] = last
            ret = adv + buf_val
        f_obs = {k: v.reshape((batch,) + v.shape[2:]) for k, v in buf_obs.items()}
        f_mask, f_act, f_logp = buf_mask.reshape(batch, -1), buf_act.reshape(-1), buf_logp.reshape(-1)
        f_adv, f_ret = adv.reshape(-1), ret.reshape(-1)
        value_only = update <= args.vf_warmup  # --vf-warmup: the value head alone, the policy unchanged
        for _ in range(args.update_epochs):
            perm = torch.randperm(batch)
            for s in range(0, batch, mb):
                idx = perm[s:s + mb]
                mb_obs, mb_mask = {k: x[idx] for k, x in f_obs.items()}, f_mask[idx]
                if value_only:
                    with torch.no_grad():
                        z = agent.encode(mb_obs, mb_mask)[0]
                    loss = 0.5 * ((agent.v(z).squeeze(-1) - f_ret[idx]) ** 2).mean()
                    opt_v.zero_grad()
                    loss.backward()
                    opt_v.step()
                    continue
                _, logp, ent, v, logp_all = agent.act_full(mb_obs, mb_mask, f_act[idx])
                ratio = (logp - f_logp[idx]).exp()
                a_ = f_adv[idx]
                a_ = (a_ - a_.mean()) / (a_.std() + 1e-8)
                pg = torch.max(-a_ * ratio, -a_ * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                vl = 0.5 * ((v - f_ret[idx]) ** 2).mean()
                loss = pg + args.vf_coef * vl - args.ent_coef * ent.mean()
                if anchor is not None and args.kl_coef:  # KL(cloned || current) over the legal actions
                    with torch.no_grad():
                        p_ref = torch.softmax(anchor.masked_logits(mb_obs, mb_mask), 1)
                    kl = (p_ref * (torch.log(p_ref.clamp_min(1e-12)) - logp_all)).sum(1).mean()
                    loss = loss + args.kl_coef * kl
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                opt.step()
        t_train = time.perf_counter() - t0
        if pool is not None and update % args.self_play_every == 0:
            snapshot(global_step)
        elapsed = time.perf_counter() - t_start
        recent = returns_log[-200:]
        row = {"update": update, "steps": global_step, "steps_per_second": round(global_step / elapsed, 1),
               "env_steps_per_second": round(n * t_steps / max(t_env, 1e-9), 1), "env_seconds": round(t_env, 3),
               "policy_seconds": round(t_net, 3), "train_seconds": round(t_train, 3),
               "episodes": len(returns_log), "mean_return": round(float(np.mean(recent)), 3) if recent else None,
               "loss": round(loss.item(), 4), **({"value_only": True} if value_only else {})}
        history.append(row)
        if args.log_json:
            print(json.dumps(row), flush=True)
        else:
            print(f"update {update}/{n_updates} steps {global_step} | {row['steps_per_second']:,.0f} steps/s overall, "
                  f"env {row['env_steps_per_second']:,.0f} steps/s | env {t_env:.2f}s policy {t_net:.2f}s "
                  f"train {t_train:.2f}s | episodes {len(returns_log)} mean return {row['mean_return']}",
                  flush=True)
        if args.eval_every and (update % args.eval_every == 0 or update == n_updates):
            periodic_eval(update)
    if best is not None:
        agent.load_state_dict(best[2])
        print(f"keep-best: the policy of update {best[1]} (periodic score {best[0]:.3f})", flush=True)
        history.append({"kept_update": best[1], "kept_score": round(best[0], 4)})
    if args.save:
        save_network(agent, args.save, env.game, args)
    if args.eval_pairs:
        for name in args.eval_opponent.split(","):
            history.append(evaluate(agent, env.game, args, time.perf_counter() - t_start, name))
    return history


def batched_eval(net, game, opponent, pairs, seed0=20_000, name=None, sampled=False):
    """Paired games inside the batch: for each side, ``pairs`` games (slot b: game seed
    seed0 + b, so both sides play the same deployments and dice streams) of the greedy policy
    against the compiled ``opponent`` (a name) or another network (greedy too; reported as
    ``name``); the first episode of every slot counts (plain rewards: +1 win, -1 loss, 0 draw or
    round limit). ``sampled``: the networks sample their actions instead (torch's generator seeded
    with seed0 for the match, and restored after)."""
    if isinstance(opponent, nn.Module):
        pool = SnapshotPool(pairs, greedy=not sampled)
        pool.add(name, opponent)
        name, opponent = name or "network", pool
    res = {"opponent": name or opponent, "games": 0, "win": 0, "draw": 0, "loss": 0,
           "sides": [[0, 0, 0] for _ in range(game.dims.n_gangs)],  # W-D-L with the network on gang g
           "outcomes": []}  # every game's code (0 win, 1 draw, 2 loss), side by side, slot by slot
    with torch.random.fork_rng():
        torch.manual_seed(seed0)
        for side in range(game.dims.n_gangs):
            _play_side(net, game, opponent, pairs, seed0, side, sampled, res)
    return res


def _play_side(net, game, opponent, pairs, seed0, side, sampled, res):
    """``batched_eval``'s games with the network on gang ``side``; adds the results to ``res``."""
    env = make_env(pairs, net.tactical, net.tactical_planes, opponent=opponent, seed=seed0, game=game,
                   learner=side)
    obs = env.reset()
    finished = np.zeros(pairs, np.bool_)
    outcomes = np.zeros(pairs, np.int64)
    while not finished.all():
        with torch.no_grad():
            logits = net.masked_logits(to_torch(obs), torch.from_numpy(env.action_masks()))
            a = (Categorical(logits=logits).sample() if sampled else logits.argmax(1)).numpy()
        obs, r, d, _ = env.step(a)
        for b in np.flatnonzero(d & ~finished):
            outcome = 0 if r[b] > 0 else 2 if r[b] < 0 else 1
            res[("win", "draw", "loss")[outcome]] += 1
            res["sides"][side][outcome] += 1
            outcomes[b] = outcome
        finished |= d
    res["games"] += pairs
    res["outcomes"] += outcomes.tolist()


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


def evaluate(agent, game, args, train_seconds, opponent):
    """Paired games (training/evaluate.py, seeds 10,000+ as necro-train's final evaluation)."""
    from agents import make_agent
    from training.evaluate import paired_match, summarize

    t0 = time.perf_counter()
    m = paired_match(game, GreedyAgent(agent), make_agent(opponent, seed=1), args.eval_pairs, seed0=10_000)
    row = summarize("ppo_fast", opponent, m)
    row.update(train_seconds=round(train_seconds, 1), eval_seconds=round(time.perf_counter() - t0, 1))
    print(f"evaluation vs {opponent}: {m['win']}-{m['draw']}-{m['loss']} in {m['games']} paired games, "
          f"win rate {row['win_rate']:.3f} [{row['win_ci_low']:.3f}, {row['win_ci_high']:.3f}] "
          f"(trained {train_seconds:.0f} s)", flush=True)
    if args.log_json:
        print(json.dumps(row), flush=True)
    return row


def cli(argv=None) -> None:
    """``python -m training.ppo_fast``: ``main`` through training.common.run_cli (a refused input is
    one line and exit status 2)."""
    run_cli("training.ppo_fast", main, argv)


if __name__ == "__main__":
    cli()
