"""Every bad input of the catalogue is refused with its message; docs/robustness.md lists exactly them."""
from pathlib import Path

import pytest

from .catalogue import all_cases, check, table

DOC = Path(__file__).resolve().parents[2] / "docs" / "robustness.md"
CASES = all_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_refused(case):
    check(case)


def test_doc_matches_declarations():
    assert DOC.read_text() == table(), (
        "docs/robustness.md is out of date: python -m tests.robustness.catalogue > docs/robustness.md")
