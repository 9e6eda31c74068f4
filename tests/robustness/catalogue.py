"""The bad-input catalogue: every input the project must refuse, with the message it refuses it with.

Each ``cases_*.py`` module beside this file declares ``CASES``, a list of :class:`Case`. One test runs
every case (``test_catalogue.py``); docs/robustness.md is generated from the declarations
(``python -m tests.robustness.catalogue > docs/robustness.md``) and a test keeps it equal to them, so
the table always says what the tests check.

A case's ``run`` is a function of no arguments that feeds the bad input and returns the text a user
sees (an exception's ``str()``, or a command's output). The test asserts that ``expect`` (a regular
expression) is found in that text, that the text is one line unless ``lines`` says otherwise, and
that it holds no Python traceback. ``run`` asserts on anything else that must hold (the game
unchanged, a payload that did not run, nothing written).
"""
from __future__ import annotations

import importlib
import pkgutil
import re
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable


@dataclass(frozen=True)
class Case:
    id: str          # short, unique: the test id
    area: str        # a heading of the table: "Checkpoints", "Run folders", "Env actions", ...
    bad_input: str   # what the user gave, as they would write it
    expect: str      # regular expression the message must contain
    run: Callable[[], str]
    lines: int = 1   # lines the user may see (1 for a command's error, more for a listing)


def refused(fn: Callable[[], object], *errors: type[BaseException]) -> str:
    """Call ``fn``; it must raise one of ``errors`` (default ``Exception``). Returns ``str(exc)``."""
    errors = errors or (Exception,)
    try:
        fn()
    except errors as exc:  # noqa: PERF203
        return str(exc)
    raise AssertionError(f"accepted: {fn!r} raised nothing")


def all_cases() -> list[Case]:
    here = Path(__file__).parent
    cases: list[Case] = []
    for mod in sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("cases_")):
        cases += importlib.import_module(f"{__package__}.{mod}").CASES
    ids = [c.id for c in cases]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ValueError(f"duplicate case ids: {dup}")
    return cases


def check(case: Case) -> str:
    """Run one case and check its message; returns the message."""
    text = case.run()
    assert isinstance(text, str), f"{case.id}: run() returned {type(text).__name__}, not the message"
    assert re.search(case.expect, text), f"{case.id}: message {text!r} lacks /{case.expect}/"
    assert "Traceback (most recent call last)" not in text, f"{case.id}: a traceback reached the user:\n{text}"
    n = len(text.strip().splitlines())
    assert n <= case.lines, f"{case.id}: {n} lines, at most {case.lines} allowed:\n{text}"
    return text


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def readable(pattern: str) -> str:
    """A case's pattern as a reader wants it: anchors dropped, ``.*`` / ``.+`` as "…", escapes undone."""
    text = pattern.removeprefix("^").removesuffix("$")
    text = re.sub(r"\.[*+]\??", "…", text)
    text = re.sub(r"\\d[+*]?", "N", text)
    return re.sub(r"\\(.)", r"\1", text)


def table() -> str:
    cases = all_cases()
    out = [
        "# Bad input: what is refused, and how",
        "",
        "Generated from the declarations in `tests/robustness/cases_*.py` by",
        "`python -m tests.robustness.catalogue > docs/robustness.md`; `tests/robustness/test_catalogue.py`",
        "runs every row and checks that its message matches, and that this page equals the declarations.",
        "A message is one line, without a Python traceback, and the input changes nothing: an illegal",
        "action leaves the game as it was, a refused command writes nothing.",
        "",
        f"**{len(cases)} bad inputs.**",
    ]
    area = None
    for c in cases:
        if c.area != area:
            area = c.area
            out += ["", f"## {area}", "", "| id | bad input | the message says (… stands for any text) |",
                    "|---|---|---|"]
        out.append(f"| `{c.id}` | {_md(c.bad_input)} | {_md(readable(c.expect))} |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(table(), end="")
