"""benchmarks.compile_parallel / throughput's warm-up row: the start-up script run after
``necro_env.warmup`` is a valid script that reaches its first steps (here on the warm cache, where
the warm-up returns at once; the cold figures take minutes and are measured by hand,
docs/performance.md)."""
import os

import pytest

from benchmarks import throughput

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiled code only")


def test_the_start_up_script_with_the_warm_up_runs_and_reports_its_times():
    script = throughput.start_script("numpy", warmup_jobs=2)
    assert "ensure(jobs=2, quiet=True)" in script
    assert script.index("ensure(jobs=2") < script.index("build_game()")
    assert throughput.start_script("numpy") == throughput.start_script("numpy", None)
    r = throughput.start_time(cold=False, warmup_jobs=2)
    assert 0 < r["seconds_to_ready"] <= r["seconds_wall"] and r["cpu_seconds"] > 0


def test_compile_parallel_refuses_zero_jobs():
    from benchmarks import compile_parallel

    with pytest.raises(SystemExit, match="--jobs must be at least 1"):
        compile_parallel.main(["--jobs", "0", "--no-serial"])
