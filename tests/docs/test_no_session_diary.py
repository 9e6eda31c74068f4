"""The docs and the code's comments name a measurement by its date and commit and a decision by its
reason, never by "session N": a reader does not know what a session was (the README and docs/ had
over 500 such mentions). The quoted title of a cited section is left out: test_citations makes it
match the heading it points at, whatever that heading says."""
import re
from pathlib import Path

from tests.docs.test_citations import CITATION

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CODE = [p for d in ("necro_env", "agents", "training") for p in sorted((ROOT / d).rglob("*.py"))]
# files still to be rid of "session N" (none since docs/performance.md became a reference page, 2026-12-01)
NOT_YET = set()
SESSION = re.compile(r"\bsessions?[ -]\d+", re.I)


def diary_lines(path: Path, root: Path = ROOT) -> list[str]:
    """``path:line: text`` for every "session N" outside the quoted titles of citations."""
    text = CITATION.sub(lambda m: "docs/" + m.group(1) + re.sub(r'"[^"]*"', '""', m.group(2)), path.read_text())
    return [f"{path.relative_to(root)}:{i}: {line.strip()}" for i, line in enumerate(text.splitlines(), 1)
            if SESSION.search(line)]


def test_the_scan_finds_a_session_and_skips_a_cited_title(tmp_path):
    probe = tmp_path / "probe.md"
    cited = "docs/" + 'results.md, "Re-run (session 14) and\ndenormal floats"'  # split: not a citation here
    probe.write_text(f"Measured in session 12, re-run in sessions 13-14.\nSee {cited}.\n")
    assert diary_lines(probe, tmp_path) == ["probe.md:1: Measured in session 12, re-run in sessions 13-14."]


def test_no_session_numbers_in_docs_or_code():
    found = [line for path in DOCS + CODE if path not in NOT_YET for line in diary_lines(path)]
    assert not found, "name the date (and commit) or the reason instead:\n" + "\n".join(found)
