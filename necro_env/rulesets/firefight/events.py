"""Structured events of Firefight (DESIGN.md §7): one int16 row per rule step.

Row: (kind, actor, target, a, b, c, d, e). ``EVENT_FIELDS`` names what a..e mean for each kind;
the battle log (``describe``), replays and rule tests read these rows. Units are global slots
(side * MU + i); cells are flat indices y * W + x.
"""
from ...core.jit import njit

from .state import EV_A, EV_ACTOR, EV_B, EV_C, EV_D, EV_E, EV_KIND, EV_TARGET, G_EVN, G_EVOVF

E_ROLLOFF = 1  # a: winner, b: side 0's die, c: side 1's die, d: what for (ROLL_*)
E_OBJ_PLACED = 2  # actor: side, a: marker, b: cell
E_DEPLOY = 3  # actor: unit, a: anchor cell, b: how (PLACE_*)
E_HOLD_BACK = 4  # actor: unit, a: 1 Scout / 2 Ambush
E_ROUND = 5  # a: round, b: side that activates first
E_ACTIVATE = 6  # actor: unit, a: action (ACT_*)
E_MOVE = 7  # actor: unit, a: model, b: from cell, c: to cell, d: fifths of an inch walked
E_CHARGE = 8  # actor: charging unit, target: charged unit, a: 1 if in contact after the move
E_CLOSE_IN = 9  # actor: defending unit, target: charging unit, a: models moved
E_SHOOT_AT = 10  # actor: unit, target: target unit, a: weapon slot
E_STRIKE_BACK = 11  # actor: defending unit, target: charging unit, a: 1 struck back, 0 declined
E_AFTERMATH = 12  # actor: charging unit, target: defending unit, a: melee.aftermath's code
E_FALL_BACK = 13  # actor: unit, a: models moved back
E_CONSOLIDATE = 14  # actor: unit, a: anchor cell, 0 declined = -1
E_SHAKEN_IDLE = 15  # actor: unit (its Idle activation clears Shaken)
E_DANGEROUS = 16  # actor: unit, a: models that roll
E_JUMP = 17  # actor: unit, a: model, b: dice, c: 1 all succeeded, d: inches jumped, e: drop below
E_FALL = 18  # actor: unit, a: model, b: drop (inches), c: AP of the hit, d: 1 model killed outright
E_OBJ_CONTROL = 19  # a: marker, b: owner (-1 neutral), c: side 0 units near, d: side 1 units near
E_GAME_END = 20  # a: winner (-1 draw), b: markers of side 0, c: markers of side 1
E_ROUND_END = 21  # a: round
E_AMBUSH = 22  # actor: unit, a: anchor cell
E_SCOUT = 23  # actor: unit, a: anchor cell
E_WAIT = 24  # actor: side, a: round (chose not to bring an Ambush unit on now)
E_FINISHED = 25  # actor: side that has activated every unit, a: round
E_NO_CONTACT = 26  # actor: charging unit, target: charged unit (the capped charge stopped short, §13.1)
E_PUSH_ROLL = 27  # actor: attacker, target: unit that rolled Shaken, a: die, b: 1 if 4+ (the push may be made)
E_PUSH = 28  # actor: attacker, target: pushed unit, a: model, b: from cell, c: to cell (-1: declined)
# --- combat (FFB may append event kinds here: 64 and up) ---

ROLL_EDGE = 0  # the deployment roll-off (§2.5)
ROLL_OBJ = 1  # the objective-placement roll-off (§2.4)

PLACE_DEPLOY = 0
PLACE_SCOUT = 1
PLACE_AMBUSH = 2

EVENT_NAMES = {
    E_ROLLOFF: "rolloff", E_OBJ_PLACED: "objective_placed", E_DEPLOY: "deploy", E_HOLD_BACK: "hold_back",
    E_ROUND: "round", E_ACTIVATE: "activate", E_MOVE: "move", E_CHARGE: "charge", E_CLOSE_IN: "close_in",
    E_SHOOT_AT: "shoot_at", E_STRIKE_BACK: "strike_back", E_AFTERMATH: "aftermath", E_FALL_BACK: "fall_back",
    E_CONSOLIDATE: "consolidate", E_SHAKEN_IDLE: "shaken_idle", E_DANGEROUS: "dangerous", E_JUMP: "jump",
    E_FALL: "fall", E_OBJ_CONTROL: "objective_control", E_GAME_END: "game_end", E_ROUND_END: "round_end",
    E_AMBUSH: "ambush", E_SCOUT: "scout", E_WAIT: "ambush_wait", E_FINISHED: "finished", E_NO_CONTACT: "no_contact",
    E_PUSH_ROLL: "push_roll", E_PUSH: "push",
}

# what a..e mean per kind (the battle log and Game.events name them)
EVENT_FIELDS = {
    E_ROLLOFF: ("winner", "die0", "die1", "what"), E_OBJ_PLACED: ("marker", "cell"), E_DEPLOY: ("cell", "how"),
    E_HOLD_BACK: ("rule",), E_ROUND: ("round", "first"), E_ACTIVATE: ("action",),
    E_MOVE: ("model", "from_cell", "to_cell", "fifths"), E_CHARGE: ("contact",), E_CLOSE_IN: ("moved",),
    E_SHOOT_AT: ("slot",), E_STRIKE_BACK: ("struck",), E_AFTERMATH: ("code",), E_FALL_BACK: ("moved",),
    E_CONSOLIDATE: ("cell",), E_SHAKEN_IDLE: (), E_DANGEROUS: ("models",), E_JUMP: ("model", "dice", "ok", "distance", "drop"),
    E_FALL: ("model", "drop", "ap", "killed", "face"), E_OBJ_CONTROL: ("marker", "owner", "near0", "near1"),
    E_GAME_END: ("winner", "markers0", "markers1"), E_ROUND_END: ("round",), E_AMBUSH: ("cell", "how"),
    E_SCOUT: ("cell", "how"), E_WAIT: ("round",), E_FINISHED: ("round",), E_NO_CONTACT: (),
    E_PUSH_ROLL: ("die", "ok"), E_PUSH: ("model", "from_cell", "to_cell"),
}


@njit(cache=True)
def emit(s, b, kind, actor, target, a, bb, c, d, e):
    """Append one event row to game b's buffer; on overflow set G_EVOVF and drop the row."""
    n = s.g[b, G_EVN]
    if n >= s.ev.shape[1]:
        s.g[b, G_EVOVF] = 1
        return
    r = s.ev[b, n]
    r[EV_KIND] = kind
    r[EV_ACTOR] = actor
    r[EV_TARGET] = target
    r[EV_A] = a
    r[EV_B] = bb
    r[EV_C] = c
    r[EV_D] = d
    r[EV_E] = e
    s.g[b, G_EVN] = n + 1
