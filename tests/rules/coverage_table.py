"""docs/rules_coverage.md (Necromunda) and docs/rules_firefight_coverage.md: one row per section of
the game's rules digest, with the rule tests that cite it. Run
``python tests/rules/coverage_table.py --write [--game firefight]`` after adding rule tests;
tests/rules/test_rules_coverage.py fails when a file is stale.

A test cites a section with "§N" or "§N.M" in its docstring (or, if it has none, in its
module's docstring); "DESIGN.md §N" cites the design, not the digest, and is not counted (the seam's tests
in api/test_rulesets.py cite DESIGN.md §11 and were listed under the End phase until 2026-12-02). The status and note columns are edited by hand and kept on rewrite:
every row must say ``implemented`` or ``out of scope`` (with the reason in the note).
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules_coverage.md"
DIGEST = ROOT.parent / "shared" / "rules" / "necromunda.md"  # present in development checkouts
TEST_GLOBS = ("rules/test_*.py", "config/test_*.py", "api/test_*.py")
CITE = re.compile(r"§(\d+(?:\.\d+)?)")
DESIGN_CITES = re.compile(r"DESIGN\.md\s*§[\d.]+(?:\s*(?:,|and)\s*§[\d.]+)*")  # "DESIGN.md §2, §5": the design's


def digest_cites(text: str) -> set:
    """The digest's sections a docstring cites (the design's, "DESIGN.md §N, §M", left out)."""
    return set(CITE.findall(DESIGN_CITES.sub("", text or "")))
ROW = re.compile(r"^\| §(\d+(?:\.\d+)?) \| (.*?) \| (implemented|out of scope|undecided) \| (.*?) \| (\d+) \| (.*) \|$")
STATUSES = ("implemented", "out of scope")

HEADER = """# Rules coverage

One row per section of `../shared/rules/necromunda.md`. *implemented*: the engine applies it and
the listed tests (tests/rules/ scenario tests with scripted dice; tests/config/ and tests/api/
where they cite the section) check it; *out of scope*: not built, with
the reason. Interpretations are in docs/rules.md under the same section numbers.

Generated test columns: `python tests/rules/coverage_table.py --write` (checked by
tests/rules/test_rules_coverage.py). Status and note are edited by hand.

| § | section | status | note | tests | test names |
|---|---|---|---|---|---|
"""


def digest_sections(text: str):
    out = []
    for line in text.splitlines():
        m = re.match(r"^#{2,3} (\d+(?:\.\d+)?)\.? (.*)$", line)
        if m:
            title = re.sub(r"\s*\[[A-Z0-9]+\]( unless marked)?", "", m.group(2)).strip()
            out.append((m.group(1), title))
    return out


FIREFIGHT_HEADER = """# Rules coverage: Grimdark Future: Firefight

One row per section of `../shared/rules/firefight.md`. *implemented*: the engine applies it and
the listed tests (tests/firefight/, scenario tests with scripted dice, citing the section in their
docstring or their module's) check it; *out of scope*: not built, with the reason. Interpretations
and every §13 default kept or changed are in docs/rules_firefight.md under the same section numbers.

Generated test columns: `python tests/rules/coverage_table.py --write --game firefight` (checked by
tests/rules/test_rules_coverage.py). Status and note are edited by hand.

| § | section | status | note | tests | test names |
|---|---|---|---|---|---|
"""

# game -> (its table, its digest, the test files that may cite it, the table's header)
GAMES = {
    "necromunda": (DOC, DIGEST, TEST_GLOBS, HEADER),
    "firefight": (ROOT / "docs" / "rules_firefight_coverage.md", ROOT.parent / "shared" / "rules" / "firefight.md",
                  ("firefight/test_ff_*.py",), FIREFIGHT_HEADER),
}


def read_doc(game="necromunda"):
    doc = GAMES[game][0]
    rows = {}
    order = []
    if doc.exists():
        for line in doc.read_text().splitlines():
            m = ROW.match(line)
            if m:
                sec, title, status, note = m.group(1), m.group(2), m.group(3), m.group(4)
                rows[sec] = dict(title=title, status=status, note=note)
                order.append(sec)
    return order, rows


def citations(game="necromunda"):
    """section -> sorted list of 'file::test' ids citing it."""
    found: dict[str, set] = {}
    for path in sorted(q for g in GAMES[game][2] for q in (ROOT / "tests").glob(g)):
        tree = ast.parse(path.read_text())
        module_cites = digest_cites(ast.get_docstring(tree))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                cited = digest_cites(ast.get_docstring(node)) or module_cites
                for sec in cited:
                    found.setdefault(sec, set()).add(f"{path.parent.name}/{path.name}::{node.name}")
    return {k: sorted(v) for k, v in found.items()}


def covered(sec: str, cites: dict) -> list:
    """Tests citing the section, or (for a top-level section) citing the section itself only."""
    return cites.get(sec, [])


def render(sections, rows, cites, header=HEADER) -> str:
    lines = [header.rstrip("\n")]
    for sec, title in sections:
        r = rows.get(sec, dict(status="undecided", note=""))
        names = covered(sec, cites)
        lines.append(f"| §{sec} | {title} | {r['status']} | {r['note']} | {len(names)} | "
                     f"{', '.join(f'`{n}`' for n in names)} |")
    counts = {s: sum(1 for sec, _ in sections if rows.get(sec, {}).get("status") == s) for s in STATUSES}
    lines.append("")
    lines.append(f"Rows: {len(sections)}; implemented: {counts['implemented']}; "
                 f"out of scope: {counts['out of scope']}.")
    return "\n".join(lines) + "\n"


def build(game="necromunda"):
    doc, digest, _, header = GAMES[game]
    order, rows = read_doc(game)
    if digest.exists():
        sections = digest_sections(digest.read_text())
    else:
        sections = [(s, rows[s]["title"]) for s in order]
    return sections, rows, render(sections, rows, citations(game), header)


if __name__ == "__main__":
    game = sys.argv[sys.argv.index("--game") + 1] if "--game" in sys.argv else "necromunda"
    sections, rows, text = build(game)
    if "--write" in sys.argv:
        GAMES[game][0].write_text(text)
        print(f"wrote {GAMES[game][0]}")
    else:
        print(text)
