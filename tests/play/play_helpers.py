"""Shared by the play tests (tests/play/): the app over a play folder, and uvicorn serving it on a free
port of 127.0.0.1 in a thread (the browser tests)."""
import threading
import time

from agents import make_agent
from necro_env.play.server import WS_MAX, create_app
from necro_env.play.session import Settings

# A short game: two rounds on the default scenario (gang_fight.yaml, Orlock against Goliath), the
# person plays gang 0 against the GUNLINE script; seed 3 gives the opponent the first decision.
SHORT = Settings(config={"round_limit": 2}, seed=3, opponent="gunline")


def make_app(root, settings=SHORT, fixed_seed=True):
    return create_app(settings, root, make_agent, fixed_seed=fixed_seed)


class Served:
    """uvicorn serving the app in a thread; ``url`` once it listens."""

    def __init__(self, app):
        import uvicorn

        self.app = app
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, ws_max_size=WS_MAX,
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        t0 = time.time()
        while not self.server.started:
            assert time.time() - t0 < 30, "the play server did not start"
            time.sleep(0.05)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}/"

    def stop(self):
        self.server.should_exit = True
        self.thread.join(10)
