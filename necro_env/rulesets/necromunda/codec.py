"""The action codec (DESIGN.md section 5): Action(kind, ...) <-> one flat index.

The flat space is a concatenation of ranges, one per action kind, in the
order of ``KINDS``. Parameters per kind:

- ``fighter``: own fighter slot 0..MF-1 (SELECT)
- ``cell``: flat board cell y * W + x
- ``target``: fighter slot relative to the acting gang: index r means gang
  (me + r // MF) % G, slot r % MF (own gang first, as in observations)
- ``weapon``: weapon-profile slot = item * 2 + profile
- ``item``: weapon item slot 0..MW-1
- ``door`` / ``casket``: index in the board's door / casket list
- ``facing``: 0..7 (N, NE, E, SE, S, SW, W, NW)
- item x cell (shoot_cell): item * H * W + cell; the profile is the item's first usable
  Blast / Smoke profile (shooting.blast_profile)

``layout`` is an int32 array: layout[k] is the first index of kind k, and
layout[N_KINDS] the size of the space. The same dimensions give the same space.
"""
from dataclasses import dataclass

import numpy as np
from ...core.jit import njit

A_SELECT = 0
A_END = 1  # end the activation / decline a follow-up / roll the bottle check / stay
A_TURN = 2
A_MOVE = 3
A_CHARGE = 4
A_TAKE_COVER = 5
A_SHOOT = 6
A_SHOOT_TWIN = 7
A_AIM = 8
A_RELOAD = 9
A_COUP = 10
A_OPEN_DOOR = 11  # Operate Door
A_TERMINAL = 12  # Access Terminal
A_FORCE_DOOR = 13
A_SMASH_CASKET = 14
A_BYPASS_CASKET = 15
A_CARRY_CASKET = 16
A_CRAWL_DUCT = 17
A_FIRE_DUCT = 18
A_FIGHT = 19
A_RETREAT = 20
A_STAND_UP = 21
A_CRAWL = 22
A_BLIND_FIRE = 23
A_CONSOLIDATE = 24
A_BOTTLE = 25  # bottle out voluntarily
A_FLEE = 26  # voluntary retreat of a bottled gang
A_GROUP = 27  # name a member of the active fighter's group activation (2.4)
A_CARRY_FIGHTER = 28  # House Legacy Carry of a Seriously Injured friend (5.3)
A_SHOOT_CELL = 29  # Shoot a Blast / Smoke weapon at a point (7.9): weapon item x cell
A_CANNIBALISE = 30  # Cannibalise (Basic, Starving fighters; 4.3): a Prone and Seriously Injured fighter
A_GO_PRONE = 31  # a burning fighter goes Prone and Pinned after its random move (4.3 Blaze; A_END: stays Standing)
A_DEMOLISH = 32  # Demolitions (12): a grenade used in close combat against a locked door
A_RIDE_BY = 33  # Ride By (4.3 Mounted): a Move (Simple) that pauses in contact with an enemy to attack it

N_KINDS = 34

# parameter kinds
P_NONE = 0
P_FIGHTER = 1
P_CELL = 2
P_TARGET = 3
P_WEAPON_TARGET = 4
P_ITEM = 5
P_DOOR = 6
P_CASKET = 7
P_FACING = 8
P_WEAPON_CELL = 9

KINDS = (
    ("select", P_FIGHTER),
    ("end", P_NONE),
    ("turn", P_FACING),
    ("move", P_CELL),
    ("charge", P_TARGET),
    ("take_cover", P_CELL),
    ("shoot", P_WEAPON_TARGET),
    ("shoot_twin", P_TARGET),
    ("aim", P_NONE),
    ("reload", P_ITEM),
    ("coup_de_grace", P_TARGET),
    ("operate_door", P_DOOR),
    ("access_terminal", P_DOOR),
    ("force_door", P_DOOR),
    ("smash_casket", P_CASKET),
    ("bypass_casket", P_CASKET),
    ("carry_casket", P_CELL),
    ("crawl_ductway", P_CELL),
    ("fire_ductway", P_WEAPON_TARGET),
    ("fight", P_TARGET),
    ("retreat", P_CELL),
    ("stand_up", P_NONE),
    ("crawl", P_CELL),
    ("blind_fire", P_WEAPON_TARGET),
    ("consolidate", P_CELL),
    ("bottle", P_NONE),
    ("flee", P_NONE),
    ("group", P_FIGHTER),
    ("carry_fighter", P_CELL),
    ("shoot_cell", P_WEAPON_CELL),
    ("cannibalise", P_TARGET),
    ("go_prone", P_NONE),
    ("demolish", P_DOOR),
    ("ride_by", P_TARGET),
)
KIND_NAMES = tuple(k for k, _ in KINDS)
KIND_INDEX = {k: i for i, k in enumerate(KIND_NAMES)}
assert len(KINDS) == N_KINDS


@dataclass(frozen=True)
class Dims:
    n_gangs: int
    max_fighters: int  # per gang
    max_weapons: int  # items per fighter
    height: int
    width: int
    max_doors: int
    max_caskets: int

    @property
    def n_fighters(self):
        return self.n_gangs * self.max_fighters

    def param_size(self, pkind):
        return {
            P_NONE: 1,
            P_FIGHTER: self.max_fighters,
            P_CELL: self.height * self.width,
            P_TARGET: self.n_fighters,
            P_WEAPON_TARGET: self.max_weapons * 2 * self.n_fighters,
            P_ITEM: self.max_weapons,
            P_DOOR: self.max_doors,
            P_CASKET: self.max_caskets,
            P_FACING: 8,
            P_WEAPON_CELL: self.max_weapons * self.height * self.width,
        }[pkind]


def make_layout(dims: Dims) -> np.ndarray:
    lay = np.zeros(N_KINDS + 1, np.int32)
    for k, (_, pk) in enumerate(KINDS):
        lay[k + 1] = lay[k] + dims.param_size(pk)
    return lay


@njit(cache=True)
def decode(lay, n_fighters, a):
    """Flat index -> (kind, p1, p2). For weapon-target kinds p1 = weapon slot, p2 = target."""
    k = 0
    while k < N_KINDS - 1 and a >= lay[k + 1]:
        k += 1
    off = a - lay[k]
    if k == A_SHOOT or k == A_FIRE_DUCT or k == A_BLIND_FIRE:
        return k, off // n_fighters, off % n_fighters
    if k == A_SHOOT_CELL:
        nc = lay[A_MOVE + 1] - lay[A_MOVE]  # H * W
        return k, off // nc, off % nc
    return k, off, 0


@njit(cache=True)
def encode(lay, n_fighters, kind, p1, p2):
    if kind == A_SHOOT or kind == A_FIRE_DUCT or kind == A_BLIND_FIRE:
        return lay[kind] + p1 * n_fighters + p2
    if kind == A_SHOOT_CELL:
        return lay[kind] + p1 * (lay[A_MOVE + 1] - lay[A_MOVE]) + p2
    return lay[kind] + p1


@dataclass(frozen=True)
class Action:
    """A player decision in human terms (tests, logs, scripted agents).

    kind: a name from KIND_NAMES. fighter: own slot (select). target: a
    fighter as (gang, slot) or a global index. weapon: item slot;
    profile: 0/1. cell: (x, y). door / casket / facing: indices.
    """

    kind: str
    fighter: int | None = None
    weapon: int | None = None
    profile: int = 0
    target: object = None
    cell: tuple | None = None
    door: int | None = None
    casket: int | None = None
    facing: int | None = None

    def __str__(self):
        parts = [self.kind]
        for f in ("fighter", "weapon", "target", "cell", "door", "casket", "facing"):
            v = getattr(self, f)
            if v is not None:
                parts.append(f"{f}={v}")
        if self.weapon is not None and self.profile:
            parts.append(f"profile={self.profile}")
        return "Action(" + ", ".join(parts) + ")"
