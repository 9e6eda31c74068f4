"""PettingZoo entry point of Grimdark Future: Firefight, as ``necromunda_v0`` and ``connect_four_v3``::

    from necro_env import firefight_v0
    env = firefight_v0.env(encoder="flat")       # OrderEnforcingWrapper(raw_env(...))
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Agents ``player_0`` and ``player_1``; ``agent_selection`` is the player who decides now, which is the other
side at a defender's strike-back and when a unit is asked to help or hinder a spell. The game arguments are
``GameConfig``'s fields (lists, board, round_limit, keep_away, keep_away_path, coherency, heights, max_units,
max_models, max_weapons); encoders ``entity``, ``flat``, ``spatial`` (docs/api.md, "Firefight observations");
render modes ``ansi``, ``rgb_array``, ``human``. The reward is +1 / -1 at the end to the side holding more /
fewer objective markers (§2.4), 0 for a draw; the Gymnasium wrapper ``necro_env/Firefight-v0``
(envs/ruleset_gym.py) adds optional shaping on the markers held.

There is no ``parallel_env()``: Firefight is turn-based (one unit activates at a time, alternately, and every
decision depends on the one before), so a parallel step would be one agent acting and the other passing; that
is what AEC says honestly (the issue asks for ``parallel_env`` "only where it is honest").
"""
from necro_env.core.errors import IllegalActionError
from necro_env.envs.ruleset_env import RulesetAECEnv
from necro_env.rulesets.firefight.game_config import GameConfig, config_json
from pettingzoo.utils import wrappers


class raw_env(RulesetAECEnv):
    """The bare AEC env: ``RulesetAECEnv`` with ``ruleset="firefight"``."""

    metadata = {**RulesetAECEnv.metadata, "name": "firefight_v0"}

    def __init__(self, encoder="entity", render_mode=None, illegal_action="raise", seed=None, **game_args):
        super().__init__("firefight", encoder=encoder, render_mode=render_mode, illegal_action=illegal_action,
                         seed=seed, **game_args)


def env(**kwargs):
    """``raw_env(**kwargs)`` wrapped in PettingZoo's ``OrderEnforcingWrapper`` (as the classic envs)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


__all__ = ["env", "raw_env", "IllegalActionError", "GameConfig", "config_json"]
