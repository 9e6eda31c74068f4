"""Firefight's scripted players: an agent spec the game does not have, and the evaluation harness's arguments
(agents/game_agent.py, benchmarks/ff_scripts.py; added 2026-12-02)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .catalogue import Case, refused

AREA = "Firefight scripted players"
ROOT = Path(__file__).resolve().parents[2]


def _spec():
    from agents import make_game_agent

    return refused(lambda: make_game_agent("firefight", "gunline"), ValueError)


def _harness(*args):
    def run():
        r = subprocess.run([sys.executable, "-m", "benchmarks.ff_scripts", *args], cwd=ROOT, capture_output=True,
                           text=True, timeout=300)
        assert r.returncode == 2 and r.stdout == ""  # refused before any game was played or printed
        return r.stderr
    return run


CASES = [
    Case("ff-scripts-unknown-agent", AREA, "`make_game_agent(\"firefight\", \"gunline\")` (a Necromunda script)",
         r"^unknown firefight agent 'gunline'; allowed: charger, holder, random$", _spec),
    Case("ff-scripts-negative-pairs", AREA, "`python -m benchmarks.ff_scripts --pairs -1`",
         r"^ff_scripts: --pairs=-1; allowed: a whole number 0 or more$", _harness("--pairs", "-1")),
    Case("ff-scripts-unknown-matchup", AREA, "`python -m benchmarks.ff_scripts --only holder-gunline`",
         r"^ff_scripts: --only='holder-gunline'; allowed: holder-random, charger-random, holder-charger$",
         _harness("--only", "holder-gunline")),
]
