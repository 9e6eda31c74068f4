"""Writing replays: ``Recorder`` (used by the env's ``record_replay`` option) and ``record``.

A ``Recorder`` wraps one ``Game``: ``start(seed)`` after ``game.reset(seed)`` writes the header and
the reset record, ``step(index, gang, round_)`` after each ``game.step`` writes the step's events,
``finish()`` writes the end record and closes the file. The header's ``config`` is the game's
``GameConfig.to_json()`` (for Necromunda necro_env/rulesets/necromunda/game_config.py): every build parameter,
``variant`` included, and for a drawn board the one seed it was drawn with, so ``verify`` rebuilds
the very game. A replay written before 2026-12-01 has no ``variant``: it means the scenario's.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .. import __version__
from ..core.header import H_DPLAYER
from ..rulesets import get
from .format import FORMAT_NAME, FORMAT_VERSION, data_hashes, event_rows, names_of, ruleset_code_hash, state_hash


class Recorder:
    """Writes one game to a JSON Lines replay file."""

    def __init__(self, path, game, config: dict, agent_names=None):
        self.path = Path(path)
        self.game = game
        self.config = config
        self.agent_names = agent_names
        self._fh = None
        self.n = 0

    def _write(self, obj):
        self._fh.write(json.dumps(obj, separators=(",", ":")) + "\n")

    def start(self, seed: int):
        """Call right after ``game.reset(seed)``."""
        self.close()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = open(self.path, "w", encoding="utf-8")
        self.n = 0
        g = self.game
        self._write({
            "type": "header", "format": FORMAT_NAME, "version": FORMAT_VERSION, "env_version": __version__,
            "ruleset": {"name": g.ruleset, "code": ruleset_code_hash()},
            "hashes": data_hashes(g), "config": self.config, "seed": int(seed),
            "names": names_of(g, self.agent_names),
        })
        self._write({"type": "reset", "round": g.round, "events": event_rows(g), "state": state_hash(g)})

    def step(self, index: int, gang: int, round_: int):
        """Call right after ``game.step(index)``; ``gang`` decided, ``round_`` is the round before the step."""
        if self._fh is None:
            return
        g = self.game
        self._write({"type": "step", "i": self.n, "gang": int(gang), "action": int(index), "round": int(round_),
                     "events": event_rows(g), "state": state_hash(g)})
        self.n += 1
        if g.done:
            self.finish()

    def finish(self, illegal: bool = False):
        """Write the end record (the game may be unfinished) and close the file."""
        if self._fh is None:
            return
        g = self.game
        self._write({"type": "end", "steps": self.n, "done": bool(g.done), "winner": int(g.winner) if g.done else -1,
                     "truncated": bool(g.truncated), "illegal": bool(illegal)})
        self.close()

    def close(self):
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    @property
    def active(self):
        return self._fh is not None


def _deciding(game) -> int:
    """The player deciding now, from the state header (every ruleset's)."""
    return int(game.state.g[0, H_DPLAYER])


def random_policy(game, rng):
    """Uniformly random legal action (the default policy of ``record``)."""
    return int(rng.choice(game.legal_actions()))


def closing_policy(game, rng):
    """A simple demo player (not a baseline) that seeks combat: the game's own ``closing`` demo player
    (``Ruleset.demo_players``; Necromunda's: Coup de Grace > Fight > Charge > Shoot > the move that ends closest
    to an enemy). A game without demo players is refused in one line."""
    return get(game.ruleset).feature("demo_players")()["closing"](game, rng)


POLICIES = {"random": random_policy, "closing": closing_policy}


def record(path, seed: int = 0, policy=None, policy_seed=None, max_steps=None, ruleset="necromunda", **config):
    """Play one game and write its replay to ``path``; returns the path.

    ``config`` are ``GameConfig`` fields (scenario, board, gangs, num_gangs, round_limit, variant, ...);
    ``policy(game, rng) -> index`` picks every decision (default: uniformly random legal actions,
    drawn from ``numpy.random.default_rng(policy_seed if given else seed)``). ``max_steps`` stops
    early (the replay then holds an unfinished game). ``ruleset`` names the game of the registry, which builds
    it from ``config`` (``Ruleset.make_game``).
    """
    game = get(ruleset).feature("make_game")(config)
    cfg = game.config.to_json()  # before playing: a config a replay cannot hold fails first
    game.reset(int(seed))
    rng = np.random.default_rng(seed if policy_seed is None else policy_seed)
    policy = policy or random_policy
    rec = Recorder(path, game, cfg)
    rec.start(seed)
    n = 0
    while not game.done and (max_steps is None or n < max_steps):
        gang, rnd = _deciding(game), game.round
        idx = policy(game, rng)
        game.step(idx)
        rec.step(idx, gang, rnd)
        n += 1
    rec.finish()
    return Path(path)


class EnvRecorder:
    """The env's ``record_replay`` option: one replay per game (``reset`` to the game's end or ``close``).

    ``target`` is a file path ending in ``.jsonl`` (each game overwrites it, unless the name holds
    ``{episode}`` or ``{seed}``, which are filled in), or a directory (one file
    ``game_<episode>_seed<seed>.jsonl`` per game). Each game is recorded with its own ``Game`` and
    that game's config (``game.config``): a board drawn at reset is a new Game, named by its seed.
    """

    def __init__(self, target):
        self.target = str(target)
        self.episode = 0
        self.rec = None
        self.last_path = None

    def path_for(self, seed) -> Path:
        t = self.target
        if "{" in t:
            return Path(t.format(episode=self.episode, seed=seed))
        if t.endswith(".jsonl"):
            return Path(t)
        return Path(t) / f"game_{self.episode:05d}_seed{seed}.jsonl"

    def start(self, game, seed, agent_names=None):
        """Call right after ``game.reset(seed)``."""
        self.finish()
        self.last_path = self.path_for(seed)
        self.rec = Recorder(self.last_path, game, game.config.to_json(), agent_names)
        self.rec.start(seed)
        self.episode += 1

    def step(self, index, gang, round_):
        if self.rec is not None:
            self.rec.step(index, gang, round_)

    def finish(self, illegal=False):
        if self.rec is not None:
            self.rec.finish(illegal=illegal)
            self.rec = None
