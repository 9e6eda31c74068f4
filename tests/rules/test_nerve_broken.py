"""Nerve tests, Broken fighters and Running for Cover (rules digest sections 9.5, 10.1-10.3).

Orlock gangers: Cl 7+, I 4+, M5. All dice are scripted and every step checks that
exactly the scripted dice were used.
"""
import pytest

from necro_env.testing import board
from scenario_helpers import OPEN, make, play
from scenario_helpers import u as _u


def u(g, name, cell, weapons=("fighting_knife",), **kw):
    """Fighters here carry a fighting knife unless told otherwise."""
    return _u(g, name, cell, weapons, **kw)









def fight_scene(*extra, att_cell=(2, 2)):
    """att (gang a) at (2, 2) facing E fights dfn (gang b, no armour) at (3, 2)."""
    game = make(u(0, "att", att_cell, facing="E"), u(1, "dfn", (3, 2), facing="W", armour="none"), *extra)
    game.activate("att")
    return game


def names(game, events):
    inv = {game.fid(n): n for g in game.fighter_names for n in g}
    return [inv[e.actor] for e in events]


# ---------------------------------------------------------------- 9.5 / 10.1 Nerve tests
@pytest.mark.parametrize("injury_face", [3, 6])
def test_casualty_triggers_nerve_tests_for_friends_within_3(injury_face):
    """§9.5 / §10.1: a friend becoming Seriously Injured or going Out of Action makes every friend
    within 3" take a Nerve test (Cool test, 2D6 >= Cl); friends farther away do not test."""
    game = fight_scene(u(1, "near", (5, 2)))  # 2 cells from dfn; spare_b is far away
    play(game, [4, 4, injury_face, 6, 6], "fight", target="dfn")  # hit, wound, Injury dice, near's Nerve test
    nerve = game.events("nerve")
    assert names(game, nerve) == ["near"]
    assert nerve[0].target == game.fid("dfn")
    assert (nerve[0].fields["roll"], nerve[0].fields["need"], nerve[0].fields["passed"]) == (12, 7, 1)
    assert not game.fighter("near")["broken"]


def test_flesh_wound_triggers_no_nerve_test():
    """§9.5: only Serious Injury or Out of Action trigger Nerve tests (a Flesh Wound does not)."""
    game = fight_scene(u(1, "near", (5, 2)))
    play(game, [4, 4, 1, 1], "fight", target="dfn")  # hit, wound, Injury: flesh wound, dfn reacts
    assert game.events("nerve") == []


def test_friends_of_any_status_test():
    """§10.1: every friend within 3" tests, whatever its status (here Prone and Pinned)."""
    game = fight_scene(u(1, "near", (4, 3), posture="pinned"))
    play(game, [4, 4, 3, 6, 6], "fight", target="dfn")
    assert names(game, game.events("nerve")) == ["near"]


@pytest.mark.parametrize("with_buddy, passed", [(True, 1), (False, 0)])
def test_nerve_bonus_per_friend_within_3_of_the_tester(with_buddy, passed):
    """§10.1: +1 per friendly fighter within 3" of the tester that is neither Broken nor Seriously
    Injured (a Broken and a Seriously Injured friend there add nothing)."""
    extra = [u(1, "near", (5, 2)),
             u(1, "brk", (8, 1), broken=True),
             u(1, "si", (8, 3), posture="seriously_injured")]
    if with_buddy:
        extra.append(u(1, "buddy", (8, 2)))
    game = fight_scene(*extra)
    dice = [4, 4, 3, 3, 3]  # hit, wound, Serious Injury; near rolls 6
    if not passed:
        dice += [3, 3]  # near Breaks and runs for cover (2D6")
    play(game, dice, "fight", target="dfn")
    nerve = game.events("nerve")
    assert names(game, nerve) == ["near"]
    assert (nerve[0].fields["roll"], nerve[0].fields["passed"]) == (6 + int(with_buddy), passed)
    assert game.fighter("near")["broken"] == (not passed)


def test_failed_nerve_test_breaks_and_runs_for_cover_at_once():
    """§10.1: failing the Nerve test: Broken, loses its Ready marker and immediately Runs for Cover
    out of turn (docs: right after the current action is resolved)."""
    game = fight_scene(u(1, "near", (5, 2)))
    assert game.fighter("near")["ready"]
    play(game, [4, 4, 3, 1, 1, 3, 3], "fight", target="dfn")  # ...; Nerve 2 fails; Running for Cover 2D6 = 6"
    near = game.fighter("near")
    assert near["broken"] and not near["ready"]
    assert names(game, game.events("broken")) == ["near"]
    rfc = game.events("rfc")
    assert names(game, rfc) == ["near"] and rfc[0].fields["allowance_inches"] == 6
    assert near["cell"] != (5, 2)
    # the attacker's follow-up decision comes after the Running for Cover
    assert game.decision == ("fight_followup", 0)


def test_already_broken_fighters_take_no_nerve_test():
    """§10.1 (docs): a fighter that is already Broken does not test again."""
    game = fight_scene(u(1, "near", (5, 2), broken=True))
    play(game, [4, 4, 3], "fight", target="dfn")
    assert game.events("nerve") == []


def test_running_for_cover_waits_until_the_action_is_resolved():
    """§10.1 (docs, timing): a fighter Broken in the middle of a fight still makes its reaction
    attacks (at -2, Broken) and runs for cover once the Fight action is over."""
    game = fight_scene(u(1, "near", (2, 3), facing="N"))  # engaged with att too
    # att hit 5 (one interference), wound, Serious Injury; near's Nerve test 1+1 fails;
    # near reacts (Broken: -2, 1 misses); Running for Cover while engaged: near's Initiative 6
    # passes, att's Initiative 1 fails (no reaction); near moves 2D6 = 4"
    play(game, [5, 4, 3, 1, 1, 1, 6, 1, 2, 2], "fight", target="dfn")
    kinds = [e.kind for e in game.events()]
    assert kinds.index("broken") < kinds.index("reaction") < kinds.index("init") < kinds.index("rfc")
    hit = [e for e in game.events("hit") if e.actor == game.fid("near")][0].fields
    assert hit["need"] == 6  # WS 4+, Broken -2
    assert game.fighter("near")["cell"] != (2, 3)
    assert game.decision == ("choose_action", 0)  # near was engaged and did not go down: no follow-up


# ---------------------------------------------------------------- 10.2 Broken fighters
def test_broken_fighters_activation_is_running_for_cover():
    """§10.2: when a Broken fighter is activated, its only action is Running for Cover; then its
    activation ends."""
    game = make(u(0, "e", (1, 2), facing="E"), u(1, "brk", (4, 2), broken=True))
    game.activate("e")
    game.act("end")
    assert game.decision == ("select_fighter", 1)
    play(game, [3, 3], "select", fighter="brk")  # 2D6" Running for Cover
    assert names(game, game.events("rfc")) == ["brk"]
    assert game.fighter("brk")["cell"] != (4, 2)
    assert game.active_fighter == -1
    assert game.decision == ("select_fighter", 0)  # back to the other gang: no actions for brk


# ---------------------------------------------------------------- 10.3 Running for Cover
CORRIDOR_POCKET_NEAR = board("""
##########
#........#
###.######
###.######
##########
#.########
""")
CORRIDOR_POCKET_FAR = board("""
##########
#........#
######.###
######.###
##########
#.########
""")
PILLAR = board("""
..........
..........
......o...
..........
..........
.#########
""")


def run_broken(board_, enemy, brk, dice, **brk_kw):
    """enemy (gang a) ends its activation, then the Broken fighter is selected and runs."""
    game = make(u(0, "e", enemy, facing="E"), u(1, "brk", brk, broken=True, **brk_kw),
                u(1, "x", (1, 5)), board_=board_, spares=False)
    game.activate("e")
    game.act("end")
    play(game, dice, "select", fighter="brk")
    return game


def test_running_for_cover_more_than_3_inches_beats_out_of_sight():
    """§10.3 priority 1 > 2: a cell more than 3" from every enemy beats a hidden cell within 3"."""
    game = run_broken(CORRIDOR_POCKET_NEAR, (1, 1), (3, 1), [2, 1])  # 3": the pocket (3, 3) or (6, 1)
    assert game.events("rfc")[0].fields["allowance_inches"] == 3
    assert game.fighter("brk")["cell"] == (6, 1)


def test_running_for_cover_out_of_sight_beats_distance():
    """§10.3 priority 2 > 4: both more than 3" away, the cell out of the enemy's sight wins."""
    game = run_broken(CORRIDOR_POCKET_FAR, (1, 1), (5, 1), [2, 1])  # (8, 1) is farther but seen
    assert game.fighter("brk")["cell"] == (6, 3)


def test_running_for_cover_cover_beats_distance_prone_moves_half_m():
    """§10.3 priority 3 > 4, and a Prone fighter moves only half its M (M1: 1"): (8, 1) in partial
    cover behind the pillar beats the farther open (9, 0)."""
    game = run_broken(PILLAR, (0, 2), (8, 0), [], posture="pinned", m=1)
    assert game.events("rfc")[0].fields["allowance_inches"] == 1
    assert game.fighter("brk")["cell"] == (8, 1)
    assert game.fighter("brk")["posture"] == "pinned"


def test_running_for_cover_as_far_as_possible():
    """§10.3 priority 4: among visible cells without cover, the farthest from the enemies."""
    game = run_broken(PILLAR, (0, 2), (5, 4), [], posture="pinned", m=1)
    assert game.fighter("brk")["cell"] == (6, 4)


def test_prone_half_movement_rounds_up():
    """§10.3: Prone: up to half M; M5 gives 3" (half inches rounded up, as for Crawl)."""
    game = run_broken(OPEN, (0, 0), (4, 3), [], posture="seriously_injured")
    assert game.events("rfc")[0].fields["allowance_inches"] == 3


def test_engaged_broken_fighter_passing_initiative_escapes_after_reactions():
    """§10.3: Standing and Engaged: Initiative test; engaged enemies that pass their own Initiative
    test make reaction attacks first; then the Broken fighter moves 2D6"."""
    game = run_broken(OPEN, (2, 2), (3, 2), [4, 4, 1, 3, 3], facing="W")
    inits = game.events("init")
    assert [(names(game, [e])[0], e.fields["passed"]) for e in inits] == [("brk", 1), ("e", 1)]
    assert names(game, game.events("reaction")) == ["e"]
    kinds = [e.kind for e in game.events()]
    assert kinds.index("reaction") < kinds.index("rfc")
    x, y = game.fighter("brk")["cell"]
    assert max(abs(x - 2), abs(y - 2)) > 1  # no longer engaged


def test_engaged_broken_fighter_failing_initiative_stays():
    """§10.3: a Broken fighter failing the Initiative test stays engaged and does nothing more; an
    enemy failing its own Initiative test makes no reaction attacks."""
    game = run_broken(OPEN, (2, 2), (3, 2), [3, 1], facing="W")
    assert [e.fields["passed"] for e in game.events("init")] == [0, 0]
    assert game.events("reaction") == [] and game.events("rfc") == []
    assert game.fighter("brk")["cell"] == (3, 2)
