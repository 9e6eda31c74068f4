"""A PettingZoo AEC environment over any ruleset's ``Game``, through the ``Ruleset`` seam only (DESIGN.md §11).

``RulesetAECEnv("firefight", encoder="flat")`` builds its games with ``Ruleset.make_game`` from the game
arguments it is given, encodes observations with ``Ruleset.encoders``, draws with ``render_ansi`` /
``render_rgb`` and reads the round, the deciding player, the end and the winner from the state header
(core/header.py). So a new game gets its env by filling those fields; firefight_v0 is this class with
``ruleset="firefight"`` (written 2026-12-02; Necromunda's older env, necromunda_env.py, stays as it was).

Conventions are necromunda_v0's: agents ``<players>_0``, ``<players>_1``...; ``agent_selection`` is the
header's deciding player, which is not always the player whose turn it is (Firefight's strike-back and the
Caster helpers decide for the other side); observations ``{"observation", "action_mask"}``; actions are flat
codec indices (integers only); reward +1 / -1 to the winner / the others at the end, 0 for a draw or a game
cut short (truncation). Illegal actions raise ``IllegalActionError`` with the game unchanged, or with
``illegal_action="terminate"`` end the game with -1 for the offender and 0 for the others.
"""
from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .. import rulesets
from ..core import header as H
from ..core.errors import IllegalActionError, action_index

SEED_MAX = 2**64 - 1  # a game's seed is one uint64 (Game.reset), as necromunda_v0's
RENDER_MODES = ["ansi", "rgb_array", "human"]


def check_seed(seed, what: str = "seed") -> int:
    """``seed`` as an int when it is a whole number 0..2**64-1, else ValueError naming it."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) <= SEED_MAX:
        raise ValueError(f"{what} must be an integer 0..2**64-1 ({SEED_MAX}), got {seed!r} ({type(seed).__name__})")
    return int(seed)


def make_encoder(ruleset, name):
    """The ruleset's encoder called ``name``; ValueError naming the allowed ones."""
    known = ruleset.feature("encoders")()
    if not isinstance(name, str) or name not in known:
        raise ValueError(f"encoder={name!r}; allowed: {', '.join(known)}")
    return known[name]()


def _choice(name, value, allowed):
    if value not in allowed:
        raise ValueError(f"{name}={value!r}; allowed: {', '.join(map(repr, allowed))}")


def header(game, column: int) -> int:
    return int(game.state.g[0, column])


class RulesetAECEnv(AECEnv):
    """Any registered ruleset's game as a PettingZoo AEC env (module docstring). ``game_args`` go to the
    ruleset's ``make_game`` (Firefight: the fields of its ``GameConfig``)."""

    metadata = {"name": "ruleset_env", "render_modes": RENDER_MODES, "render_fps": 4, "is_parallelizable": False}

    def __init__(self, ruleset: str, encoder="entity", render_mode=None, illegal_action="raise", seed=None,
                 **game_args):
        super().__init__()
        _choice("render_mode", render_mode, [None, *RENDER_MODES])
        _choice("illegal_action", illegal_action, ["raise", "terminate"])
        seed = None if seed is None else check_seed(seed)
        self.ruleset = rulesets.get(ruleset)
        self.encoder = make_encoder(self.ruleset, encoder)  # before the game: a bad name costs no build
        self.game = self.ruleset.feature("make_game")(game_args)
        self.config = getattr(self.game, "config", None)
        self.metadata = {**self.metadata, "name": f"{self.ruleset.name}_v0"}
        self.render_mode, self.illegal_action = render_mode, illegal_action
        n = header(self.game, H.H_NPLAYERS)
        self.possible_agents = [f"{self.ruleset.players}_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.n_actions = int(self.game.n_actions)
        self._spaces()
        self._np_random = np.random.default_rng(seed)
        self._window = None
        self._ended, self._illegal_end = True, False
        self.game_seed = None
        self.agents = []

    def _spaces(self):
        mask = spaces.Box(0, 1, (self.n_actions,), np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": self.encoder.space(self.game), "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.n_actions) for a in self.possible_agents}
        known = self.ruleset.encoders()
        self._state_encoder = known["flat"]() if "flat" in known else self.encoder
        self.state_space = self._state_encoder.space(self.game)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ core API
    def reset(self, seed=None, options=None):
        """A new game: with ``seed`` deterministic (the env's generator re-seeded), else a seed drawn from it."""
        if seed is not None:
            game_seed = check_seed(seed)  # before anything changes
            self._np_random = np.random.default_rng(game_seed)
        else:
            game_seed = int(self._np_random.integers(0, 2**63 - 1))
        self.game_seed = game_seed
        self.game.reset(seed=game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._ended = self._illegal_end = False
        self.agent_selection = self.possible_agents[header(self.game, H.H_DPLAYER)]
        self._check_game_end()
        self._update_infos()

    def observe(self, agent):
        return {"observation": self.encoder.encode(self.game, self.agent_name_mapping[agent]),
                "action_mask": self.action_mask(agent).astype(np.int8)}

    def state(self):
        """A global view: the ``flat`` encoding from player 0's side (``state_space``)."""
        return self._state_encoder.encode(self.game, 0)

    def action_mask(self, agent=None):
        """The legal-action mask (bool) of ``agent`` (default: agent_selection); all False for the others."""
        agent = agent or self.agent_selection
        if self._ended or agent != self.agent_selection:
            return np.zeros(self.n_actions, np.bool_)
        return self.game.mask[0].copy()

    def step(self, action):
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(None, f"{agent} is still playing: None is only for terminated agents")
        try:
            self.game.step(action_index(action))  # raises before touching anything when illegal
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._terminate_illegal(agent)
            return
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        self._check_game_end()
        if not self._ended:
            self.agent_selection = self.possible_agents[header(self.game, H.H_DPLAYER)]
        self._accumulate_rewards()
        self._update_infos()
        if self._ended:
            self._deads_step_first()

    # ------------------------------------------------------------------ helpers
    def _check_game_end(self):
        if not header(self.game, H.H_DONE):
            return
        self._ended = True
        if header(self.game, H.H_TRUNC):  # cut short: no result, 0 for everyone
            self.truncations = {a: True for a in self.agents}
            return
        w = header(self.game, H.H_WINNER)
        for a in self.agents:
            self.terminations[a] = True
            if w >= 0:
                self.rewards[a] = 1 if self.agent_name_mapping[a] == w else -1

    def _terminate_illegal(self, offender):
        gymnasium.logger.warn(f"{offender} took an illegal action; the game ends (illegal_action='terminate')")
        self._cumulative_rewards[offender] = 0
        self._clear_rewards()
        self._ended = self._illegal_end = True
        for a in self.agents:
            self.terminations[a] = True
            self.rewards[a] = -1 if a == offender else 0
        self._accumulate_rewards()
        self._update_infos()
        self.infos[offender]["illegal_action"] = True
        self._deads_step_first()

    def _update_infos(self):
        g, names = self.game, self.ruleset.decision_names()
        deciding = header(g, H.H_DPLAYER)
        dk = names.get(header(g, H.H_DK), "none")
        self.infos = {}
        for a in self.agents:
            mine = not self._ended and self.agent_name_mapping[a] == deciding
            info = {"round": header(g, H.H_ROUND), "decision": dk if mine else "none"}
            if self._ended:
                w = header(g, H.H_WINNER)
                info["winner"] = self.possible_agents[w] if (header(g, H.H_DONE) and w >= 0) else None
            self.infos[a] = info

    # ------------------------------------------------------------------ rendering
    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.render_mode == "ansi":
            return self.ruleset.feature("render_ansi")(self.game, self.possible_agents)
        frame = self.ruleset.feature("render_rgb")(self.game, self.possible_agents)
        if self.render_mode == "rgb_array":
            return frame
        from PIL import Image

        from ..render.window import HumanWindow  # a tkinter window, as necromunda_v0's human mode

        if self._window is None:
            self._window = HumanWindow(f"necro_env: {self.metadata['name']}")
        self._window.show(Image.fromarray(frame))
        return None

    def close(self):
        if self._window is not None:
            self._window.close()
            self._window = None
