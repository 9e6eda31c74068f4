"""Board files with levels (heights block, ladders, stairs, railings), the shipped sector boards
and scenario, and the height planes of the encoders (rules §1.2 grid model with levels; formats in
docs/data.md, decisions in docs/rules.md "Levels")."""
import numpy as np
import pytest

from necro_env.config import ConfigError, load_board, load_scenario
from necro_env.core.terrain import FEAT_LADDER, FEAT_RAILING, FEAT_STAIRS
from necro_env.envs.encoders import BOARD_CHANNELS, EntityEncoder
from necro_env.rulesets.necromunda.game import Game

BOARD = """name: lv
map: |
{map}
heights: |
{heights}
"""


def write(tmp_path, map_rows, height_rows):
    text = BOARD.format(map="\n".join("  " + r for r in map_rows),
                        heights="\n".join("  " + r for r in height_rows))
    p = tmp_path / "lv.yaml"
    p.write_text(text)
    return p


GOOD_MAP = ["0.....", "..H...", "...r.1"]
GOOD_H = ["000000", "000333", "000333"]


def test_heights_block_loads_into_boardspec(tmp_path):
    """§1.2 levels: the heights block gives one floor height per cell; H/S/r set feature bits."""
    b = load_board(write(tmp_path, GOOD_MAP, GOOD_H))
    assert b.heights.dtype == np.int8 and b.heights.shape == (3, 6)
    assert b.heights[2, 3] == 3 and b.heights[0, 0] == 0
    assert b.features[1, 2] == FEAT_LADDER and b.features[2, 3] == FEAT_RAILING
    assert b.has_levels


def test_board_without_heights_is_flat():
    """§1.2: a board file without a heights block is flat (all zero), as before."""
    b = load_board("boards/zm_cross.yaml")
    assert not b.heights.any() and not b.features.any() and not b.has_levels


@pytest.mark.parametrize("map_rows,height_rows,field,words", [
    (GOOD_MAP, ["000000", "000333"], "heights", "3 rows"),
    (GOOD_MAP, ["000000", "00033", "003333"], "heights[1]", "6 characters"),
    (GOOD_MAP, ["000000", "000x33", "003333"], "heights[1][3]", "floor height"),
    (["0.....", "H.....", "...r.1"], GOOD_H, "map[1][0]", "ladder"),
    (["0..r..", "..H...", ".....1"], GOOD_H, "map[0][3]", "railing"),
])
def test_bad_heights_give_clear_errors(tmp_path, map_rows, height_rows, field, words):
    """Bad height data names the file, the field and what is allowed (docs/data.md checks)."""
    with pytest.raises(ConfigError) as err:
        load_board(write(tmp_path, map_rows, height_rows))
    msg = str(err.value)
    assert "lv.yaml" in msg and field in msg and words in msg


@pytest.mark.parametrize("name", ["sector_hab", "sector_scrap"])
def test_sector_boards(name):
    """The shipped sector boards: 24x24, levels, ladders or stairs, 4 deployment zones of 16 cells
    on the ground floor."""
    b = load_board(f"boards/{name}.yaml")
    assert (b.height, b.width) == (24, 24)
    assert b.has_levels and b.heights.max() >= 4
    assert (b.features & (FEAT_LADDER | FEAT_STAIRS)).any() and (b.features & FEAT_RAILING).any()
    for z in range(4):
        cells = b.deploy == z
        assert cells.sum() == 16 and not b.heights[cells].any()


def test_sector_hab_is_four_fold_symmetric():
    """sector_hab: heights and features are unchanged by a 90-degree turn."""
    b = load_board("boards/sector_hab.yaml")
    assert np.array_equal(np.rot90(b.heights), b.heights)
    assert np.array_equal(np.rot90(b.features), b.features)


def test_sector_scenario_plays_and_encodes_heights():
    """configs/scenarios/sector_fight.yaml: four gangs on sector_hab; random legal decisions run, and
    the observation's appended board planes `height` (/ 15), `ladder` and `railing` show the levels
    (docs/api.md)."""
    sc = load_scenario("scenarios/sector_fight.yaml")
    assert sc.board.name == "sector_hab" and len(sc.gangs) == 4
    game = Game(sc.board, sc.gangs, round_limit=sc.round_limit)
    game.reset(seed=3)
    rng = np.random.default_rng(0)
    steps = 0
    for _ in range(12):
        legal = game.legal_actions()
        if len(legal) == 0:
            break
        game.step(int(rng.choice(legal)))
        steps += 1
    assert steps == 12
    planes = EntityEncoder().encode(game, 0)["board"]
    names = [n for n, _, _ in BOARD_CHANNELS]
    assert np.allclose(planes[names.index("height")], sc.board.heights / 15.0)
    feat = sc.board.features
    assert np.array_equal(planes[names.index("ladder")] > 0, (feat & (FEAT_LADDER | FEAT_STAIRS)) != 0)
    assert np.array_equal(planes[names.index("railing")] > 0, (feat & FEAT_RAILING) != 0)
