"""Agents that play necro_env games: one small interface (``Agent``), a masked uniform-random
agent, the three scripted heuristics (GUNLINE, AGGRESSOR, SENTRY), a search agent that switches
between compiled policies by simulating them (ROLLOUT, agents/search.py), a wrapper that plays a
saved MaskablePPO checkpoint, and a side agent that plays each gang with another agent
("sides:gunline,aggressor").
See docs/training.md.

    from agents import make_agent
    agent = make_agent("gunline", seed=0)         # or "random", "aggressor", "sentry", "rollout",
                                                  # "runs/x/checkpoints/last.zip",
                                                  # "sides:gunline,aggressor", a ppo_fast .pt (with game=)
    action = agent.act(obs, mask, game=game)      # game: the necro_env Game being played
"""
from .base import Agent, KernelAgent, SideAgent, agent_name, make_agent
from .checkpoint import CheckpointAgent, CheckpointMismatch
from .heuristic import AggressorAgent, AmbusherAgent, GunlineAgent, SentryAgent
from .random_agent import RandomAgent
from .search import RolloutAgent
from .game_agent import make_game_agent, play_match  # any game of the registry (Firefight's scripts)

__all__ = ["Agent", "KernelAgent", "RandomAgent", "GunlineAgent", "AggressorAgent", "SentryAgent", "AmbusherAgent",
           "CheckpointAgent", "CheckpointMismatch", "RolloutAgent", "SideAgent", "agent_name", "make_agent"]
