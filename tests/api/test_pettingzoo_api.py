"""The PettingZoo AEC env necromunda_v0 (docs/api.md): PettingZoo's own API and seed tests,
turn-taking, rewards / termination / truncation, illegal actions, seeding, rendering."""
import re

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from necro_env import necromunda_v0
from necro_env.rulesets.necromunda.render_text import fighter_symbol
from necro_env.rulesets.necromunda.game import IllegalActionError
from necro_env.rulesets.necromunda.state import FI_STATE, FS_ON, FS_OOA, clone_state, state_equal

# api_test warns for every Dict observation (as for PettingZoo's own classic envs)
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning"),
]


def _random_action(obs, rng):
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.integers(len(legal))])


def _play_to_end(env, rng):
    """Play random legal actions until the game ends; return the final last() tuple of every agent."""
    final = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = (reward, term, trunc, info)
            env.step(None)
        else:
            env.step(_random_action(obs, rng))
    return final


# ---------------------------------------------------------------------------- PettingZoo's tests
@pytest.mark.parametrize("encoder", ["flat", "entity"])
def test_pettingzoo_api_test(encoder):
    api_test(necromunda_v0.env(encoder=encoder, seed=0), num_cycles=1000)


def test_pettingzoo_api_test_spatial():
    api_test(necromunda_v0.env(encoder="spatial", seed=0), num_cycles=200)


def test_pettingzoo_seed_test():
    seed_test(lambda: necromunda_v0.env(encoder="flat"), num_cycles=300)


def test_pettingzoo_api_test_three_gangs():
    """The engine is written for N gangs; the boards have 4 deployment zones."""
    env = necromunda_v0.env(num_gangs=3, encoder="flat", seed=1)
    api_test(env, num_cycles=300)
    env.reset(seed=2)
    assert env.agents == ["gang_0", "gang_1", "gang_2"]
    seen = set()
    rng = np.random.default_rng(0)
    for _ in range(300):
        agent = env.agent_selection
        seen.add(agent)
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(_random_action(obs, rng))
    assert seen == {"gang_0", "gang_1", "gang_2"}


def test_four_gangs_work_and_five_are_rejected():
    env = necromunda_v0.raw_env(num_gangs=4, encoder="flat")
    env.reset(seed=0)
    assert env.possible_agents == [f"gang_{i}" for i in range(4)]
    assert len({g.name for g in env.game.gangs}) == 4
    with pytest.raises(ValueError, match="deployment zones for 4 gangs"):
        necromunda_v0.raw_env(num_gangs=5)
    with pytest.raises(ValueError, match="at least 2"):
        necromunda_v0.raw_env(num_gangs=1)
    with pytest.raises(ValueError, match="num_gangs=3"):
        necromunda_v0.raw_env(gangs=["gangs/orlock.yaml", "gangs/escher.yaml"], num_gangs=3)


# ---------------------------------------------------------------------------- construction
def test_env_is_wrapped_like_classic_envs():
    env = necromunda_v0.env()
    assert isinstance(env, OrderEnforcingWrapper)
    assert isinstance(env.unwrapped, necromunda_v0.raw_env)
    assert necromunda_v0.raw_env.metadata == {"name": "necromunda_v0", "render_modes": ["ansi", "rgb_array", "human"],
                                              "render_fps": 4, "is_parallelizable": False}
    assert str(env.unwrapped) == "necromunda_v0"


def test_constructor_overrides():
    env = necromunda_v0.raw_env(board="boards/zm_hall.yaml", gangs=["gangs/escher.yaml", "gangs/van_saar.yaml"],
                                round_limit=3, max_fighters=10, max_weapons=5)
    game = env.game
    assert game.board.name == "zm_hall"
    assert [g.house for g in game.gangs] == ["escher", "van_saar"]
    assert game.round_limit == 3
    assert game.dims.max_fighters == 10 and game.dims.max_weapons == 5
    assert env.action_space("gang_0").n == game.n_actions
    # the scenario's doors_start ("closed") applies to an overriding board: no door starts open
    env.reset(seed=0)
    assert not (game.state.door[0, :len(game.board.doors), 0] == 1).any()
    with pytest.raises(ValueError, match="encoder"):
        necromunda_v0.raw_env(encoder="pixels")
    with pytest.raises(ValueError, match="illegal_action"):
        necromunda_v0.raw_env(illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        necromunda_v0.raw_env(render_mode="pixels")


def test_spaces_are_cached_and_match_the_game():
    env = necromunda_v0.raw_env(encoder="entity")
    for a in env.possible_agents:
        assert env.observation_space(a) is env.observation_space(a)
        assert env.action_space(a) is env.action_space(a)
        assert env.action_space(a).n == env.game.n_actions
        assert env.observation_space(a)["action_mask"].shape == (env.game.n_actions,)
        assert env.observation_space(a)["action_mask"].dtype == np.int8


# ---------------------------------------------------------------------------- turn-taking
def test_agent_selection_is_the_deciding_gang_and_only_it_gets_a_mask():
    env = necromunda_v0.env(encoder="flat")
    env.reset(seed=3)
    u = env.unwrapped
    rng = np.random.default_rng(0)
    for _ in range(200):
        if u.game.done:
            break  # the last step ended the game: agent_selection now walks the dead agents
        sel = env.agent_selection
        assert sel == f"gang_{u.game.current_gang}"
        for a in env.agents:
            mask = env.observe(a)["action_mask"]
            if a == sel:
                assert np.array_equal(mask.astype(bool), u.game.mask[0])
                assert mask.sum() >= 1
            else:
                assert mask.sum() == 0
        info = env.infos[sel]
        assert info["round"] == u.game.round
        assert info["decision"] == u.game.decision[0]
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(_random_action(obs, rng))


def test_observation_is_from_the_observers_point_of_view():
    """Own gang first: the observing gang's fighters are rows 0..MF-1 of the entity encoding."""
    env = necromunda_v0.raw_env(encoder="entity")
    env.reset(seed=0)
    mf = env.game.dims.max_fighters
    from necro_env.envs.encoders import _F

    for gang, agent in enumerate(env.possible_agents):
        rows = env.observe(agent)["observation"]["fighters"]
        assert (rows[:mf, _F["own"]] == 1).all() and (rows[mf:, _F["own"]] == 0).all()
        for r in range(2 * mf):
            g = (gang + r // mf) % 2
            f = g * mf + r % mf
            assert rows[r, _F["x"]] == pytest.approx(env.game.state.fi[0, f, 1] / env.game.dims.width)


# ---------------------------------------------------------------------------- illegal actions
def test_illegal_action_raises_and_leaves_the_env_unchanged():
    env = necromunda_v0.env(encoder="flat")
    env.reset(seed=0)
    u = env.unwrapped
    agent = env.agent_selection
    obs = env.observe(agent)
    before = clone_state(u.game.state)
    mask_before = u.game.mask.copy()
    cum_before = dict(u._cumulative_rewards)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    for bad in (illegal, -1, u.n_actions, None, "move"):
        with pytest.raises(IllegalActionError):
            env.step(bad)
        assert state_equal(u.game.state, before)
        assert np.array_equal(u.game.mask, mask_before)
        assert env.agent_selection == agent
        assert u._cumulative_rewards == cum_before
        assert not any(u.terminations.values()) and not any(u.truncations.values())
        after = env.observe(agent)
        assert np.array_equal(after["observation"], obs["observation"])
        assert np.array_equal(after["action_mask"], obs["action_mask"])
    # the env still plays on
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_illegal_action_terminate_mode():
    """illegal_action="terminate": the offender gets -1, the others 0, as TerminateIllegalWrapper."""
    env = necromunda_v0.env(encoder="flat", illegal_action="terminate")
    env.reset(seed=0)
    offender = env.agent_selection
    obs = env.observe(offender)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.infos[offender]["illegal_action"] is True
    final = _play_to_end(env, np.random.default_rng(0))
    assert set(final) == {"gang_0", "gang_1"}
    for a, (reward, term, trunc, info) in final.items():
        assert term and not trunc
        assert reward == (-1 if a == offender else 0)
    assert env.agents == []


# ---------------------------------------------------------------------------- game end
def test_win_rewards_terminations_and_dead_agent_protocol():
    env = necromunda_v0.env(encoder="flat")
    env.reset(seed=0)
    u = env.unwrapped
    mf = u.game.dims.max_fighters
    assert env.agent_selection == "gang_0" or env.agent_selection == "gang_1"
    winner = env.agent_selection
    loser = "gang_1" if winner == "gang_0" else "gang_0"
    lg = u.agent_name_mapping[loser]
    # every fighter of the loser goes Out of Action; the next decision ends the game
    u.game.state.fi[0, lg * mf:(lg + 1) * mf, FI_STATE] = FS_OOA
    obs = env.observe(winner)
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert u.game.done and u.game.winner == u.agent_name_mapping[winner]
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert u._cumulative_rewards == {winner: 1, loser: -1}
    assert env.observe(winner)["action_mask"].sum() == 0
    final = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        assert term and not trunc
        assert info["winner"] == winner
        final[agent] = reward
        with pytest.raises(ValueError):
            env.step(0)  # a dead agent may only step with None
        env.step(None)
    assert final == {winner: 1, loser: -1}
    assert env.agents == []


def test_round_limit_truncates_with_zero_reward():
    env = necromunda_v0.env(encoder="flat", round_limit=1)
    env.reset(seed=4)
    final = _play_to_end(env, np.random.default_rng(4))
    game = env.unwrapped.game
    assert game.done and game.truncated and game.round == 1
    assert set(final) == {"gang_0", "gang_1"}
    for reward, term, trunc, info in final.values():
        assert trunc and not term and reward == 0 and info["winner"] is None


def test_reset_after_game_end_restores_all_agents():
    env = necromunda_v0.env(encoder="flat", round_limit=1)
    env.reset(seed=1)
    _play_to_end(env, np.random.default_rng(1))
    env.reset(seed=2)
    assert env.agents == ["gang_0", "gang_1"]
    assert not any(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards == {"gang_0": 0, "gang_1": 0}


# ---------------------------------------------------------------------------- seeding
def test_reset_is_deterministic():
    e1 = necromunda_v0.env(encoder="flat", seed=11)
    e2 = necromunda_v0.env(encoder="flat", seed=11)
    e1.reset(seed=5)
    e2.reset(seed=5)
    assert state_equal(e1.unwrapped.game.state, e2.unwrapped.game.state)
    assert np.array_equal(e1.observe("gang_0")["observation"], e2.observe("gang_0")["observation"])
    # seed=None: a seed drawn from the generator seeded at construction (or by the last reset(seed))
    e1.reset()
    e2.reset()
    assert e1.unwrapped.game_seed == e2.unwrapped.game_seed
    assert state_equal(e1.unwrapped.game.state, e2.unwrapped.game.state)
    seeds = {e1.unwrapped.game_seed}
    for _ in range(3):
        e1.reset()
        seeds.add(e1.unwrapped.game_seed)
    assert len(seeds) == 4
    e3 = necromunda_v0.env(encoder="flat", seed=12)
    e3.reset()
    assert e3.unwrapped.game_seed != e2.unwrapped.game_seed


def test_same_seed_same_game():
    """Two envs with the same seed and the same actions play the same game (dice included)."""
    envs = [necromunda_v0.env(encoder="flat") for _ in range(2)]
    for e in envs:
        e.reset(seed=21)
    rng = np.random.default_rng(21)
    for _ in range(300):
        obs = [e.last()[0] for e in envs]
        assert np.array_equal(obs[0]["observation"], obs[1]["observation"])
        if envs[0].unwrapped.game.done:
            break
        a = _random_action(obs[0], rng)
        for e in envs:
            e.step(a)
    assert state_equal(envs[0].unwrapped.game.state, envs[1].unwrapped.game.state)


# ---------------------------------------------------------------------------- state / render
def test_state_is_a_global_view():
    env = necromunda_v0.raw_env(encoder="entity")
    env.reset(seed=0)
    st = env.state()
    assert env.state_space.contains(st)


def test_ansi_render_shows_the_map_and_every_fighter():
    env = necromunda_v0.env(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    game = env.unwrapped.game
    lines = text.splitlines()
    assert lines[0].startswith("board zm_corridors")
    map_rows = {int(ln[:3]): ln[4:] for ln in lines[2:2 + game.dims.height]}
    assert len(map_rows) == game.dims.height
    # row 0 of the corridors board is all wall
    assert map_rows[0].replace(" ", "") == "#" * game.dims.width
    mf = game.dims.max_fighters
    for f in np.flatnonzero(game.state.fi[0, :, FI_STATE] == FS_ON):
        g, i = divmod(int(f), mf)
        x, y = int(game.state.fi[0, f, 1]), int(game.state.fi[0, f, 2])
        sym = fighter_symbol(g, i)
        assert map_rows[y][2 * x] == sym
        name = game.fighter_names[g][i]
        assert re.search(rf"gang_{g}\s+{re.escape(sym)}\s+{re.escape(name[:18])}", text)
    assert "round 1/12" in text and "decision: select_fighter" in text
    # letters used for fighters never collide with terrain symbols
    assert not set("".join(["ABCDEFGHIJKMNPQRSTUVWXYZ", "abdefghijkmnpqrsvwxyz"])) & set("#.o+/L_cu=t")


def test_render_without_mode_returns_none():
    env = necromunda_v0.env()
    env.reset(seed=0)
    assert env.render() is None


# ---------------------------------------------------------------------------- docs
@pytest.mark.parametrize("kw", [{}, {"num_gangs": 3, "max_weapons": 5},
                                {"board": "boards/zm_hall.yaml", "max_fighters": 10}])
def test_action_space_size_formula_of_the_docs(kw):
    """docs/api.md: n_actions = 2·MF + 8 + 6 + 8·H·W + 6·G·MF + 3·(MW·2·G·MF) + MW + 4·doors + 2·caskets
    + MW·H·W (shoot_cell)."""
    d = necromunda_v0.raw_env(**kw).game.dims
    nf = d.n_gangs * d.max_fighters
    n = (2 * d.max_fighters + 8 + 6 + 8 * d.height * d.width + 6 * nf + 3 * d.max_weapons * 2 * nf + d.max_weapons
         + 4 * d.max_doors + 2 * d.max_caskets + d.max_weapons * d.height * d.width)
    assert necromunda_v0.raw_env(**kw).action_space("gang_0").n == n


def test_docs_action_table_is_in_sync():
    from pathlib import Path

    from necro_env.envs.necromunda_env import action_table_markdown

    doc = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    assert action_table_markdown(necromunda_v0.raw_env().game) in doc
