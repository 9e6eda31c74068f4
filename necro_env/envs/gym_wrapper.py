"""Gymnasium single-agent view of necromunda_v0: the learner plays one gang, opponents play the rest.

Registered as ``necro_env/Necromunda-v0`` (``gymnasium.make("necro_env/Necromunda-v0", encoder="flat")``).
``action_masks()`` returns the learner's legal-action mask for sb3-contrib's
``MaskablePPO``.
"""
from __future__ import annotations

from typing import Callable, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from ..rulesets.necromunda.game import IllegalActionError
from ..rulesets.necromunda.game_config import check_seed
from .necromunda_env import action_index, raw_env
from ..rulesets.necromunda.render_text import render_text
from .rewards import RewardSpec

Opponent = Callable[[object, np.ndarray, np.random.Generator], int]


def random_opponent(obs, mask, rng: np.random.Generator) -> int:
    """Uniform over the legal actions (the default opponent)."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


class NecromundaGymEnv(gymnasium.Env):
    """One gang of a Necromunda game as a Gymnasium env.

    Parameters: every argument of ``necromunda_v0.raw_env`` (scenario, board, gangs, num_gangs,
    round_limit, variant, max_fighters, max_weapons, max_doors, max_caskets, encoder,
    record_replay, ...: passed through to it, so the two never list them apart), with the
    wrapper's own meaning for

    render_mode: None or "ansi". illegal_action: "raise" or "terminate" (episode over, -1).
    seed: seeds ``np_random`` at construction, as ``reset(seed=...)`` would, so that plain
        ``reset()`` calls are reproducible (default: fresh entropy at the first reset).
    record_replay: as the env's: every game's decisions, the learner's and the opponents'.

    and

    learner: the gang index the agent plays, or ``"random"`` (drawn per reset).
    opponents: one callable ``opponent(obs, mask, rng) -> action`` for all
        other gangs, or a sequence with one per gang index (the learner's entry
        is ignored). ``obs`` is the encoder output from that gang's point of
        view, ``mask`` the bool legal mask, ``rng`` the env's seeded generator.
        Default: uniform random legal actions. An ``agents.Agent`` (any object
        with ``act(obs, mask, game=None)``) is called with the Game itself
        (``game=self.game``) and only gets an observation when its ``encoder``
        attribute names one.
    reward: a ``RewardSpec`` or dict of its fields (necro_env/envs/rewards.py):
        draw reward and shaping for enemy fighters taken out / injured.

    The observation is the encoder's output (a Dict for ``entity``, a Box for
    ``flat`` / ``spatial``); the reward is +1 / -1 when the learner's gang
    wins / loses, 0 otherwise (draws, truncation by the round limit), unless
    ``reward`` sets other values or shaping.
    ``illegal_action="raise"`` (default) raises ``IllegalActionError`` for a
    masked action; ``"terminate"`` ends the episode with reward -1.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, learner=0, opponents: Opponent | Sequence[Opponent] | None = None, reward=None,
                 render_mode=None, illegal_action="raise", seed=None, **env_args):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if illegal_action not in ("raise", "terminate"):
            raise ValueError(f"illegal_action must be 'raise' or 'terminate', got {illegal_action!r}")
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(check_seed(seed))
        # the env's arguments go through unlisted (before 2026-12-01 a copied list lacked variant and seed);
        # the wrapper renders and handles illegal actions itself, and its np_random draws the game seeds
        self.aec = raw_env(render_mode=None, illegal_action="raise", **env_args)
        self.config = self.aec.config  # the GameConfig every episode's game is built from
        self.game = self.aec.game
        self.encoder = self.aec.encoder
        self.n_gangs = self.game.dims.n_gangs
        if not (learner == "random" or (isinstance(learner, (int, np.integer)) and 0 <= learner < self.n_gangs)):
            raise ValueError(f"learner must be 'random' or a gang index 0..{self.n_gangs - 1}, got {learner!r}")
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.learner_mode = learner
        self.learner = 0 if learner == "random" else int(learner)
        self.opponents = _opponent_list(random_opponent if opponents is None else opponents, self.n_gangs)
        self.observation_space = self.encoder.space(self.game)
        self.action_space = spaces.Discrete(self.game.n_actions)
        self._illegal_end = False
        self.reward_spec = RewardSpec.from_config(reward)
        self._phi = 0.0

    # ------------------------------------------------------------------ API
    def reset(self, *, seed=None, options=None):
        super().reset(seed=None if seed is None else check_seed(seed))  # Gymnasium takes Python ints only
        if self.learner_mode == "random":
            self.learner = int(self.np_random.integers(self.n_gangs))
        if self.aec.board_draw is not None:  # board="generate:KIND:train": a new board every episode
            self.aec._draw_board(self.np_random)
            self.game = self.aec.game
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self.game.reset(game_seed)
        if self.aec._recorder is not None:
            self.aec._recorder.start(self.game, game_seed, [f"gang_{i}" for i in range(self.n_gangs)])
        self._illegal_end = False
        self._play_opponents()
        self._phi = self.reward_spec.casualty_value(self.game, self.learner)
        return self._obs(), self._info()

    def step(self, action):
        if self.game.done or self._illegal_end:
            raise RuntimeError("step() called on a finished episode; call reset()")
        index = action_index(action)
        try:
            self._apply(index)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            if self.aec._recorder is not None:
                self.aec._recorder.finish(illegal=True)
            self._illegal_end = True
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), -1.0, True, False, info
        self._play_opponents()
        g = self.game
        phi = self.reward_spec.casualty_value(g, self.learner)
        reward = phi - self._phi
        self._phi = phi
        terminated = truncated = False
        if g.done:
            truncated = g.truncated
            terminated = not truncated
            reward += self.reward_spec.terminal(g, self.learner)
        return self._obs(), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (bool), all False when the episode is over."""
        if self.game.done or self._illegal_end or self.game.current_gang != self.learner:
            return np.zeros(self.game.n_actions, np.bool_)
        return self.game.mask[0].copy()

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        return render_text(self.game, [f"gang_{i}" for i in range(self.n_gangs)])

    def close(self):
        self.aec.close()  # finishes a replay being recorded

    # ------------------------------------------------------------------ helpers
    def _play_opponents(self):
        g = self.game
        while not g.done and g.current_gang != self.learner:
            gang = g.current_gang
            opp = self.opponents[gang]
            if hasattr(opp, "act"):  # an agents.Agent: gets the Game, and its own encoder's observation
                enc = getattr(opp, "encoder", None)
                obs = None if enc is None else self._opponent_encoder(enc).encode(g, gang)
                self._apply(action_index(opp.act(obs, g.mask[0].copy(), game=g)))
                continue
            # the default random opponent ignores the observation: skip encoding it
            obs = None if opp is random_opponent else self.encoder.encode(g, gang)
            self._apply(action_index(opp(obs, g.mask[0].copy(), self.np_random)))

    def _apply(self, index: int):
        """Play one decision of the game (any gang's), and record it with record_replay."""
        g = self.game
        gang, rnd = g.current_gang, g.round
        g.step(index)  # raises IllegalActionError before touching anything
        if self.aec._recorder is not None:
            self.aec._recorder.step(index, gang, rnd)

    def _opponent_encoder(self, name):
        if name == self.encoder.name:
            return self.encoder
        cache = self.__dict__.setdefault("_opp_encoders", {})
        if name not in cache:
            from .encoders import make_encoder
            cache[name] = make_encoder(name)
        return cache[name]

    def _obs(self):
        return self.encoder.encode(self.game, self.learner)

    def _info(self):
        g = self.game
        return {"round": g.round, "learner": self.learner, "decision": g.decision[0] if not g.done else "none",
                "winner": g.winner if g.done else None}


def _is_opponent(x) -> bool:
    return callable(x) or hasattr(x, "act")


def _opponent_list(opponents, n_gangs: int) -> list:
    """One opponent per gang from one callable or agent, or a list of them (one per gang). A name such
    as "gunline" is refused with the way to make it an agent: this layer imports no agent module
    (agents.make_agent builds every named agent, docs/training.md "Agents")."""
    if _is_opponent(opponents):
        return [opponents] * n_gangs
    if isinstance(opponents, str):
        raise ValueError(f"opponents={opponents!r}: give a callable opponent(obs, mask, rng) -> action or an "
                         f"agent, not a name; for a named agent: opponents=agents.make_agent({opponents!r})")
    try:
        listed = list(opponents)
    except TypeError:
        raise ValueError(f"opponents: give one callable or agent, or a list of one per gang ({n_gangs}); "
                         f"got {opponents!r} ({type(opponents).__name__})") from None
    if len(listed) != n_gangs:
        raise ValueError(f"opponents: give one callable or agent, or one per gang ({n_gangs}); got {len(listed)}")
    for i, opp in enumerate(listed):
        if not _is_opponent(opp):
            raise ValueError(f"opponents[{i}]={opp!r}: each opponent is a callable or an agent"
                             + (f"; for a named agent: agents.make_agent({opp!r})" if isinstance(opp, str) else ""))
    return listed
