"""The search agent (agents/search.py): policy switching by rollouts on the batched core."""
import numpy as np
import pytest

from agents import make_agent
from agents.search import RolloutAgent
from necro_env.batch import policy_id
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


class LastLegal:
    """A stand-in prior: always the highest legal action (rarely a script's choice)."""

    name = "last"
    encoder = None

    def __init__(self):
        self.resets = []

    def reset(self, seed=None):
        self.resets.append(seed)

    def act(self, obs, mask, game=None):
        return int(np.flatnonzero(mask)[-1])


def test_a_prior_action_is_searched_once_per_continuation(game):
    """With a prior whose action no policy chose, the candidates are the policies' choices and then
    (the prior's action, policy k) for each policy k; the agent plays the best candidate's first
    action, and leaves the game as it was."""
    prior = LastLegal()
    agent = RolloutAgent(seed=5, rollouts=4, horizon=30, prior=prior)
    assert agent.name == "rollout+last" and prior.resets == [5]
    added = 0
    for g in positions(game, n=40):
        before = g.clone()
        mask = g.mask[0]
        mine = prior.act(None, mask)
        agent.rng = np.random.default_rng(3)
        first, values = agent.evaluate(g, None, mask)
        assert state_equal(g.state, before.state) and np.array_equal(g.mask, before.mask)
        if first.size == 4:  # two policies, then the prior's action continued by each
            assert mine not in first[:2] and (first[2:] == mine).all()
            assert values is not None and values.shape == (4,)
            added += 1
        else:  # the prior agreed with a policy: the plain search
            assert first.size == 2 and mine in first
        agent.rng = np.random.default_rng(3)
        chosen = agent.act(None, mask, game=g)
        assert chosen == (first[0] if values is None else first[int(np.argmax(values))])
    assert added > 0
    assert 0 <= agent.prior_chosen <= agent.searches


def test_a_prior_that_agrees_with_the_policies_changes_nothing(game):
    """A prior proposing the first policy's own choice adds no candidate: the agent decides as
    the plain search with the same seed, decision for decision."""

    class Echo(LastLegal):
        def act(self, obs, mask, game=None):
            return int(plain.evaluate(game)[0][0])  # the plain agent's own first-policy choice

    ps = positions(game, n=30)
    plain = RolloutAgent(seed=9, rollouts=4, horizon=30)
    with_prior = RolloutAgent(seed=9, rollouts=4, horizon=30, prior=Echo())
    for g in ps:
        plain.rng = np.random.default_rng(21)
        with_prior.rng = np.random.default_rng(21)
        first, values = with_prior.evaluate(g, None, g.mask[0])
        assert first.size == 2
        plain.rng = np.random.default_rng(21)
        want = plain.evaluate(g)
        assert np.array_equal(first, want[0])
        assert (values is None and want[1] is None) or np.array_equal(values, want[1])


def test_make_agent_builds_the_search_around_another_agent(game):
    from agents.base import agent_name
    from agents.random_agent import RandomAgent

    agent = make_agent("rollout:random", seed=4, game=game)
    assert isinstance(agent, RolloutAgent) and isinstance(agent.prior, RandomAgent)
    assert agent.name == "rollout+random"
    assert agent_name("rollout:runs/x/checkpoints/last.zip") == "rollout+x/last"
    for bad in ("rollout:", "rollout:rollout:random", "rollout:sides:gunline,aggressor"):
        with pytest.raises(ValueError, match="rollout: and one agent"):
            make_agent(bad, game=game)


def test_make_agent_reads_search_parameters(game):
    """``rollout(name=value,...)`` (necro_env/config/agent_spec.py): the search agent with those
    parameters, alone, around another agent, or as one member of a side agent."""
    from agents.base import SideAgent, agent_name

    agent = make_agent("rollout(rollouts=8,horizon=30,opponents=aggressor)", seed=2)
    assert (agent.rollouts, agent.horizon) == (8, 30)
    assert agent.opponents == [policy_id("aggressor")]
    assert agent.policies == [policy_id("gunline"), policy_id("aggressor")]  # the default candidates
    assert agent.name == "rollout(rollouts=8,horizon=30,opponents=aggressor)"
    around = make_agent("rollout(rollouts=4,policies=gunline+aggressor+random):random", seed=2, game=game)
    assert around.rollouts == 4 and len(around.policies) == 3 and around.prior is not None
    assert around.name == "rollout(rollouts=4,policies=gunline+aggressor+random)+random"
    assert agent_name("rollout(horizon=9):runs/x/checkpoints/last.zip") == "rollout(horizon=9)+x/last"
    sides = make_agent("sides:rollout(rollouts=3,horizon=5),aggressor", seed=2, game=game)
    assert isinstance(sides, SideAgent) and [type(a).__name__ for a in sides.agents] == ["RolloutAgent",
                                                                                          "AggressorAgent"]
    assert (sides.agents[0].rollouts, sides.agents[0].horizon) == (3, 5)
    assert sides.agents[0].then is None and make_agent("rollout(then=sentry)").then == policy_id("sentry")
    # the parameters change nothing but the search: same seed and parameters as the constructor, same play
    twin = RolloutAgent(seed=2, rollouts=8, horizon=30, opponents=("aggressor",))
    g = game.clone().reset(11)
    for _ in range(40):
        if g.done:
            break
        a = agent.act(None, g.mask[0], game=g)
        assert a == twin.act(None, g.mask[0], game=g)
        g.step(a)


def test_with_then_every_candidate_continues_with_that_policy(game):
    """``then``: the candidates are the distinct first actions (each policy's choice), and every
    future continues with the one policy: the values are those of rollouts played by ``then`` after
    each first action, on the agent's shared dice (rebuilt here by hand from the same draws), and
    they differ from the plain search's, whose candidates continue as themselves."""
    from necro_env.batch import BatchedGames

    P, R, H = 3, 4, 40
    agent = RolloutAgent(seed=7, policies=("gunline", "aggressor", "sentry"), rollouts=R, horizon=H, then="sentry")
    plain = RolloutAgent(seed=7, policies=("gunline", "aggressor", "sentry"), rollouts=R, horizon=H)
    searched = differs = 0
    for g in positions(game, n=40):
        agent.rng = np.random.default_rng(5)
        first, values = agent.evaluate(g)
        if values is None:
            assert (first == first[0]).all()
            continue
        searched += 1
        assert len(set(first.tolist())) == first.size == values.size
        C = first.size
        rng = np.random.default_rng(5)  # the agent's draws: the sample's seeds, then the futures'
        rng.integers(0, 2**63, size=P * R, dtype=np.uint64)
        rng.integers(0, 2**63, size=1, dtype=np.uint64)
        dice = rng.integers(0, 2**63, size=R, dtype=np.uint64)
        players = rng.integers(0, 2**63, size=R, dtype=np.uint64)
        bg = BatchedGames(g, C * R).load(g)
        bg.reseed(np.repeat(dice, C), np.repeat(players, C))
        other = np.repeat(np.resize(agent.opponents, R), C)
        v, _, _, _ = bg.rollout(np.tile(first, R), H, int(g.current_gang), np.full(C * R, policy_id("sentry")),
                                other, agent.value)
        assert np.allclose(values, v.reshape(R, C).mean(axis=0))
        plain.rng = np.random.default_rng(5)
        pf, pv = plain.evaluate(g)
        own = {int(a): float(x) for a, x in zip(pf, pv)}  # the plain search's value of each first action
        differs += any(own[int(a)] != float(x) for a, x in zip(first, values))
        # the sentry's own choice continues as the sentry in both: the same futures, the same value
        assert np.isclose(own[int(pf[2])], values[list(first).index(pf[2])])
    assert searched > 0 and differs > 0


def test_with_then_a_prior_adds_its_action_once(game):
    """With ``then`` the prior's action, where no policy chose it, is one more candidate continued by
    ``then`` (not one per policy); prior_chosen counts the searches it won."""
    agent = RolloutAgent(seed=5, rollouts=4, horizon=30, prior=LastLegal(), then="gunline")
    added = 0
    for g in positions(game, n=40):
        mine = LastLegal().act(None, g.mask[0])
        first, values = agent.evaluate(g, None, g.mask[0])
        assert mine in first and len(set(first.tolist())) == first.size
        if agent._prior_own is not None:  # no policy chose it: the last candidate, searched
            assert agent._prior_own == mine == first[-1] and values is not None
            added += 1
    assert added > 0
    won = 0
    for i, g in enumerate(positions(game, n=40)):  # prior_chosen: the searches the prior's own candidate won
        agent.reset(i)
        first, values = agent.evaluate(g, None, g.mask[0])
        own = agent._prior_own
        won += values is not None and own is not None and first[int(np.argmax(values))] == own
    agent.prior_chosen = 0
    for i, g in enumerate(positions(game, n=40)):
        agent.reset(i)
        agent.act(None, g.mask[0], game=g)
    assert agent.prior_chosen == won


@pytest.mark.parametrize("spec, words", [
    ("rollout(then=gunline+sentry)", "then='gunline+sentry'; expected one compiled policy"),
    ("rollout(then=sentinel)", "then='sentinel'; expected one compiled policy"),
    ("rollout(rollouts=0)", "rollouts='0'; expected an integer >= 1"),
    ("rollout(horizon=-1)", "horizon='-1'; expected an integer >= 0"),
    ("rollout(rolouts=3)", "'rolouts=3' is not a parameter"),
    ("rollout(rollouts=3,rollouts=4)", "rollouts given twice"),
    ("rollout(opponents=gunline+agressor)", "opponents='gunline+agressor'; expected compiled policies"),
    ("rollout(rollouts=3", "parenthesis is not closed"),
    ("rollout(rollouts=3)x", "write nothing, or : and one agent"),
    ("rollout(rollouts=3):rollout:random", "rollout: and one agent"),
])
def test_bad_search_parameters_are_refused_naming_what_is_allowed(game, spec, words):
    with pytest.raises(ValueError) as err:
        make_agent(spec, game=game)
    assert spec in str(err.value) and words in str(err.value)
