"""The ``advised`` encoder's ``advice`` (necro_env/envs/advice.py): each heuristic's action for the
deciding gang, "no advice" (n_actions) for an observer that is not deciding and after the game, a pure
function of the state that never touches the game's dice; and the heuristics played from it are the
heuristics."""
import numpy as np

from agents.heuristic import AggressorAgent, GunlineAgent, SentryAgent
from necro_env.core.rng import seed_game
from necro_env.envs.advice import ADVICE_SEED, ADVISOR_FEATURES, advice
from necro_env.envs.encoders import make_encoder
from necro_env.policies.heuristics import aggressor_action, gunline_action, sentry_action
from necro_env.rulesets.necromunda.game import Game
from necro_env.config import load_scenario


def _game(seed=4):
    sc = load_scenario()
    game = Game(sc.board, list(sc.gangs), round_limit=sc.round_limit)
    game.reset(seed)
    return game


def _kernel_choice(kernel, game):
    prng = np.zeros((1, 2), np.uint64)
    seed_game(prng, 0, np.uint64(ADVICE_SEED))
    return int(kernel(game.state, game.static, 0, game.layout, np.ascontiguousarray(game.mask[:1]), prng))


def test_the_advice_is_each_heuristics_action_for_the_deciding_gang_only():
    """Over a game of gunline (gang 0) against aggressor (gang 1), each playing its advice."""
    assert ADVISOR_FEATURES == ("gunline", "aggressor", "sentry")
    game = _game()
    differ = sentry_own = 0
    for _ in range(2000):
        if game.done:
            break
        g = game.current_gang
        adv = advice(game, g)
        assert adv.dtype == np.int64 and adv.shape == (3,)
        assert adv[0] == _kernel_choice(gunline_action, game)
        assert adv[1] == _kernel_choice(aggressor_action, game)
        assert adv[2] == _kernel_choice(sentry_action, game)
        assert game.mask[0, adv].all()
        differ += int(adv[0] != adv[1])
        sentry_own += int(adv[2] != adv[0] and adv[2] != adv[1])
        assert (advice(game, 1 - g) == game.n_actions).all()  # the other gang is not deciding
        game.step(int(adv[g]))
    assert game.done
    assert differ > 20  # the two heuristics disagree often: the advice is not one action twice
    assert sentry_own > 5  # and the sentry often chooses what neither of them would


def test_the_advice_is_none_after_the_game_and_a_pure_function_of_the_state():
    game = _game(9)
    rng = np.random.default_rng(1)
    while not game.done:
        before = game.state.rng.copy()
        a = advice(game, game.current_gang)
        assert np.array_equal(game.state.rng, before)  # the game's dice untouched
        assert np.array_equal(a, advice(game.clone(), game.current_gang))  # same state, same advice
        legal = game.legal_actions()
        game.step(legal[rng.integers(len(legal))])
    assert (advice(game, 0) == game.n_actions).all() and (advice(game, 1) == game.n_actions).all()


def test_the_advised_observation_is_the_tactical_one_plus_the_advice_and_in_its_space():
    game = _game(2)
    enc, tac = make_encoder("advised"), make_encoder("tactical")
    space = enc.space(game)
    assert list(space["advice"].nvec) == [game.n_actions + 1] * 3
    obs = enc.encode(game, game.current_gang)
    assert space.contains(obs)
    ref = tac.encode(game, game.current_gang)
    assert obs.keys() == ref.keys() | {"advice"}
    assert all(np.array_equal(obs[k], ref[k]) for k in ref)
    assert np.array_equal(obs["advice"], advice(game, game.current_gang))


def test_playing_the_advice_is_playing_the_heuristic():
    """A gang that always plays advice[k] plays the k-th heuristic (gunline, aggressor, sentry) whose
    player generator is seeded like the advice's before every decision: the same game, move for move."""
    for k, agent_cls in enumerate((GunlineAgent, AggressorAgent, SentryAgent)):
        a, b = _game(11), _game(11)
        agent = agent_cls()
        for _ in range(200):
            if a.done:
                break
            act = int(advice(a, a.current_gang)[k])
            seed_game(agent.prng, 0, np.uint64(ADVICE_SEED))
            assert act == agent.act(None, b.mask[0], game=b)
            a.step(act)
            b.step(act)
        assert np.array_equal(a.state.fi, b.state.fi)
