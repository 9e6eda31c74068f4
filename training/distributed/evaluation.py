"""necro-eval's paired round robin on Ray actors (``necro-eval --ray [ADDRESS]``; docs/distributed.md).

One actor per CPU of the cluster builds the game and the agents once (the same ``build_agents`` as the
local run), then plays batches of games, each game named by (gang 0's agent, gang 1's agent, seed,
stream). A game's result depends on nothing else: ``agents.play.play_game`` resets the game with its
seed and every agent with its player seed, so the actors play exactly the local run's games. The
driver then replays the round robin's bookkeeping (``evaluate.round_robin`` with ``play`` looking the
games up), so the tables are the local ones, game for game.

A batch whose actor dies (a node lost, a process killed) is played again by a new actor: the driver
keeps every batch until its results arrive, and the result says how many batches were retried and that
no game was dropped (``games_dropped``, always 0 when it returns: a game missing raises instead).
"""
from __future__ import annotations

import itertools
import os
import time

from . import connect


class _Seat:
    """An agent's name where the driver replays the bookkeeping (the games were played elsewhere)."""

    encoder = None

    def __init__(self, name):
        self.name = name


def game_keys(names, pairs: int, seed0: int, streams: int, pairs_only=None) -> list[tuple]:
    """Every game of the round robin as (gang 0's agent, gang 1's agent, seed, stream), in the local order."""
    todo = pairs_only or list(itertools.combinations(names, 2))
    keys = []
    for na, nb in todo:
        for s in range(streams):
            for i in range(pairs):
                keys += [(na, nb, seed0 + i, s), (nb, na, seed0 + i, s)]
    return keys


class EvalWorker:
    """A Ray actor's body: the scenario's game and the agents, built once; ``play`` plays a batch."""

    def __init__(self, scenario, specs: list[str], fail_once: str | None = None, game_name: str = "necromunda"):
        from importlib import import_module

        from necro_env import rulesets
        from necro_env.config.loader import load_scenario
        from necro_env.warmup import ensure as warm_up

        from agents.play import play_game

        from ..evaluate import build_agents, ruleset_agents, ruleset_play

        warm_up()
        if game_name == "necromunda":
            env_module = import_module(rulesets.get(game_name).env_module)  # the game's own env, by the registry
            self.game = env_module.raw_env(scenario=load_scenario(scenario), encoder="flat").game  # None: the default
            self.agents, self.play_one = build_agents(specs, self.game), play_game
        else:  # necro-eval --game's default game, agents and loop (evaluate.ruleset_round_robin), 2026-12-02
            self.game = rulesets.get(game_name).make_game({})
            self.agents, self.play_one = ruleset_agents(game_name, specs, self.game), ruleset_play
        self.fail_once = fail_once  # tests: the first actor to see this path (absent) dies mid-batch

    def ready(self) -> bool:
        """Returns once the game and the agents are built (the driver times the start apart from the games)."""
        return True

    def play(self, batch: list[tuple]) -> list[tuple]:
        out = []
        for k, (na, nb, seed, stream) in enumerate(batch):
            if k == 1 and self.fail_once and not os.path.exists(self.fail_once):
                open(self.fail_once, "w").close()
                os._exit(1)  # a worker killed mid-batch, its first game played and lost with it
            r = self.play_one(self.game, [self.agents[na], self.agents[nb]], seed=seed, stream=stream)
            out.append(((na, nb, seed, stream), r))
        return out


def _batches(keys: list, workers: int) -> list[list]:
    """About four batches a worker (a slow batch does not leave the others idle), at least one game each."""
    size = max(1, -(-len(keys) // (workers * 4)))
    return [keys[i:i + size] for i in range(0, len(keys), size)]


MAX_TRIES = 3  # new actors a batch may be given after the first dies


def _first_error(exc) -> str:
    """The last line of a Ray actor error that names its cause (an exception in the actor's set-up)."""
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    named = [ln for ln in lines if "Error" in ln.split(":")[0]]
    return (named or lines or [type(exc).__name__])[-1][:300]


def play_all(scenario, specs, keys, address=None, workers=None, fail_once=None, log=print,
             game_name: str = "necromunda") -> tuple[dict, dict]:
    """Play ``keys`` (games of ``game_name``) on Ray actors; returns ({key: GameResult}, {"workers", "batches",
    "retried", "games_dropped", "seconds"}). A batch whose actor died goes back to the queue with a new actor."""
    ray = connect(address)
    workers = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    actor = ray.remote(num_cpus=1, max_restarts=0)(EvalWorker)
    make = lambda: actor.remote(scenario, specs, fail_once, game_name)  # noqa: E731
    t_start = time.time()
    pool = [make() for _ in range(workers)]
    try:  # the actors' start (a process each, the compiled core loaded, the agents built) timed apart
        ray.get([w.ready.remote() for w in pool])
    except ray.exceptions.RayActorError as exc:
        raise RuntimeError(f"the Ray workers could not start: {_first_error(exc)}") from None
    queue, results, running, retried, t0 = _batches(keys, workers), {}, {}, 0, time.time()
    n_batches = len(queue)
    tries = {id(b): 0 for b in queue}  # a batch that kills every actor it meets (a bug, not a lost node) stops
    while queue or running:
        while queue and pool:  # an idle actor takes the next batch
            w, b = pool.pop(), queue.pop(0)
            running[w.play.remote(b)] = (w, b)
        done, _ = ray.wait(list(running), num_returns=1)
        w, b = running.pop(done[0])
        try:
            results.update(ray.get(done[0]))
            pool.append(w)
        except ray.exceptions.RayActorError as exc:  # the actor died: its batch again, on a new actor
            tries[id(b)] += 1
            if tries[id(b)] > MAX_TRIES:
                raise RuntimeError(f"a batch of {len(b)} games killed {MAX_TRIES + 1} Ray workers: "
                                   f"{_first_error(exc)}") from None
            retried += 1
            queue.insert(0, b)
            pool.append(make())
            if log:
                log(f"[eval] a Ray worker died; its batch of {len(b)} games is played again")
    for w in pool:
        ray.kill(w)
    missing = [k for k in keys if k not in results]
    if missing:
        raise RuntimeError(f"{len(missing)} games were not played (first: {missing[0]})")
    return results, {"workers": workers, "batches": n_batches, "retried": retried, "games_dropped": 0,
                     "start_seconds": round(t0 - t_start, 2), "seconds": round(time.time() - t0, 2)}


def ray_round_robin(game, scenario, specs, names, pairs, seed0=0, pairs_only=None, log=print, streams=1,
                    address=None, workers=None, fail_once=None, game_name: str = "necromunda") -> dict:
    """``evaluate.round_robin``'s result for the agents ``names`` (built from ``specs`` on every actor),
    the games (of ``game_name``: Necromunda on ``scenario``, another game on its default) played on Ray;
    ``res["ray"]`` says how (workers, batches retried, games dropped)."""
    from ..evaluate import round_robin

    keys = game_keys(names, pairs, seed0, streams, pairs_only)
    played, info = play_all(scenario, specs, keys, address, workers, fail_once, log, game_name)
    lookup = lambda game_, seats, seed, stream: played[(seats[0].name, seats[1].name, seed, stream)]  # noqa: E731
    res = round_robin(game, {n: _Seat(n) for n in names}, pairs, seed0, pairs_only=pairs_only, log=log,
                      streams=streams, play=lookup)
    res["ray"] = info
    if log:
        log(f"[eval] Ray: {len(keys)} games on {info['workers']} workers in {info['seconds']} s (after "
            f"{info['start_seconds']} s starting them), "
            f"{info['retried']} batches retried, {info['games_dropped']} games dropped")
    return res
