"""The Agent interface shared by every player (random, scripted, learned).

An agent owns its randomness: ``reset(seed)`` seeds the agent's own generator, and the
game's dice are never touched, so two agents swapped between sides see the same dice
stream (paired evaluation, training/evaluate.py).

``act(obs, mask, game=None)`` returns one legal flat action index for the gang that must
decide now. ``obs`` is that gang's encoder output (only agents with an ``encoder`` need
it: drivers skip encoding for agents whose ``encoder`` is None), ``mask`` the bool legal
mask, ``game`` the ``Game`` itself: the scripted agents read the full state from it (they
run the compiled kernels of necro_env/policies on ``game.state``), the learned agent does
not need it.

``act_batch`` plays one decision in each of several games (a list of (obs, mask, game));
kernel agents expose ``kernel``, the compiled policy with the shared signature
``policy(s, st, b, lay, mask, prng)``, so a batched engine can run them in place.
"""
from __future__ import annotations

import numpy as np

# the grammar of "sides:a,b" and "rollout(...):<spec>" and the compiled policies' names
# (necro_env/config/agent_spec.py), re-exported
from necro_env.config.agent_spec import POLICY_NAMES, SEARCH, SIDES, SpecError, search_spec, side_specs  # noqa: F401
from necro_env.core.rng import seed_game


class Agent:
    """Base class: subclasses set ``name`` and implement ``act``."""

    name = "agent"
    encoder: str | None = None  # encoder name the agent needs observations from, or None

    def reset(self, seed: int | None = None) -> None:
        """Seed the agent's own generator (called once per game by the drivers)."""

    def act(self, obs, mask, game=None) -> int:
        raise NotImplementedError

    def act_batch(self, items) -> np.ndarray:
        """One action per (obs, mask, game) triple."""
        return np.array([self.act(o, m, g) for o, m, g in items], np.int64)

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r})"


class KernelAgent(Agent):
    """Plays a compiled policy kernel (necro_env/policies) on the Game's arrays with its own PCG32."""

    kernel = None  # set by subclasses: policy(s, st, b, lay, mask, prng) -> int

    def __init__(self, seed: int = 0):
        self.prng = np.zeros((1, 2), np.uint64)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        seed_game(self.prng, 0, np.uint64((0 if seed is None else int(seed)) & 0xFFFFFFFFFFFFFFFF))

    def act(self, obs, mask, game=None) -> int:
        if game is None:
            raise ValueError(f"{self.name} needs the Game: call act(obs, mask, game=game)")
        m = np.ascontiguousarray(np.asarray(mask, dtype=np.bool_).reshape(1, -1))
        if m.shape[1] != game.n_actions:
            raise ValueError(f"mask has {m.shape[1]} entries but the game has {game.n_actions} actions")
        a = int(type(self).kernel(game.state, game.static, 0, game.layout, m, self.prng))
        if a < 0:
            raise ValueError(f"{self.name}: no legal action (is the game over?)")
        return a


class SideAgent(Agent):
    """Plays gang g with the g-th of ``agents`` (``make_agent("sides:gunline,aggressor")``). On a
    scenario whose gangs differ the better script depends on the side (docs/training.md, "Sides"),
    so such an agent is a baseline of its own and a demonstrator for warm starts. Every agent is
    reset with the same seed; each draws from its own generator only when its gang decides."""

    def __init__(self, agents, name: str = "sides"):
        agents = list(agents)
        if not agents:
            raise ValueError("a side agent needs one agent per gang")
        encoders = {a.encoder for a in agents} - {None}
        if len(encoders) > 1:
            raise ValueError(f"{name}: its agents read different observations ({', '.join(sorted(encoders))})")
        self.agents = agents
        self.name = name
        self.encoder = encoders.pop() if encoders else None
        self._last = None  # the agent of the last act()

    @property
    def last_search(self):
        """The last act()'s search values when a search agent made it (agents/search.py), else None."""
        return getattr(self._last, "last_search", None)

    def reset(self, seed: int | None = None) -> None:
        self._last = None
        for a in self.agents:
            a.reset(seed)

    def act(self, obs, mask, game=None) -> int:
        if game is None:
            raise ValueError(f"{self.name} needs the Game: call act(obs, mask, game=game)")
        g = int(game.current_gang)
        if not 0 <= g < len(self.agents):
            raise ValueError(f"{self.name} names {len(self.agents)} gang(s); gang {g} must decide")
        self._last = self.agents[g]
        return self.agents[g].act(obs, mask, game=game)


BUILTIN = POLICY_NAMES + (SEARCH,)  # the compiled policies' agents and the search agent


def make_agent(spec: str, seed: int = 0, game=None, deterministic: bool = True) -> Agent:
    """The one builder of agents from a spec, used by every command: a name (``BUILTIN``: a compiled
    policy of ``POLICY_NAMES``, "random", "gunline", ..., or "rollout": the search agent of
    agents/search.py with its defaults), a MaskablePPO checkpoint (.zip, or any path:
    ``CheckpointAgent``, checked against ``game`` when given; ``deterministic=False`` samples its
    actions, as training opponents and demonstrators do), a ``training/ppo_fast.py --save`` network
    (.pt: needs ``game``; plays its most likely action), ``sides:a,b,...``: a ``SideAgent`` playing
    gang g with the g-th of those specs, ``rollout(rollouts=32,horizon=60,...)``: the search agent
    with those parameters, or ``rollout:<spec>`` (with or without parameters): the search agent
    with that agent's action as one more candidate (search at play time around a trained network;
    agents/search.py). The grammar of these is necro_env/config/agent_spec.py; a malformed spec
    raises ``SpecError``, and a checkpoint or network file that is missing, damaged or for another
    game raises ``agents.checkpoint.CheckpointMismatch`` (both ValueErrors; necro-eval reports them in one line).
    ``seed`` seeds the agent's own generator (every member of a side agent gets the same)."""
    from .checkpoint import CheckpointAgent
    from .heuristic import AggressorAgent, AmbusherAgent, GunlineAgent, SentryAgent
    from .random_agent import RandomAgent
    from .search import RolloutAgent

    # by POLICY_NAMES
    table = {a.name: a for a in (RandomAgent, GunlineAgent, AggressorAgent, SentryAgent, AmbusherAgent)}
    if spec in table:
        return table[spec](seed=seed)
    search = search_spec(spec)
    if search is not None:
        params, inner = search
        prior = None if inner is None else make_agent(inner, seed=seed, game=game, deterministic=True)
        agent = RolloutAgent(seed=seed, prior=prior, **params)
        agent.name = agent_name(spec)
        return agent
    parts = side_specs(spec)
    if parts is not None:
        return SideAgent([make_agent(p, seed=seed, game=game, deterministic=deterministic) for p in parts], name=spec)
    if spec.endswith(".pt"):
        if game is None or not deterministic:
            raise ValueError(f"{spec}: a ppo_fast network (.pt) needs the game it plays (game=...) and plays "
                             f"its most likely actions only (deterministic=True)")
        from .fast_network import load_network

        return load_network(spec, game)
    if spec.endswith(".zip") or "/" in spec:
        return CheckpointAgent(spec, game=game, deterministic=deterministic, seed=seed)
    raise ValueError(f"unknown agent {spec!r}: use one of {', '.join(BUILTIN)}, a checkpoint path (.zip), a "
                     f"ppo_fast network (.pt), sides:a,b (gang 0 played by a, gang 1 by b), rollout(name=value,...) "
                     f"(the search agent with parameters) or rollout:<agent> (the search agent around that agent)")


def agent_name(spec: str) -> str:
    """The short name of a spec in tables and ratings: a built-in name as it is, a file as
    <run folder>/<file stem> (the folder above checkpoints/ for a checkpoint), and a side agent as
    sides: and its members' names, a search agent as its spec up to the ":" of a prior, and the
    prior's name after a "+" (``rollout(rollouts=32):runs/x/final.zip`` -> ``rollout(rollouts=32)+x/final``)."""
    parts = side_specs(spec)
    if parts is not None:
        return SIDES + ",".join(agent_name(p) for p in parts)
    search = search_spec(spec)
    if search is not None:
        inner = search[1]
        return spec if inner is None else spec[:len(spec) - len(inner) - 1] + "+" + agent_name(inner)
    if spec in BUILTIN:
        return spec
    from pathlib import Path

    p = Path(spec)
    folder = p.parent.parent if p.parent.name == "checkpoints" else p.parent
    return f"{folder.name}/{p.stem}"
