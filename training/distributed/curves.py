"""The learning curves of runs on the same budget, side by side (docs/distributed.md, "A 30-minute run"):
each run's periodic paired win rate against each opponent (its progress.csv) over wall-clock minutes.

    python -m training.distributed.curves OUT.png LABEL=runs/a LABEL=runs/b
"""
from __future__ import annotations

import sys
from pathlib import Path

from ..common import read_csv
from ..plots import line_chart


def compare(out, runs: dict, title: str = "") -> Path:
    """``runs``: label -> run folder. One line per run and opponent: win rate against minutes."""
    series = []
    tables = {label: read_csv(Path(folder) / "progress.csv") for label, folder in runs.items()}
    opponents = dict.fromkeys(r["opponent"] for rows in tables.values() for r in rows)
    for opp in opponents:  # the runs side by side per opponent; the first run with dots (a point shows alone)
        for k, (label, rows) in enumerate(tables.items()):
            mine = [r for r in rows if r["opponent"] == opp]
            series.append((f"{label} vs {opp}", [float(r["seconds"]) / 60 for r in mine],
                           [float(r["win_rate"]) for r in mine], "both" if k == 0 else "line"))
    return line_chart(out, series, title=title, xlabel="wall-clock minutes", ylabel="win rate (paired periodic games)")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 2 or any("=" not in a for a in argv[1:]):
        raise SystemExit("usage: python -m training.distributed.curves OUT.png LABEL=RUN_FOLDER [LABEL=RUN_FOLDER ...]")
    runs = dict(a.split("=", 1) for a in argv[1:])
    print(compare(argv[0], runs, title="RLlib PPO and the project's MaskablePPO, same config and budget"))


if __name__ == "__main__":
    main()
