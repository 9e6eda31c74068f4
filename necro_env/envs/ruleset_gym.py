"""Gymnasium single-agent view of any ruleset's AEC env (envs/ruleset_env.py): the learner plays one side,
a fixed opponent the other(s). Registered for Firefight as ``necro_env/Firefight-v0``
(``gymnasium.make("necro_env/Firefight-v0", encoder="flat")``); ``action_masks()`` is the learner's legal mask
for sb3-contrib's ``MaskablePPO``. Written 2026-12-02 beside Necromunda's own wrapper (gym_wrapper.py), which
stays as it is.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from ..core import header as H
from ..core.errors import IllegalActionError
from .ruleset_env import RulesetAECEnv, action_index, check_seed, header


def random_opponent(obs, mask, rng: np.random.Generator) -> int:
    """Uniform over the legal actions (the default opponent)."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


@dataclass(frozen=True)
class ObjectiveReward:
    """win / loss / draw at the end, plus ``shaping`` x the change of the ruleset's ``shaping_value`` (Firefight:
    markers held minus the enemy's) over each learner step: potential-based, so a game's shaping sums to its
    final value minus its first."""

    win: float = 1.0
    loss: float = -1.0
    draw: float = 0.0
    shaping: float = 0.0

    @classmethod
    def from_config(cls, cfg) -> "ObjectiveReward":
        if cfg is None or isinstance(cfg, cls):
            return cfg or cls()
        names = [f.name for f in fields(cls)]
        if not isinstance(cfg, dict) or set(cfg) - set(names):
            raise ValueError(f"reward={cfg!r}; allowed: a dict with the keys {', '.join(names)}")
        bad = {k: v for k, v in cfg.items() if isinstance(v, bool) or not isinstance(v, (int, float))}
        if bad:
            raise ValueError(f"reward={cfg!r}; allowed: numbers for {', '.join(bad)}")
        return cls(**{k: float(v) for k, v in cfg.items()})

    def potential(self, ruleset, game, player: int) -> float:
        """``shaping`` x the ruleset's ``shaping_value`` of ``player`` (0.0 without shaping): the one place this
        product is computed, whose change over a learner step is that step's shaping."""
        if not self.shaping:
            return 0.0
        return self.shaping * ruleset.feature("shaping_value")(game, player)


class RulesetGymEnv(gymnasium.Env):
    """One side of a ruleset's game as a Gymnasium env.

    ruleset: the registry's name. learner: the player index the agent plays, or "random" (drawn per reset).
    opponent: ``opponent(obs, mask, rng) -> action`` for the other player(s), or an agent with
    ``act(obs, mask, game=None)`` (given the Game, and an observation only when its ``encoder`` attribute names
    one); default: uniform random legal actions. reward: an ``ObjectiveReward`` or a dict of its fields.
    render_mode: None, "ansi" or "rgb_array". illegal_action: "raise" or "terminate" (episode over, -1).
    seed: seeds ``np_random`` now, as ``reset(seed=...)`` would. Everything else goes to the AEC env (the encoder
    and the game arguments).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(self, ruleset: str, learner=0, opponent=None, reward=None, render_mode=None,
                 illegal_action="raise", seed=None, **env_args):
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode={render_mode!r}; allowed: None, 'ansi', 'rgb_array'")
        if illegal_action not in ("raise", "terminate"):
            raise ValueError(f"illegal_action={illegal_action!r}; allowed: 'raise', 'terminate'")
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(check_seed(seed))
        self.reward_spec = ObjectiveReward.from_config(reward)
        self.opponent = _check_opponent(random_opponent if opponent is None else opponent)
        self.aec = RulesetAECEnv(ruleset, render_mode=render_mode, **env_args)
        self.game, self.encoder, self.ruleset = self.aec.game, self.aec.encoder, self.aec.ruleset
        self.n_players = len(self.aec.possible_agents)
        if not (learner == "random" or (isinstance(learner, (int, np.integer)) and not isinstance(learner, bool)
                                        and 0 <= learner < self.n_players)):
            raise ValueError(f"learner={learner!r}; allowed: 'random' or a player index 0..{self.n_players - 1}")
        self.learner_mode, self.learner = learner, 0 if learner == "random" else int(learner)
        self.render_mode, self.illegal_action = render_mode, illegal_action
        self.observation_space = self.encoder.space(self.game)
        self.action_space = spaces.Discrete(self.game.n_actions)
        self._illegal_end, self._phi = False, 0.0

    # ------------------------------------------------------------------ API
    def reset(self, *, seed=None, options=None):
        super().reset(seed=None if seed is None else check_seed(seed))
        if self.learner_mode == "random":
            self.learner = int(self.np_random.integers(self.n_players))
        self.game.reset(seed=int(self.np_random.integers(0, 2**63 - 1)))
        self._illegal_end = False
        self._play_opponents()
        self._phi = self._potential()
        return self._obs(), self._info()

    def step(self, action):
        if self._over():
            raise RuntimeError("step() called on a finished episode; call reset()")
        try:
            self.game.step(action_index(action))  # raises before touching anything when illegal
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._illegal_end = True
            return self._obs(), self.reward_spec.loss, True, False, {**self._info(), "illegal_action": True}
        self._play_opponents()
        phi = self._potential()
        reward, self._phi = phi - self._phi, phi
        done = bool(header(self.game, H.H_DONE))
        truncated = done and bool(header(self.game, H.H_TRUNC))
        if done:
            reward += self._terminal(truncated)
        return self._obs(), reward, done and not truncated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (bool); all False when the episode is over."""
        if self._over() or header(self.game, H.H_DPLAYER) != self.learner:
            return np.zeros(self.game.n_actions, np.bool_)
        return self.game.mask[0].copy()

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        return self.aec.render()

    def close(self):
        self.aec.close()

    # ------------------------------------------------------------------ helpers
    def _over(self) -> bool:
        return bool(header(self.game, H.H_DONE)) or self._illegal_end

    def _play_opponents(self):
        g, opp = self.game, self.opponent
        while not header(g, H.H_DONE) and header(g, H.H_DPLAYER) != self.learner:
            side, mask = header(g, H.H_DPLAYER), g.mask[0].copy()
            if hasattr(opp, "act"):  # an agents.Agent: the Game, and its own encoder's observation
                enc = getattr(opp, "encoder", None)
                obs = None if enc is None else self._encoder(enc).encode(g, side)
                g.step(action_index(opp.act(obs, mask, game=g)))
            else:  # the default random opponent ignores the observation: skip encoding it
                obs = None if opp is random_opponent else self.encoder.encode(g, side)
                g.step(action_index(opp(obs, mask, self.np_random)))

    def _encoder(self, name):
        from .ruleset_env import make_encoder

        return self.encoder if name == self.encoder.name else make_encoder(self.ruleset, name)

    def _potential(self) -> float:
        return self.reward_spec.potential(self.ruleset, self.game, self.learner)

    def _terminal(self, truncated: bool) -> float:
        w = header(self.game, H.H_WINNER)
        if truncated or w < 0:
            return self.reward_spec.draw
        return self.reward_spec.win if w == self.learner else self.reward_spec.loss

    def _obs(self):
        return self.encoder.encode(self.game, self.learner)

    def _info(self):
        done = bool(header(self.game, H.H_DONE))
        dk = self.ruleset.decision_names().get(header(self.game, H.H_DK), "none")
        return {"round": header(self.game, H.H_ROUND), "learner": self.learner, "decision": "none" if done else dk,
                "winner": header(self.game, H.H_WINNER) if done else None}


def _check_opponent(opp):
    if callable(opp) or hasattr(opp, "act"):
        return opp
    hint = f"; for a named agent: agents.make_agent({opp!r})" if isinstance(opp, str) else ""
    raise ValueError(f"opponent={opp!r}; allowed: a callable opponent(obs, mask, rng) -> action or an agent{hint}")
