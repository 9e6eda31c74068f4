"""Time of the default config's policy in training: one PPO minibatch update and one rollout step.

    python -m benchmarks.policy_update [--config configs/training/default.yaml] [--batch 256] [--repeats 20]

Builds the config's MaskablePPO model (the pointer policy over the ``advised`` encoder for the
default), records ``--batch`` observations, masks and actions of random legal play on its game, and
times, on the config's ``torch_threads``:

- update: ``policy.evaluate_actions`` on the batch, the PPO loss's backward pass and an optimizer
  step (what MaskablePPO does per minibatch: ``ppo.n_epochs`` x (``n_steps`` x ``n_envs`` /
  ``ppo.batch_size``) times per rollout);
- step: the policy's forward pass on ``n_envs`` observations with their masks, without gradients
  (what MaskablePPO's rollout collection calls at each step).

The median of ``--repeats`` timed runs after two untimed ones is printed, with the load average
(the machine may be shared). Nothing is asserted.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np


def _observations(game, encoder, n, seed=0):
    """n (observation, mask, action) triples of random legal play on ``game`` (a new game at each end)."""
    from necro_env.envs.encoders import make_encoder

    enc = make_encoder(encoder)
    rng = np.random.default_rng(seed)
    obs, masks, acts = [], [], []
    game.reset(seed)
    while len(obs) < n:
        if game.done:
            game.reset(int(rng.integers(1 << 30)))
            continue
        a = int(rng.choice(game.legal_actions()))
        obs.append(enc.encode(game, game.current_gang))
        masks.append(game.mask[0].copy())
        acts.append(a)
        game.step(a)
    stacked = {k: np.stack([o[k] for o in obs]) for k in obs[0]} if isinstance(obs[0], dict) else np.stack(obs)
    return stacked, np.stack(masks), np.array(acts)


def _median_ms(fn, repeats):
    for _ in range(2):
        fn()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1000 * statistics.median(times)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default=None, help="training YAML (default configs/training/default.yaml)")
    ap.add_argument("--batch", type=int, default=None, help="minibatch size (default: the config's ppo.batch_size)")
    ap.add_argument("--repeats", type=int, default=20)
    args = ap.parse_args(argv)

    import torch

    from training.common import load_config

    cfg = load_config(args.config)
    threads = torch.get_num_threads()
    torch.set_num_threads(cfg.get("torch_threads") or 1)
    try:
        _run(cfg, args)
    finally:
        torch.set_num_threads(threads)  # as it was: main() may run inside another process (the tests)


def _run(cfg, args):
    import torch

    from training.common import build_game_for, make_vec_env, new_model

    game = build_game_for(cfg)
    venv = make_vec_env({**cfg, "n_envs": 1, "vec_env": "dummy", "opponent": "random"})
    model = new_model(cfg, venv, None, game=game)
    pol = model.policy
    batch = args.batch or cfg["ppo"]["batch_size"]
    obs, masks, acts = _observations(game, cfg["encoder"], batch)
    obs_t, _ = pol.obs_to_tensor(obs)
    acts_t = torch.as_tensor(acts)

    def update():
        values, logp, entropy = pol.evaluate_actions(obs_t, acts_t, action_masks=masks)
        loss = -logp.mean() + 0.5 * values.pow(2).mean()
        pol.optimizer.zero_grad()
        loss.backward()
        pol.optimizer.step()

    n = cfg["n_envs"]
    step_obs, _ = pol.obs_to_tensor({k: v[:n] for k, v in obs.items()} if isinstance(obs, dict) else obs[:n])

    def step():
        with torch.no_grad():
            pol(step_obs, action_masks=masks[:n])

    up = _median_ms(update, args.repeats)
    st = _median_ms(step, args.repeats * 5)
    print(f"config {cfg['name']} (encoder {cfg['encoder']}, extractor {cfg['ppo'].get('extractor', 'default')}), "
          f"torch threads {torch.get_num_threads()}, load average {os.getloadavg()[0]:.2f}")
    print(f"update of a {batch}-observation minibatch: {up:.1f} ms (median of {args.repeats})")
    print(f"rollout step on {n} observations: {st:.2f} ms (median of {args.repeats * 5})")


if __name__ == "__main__":
    main()
