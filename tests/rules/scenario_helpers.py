"""Shared builders for the rules scenario tests: a 10x6 open board, fighters given as tuples,
and ``play`` that scripts the dice and checks that exactly those dice were used."""
from necro_env.testing import board, fighter, gang, scenario

W, H = 10, 6
OPEN = board("\n".join(["." * W] * H))
PLACE = ("posture", "wounds", "flesh_wounds", "broken", "out_of_ammo", "facing", "conditions")


def u(g, name, cell, weapons=(), house="orlock", kind="ganger", **kw):
    """A fighter for ``make``: gang index, unique name, cell, weapons, house, type; keyword
    arguments are placement fields (PLACE) or characteristic overrides."""
    return (g, name, cell, tuple(weapons), house, kind, kw)


def make(*units, board_=OPEN, spares=True, weapons=None, armours=None, variant="core"):
    """A two-gang game from ``u`` tuples; with ``spares`` each gang gets an idle fighter in a
    far corner so that a single casualty does not end the battle. ``variant``: the rules variant."""
    members = ([], [])
    placements = []
    units = list(units)
    if spares:
        units += [u(0, "spare_a", (W - 1, 0)), u(1, "spare_b", (W - 1, H - 1))]
    for g, name, cell, wps, house, kind, kw in units:
        place = {k: v for k, v in kw.items() if k in PLACE}
        chars = {k: v for k, v in kw.items() if k not in PLACE}
        members[g].append(fighter(house, kind, list(wps), name=name, **chars))
        placements.append(dict(fighter=name, cell=cell, **place))
    gangs = [gang("a", *members[0]), gang("b", *members[1])]
    return scenario(board_, gangs, placements, weapons=weapons, armours=armours, variant=variant)


def play(game, dice, kind, **kw):
    """Script the dice, apply the action and check that exactly these dice were used."""
    game.script_dice(dice)
    game.act(kind, **kw)
    assert game.dice_left() == 0, f"{game.dice_left()} scripted dice left unused"


def by(game, kind, actor):
    """Events of one kind whose actor is the named fighter."""
    f = game.fid(actor)
    return [e for e in game.events(kind) if e.actor == f]
