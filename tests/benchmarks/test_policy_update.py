"""benchmarks.policy_update: the default config's policy update and rollout step are timed and printed
(figures in docs/performance.md, measured by hand; nothing about time is asserted here)."""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # benchmarks/ is a top-level folder of the checkout, not an installed package
    sys.path.insert(0, str(ROOT))

from benchmarks import policy_update  # noqa: E402


def test_it_times_an_update_and_a_step_of_the_default_policy(capsys):
    import torch

    threads = torch.get_num_threads()
    policy_update.main(["--batch", "8", "--repeats", "1"])
    assert torch.get_num_threads() == threads  # the config's torch_threads only while it runs
    out = capsys.readouterr().out
    assert "encoder advised, extractor pointer" in out
    update = re.search(r"update of a 8-observation minibatch: ([0-9.]+) ms", out)
    step = re.search(r"rollout step on 4 observations: ([0-9.]+) ms", out)
    assert update and step and float(update.group(1)) > 0 and float(step.group(1)) > 0, out


def test_the_recorded_observations_are_legal_play():
    from necro_env.envs.necromunda_env import build_game

    game = build_game()
    obs, masks, acts = policy_update._observations(game, "entity", 20, seed=1)
    assert masks.shape[0] == acts.shape[0] == 20 and obs["fighters"].shape[0] == 20
    assert all(masks[i, a] for i, a in enumerate(acts))
