"""A local Ray for the distributed tests (issue 55): 2 CPUs, a 200 MB object store, no dashboard, started
once per test module and stopped after it, so the other tests never see Ray running."""
import pytest


@pytest.fixture(scope="module")
def ray_local():
    import ray

    from training.distributed import connect

    connect(num_cpus=2)
    yield ray
    ray.shutdown()
