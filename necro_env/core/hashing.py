"""Content hashes of game data and states (replays check them; checkpoints may record them)."""
from __future__ import annotations

import hashlib

import numpy as np


def content_hash(*parts) -> str:
    """A short SHA-256 of ``parts``: arrays by dtype, shape and bytes, anything else by repr."""
    h = hashlib.sha256()
    for p in parts:
        if isinstance(p, np.ndarray):
            h.update(str(p.dtype).encode() + str(p.shape).encode())
            h.update(np.ascontiguousarray(p).tobytes())
        else:
            h.update(repr(p).encode())
        h.update(b"|")
    return h.hexdigest()[:16]
