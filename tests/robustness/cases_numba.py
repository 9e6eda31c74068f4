"""The numba compiler switch: ``NECRO_STOCK_NUMBA`` (docs/performance.md, "numba versions and the fallback").

The variable takes 0 or 1 (or is unset); anything else is refused before anything is compiled or the
compiler chosen.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .catalogue import Case, refused

AREA = "numba compiler"
ROOT = Path(__file__).resolve().parents[2]


def _decision():
    from necro_env import _numba_cache

    before = _numba_cache._FAST
    text = refused(lambda: _numba_cache.stock_reason({"NECRO_STOCK_NUMBA": "yes"}), ValueError)
    assert _numba_cache._FAST is before  # this process's choice is untouched
    return text


def _command():
    env = dict(os.environ, NECRO_STOCK_NUMBA="true")
    r = subprocess.run([sys.executable, "-m", "necro_env.warmup"], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode != 0 and r.stdout == ""  # nothing compiled, nothing reported done
    return r.stderr


CASES = [
    Case("numba-stock-variable", AREA, "`NECRO_STOCK_NUMBA=yes` (the compiler choice asked in the process)",
         r"^NECRO_STOCK_NUMBA must be 0 or 1 \(or unset\), got 'yes'$", _decision),
    Case("numba-stock-variable-command", AREA, "`NECRO_STOCK_NUMBA=true necro-warmup`",
         r"^necro-warmup: NECRO_STOCK_NUMBA must be 0 or 1 \(or unset\), got 'true'$", _command),
]
