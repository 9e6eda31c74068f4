"""The rules coverage tables are current (docs/rules_coverage.md for Necromunda,
docs/rules_firefight_coverage.md for Firefight): every section of the game's rules digest has a
decided row, and the test names a row lists are exactly the rule tests that cite the section."""
import pytest

import coverage_table as ct


@pytest.mark.parametrize("game", sorted(ct.GAMES))
def test_coverage_table_is_current(game):
    sections, rows, text = ct.build(game)
    doc = ct.GAMES[game][0]
    assert doc.read_text() == text, f"{doc.name} is stale: run python tests/rules/coverage_table.py --write --game {game}"


@pytest.mark.parametrize("game", sorted(ct.GAMES))
def test_every_section_is_implemented_or_out_of_scope_with_a_reason(game):
    sections, rows, _ = ct.build(game)
    assert sections, "no sections found"
    for sec, title in sections:
        row = rows.get(sec)
        assert row is not None, f"{game} §{sec} {title} has no row"
        assert row["status"] in ct.STATUSES, f"{game} §{sec} {title} is {row['status']}"
        if row["status"] == "out of scope":
            assert row["note"].strip(), f"{game} §{sec} is out of scope without a reason"
