"""The search agent (agents/search.py): policy switching by rollouts on the batched core."""
import numpy as np
import pytest

from agents import make_agent
from agents.search import RolloutAgent
from necro_env.core.rng import seed_game
from necro_env.envs.necromunda_env import build_game
from necro_env.policies.heuristics import aggressor_action, gunline_action
from necro_env.rulesets.necromunda.state import state_equal


@pytest.fixture(scope="module")
def game():
    return build_game()


def positions(game, n=40, seed=2):
    """(state copies) along a game of gunline against aggressor, one per decision."""
    g = game.clone().reset(seed)
    prng = np.zeros((1, 2), np.uint64)
    seed_game(prng, 0, np.uint64(5))
    out = []
    for _ in range(n):
        out.append(g.clone())
        k = gunline_action if g.current_gang == 0 else aggressor_action
        g.step(int(k(g.state, g.static, 0, g.layout, g.mask, prng)))
    return out


def test_rollout_agent_plays_legal_actions_without_touching_the_game(game):
    agent = RolloutAgent(seed=1, rollouts=4, horizon=20)
    for g in positions(game):
        before = g.clone()
        a = agent.act(None, g.mask[0], game=g)
        assert g.mask[0, a]
        assert state_equal(g.state, before.state) and np.array_equal(g.mask, before.mask)
    assert agent.searches > 0  # the heuristics disagreed somewhere, so the rollouts decided


def test_rollout_agent_takes_the_policies_action_when_they_agree(game):
    """With one policy there is nothing to compare: the agent plays that policy's choice."""
    agent = RolloutAgent(seed=1, policies=("gunline",), rollouts=2, horizon=10)
    for i, g in enumerate(positions(game, n=25)):
        agent.reset(i)
        rng = np.random.default_rng(i)  # the agent's draws: the slots' dice seeds, then one players' seed
        rng.integers(0, 2**63, size=2, dtype=np.uint64)
        prng = np.zeros((1, 2), np.uint64)
        seed_game(prng, 0, rng.integers(0, 2**63, size=1, dtype=np.uint64)[0])
        want = int(gunline_action(g.state, g.static, 0, g.layout, g.mask, prng))
        assert agent.act(None, g.mask[0], game=g) == want
    assert agent.searches == 0


def test_rollout_agent_is_deterministic_for_its_seed(game):
    ps = positions(game, n=30)
    runs = []
    for seed in (3, 3):
        agent = RolloutAgent(seed=seed, rollouts=4, horizon=30)
        runs.append([agent.act(None, g.mask[0], game=g) for g in ps])
    assert runs[0] == runs[1]


def test_rollouts_share_dice_across_policies(game):
    """Common random numbers: the k-th rollout of every candidate plays the same dice and draws,
    so two copies of one policy get exactly the same value, and the agent's choice is the action
    of the policy with the best mean."""
    twin = RolloutAgent(seed=7, policies=("aggressor", "aggressor", "gunline"), rollouts=4, horizon=40)
    agent = RolloutAgent(seed=7, rollouts=4, horizon=40)
    checked = 0
    for g in positions(game, n=40):
        first, values = twin.evaluate(g)
        if values is not None:
            assert first[0] == first[1] and values[0] == values[1]
            checked += 1
        first, values = agent.evaluate(g)
        if values is not None:
            agent.rng = np.random.default_rng(11)
            again = agent.act(None, g.mask[0], game=g)
            agent.rng = np.random.default_rng(11)
            first, values = agent.evaluate(g)
            assert again == first[int(np.argmax(values))]
    assert checked > 0


def test_make_agent_knows_the_rollout_agent():
    assert isinstance(make_agent("rollout"), RolloutAgent)
    with pytest.raises(ValueError, match="external"):
        RolloutAgent(policies=("external",))
    with pytest.raises(ValueError, match="rollouts"):
        RolloutAgent(rollouts=0)
