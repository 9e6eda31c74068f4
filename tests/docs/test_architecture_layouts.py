"""docs/architecture.md's "State is arrays" table states the state's layout: each array's shape and
dtype, and the bytes of one game of the default scenario. They drifted from the code (the doc said
``g`` [B, 34] and ``fi`` [B, F, 41] where state.py has 46 and 43 columns); these tests read the numbers
from the doc and compare them with ``state.alloc_state`` and ``state_nbytes``, so the next new column
fails here until the doc says it."""
import re
from pathlib import Path

import numpy as np

from necro_env.rulesets.necromunda import state as S

DOC = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"
# distinct sizes, so a dimension written with the wrong symbol cannot match by chance
SIZES = {"B": 2, "G": 3, "MF": 5, "MW": 6, "D": 7, "K": 9}
SIZES["F"] = SIZES["G"] * SIZES["MF"]
DTYPES = {"int32": np.int32, "int16": np.int16, "u64": np.uint64, "i16": np.int16, "i32": np.int32}


def section(title: str) -> str:
    return DOC.read_text().split(f"## {title}\n")[1].split("\n## ")[0]


def doc_layout() -> dict:
    """{array name: (shape expressions, dtype name)} from the table's rows (a row may list several
    arrays, `door`, `casket`, with a shape each, and a dtype after a shape where the dtype column is empty)."""
    layout = {}
    for row in section("State is arrays").splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        names = re.findall(r"`(\w+)`", cells[0])
        shapes = re.findall(r"\[([^\]]*)\]\s*(\w+)?", cells[1])
        assert len(names) == len(shapes), f"row {row!r}: {len(names)} arrays but {len(shapes)} shapes"
        for name, (dims, dtype) in zip(names, shapes):
            layout[name] = ([d.strip() for d in dims.split(",")], dtype or cells[2])
    return layout


def size(expr: str) -> int:
    """A shape entry of the doc (``B``, ``34``, ``4F+8``) with the SIZES symbols."""
    return eval(re.sub(r"(\d)([A-Z])", r"\1*\2", expr), {}, dict(SIZES))


def test_every_state_array_has_a_row():
    assert set(doc_layout()) == set(S.State._fields)


def test_shapes_and_dtypes_are_the_codes():
    state = S.alloc_state(SIZES["B"], SIZES["G"], SIZES["MF"], SIZES["MW"], SIZES["D"], SIZES["K"])
    wrong = []
    for name, (dims, dtype) in doc_layout().items():
        arr = getattr(state, name)
        stated = tuple(size(d) for d in dims)
        if stated != arr.shape or np.dtype(DTYPES[dtype]) != arr.dtype:
            wrong.append(f"{name}: the doc says [{', '.join(dims)}] {dtype}, the code has {arr.shape} {arr.dtype} "
                         f"(with {SIZES})")
    assert not wrong, "\n".join(wrong)


def test_bytes_of_the_default_game():
    from necro_env.envs.necromunda_env import build_game

    stated = re.search(r"per-game state is ([\d,]+) bytes", section("State is arrays"))
    assert stated, "the doc no longer states the per-game bytes"
    code = S.state_nbytes(build_game().state)
    assert int(stated.group(1).replace(",", "")) == code, f"the doc says {stated.group(1)} bytes, the code has {code}"
