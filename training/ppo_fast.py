"""Fast masked PPO on the batched vector env (CleanRL style): PPO here, its extras in training/ppo_extras/.

    python -m training.ppo_fast [--config file.yaml] [--num-envs 256] [--total-steps 1000000] ...

The learner plays one gang (drawn per episode; ``--learner g``: always gang g, e.g. to train the weak
side of an uneven scenario) of ``BatchedEnv`` games (no SB3 needed); the other gangs
are played inside the compiled batch by ``--opponent`` (a compiled policy of
``necro_env.config.agent_spec.POLICY_NAMES``, or in the config file a mix ``{random: 1, gunline: 1}``
drawn per episode) or, with ``--opponent self``, by frozen snapshots of the learner, evaluated in one
batched torch call per snapshot and step. Illegal actions are masked out of
the policy's logits. Every update prints environment steps per second (the learner's steps
over all games), the time split between the environment and the network, and the finished games'
mean return. A YAML file given with ``--config`` sets defaults for any flag (keys use
underscores: ``num_envs: 512``; ``extends: base.yaml`` varies another file, necro_env/config/extends.py);
flags on the command line win. ``reward:`` (config file only)
takes the reward options of ``necro_env.envs.rewards.RewardSpec`` (draw penalty, casualty and
approach shaping), paid inside the compiled batch. ``--eval-pairs N`` ends the run with the
paired evaluation of ``necro-eval`` (training/evaluate.py: N seeds x both sides, the greedy
policy against ``--eval-opponent``), so its win rate compares with the SB3 runs'.

The network (``agents.fast_network``): ``--mask-features`` also feeds the legal-action mask to the
network, laid out like the observation (``MaskView``: per fighter row the legal target actions on it,
per cell the legal cell actions, and the other kinds' bits). ``--tactical-features`` appends to each
fighter row who can target whom (``necro_env.batch.tactical``: eligible from the activated fighter and
in what cover, and how many enemies the fighter can target and be targeted by). ``--tactical-planes``
appends board planes of what the gunline picks its cells by (path distance to the enemy; on the cells
the activated fighter can move to, how many enemies could see it there, how many it could target and
its best cover). ``--pointer-head`` replaces the linear policy head by a factored one
(``agents.pointer_head``: each fighter row and each board cell scored by a network shared across rows
and cells). ``--init PATH`` starts from a network saved by ``--save`` (same network flags) instead of
a warm start, e.g. to continue a run. A ``--save`` file holds the weights with the network flags and
the env metadata (``save_network``), so ``necro-eval`` plays it like a checkpoint (``load_network``).
``--vf-warmup U``: the first U updates train the value head alone (its last linear layer, Adam at
1e-3, on the rollouts of the unchanged policy) before PPO changes the policy; a cloned network's value
head is untrained, so PPO's first advantages would be measured against a random baseline.

The extras, one module each under training/ppo_extras/ (its docstring says what it does), called
below where their flags turn them on:

- ``bc``: the warm start, a compiled heuristic's decisions cloned into the network (``--bc-decisions``,
  ``--bc-demonstrator``, ``--bc-epochs``, ``--bc-learning-rate``, ``--bc-winners-only``,
  ``--bc-kind-weight``, ``--bc-report``); ``dagger``: DAgger rounds after it (``--bc-dagger``);
- ``kl_anchor``: KL(cloned or initial network || current) in PPO's loss (``--kl-coef``);
- ``snapshot_pool`` and ``league``: self-play (``--opponent self``, ``--self-play-every``,
  ``--pool-size``, ``--latest-prob``, ``--heuristic-prob``, ``--run-dir``, ``--rating-pairs``,
  ``--rating-anchors``, ``--rating-sampled``, ``--rate-run``);
- ``keep_best``: periodic evaluations in the batch and the run ending with the best one's policy
  (``--eval-every``, ``--eval-games``, ``--keep-best``, ``--keep-margin``); ``evaluation``: the
  paired games they and the final ``--eval-pairs`` evaluation play; ``envs``: the env with the
  tactical inputs.

Reading order: the flags (``parse_args``), ``main`` and the run's state (``Run``, ``Rollout``), then
the steps of one update: ``collect_rollout``, ``advantages`` (GAE), ``ppo_update``, ``log_update``.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from torch import nn

from agents.checkpoint import CheckpointMismatch
from agents.fast_network import FastNetwork, MaskView, load_init, save_network
from necro_env.config.agent_spec import listed
from necro_env.config.training import BUILTIN_OPPONENTS
from necro_env.envs.batched_env import opponent_mix
from necro_env.warmup import ensure as warm_up
from training.common import Parser, UsageError, at_least, input_path, run_cli
from training.ppo_extras import bc, dagger, keep_best, kl_anchor, league
from training.ppo_extras.envs import make_env, to_torch
from training.ppo_extras.evaluation import evaluate

# Re-exported: tests and scripts reach these as ppo_fast.<name>, their home before the extras moved
# to training/ppo_extras/ (2026-12-02).
from agents.fast_network import GreedyAgent, load_network, observation_space  # noqa: F401
from necro_env.envs.batched_env import BatchedEnv  # noqa: F401
from training.ppo_extras.bc import (  # noqa: F401
    accuracy_by_kind, action_kinds, clone, collect_demonstrations, kind_weights,
)
from training.ppo_extras.dagger import greedy_player, join_demonstrations  # noqa: F401
from training.ppo_extras.envs import TacticalEnv  # noqa: F401
from training.ppo_extras.evaluation import _play_side, batched_eval  # noqa: F401
from training.ppo_extras.league import rate_run, rate_snapshot  # noqa: F401
from training.ppo_extras.snapshot_pool import SnapshotPool  # noqa: F401

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
    """The flags, with a ``--config`` file's values as their defaults; every value checked before any work."""
    pre = config_parser()
    defaults = config_defaults(pre, argv)
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
    check_core_args(args)
    for extra in (league, keep_best, bc, dagger, kl_anchor):  # each refuses its own flags' bad values
        extra.check_args(args)
    return args


def config_parser():
    """``--config`` alone, read before the other flags: the file's values become their defaults."""
    pre = Parser(prog="training.ppo_fast", add_help=False)
    pre.add_argument("--config", default=None)
    return pre


def config_defaults(pre, argv):
    """DEFAULTS, updated by the ``--config`` file's keys (unknown keys refused)."""
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
    return defaults


def check_core_args(args) -> None:
    """The opponent, the evaluation opponents and the learner's side (``args.learner`` becomes an int)."""
    if isinstance(args.opponent, dict):  # a mix {name: weight} from the config file, drawn per episode
        try:
            opponent_mix(args.opponent)
        except ValueError as e:
            raise SystemExit(f"opponent: {e}") from None
    elif args.opponent not in BUILTIN_OPPONENTS + ("self",):
        raise SystemExit(f"--opponent must be {listed(BUILTIN_OPPONENTS + ('self',))} (or, in the config file, a "
                         f"mix {{name: weight}} of {listed(BUILTIN_OPPONENTS, 'and')}), got {args.opponent!r}")
    for name in args.eval_opponent.split(","):
        if name not in BUILTIN_OPPONENTS:
            raise SystemExit(f"--eval-opponent must be {listed(BUILTIN_OPPONENTS)} (or a comma-separated list), "
                             f"got {name!r}")
    if args.learner != "random":
        try:
            args.learner = int(args.learner)
        except ValueError:
            raise SystemExit(f"--learner must be random or a gang index (0, 1, ...), got {args.learner!r}") from None
        if args.learner < 0:
            raise SystemExit(f"--learner must be random or a gang index (0, 1, ...), got {args.learner}")


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


@dataclass
class Rollout:
    """The rollout buffers, [--num-steps, --num-envs, ...]: CleanRL's obs, actions, logprobs, rewards,
    dones and values, with the legal-action masks the policy was masked by."""
    obs: dict
    mask: torch.Tensor
    act: torch.Tensor
    logp: torch.Tensor
    rew: torch.Tensor
    done: torch.Tensor
    val: torch.Tensor

    @classmethod
    def empty(cls, space, t_steps, n, n_actions):
        return cls({k: torch.zeros((t_steps, n) + space[k].shape) for k in space.spaces},
                   torch.zeros((t_steps, n, n_actions), dtype=torch.bool), torch.zeros((t_steps, n), dtype=torch.long),
                   torch.zeros((t_steps, n)), torch.zeros((t_steps, n)), torch.zeros((t_steps, n)),
                   torch.zeros((t_steps, n)))


@dataclass
class Run:
    """One run's state, handed from step to step of ``main`` (CleanRL keeps it in the locals of one
    long function): the env and the network, the rollout and where the games are, and the extras the
    flags turned on (None when off)."""
    args: object
    env: object
    agent: FastNetwork
    opt: torch.optim.Optimizer
    buf: Rollout
    obs: dict | None = None  # the games' current observations, legal-action masks and done flags
    mask: torch.Tensor | None = None
    done: torch.Tensor | None = None
    history: list = field(default_factory=list)  # the logged rows main returns (the extras log here too)
    returns: list = field(default_factory=list)  # the finished games' returns
    global_step: int = 0
    t_start: float = field(default_factory=time.perf_counter)
    opt_v: torch.optim.Optimizer | None = None  # --vf-warmup: the value head's own optimiser
    anchor: FastNetwork | None = None  # --kl-coef: the frozen network PPO is anchored to (kl_anchor)
    selfplay: league.SelfPlay | None = None  # --opponent self
    periodic: keep_best.PeriodicEval | None = None  # --eval-every (and --keep-best)


def main(argv=None):
    """Train (``--rate-run``: rate a run's snapshots instead); returns the logged rows."""
    args = parse_args(argv)
    set_up_process(args)
    if args.rate_run:
        return league.rate_run_command(args)
    run = start(args)
    n_updates = max(1, args.total_steps // (args.num_envs * args.num_steps))
    for update in range(1, n_updates + 1):
        t_env, t_net = collect_rollout(run)
        t0 = time.perf_counter()
        value_only = update <= args.vf_warmup  # --vf-warmup: the value head alone, the policy unchanged
        loss = ppo_update(run, *advantages(run), value_only)
        t_train = time.perf_counter() - t0
        if run.selfplay is not None and run.selfplay.due(update):
            run.selfplay.snapshot(run.agent, run.global_step)
        log_update(run, update, n_updates, (t_env, t_net, t_train), loss, value_only)
        if run.periodic is not None and run.periodic.due(update, n_updates):
            run.periodic(run.agent, update, run.global_step)
    return finish(run)


def set_up_process(args) -> None:
    """Threads, seeds and the compiled rules core, before anything draws from a generator."""
    import numba

    numba.set_num_threads(args.threads)
    torch.set_num_threads(args.torch_threads)
    torch.set_flush_denormal(True)  # denormal floats slow a trained network's backward pass several-fold
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    warm_up()  # a cold cache compiles on every core (necro_env.warmup)


def start(args) -> Run:
    """The env, the network and its optimiser, then the extras the flags turn on. The order is the
    order they draw from the seeded generators: another order trains another network."""
    pool = league.make_pool(args)  # --opponent self: the snapshots play the other gangs
    opponent = pool if pool is not None else args.opponent
    try:
        env = make_env(args.num_envs, args.tactical_features, args.tactical_planes, opponent=opponent, seed=args.seed,
                       scenario=args.scenario, reward=args.reward, learner=args.learner)
    except ValueError as exc:
        raise SystemExit(f"--learner: {exc}") from None
    agent = build_network(args, env)
    opt = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    run = Run(args, env, agent, opt, Rollout.empty(env.observation_space, args.num_steps, args.num_envs, env.n_actions))
    if pool is not None:
        pool.add("init", agent)  # the self-play opponent while demonstrations are recorded
    if args.bc_decisions:
        warm_start(run, opponent)
    if args.kl_coef:
        run.anchor = kl_anchor.frozen(agent)  # the cloned or the --init network
    if pool is not None:
        run.selfplay = league.SelfPlay(pool, args, env.game, run.history)
        run.selfplay.start(agent)  # snap_0: the network PPO starts from
    run.obs, run.mask = to_torch(env.reset()), torch.from_numpy(env.action_masks())
    run.done = torch.zeros(args.num_envs)
    if args.vf_warmup:  # a fresh head's own optimiser
        run.opt_v = torch.optim.Adam(agent.v.parameters(), lr=1e-3, eps=1e-5)
    run.t_start = time.perf_counter()
    if args.eval_every:
        run.periodic = keep_best.PeriodicEval(args, env.game, run.history)
        run.periodic(agent, 0, 0)  # the starting policy's score, the first one keep-best may keep
    return run


def build_network(args, env) -> FastNetwork:
    """The network the flags describe, from ``--init``'s weights if given."""
    agent = FastNetwork(env.observation_space, env.n_actions, args.hidden,
                        MaskView(env.game) if args.mask_features else None,
                        (env.game.layout, env.game.dims) if args.pointer_head else None)
    if args.init:
        try:
            load_init(agent, args.init)
        except CheckpointMismatch as exc:  # a missing, damaged or mismatched file: one line, no traceback
            raise SystemExit(str(exc)) from None
        print(f"initial network: {args.init}", flush=True)
    return agent


def warm_start(run, opponent) -> None:
    """``--bc-decisions``: clone the demonstrator (bc), go on with DAgger's rounds (dagger), report."""
    cloner, demos = bc.warm_start(run.agent, run.env, opponent, run.args)
    dagger.rounds(cloner, run.env, demos, run.args)
    del demos
    if run.args.bc_report:
        bc.report(run.agent, run.env, opponent, run.args)


def collect_rollout(run):
    """``--num-steps`` steps of every game by the current policy into the buffers; returns the seconds
    spent in the env and in the network."""
    buf, env, n = run.buf, run.env, run.args.num_envs
    t_env = t_net = 0.0
    for t in range(run.args.num_steps):
        for k, b in buf.obs.items():
            b[t] = run.obs[k]
        buf.mask[t] = run.mask
        buf.done[t] = run.done
        t0 = time.perf_counter()
        with torch.no_grad():
            a, logp, _, v = run.agent.act(run.obs, run.mask)
        t1 = time.perf_counter()
        o, r, d, infos = env.step(a.numpy())
        t2 = time.perf_counter()
        t_net += t1 - t0
        t_env += t2 - t1
        buf.act[t], buf.logp[t], buf.val[t] = a, logp, v
        buf.rew[t] = torch.from_numpy(r)
        run.obs, run.done = to_torch(o), torch.from_numpy(d.astype(np.float32))
        run.mask = torch.from_numpy(env.action_masks())
        run.returns += [infos[i]["episode"]["r"] for i in np.flatnonzero(d)]
        run.global_step += n
    return t_env, t_net


def advantages(run):
    """Generalised advantage estimation over the rollout: (advantages, returns)."""
    args, buf, t_steps = run.args, run.buf, run.args.num_steps
    with torch.no_grad():
        next_v = run.agent.value(run.obs, run.mask)
        adv = torch.zeros_like(buf.rew)
        last = torch.zeros(args.num_envs)
        for t in reversed(range(t_steps)):
            nonterm = 1.0 - (run.done if t == t_steps - 1 else buf.done[t + 1])
            nv = next_v if t == t_steps - 1 else buf.val[t + 1]
            delta = buf.rew[t] + args.gamma * nv * nonterm - buf.val[t]
            last = delta + args.gamma * args.gae_lambda * nonterm * last
            adv[t] = last
        return adv, adv + buf.val


def ppo_update(run, adv, ret, value_only):
    """``--update-epochs`` passes over the rollout in ``--num-minibatches`` shuffled minibatches;
    ``value_only`` (--vf-warmup): the value head alone. Returns the last minibatch's loss."""
    args, buf = run.args, run.buf
    batch = args.num_envs * args.num_steps
    mb = batch // args.num_minibatches
    f_obs = {k: v.reshape((batch,) + v.shape[2:]) for k, v in buf.obs.items()}
    f_mask, f_act, f_logp = buf.mask.reshape(batch, -1), buf.act.reshape(-1), buf.logp.reshape(-1)
    f_adv, f_ret = adv.reshape(-1), ret.reshape(-1)
    for _ in range(args.update_epochs):
        perm = torch.randperm(batch)
        for s in range(0, batch, mb):
            idx = perm[s:s + mb]
            mb_obs, mb_mask = {k: x[idx] for k, x in f_obs.items()}, f_mask[idx]
            if value_only:
                loss = value_step(run, mb_obs, mb_mask, f_ret[idx])
                continue
            loss = ppo_loss(run, mb_obs, mb_mask, f_act[idx], f_logp[idx], f_adv[idx], f_ret[idx])
            run.opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(run.agent.parameters(), args.max_grad_norm)
            run.opt.step()
    return loss


def ppo_loss(run, obs, mask, act, old_logp, adv, ret):
    """The clipped policy loss, the value loss and the entropy bonus (and ``--kl-coef``'s anchor term)."""
    args = run.args
    _, logp, ent, v, logp_all = run.agent.act_full(obs, mask, act)
    ratio = (logp - old_logp).exp()
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    pg = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
    vl = 0.5 * ((v - ret) ** 2).mean()
    loss = pg + args.vf_coef * vl - args.ent_coef * ent.mean()
    if run.anchor is not None:  # KL(anchor || current) over the legal actions
        loss = loss + args.kl_coef * kl_anchor.kl_loss(run.anchor, obs, mask, logp_all)
    return loss


def value_step(run, obs, mask, ret):
    """One ``--vf-warmup`` minibatch: the value head's last layer fitted to the returns, the rest frozen."""
    with torch.no_grad():
        z = run.agent.encode(obs, mask)[0]
    loss = 0.5 * ((run.agent.v(z).squeeze(-1) - ret) ** 2).mean()
    run.opt_v.zero_grad()
    loss.backward()
    run.opt_v.step()
    return loss


def log_update(run, update, n_updates, seconds, loss, value_only) -> None:
    """The update's row (speeds, the time split, the finished games' mean return, the loss), logged."""
    t_env, t_net, t_train = seconds
    args, n, step = run.args, run.args.num_envs, run.global_step
    elapsed = time.perf_counter() - run.t_start
    recent = run.returns[-200:]
    row = {"update": update, "steps": step, "steps_per_second": round(step / elapsed, 1),
           "env_steps_per_second": round(n * args.num_steps / max(t_env, 1e-9), 1), "env_seconds": round(t_env, 3),
           "policy_seconds": round(t_net, 3), "train_seconds": round(t_train, 3),
           "episodes": len(run.returns), "mean_return": round(float(np.mean(recent)), 3) if recent else None,
           "loss": round(loss.item(), 4), **({"value_only": True} if value_only else {})}
    run.history.append(row)
    if args.log_json:
        print(json.dumps(row), flush=True)
    else:
        print(f"update {update}/{n_updates} steps {step} | {row['steps_per_second']:,.0f} steps/s overall, "
              f"env {row['env_steps_per_second']:,.0f} steps/s | env {t_env:.2f}s policy {t_net:.2f}s "
              f"train {t_train:.2f}s | episodes {len(run.returns)} mean return {row['mean_return']}",
              flush=True)


def finish(run):
    """The run's end: keep-best's policy, ``--save``, and the final paired evaluation; the logged rows."""
    args = run.args
    if run.periodic is not None:
        run.periodic.restore(run.agent)
    if args.save:
        save_network(run.agent, args.save, run.env.game, args)
    if args.eval_pairs:
        for name in args.eval_opponent.split(","):
            run.history.append(evaluate(run.agent, run.env.game, args, time.perf_counter() - run.t_start, name))
    return run.history


def cli(argv=None) -> None:
    """``python -m training.ppo_fast``: ``main`` through training.common.run_cli (a refused input is
    one line and exit status 2)."""
    run_cli("training.ppo_fast", main, argv)


if __name__ == "__main__":
    cli()
