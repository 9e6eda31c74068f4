"""The action codec of Firefight (DESIGN.md §5): Action(kind, ...) <-> one flat index.

The flat space is a concatenation of ranges, one per kind, in the order of ``KINDS``:

| kind | parameter | size | used at |
|---|---|---|---|
| select | own unit slot | MU | deploy_unit, scout_unit, ambush_unit, select_unit |
| action | hold / advance / rush / charge / idle | 5 | choose_action |
| cell | board cell y * W + x | H*W | place_objective, deploy/scout/ambush cell, move_cell, free_move |
| target | enemy unit slot | MU | shoot_target, charge_target |
| no_target | - | 1 | shoot_target: this weapon fires at nothing |
| hold_back | - | 1 | deploy_cell: keep a Scout / Ambush unit off the table (§2.5) |
| pass | - | 1 | ambush_unit (bring none on now), free_move (decline) |
| strike_back | no / yes | 2 | strike_back |
| edge | board edge 0 / 1 | 2 | choose_edge |
| cast | spell x unit (own units first, then the enemy's) | N_SPELLS * 2 * MU | cast |
| help | tokens spent -6..+6 (index 6 = none) | 13 | help_cast |

``layout`` is an int32 array: layout[k] is the first index of kind k, layout[N_KINDS] the size.
The same board size and unit slots give the same space.
"""
from dataclasses import dataclass

import numpy as np

from ...core.jit import njit
from .constants import N_ACTIONS
from .spells import MAX_TOKENS, N_SPELLS

A_SELECT = 0
A_ACTION = 1
A_CELL = 2
A_TARGET = 3
A_NO_TARGET = 4
A_HOLD_BACK = 5
A_PASS = 6
A_STRIKE = 7
A_EDGE = 8
A_CAST = 9
A_HELP = 10
N_KINDS = 11
HELP_MAX = MAX_TOKENS  # tokens a unit holds at most (§10 Caster)

P_NONE = 0
P_UNIT = 1
P_ACTION = 2
P_CELL = 3
P_ENEMY = 4
P_YESNO = 5
P_EDGE = 6
P_SPELL_UNIT = 7
P_HELP = 8

KINDS = (("select", P_UNIT), ("action", P_ACTION), ("cell", P_CELL), ("target", P_ENEMY), ("no_target", P_NONE),
         ("hold_back", P_NONE), ("pass", P_NONE), ("strike_back", P_YESNO), ("edge", P_EDGE),
         ("cast", P_SPELL_UNIT), ("help", P_HELP))
KIND_NAMES = tuple(k for k, _ in KINDS)
KIND_INDEX = {k: i for i, k in enumerate(KIND_NAMES)}
assert len(KINDS) == N_KINDS


@dataclass(frozen=True)
class Dims:
    max_units: int  # unit slots per side
    max_models: int
    max_weapons: int
    height: int
    width: int

    def param_size(self, pk):
        return {P_NONE: 1, P_UNIT: self.max_units, P_ACTION: N_ACTIONS, P_CELL: self.height * self.width,
                P_ENEMY: self.max_units, P_YESNO: 2, P_EDGE: 2, P_SPELL_UNIT: N_SPELLS * 2 * self.max_units,
                P_HELP: 2 * HELP_MAX + 1}[pk]


def make_layout(dims: Dims) -> np.ndarray:
    lay = np.zeros(N_KINDS + 1, np.int32)
    for k, (_, pk) in enumerate(KINDS):
        lay[k + 1] = lay[k] + dims.param_size(pk)
    return lay


@njit(cache=True)
def decode(lay, a):
    """Flat index -> (kind, parameter)."""
    k = 0
    while k < N_KINDS - 1 and a >= lay[k + 1]:
        k += 1
    return k, a - lay[k]


@njit(cache=True)
def encode(lay, kind, p):
    return lay[kind] + p


@dataclass(frozen=True)
class Action:
    """A decision in words. unit: own unit slot, (side, slot) or a unit name (select); action: a name of
    constants.ACTION_NAMES (action); cell: (x, y); target: enemy unit slot, (side, slot) or name;
    choice: True / False (strike_back); edge: 0 / 1; spell: a name of spells.SPELL_NAMES with target: any unit
    (cast); tokens: -6..6 (help: each token +1 or -1 to the casting roll)."""

    kind: str
    unit: object = None
    action: str | None = None
    cell: tuple | None = None
    target: object = None
    choice: bool | None = None
    edge: int | None = None
    spell: str | None = None
    tokens: int | None = None

    def __str__(self):
        parts = [self.kind] + [f"{f}={getattr(self, f)!r}" for f in ("unit", "action", "cell", "target", "choice",
                                                                         "edge", "spell", "tokens")
                               if getattr(self, f) is not None]
        return "Action(" + ", ".join(parts) + ")"
