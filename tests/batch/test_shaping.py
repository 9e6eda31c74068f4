"""Shaped rewards, opponent mixes and a fixed learner side in the batched vector env
(necro_env/batch/shaping.py, necro_env/envs/vector_env.py): the same rewards as the Gymnasium
view's RewardSpec (necro_env/envs/rewards.py)."""
import numpy as np
import pytest

from necro_env.batch import BatchedGames
from necro_env.batch import kernels as K
from necro_env.batch.shaping import potential, reward_array
from necro_env.core.rng import seed_game
from necro_env.envs.rewards import RewardSpec
from necro_env.envs.vector_env import NecromundaVecEnv, opponent_mix
from necro_env.rulesets.necromunda.state import FI_POSTURE, FI_STATE, FS_FLED, FS_OOA, PO_SI, state_slice

SHAPED = RewardSpec(win=2.0, loss=-3.0, draw=-0.25, out_of_action=0.1, seriously_injured=0.05, flesh_wound=0.01,
                    own_losses=0.5, approach=0.02)


def _prng(n, seed=100):
    """The test player's own generators (never the games' dice)."""
    p = np.zeros((n, 2), np.uint64)
    for b in range(n):
        seed_game(p, b, np.uint64(seed + b))
    return p


def _as_game(game, state, b):
    """A clone of ``game`` holding game b of a batch."""
    g = game.clone()
    for dst, src in zip(g.state, state_slice(state, b)):
        dst[...] = src
    return g


def test_potential_equals_the_reward_spec_on_states_of_played_games(game2):
    """Aggressive play reaches casualties (Out of Action, Seriously Injured, flesh wounds);
    the compiled potential matches RewardSpec.casualty_value for both gangs at every sample."""
    core = BatchedGames(game2, 6, seed=11).reset()
    rw = reward_array(SHAPED)
    seen = {"ooa": 0, "si": 0}
    for _ in range(30):
        core.play(20, policy="aggressor")
        fi = core.state.fi
        seen["ooa"] += int(((fi[..., FI_STATE] == FS_OOA) | (fi[..., FI_STATE] == FS_FLED)).sum())
        seen["si"] += int((fi[..., FI_POSTURE] == PO_SI).sum())
        for b in range(core.batch_size):
            g = _as_game(game2, core.state, b)
            for gang in range(2):
                want = SHAPED.casualty_value(g, gang)
                assert potential(core.state, core.static, b, gang, rw) == pytest.approx(want, abs=1e-12)
    assert seen["ooa"] > 0 and seen["si"] > 0  # the casualty terms were exercised


def test_no_shaping_means_a_zero_potential(game2):
    core = BatchedGames(game2, 2, seed=0).reset()
    core.play(30, policy="aggressor")
    assert potential(core.state, core.static, 0, 0, reward_array(None)) == 0.0


def _shadow(env, game):
    """The learner's potential of every game, computed in Python (RewardSpec)."""
    return np.array([env.reward_spec.casualty_value(_as_game(game, env.core.state, b), int(env.side[b]))
                     for b in range(env.num_envs)])


def test_vec_env_pays_the_reward_spec_shaping_and_terminal_rewards(game2):
    """Between two learner decisions the reward is the change of RewardSpec's potential; on the
    step that ends a game it is the terminal reward plus the last change (so the episode's
    return in ``info["episode"]`` is the sum of its rewards)."""
    env = NecromundaVecEnv(4, opponent="aggressor", seed=3, game=game2, reward=SHAPED)
    env.reset()
    phi = _shadow(env, game2)
    prng = _prng(4)
    ret = np.zeros(4)
    ended = shaped_steps = 0
    for _ in range(1500):
        obs, r, d, infos = env.step(env.core.sample("aggressor", prng))
        new = _shadow(env, game2)
        ret += r
        for b in range(4):
            if d[b]:
                ended += 1
                assert infos[b]["episode"]["r"] == pytest.approx(float(ret[b]), abs=1e-4)  # sum of rewards
                ret[b] = 0.0
            else:
                assert r[b] == pytest.approx(new[b] - phi[b], abs=1e-5)
                shaped_steps += r[b] != 0
        phi = new
        if ended >= 3:
            break
    assert ended >= 3 and shaped_steps > 0


def test_terminal_rewards_follow_win_loss_and_draw_values(game2):
    spec = RewardSpec(win=2.0, loss=-3.0, draw=-0.25)
    env = NecromundaVecEnv(4, opponent="aggressor", seed=1, game=game2, reward=spec)
    env.reset()
    prng = _prng(4)
    seen = set()
    for _ in range(3000):
        _, r, d, infos = env.step(env.core.sample("random", prng))
        assert (r[~d] == 0).all()  # no shaping terms: only terminal rewards
        for b in np.flatnonzero(d):
            want = -0.25 if infos[b]["TimeLimit.truncated"] else None
            assert r[b] in (2.0, -3.0, -0.25) and (want is None or r[b] == want)
            seen.add(float(r[b]))
        if {2.0, -3.0} <= seen:
            break
    assert -3.0 in seen  # a random learner loses to the aggressor


def test_opponent_mix_is_drawn_per_episode_with_its_weights(game2):
    names, rows = opponent_mix({"random": 3.0, "gunline": 1.0})
    assert names == ["random", "gunline"] and rows[:, 0].tolist() == [0.75, 1.0]
    assert rows[:, 1].tolist() == [K.POLICY_RANDOM, K.POLICY_GUNLINE]
    env = NecromundaVecEnv(64, opponent={"random": 3.0, "gunline": 1.0}, seed=0, game=game2)
    env.reset()
    draws = list(env.opponents())
    assert [i["opponent"] for i in env.reset_infos] == env.opponents()
    for _ in range(4):
        env.reset()
        draws += env.opponents()
    share = draws.count("random") / len(draws)
    assert set(draws) == {"random", "gunline"} and 0.65 < share < 0.85  # 320 draws of p = 0.75


def test_opponent_mix_names_the_opponent_of_each_finished_episode_and_is_deterministic(game2):
    def run():
        env = NecromundaVecEnv(4, opponent={"aggressor": 1.0, "random": 1.0}, seed=7, game=game2)
        env.reset()
        prng = _prng(4)
        out = []
        for _ in range(600):
            before = env.opponents()
            _, r, d, infos = env.step(env.core.sample("random", prng))
            for b in np.flatnonzero(d):
                assert infos[b]["opponent"] == before[b]  # the finished episode's draw, not the next one's
                out.append((b, infos[b]["opponent"], float(r[b])))
        return out

    a = run()
    assert a and a == run()


def test_bad_opponent_mixes_and_learners_are_refused(game2):
    with pytest.raises(ValueError, match="allowed: random, gunline, aggressor"):
        opponent_mix({"gunlin": 1.0})
    with pytest.raises(ValueError, match="compiled policies only"):
        opponent_mix({"external": 1.0})
    with pytest.raises(ValueError, match="must be a number > 0"):
        opponent_mix({"random": 0.0})
    with pytest.raises(ValueError, match="learner must be 'random' or a gang index 0..1"):
        NecromundaVecEnv(2, game=game2, learner=2)


def test_a_fixed_learner_plays_the_same_gang_in_every_episode(game2):
    env = NecromundaVecEnv(4, opponent="aggressor", seed=2, game=game2, learner=1)
    env.reset()
    prng = _prng(4)
    finished = 0
    for _ in range(1500):
        _, _, d, _ = env.step(env.core.sample("random", prng))
        finished += int(d.sum())
        assert (env.side == 1).all()
        if finished >= 2:
            break
    assert finished >= 2


def test_the_kernel_knows_every_reward_option():
    """shaping.RW_FIELDS (the kernel's order) names exactly RewardSpec's fields and the config
    schema's, so a new reward option cannot be dropped silently by the batched env."""
    from necro_env.batch.shaping import RW_FIELDS
    from necro_env.config.training import RewardFile

    assert set(RW_FIELDS) == set(RewardSpec.__dataclass_fields__) == set(RewardFile.model_fields)
    assert reward_array(SHAPED).tolist() == [getattr(SHAPED, f) for f in RW_FIELDS]
