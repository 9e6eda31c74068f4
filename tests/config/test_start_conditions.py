"""Fighters that start a battle with a condition (rules 4.3; gang file ``start_conditions``,
docs/data.md): the config errors, the conditions at reset, and the conditions test scenario."""
from __future__ import annotations

import numpy as np
import pytest
from test_loader import expect_error, write

from necro_env.config import ConfigError, load_gang, load_scenario, load_weapons
from necro_env.config.schemas import START_CONDITIONS
from necro_env.rulesets.necromunda.conditions import CAUSE_START
from necro_env.rulesets.necromunda.constants import PF_TRAITS2, T2_CURSED
from necro_env.rulesets.necromunda.game import Game
from necro_env.rulesets.necromunda.query import movement
from necro_env.rulesets.necromunda.state import (
    C_GUNKED,
    C_HIDDEN,
    C_INTOXICATED,
    C_MOUNTED,
    C_STARVING,
    FI_COND,
)
from necro_env.testing import board, fighter, gang, scenario

GANG = """
    name: Test Crew
    house: orlock
    fighters:
      - {{name: Ann, type: ganger, weapons: [autogun]{extra}}}
      - {{name: Bob, type: ganger, weapons: [autogun]}}
"""


def gang_file(tmp_path, extra):
    return write(tmp_path, "crew.yaml", GANG.format(extra=extra))


@pytest.mark.parametrize("extra,field,value,allowed", [
    (", start_conditions: [insane]", "fighters[0].start_conditions[0]", "insane",
     ("before a battle", "gunked, starving, intoxicated, mounted")),
    (", start_conditions: [gunked, gunky]", "fighters[0].start_conditions[1]", "gunky", ("did you mean 'gunked'",)),
    (", start_conditions: [starving, starving]", "fighters[0].start_conditions[1]", "starving", ("at most once",)),
    (", start_conditions: gunked", "fighters[0].start_conditions", "gunked", ("a list of condition names",)),
])
def test_bad_start_condition_is_a_config_error(tmp_path, extra, field, value, allowed):
    """§4.3: only conditions a fighter can have before a battle (Gunked, Starving, Intoxicated,
    Mounted, Hidden) may be given; the error names file, field, value and the allowed names."""
    path = gang_file(tmp_path, extra)
    expect_error(load_gang, path, file=path, field=field, value=value, allowed_has=allowed)


def test_mounted_start_condition_checks_hands_full(tmp_path):
    """§4.3 Mounted, Hands Full: a fighter starting Mounted with 4 weapons is refused at load time."""
    path = write(tmp_path, "crew.yaml", """
        name: Riders
        house: orlock
        fighters:
          - {name: Ann, type: ganger, weapons: [autogun, autopistol, fighting_knife, stub_gun],
             start_conditions: [mounted]}
    """)
    with pytest.raises(ConfigError, match=r"fighters\[0\].weapons.*at most 3 weapons"):
        load_gang(path)


def test_start_conditions_load_as_condition_bits(tmp_path):
    crew = load_gang(gang_file(tmp_path, ", start_conditions: [gunked, intoxicated]"))
    assert crew.fighters[0].start_conditions == C_GUNKED | C_INTOXICATED
    assert crew.fighters[1].start_conditions == 0
    assert set(START_CONDITIONS) == {"gunked", "starving", "intoxicated", "mounted", "hidden"}


def test_start_conditions_are_on_the_fighters_at_every_reset():
    """§4.3: the conditions test scenario's fighters start every battle (any seed) with their
    gang file's conditions; the first events announce them (event condition, gained, cause
    CAUSE_START), and a Gunked fighter moves 1" less from the first activation."""
    sc = load_scenario("scenarios/test_conditions.yaml")
    game = Game(sc.board, list(sc.gangs), round_limit=sc.round_limit)
    mf = game.dims.max_fighters
    want = {g * mf + i: f.start_conditions for g, crew in enumerate(sc.gangs) for i, f in enumerate(crew.fighters)}
    assert sorted(set(want.values())) == [0, C_HIDDEN, C_GUNKED, C_STARVING, C_GUNKED | C_STARVING, C_INTOXICATED,
                                          C_MOUNTED]
    for seed in (0, 7):
        game.reset(seed)
        for f, bits in want.items():
            assert int(game.state.fi[0, f, FI_COND]) == bits, (seed, f)
        start = [(e.actor, e.fields["condition"]) for e in game.events("condition")
                 if e.fields["cause"] == CAUSE_START]
        assert sorted(start) == sorted((f, bit) for f, bits in want.items()
                                       for bit in (C_HIDDEN, C_GUNKED, C_STARVING, C_INTOXICATED, C_MOUNTED) if bits & bit)
        assert all(e.fields["gained"] == 1 for e in game.events("condition"))
    rusty = 0 * mf + 2  # Rusty Mags, Orlock ganger M5, Gunked
    assert movement(game.state, 0, rusty) == 4


def test_conditions_test_gangs_carry_the_synthetic_cursed_pistol():
    """docs/data.md: the test scenario's gangs carry the clearly-labelled synthetic Cursed profile
    (no sourced Cursed weapon fits these houses); the default crews do not."""
    w = load_weapons()
    cursed = w.index["test_cursed_lasgun"]
    assert w.profiles[cursed, 0, PF_TRAITS2] & (T2_CURSED >> 32)
    sc = load_scenario("scenarios/test_conditions.yaml")
    for crew in sc.gangs:
        assert any(cursed in f.weapons for f in crew.fighters)
    for house in ("orlock", "goliath", "escher", "van_saar"):
        assert all(cursed not in f.weapons for f in load_gang(f"gangs/{house}.yaml").fighters)


def test_testing_fighter_takes_start_conditions():
    """The scenario-test builder gives start conditions the same way; an unknown name is refused."""
    a = fighter("orlock", "ganger", ["autogun"], name="a", start_conditions=["starving"])
    b = fighter("orlock", "ganger", ["autogun"], name="b")
    game = scenario(board("\n".join(["." * 6] * 3)), [gang("x", a), gang("y", b)],
                    [dict(fighter="a", cell=(0, 0)), dict(fighter="b", cell=(5, 2))])
    assert int(game.state.fi[0, game.fid("a"), FI_COND]) == C_STARVING
    with pytest.raises(ValueError, match="unknown start condition 'insane'"):
        fighter("orlock", "ganger", ["autogun"], start_conditions=["insane"])
    assert np.all(game.state.fi[0, game.fid("b"), FI_COND] == 0)
