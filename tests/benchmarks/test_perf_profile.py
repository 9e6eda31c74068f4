"""benchmarks/perf_profile.py: the perf map names the compiled engine functions that random play
runs, at addresses inside this process's JIT code, in perf's "START SIZE NAME" format."""
import os

import pytest

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiled code only")


def test_perf_map_names_the_engine_functions(tmp_path, capsys):
    from benchmarks import perf_profile

    perf_profile.main(["--seconds", "0.1", "--batch", "4"])
    assert "decisions in" in capsys.readouterr().out
    os.remove(f"/tmp/perf-{os.getpid()}.map")
    path = perf_profile.perf_map(str(tmp_path / "perf.map"))
    rows = [line.split(" ", 2) for line in open(path).read().splitlines()]
    starts = [int(a, 16) for a, _, _ in rows]
    assert starts == sorted(starts) and all(int(size, 16) > 0 for _, size, _ in rows)
    names = [name for _, _, name in rows]
    for fn in ("legal9fill_mask", "engine4step", "bytemask10count_true", "reach8dijkstra"):
        assert any(fn in n for n in names), fn
