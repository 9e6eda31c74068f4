"""benchmarks/heuristic_speed.py: the compiled policies' decisions per second (it prints figures;
nothing here asserts on time)."""
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # benchmarks/ is a top-level folder of the checkout, not an installed package
    sys.path.insert(0, str(ROOT))

from benchmarks import heuristic_speed  # noqa: E402


@pytest.mark.parametrize("policy", ["gunline", "aggressor"])
def test_the_benchmark_plays_and_prints_its_rates(capsys, policy):
    heuristic_speed.main(["--policy", policy, "--seconds", "0.3", "--batch", "4"])
    out = capsys.readouterr().out
    m = re.search(rf"^{policy}: ([\d,]+) decisions \(([\d,]+) games\) in [\d.]+ s \(([\d,]+)/s, ([\d,]+) per CPU second, "
                  r"B=4, 1 thread\(s\)\)$", out.strip())
    assert m, out
    assert int(m.group(1).replace(",", "")) > 0
