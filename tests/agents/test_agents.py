"""Baseline agents (agents/, necro_env/policies/heuristics.py): legality, determinism, styles."""
import numpy as np
import pytest

from agents import AggressorAgent, GunlineAgent, KernelAgent, RandomAgent, SentryAgent, SideAgent, make_agent
from agents.play import play_game
from necro_env.envs.necromunda_env import build_game
from necro_env.testing import CheckedAgent, board, fighter, gang, kind_of, scenario


@pytest.fixture(scope="module")
def game():
    return build_game()



def test_heuristics_play_whole_games_legally_without_touching_the_dice(game):
    agents = [CheckedAgent(GunlineAgent(seed=1)), CheckedAgent(AggressorAgent(seed=2))]
    r = play_game(game, agents, seed=3)
    assert game.done and r.decisions == agents[0].n + agents[1].n > 20


def test_same_seeds_same_game(game):
    a = play_game(game, [make_agent("gunline"), make_agent("random")], seed=11, record=True)
    b = play_game(game, [make_agent("gunline"), make_agent("random")], seed=11, record=True)
    assert [(g, x) for g, x, _ in a.events] == [(g, x) for g, x, _ in b.events]
    assert (a.winner, a.rounds) == (b.winner, b.rounds)


def test_observers_see_the_reset_and_every_step_as_played(game, tmp_path):
    """play_game's on_reset (after the reset, before any decision) and on_step (after each step, the
    action described as it was before the step); a run's final game (training.common
    .record_final_game) is built on them and is the same game as play_game's."""
    import json

    from training.common import record_final_game

    seen = []
    r = play_game(game, [make_agent("gunline"), make_agent("random")], seed=11, record=True,
                  on_reset=lambda: seen.append(("reset", game.round, game.done)),
                  on_step=lambda g, a, text: seen.append((g, a, text)))
    assert seen[0] == ("reset", 1, False) and len(seen) == r.decisions + 1
    assert [(g, a) for g, a, _ in seen[1:]] == [(g, a) for g, a, _ in r.events]
    game.reset(11)
    assert seen[1][2] == str(game.describe(r.events[0][1])) != ""
    record_final_game(tmp_path, game, [make_agent("gunline"), make_agent("random")], seed=11,
                      agent_names=["gunline", "random"])
    final = json.loads((tmp_path / "final_game.json").read_text())
    assert [(s["gang"], s["action"], s["action_text"]) for s in final["steps"]] == seen[1:]
    assert final["winner"] == r.winner and final["rounds"] == r.rounds
    log = (tmp_path / "final_game.log").read_text().splitlines()
    assert log[:2] == ["gunline plays gang_0", "random plays gang_1"] and len(log) > r.decisions // 4


def test_random_agent_is_uniform_over_legal_and_seeded():
    mask = np.zeros(20, bool)
    mask[[2, 5, 9]] = True
    picks = [RandomAgent(seed=0).act(None, mask) for _ in range(3)]
    assert len(set(picks)) == 1 and picks[0] in (2, 5, 9)
    ag = RandomAgent(seed=1)
    counts = np.bincount([ag.act(None, mask) for _ in range(3000)], minlength=20)
    assert set(np.flatnonzero(counts)) == {2, 5, 9} and counts[[2, 5, 9]].min() > 900


def test_kernel_agents_need_the_game_and_make_agent_refuses_unknown_names(game):
    game.reset(0)
    with pytest.raises(ValueError, match="needs the Game"):
        GunlineAgent().act(None, game.mask[0])
    with pytest.raises(ValueError, match="unknown agent 'sniper'.*random, gunline, aggressor, sentry, ambusher"):
        make_agent("sniper")
    assert isinstance(make_agent("aggressor"), KernelAgent)


def test_a_side_agent_plays_each_gang_with_its_agent(game):
    """sides:gunline,aggressor plays gang 0's decisions as gunline and gang 1's as aggressor
    (each compared with a lone agent of the same seed asked about the same positions)."""
    side = make_agent("sides:gunline,aggressor", seed=4)
    assert isinstance(side, SideAgent) and side.name == "sides:gunline,aggressor" and side.encoder is None
    lone = [GunlineAgent(seed=4), AggressorAgent(seed=4)]
    game.reset(21)
    seen = set()
    while not game.done:
        g = game.current_gang
        a = side.act(None, game.mask[0], game=game)
        assert a == lone[g].act(None, game.mask[0], game=game)
        seen.add(g)
        game.step(a)
    assert seen == {0, 1}
    game.reset(21)
    with pytest.raises(ValueError, match="names 1 gang"):
        short = make_agent("sides:gunline")
        while True:
            game.step(short.act(None, game.mask[0], game=game))
    with pytest.raises(ValueError, match="unknown agent 'gunlin'"):
        make_agent("sides:gunline,gunlin")
    with pytest.raises(ValueError, match="one agent per gang"):
        make_agent("sides:gunline,")


B = board("""
..........
..........
..........
..........
..........
""")


def test_aggressor_charges_an_enemy_in_reach_and_gunline_aims_then_shoots():
    """Styles: with an enemy 4" away the AGGRESSOR charges it; the GUNLINE aims, then shoots it."""
    def fresh():
        a = fighter("goliath", "ganger", ["autopistol", "fighting_knife"], name="a")
        e = fighter("orlock", "ganger", ["lasgun"], name="e")
        g = scenario(B, [gang("x", a), gang("y", e)], [dict(fighter="a", cell=(1, 2), facing="E"),
                                                      dict(fighter="e", cell=(5, 2), facing="W")])
        g.activate("a")
        return g

    g = fresh()
    assert g.can("charge", target="e")
    assert kind_of(g, AggressorAgent(seed=0).act(None, g.mask[0], game=g)) == "charge"
    g = fresh()
    gl = GunlineAgent(seed=0)
    a = gl.act(None, g.mask[0], game=g)
    assert kind_of(g, a) == "aim"
    g.step(a)
    assert kind_of(g, gl.act(None, g.mask[0], game=g)) == "shoot"


def test_both_heuristics_finish_a_seriously_injured_enemy_with_coup_de_grace():
    """Coup de Grace (§8.6 in the digest's numbering of actions) beats every other option."""
    for agent in (GunlineAgent(seed=0), AggressorAgent(seed=0), SentryAgent(seed=0)):
        a = fighter("goliath", "ganger", ["autopistol", "fighting_knife"], name="a")
        e = fighter("orlock", "ganger", ["lasgun"], name="e")
        e2 = fighter("orlock", "ganger", ["lasgun"], name="e2")
        g = scenario(B, [gang("x", a), gang("y", e, e2)], [
            dict(fighter="a", cell=(1, 2), facing="E"),
            dict(fighter="e", cell=(2, 2), posture="seriously_injured"),
            dict(fighter="e2", cell=(8, 2), facing="W")])
        g.activate("a")
        assert g.can("coup_de_grace", target="e")
        assert kind_of(g, agent.act(None, g.mask[0], game=g)) == "coup_de_grace", agent.name


def test_gunline_takes_cover_when_exposed_after_shooting():
    """Having shot, with an action left and enemies that can see it, the GUNLINE takes cover."""
    a = fighter("orlock", "ganger", ["lasgun"], name="a")
    e = fighter("goliath", "ganger", ["stub_gun"], name="e")
    b = board("""
..........
....oo....
..........
..........
""")
    g = scenario(b, [gang("x", a), gang("y", e)], [dict(fighter="a", cell=(1, 2), facing="E"),
                                                   dict(fighter="e", cell=(8, 2), facing="W")])
    g.activate("a")
    g.script_dice([1] * 40)  # the shot misses (natural 1): the target stays Standing and dangerous
    g.act("shoot", weapon=0, target="e")
    assert g.decision[0] == "choose_action"
    gl = GunlineAgent(seed=0)
    a_ = gl.act(None, g.mask[0], game=g)
    assert kind_of(g, a_) == "take_cover", g.describe(a_)
