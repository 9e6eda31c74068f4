"""Behaviour-cloning warm start: imitate a scripted agent before MaskablePPO takes over.

    python -m training.pretrain --config configs/training/default.yaml [--games N] [--out bc.zip]

A learner that starts from a uniform policy on a Zone Mortalis board rarely meets the enemy
in 12 rounds against a random opponent, so PPO sees almost no signal (docs/results.md). The
warm start plays ``games`` games of the training env (the config's scenario, encoder, rewards
and opponent) with a demonstrator (``gunline`` by default) on the learner's side, records
(observation, legal mask, demonstrator action, discounted return) for every learner decision,
then trains the fresh MaskablePPO policy by masked cross-entropy on the actions plus a value
regression on the returns (so PPO's first advantages are not noise). PPO then fine-tunes from
there. The demonstrator plays through the ``Agent`` interface, so any agent can demonstrate.

Config (``pretrain:`` in a training YAML, see configs/training/default.yaml)::

    pretrain:
      demonstrator: gunline   # a compiled policy (random, gunline, ...) | rollout | checkpoint .zip | sides:a,b
                              # | demos:<file> (recorded games, training/demos.py)
      games: 200              # demonstration games
      epochs: 8
      batch_size: 256
      learning_rate: 0.001
      value_coef: 0.5
      temperature: null       # with a recording of the search (demos:), clone a softmax of its candidates'
                              # values / temperature where it simulated, instead of its choice alone
      also: []                # further recordings (demos:<file>), all their games cloned with the above;
                              # a labelled recording (DAgger: training/demos.py record --labeller) clones
                              # the labeller's actions on the states another agent reached

The demonstration env is built by ``training.common.make_env_fn`` like every training env (so
an opponent mix is drawn per game there too), as rank 700,000: game seeds ``seed * 1000 + 700_000
+ i``, apart from training envs' (``seed * 1000 + rank``) and evaluation seeds (10,000+, 100,000+,
500,000); the opponent agent's seed is ``seed * 1000 + 700_001`` (before the env was shared with
training: ``seed * 1000 + 699_999``, so the demonstrations of a given config changed).

``warm_start`` is the one entry point of both ``training/train.py`` and ``training/selfplay.py``.
"""
from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np

from necro_env.warmup import ensure as warm_up

DEMO_RANK = 700_000  # the demonstration env is rank 700,000 of common.make_env_fn: seeds apart from training's


def collect(cfg: dict, games: int, demonstrator: str = "gunline", seed: int | None = None, log=print) -> dict:
    """Play ``games`` demonstration games; returns stacked arrays: obs (array or dict of arrays),
    masks [N, A] bool, actions [N], returns [N] (discounted with ppo.gamma), the demonstrator's
    results (wins, draws, losses) against the config's opponent, and the opponent of each game
    (``opponents``: the spec drawn from the mix, or the one opponent). ``demos:<file>`` replays the
    first ``games`` games of a recording instead (training/demos.py: its own opponents and seeds).

    The env is built by ``common.make_env_fn`` exactly like a training env, as rank ``DEMO_RANK``
    (opponent agent seed ``seed * 1000 + 700_001``; a mix draws from its generator for that rank)."""
    from agents import make_agent

    from .common import make_env_fn, opponent_label
    from .demos import PREFIX, discounted, file_of, play_episode, replay, stacked

    if demonstrator.startswith(PREFIX):  # recorded games (training/demos.py), replayed on the config's encoder
        return replay(cfg, file_of(demonstrator), games, log=log)
    seed = cfg["seed"] if seed is None else seed
    gamma = cfg["ppo"]["gamma"]
    env = make_env_fn({**cfg, "seed": seed}, DEMO_RANK)()
    base = env.unwrapped
    demo = make_agent(demonstrator, seed=seed * 1000 + 699_998, game=base.game, deterministic=False)
    obs_l, mask_l, act_l, ret_l = [], [], [], []
    results = {"win": 0, "draw": 0, "loss": 0}
    opponents = []
    t0 = time.time()
    for i in range(games):
        s = seed * 1000 + 700_000 + i
        demo.reset(s)
        obs, info = env.reset(seed=s)
        opponents.append(info.get("opponent", cfg["opponent"]))
        rewards = play_episode(env, obs, lambda o, m: demo.act(o, m, game=base.game), base.action_masks,
                               (obs_l, mask_l, act_l))
        ret_l.extend(discounted(rewards, gamma))
        w = base.game.winner if not base.game.truncated else -1
        results["win" if w == base.learner else ("draw" if w < 0 else "loss")] += 1
    log(f"[pretrain] {games} games of {demonstrator} vs {opponent_label(cfg['opponent'])}: {len(act_l)} decisions, "
        f"{results['win']}-{results['draw']}-{results['loss']} in {time.time() - t0:.0f} s")
    return stacked(obs_l, mask_l, act_l, ret_l, results, opponents)


def check_warm_start(cfg: dict, prog: str, resume: bool = False) -> None:
    """Before a run starts (``prog``: the command), what its warm start will load is checked: an
    ``init_from`` checkpoint is copied into a throwaway model of the config (``init_from`` below:
    the checkpoint against the config's game and encoder, then its network against the config's
    ``ppo.net_arch`` and ``ppo.extractor``), else each ``demos:`` recording (the demonstrator's and
    the ``also`` list's) is replayed on the game (training.demos.check: readable, the config's
    scenario, enough games, each replaying on this engine; a few seconds). A bad one stops the
    command in one line naming the field and the file, before the run folder is written, instead of
    a traceback from the warm start. A ``resume``d run has no warm start: nothing is checked."""
    from .demos import PREFIX, DemosError, check, file_of

    if resume:
        return
    p = cfg.get("pretrain")
    try:
        if cfg.get("init_from"):
            from .common import build_game_for, make_vec_env, new_model

            field = "init_from"
            game = build_game_for(cfg)
            model = new_model(cfg, make_vec_env({**cfg, "n_envs": 1, "vec_env": "dummy"}), None, game=game)
            init_from(model, cfg["init_from"], game, cfg["encoder"], log=lambda *a: None)
        elif p:
            if p["demonstrator"].startswith(PREFIX):
                field = "pretrain.demonstrator"
                check(cfg, file_of(p["demonstrator"]), p["games"])
            for i, spec in enumerate(p.get("also") or ()):
                field = f"pretrain.also[{i}]"
                check(cfg, file_of(spec))
    except (DemosError, ValueError) as exc:  # DemosError, CheckpointMismatch
        raise SystemExit(f"{prog}: {field}: {exc}") from None


def _take(obs, idx):
    return {k: v[idx] for k, v in obs.items()} if isinstance(obs, dict) else obs[idx]


def _forward(policy, obs_t, masks):
    """(masked action distribution, values [N]) of a MaskablePPO policy from one pass of its
    features extractor, as the policy's own ``evaluate_actions`` does (``get_distribution`` and
    ``predict_values`` would run the extractor once each)."""
    features = policy.extract_features(obs_t)
    if policy.share_features_extractor:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    else:
        latent_pi = policy.mlp_extractor.forward_actor(features[0])
        latent_vf = policy.mlp_extractor.forward_critic(features[1])
    dist = policy._get_action_dist_from_latent(latent_pi)
    dist.apply_masking(masks)
    return dist, policy.value_net(latent_vf).flatten()


def soft_targets(data: dict, temperature: float | None):
    """Each decision's target distribution over at most C actions: (actions [N, C], probabilities
    [N, C]). The demonstrator's action with probability 1, except, with a ``temperature``, where a
    recorded search simulated its candidates (``data["search"]``, training/demos.py): there a
    softmax over the candidates' actions of their values / temperature, an action's value being the
    best of the candidates that play it (two policies may choose one action and continue
    differently; the search plays the best pair's action). Padding: action 0 with probability 0."""
    acts = data["actions"]
    n = len(acts)
    search = data.get("search") if temperature else None
    c = 1 if search is None else search["candidates"].shape[1]
    cand = np.zeros((n, c), np.int64)
    prob = np.zeros((n, c), np.float32)
    cand[:, 0], prob[:, 0] = acts, 1.0
    if search is None:
        return cand, prob
    rows = np.flatnonzero((search["candidates"] >= 0).any(axis=1))
    a = search["candidates"][rows].astype(np.int64)
    v = search["values"][rows].astype(np.float64)
    ok = a >= 0
    for k in range(1, c):  # an action twice over: its best value, once
        for j in range(k):
            same = ok[:, k] & ok[:, j] & (a[:, j] == a[:, k])
            v[same, j] = np.maximum(v[same, j], v[same, k])
            ok[same, k] = False
    v = np.where(ok, v / temperature, -np.inf)
    e = np.exp(v - v.max(axis=1, keepdims=True))
    cand[rows] = np.where(ok, a, 0)
    prob[rows] = e / e.sum(axis=1, keepdims=True)
    return cand, prob


def clone(model, data: dict, epochs: int = 8, batch_size: int = 256, learning_rate: float = 1e-3,
          value_coef: float = 0.5, seed: int = 0, temperature: float | None = None, log=print) -> list[dict]:
    """Train ``model.policy`` (a MaskablePPO policy) on the demonstrations: masked cross-entropy on
    the actions (on ``soft_targets`` with a ``temperature``) + value_coef x MSE on the returns.
    Returns one row per epoch (loss, accuracy: the most probable action is the demonstrator's)."""
    import torch
    import torch.nn.functional as F

    cand, prob = soft_targets(data, temperature)
    policy = model.policy
    policy.set_training_mode(True)
    opt = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    n = len(data["actions"])
    rng = np.random.default_rng(seed)
    rows = []
    for ep in range(epochs):
        order = rng.permutation(n)
        tot = {"policy_loss": 0.0, "value_loss": 0.0, "accuracy": 0.0}
        for lo in range(0, n, batch_size):
            idx = order[lo:lo + batch_size]
            obs_t, _ = policy.obs_to_tensor(_take(data["obs"], idx))
            acts = torch.as_tensor(data["actions"][idx], device=policy.device)
            masks = data["masks"][idx]
            dist, values = _forward(policy, obs_t, masks)
            logp = dist.distribution.logits.gather(1, torch.as_tensor(cand[idx], device=policy.device))  # normalised
            v_loss = F.mse_loss(values, torch.as_tensor(data["returns"][idx], device=policy.device))
            p_loss = -(torch.as_tensor(prob[idx], device=policy.device) * logp).sum(dim=1).mean()
            loss = p_loss + value_coef * v_loss
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            opt.step()
            with torch.no_grad():
                pred = dist.distribution.logits.argmax(dim=1)  # the masked logits: the most probable action
            k = len(idx)
            tot["policy_loss"] += float(p_loss.detach()) * k
            tot["value_loss"] += float(v_loss.detach()) * k
            tot["accuracy"] += float((pred == acts).float().mean()) * k
        row = {"epoch": ep + 1, **{k: round(v / n, 4) for k, v in tot.items()}}
        rows.append(row)
        log(f"[pretrain] epoch {row['epoch']}: policy loss {row['policy_loss']:.3f}, value loss "
            f"{row['value_loss']:.4f}, accuracy {row['accuracy']:.3f}")
    policy.set_training_mode(False)
    return rows


def pretrain(model, cfg: dict, log=print) -> dict:
    """Collect demonstrations per ``cfg['pretrain']`` and clone them into ``model``."""
    from .demos import file_of, merged, replay

    p = cfg["pretrain"]
    parts = [collect(cfg, p["games"], p["demonstrator"], log=log)]
    parts += [replay(cfg, file_of(spec), log=log) for spec in p.get("also") or ()]
    data = merged(parts)
    rows = clone(model, data, p["epochs"], p["batch_size"], p["learning_rate"], p["value_coef"], seed=cfg["seed"],
                 temperature=p.get("temperature"), log=log)
    out = {"demonstrator": p["demonstrator"], "games": p["games"], "decisions": int(len(data["actions"])),
           "demonstrator_results": parts[0]["results"], "opponents": dict(Counter(parts[0]["opponents"])),
           "epochs": rows}
    if p.get("also"):  # each further recording's own decisions, results (of its play) and opponents
        out["also"] = [{"recording": spec, "decisions": int(len(d["actions"])), "results": d["results"],
                        "opponents": dict(Counter(d["opponents"]))} for spec, d in zip(p["also"], parts[1:])]
    return out


def init_from(model, path, game, encoder: str, log=print) -> dict:
    """Copy the policy (network weights) of the checkpoint at ``path`` into ``model``, after checking
    the checkpoint against ``game`` and ``encoder`` like every load (agents/checkpoint.py). The
    model keeps its own PPO settings and a fresh optimizer: the config's, not the checkpoint's."""
    from agents.checkpoint import CheckpointMismatch, load_model

    src, meta = load_model(path, game, encoder)
    try:
        model.policy.load_state_dict(src.policy.state_dict())
    except RuntimeError as e:  # another net_arch or extractor: torch lists the missing or mis-shaped weights
        lines = str(e).splitlines()
        detail = lines[1].strip() if len(lines) > 1 else str(e)  # the first difference, after torch's heading
        raise CheckpointMismatch(f"checkpoint {path}: its policy network does not fit this config's (ppo.net_arch, "
                                 f"ppo.extractor): {detail}") from None
    log(f"[train] policy initialised from {path}")
    return {"init_from": str(path), "checkpoint": {k: meta[k] for k in ("encoder", "env_version") if k in meta}}


def warm_start(model, cfg: dict, run, game, log=print):
    """The starting policy of a fresh run (train.py and selfplay.py): with ``init_from`` that
    checkpoint's policy (the pretrain section is then not run), else with a ``pretrain:`` section
    the clone of its demonstrations. Writes ``run/pretrain.json`` and saves
    the starting policy to ``run/checkpoints/step_0_bc.zip``. Returns the info written, or None
    when the run starts from a fresh network."""
    from agents.checkpoint import save_checkpoint

    from .common import write_json

    if cfg.get("init_from"):
        info = init_from(model, cfg["init_from"], game, cfg["encoder"], log=log)
        extra = {"run": cfg["name"], "init_from": cfg["init_from"]}
    elif cfg.get("pretrain"):
        info = pretrain(model, cfg, log=log)
        extra = {"run": cfg["name"], "pretrain": cfg["pretrain"]["demonstrator"]}
    else:
        return None
    write_json(run / "pretrain.json", info)
    save_checkpoint(model, run / "checkpoints" / "step_0_bc.zip", game, cfg["encoder"], extra)
    return info


def main(argv=None):
    """training.pretrain: the config, the warm start's demonstrator and the run folder checked before
    any game is played; the folder claimed as necro-train claims its own (training/run_folder.py)."""
    from necro_env.config.agent_spec import POLICY_NAMES, SEARCH

    from .common import (
        Parser, build_game_for, load_config, make_vec_env, new_model, runs_root, write_json, write_run_config,
    )
    from .run_folder import RunFolder

    ap = Parser(prog="training.pretrain", description=__doc__.split("\n\n")[0],
                formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", default=None, help="training YAML (default configs/training/default.yaml)")
    ap.add_argument("--games", type=int, default=None, help="demonstration games (default: the config's)")
    ap.add_argument("--demonstrator", default=None, help=f"{' | '.join(POLICY_NAMES + (SEARCH,))} | "
                                                               f"checkpoint .zip | sides:a,b (gang g by the g-th) | demos:<file.npz> "
                                                               f"(recorded games, training/demos.py)")
    ap.add_argument("--runs-dir", default=None)
    ap.add_argument("--name", default=None, help="run folder name (default <config name>_bc)")
    ap.add_argument("--overwrite", action="store_true", help="delete an earlier run of the same name first")
    args = ap.parse_args(argv)
    cfg = load_config(args.config, {"pretrain.games": args.games, "pretrain.demonstrator": args.demonstrator})
    if cfg.get("pretrain") is None:
        raise SystemExit(f"training.pretrain: {args.config or 'the default config'}: no 'pretrain' section")
    warm_up()
    check_warm_start({**cfg, "init_from": None}, "training.pretrain")
    name = args.name or cfg["name"] + "_bc"
    with RunFolder(runs_root(args.runs_dir), name, "training.pretrain", overwrite=args.overwrite, argv=argv,
                   resumable=False) as folder:
        run = folder.claim()
        write_run_config(run, cfg)
        venv = make_vec_env({**cfg, "n_envs": 1})
        model = new_model(cfg, venv, run / "tb")
        out = pretrain(model, cfg)
        from agents.checkpoint import save_checkpoint

        save_checkpoint(model, run / "bc.zip", build_game_for(cfg), cfg["encoder"],
                        {"run": cfg["name"], "pretrain": out})
        write_json(run / "pretrain.json", out)
        print(f"[pretrain] wrote {run / 'bc.zip'}")
        return out


def cli(argv=None) -> None:
    """``python -m training.pretrain``: ``main`` through training.common.run_cli (a refused input is one
    line and exit 2)."""
    from .common import run_cli

    run_cli("training.pretrain", main, argv)


if __name__ == "__main__":
    cli()
