"""``necro-train --backend rllib``: PPO on RLlib's new API stack over the game's PettingZoo env, with exact
action masking, a league of frozen snapshots, and the project's checkpoints and evaluation
(docs/distributed.md).

- The game: the config's ``game`` (Necromunda on its scenario; another game of the registry on its default
  game, as its necro-train and necro-eval build it: Firefight since 2026-12-02), reached through
  ``necro_env.rulesets.get`` only.
- The env: :class:`training.distributed.rllib_env.SeatEnv` (RLlib's PettingZooEnv inside, a random seat
  for the learner, the opponent drawn per episode from the pool, the config's ``reward`` paid as necro-train
  pays it).
- The module: RLlib's masking PPO module (``ActionMaskingTorchRLModule`` of RLlib's examples: the
  illegal actions' logits are pushed to the float minimum, so they are never sampled) over RLlib's
  default MLP with the config's ``ppo.net_arch`` and tanh, the shape of SB3's MlpPolicy, so the weights
  map one to one onto a project checkpoint (:func:`export_checkpoint`, :func:`import_checkpoint`).
- The league: every ``eval.every`` steps the learner, exported as a project checkpoint, plays the paired
  periodic games against every opponent of the pool (``training.evaluate.paired_match``, the same seeds
  as necro-train's periodic evaluation); when its mean score reaches ``rllib.snapshot_score`` the export
  joins the pool as a frozen snapshot (RLlib's self-play examples add a snapshot when the learner beats
  the current one). league.csv rates the pool with the project's Bradley-Terry fit.

Outputs (as necro-train's): config.yaml, progress.csv, checkpoints/step_<N>.zip + .meta.json,
final.zip, training_curve.png, league.csv, summary.json.
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from . import connect, require_ray

# RLlib's MLP layers in the order SB3's MlpPolicy holds them (name prefixes of the two state dicts)
SB3_PARTS = {"actor": "mlp_extractor.policy_net.", "critic": "mlp_extractor.value_net.", "pi": "action_net.",
             "vf": "value_net."}
RLLIB_PARTS = {"actor": "encoder.actor_encoder.", "critic": "encoder.critic_encoder.", "pi": "pi.", "vf": "vf."}


def ppo_config(cfg: dict, pool: dict, env_runners: int | None = None):
    """The PPOConfig of a training config (``ppo`` section for the numbers, ``rllib`` for the runners)."""
    require_ray("ray.rllib")
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    from .rllib_env import LEARNER, SeatEnv

    p, r, name = cfg["ppo"], rl_section(cfg), game_name(cfg)
    env_config = {"game": name, "scenario": cfg["scenario"] if name == "necromunda" else None,
                  "encoder": cfg["encoder"], "seed": cfg["seed"], "pool": pool, "reward": reward_of(cfg)}
    model = {"fcnet_hiddens": list(p["net_arch"]), "fcnet_activation": "tanh", "vf_share_layers": False,
             "head_fcnet_hiddens": []}
    batch = p["n_steps"] * cfg["n_envs"]
    return (PPOConfig()
            # RLlib's pre-check samples actions without the mask, which the env refuses (it raises on any
            # illegal action): the check is off, and every training step is checked by the env instead
            .environment(SeatEnv, env_config=env_config, disable_env_checking=True)
            .framework("torch")
            .env_runners(num_env_runners=r["num_env_runners"] if env_runners is None else env_runners,
                         num_envs_per_env_runner=r["num_envs_per_env_runner"], num_cpus_per_env_runner=1)
            .multi_agent(policies={LEARNER}, policy_mapping_fn=lambda agent_id, episode, **kw: LEARNER,
                         policies_to_train=[LEARNER])
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
                LEARNER: RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model)}))
            .training(train_batch_size_per_learner=batch, minibatch_size=min(p["batch_size"], batch),
                      num_epochs=p["n_epochs"], lr=p["learning_rate"], gamma=p["gamma"], lambda_=p["gae_lambda"],
                      clip_param=p["clip_range"], entropy_coeff=p["ent_coef"])
            .debugging(seed=cfg["seed"], log_level="ERROR"))


def game_name(cfg: dict) -> str:
    """The registry's game the run trains on: the config's ``game`` (``rllib.game``, when given, equals it:
    the config refuses another)."""
    return cfg.get("game", "necromunda")


def reward_of(cfg: dict) -> dict:
    """The config's ``reward`` section as the game's necro-train reads it (training/train.py): Necromunda's
    whole (RewardSpec: terminal values, casualty and approach shaping); another game's win, loss, draw and
    shaping (``train.ruleset_reward``, the same section its SB3 run reads)."""
    if game_name(cfg) == "necromunda":
        return dict(cfg["reward"])
    from ..train import ruleset_reward

    return ruleset_reward(cfg)


def build_game(cfg: dict):
    """The game the exports are checked against and the periodic games are played on: Necromunda's
    scenario, or another game's default (``make_game({})``, the game its necro-train and necro-eval build)."""
    if game_name(cfg) == "necromunda":
        from ..common import build_game_for

        return build_game_for(cfg)
    from necro_env import rulesets

    return rulesets.get(game_name(cfg)).make_game({})


def rl_section(cfg: dict) -> dict:
    from necro_env.config.training import RLlibFile

    return cfg.get("rllib") or RLlibFile().model_dump()


# ------------------------------------------------------------------ weights both ways
def _linear_keys(state: dict, prefix: str) -> list[tuple[str, str]]:
    """(weight key, bias key) of every linear layer under ``prefix``, in layer order."""
    ws = [k for k in state if k.startswith(prefix) and k.endswith(".weight")]
    ws.sort(key=lambda k: [int(t) if t.isdigit() else 0 for t in k[len(prefix):].split(".")])
    return [(w, w[:-len("weight")] + "bias") for w in ws]


def map_weights(src: dict, src_parts: dict, dst: dict, dst_parts: dict, where: str) -> dict:
    """``dst``'s state dict with every linear layer replaced by ``src``'s, part by part (actor, critic, pi,
    vf) in layer order; ValueError naming the part and the shapes when the two networks differ."""
    import torch

    out = dict(dst)
    for part in src_parts:
        a, b = _linear_keys(src, src_parts[part]), _linear_keys(dst, dst_parts[part])
        if len(a) != len(b):
            raise ValueError(f"{where}: the {part} network has {len(a)} linear layers, the other {len(b)}")
        for (wa, ba), (wb, bb) in zip(a, b):
            if tuple(np.shape(src[wa])) != tuple(np.shape(dst[wb])):
                raise ValueError(f"{where}: {part} layer {wb} is {tuple(np.shape(dst[wb]))}, the weights are "
                                 f"{tuple(np.shape(src[wa]))} (another ppo.net_arch or game?)")
            out[wb] = torch.as_tensor(np.asarray(src[wa]), dtype=torch.float32)
            out[bb] = torch.as_tensor(np.asarray(src[ba]), dtype=torch.float32)
    return out


def sb3_model(cfg: dict, game):
    """An untrained MaskablePPO with SB3's MlpPolicy on ``game``'s flat observation: the network a project
    checkpoint of an RLlib policy holds (the same widths, tanh, separate policy and value MLPs)."""
    from gymnasium import spaces
    from sb3_contrib import MaskablePPO

    p = cfg["ppo"]
    model = MaskablePPO("MlpPolicy", env=None, device="cpu", _init_setup_model=False, learning_rate=p["learning_rate"],
                        n_steps=p["n_steps"], batch_size=p["batch_size"], n_epochs=p["n_epochs"], gamma=p["gamma"],
                        gae_lambda=p["gae_lambda"], clip_range=p["clip_range"], ent_coef=p["ent_coef"],
                        policy_kwargs={"net_arch": list(p["net_arch"])}, seed=cfg["seed"])
    model.observation_space = encoder_of(cfg).space(game)
    model.action_space = spaces.Discrete(int(game.n_actions))
    model.n_envs = 1
    model._setup_model()
    return model


def encoder_of(cfg: dict):
    """The config's encoder of its game: Necromunda's (necro_env/envs/encoders.py) or the ruleset's own."""
    if game_name(cfg) == "necromunda":
        from necro_env.envs.encoders import make_encoder

        return make_encoder(cfg["encoder"])
    from necro_env import rulesets
    from necro_env.envs.ruleset_env import make_encoder

    return make_encoder(rulesets.get(game_name(cfg)), cfg["encoder"])


def export_checkpoint(weights: dict, cfg: dict, game, path, timesteps: int, extra: dict | None = None) -> Path:
    """The RLlib learner's weights (its RLModule state dict) as a project checkpoint at ``path``
    (agents/checkpoint.py: metadata checked at every load), so necro-eval, the replay recorder, necro-play
    and the rollout search play it as any MaskablePPO checkpoint."""
    from agents.checkpoint import save_checkpoint

    model = sb3_model(cfg, game)
    state = map_weights(weights, RLLIB_PARTS, model.policy.state_dict(), SB3_PARTS, "RLlib export")
    model.policy.load_state_dict(state)
    model.num_timesteps = int(timesteps)
    return save_checkpoint(model, path, game, cfg["encoder"], {"run": cfg["name"], "backend": "rllib", **(extra or {})})


def import_checkpoint(path, cfg: dict, game, module_state: dict) -> dict:
    """A project checkpoint's policy (checked against ``game`` and the config's encoder as every load is)
    as the RLlib learner's state dict (``module_state``: the module's own, for the keys and shapes)."""
    from agents.checkpoint import CheckpointMismatch, load_model

    model, meta = load_model(path, game, cfg["encoder"])
    if meta.get("model", {}).get("policy_class") != "MlpPolicy":
        raise CheckpointMismatch(f"checkpoint {path}: its policy is {meta.get('model', {}).get('policy_class')!r}; "
                                 f"an RLlib run starts from an MlpPolicy checkpoint (flat encoder, default extractor)")
    sb3 = {k: v.detach().numpy() for k, v in model.policy.state_dict().items()}
    try:
        return map_weights(sb3, SB3_PARTS, module_state, RLLIB_PARTS, f"checkpoint {path}")
    except ValueError as exc:
        raise CheckpointMismatch(str(exc)) from None


def check_init_from(cfg: dict) -> None:
    """``init_from``'s checkpoint fits the run's game and encoder (agents/checkpoint.py's metadata check: a
    checkpoint of another game is one CheckpointMismatch line), before Ray starts or a run folder is claimed."""
    if cfg.get("init_from"):
        from agents.checkpoint import check_compatible, read_metadata

        check_compatible(read_metadata(cfg["init_from"]), build_game(cfg), cfg["encoder"],
                         where=f"checkpoint {cfg['init_from']}")


def learner_weights(algo) -> dict:
    from .rllib_env import LEARNER

    return algo.learner_group.get_weights([LEARNER])[LEARNER]


def set_learner_weights(algo, state: dict) -> None:
    """The learner's weights set in the learners and pushed to every env runner."""
    from .rllib_env import LEARNER

    algo.learner_group.set_weights({LEARNER: {k: np.asarray(v.detach() if hasattr(v, "detach") else v)
                                              for k, v in state.items()}})
    algo.env_runner_group.sync_weights(from_worker_or_learner_group=algo.learner_group, inference_only=True)


def set_pool(algo, pool: dict) -> None:
    """Every env runner's envs draw their opponents from ``pool`` from their next reset on."""
    def apply(runner):
        for e in runner.env.envs:
            e.unwrapped.set_pool(pool)
        return True

    algo.env_runner_group.foreach_env_runner(apply, local_env_runner=True)


# ------------------------------------------------------------------ the run
def env_steps(result: dict) -> int:
    """The env steps sampled so far (RLlib's lifetime counter; the learner's steps alone, as necro-train)."""
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME

    return int(result.get(ENV_RUNNER_RESULTS, {}).get(NUM_ENV_STEPS_SAMPLED_LIFETIME, 0)
               or result.get(NUM_ENV_STEPS_SAMPLED_LIFETIME, 0))


def learner_agent(cfg: dict, game, ckpt):
    """The exported learner as necro-eval loads a checkpoint of the game (its metadata checked against it)."""
    if game_name(cfg) == "necromunda":
        from agents.checkpoint import CheckpointAgent

        return CheckpointAgent(ckpt, game=game, name="learner")
    from ..evaluate import RulesetModelAgent

    return RulesetModelAgent.from_checkpoint(ckpt, game, "learner")


def match(cfg: dict, game, learner, spec: str, pairs: int, seed0: int) -> dict:
    """``learner`` against ``spec`` in paired games, as necro-eval plays them for the game: Necromunda's
    agents (evaluate.build_agent) and games; another game's scripts or checkpoints and its own loop
    (evaluate.ruleset_play)."""
    from ..evaluate import build_agent, paired_match, ruleset_play

    if game_name(cfg) == "necromunda":
        return paired_match(game, learner, build_agent(spec, game)[1], pairs, seed0=seed0)
    from .rllib_env import game_agent

    return paired_match(game, learner, game_agent(game_name(cfg), spec, game, seed=1), pairs, seed0=seed0,
                        play=ruleset_play)


def periodic(cfg, run, game, ckpt, timesteps, elapsed, log) -> tuple[list[dict], float]:
    """The exported policy against every opponent of ``eval.opponents`` (progress.csv, as necro-train's
    periodic evaluation); returns the rows and the mean score."""
    from ..common import append_csv
    from ..evaluate import summarize

    learner = learner_agent(cfg, game, ckpt)
    rows, pairs = [], max(1, cfg["eval"]["periodic_games"] // 2)
    for spec in cfg["eval"]["opponents"]:
        m = match(cfg, game, learner, spec, pairs, seed0=500_000)
        s = summarize("learner", spec, m)
        row = {"timesteps": timesteps, "seconds": round(elapsed, 1), "opponent": spec, "games": s["games"],
               "win": s["win"], "draw": s["draw"], "loss": s["loss"], "win_rate": round(s["win_rate"], 4),
               "score": round(s["score"], 4)}
        append_csv(run / "progress.csv", row)
        rows.append(row)
        log(f"[rllib] {timesteps} steps: vs {spec} {s['win']}-{s['draw']}-{s['loss']} (win rate {s['win_rate']:.2f})")
    return rows, sum(r["score"] for r in rows) / len(rows)


def league_step(cfg, run, game, ckpt, pool, snapshots, log) -> bool:
    """Score the learner (``ckpt``) against the pool; at ``rllib.snapshot_score`` or more it joins the pool
    as a frozen snapshot (the oldest dropped past ``rllib.pool_size``). Returns True if it joined."""
    from ..common import append_csv
    from ..evaluate import bradley_terry

    r = rl_section(cfg)
    learner = learner_agent(cfg, game, ckpt)
    pairs = max(1, cfg["eval"]["periodic_games"] // 2)
    scores, matches = [], []
    for i, spec in enumerate(pool):
        m = match(cfg, game, learner, spec, pairs, seed0=600_000)
        scores.append((m["win"] + 0.5 * m["draw"]) / m["games"])
        matches.append((0, i + 1, m["win"] + 0.5 * m["draw"], m["games"]))
    mean = float(np.mean(scores))
    joined = mean >= r["snapshot_score"]
    names = ["learner"] + [Path(s).stem if s.endswith(".zip") else s for s in pool]
    rating = bradley_terry(names, matches)["learner"]  # necro-eval's fit: Elo scale, random at 0 when in the pool
    append_csv(run / "league.csv", {"checkpoint": Path(ckpt).name, "pool": len(pool), "score_vs_pool": round(mean, 4),
                                    "rating": round(rating, 1), "joined": int(joined)})
    if joined:
        snapshots.append(str(ckpt))
        del snapshots[:-r["pool_size"]]
        log(f"[rllib] {Path(ckpt).name} scores {mean:.3f} against the pool: added as a frozen snapshot")
    return joined


def pool_of(cfg: dict, snapshots: list) -> dict:
    """The opponents drawn per episode: the config's (one spec or a mix) and the league's snapshots."""
    from ..common import opponent_weights

    pool = dict(opponent_weights(cfg["opponent"]))
    for s in snapshots:
        pool[s] = rl_section(cfg)["snapshot_weight"]
    return pool


def build_algo(cfg, pool, address=None, num_cpus=None, env_runners=None):
    connect(address, num_cpus=num_cpus)
    return ppo_config(cfg, pool, env_runners).build_algo()


def train_rllib(cfg: dict, run: Path, log=print, address=None, num_cpus=None, env_runners=None,
                max_seconds: float | None = None) -> dict:
    """Train ``cfg`` (backend: rllib) into the claimed run folder ``run``; returns the summary."""
    from necro_env.warmup import ensure as warm_up

    from ..common import write_json

    warm_up()
    game = build_game(cfg)
    snapshots: list[str] = []
    algo = build_algo(cfg, pool_of(cfg, snapshots), address, num_cpus, env_runners)
    (run / "checkpoints").mkdir(parents=True, exist_ok=True)
    for f in (run / "progress.csv", run / "league.csv"):
        f.unlink(missing_ok=True)
    if cfg.get("init_from"):  # a project checkpoint's policy as the start (issue 55 item 2)
        set_learner_weights(algo, import_checkpoint(cfg["init_from"], cfg, game, learner_weights(algo)))
        log(f"[rllib] started from {cfg['init_from']}")
    t0, steps, iters, next_eval = time.time(), 0, 0, cfg["eval"]["every"] or None
    while steps < cfg["total_timesteps"] and (max_seconds is None or time.time() - t0 < max_seconds):
        result = algo.train()
        iters += 1
        steps = env_steps(result)
        if iters % 10 == 1:
            log(f"[rllib] iteration {iters}: {steps} env steps, {steps / max(time.time() - t0, 1e-9):.0f} steps/s")
        if next_eval is not None and steps >= next_eval:
            ckpt = export_checkpoint(learner_weights(algo), cfg, game, run / "checkpoints" / f"step_{steps}.zip", steps)
            periodic(cfg, run, game, ckpt, steps, time.time() - t0, log)
            if rl_section(cfg)["league"] and league_step(cfg, run, game, ckpt, pool_of(cfg, snapshots), snapshots, log):
                set_pool(algo, pool_of(cfg, snapshots))
            next_eval += cfg["eval"]["every"]
    seconds = time.time() - t0
    final = export_checkpoint(learner_weights(algo), cfg, game, run / "final.zip", steps, {"selected": "last"})
    algo.stop()
    summary = {"backend": "rllib", "game": game_name(cfg), "timesteps": steps, "iterations": iters,
               "train_seconds": round(seconds, 1), "env_steps_per_second": round(steps / max(seconds, 1e-9), 1),
               "snapshots": snapshots, "final": str(final)}
    write_json(run / "summary.json", summary)
    log(f"[rllib] {steps} env steps in {iters} iterations, {seconds:.0f} s ({summary['env_steps_per_second']} "
        f"steps/s); final.zip written")
    return summary
