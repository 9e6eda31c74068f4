"""reward.shaping of a Firefight training config (added 2026-12-02): necro-train's Gymnasium env pays
shaping x the change of the objective balance (ruleset shaping_value) on each learner step, and nothing but the
result without it. The refusals of bad values are catalogue cases (tests/robustness/cases_firefight_training.py)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from necro_env import rulesets
from training.common import load_config
from training.train import ruleset_env_fn

TINY = Path(__file__).resolve().parents[2] / "configs" / "test" / "training" / "firefight_tiny.yaml"


def _play(cfg: dict, seed: int):
    """One random game in necro-train's env of ``cfg``: the rewards of the learner's steps, the objective
    balance (shaping_value) of the learner before its first step and at the end."""
    env = ruleset_env_fn(cfg, 0)().unwrapped
    env.reset(seed=seed)
    value = rulesets.get("firefight").shaping_value
    first, rewards, done = value(env.game, env.learner), [], False
    rng = np.random.default_rng(seed)
    while not done:
        _, r, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        rewards.append(r)
        done = term or trunc
    return rewards, first, value(env.game, env.learner), env


def _result(env) -> float:
    w = env.game.winner
    return 0.0 if w is None or w < 0 else (1.0 if w == env.learner else -1.0)


@pytest.mark.parametrize("seed", [0, 3])  # games whose balance changes before the end
def test_shaped_config_pays_the_objective_balance_on_each_step(seed):
    cfg = load_config(TINY, {"reward.shaping": 0.5})
    assert cfg["reward"]["shaping"] == 0.5
    rewards, first, last, env = _play(cfg, seed)
    assert any(r != 0 for r in rewards[:-1]), "no step before the end paid any shaping"
    assert sum(rewards[:-1]) + rewards[-1] == pytest.approx(_result(env) + 0.5 * (last - first))


def test_unshaped_config_pays_only_the_result():
    cfg = load_config(TINY)
    assert "shaping" not in cfg["reward"]
    rewards, _, _, env = _play(cfg, 3)
    assert all(r == 0 for r in rewards[:-1]) and rewards[-1] == _result(env)


def test_shaping_zero_is_the_unshaped_run():
    a, _, _, _ = _play(load_config(TINY, {"reward.shaping": 0.0}), 8)
    b, _, _, _ = _play(load_config(TINY), 8)
    assert a == b
