"""The conditions soak (benchmarks/random_games.py --conditions-scenario, docs/data.md): the TEST
gangs of configs/scenarios/test_conditions.yaml carry a synthetic Cursed lasgun and start fighters
with conditions (rules 4.3), so every condition occurs in random play, Insane and Gunked included
(neither occurs with the default crews)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # benchmarks/ is a top-level folder of the checkout, not an installed package
    sys.path.insert(0, str(ROOT))

from benchmarks import random_games as RG
from necro_env.rulesets.necromunda.state import COND_NAMES


def test_conditions_pool_is_the_test_scenarios_gangs():
    assert RG.conditions_pool() == ("test/gangs/conditions_orlock", "test/gangs/conditions_escher")
    board, gangs = RG.game_config(3, RG.BOARDS, (2,), None, RG.conditions_pool())
    assert set(gangs) <= set(RG.conditions_pool())
    assert RG.game_config(3, RG.BOARDS, (2,)) == RG.game_config(3, RG.BOARDS, (2,), None, RG.GANGS)  # default pool


def test_short_conditions_soak_shows_insane_and_gunked(capsys):
    """§4.3: 20 random games of the test gangs: no exception; Gunked, Starving, Intoxicated, Mounted
    and Hidden are held from the start of every battle, Insane is gained from the Cursed lasgun and
    Insane fighters make their activation roll; Blind and Concussion come from the crews' grenades.
    (Blaze and Webbed need a flamer / web gun hit, rarer in random play: the longer soak shows them,
    docs/data.md.)"""
    rc = RG.main(["--games", "20", "--seed", "0", "--boards", "zm_hall", "--conditions-scenario", "--json",
                  "--no-progress"])
    sm = json.loads(capsys.readouterr().out)
    assert rc == 0 and sm["exceptions"] == 0 and sm["conditions_scenario"] is True
    ev = sm["events"]
    for name in ("insane", "gunked", "starving", "intoxicated", "mounted", "hidden", "blind", "concussion"):
        assert ev[f"condition gained: {name}"] > 0, name
    assert set(COND_NAMES) <= {k.removeprefix("condition gained: ") for k in ev}
    assert ev["conditions held at the battle's start"] >= 20 * 8  # at least 8 start conditions per game
    assert ev["insane activation rolls"] > 0
