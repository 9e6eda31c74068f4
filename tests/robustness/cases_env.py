"""The envs (docs/api.md): actions that are not one integer index, seeds the engine cannot hold,
game arguments that cannot make a game.

Before 2026-12-01 ``step(3.7)``, ``step("3")``, ``step(True)`` and ``step([3])`` played actions 3, 3,
1 and 3; ``round_limit=0`` played as 1; a ``BoardSpec`` with a deployment zone over walls put
fighters inside walls; ``reset(seed=2**64)`` wrapped around while ``game_seed`` reported the large
number. An action case checks that the game, the deciding agent and the rewards are as they were
(3 and 1 are legal at the first decision of seed 0, so a coerced value would have been played); a
reset case that the game and its seed are unchanged.
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache

import numpy as np

from .catalogue import Case, refused

ACTIONS = "Env actions"
BUILD = "Env construction and reset"
INT_ONLY = r"an action is one integer index of the action codec \(a Python or numpy integer, or a 0-d integer array\)"
SEED_RANGE = r"seed must be an integer 0\.\.2\*\*64-1 \(18446744073709551615\), got "


@lru_cache(maxsize=None)
def _aec():
    """necromunda_v0.env at its first decision of seed 0 (every case leaves it so)."""
    from necro_env import necromunda_v0

    env = necromunda_v0.env(encoder="flat")
    env.reset(seed=0)
    return env


@lru_cache(maxsize=None)
def _gym():
    from necro_env.envs.gym_wrapper import NecromundaGymEnv

    env = NecromundaGymEnv(encoder="flat")
    env.reset(seed=0)
    return env


def _unchanged(game, call, *errors):
    """``call()`` must raise one of ``errors`` and leave ``game``'s state as it was; its message."""
    from necro_env.rulesets.necromunda.state import clone_state, state_equal

    before, mask = clone_state(game.state), game.mask.copy()
    text = refused(call, *errors)
    assert state_equal(game.state, before) and np.array_equal(game.mask, mask), "the game changed"
    return text


def _aec_step(bad):
    from necro_env.rulesets.necromunda.game import IllegalActionError

    env = _aec()
    u = env.unwrapped
    agent, rewards = env.agent_selection, dict(u._cumulative_rewards)
    text = _unchanged(u.game, lambda: env.step(bad), IllegalActionError)
    assert env.agent_selection == agent and u._cumulative_rewards == rewards, "the env changed"
    return text


def _gym_step(bad):
    from necro_env.rulesets.necromunda.game import IllegalActionError

    env = _gym()
    return _unchanged(env.game, lambda: env.step(bad), IllegalActionError)


def _batched_step(bad):
    from necro_env.envs.batched_env import BatchedEnv
    from necro_env.rulesets.necromunda.game import IllegalActionError

    env = BatchedEnv(2, seed=0)
    env.reset()
    state = [a.copy() for a in env.core.state]
    text = refused(lambda: env.step(bad), IllegalActionError)
    assert all(np.array_equal(a, b) for a, b in zip(env.core.state, state)), "a game of the batch changed"
    return text


def _aec_reset(seed):
    env = _aec()
    u = env.unwrapped
    game_seed = u.game_seed
    text = _unchanged(u.game, lambda: env.reset(seed=seed), ValueError)
    assert u.game_seed == game_seed, "game_seed changed"
    return text


def _gym_reset(seed):
    env = _gym()
    rng = env.np_random.bit_generator.state
    text = _unchanged(env.game, lambda: env.reset(seed=seed), ValueError)
    assert env.np_random.bit_generator.state == rng, "np_random was re-seeded"
    return text


def _make(**kw):
    from necro_env import necromunda_v0

    return refused(lambda: necromunda_v0.env(**kw), ValueError)


def _gym_with(**kw):
    from necro_env.envs.gym_wrapper import NecromundaGymEnv

    return refused(lambda: NecromundaGymEnv(encoder="flat", **kw), ValueError)


def _gym_opponent_plays(action):
    """An opponent whose action is not an integer: refused as the learner's would be, game unchanged."""
    from necro_env.envs.gym_wrapper import NecromundaGymEnv
    from necro_env.rulesets.necromunda.game import IllegalActionError

    env = NecromundaGymEnv(encoder="flat", learner=1, opponents=lambda obs, mask, rng: action)
    # gang 0, the opponent, decides first at seed 0: reset plays its turn, and refuses its action
    text = refused(lambda: env.reset(seed=0), IllegalActionError)
    assert env.game.current_gang == 0 and not env.game.events("activate"), "the opponent's action was played"
    return text


def _walled_zone_board():
    """zm_hall with three cells of gang 0's deployment zone turned into walls (zone marks kept)."""
    from necro_env.config import load_board
    from necro_env.core.terrain import TER_WALL

    board = load_board("boards/zm_hall.yaml")
    terrain = board.terrain.copy()
    ys, xs = np.nonzero(board.deploy == 0)
    terrain[ys[:3], xs[:3]] = TER_WALL
    return dataclasses.replace(board, terrain=terrain)


CASES = [
    Case("env-gym-opponents-name", BUILD, '`NecromundaGymEnv(opponents="gunline")` ("got 7": its letters were counted as opponents)',
         r"opponents='gunline': give a callable opponent\(obs, mask, rng\) -> action or an agent, not a name; "
         r"for a named agent: opponents=agents\.make_agent\('gunline'\)", lambda: _gym_with(opponents="gunline")),
    Case("env-gym-opponents-names", BUILD, '`NecromundaGymEnv(opponents=["gunline", "random"])`',
         r"opponents\[0\]='gunline': each opponent is a callable or an agent; for a named agent: "
         r"agents\.make_agent\('gunline'\)", lambda: _gym_with(opponents=["gunline", "random"])),
    Case("env-gym-opponent-float-action", ACTIONS, "an opponent callable that returns 3.7 (played as 3 before)",
         INT_ONLY + r"; got 3\.7 of type float", lambda: _gym_opponent_plays(3.7)),
    Case("env-action-float", ACTIONS, "`env.step(3.7)` (played as 3 before)",
         INT_ONLY + r"; got 3\.7 of type float", lambda: _aec_step(3.7)),
    Case("env-action-str", ACTIONS, '`env.step("3")` (played as 3 before)',
         INT_ONLY + r"; got '3' of type str", lambda: _aec_step("3")),
    Case("env-action-bool", ACTIONS, "`env.step(True)` (played as 1 before)",
         INT_ONLY + r"; got True of type bool", lambda: _aec_step(True)),
    Case("env-action-list", ACTIONS, "`env.step([3])` (played as 3 before)",
         INT_ONLY + r"; got \[3\] of type list", lambda: _aec_step([3])),
    Case("env-action-numpy-float", ACTIONS, "`env.step(np.float64(3.0))`",
         INT_ONLY + r"; got (np\.float64\()?3\.0\)? of type float64", lambda: _aec_step(np.float64(3.0))),
    Case("env-action-array", ACTIONS, "`env.step(np.array([3]))`: an array of shape (1,), not 0-d",
         INT_ONLY + r"; got an array of dtype int64 and shape \(1,\)", lambda: _aec_step(np.array([3]))),
    Case("env-gym-action-float", ACTIONS, "`NecromundaGymEnv.step(3.7)` (played as 3 before)",
         INT_ONLY + r"; got 3\.7 of type float", lambda: _gym_step(3.7)),
    Case("env-gym-action-bool", ACTIONS, "`NecromundaGymEnv.step(True)` (played as 1 before)",
         INT_ONLY + r"; got True of type bool", lambda: _gym_step(True)),
    Case("env-batched-action-float", ACTIONS, "`BatchedEnv.step(np.array([3.7, 3.7]))` (played as 3 before)",
         r"actions must be integers \(a Python or numpy integer, or a 0-d integer array per game\); got an array "
         r"of dtype float64", lambda: _batched_step(np.array([3.7, 3.7]))),

    Case("env-round-limit-zero", BUILD, "`necromunda_v0.env(round_limit=0)` (played as 1 before)",
         r"round_limit must be an integer 1\.\.99, got 0 \(int\)", lambda: _make(round_limit=0)),
    Case("env-round-limit-negative", BUILD, "`necromunda_v0.env(round_limit=-3)`",
         r"round_limit must be an integer 1\.\.99, got -3 \(int\)", lambda: _make(round_limit=-3)),
    Case("env-num-gangs-str", BUILD, '`necromunda_v0.env(num_gangs="2")`',
         r"num_gangs must be an integer of at least 2, got '2' \(str\)", lambda: _make(num_gangs="2")),
    Case("env-max-doors-small", BUILD, "`necromunda_v0.env(max_doors=1)` on a board with 14 doors",
         r"max_doors=1 is less than the 14 doors of board 'zm_corridors'; allowed: 14 or more",
         lambda: _make(max_doors=1)),
    Case("env-max-caskets-small", BUILD, "`necromunda_v0.env(max_caskets=0)` on a board with 2 caskets",
         r"max_caskets=0 is less than the 2 caskets of board 'zm_corridors'; allowed: 2 or more",
         lambda: _make(max_caskets=0)),
    Case("env-max-weapons-small", BUILD, "`necromunda_v0.env(max_weapons=3)` with a fighter carrying 4 weapons",
         r"max_weapons=3 is less than the 4 weapons fighter '.+' carries; allowed: 4 or more",
         lambda: _make(max_weapons=3)),
    Case("env-board-spec-zone-in-walls", BUILD,
         "`necromunda_v0.env(board=spec)`, a `BoardSpec` with deployment cells on walls (put fighters inside walls)",
         r"board 'zm_hall' \(a BoardSpec\) is not a valid board: .*cell \(\d+, \d+\) holds \['0'\]",
         lambda: _make(board=_walled_zone_board())),
    Case("env-seed-too-large", BUILD, "`env.reset(seed=2**64)` (wrapped around to 0 before)",
         SEED_RANGE + r"18446744073709551616 \(int\)", lambda: _aec_reset(2**64)),
    Case("env-seed-negative", BUILD, "`env.reset(seed=-1)`", SEED_RANGE + r"-1 \(int\)", lambda: _aec_reset(-1)),
    Case("env-seed-float", BUILD, "`env.reset(seed=1.5)`", SEED_RANGE + r"1\.5 \(float\)", lambda: _aec_reset(1.5)),
    Case("env-seed-argument-negative", BUILD, "`necromunda_v0.env(seed=-1)`",
         SEED_RANGE + r"-1 \(int\)", lambda: _make(seed=-1)),
    Case("env-gym-seed-too-large", BUILD, "`NecromundaGymEnv.reset(seed=2**64)`",
         SEED_RANGE + r"18446744073709551616 \(int\)", lambda: _gym_reset(2**64)),
    Case("env-gym-seed-negative", BUILD, "`NecromundaGymEnv.reset(seed=-1)`",
         SEED_RANGE + r"-1 \(int\)", lambda: _gym_reset(-1)),
]
