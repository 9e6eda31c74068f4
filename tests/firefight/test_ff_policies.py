"""Firefight's scripted players (necro_env/rulesets/firefight/policies.py) and their agents (agents/game_agent.py):
a legal action at every decision kind the game has, the same games from the same seeds, the game's dice never
drawn by a player, and both scripts beating the random player (issue "A second game", item 6; 2026-12-02)."""
import dataclasses
from collections import Counter

import numpy as np
import pytest

from agents import make_game_agent, play_match
from agents.heuristic import GunlineAgent
from necro_env import rulesets
from necro_env.rulesets.firefight import data as D
from necro_env.rulesets.firefight.game import Game
from necro_env.rulesets.firefight.game_config import DEFAULT_LISTS
from necro_env.rulesets.firefight.policies import SCRIPTS
from necro_env.rulesets.firefight.state import DK_NAMES, clone_state, state_equal

STYLES = ("holder", "charger")


def _lists_with(rules_per_side):
    """The default lists with extra rules on the first unit of each side (a Scout, a Caster), so that one game
    from the start reaches the Scout placement and the casting decisions the shipped lists do not have."""
    out = []
    for path, extra in zip(DEFAULT_LISTS, rules_per_side):
        lst = D.load_list(path)
        first = dataclasses.replace(lst.units[0], rules=dict(lst.units[0].rules, **extra))
        out.append(dataclasses.replace(lst, units=(first,) + lst.units[1:]))
    return out


def _games():
    """(game, seed) pairs: the default lists with heights on (pushes, falls) on a generated and a shipped board,
    and lists with a Scout and Casters."""
    rs = rulesets.get("firefight")
    for seed in range(2):
        yield rs.config_from_json({"board": f"generate:{seed}", "heights": True}).build(), seed
    yield rs.config_from_json({"board": "firefight/boards/forest_outpost.yaml", "heights": True}).build(), 3
    lists = _lists_with(({"Caster": 2, "Scout": 0}, {"Caster": 2, "Scout": 0}))
    for seed in range(2):
        yield Game(D.load_board("firefight/boards/ruined_city.yaml"), lists), seed


def _play_checked(game, agents, seed, seen):
    """Play a game; at every decision the deciding agent's action is legal, and its call changes nothing of the
    game (the dice included): only the agent's own generator moves."""
    game.reset(seed)
    for p, a in enumerate(agents):
        a.reset(seed * 1000 + p + 1)
    moved = 0
    while not game.done:
        p = game.current_side
        before = clone_state(game.state)
        mask = game.mask.copy()
        prng = agents[p].prng.copy()
        a = agents[p].act(None, game.mask[0], game=game)
        assert game.mask[0, a], (game.decision, game.describe(a))
        assert state_equal(before, game.state) and np.array_equal(mask, game.mask)
        moved += not np.array_equal(prng, agents[p].prng)
        seen[game.decision[0]] += 1
        game.step(a)
    return moved


def test_ff_scripts_play_a_legal_action_at_every_decision_kind_and_never_touch_the_game():
    seen = Counter()
    moved = 0
    for game, seed in _games():
        for style in STYLES:
            agents = [make_game_agent("firefight", style, seed), make_game_agent("firefight", "random", seed)]
            moved += _play_checked(game, agents, seed, seen)
            moved += _play_checked(game, agents[::-1], seed + 1, seen)
    assert set(seen) == set(DK_NAMES.values()), sorted(set(DK_NAMES.values()) - set(seen))  # all 18 kinds
    assert moved > 0  # the players drew from their own generators (ties, the random player)


def _actions(style, seed):
    rs = rulesets.get("firefight")
    game = rs.config_from_json({"board": f"generate:{seed}"}).build().reset(seed)
    agents = [make_game_agent("firefight", style, 5), make_game_agent("firefight", "random", 6)]
    out = []
    while not game.done:
        a = agents[game.current_side].act(None, game.mask[0], game=game)
        out.append(a)
        game.step(a)
    return out, game.winner, game.state.rng.copy()


@pytest.mark.parametrize("style", STYLES)
def test_ff_scripts_are_deterministic(style):
    first = _actions(style, 4)
    again = _actions(style, 4)
    assert first[0] == again[0] and first[1] == again[1] and np.array_equal(first[2], again[2])


def test_ff_a_scripts_decision_leaves_the_dice_where_the_random_players_does():
    """The game's dice state after a scripted decision equals the state after a random one from the same game
    seed: the choice differs, the dice do not move (the deployment roll-offs drew the same faces)."""
    rs = rulesets.get("firefight")
    game = rs.config_from_json({}).build().reset(9)
    rng0 = game.state.rng.copy()
    for name in ("holder", "charger", "random"):
        prng = np.zeros((1, 2), np.uint64)
        prng[0] = (7, 9)
        a = SCRIPTS[name](game.state, game.static, 0, game.layout, game.mask, prng)
        assert game.mask[0, a] and np.array_equal(game.state.rng, rng0), name


@pytest.mark.parametrize("style", STYLES)
def test_ff_scripts_beat_the_random_player_in_paired_games(style):
    rs = rulesets.get("firefight")
    wins = losses = 0
    me, rnd = make_game_agent("firefight", style), make_game_agent("firefight", "random")
    for seed in range(10):
        game = rs.config_from_json({"board": f"generate:{seed}"}).build()
        for side in range(2):
            players = [rnd, rnd]
            players[side] = me
            w = play_match(game, players, seed).winner
            wins += w == side
            losses += w == 1 - side
    assert wins > losses and wins >= 14, (wins, losses)  # 20 games; the 1,000-game table: docs/training.md


def test_ff_the_ruleset_offers_its_scripts_and_agents_refuse_others_in_one_line():
    scripts = rulesets.get("firefight").feature("scripts")()
    assert set(scripts) == {"holder", "charger", "random"}
    assert make_game_agent("firefight", "holder").name == "holder"
    with pytest.raises(ValueError, match=r"unknown firefight agent 'gunline'; allowed: charger, holder, random"):
        make_game_agent("firefight", "gunline")
    assert isinstance(make_game_agent("necromunda", "gunline"), GunlineAgent)  # Necromunda's specs as before
