"""Agents for any game of the registry, built through the ruleset seam (added 2026-12-02 with Firefight's scripts).

``make_game_agent(game_name, spec, seed)`` returns an Agent that plays a ``Game`` of ``game_name``: a name of the
ruleset's ``scripts`` (``rulesets.get(name).scripts()``: compiled policies with the shared signature
``policy(s, st, b, lay, mask, prng)``) becomes a ``KernelAgent`` over that policy; for Necromunda every other spec
goes to ``make_agent`` unchanged. ``play_match`` plays one game between such agents, reading whose decision it is
from the state header (core/header.py), so it serves every ruleset.

    from agents import make_game_agent
    holder = make_game_agent("firefight", "holder", seed=1)
    action = holder.act(None, game.mask[0], game=game)
"""
from __future__ import annotations

from necro_env import rulesets
from necro_env.core.header import H_DPLAYER

from .base import KernelAgent, make_agent
from .play import GameResult, player_seed


def game_scripts(game_name: str) -> dict:
    """The ruleset's scripted policies by name ({} when it offers none through ``Ruleset.scripts``)."""
    rs = rulesets.get(game_name)
    return rs.scripts() if rs.scripts is not None else {}


def make_game_agent(game_name: str, spec: str, seed: int = 0, game=None) -> KernelAgent:
    """An agent of ``game_name`` from ``spec``: one of the ruleset's scripts, else (Necromunda only)
    ``make_agent(spec, seed, game)``; any other spec is refused in one line naming the scripts."""
    scripts = game_scripts(game_name)
    if spec in scripts:
        cls = type(f"{spec.capitalize()}Agent", (KernelAgent,), {"name": spec, "kernel": staticmethod(scripts[spec])})
        return cls(seed=seed)
    if game_name == "necromunda":
        return make_agent(spec, seed=seed, game=game)
    allowed = ", ".join(sorted(scripts)) or "none yet"
    raise ValueError(f"unknown {game_name} agent {spec!r}; allowed: {allowed}")


def play_match(game, agents, seed: int, max_decisions: int = 100_000) -> GameResult:
    """One game of any ruleset from ``game.reset(seed)``; ``agents[p]`` plays player p, reset with
    ``player_seed(seed, p)`` (its own generator, never the game's dice)."""
    game.reset(seed)
    for p, a in enumerate(agents):
        a.reset(player_seed(seed, p))
    n = 0
    while not game.done:
        p = int(game.state.g[0, H_DPLAYER])
        game.step(agents[p].act(None, game.mask[0], game=game))
        n += 1
        if n >= max_decisions:
            raise RuntimeError(f"game {seed} did not end after {max_decisions} decisions")
    return GameResult(seed, game.winner if not game.truncated else -1, game.truncated, game.round, n)
