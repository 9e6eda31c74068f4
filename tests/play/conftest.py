"""Fixtures of the play tests: the app over a temporary play folder as a TestClient (``client``) or
served by uvicorn on a free port (``served``); the helpers are tests/play/play_helpers.py."""
import warnings

import pytest

from tests.play.play_helpers import Served, make_app

with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 under its TestClient; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture
def client(tmp_path):
    with TestClient(make_app(tmp_path / "play")) as c:
        c.root = tmp_path / "play"
        yield c


@pytest.fixture
def served(tmp_path):
    s = Served(make_app(tmp_path / "play"))
    s.root = tmp_path / "play"
    yield s
    s.stop()
