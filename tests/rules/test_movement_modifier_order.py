"""Order of Movement modifiers (rules digest §3.2; seed 002 [HL] page 19): a rule that doubles or
halves Movement does it to the fighter's Movement characteristic first, and additive modifiers
(here Gunked −1", §4.3) come after. The seed's example: M4 with +2" from drugs charges
(4" × 2) + 2" = 10", not 12". The same order is applied in core (docs/rules.md, §3.2).

Each scenario differs from the old order, which subtracted Gunked's 1" before halving or
doubling: Gunked M6 halves to 3 − 1 = 2" (not half of 5, rounded up, 3"), and a Gunked M5
charges 10 − 1 = 9" under House Legacy (not 2 × 4 = 8"). Orlock gangers (M5, I 4+, Cl 7+) with
Movement overridden where said; all dice are scripted.
"""
import pytest

from necro_env.testing import board
from scenario_helpers import make, play, u

BOTH = pytest.mark.parametrize("variant", ["core", "house_legacy"])
HL = "house_legacy"
LONG = board("\n".join(["." * 14] * 6))


def by(game, kind, name):
    return [e for e in game.events(kind) if e.actor == game.fid(name)]


# ---------------------------------------------------------------- §5.3 [HL] Charge
def test_house_legacy_gunked_charge_doubles_m_then_subtracts_one():
    """§5.3 / §3.2 [HL]: a Gunked M5 fighter charges 2 × 5 − 1 = 9" (the old order gave 2 × 4 =
    8"): the contact cell (9, 2) of a target at (10, 2) is 9" away and is reached with no dice."""
    game = make(u(0, "ch", (0, 2), facing="E", conditions=["gunked"]), u(1, "tgt", (10, 2), facing="W"),
                board_=LONG, variant=HL)
    game.activate("ch")
    play(game, [], "charge", target="tgt")
    ev = by(game, "charge", "ch")[0].fields
    assert (ev["d3"], ev["allowance_inches"], ev["reached"]) == (0, 9, 1)
    assert game.fighter("ch")["cell"] == (9, 2)


@pytest.mark.parametrize("target_x, legal", [(12, True), (13, False)])
def test_house_legacy_gunked_charge_cap_comes_before_the_modifier(target_x, legal):
    """§5.3 / §3.2 [HL]: the 12" cap belongs to the doubling ("double its Movement, but not more
    than 12""), so Gunked's −1" comes after it: a Gunked M7 fighter charges 12 − 1 = 11" (the old
    order gave min(2 × 6, 12) = 12"). The contact cell of a target at (12, 2) is 11" away, of one
    at (13, 2) 12"."""
    game = make(u(0, "ch", (0, 2), facing="E", m=7, conditions=["gunked"]), u(1, "tgt", (target_x, 2)),
                board_=LONG, variant=HL)
    game.activate("ch")
    assert game.can("charge", target="tgt") == legal


# ---------------------------------------------------------------- §5.2 / §5.3 Take Cover and Crawl
@BOTH
def test_gunked_take_cover_halves_m_then_subtracts_one(variant):
    """§5.2 / §5.3 Take Cover and §3.2: half M rounded up, then Gunked −1": a Gunked M6 fighter
    takes cover up to 3 − 1 = 2" (the old order: half of 5, rounded up, 3"); the same fighter
    without Gunked goes 3"."""
    game = make(u(0, "tc", (0, 2), m=6, conditions=["gunked"]), u(1, "foe", (7, 5)), variant=variant)
    game.activate("tc")
    assert game.can("take_cover", cell=(2, 2))
    assert not game.can("take_cover", cell=(3, 2))
    game.act("take_cover", cell=(2, 2))
    f = game.fighter("tc")
    assert f["cell"] == (2, 2) and f["posture"] == "pinned"
    clean = make(u(0, "tc", (0, 2), m=6), u(1, "foe", (7, 5)), variant=variant)
    clean.activate("tc")
    assert clean.can("take_cover", cell=(3, 2))


@BOTH
@pytest.mark.parametrize("posture", ["pinned", "seriously_injured"])
def test_gunked_crawl_halves_m_then_subtracts_one(variant, posture):
    """§5.2 / §5.3 Crawl and §3.2: a Prone Gunked M6 fighter crawls up to 3 − 1 = 2" (the old
    order: 3")."""
    game = make(u(0, "cr", (0, 2), m=6, posture=posture, conditions=["gunked"]), u(1, "foe", (7, 5)),
                variant=variant)
    game.activate("cr")
    assert game.can("crawl", cell=(2, 2))
    assert not game.can("crawl", cell=(3, 2))
    game.act("crawl", cell=(2, 2))
    f = game.fighter("cr")
    assert f["cell"] == (2, 2) and f["posture"] == posture


def test_gunked_halved_movement_never_below_one_inch():
    """§4.3 Gunked's minimum of 1" holds after halving: a Gunked M2 fighter halves to 1", less 1"
    would be 0", and still takes cover 1" (the minimum is Gunked's own, §4.3)."""
    game = make(u(0, "tc", (0, 2), m=2, conditions=["gunked"]), u(1, "foe", (7, 5)))
    game.activate("tc")
    assert game.can("take_cover", cell=(1, 2))
    assert not game.can("take_cover", cell=(2, 2))


# ---------------------------------------------------------------- §10.3 / §10.4 Running for Cover
@BOTH
def test_gunked_prone_running_for_cover_halves_m_then_subtracts_one(variant):
    """§10.3 / §10.4 [HL] Running for Cover from Prone moves half M, and §3.2 puts Gunked's −1"
    after the halving: a Pinned Gunked M6 Broken fighter runs 2" (the old order: 3"). Gang a's
    fighter ends its activation, then gang b selects its Broken fighter (the real select path);
    House Legacy adds the self-rally Cool test (2D6, failed here)."""
    game = make(u(0, "e", (0, 2), facing="E"), u(1, "brk", (3, 2), m=6, posture="pinned", broken=True,
                                                    conditions=["gunked"]), variant=variant)
    game.activate("e")
    game.act("end")
    play(game, [] if variant == "core" else [1, 1], "select", fighter="brk")
    ev = by(game, "rfc", "brk")[0].fields
    assert ev["allowance_inches"] == 2
    x, y = game.fighter("brk")["cell"]
    assert (x, y) != (3, 2) and abs(x - 3) + abs(y - 2) <= 2  # it ran, at most 2" orthogonally
