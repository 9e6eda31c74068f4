"""The PettingZoo AEC env of a game as RLlib sees it (``necro-train --backend rllib``; docs/distributed.md).

Three layers, each thin:

- the game's AEC env (``rulesets.get(game).env_module``, ``illegal_action="raise"``: an action the mask
  forbids raises, so a training run that finishes took none);
- ``ray.rllib.env.wrappers.pettingzoo_env.PettingZooEnv``, RLlib's wrapper of an AEC env: after the
  game ends it reports every seat's final observation and reward, the dead seats stepped with None;
- :class:`SeatEnv`, which renames each observation to RLlib's masking keys (``observations``,
  ``action_mask`` as float 0/1: the masking RLModule takes log(mask)), draws the learner's seat and its
  frozen opponent at every reset and plays the opponent's turns inside the env.

Why the opponents play inside the env and not as frozen RLModules: the scripted players read the whole
game state (they run the compiled kernels on ``game.state``), which no RLModule sees; one mechanism then
serves both the scripts and past snapshots (project checkpoints, ``agents.make_agent``), so a league's
pool is a list of agent specs as everywhere else in the project. RLlib sees one agent a game, the seat
the learner drew, mapped to the one trained module.

Rewards (2026-12-02) are the config's ``reward`` section as necro-train pays them (:class:`LearnerReward`):
win / loss / draw at the end, plus the change of a shaping potential over each learner step (the
opponent's replies included): Necromunda's casualty and approach terms (``necro_env.envs.rewards``, its
Gymnasium wrapper's), or another game's ``shaping`` x its ruleset's ``shaping_value`` (Firefight: objective
markers held minus the enemy's, as ``necro_env.envs.ruleset_gym`` pays it). Without shaping a step pays 0
and the last one +1 / -1 / 0, the AEC env's reward.

Pitfalls handled (issue 55): RLlib's env pre-check samples actions without the mask, which this env
refuses by raising, so the runs set ``disable_env_checking=True``; an episode where the learner would
never act (the opponent ends the game before the learner's first decision) is not started: the reset
draws the next seed instead, since RLlib cannot build an episode for an agent with no action.
"""
from __future__ import annotations

from importlib import import_module

import numpy as np

from . import require_ray

require_ray("ray.rllib")

import gymnasium as gym  # noqa: E402
from ray.rllib.env.multi_agent_env import MultiAgentEnv  # noqa: E402
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv  # noqa: E402

LEARNER = "learner"  # the one trained module; every seat maps to it


def aec_env(game: str, scenario=None, encoder: str = "flat"):
    """The game's PettingZoo AEC env, found through the registry, raising on any masked action."""
    from necro_env import rulesets

    mod = import_module(rulesets.get(game).env_module)
    where = {} if scenario is None else {"scenario": scenario}  # Firefight's env takes no scenario: its default game
    return mod.env(encoder=encoder, illegal_action="raise", **where)


def masked_space(space: gym.spaces.Dict) -> gym.spaces.Dict:
    """An AEC observation space (``observation``, ``action_mask``) under RLlib's masking keys."""
    n = space["action_mask"].shape[0]
    return gym.spaces.Dict({"observations": space["observation"],
                            "action_mask": gym.spaces.Box(0.0, 1.0, (n,), np.float32)})


def rename(obs: dict) -> dict:
    return {"observations": obs["observation"], "action_mask": np.asarray(obs["action_mask"], np.float32)}


class LearnerReward:
    """The reward of a training config's ``reward`` section, as the game's Gymnasium wrapper pays it to
    necro-train: ``terminal`` at the end (win / loss / draw; a game cut short is a draw) and ``potential``,
    whose change over a learner step is that step's shaping. Necromunda (its ruleset has no
    ``shaping_value``): ``RewardSpec`` of necro_env/envs/rewards.py, every field of the section. Another game:
    ``ObjectiveReward`` of necro_env/envs/ruleset_gym.py (win, loss, draw, shaping), ``shaping`` x the ruleset's
    ``shaping_value``. A field the game's reward does not know is refused naming the allowed ones."""

    def __init__(self, game: str, reward: dict | None):
        from necro_env import rulesets

        value = rulesets.get(game).shaping_value
        if value is None:
            from necro_env.envs.rewards import RewardSpec

            spec = RewardSpec.from_config(reward)
            self.potential = spec.casualty_value  # 0.0 when the spec has no shaping term
        else:
            from necro_env.envs.ruleset_gym import ObjectiveReward

            spec = ObjectiveReward.from_config(reward)
            rs = rulesets.get(game)
            self.potential = lambda g, p: spec.potential(rs, g, p)  # the one computation (ruleset_gym.py)
        self.win, self.loss, self.draw = spec.win, spec.loss, spec.draw

    def terminal(self, game, player: int) -> float:
        """The end's reward of ``player``, read from the state header (core/header.py) as the AEC env does."""
        from necro_env.core import header as H

        g = game.state.g[0]
        if g[H.H_TRUNC] or g[H.H_WINNER] < 0:
            return self.draw
        return self.win if int(g[H.H_WINNER]) == player else self.loss


def game_agent(game_name: str, spec: str, game, seed: int = 0):
    """An opponent of ``spec`` for ``game``: Necromunda's ``agents.make_agent`` (a checkpoint samples its
    actions, as necro-train's opponents do); for another game one of its ruleset's scripts
    (``agents.game_agent.make_game_agent``) or a checkpoint of it (training.evaluate.RulesetModelAgent, its most
    likely action: that class has no sampling mode)."""
    if game_name == "necromunda":
        from agents.base import make_agent

        return make_agent(spec, seed=seed, game=game, deterministic=False)
    if spec.endswith(".zip"):
        from ..evaluate import RulesetModelAgent

        return RulesetModelAgent.from_checkpoint(spec, game, spec)
    from agents.game_agent import make_game_agent

    return make_game_agent(game_name, spec, seed=seed)


class SeatEnv(MultiAgentEnv):
    """RLlib's multi-agent env over PettingZooEnv: the learner plays a random seat against an opponent drawn
    per episode from ``pool`` ({agent spec: weight}; :meth:`set_pool` changes it between iterations)."""

    def __init__(self, config: dict | None = None):
        super().__init__()
        cfg = dict(config or {})
        from necro_env.warmup import ensure as warm_up

        warm_up()
        self.game_name = cfg.get("game", "necromunda")
        self.reward = LearnerReward(self.game_name, cfg.get("reward"))  # before the env: a bad field builds nothing
        self.pz = PettingZooEnv(aec_env(self.game_name, cfg.get("scenario"), cfg.get("encoder", "flat")))
        self.raw = self.pz.env.unwrapped
        self.possible_agents = list(self.raw.possible_agents)
        self.agents = []
        self.observation_spaces = {a: masked_space(self.raw.observation_space(a)) for a in self.possible_agents}
        self.action_spaces = {a: self.raw.action_space(a) for a in self.possible_agents}
        self.rng = np.random.default_rng(cfg.get("seed", 0) + 7919 * getattr(config, "worker_index", 0)
                                         + 104729 * getattr(config, "vector_index", 0))
        self.built: dict = {}  # spec -> Agent, each opponent built once per env
        self.encoders: dict = {}  # encoder name -> encoder, for the opponents' observations
        self.set_pool(cfg.get("pool", {"random": 1.0}))
        self.learner, self.opponent, self.episodes, self.phi = None, None, 0, 0.0

    def set_pool(self, pool: dict) -> None:
        specs = list(pool)
        w = np.array([float(pool[s]) for s in specs])
        self.pool, self.weights = specs, w / w.sum()

    def _opponent(self, spec: str):
        if spec not in self.built:
            self.built[spec] = game_agent(self.game_name, spec, self.raw.game)
        return self.built[spec]

    def _encoder(self, name: str):
        """The opponent's own observation (a snapshot may read another encoder than the learner)."""
        from necro_env.envs.encoders import make_encoder

        if name not in self.encoders:
            self.encoders[name] = make_encoder(name)
        return self.encoders[name]

    def reset(self, *, seed=None, options=None):
        for _ in range(100):  # a game the opponent ends before the learner's first decision is skipped
            obs, _ = self.pz.reset(seed=seed, options=options)
            seed = None  # the next try, if any, draws its seed from the env's generator
            self.learner = self.possible_agents[int(self.rng.integers(len(self.possible_agents)))]
            self.opponent = self._opponent(self.pool[int(self.rng.choice(len(self.pool), p=self.weights))])
            self.opponent.reset(int(self.rng.integers(2**31)))
            obs, done = self._opponent_turns(obs)
            if not done:
                self.agents = [self.learner]
                self.episodes += 1
                self.phi = self.reward.potential(self.raw.game, self._seat())
                return {self.learner: rename(obs[self.learner])}, {}
        raise RuntimeError("100 games in a row ended before the learner's first decision")

    def step(self, action_dict):
        obs = self.pz.step({self.learner: int(action_dict[self.learner])})[0]
        obs, done = self._opponent_turns(obs)
        reward = self._reward(done)
        if done:
            self.agents = []
        truncated = done and bool(self.raw.game.truncated)  # the round limit: no winner
        terminated = done and not truncated
        return ({self.learner: rename(obs[self.learner])}, {self.learner: reward},
                {self.learner: terminated, "__all__": terminated}, {self.learner: truncated, "__all__": truncated}, {})

    def _seat(self) -> int:
        return self.raw.agent_name_mapping[self.learner]

    def _reward(self, done: bool) -> float:
        """The learner's step: the potential's change since its last decision (the opponent's replies
        included), and the terminal reward at the end (LearnerReward)."""
        game, seat = self.raw.game, self._seat()
        phi = self.reward.potential(game, seat)
        reward, self.phi = phi - self.phi, phi
        return float(reward + (self.reward.terminal(game, seat) if done else 0.0))

    def _opponent_turns(self, obs: dict):
        """Play the opponent until the learner decides or the game ends; (obs, done). After the end
        PettingZooEnv has reported every seat, the learner's final observation among them."""
        while self.raw.agents and self.raw.agent_selection != self.learner:
            game = self.raw.game
            seat = self.raw.agent_selection
            enc = getattr(self.opponent, "encoder", None)  # another game's agents encode for themselves
            o = None if enc is None else self._encoder(enc).encode(game, self.raw.agent_name_mapping[seat])
            a = self.opponent.act(o, game.mask[0], game=game)
            obs = self.pz.step({seat: int(a)})[0]
        done = not self.raw.agents
        if done and self.learner not in obs:  # the final observation (zero mask) when the wrapper skipped it
            obs = {**obs, self.learner: self.raw.observe(self.learner)}
        return obs, done
