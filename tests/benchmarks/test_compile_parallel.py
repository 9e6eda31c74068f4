"""benchmarks.compile_parallel / throughput's cold-compile rows: the start-up script, whose first game
runs ``necro_env.warmup``, reaches its first steps with any ``NECRO_WARMUP_JOBS`` (here on the warm
cache, where the warm-up returns at once; the cold figures take minutes and are measured by hand,
docs/performance.md)."""
import os

import pytest

from benchmarks import throughput

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiled code only")


def test_the_start_up_script_runs_and_reports_its_times():
    script = throughput.start_script("numpy")
    assert "warmup" not in script and "build_game()" in script  # its first game runs the warm-up itself
    for jobs in (None, 1, 2):  # the library's default, one process, two
        r = throughput.start_time(cold=False, warmup_jobs=jobs)
        assert 0 < r["seconds_to_ready"] <= r["seconds_wall"] and r["cpu_seconds"] > 0


def test_compile_parallel_refuses_zero_jobs():
    from benchmarks import compile_parallel

    with pytest.raises(SystemExit, match="--jobs must be at least 1"):
        compile_parallel.main(["--jobs", "0", "--no-serial"])
