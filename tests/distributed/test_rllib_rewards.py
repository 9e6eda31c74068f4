"""The training config's reward on the RLlib backend (2026-12-02; docs/distributed.md, "Rewards"): the env RLlib
samples (SeatEnv, built from ppo_config's env_config, as every env runner builds it) pays what necro-train's
Gymnasium wrapper pays for the same config: the terminal win / loss / draw, and with shaping the change of
the shaping potential over each learner step (Necromunda's casualty and approach terms; Firefight's
objective markers held). Before that date it paid the AEC env's +1 / -1 / 0 whatever the config said.
No Ray is started: the env is built and stepped in this process."""
import numpy as np
import pytest

from necro_env.core import header as H
from training.common import load_config
from training.distributed.rllib_env import SeatEnv
from training.distributed.rllib_train import ppo_config

TINY = {"rllib.num_env_runners": 0, "name": "rllib_rewards"}
UNSHAPED = {"reward.draw": 0.0, "reward.out_of_action": 0.0, "reward.seriously_injured": 0.0,
            "reward.own_losses": 0.0, "reward.approach": 0.0}


def env_of(cfg: dict, pool: dict) -> SeatEnv:
    """The env an env runner builds for ``cfg`` (the env_config of the run's PPOConfig)."""
    return SeatEnv(ppo_config(cfg, pool).env_config)


def play(env: SeatEnv, seed: int, potential=None):
    """One game, the learner's actions uniform over its mask: (rewards, its outcome for the learner, the
    potentials at the learner's first decision and at the end when ``potential(game, seat)`` is given)."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    seat = env.raw.agent_name_mapping[env.learner]
    start = None if potential is None else potential(env.raw.game, seat)
    rewards = []
    while True:
        (agent, o), = obs.items()
        obs, rew, term, trunc, _ = env.step({agent: int(rng.choice(np.flatnonzero(o["action_mask"])))})
        rewards.append(rew[agent])
        if term["__all__"] or trunc["__all__"]:
            end = None if potential is None else potential(env.raw.game, seat)
            return rewards, outcome(env.raw.game, seat), start, end


def outcome(game, seat: int) -> str:
    g = game.state.g[0]
    return "draw" if g[H.H_TRUNC] or g[H.H_WINNER] < 0 else ("win" if g[H.H_WINNER] == seat else "loss")


def test_an_unshaped_config_pays_only_the_terminal_reward():
    cfg = load_config("configs/training/rllib_flat.yaml", {**TINY, **UNSHAPED})
    env = env_of(cfg, {"random": 1.0, "gunline": 1.0})
    for seed in (1, 2):
        rewards, result, _, _ = play(env, seed)
        assert rewards[:-1] == [0.0] * (len(rewards) - 1)
        assert rewards[-1] == {"win": 1.0, "loss": -1.0, "draw": 0.0}[result]


def test_a_shaped_necromunda_config_pays_the_casualty_and_approach_potential():
    """rllib_flat.yaml extends flat.yaml, whose reward section shapes (a draw -0.5, casualties, approach):
    steps before the end pay, and a game's rewards add up to its terminal value plus the potential's change,
    the potential computed here by necro-train's own RewardSpec."""
    from necro_env.envs.rewards import RewardSpec

    cfg = load_config("configs/training/rllib_flat.yaml", TINY)
    spec = RewardSpec.from_config(cfg["reward"])
    assert spec.shaped and spec.draw == -0.5
    env = env_of(cfg, {"random": 1.0, "gunline": 1.0})
    rewards, result, start, end = play(env, 3, spec.casualty_value)
    assert any(r != 0.0 for r in rewards[:-1]), "no step before the end was shaped"
    terminal = {"win": spec.win, "loss": spec.loss, "draw": spec.draw}[result]
    assert sum(rewards) == pytest.approx(terminal + end - start)


def test_firefight_shaping_pays_the_objective_markers_held():
    """Firefight's shaping (its ruleset's shaping_value: markers held minus the enemy's, x ``shaping``, as its
    Gymnasium wrapper pays it); without shaping, the terminal reward of the config's values only."""
    from necro_env import rulesets

    value = rulesets.get("firefight").shaping_value
    env = SeatEnv({"game": "firefight", "seed": 4, "pool": {"holder": 1.0}, "reward": {"shaping": 0.5}})
    shaped = [play(env, seed, value) for seed in (5, 6)]
    assert any(r != 0.0 for rewards, *_ in shaped for r in rewards[:-1]), "no step before the end was shaped"
    for rewards, result, start, end in shaped:
        assert sum(rewards) == pytest.approx({"win": 1.0, "loss": -1.0, "draw": 0.0}[result] + 0.5 * (end - start))
    cfg = load_config("configs/training/firefight.yaml", {"backend": "rllib", "reward.draw": -0.25,
                                                          "reward.shaping": 0.0,
                                                          "opponent": {"holder": 1.0, "charger": 1.0}})
    plain = env_of(cfg, {"holder": 1.0, "charger": 1.0})
    rewards, result, _, _ = play(plain, 7)
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == {"win": 1.0, "loss": -1.0, "draw": -0.25}[result]


def test_the_training_configs_firefight_shaping_reaches_the_rllib_env():
    """reward.shaping of a Firefight training config (the shipped one says 0.2) is paid on the RLlib backend as
    necro-train's SB3 run pays it (training.train.ruleset_reward; before 2026-12-02 only win, loss and draw
    reached this env)."""
    from necro_env import rulesets

    value = rulesets.get("firefight").shaping_value
    cfg = load_config("configs/training/firefight.yaml", {"backend": "rllib", "opponent": {"holder": 1.0}})
    assert cfg["reward"]["shaping"] == 0.2
    env = env_of(cfg, {"holder": 1.0})
    moved = 0
    for seed in (5, 6):
        rewards, result, start, end = play(env, seed, value)
        assert sum(rewards) == pytest.approx({"win": 1.0, "loss": -1.0, "draw": 0.0}[result] + 0.2 * (end - start))
        moved += end != start
    assert moved, "the potential never changed: these games test nothing"


def test_a_reward_field_the_game_does_not_know_is_refused():
    with pytest.raises(ValueError, match=r"reward=\{'approach': 0\.1\}; allowed: a dict with the keys win, loss, "
                                         r"draw, shaping"):
        SeatEnv({"game": "firefight", "reward": {"approach": 0.1}})
