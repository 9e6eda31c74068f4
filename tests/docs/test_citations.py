"""Citations of the documentation stay true: wherever the code, the configs, the tests or the docs cite
``docs/<file>.md, "Title"`` (the way docstrings and config comments point at a measured result or a
rules decision), the file exists and a heading or a bold or italic paragraph of it begins with that
title. Moving or renaming a section (as the split of docs/results.md from docs/training.md did) fails
here, naming the citing file and the title, instead of leaving a pointer to nothing."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ["README.md", "agents", "training", "necro_env", "configs", "tests", "docs", "benchmarks"]
SUFFIXES = {".py", ".md", ".yaml", ".yml"}
# docs/x.md, "A", "B": the titles may wrap onto the next line, also in a comment ('#' continues it)
CITATION = re.compile(r'docs/(\w+\.md)((?:,[\s#]*"[^"\n]+(?:\n[\s#]*[^"\n]+)?")+)')
TITLE = re.compile(r'"([^"]+)"')
MARKS = ("# ", "*")  # a section opens as '# Title' (any heading), '**Title' (a bold lead) or '*Title' (italic)


def squash(text: str) -> str:
    return re.sub(r"[\s#]+", " ", text).strip()


def sources():
    for name in SOURCES:
        path = ROOT / name
        if path.is_file():
            yield path
        else:
            yield from (p for p in sorted(path.rglob("*"))
                        if p.suffix in SUFFIXES and p.is_file() and p != Path(__file__).resolve())


def citations_in(text: str):
    """(cited doc, title) for every citation with a quoted title in ``text``."""
    for m in CITATION.finditer(text):
        for title in TITLE.findall(m.group(2)):
            yield m.group(1), squash(title)


def citations():
    """(citing file, cited doc, title) for every citation with a quoted title."""
    for path in sources():
        for doc, title in citations_in(path.read_text(errors="replace")):
            yield path.relative_to(ROOT), doc, title


def openings(doc: Path) -> str:
    """The doc with its whitespace squashed, in which a section opens with a mark of MARKS and its title."""
    return " " + re.sub(r"\s+", " ", doc.read_text())


def test_the_scan_finds_the_citations_it_is_for():
    found = list(citations())
    docs = {d for _, d, _ in found}
    assert all(path != Path("tests/docs/test_citations.py") for path, _, _ in found)  # its examples are not citations
    assert len(found) > 80 and {"results.md", "training.md", "rules.md"} <= docs
    assert (Path("necro_env/policies/heuristics.py"), "results.md", "The ambusher") in found
    # a title wrapped onto the next comment line is read whole
    assert (Path("configs/training/default.yaml"), "results.md", "The ambusher") in found


def unresolved(cites) -> list[str]:
    """A message for every (citing file, doc, title) whose doc is missing or has no section opening
    with the title."""
    cache = {}
    missing = []
    for path, doc, title in cites:
        file = ROOT / "docs" / doc
        if not file.exists():
            missing.append(f"{path}: docs/{doc} does not exist (cited for {title!r})")
            continue
        text = cache.setdefault(doc, openings(file))
        if not any(f"{mark}{title}" in text for mark in MARKS):
            missing.append(f"{path}: no section of docs/{doc} opens with {title!r}")
    return missing


def test_every_cited_title_opens_a_section_of_its_doc():
    missing = unresolved(citations())
    assert not missing, "\n".join(missing)


def test_a_citation_of_a_missing_section_or_doc_is_reported():
    """The check can fail: a title no section opens with, and a doc that does not exist, are each
    reported; a title that opens a section (a heading, a bold lead) is not."""
    src = 'x = 1  # (docs/training.md, "No such section"; docs/nowhere.md, "Sides")\n'
    cites = [(Path("x.py"), doc, title) for doc, title in citations_in(src)]
    assert cites == [(Path("x.py"), "training.md", "No such section"), (Path("x.py"), "nowhere.md", "Sides")]
    assert unresolved(cites) == ["x.py: no section of docs/training.md opens with 'No such section'",
                                 "x.py: docs/nowhere.md does not exist (cited for 'Sides')"]
    assert unresolved([(Path("x.py"), "training.md", "Sides"), (Path("x.py"), "training.md", "Rating curve"),
                       (Path("x.py"), "results.md", "The ambusher")]) == []
