"""Play whole games between agents on a ``Game`` (used by evaluation, self-play and tests)."""
from __future__ import annotations

from dataclasses import dataclass, field

from necro_env.envs.encoders import make_encoder


@dataclass
class GameResult:
    seed: int
    winner: int  # gang index, -1 for a draw
    truncated: bool  # ended on the round limit
    rounds: int
    decisions: int
    events: list = field(default_factory=list)  # per step: (gang, action index, [Event...]) when recorded


STREAM_STEP = 7919  # the players' seeds of stream k lie STREAM_STEP * k past stream 0's (player_seed)


def player_seed(seed: int, g: int, stream: int = 0) -> int:
    """The seed of gang g's player in game ``seed``: ``seed * 1000 + g + 1`` in stream 0 (every
    evaluation's games), STREAM_STEP * stream further on in another stream (necro-eval --streams:
    the same deployment and dice, other choices of the players' own generators)."""
    return seed * 1000 + g + 1 + STREAM_STEP * stream


def play_game(game, agents, seed: int, agent_seeds=None, record: bool = False, max_decisions: int = 100_000,
              stream: int = 0, on_reset=None, on_step=None):
    """Play one game from ``game.reset(seed)``; ``agents[g]`` plays gang g.

    Each agent is reset with its own seed (``agent_seeds[g]``, default ``player_seed(seed, g,
    stream)``) before the game, so its choices never draw on the game's dice. With ``record`` every
    step's decoded events are kept (for a battle log or replay of the game). Observers, for what
    reads the game as it goes (a run's final game: training.common.record_final_game):
    ``on_reset()`` after the reset (the deployment's events are the game's then), ``on_step(g,
    action, text)`` after each step, ``text`` the action as described before it was played.
    """
    game.reset(seed)
    if on_reset is not None:
        on_reset()
    encoders = {}
    for g, a in enumerate(agents):
        a.reset(agent_seeds[g] if agent_seeds is not None else player_seed(seed, g, stream))
        if a.encoder is not None and a.encoder not in encoders:
            encoders[a.encoder] = make_encoder(a.encoder)
    log = []
    n = 0
    while not game.done:
        g = game.current_gang
        agent = agents[g]
        obs = encoders[agent.encoder].encode(game, g) if agent.encoder is not None else None
        a = agent.act(obs, game.mask[0], game=game)
        text = str(game.describe(a)) if on_step is not None else None
        game.step(a)
        n += 1
        if record:
            log.append((g, int(a), game.events()))
        if on_step is not None:
            on_step(g, int(a), text)
        if n >= max_decisions:
            raise RuntimeError(f"game {seed} did not end after {max_decisions} decisions")
    return GameResult(seed, game.winner if not game.truncated else -1, game.truncated, game.round, n, log)
