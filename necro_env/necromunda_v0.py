"""PettingZoo entry point, as ``pettingzoo.classic.connect_four_v3``::

    from necro_env import necromunda_v0
    env = necromunda_v0.env(encoder="flat")       # OrderEnforcingWrapper(raw_env(...))
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

``GameConfig`` is the game's build parameters (``env.unwrapped.config``; docs/api.md, "The game
config"), ``config_json(env)`` their JSON, for checkpoints and replays.
"""
from necro_env.envs.necromunda_env import env, raw_env
from necro_env.rulesets.necromunda.game import IllegalActionError
from necro_env.rulesets.necromunda.game_config import GameConfig, config_json

__all__ = ["env", "raw_env", "IllegalActionError", "GameConfig", "config_json"]
