"""Firefight's decision loop (DESIGN.md §4): ``step`` applies one decision, then ``advance`` runs every rule that is
not a player's choice and stops at the next decision.

Set-up (§2.4, §2.5, §13.1): D3 + 2 markers; the deployment roll-off; its winner picks an edge; the objective
roll-off; markers placed alternately starting with its winner; units deployed alternately starting with the
deployment roll-off's winner (Scout / Ambush units may be held back); Scout units placed alternately starting with
the side that activates first. Rounds (§3): the deployment roll-off's winner activates first in round 1, afterwards
the side that finished its activations first in the round before; the sides alternate, a side with nothing left to
activate lets the other activate the rest; Ambush units arrive at the start of rounds 2-4. End of round, in this
order (the §3 SUGGESTION): objective control, morale (the combat module's ``end_of_round``), fatigue cleared; then
the next round's start (Ambush arrivals). After the last round the side holding more markers wins; equal is a draw.
"""
from ...core.jit import njit
from .activation import (
    begin_activation, choose_action, choose_cast, choose_cell, choose_charge, choose_free_move, choose_help,
    choose_push, choose_strike, choose_target,
    set_decision,
)
from .codec import A_HOLD_BACK, A_PASS, decode
from .constants import US_AMBUSH, US_DEAD, US_SCOUT, US_WAITING
from .deploy import begin as _begin
from .deploy import choose_edge, deploy_hold_back, place_objective, place_unit, setup_next, start_round
from .events import E_FINISHED, emit
from .legal import can_act, fill_mask, unit_selectable
from .objectives import end_round
from .state import (
    DK_ACTION, DK_AMBUSH_CELL, DK_AMBUSH_UNIT, DK_CHARGE_TARGET, DK_CHOOSE_EDGE, DK_DEPLOY_CELL, DK_DEPLOY_UNIT,
    DK_CAST, DK_FREE_MOVE, DK_HELP, DK_MOVE_CELL, DK_NONE, DK_PUSH, DK_PLACE_OBJ, DK_SCOUT_CELL, DK_SCOUT_UNIT, DK_SELECT, DK_SHOOT_TARGET,
    DK_STRIKE_BACK, G_ACTIVE, G_AMB_PASS, G_DK, G_DONE, G_DPLAYER, G_EVN, G_EVOVF, G_FINISHED, G_MU, G_NDEC,
    G_PHASE, G_ROLLOFF, G_ROUND, G_TURN, PH_AMBUSH, PH_DEPLOY, PH_OVER, PH_ROUND, PH_SCOUT, PH_SETUP, U_STATE,
)

MAX_LOOP = 10000


@njit(cache=True)
def begin(s, st, b, lay, mask, sc):
    """A fresh game (units loaded, none placed): the set-up roll-offs, then run to the first decision."""
    s.g[b, G_EVN] = 0
    s.g[b, G_EVOVF] = 0
    _begin(s, b)
    advance(s, st, b, lay, mask, sc)


@njit(cache=True)
def step(s, st, b, lay, a, mask, sc):
    """Apply flat action ``a`` (legal: the caller checked the mask) to game b, then run to the next decision."""
    s.g[b, G_EVN] = 0
    s.g[b, G_EVOVF] = 0
    s.g[b, G_NDEC] += 1
    kind, p = decode(lay, a)
    dk = s.g[b, G_DK]
    side = s.g[b, G_DPLAYER]
    mu = s.g[b, G_MU]
    s.g[b, G_DK] = DK_NONE
    if dk == DK_CHOOSE_EDGE:
        choose_edge(s, b, p)
    elif dk == DK_PLACE_OBJ:
        place_objective(st, s, b, side, p)
    elif dk == DK_DEPLOY_UNIT or dk == DK_SCOUT_UNIT or dk == DK_AMBUSH_UNIT:
        if kind == A_PASS:
            s.g[b, G_AMB_PASS] |= 1 << side
            s.g[b, G_TURN] = 1 - side
        else:
            s.g[b, G_ACTIVE] = side * mu + p
            set_decision(s, b, dk + 1, side)
    elif dk == DK_DEPLOY_CELL or dk == DK_SCOUT_CELL or dk == DK_AMBUSH_CELL:
        if kind == A_HOLD_BACK:
            deploy_hold_back(s, b, s.g[b, G_ACTIVE])
        else:
            place_unit(st, s, b, s.g[b, G_ACTIVE], p, dk, sc)
    elif dk == DK_SELECT:
        begin_activation(st, s, b, side * mu + p, sc)
    elif dk == DK_ACTION:
        choose_action(st, s, b, p, sc)
    elif dk == DK_MOVE_CELL:
        choose_cell(st, s, b, p, sc)
    elif dk == DK_SHOOT_TARGET:
        choose_target(st, s, b, kind, p, sc)
    elif dk == DK_CHARGE_TARGET:
        choose_charge(st, s, b, (1 - side) * mu + p, sc)
    elif dk == DK_STRIKE_BACK:
        choose_strike(st, s, b, p, sc)
    elif dk == DK_FREE_MOVE:
        choose_free_move(st, s, b, kind == A_PASS, p, sc)
    elif dk == DK_PUSH:
        choose_push(st, s, b, kind == A_PASS, p, sc)
    elif dk == DK_CAST:
        choose_cast(st, s, b, kind == A_PASS, p, sc)
    elif dk == DK_HELP:
        choose_help(st, s, b, p, sc)
    advance(s, st, b, lay, mask, sc)


@njit(cache=True)
def advance(s, st, b, lay, mask, sc):
    """Run until a decision with a legal action awaits (or the game is over), and fill its mask."""
    for _ in range(MAX_LOOP):
        if s.g[b, G_DONE]:
            s.g[b, G_DK] = DK_NONE
            s.g[b, G_PHASE] = PH_OVER
            fill_mask(s, st, b, lay, mask, sc)
            return
        if s.g[b, G_DK] != DK_NONE:
            if fill_mask(s, st, b, lay, mask, sc) > 0:
                return
            s.g[b, G_DK] = DK_NONE  # nothing legal (a unit that fits nowhere): the phase moves on
            s.g[b, G_ACTIVE] = -1
        next_decision(st, s, b, sc)
    raise RuntimeError("firefight engine: no decision reached (a loop in the rules)")


@njit(cache=True)
def next_decision(st, s, b, sc):
    """Set the next decision of the phase in progress, or move to the next phase."""
    ph = s.g[b, G_PHASE]
    if ph == PH_SETUP:
        setup_next(s, b)
    elif ph == PH_DEPLOY:
        _placement_turn(st, s, b, US_WAITING, DK_DEPLOY_UNIT, sc)
    elif ph == PH_SCOUT:
        _placement_turn(st, s, b, US_SCOUT, DK_SCOUT_UNIT, sc)
    elif ph == PH_AMBUSH:
        _ambush_turn(st, s, b, sc)
    elif ph == PH_ROUND:
        _activation_turn(st, s, b)


@njit(cache=True)
def _has(st, s, b, side, state, dk, sc):
    mu = s.g[b, G_MU]
    for i in range(mu):
        u = side * mu + i
        if s.u[b, u, U_STATE] == state and unit_selectable(st, s, b, u, dk, sc):
            return True
    return False


@njit(cache=True)
def _drop_stuck(s, b, state):
    """Units that can be placed nowhere stay off the table, out of the game (docs/rules_firefight.md §2.5)."""
    for u in range(s.u.shape[1]):
        if s.u[b, u, U_STATE] == state:
            s.u[b, u, U_STATE] = US_DEAD


@njit(cache=True)
def _placement_turn(st, s, b, state, dk, sc):
    """Deployment and Scout placement alternate; a side with nothing left lets the other place the rest (§2.5, §10)."""
    side = s.g[b, G_TURN]
    for k in range(2):
        sd = side if k == 0 else 1 - side
        if _has(st, s, b, sd, state, dk, sc):
            set_decision(s, b, dk, sd)
            return
    _drop_stuck(s, b, state)
    if s.g[b, G_PHASE] == PH_DEPLOY:
        s.g[b, G_PHASE] = PH_SCOUT
        s.g[b, G_TURN] = s.g[b, G_ROLLOFF]  # Scouts start with the side that activates first (§10)
    else:
        start_round(st, s, b, 1)


@njit(cache=True)
def _ambush_turn(st, s, b, sc):
    """Ambush arrivals, taking turns from the side that activates next; a side that passes is done this round (§10)."""
    side = s.g[b, G_TURN]
    for k in range(2):
        sd = side if k == 0 else 1 - side
        if (s.g[b, G_AMB_PASS] >> sd) & 1:
            continue
        if _has(st, s, b, sd, US_AMBUSH, DK_AMBUSH_UNIT, sc):
            set_decision(s, b, DK_AMBUSH_UNIT, sd)
            return
    s.g[b, G_PHASE] = PH_ROUND


@njit(cache=True)
def _any_to_act(s, b, side):
    mu = s.g[b, G_MU]
    for i in range(mu):
        if can_act(s, b, side * mu + i):
            return True
    return False


@njit(cache=True)
def _activation_turn(st, s, b):
    """§3: the side on turn activates; a side with no unit left marks the round as finished for it."""
    for sd in range(2):
        if s.g[b, G_FINISHED] < 0 and not _any_to_act(s, b, sd) and _any_to_act(s, b, 1 - sd):
            s.g[b, G_FINISHED] = sd
            emit(s, b, E_FINISHED, sd, -1, s.g[b, G_ROUND], 0, 0, 0, 0)
    side = s.g[b, G_TURN]
    for k in range(2):
        sd = side if k == 0 else 1 - side
        if _any_to_act(s, b, sd):
            set_decision(s, b, DK_SELECT, sd)
            return
    if s.g[b, G_FINISHED] < 0:
        s.g[b, G_FINISHED] = 1 - side  # the last activation was the other side's: this one was done first
    end_round(st, s, b)
    if not s.g[b, G_DONE]:
        start_round(st, s, b, s.g[b, G_ROUND] + 1)
