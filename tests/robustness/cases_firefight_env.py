"""Bad constructor arguments of firefight_v0 and of necro_env/Firefight-v0 (the generic RulesetAECEnv and
RulesetGymEnv, 2026-12-02): each refused in one line naming the value and what is allowed."""
from __future__ import annotations

from .catalogue import Case, refused

AREA = "Firefight env arguments"


def _env(**kw):
    from necro_env import firefight_v0

    return lambda: firefight_v0.raw_env(**kw)


def _gym(**kw):
    def make():
        from necro_env.envs.ruleset_gym import RulesetGymEnv

        return RulesetGymEnv("firefight", **kw)
    return make


def _reset_seed():
    from necro_env import firefight_v0

    e = firefight_v0.raw_env()
    e.reset(seed=1)
    before = [a.copy() for a in e.game.state]
    text = refused(lambda: e.reset(seed=-1), ValueError)
    assert all((a == b).all() for a, b in zip(before, e.game.state)), "a refused seed changed the game"
    return text


def _necromunda_generic():
    from necro_env.envs.ruleset_env import RulesetAECEnv

    return refused(lambda: RulesetAECEnv("necromunda"), NotImplementedError)


CASES = [
    Case("ffenv-encoder", AREA, 'firefight_v0.env(encoder="pixels")',
         r"encoder='pixels'; allowed: entity, flat, spatial",
         lambda: refused(_env(encoder="pixels"), ValueError)),
    Case("ffenv-render-mode", AREA, 'firefight_v0.env(render_mode="video")',
         r"render_mode='video'; allowed: None, 'ansi', 'rgb_array', 'human'",
         lambda: refused(_env(render_mode="video"), ValueError)),
    Case("ffenv-illegal-action", AREA, 'firefight_v0.env(illegal_action="ignore")',
         r"illegal_action='ignore'; allowed: 'raise', 'terminate'",
         lambda: refused(_env(illegal_action="ignore"), ValueError)),
    Case("ffenv-seed", AREA, "firefight_v0.env(seed=2.5)", r"seed must be an integer 0..2\*\*64-1 .*got 2.5",
         lambda: refused(_env(seed=2.5), ValueError)),
    Case("ffenv-reset-seed", AREA, "env.reset(seed=-1)", r"seed must be an integer 0..2\*\*64-1 .*got -1",
         _reset_seed),
    Case("ffenv-game-arg", AREA, "firefight_v0.env(gangs=3)", r"unknown game config field\(s\) 'gangs'; allowed: lists",
         lambda: refused(_env(gangs=3), ValueError)),
    Case("ffenv-round-limit", AREA, "firefight_v0.env(round_limit=0)", r"round_limit=0; allowed: a whole number 1..99",
         lambda: refused(_env(round_limit=0), ValueError)),
    Case("ffgym-learner", AREA, 'gymnasium.make("necro_env/Firefight-v0", learner=2)',
         r"learner=2; allowed: 'random' or a player index 0..1", lambda: refused(_gym(learner=2), ValueError)),
    Case("ffgym-opponent", AREA, 'gymnasium.make("necro_env/Firefight-v0", opponent="gunline")',
         r"opponent='gunline'; allowed: a callable .*agents.make_agent\('gunline'\)",
         lambda: refused(_gym(opponent="gunline"), ValueError)),
    Case("ffgym-reward", AREA, 'gymnasium.make("necro_env/Firefight-v0", reward={"kills": 1})',
         r"reward=\{'kills': 1\}; allowed: a dict with the keys win, loss, draw, shaping",
         lambda: refused(_gym(reward={"kills": 1}), ValueError)),
    Case("ffgym-render-mode", AREA, 'gymnasium.make("necro_env/Firefight-v0", render_mode="human")',
         r"render_mode='human'; allowed: None, 'ansi', 'rgb_array'",
         lambda: refused(_gym(render_mode="human"), ValueError)),
    Case("ffenv-ruleset-without-env", AREA, 'RulesetAECEnv("necromunda")',
         r"'encoders' is not supported by this game yet \(necromunda\)", _necromunda_generic),
    Case("ffenv-ruleset-unknown", AREA, 'RulesetAECEnv("chess")', r"unknown ruleset 'chess'; known: necromunda",
         lambda: refused(lambda: __import__("necro_env.envs.ruleset_env", fromlist=["x"]).RulesetAECEnv("chess"),
                         ValueError)),
]
