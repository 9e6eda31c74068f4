"""docs/rules_coverage.md is current: every section of the rules digest has a decided row,
and the test names it lists are exactly the rule tests that cite the section."""
import coverage_table as ct


def test_coverage_table_is_current():
    sections, rows, text = ct.build()
    assert ct.DOC.read_text() == text, "docs/rules_coverage.md is stale: run python tests/rules/coverage_table.py --write"


def test_every_section_is_implemented_or_out_of_scope_with_a_reason():
    sections, rows, _ = ct.build()
    assert sections, "no sections found"
    for sec, title in sections:
        row = rows.get(sec)
        assert row is not None, f"§{sec} {title} has no row"
        assert row["status"] in ct.STATUSES, f"§{sec} {title} is {row['status']}"
        if row["status"] == "out of scope":
            assert row["note"].strip(), f"§{sec} is out of scope without a reason"
