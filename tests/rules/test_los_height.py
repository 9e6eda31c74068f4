"""Line of sight by height: a Standing model blocks a ray only where the ray passes through its
body, from its floor up to 1.5" (MODEL_Z) above it (rules §1.4 with levels; decision in
docs/rules.md §1.4 and "Levels").

Rays run from 1" above the observer's floor to 0.5" above the target's floor (tests/rules/
test_elevation.py); the boards below are 10x6 with whole-inch floor heights per cell.
"""
import pytest

from necro_env.core.geometry import MODEL_Z, ray_blocked_by_model, ray_blocked_by_model_3d
from necro_env.rulesets.necromunda.query import clear_rays, cover_grade
from necro_env.testing import board
from tests.rules.scenario_helpers import make, u

FLAT = "\n".join(["." * 10] * 6)


def lvl(*cols_heights):
    """A 10x6 board whose columns have the given heights ({column: height}) on every row."""
    r = ["0"] * 10
    for col, h in cols_heights:
        r[col] = h
    return board(FLAT, heights="\n".join(["".join(r)] * 6))


def rays(game, a, t):
    return clear_rays(game.state, game.static, 0, game.fid(a), game.fid(t), False)


def test_model_height_band_in_the_ray_test():
    """§1.4: the 3-D model test agrees with the 2-D base test where the ray runs through the model's
    height band and lets a ray pass above it (or below a model standing on a higher floor)."""
    # centre ray from (0, 2) to (8, 2) crosses the base of a model at (4, 2)
    assert ray_blocked_by_model(0, 2, 8, 2, 0, 4, 2)
    assert ray_blocked_by_model_3d(0, 2, 1.0, 8, 2, 0.5, 0, 4, 2, 0.0)  # flat: 0.5"-1" inside 0-1.5"
    assert not ray_blocked_by_model_3d(0, 2, 5.0, 8, 2, 4.5, 0, 4, 2, 0.0)  # 4.5"-5" above the model
    assert ray_blocked_by_model_3d(0, 2, 5.0, 8, 2, 4.5, 0, 4, 2, 4.0)  # model on a 4" floor
    assert not ray_blocked_by_model_3d(0, 2, 1.0, 8, 2, 0.5, 0, 4, 2, 2.0)  # ray passes under its floor
    assert not ray_blocked_by_model_3d(0, 2, 1.0, 8, 2, 0.5, 0, 4, 4, 0.0)  # not through its base
    assert MODEL_Z == pytest.approx(1.5)


def test_ground_model_does_not_block_a_ray_between_two_towers():
    """§1.4: two fighters on 4" towers see each other over a Standing fighter on the ground between
    them (the rays pass 3.5" above its head): the target is in the open. On a flat board the same
    fighter blocks all five rays (no line of sight)."""
    units = (u(0, "shooter", (0, 2), ["lasgun"], facing="E"), u(1, "target", (8, 2)),
             u(1, "between", (4, 2)))
    towers = make(*units, board_=lvl((0, "4"), (8, "4")))
    assert rays(towers, "shooter", "target") == 5
    assert cover_grade(rays(towers, "shooter", "target")) == 0
    flat = make(*units)
    assert rays(flat, "shooter", "target") == 0
    assert cover_grade(rays(flat, "shooter", "target")) == 3


def test_model_on_the_same_level_still_blocks():
    """§1.4: a Standing fighter on a 4" platform between two fighters on 4" towers stands in the rays'
    path at its own height and blocks them as on a flat board."""
    game = make(u(0, "shooter", (0, 2), ["lasgun"], facing="E"), u(1, "target", (8, 2)),
                u(1, "between", (4, 2)), board_=lvl((0, "4"), (4, "4"), (8, "4")))
    assert rays(game, "shooter", "target") < 5


def test_descending_ray_is_blocked_only_near_the_target():
    """§1.4: a ray from a 4" tower down to a target on the ground is 3.9" high two cells from the
    shooter (a ground model there does not block) but about 1" high one cell before the target (a
    ground model there does)."""
    near_shooter = make(u(0, "shooter", (0, 2), ["lasgun"], facing="E"), u(1, "target", (8, 2)),
                        u(1, "between", (2, 2)), board_=lvl((0, "4")))
    assert rays(near_shooter, "shooter", "target") == 5
    near_target = make(u(0, "shooter", (0, 2), ["lasgun"], facing="E"), u(1, "target", (8, 2)),
                       u(1, "between", (7, 2)), board_=lvl((0, "4")))
    assert rays(near_target, "shooter", "target") < 5


def test_shot_over_a_ground_model_has_no_cover_modifier():
    """§1.4 / §7.3: shooting from a 4" tower at a fighter on a 4" tower over a Standing fighter on the
    ground (a fighter of its own gang): no cover, so the lasgun (short range, Accuracy +1) hits an Orlock ganger's BS 4+ on a 3.
    On a flat board the fighter in between hides the target: it cannot be shot at all."""
    units = (u(0, "shooter", (0, 2), ["lasgun"], facing="E"), u(1, "target", (7, 2)),
             u(0, "between", (4, 2)))
    game = make(*units, board_=lvl((0, "4"), (7, "4")))
    game.activate("shooter")
    game.script_dice([3] + [1] * 10)
    game.act("shoot", weapon=0, target="target")
    shot = game.events("shot")[0].fields
    hit = game.events("hit")[0].fields
    assert (shot["cover"], hit["need"], hit["hit"]) == (0, 3, 1)
    flat = make(*units)
    flat.activate("shooter")
    targets = {a.target for a in (flat.describe(i) for i in flat.legal_actions()) if a.kind == "shoot"}
    assert (1, 0) not in targets  # the target (relative row 0 of gang 1) is hidden; the far spare is not
