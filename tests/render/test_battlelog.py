"""The battle log (issue 6): readable lines from events, generic lines for unknown kinds."""
import re

import numpy as np

from necro_env.rulesets.necromunda.battlelog import LogNames, format_event, game_log, generic_line, log_lines
from necro_env.rulesets.necromunda import events as E
from necro_env.testing import board, fighter, gang, scenario

OPEN = board("\n".join(["." * 10] * 6))


def shot_game():
    g0 = gang("a", fighter("orlock", "ganger", ["lasgun"], name="Shooter"),
              fighter("orlock", "ganger", [], name="spare_a"))
    g1 = gang("b", fighter("goliath", "ganger", ["fighting_knife"], name="Target", armour="none"),
              fighter("goliath", "ganger", [], name="spare_b"))
    game = scenario(OPEN, [g0, g1], [
        dict(fighter="Shooter", cell=(1, 2), facing="E"), dict(fighter="Target", cell=(5, 2), facing="W"),
        dict(fighter="spare_a", cell=(9, 0)), dict(fighter="spare_b", cell=(9, 5)),
    ])
    game.activate("Shooter")
    return game


def test_shot_lines_carry_dice_and_target_numbers():
    """A lasgun shot that hits and wounds: the log names shooter, target and weapon, and prints
    the hit roll, the wound roll with S and T, and the Injury dice with the numbers of the events."""
    game = shot_game()
    game.script_dice([6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6])
    game.act("shoot", weapon=0, target="Target")
    text = "\n".join(game_log(game))
    hit = game.events("hit")[0].fields
    wound = game.events("wound")[0].fields
    assert "Shooter [gang_0] shoots Target [gang_1] with lasgun" in text
    assert f"hit roll {hit['roll']} vs {hit['need']}+: hit" in text
    assert (f"wound roll {wound['roll']} vs {wound['need']}+ (Strength {wound['strength']} vs Toughness "
            f"{wound['toughness']}): wounds") in text
    inj = game.events("injury")
    assert inj and "Injury dice: " in text and f"(die {inj[0].fields['die']})" in text
    # one line per event, every line prefixed with the round
    n = len(game.events())
    assert len(game_log(game)) == n
    assert all(line.startswith("R1 ") for line in game_log(game))


def test_miss_line():
    """A missed shot says 'miss' and shows the roll against the target number."""
    game = shot_game()
    game.script_dice([1, 1, 1, 1, 1, 1])
    game.act("shoot", weapon=0, target="Target")
    lines = game_log(game)
    hit = game.events("hit")[0].fields
    assert any(f"hit roll 1 vs {hit['need']}+" in ln and ln.endswith("miss") for ln in lines)


NAMES = LogNames(gangs=["gang_0", "gang_1"], fighters=[["A0", "A1"], ["B0", "B1"]], weapons=["lasgun"],
                 profiles=[[""]], width=10, max_fighters=2)


def test_unknown_event_kind_prints_generically():
    """A kind the log does not know (new rules) prints its name/fields, never raises."""
    row = [999, 0, 3, 5, 4, 1, 0, 7]
    line = format_event(row, NAMES)
    assert line.startswith("event 999:") and "A0 [gang_0]" in line and "B1 [gang_1]" in line and "e=7" in line


def test_kind_with_fields_but_no_formatter(monkeypatch):
    """A new kind registered in EVENT_FIELDS prints its field names."""
    monkeypatch.setitem(E.EVENT_FIELDS, 998, ("roll", "need", "passed"))
    monkeypatch.setitem(E.EVENT_NAMES, 998, "insanity")
    line = format_event([998, 1, -1, 4, 5, 0, 0, 0], NAMES)
    assert line == "insanity: A1 [gang_0] roll=4, need=5, passed=0"


def test_changed_fields_fall_back_to_generic(monkeypatch):
    """When a known kind's fields change so its formatter cannot read them, the generic line is used."""
    monkeypatch.setitem(E.EVENT_FIELDS, E.E_HIT, ("dice",))
    line = format_event([E.E_HIT, 0, 2, 3, 0, 0, 0, 0], NAMES)
    assert line == generic_line([E.E_HIT, 0, 2, 3, 0, 0, 0, 0], NAMES) and line.startswith("hit:")


def test_every_known_kind_formats_random_rows():
    """Every kind in EVENT_FIELDS formats any int16 row (fuzz) without raising."""
    rng = np.random.default_rng(0)
    for kind in E.EVENT_FIELDS:
        for _ in range(20):
            row = [kind] + [int(v) for v in rng.integers(-2, 8, size=7)]
            assert isinstance(format_event(row, NAMES), str)


def test_round_prefix_follows_round_events():
    rows = [[E.E_END_ACT, 0, -1, 0, 0, 0, 0, 0], [E.E_ROUND, -1, -1, 2, 0, 0, 0, 0],
            [E.E_ACTIVATE, 2, -1, 2, 0, 0, 0, 0]]
    lines = log_lines(rows, NAMES, 1)
    assert [re.match(r"R(\d+)", ln).group(1) for ln in lines] == ["1", "2", "2"]
    assert lines[1].endswith("=== Round 2 ===") and "B0 [gang_1] is activated" in lines[2]
