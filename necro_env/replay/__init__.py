"""Replay files: record games, verify them bit for bit, print the battle log, HTML viewer, GIF.

See docs/replays.md. ``record(path, seed=..., **game_options)`` plays and writes one game;
``raw_env(record_replay=...)`` records the env's games; ``verify(path)`` re-simulates a file;
the command line is ``necro-replay`` (``necro_env/replay/cli.py``).
"""
from .format import FORMAT_VERSION, Replay, ReplayError, read_replay
from .record import Recorder, record
from .verify import VerifyResult, simulate, verify

__all__ = ["FORMAT_VERSION", "Recorder", "Replay", "ReplayError", "VerifyResult", "read_replay", "record",
           "simulate", "verify"]
