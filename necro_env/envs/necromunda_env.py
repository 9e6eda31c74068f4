"""The PettingZoo AEC environment ``necromunda_v0`` (see docs/api.md).

``raw_env`` is the bare ``AECEnv``; ``env()`` wraps it like PettingZoo's
classic environments (``OrderEnforcingWrapper``). Illegal actions raise
``IllegalActionError`` (the game is left unchanged) unless the env was made
with ``illegal_action="terminate"``, which ends the game with -1 for the
offender and 0 for the others, as PettingZoo's ``TerminateIllegalWrapper``.
"""
from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core.errors import _ACTION_TYPES, action_index  # noqa: F401 - action_index also imported from here (gym_wrapper)
from ..rulesets.necromunda.game import Game, IllegalActionError
from ..rulesets.necromunda.game_config import GameConfig, check_seed
from ..rulesets.necromunda.state import DK_NAMES, G_DGANG, G_DK, GG_OUT
from .encoders import FlatEncoder, make_encoder
from ..rulesets.necromunda.render_text import render_text


def build_game(scenario=None, board=None, gangs=None, num_gangs=None, round_limit=None, max_fighters=None,
               max_weapons=4, max_doors=None, max_caskets=None, variant=None) -> Game:
    """``GameConfig(...).build()``: a ``Game`` from a scenario with optional overrides (the env
    constructor's game arguments; their meaning: ``GameConfig``, docs/api.md). Kept as a function
    because many callers build games this way (training, benchmarks, replay verification)."""
    return GameConfig(scenario, board, gangs, num_gangs, round_limit, max_fighters, max_weapons, max_doors,
                      max_caskets, variant).build()




def action_indices(actions, n: int) -> np.ndarray:
    """``[n]`` int64 action indices of a batch: an integer array-like of shape (n,) (the batched
    and vector envs' ``step``). Floats, bools, strings raise IllegalActionError, as ``action_index``."""
    a = np.asarray(actions)
    if a.dtype.kind not in "iu":
        raise IllegalActionError(f"{a.reshape(-1)[0].item()!r} (game 0)" if a.size else repr(actions),
                                 f"actions must be integers ({_ACTION_TYPES} per game); got an array of dtype {a.dtype}")
    a = np.ascontiguousarray(a.reshape(-1), np.int64)
    if a.shape != (n,):
        raise ValueError(f"actions must have shape ({n},), got {a.shape}")
    return a


class raw_env(AECEnv):
    """Necromunda (core rules, Zone Mortalis boards) as a PettingZoo AEC environment.

    Agents are ``gang_0 .. gang_{n-1}``; ``agent_selection`` is the gang that
    must take the next decision. Actions are flat indices of the action codec
    (``Discrete(n_actions)``, docs/api.md), integers only (``action_index``); observations are
    ``{"observation": <encoder output>, "action_mask": int8[n_actions]}``.
    ``config`` is the ``GameConfig`` the env builds its games from (``game.config``: the config
    of the game being played, a drawn board named by its seed).
    """

    metadata = {"name": "necromunda_v0", "render_modes": ["ansi", "rgb_array", "human"], "render_fps": 4,
                "is_parallelizable": False}

    def __init__(self, scenario=None, board=None, gangs=None, num_gangs=None, round_limit=None,
                 encoder="entity", render_mode=None, max_fighters=None, max_weapons=4, max_doors=None,
                 max_caskets=None, illegal_action="raise", seed=None, variant=None, record_replay=None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        if illegal_action not in ("raise", "terminate"):
            raise ValueError(f"illegal_action must be 'raise' or 'terminate', got {illegal_action!r}")
        seed = None if seed is None else check_seed(seed)
        # the game arguments have one home, GameConfig: this env, its board draws at reset, its replays and
        # the Gymnasium wrapper all build from it (before 2026-12-01 a draw dropped variant)
        loaded = GameConfig(scenario, board, gangs, num_gangs, round_limit, max_fighters, max_weapons, max_doors,
                            max_caskets, variant).load()
        self._loaded = loaded
        self.config = loaded.config  # variant filled in; for a board draw, max_doors and max_caskets too
        # board="generate:KIND:SEEDS" with several seeds: a new generated board at every reset (docs/boards.md)
        self.board_draw = loaded.draw
        self.board_seed = loaded.board_seed  # the generated board's seed (None for a board file)
        self.game = loaded.build()
        self.render_mode = render_mode
        self._window = None  # render_mode="human": a necro_env.render.window.HumanWindow, opened on first render
        # record_replay: a replay file path, or a directory for one file per game (docs/replays.md)
        self._recorder = None
        if record_replay is not None:
            from ..replay.record import EnvRecorder

            self.config.to_json()  # a config a replay cannot hold (gangs built in code) fails now, not at reset
            self._recorder = EnvRecorder(record_replay)
        self.illegal_action = illegal_action
        self.encoder = make_encoder(encoder)
        n = self.game.dims.n_gangs
        self.possible_agents = [f"gang_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = self.encoder.space(self.game)
        self.n_actions = self.game.n_actions
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": obs_space if i == 0 else self.encoder.space(self.game),
                "action_mask": spaces.Box(0, 1, (self.n_actions,), np.int8),
            })
            for i, a in enumerate(self.possible_agents)
        }
        self.action_spaces = {a: spaces.Discrete(self.n_actions) for a in self.possible_agents}
        self._state_encoder = FlatEncoder()
        self.state_space = self._state_encoder.space(self.game)
        self._np_random = np.random.default_rng(seed)
        self._ended = True  # until reset
        self._illegal_end = False
        self.game_seed = None
        self.agents = []

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ core API
    def reset(self, seed=None, options=None):
        """Start a new game. With ``seed`` the game is deterministic (``Game.reset(seed)``) and the
        internal generator is re-seeded; with ``seed=None`` a game seed is drawn from it."""
        if seed is not None:
            game_seed = check_seed(seed)  # before anything changes: a refused seed leaves the env as it was
            self._np_random = np.random.default_rng(game_seed)
        else:
            game_seed = int(self._np_random.integers(0, 2**63 - 1))
        self.game_seed = game_seed
        self._draw_board(self._np_random)
        self.game.reset(game_seed)
        if self._recorder is not None:
            self._recorder.start(self.game, game_seed, self.possible_agents)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._ended = False
        self._illegal_end = False
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self.game.current_gang]
        self._check_game_end()
        self._update_infos()

    def observe(self, agent):
        gang = self.agent_name_mapping[agent]
        if not self._ended and agent == self.agent_selection:
            mask = self.game.mask[0].astype(np.int8)
        else:
            mask = np.zeros(self.n_actions, np.int8)
        return {"observation": self.encoder.encode(self.game, gang), "action_mask": mask}

    def state(self):
        """A global view: the ``flat`` encoding from gang 0's point of view (``state_space``)."""
        return self._state_encoder.encode(self.game, 0)

    def action_mask(self, agent=None):
        """The legal-action mask (bool) of ``agent`` (default: agent_selection)."""
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
        index = action_index(action)
        rnd = self.game.round
        try:
            self.game.step(index)  # raises before touching anything when illegal
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            if self._recorder is not None:
                self._recorder.finish(illegal=True)
            self._terminate_illegal(agent)
            return
        if self._recorder is not None:
            self._recorder.step(index, self.agent_name_mapping[agent], rnd)
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        self._check_game_end()
        if not self._ended:
            self.agent_selection = self.possible_agents[self.game.current_gang]
        self._accumulate_rewards()
        self._update_infos()
        if self._ended:
            self._deads_step_first()

    # ------------------------------------------------------------------ helpers
    def _draw_board(self, rng):
        """With a board draw (board="generate:KIND:train" etc.): a new generated board from ``rng``,
        everything else as the env's config (the Game's ``config`` names the drawn seed)."""
        if self.board_draw is None:
            return
        seed, spec = self.board_draw.draw(rng)
        self.game = self._loaded.with_drawn_board(seed, spec).build()
        self.board_seed = seed

    def _check_game_end(self):
        game = self.game
        if not game.done:
            return
        self._ended = True
        if game.truncated:
            # round limit: no winner; a gang already out of the battle (free-for-all) lost (-1),
            # the gangs still fighting get 0 (docs/api.md, rewards)
            for a in self.agents:
                self.truncations[a] = True
                if game.state.gang[0, self.agent_name_mapping[a], GG_OUT]:
                    self.rewards[a] = -1
            return
        w = game.winner
        for a in self.agents:
            self.terminations[a] = True
            if w >= 0:
                self.rewards[a] = 1 if self.agent_name_mapping[a] == w else -1

    def _terminate_illegal(self, offender):
        gymnasium.logger.warn(f"{offender} took an illegal action; the game ends (illegal_action='terminate')")
        self._cumulative_rewards[offender] = 0
        self._clear_rewards()
        self._ended = True
        self._illegal_end = True
        for a in self.agents:
            self.terminations[a] = True
            self.rewards[a] = -1 if a == offender else 0
        self._accumulate_rewards()
        self._update_infos()
        self.infos[offender]["illegal_action"] = True
        self._deads_step_first()

    def _update_infos(self):
        g = self.game
        rnd = g.round
        dk = DK_NAMES.get(int(g.state.g[0, G_DK]), "none") if not self._ended else "none"
        dg = int(g.state.g[0, G_DGANG])
        self.infos = {}
        for a in self.agents:
            info = {"round": rnd, "decision": dk if (not self._ended and self.agent_name_mapping[a] == dg) else "none"}
            if self._ended:
                info["winner"] = (self.possible_agents[g.winner] if (g.done and g.winner >= 0) else None)
            self.infos[a] = info

    # ------------------------------------------------------------------ rendering
    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.render_mode == "ansi":
            return render_text(self.game, self.possible_agents)
        from ..rulesets.necromunda.rgb import HumanWindow, render_image

        image = render_image(self.game, agent_names=self.possible_agents)
        if self.render_mode == "rgb_array":
            return np.asarray(image, dtype=np.uint8).copy()
        if self._window is None:
            self._window = HumanWindow(f"necro_env: {self.game.board.name}")
        self._window.show(image)
        return None

    def close(self):
        if self._window is not None:
            self._window.close()
            self._window = None
        if self._recorder is not None:
            self._recorder.finish()


def env(**kwargs):
    """``raw_env(**kwargs)`` wrapped in PettingZoo's ``OrderEnforcingWrapper`` (as the classic envs)."""
    e = raw_env(**kwargs)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


# ---------------------------------------------------------------------------- documentation
_PARAM_TEXT = {
    "P_NONE": ("-", "1"),
    "P_FIGHTER": ("own fighter slot", "MF"),
    "P_CELL": ("cell y·W + x", "H·W"),
    "P_TARGET": ("relative fighter r", "G·MF"),
    "P_WEAPON_TARGET": ("(item·2 + profile)·G·MF + r", "MW·2·G·MF"),
    "P_ITEM": ("weapon item slot", "MW"),
    "P_DOOR": ("door index", "max_doors"),
    "P_CASKET": ("casket index", "max_caskets"),
    "P_FACING": ("facing 0-7 (N..NW)", "8"),
    "P_WEAPON_CELL": ("item·H·W + cell", "MW·H·W"),
}


def action_table_markdown(game) -> str:
    """The action codec's index ranges for one game, as a markdown table (docs/api.md)."""
    from ..rulesets.necromunda import codec as C

    names = {getattr(C, k): k for k in _PARAM_TEXT}
    d, lay = game.dims, game.layout
    lines = [
        f"G={d.n_gangs}, MF={d.max_fighters}, MW={d.max_weapons}, H×W={d.height}×{d.width}, "
        f"max_doors={d.max_doors}, max_caskets={d.max_caskets}: **n_actions = {game.n_actions}**",
        "",
        "| k | kind | parameter (offset inside the range) | size | first | last |",
        "|---|---|---|---|---|---|",
    ]
    for k, (name, pk) in enumerate(C.KINDS):
        text, form = _PARAM_TEXT[names[pk]]
        lines.append(f"| {k} | `{name}` | {text} | {form} = {lay[k + 1] - lay[k]} | {lay[k]} | {lay[k + 1] - 1} |")
    return "\n".join(lines)
