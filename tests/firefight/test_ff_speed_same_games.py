"""Speed work on Firefight's masks and step plays the same games (2026-12-02).

Digests of every state array and mask after every decision of seeded random games, recorded from the engine of
commit ef37d61 before any speed change, on a board file, a generated board and a generated board with heights
(§11). A speed change (legal.py, paths.py, movement.py, grid.py, engine.py, activation.py) must keep them; a rules
change that alters games on purpose records them again with ``_digest`` and says why in its commit."""
import hashlib

import numpy as np
import pytest

from necro_env.rulesets.firefight.game_config import GameConfig

RECORDED = {
    "file": (GameConfig(), "d46bc48883380f337bc15bbd53589f9f27130ba70c941319e48ff24f5030f6db", 439),
    "generated": (GameConfig(board="generate:7"),
                  "af2cc662c1a400d693061eaa70e3482b6570695aa7b2f2ce6d225717b4cadde7", 435),
    "heights": (GameConfig(board="generate:11", heights=True),
                "71e17bb5c8386f70c3d8c0fdb9b6fd53407a81925e8d5338c2213b83c8c2f9c0", 439),
}


def _digest(cfg, seeds=range(100, 103)):
    """(sha256 of every state and mask along the games, decisions): random legal play seeded by the game seed."""
    game = cfg.build()
    h = hashlib.sha256()
    n = 0
    for seed in seeds:
        game.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not game.done:
            for a in game.state:
                h.update(np.ascontiguousarray(a).tobytes())
            h.update(game.mask.tobytes())
            game.step(int(rng.choice(game.legal_actions())))
            n += 1
        for a in game.state:
            h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest(), n


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_same_games_bit_for_bit(name):
    cfg, digest, decisions = RECORDED[name]
    assert _digest(cfg) == (digest, decisions)
