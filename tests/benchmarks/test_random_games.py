"""The random-play soak benchmark on generated boards (benchmarks/random_games.py, issue 3):
games grouped by board, notable-event counters (levels, templates, conditions, group activation,
House Legacy), the command line."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # benchmarks/ is a top-level folder of the checkout, not an installed package
    sys.path.insert(0, str(ROOT))

from benchmarks import random_games as RG
from necro_env.rulesets.necromunda import events as E
from necro_env.rulesets.necromunda import movement as M
from necro_env.rulesets.necromunda import shooting as SH
from necro_env.rulesets.necromunda.constants import T_BLAST, T_SMOKE
from necro_env.rulesets.necromunda.state import COND_NAMES

RULE_COUNTERS = (
    "falls", "initiative tests: jump down", "initiative tests: leap a gap", "initiative tests: prone near edge",
    "blasts (markers placed, not smoke)", "scatter rolls", "flame templates", "smoke clouds placed",
    "grenade throws", "shoot at a point (shoot_cell)", "insane fighters controlled by an enemy",
    "group activations", "group activation members named", "house legacy: hard targets",
    *(f"condition gained: {n}" for n in COND_NAMES),
)


def test_parse_generated_and_board_grouping():
    gen = RG.parse_generated("sector:5-6", n_zones=2, base=100)
    assert (gen.kind, gen.first, gen.last, gen.count) == ("sector", 5, 6, 2)
    assert [gen.board_seed(s) for s in range(100, 104)] == [5, 6, 5, 6]
    jobs = RG.make_jobs(100, 6, RG.BOARDS, (2,), gen)
    # one job per board, all of its games; game seeds stay seed + i
    assert [j[0] for j in jobs] == [[100, 102, 104], [101, 103, 105]]
    assert {RG.game_config(s, RG.BOARDS, (2,), gen)[0] for s in jobs[1][0]} == {6}
    assert RG.parse_generated("zm:7").count == 1
    for bad in ("sector", "hive:0-3", "sector:a-b", "sector:5-2"):
        with pytest.raises(ValueError, match="--generated"):
            RG.parse_generated(bad)


def test_rule_counters_read_the_event_fields():
    """Hand-made event rows: each counter reads the field EVENT_FIELDS names."""
    traits = RG._weapon_traits()
    smoke_w, smoke_p = np.argwhere(traits & T_SMOKE)[0]
    blast_w, blast_p = np.argwhere((traits & T_BLAST) & ~(traits & T_SMOKE))[0]

    def row(kind, a=0, b=0, c=0, d=0):
        return [kind, 0, -1, a, b, c, d, 0]

    ev = np.array([
        row(E.E_FALL, 10, 11, 3, -1), row(E.E_FALL, 10, 11, 2, 5),
        row(E.E_INIT, 4, 3, 0, M.INIT_JUMP), row(E.E_INIT, 5, 3, 1, M.INIT_LEAP),
        row(E.E_SHOT, smoke_w, smoke_p), row(E.E_BLAST, 40, 3, SH.PLACE_ON_TARGET, 0),
        row(E.E_SHOT, blast_w, blast_p), row(E.E_SCATTER), row(E.E_BLAST, 41, 3, SH.PLACE_SCATTERED, 2),
        row(E.E_FLAME, 2, 3),
        row(E.E_CONDITION, COND_NAMES["blaze"], 1), row(E.E_CONDITION, COND_NAMES["blaze"], 0),
        row(E.E_ACTIVATE), row(E.E_GROUP, 1), row(E.E_GROUP, 0), row(E.E_ACTIVATE), row(E.E_ACTIVATE),
        row(E.E_GROUP, 0),
    ], np.int16)
    out = RG._notable(ev)
    assert out["falls"] == 2 and out["falls onto a fighter"] == 1 and out["fall height total (inches)"] == 5
    assert out["initiative tests: jump down"] == 1 and out["initiative tests failed: jump down"] == 1
    assert out["initiative tests: leap a gap"] == 1 and out["initiative tests failed: leap a gap"] == 0
    assert out["smoke clouds placed"] == 1 and out["blasts (markers placed, not smoke)"] == 1
    assert out["models hit by blasts"] == 2 and out["blast/smoke markers scattered"] == 1
    assert out["scatter rolls"] == 1
    assert out["flame templates"] == 1 and out["models hit by flame templates"] == 3
    assert out["condition gained: blaze"] == 1 and out["conditions lost"] == 1
    assert out["condition gained: blind"] == 0
    assert out["group activations"] == 2 and out["group activation members named"] == 3


@pytest.mark.parametrize("variant", ["core", "house_legacy"])
def test_games_on_generated_sector_boards(variant):
    """6 games on 2 generated sector boards (with levels), JIT as configured: no exception, every
    counter present, one generated board's Games alive at a time."""
    gen = RG.parse_generated("sector:3-4", n_zones=2, base=0)
    parts = [RG.run_chunk(job) for job in RG.make_jobs(0, 6, RG.BOARDS, (2,), gen, variant)]
    r = RG.merge(parts)
    assert [s for s, _, _ in r["exceptions"]] == [], r["exceptions"][:1]
    assert len(r["decisions"]) == 6 and min(r["decisions"]) > 0
    assert r["configs"] == {("generated sector:3-4", 2): 6}
    for name in RULE_COUNTERS:
        assert name in r["events"], name
    assert r["events"]["shots"] > 0
    alive = {k[1] for k in RG._GAMES if k[0] is not None}
    assert alive == {4}
    g = next(g for k, g in RG._GAMES.items() if k[0] is not None)
    assert g.board.name == "gen_sector_4" and g.board.heights.max() > 0  # a board with levels
    assert not (g.board.doors[:, 2] == 1).any() if len(g.board.doors) else True  # doors start closed


def test_command_line_generated_json(capsys):
    rc = RG.main(["--games", "3", "--seed", "10", "--generated", "zm:0-1", "--gangs", "3", "--json",
                  "--no-progress"])
    sm = json.loads(capsys.readouterr().out)
    assert rc == 0 and sm["exceptions"] == 0
    assert sm["boards"] == "generated zm:0-1" and sm["configs"] == {"generated zm:0-1 x3 gangs": 3}
    assert "falls" in sm["events"] and "condition gained: insane" in sm["events"]
    assert RG.main(["--only", "11", "--seed", "10", "--generated", "zm:0-1", "--gangs", "3"]) == 0
    assert "gen_zm_1" in capsys.readouterr().out
