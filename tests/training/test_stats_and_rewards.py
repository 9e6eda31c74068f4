"""Evaluation statistics (Wilson, Bradley-Terry), paired games, and the reward options."""
import numpy as np
import pytest

from agents import make_agent
from necro_env.envs.gym_wrapper import NecromundaGymEnv
from necro_env.envs.necromunda_env import build_game
from necro_env.envs.rewards import RewardSpec
from necro_env.rulesets.necromunda.state import FI_POSTURE, FI_STATE, FS_OOA, PO_SI
from training.evaluate import bradley_terry, markdown, paired_match, summarize, wilson


def test_wilson_interval_known_values():
    lo, hi = wilson(90, 100)
    assert abs(lo - 0.8256) < 1e-3 and abs(hi - 0.9448) < 1e-3
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_bradley_terry_orders_and_anchors_at_random():
    names = ["random", "b", "c"]
    # b beats random 80%, c beats b 80%
    r = bradley_terry(names, [(1, 0, 80, 100), (2, 1, 80, 100), (2, 0, 95, 100)])
    assert r["random"] == 0.0 and 0 < r["b"] < r["c"]
    assert abs(r["b"] - 400 * np.log10(4)) < 60  # 80% is about +240 Elo


def test_a_paired_match_of_a_deterministic_agent_against_itself_is_exactly_even():
    """Both games of a pair share the seed (deployment and dice): mirror players mirror results."""
    game = build_game()
    m = paired_match(game, make_agent("gunline", seed=4), make_agent("gunline", seed=4), pairs=2, seed0=7)
    assert m["games"] == 4 and m["win"] == m["loss"]
    # per side: both games of a pair are the same game, so a's wins as gang 0 are its losses as gang 1
    (w0, d0, l0), (w1, d1, l1) = m["by_side"]
    assert (w0, d0, l0) == (l1, d1, w1) and w0 + d0 + l0 == 2
    assert [w0 + w1, d0 + d1, l0 + l1] == [m["win"], m["draw"], m["loss"]]


def test_evaluation_tables_report_the_results_by_side():
    """eval.md / eval.csv carry each match's W-D-L as gang 0 and as gang 1 (docs/training.md, "Sides")."""
    game = build_game()
    m = paired_match(game, make_agent("gunline", seed=1), make_agent("random", seed=2), pairs=3, seed0=11)
    row = summarize("gunline", "random", m)
    assert row["as_gang_0"] == "-".join(map(str, m["by_side"][0])) and row["as_gang_1"] == "-".join(
        map(str, m["by_side"][1]))
    md = markdown({"pairs": 3, "seed0": 11, "matches": [row], "ratings": {"gunline": 0.0, "random": 0.0}})
    assert "W-D-L as gang 0" in md and f"| {row['as_gang_0']} | {row['as_gang_1']} |" in md


def test_streams_replay_the_pairs_with_other_player_seeds():
    """``streams=K`` (necro-eval --streams): stream 0 is the usual match, game for game; stream k
    replays the same game seeds with the players' generators seeded STREAM_STEP * k further on, so
    a script's tie-breaks change and the games with them, while the counts add up over the streams
    (docs/training.md, "Repeats with other player seeds")."""
    from agents.play import STREAM_STEP, play_game, player_seed

    game = build_game()
    a, b = make_agent("random", seed=1), make_agent("aggressor", seed=2)
    one = paired_match(game, a, b, pairs=2, seed0=30)
    three = paired_match(game, a, b, pairs=2, seed0=30, streams=3)
    assert one["by_stream"] == [[one["win"], one["draw"], one["loss"]]]
    assert three["games"] == 12 and len(three["by_stream"]) == 3
    assert three["by_stream"][0] == one["by_stream"][0]
    assert [sum(s[j] for s in three["by_stream"]) for j in range(3)] == [three["win"], three["draw"], three["loss"]]
    assert player_seed(30, 1) == 30_002 and player_seed(30, 1, stream=2) == 30_002 + 2 * STREAM_STEP
    manual = [0, 0, 0]  # stream 1 by hand: the same seeds, gang g's player seeded player_seed(seed, g, 1)
    for seed in (30, 31):
        for side in (0, 1):
            r = play_game(game, [a, b] if side == 0 else [b, a], seed=seed,
                          agent_seeds=[player_seed(seed, 0, 1), player_seed(seed, 1, 1)])
            manual[1 if r.winner < 0 else (0 if r.winner == side else 2)] += 1
    assert three["by_stream"][1] == manual
    # stream 1 plays other games: the random player draws other actions from the same position
    usual = play_game(game, [a, b], seed=30, record=True)
    other = play_game(game, [a, b], seed=30, stream=1, record=True)
    assert [x[1] for x in usual.events] != [x[1] for x in other.events]
    row = summarize("random", "aggressor", three)
    assert row["streams"] == 3 and row["wins_by_stream"] == " ".join(str(s[0]) for s in three["by_stream"])
    md = markdown({"pairs": 2, "seed0": 30, "streams": 3, "matches": [row], "ratings": {"random": 0.0}})
    assert "in 3 streams of player seeds" in md and f"| {row['wins_by_stream']} |" in md
    with pytest.raises(ValueError, match="streams must be at least 1, got 0"):
        paired_match(game, a, b, pairs=1, streams=0)


def test_reward_spec_terminal_and_casualty_shaping():
    game = build_game()
    game.reset(1)
    spec = RewardSpec(draw=-0.5, out_of_action=0.2, seriously_injured=0.1, own_losses=0.5)
    assert spec.casualty_value(game, 0) == 0.0
    mf = game.dims.max_fighters
    game.state.fi[0, mf + 0, FI_STATE] = FS_OOA       # an enemy of gang 0 out of action
    game.state.fi[0, mf + 1, FI_POSTURE] = PO_SI      # another seriously injured
    game.state.fi[0, 0, FI_STATE] = FS_OOA            # one of our own out of action
    assert spec.casualty_value(game, 0) == pytest.approx(0.2 + 0.1 - 0.5 * 0.2)
    assert spec.casualty_value(game, 1) == pytest.approx(0.2 - 0.5 * 0.3)
    with pytest.raises(ValueError, match="unknown option.*'dra'"):
        RewardSpec.from_config({"dra": 1})


def test_gym_env_pays_the_draw_reward_at_the_round_limit():
    env = NecromundaGymEnv(encoder="flat", round_limit=1, reward={"draw": -0.5}, learner=0)
    rng = np.random.default_rng(0)
    total, draws = 0, 0
    for ep in range(3):
        env.reset(seed=ep)
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _, r, term, trunc, _ = env.step(int(rng.choice(legal)))
            done = term or trunc
        if trunc:
            draws += 1
            assert r == -0.5
        total += 1
    assert draws >= 1


def test_gym_env_accepts_an_agent_opponent_and_gives_it_the_game():
    env = NecromundaGymEnv(encoder="flat", learner=0, opponents=make_agent("aggressor", seed=0))
    env.reset(seed=0)
    for _ in range(30):
        legal = np.flatnonzero(env.action_masks())
        _, _, term, trunc, _ = env.step(int(legal[0]))
        if term or trunc:
            break


def test_approach_shaping_pays_for_closing_in_along_the_path():
    """The approach term is the path distance (walls block) from the learner's fighters to the nearest enemy."""
    from necro_env.rulesets.necromunda.rewards import mean_enemy_distance
    from necro_env.rulesets.necromunda.state import FI_X
    from necro_env.testing import board, fighter, gang, scenario

    b = board("""
........
.######.
........
""")
    a = fighter("orlock", "ganger", ["lasgun"], name="a")
    e = fighter("goliath", "ganger", ["stub_gun"], name="e")
    g = scenario(b, [gang("x", a), gang("y", e)], [{"fighter": "a", "cell": (1, 0)}, {"fighter": "e", "cell": (1, 2)}])
    assert mean_enemy_distance(g, 0) == 2.0  # around no wall: (1,0) -> (0,1) -> (1,2)
    g.state.fi[0, 0, FI_X] = 3  # (3, 0): the wall below forces the long way round
    assert mean_enemy_distance(g, 0) == 4.0
    spec = RewardSpec(approach=0.1)
    far = spec.casualty_value(g, 0)
    g.state.fi[0, 0, FI_X] = 1
    assert spec.casualty_value(g, 0) - far == pytest.approx(0.2)


def test_necro_eval_builds_side_agents_whose_games_are_the_scripts_games():
    """necro-eval's ``sides:gunline,aggressor`` plays each side's script: as gang 0 its results
    against random are gunline's, as gang 1 aggressor's, game for game (same seeds)."""
    from agents.base import SideAgent
    from training.evaluate import build_agents

    game = build_game()
    agents = build_agents(["sides:gunline,aggressor", "random", "sides:gunline,aggressor"], game)
    assert list(agents) == ["sides:gunline,aggressor", "random", "sides:gunline,aggressor#2"]
    assert isinstance(agents["sides:gunline,aggressor"], SideAgent)
    side = paired_match(game, agents["sides:gunline,aggressor"], make_agent("random", seed=2), pairs=3, seed0=40)
    gun = paired_match(game, make_agent("gunline"), make_agent("random", seed=2), pairs=3, seed0=40)
    agg = paired_match(game, make_agent("aggressor"), make_agent("random", seed=2), pairs=3, seed0=40)
    assert side["by_side"] == [gun["by_side"][0], agg["by_side"][1]]
    with pytest.raises(ValueError, match="one agent per gang"):
        build_agents(["sides:gunline,,random"], game)
