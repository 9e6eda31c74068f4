"""The SENTRY heuristic (necro_env/policies/heuristics.py, STYLE_SENTRY; agents.SentryAgent): its
distinctive choices in scripted positions (out of charge reach, Aim and shoot in it, fall back after
a shot, no step into the open without a shot, the best target, fight back only when engaged), its
parts (the threat field, the stray-shot share), and its registration as a built-in agent and
compiled policy (whole games: test_scripts.py)."""
import numpy as np
import pytest

from agents import AggressorAgent, GunlineAgent, SentryAgent, make_agent
from agents.base import BUILTIN, agent_name
from agents.search import RolloutAgent
from necro_env.batch import kernels as K
from necro_env.config import agent_spec
from necro_env.config.training import BUILTIN_OPPONENTS
from necro_env.policies import heuristics as H
from necro_env.rulesets.necromunda import codec as C
from necro_env.testing import board, fighter, gang, kind_of, scenario
from tests.rules.scenario_helpers import make, u


def cell_of(g, name):
    return g.fighter(name)["cell"]


def threat(g, gang_index=0):
    """The sentry's threat field of ``gang_index`` as an [H, W] array."""
    h, w = g.static.terrain.shape
    thr = np.empty(h * w, np.int32)
    H.fill_threat_field(g.state, g.static, 0, gang_index, thr)
    return thr.reshape(h, w)


def play_activation(g, agent, name):
    """Let ``agent`` play fighter ``name``'s activation to its end; the kinds it chose."""
    f = g.fid(name)
    kinds = []
    while not g.done and g.active_fighter == f:
        a = agent.act(None, g.mask[0], game=g)
        kinds.append(kind_of(g, a))
        g.step(a)
    return kinds


def one_against_one(board_, weapons, cell, enemy, enemy_cell, facing, enemy_facing, round_=1):
    """An Orlock ganger "s" with ``weapons`` at ``cell`` against a Goliath "e" at ``enemy_cell``
    (``enemy``: its type and weapons), with s activated in round ``round_``."""
    kind, enemy_weapons = enemy
    g = make(u(0, "s", cell, weapons, facing=facing),
             u(1, "e", enemy_cell, enemy_weapons, house="goliath", kind=kind, facing=enemy_facing),
             board_=board_, spares=False)
    g.activate("s", round_=round_)
    return g


OPEN = board("""
........................
........................
........................
........................
........................
""")


def charge_position(weapons, round_=1, friends=0):
    """An Orlock ganger (M5) with ``weapons`` 6" from a Goliath ganger with an axe (M4: charge reach
    4 + D3 = 7"), activated in round ``round_``; ``friends`` more Orlock gangers (knives) at the far
    end of the row (fighters in the fight: 1 + friends against 1)."""
    s = fighter("orlock", "ganger", weapons, name="s")
    fs = [fighter("orlock", "ganger", ["fighting_knife"], name=f"f{i}") for i in range(friends)]
    e = fighter("goliath", "ganger", ["axe"], name="e")
    places = [dict(fighter="s", cell=(12, 2), facing="W"), dict(fighter="e", cell=(6, 2), facing="E")]
    places += [dict(fighter=f"f{i}", cell=(23, i), facing="W") for i in range(friends)]
    g = scenario(OPEN, [gang("x", s, *fs), gang("y", e)], places)
    g.activate("s", round_=round_)
    return g


def test_the_threat_field_is_the_path_cost_less_the_charge_reach():
    """A Goliath ganger (M4: 7" charge, 14 half-inches) on an open row: slack 2 per orthogonal step
    less 14, 3 per diagonal step; the sentry counts a cell in charge reach at slack <= THREAT. Since
    revision 9 (THREAT 1) a cell at slack 2, such as (10, 2), counts as out of reach: the charger gets
    into base contact with it, at (9, 2), only with the highest roll of its charge's D3 (M + 3")."""
    e = fighter("goliath", "ganger", ["axe"], name="e")
    s = fighter("orlock", "ganger", ["autogun"], name="s")
    g = scenario(OPEN, [gang("x", s), gang("y", e)], [dict(fighter="s", cell=(23, 0)),
                                                     dict(fighter="e", cell=(2, 2))])
    t = threat(g)
    assert t[2, 2] == -14 and t[2, 9] == 0 and t[2, 10] == 2 and t[2, 11] == 4
    assert t[0, 4] == 3 * 2 - 14  # two diagonal steps
    assert t[2, 9] <= H.THREAT < t[2, 10]
    assert t[2, 23] == H.THR_FAR  # beyond the search (THR_LIM)
    # a closed door costs THR_DOOR more (another enemy may open it first); a locked one blocks
    for door, want in (("+", 2 * 7 + H.THR_DOOR - 14), ("L", H.THR_FAR)):
        b = board(f"""
        ############
        ......{door}.....
        ############
        """)
        g = scenario(b, [gang("x", fighter("orlock", "ganger", ["autogun"], name="s")),
                         gang("y", fighter("goliath", "ganger", ["axe"], name="e"))],
                     [dict(fighter="s", cell=(11, 1)), dict(fighter="e", cell=(0, 1))])
        assert threat(g)[1, 7] == want, door


def test_in_charge_reach_with_nothing_to_shoot_it_moves_out_of_reach_and_does_not_charge():
    """No gun, an enemy that can charge it: the SENTRY moves (5") out of the charge reach; it never
    charges a Standing enemy (the AGGRESSOR does, at once)."""
    g = charge_position(["fighting_knife"])
    assert threat(g)[2, 12] <= H.THREAT and g.can("charge", target="e")
    kinds = play_activation(g, SentryAgent(seed=0), "s")
    assert kinds[0] == "move" and "charge" not in kinds
    x, y = cell_of(g, "s")
    assert threat(g)[y, x] > H.THREAT
    g = charge_position(["fighting_knife"])
    assert kind_of(g, AggressorAgent(seed=0).act(None, g.mask[0], game=g)) == "charge"


@pytest.mark.parametrize("round_, friends, finishing", [
    (1, 0, False), (8, 0, False),  # even numbers before FINISH_ROUND: it keeps out of the charge reach
    (1, 1, True),  # two to one (FINISH_RATIO): it goes in
    (H.FINISH_ROUND, 0, True),  # the last rounds: a draw is worth no more than a loss
])
def test_it_goes_in_to_finish_the_enemy_when_twice_as_many_or_late(round_, friends, finishing):
    """The position of the test above (no shot, a Standing enemy that can charge it): holding or
    pressing, the SENTRY moves out of the charge reach; finishing (twice the enemy's fighters in the
    fight, or from FINISH_ROUND on) it charges, as the GUNLINE does when it has no shot. Holding its
    ground out of the charge reach instead, it drew games in which it outnumbered the enemy
    (docs/results.md, "The sentry finishes")."""
    assert H.FINISH_RATIO == 2.0 and H.FINISH_ROUND == 9
    g = charge_position(["fighting_knife"], round_, friends)
    kinds = play_activation(g, SentryAgent(seed=0), "s")
    if finishing:
        assert kinds[0] == "charge"
    else:
        assert kinds[0] == "move" and "charge" not in kinds
        x, y = cell_of(g, "s")
        assert threat(g)[y, x] > H.THREAT


def test_finishing_it_walks_into_the_charge_reach_toward_the_enemy():
    """Out of reach of everything and with nothing to shoot, a lone SENTRY ganger (M5) facing a lone
    Goliath (charge reach 7", 17" away) keeps out of its reach in round 1 and walks into it, two
    Moves straight at it, from FINISH_ROUND on."""
    def far(round_):
        g = one_against_one(OPEN, ["fighting_knife"], (23, 2), ("ganger", ["axe"]), (6, 2), "W", "E",
                            round_)
        play_activation(g, SentryAgent(seed=0), "s")
        x, y = cell_of(g, "s")
        return x, threat(g)[y, x]

    x1, slack1 = far(1)
    x9, slack9 = far(H.FINISH_ROUND)
    assert slack1 > H.THREAT and slack9 <= H.THREAT
    assert x9 == 23 - 10 and x9 < x1  # two Moves of 5" straight at the enemy


def shoots_and_misses(g):
    """Fighter s's first action in ``g``, played for the SENTRY: a Shoot at e, which misses (natural
    1s; the game's dice from its generator again after it), so the target stays Standing and
    dangerous. (The sentry itself Aims first where it has a shot to follow: revision 9.)"""
    g.script_dice([1] * 40)
    g.act("shoot", weapon=0, target=g.fid("e"))
    g.use_generator()
    assert g.fighter("e")["posture"] == "standing" and g.active_fighter == g.fid("s")


def test_in_charge_reach_it_aims_and_shoots_where_it_stands():
    """Revision 9 (session 44; docs/results.md, "The sentry Aims in charge reach"): with a gun and an
    enemy that can charge it, the SENTRY Aims, then shoots with the Aim's +1 (rules 5.2, Aim: a Shoot
    later in the same activation gets +1 to hit), as the GUNLINE does, spending both actions where it
    stands. Revision 8 shot at once, keeping its second action to get out of the charge reach, and
    won fewer games."""
    assert H.REVISIONS["sentry"] >= 9 and H.REVISIONS["ambusher"] >= 9
    g = charge_position(["autogun"])
    assert kind_of(g, GunlineAgent(seed=0).act(None, g.mask[0], game=g)) == "aim"
    x, y = cell_of(g, "s")
    assert threat(g)[y, x] <= H.THREAT and g.can("move", cell=(17, 2)) and threat(g)[2, 17] > H.THREAT
    assert play_activation(g, SentryAgent(seed=0), "s") == ["aim", "shoot"]
    assert cell_of(g, "s") == (x, y)


def test_in_charge_reach_after_a_shot_it_moves_out_of_reach():
    """With its second action left after a Shoot (a Basic action: once per activation, rules 5.1) and
    an enemy that can charge it, the SENTRY moves out of the charge reach."""
    g = charge_position(["autogun"])
    shoots_and_misses(g)
    assert play_activation(g, SentryAgent(seed=0), "s")[0] == "move"
    x, y = cell_of(g, "s")
    assert threat(g)[y, x] > H.THREAT


DEAD_END = board("""
#########
#.......#
#########
""")


def dead_end_position(weapons):
    """An Orlock ganger at the closed end of a corridor, 6" from a Goliath ganger with an axe (charge
    reach 7"): every cell it could move to is in the charge reach."""
    return one_against_one(DEAD_END, weapons, (7, 1), ("ganger", ["axe"]), (1, 1), "W", "E")


def test_in_charge_reach_with_no_way_out_it_stays_where_it_stands():
    """Revision 3 (session 37; docs/results.md, "The sentry holds where it stands"): in charge reach
    with no cell out of it, the SENTRY ends its activation where it stands (its End scores at least
    HOLD) instead of moving within the reach; with a gun, after its shot, it ends there too instead
    of Aiming with no shot to follow (revision 2 Aimed, its fallback scoring above a negative End)."""
    assert H.REVISIONS["sentry"] >= 3 and H.HOLD == 1.0  # (5 since session 38: test_aim_then_shoot.py)
    g = dead_end_position(["fighting_knife"])
    assert (threat(g)[1, 1:8] <= H.THREAT).all() and g.can("move", cell=(6, 1))
    assert play_activation(g, SentryAgent(seed=0), "s") == ["end"]
    assert cell_of(g, "s") == (7, 1)
    g = dead_end_position(["autogun"])
    shoots_and_misses(g)
    assert g.can("aim") and g.can("move", cell=(6, 1))
    assert play_activation(g, SentryAgent(seed=0), "s") == ["end"]
    assert cell_of(g, "s") == (7, 1)


def test_in_charge_reach_it_turns_to_face_the_enemy_before_it_stays():
    """Revision 8 (session 43; docs/results.md, "Where the search's Orlock games are won"): in charge
    reach with no cell out of it, a SENTRY facing away from the enemy turns to face the nearest enemy,
    then ends its activation where it stands, as it does out of reach: charged from outside its vision
    arc it would turn to face at -1 to hit (rules 8.1 step 1). Revision 7 ended it facing away (its
    End's HOLD floor scored above this Turn)."""
    assert H.REVISIONS["sentry"] >= 8 and H.REVISIONS["ambusher"] >= 8
    g = one_against_one(DEAD_END, ["fighting_knife"], (7, 1), ("ganger", ["axe"]), (1, 1), "E", "E")
    assert (threat(g)[1, 1:8] <= H.THREAT).all() and g.fighter("s")["facing"] == "E"
    assert play_activation(g, SentryAgent(seed=0), "s") == ["turn", "end"]
    assert cell_of(g, "s") == (7, 1) and g.fighter("s")["facing"] == "W"


def test_it_aims_and_shoots_the_target_with_the_best_expected_damage():
    """Two enemies out of charge reach: it Aims (a Shoot follows in the same activation), then shoots
    the one its shot is worth most against (the nearer, unarmoured juve)."""
    s = fighter("orlock", "ganger", ["autogun"], name="s")
    juve = fighter("goliath", "juve", ["stub_gun"], name="juve")
    ganger = fighter("goliath", "ganger", ["autogun"], name="ganger")
    g = scenario(OPEN, [gang("x", s), gang("y", juve, ganger)], [
        dict(fighter="s", cell=(2, 2), facing="E"),
        dict(fighter="juve", cell=(12, 2), facing="W"),
        dict(fighter="ganger", cell=(13, 3), facing="W")])
    g.activate("s")
    sentry = SentryAgent(seed=0)
    a = sentry.act(None, g.mask[0], game=g)
    assert kind_of(g, a) == "aim"
    g.step(a)
    a = sentry.act(None, g.mask[0], game=g)
    assert kind_of(g, a) == "shoot"
    _, _, rel = C.decode(g.layout, g.dims.n_fighters, a)
    st, f = g.static, g.fid("s")
    values = {t: H.shot_value(g.state, st, 0, f, 0, 0, g.fid(t), 0) for t in ("juve", "ganger")}
    assert values["juve"] > values["ganger"] > 0
    assert rel == g.fid("juve")  # (gang 0 decides: relative targets are global indices)


WALL = board("""
..#.....................
..#.....................
..#.....................
........................
..#.....................
..#.....................
..#.....................
""")


def hidden_position():
    """An Orlock ganger with a stub gun (12") behind a wall; a Goliath heavy bolter (36") 23" away
    sees every cell past the gap: no shot for the ganger from anywhere it can reach."""
    return one_against_one(WALL, ["stub_gun"], (0, 0), ("specialist", ["heavy_bolter"]), (23, 6), "E", "W")


def test_it_does_not_step_into_the_open_without_a_shot_where_the_gunline_advances():
    g = hidden_position()
    f = g.fid("s")
    assert H.exposure(g.state, g.static, 0, f, 0, 0, False) == 0
    play_activation(g, SentryAgent(seed=0), "s")
    x, y = cell_of(g, "s")
    assert H.exposure(g.state, g.static, 0, f, x, y, False) == 0
    g = hidden_position()
    play_activation(g, GunlineAgent(seed=0), "s")
    x, y = cell_of(g, "s")
    assert H.exposure(g.state, g.static, 0, f, x, y, False) > 0  # the gunline walks out toward the enemy


def test_it_fights_back_when_engaged():
    s = fighter("orlock", "ganger", ["autogun", "fighting_knife"], name="s")
    e = fighter("goliath", "ganger", ["axe"], name="e")
    g = scenario(OPEN, [gang("x", s), gang("y", e)], [dict(fighter="s", cell=(5, 2), facing="W"),
                                                     dict(fighter="e", cell=(4, 2), facing="E")])
    g.activate("s")
    assert kind_of(g, SentryAgent(seed=0).act(None, g.mask[0], game=g)) == "fight"


def test_the_stray_shot_share_counts_friends_in_the_line_of_fire_nearest_first():
    """Rules 7.5: models within 1.5 of the shot's segment roll in order of distance, a 1-3 hits."""
    def share(friends, enemies=()):
        names = ["s"] + [f"f{i}" for i in range(len(friends))]
        fs = [fighter("orlock", "ganger", ["autogun"], name=n) for n in names]
        es = [fighter("goliath", "ganger", ["autogun"], name=n) for n in ["t"] + [f"e{i}" for i in range(len(enemies))]]
        places = [dict(fighter="s", cell=(0, 2)), dict(fighter="t", cell=(12, 2))]
        places += [dict(fighter=f"f{i}", cell=c) for i, c in enumerate(friends)]
        places += [dict(fighter=f"e{i}", cell=c) for i, c in enumerate(enemies)]
        g = scenario(OPEN, [gang("x", *fs), gang("y", *es)], places)
        return H.stray_share(g.state, 0, g.fid("s"), g.fid("t"))

    assert share([]) == 0.0
    assert share([(6, 2)]) == 0.5
    assert share([(6, 4)]) == 0.0  # 2" off the line
    assert share([(3, 2), (6, 3)]) == 0.75
    assert share([(6, 2)], enemies=[(3, 2)]) == 0.25  # an enemy nearer in the line rolls first


def test_coup_de_grace_first():
    a = fighter("goliath", "ganger", ["autopistol", "fighting_knife"], name="a")
    e = fighter("orlock", "ganger", ["lasgun"], name="e")
    e2 = fighter("orlock", "ganger", ["lasgun"], name="e2")
    g = scenario(OPEN, [gang("x", a), gang("y", e, e2)], [
        dict(fighter="a", cell=(1, 2), facing="E"),
        dict(fighter="e", cell=(2, 2), posture="seriously_injured"),
        dict(fighter="e2", cell=(8, 2), facing="W")])
    g.activate("a")
    assert kind_of(g, SentryAgent(seed=0).act(None, g.mask[0], game=g)) == "coup_de_grace"


def test_it_is_a_built_in_agent_opponent_and_search_policy(tmp_path):
    assert isinstance(make_agent("sentry", seed=1), SentryAgent) and "sentry" in BUILTIN
    assert agent_name("sentry") == "sentry" and make_agent("sentry").kernel is H.sentry_action
    with pytest.raises(ValueError, match="unknown agent 'sentri'.*sentry"):
        make_agent("sentri")
    assert "sentry" in BUILTIN_OPPONENTS and "sentry" in agent_spec.POLICY_NAMES
    search = make_agent("rollout(policies=gunline+aggressor+sentry,opponents=sentry)")
    assert isinstance(search, RolloutAgent)
    assert search.policies == [K.POLICY_GUNLINE, K.POLICY_AGGRESSOR, K.POLICY_SENTRY]
    assert search.opponents == [K.POLICY_SENTRY]
    side = make_agent("sides:sentry,aggressor")
    assert [a.name for a in side.agents] == ["sentry", "aggressor"]
    from necro_env.envs.batched_env import BatchedEnv

    env = BatchedEnv(2, opponent={"sentry": 1.0, "gunline": 1.0}, seed=0)
    env.reset()
    for _ in range(5):
        env.step(np.array([np.flatnonzero(m)[0] for m in env.action_masks()]))
