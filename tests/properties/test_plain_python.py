"""The rules core runs as plain Python under ``NUMBA_DISABLE_JIT=1`` (docs/testing.md) and plays
the same game there as compiled: a fresh interpreter with the JIT disabled plays a few random
legal decisions of the default scenario, and this process replays them compiled.

(``core.jit.njit`` swaps the dispatcher's class, which broke the plain mode once: numba returns
the undecorated function when the JIT is disabled.)
"""
import json
import os
import subprocess
import sys

import numpy as np

from necro_env.envs.necromunda_env import build_game

SCRIPT = """
import json, warnings
import numpy as np
import numba
warnings.simplefilter("ignore", RuntimeWarning)  # PCG32's uint64 wrap-around in plain Python
from necro_env.envs.necromunda_env import build_game
assert numba.config.DISABLE_JIT
game = build_game()
game.reset(7)
rng = np.random.default_rng(7)
actions = []
for _ in range(6):
    a = int(rng.choice(game.legal_actions()))
    actions.append(a)
    game.step(a)
print(json.dumps({"actions": actions, "fi": game.state.fi[0].tolist(), "g": game.state.g[0].tolist(),
                  "legal": game.legal_actions().tolist()}))
"""


def test_plain_python_plays_the_compiled_game():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    plain = json.loads(out.stdout.strip().splitlines()[-1])
    game = build_game()
    game.reset(7)
    for a in plain["actions"]:
        game.step(a)
    assert game.state.fi[0].tolist() == plain["fi"]
    assert game.state.g[0].tolist() == plain["g"]
    assert game.legal_actions().tolist() == plain["legal"]
    assert len(plain["legal"]) > 0 and np.any(game.state.fi[0] != 0)
