"""Set-up and round starts (§2.4, §2.5, §3, §10 Scout / Ambush; §13.1: edges first, then markers, then units).

``begin`` rolls the number of markers (D3 + 2) and the deployment roll-off, then runs to the first decision: the
roll-off winner's choice of edge. The objective roll-off follows the edge choice; markers go down alternately from
its winner; then the units (engine.py).
"""
from ...core.jit import njit
from .constants import R_SCOUT, US_AMBUSH, US_ON, US_SCOUT
from .dice import d3, roll_off
from .events import (
    E_AMBUSH, E_DEPLOY, E_HOLD_BACK, E_OBJ_PLACED, E_ROLLOFF, E_ROUND, E_SCOUT, PLACE_AMBUSH, PLACE_DEPLOY,
    PLACE_SCOUT, ROLL_EDGE, ROLL_OBJ, emit,
)
from .legal import zone_of
from .movement import MODE_AMBUSH, MODE_BAND, MODE_ZONE, apply_plan, plan_place, prepare_place
from .seam import start_of_round
from .state import (
    DK_AMBUSH_CELL, DK_CHOOSE_EDGE, DK_NONE, DK_PLACE_OBJ, DK_SCOUT_CELL, G_ACTIVE, G_AMB_PASS, G_DK, G_DPLAYER,
    G_FINISHED, G_FIRST, G_NOBJ, G_OBJ_PLACED, G_PHASE, G_ROLLOFF, G_ROUND, G_TURN, G_ZONE0, O_ON,
    O_OWNER, O_X, O_Y, PH_AMBUSH, PH_DEPLOY, PH_ROUND, PH_SETUP, U_ACTIVATED, U_ARRIVED, U_N, U_RULES, U_SIDE,
    U_STATE,
)


@njit(cache=True)
def begin(s, b):
    """Start a deployed-nowhere game: markers to place and the deployment roll-off (§2.4, §2.5)."""
    s.g[b, G_PHASE] = PH_SETUP
    s.g[b, G_ROUND] = 0
    s.g[b, G_ZONE0] = -1
    s.g[b, G_NOBJ] = d3(s, b) + 2
    win, f0, f1 = roll_off(s, b)
    s.g[b, G_ROLLOFF] = win
    emit(s, b, E_ROLLOFF, -1, -1, win, f0, f1, ROLL_EDGE, 0)
    s.g[b, G_DK] = DK_NONE


@njit(cache=True)
def setup_next(s, b):
    if s.g[b, G_ZONE0] < 0:
        s.g[b, G_DK] = DK_CHOOSE_EDGE
        s.g[b, G_DPLAYER] = s.g[b, G_ROLLOFF]
    elif s.g[b, G_OBJ_PLACED] < s.g[b, G_NOBJ]:
        s.g[b, G_DK] = DK_PLACE_OBJ
        s.g[b, G_DPLAYER] = s.g[b, G_TURN]
    else:
        s.g[b, G_PHASE] = PH_DEPLOY
        s.g[b, G_TURN] = s.g[b, G_ROLLOFF]


@njit(cache=True)
def choose_edge(s, b, edge):
    """§2.5: the roll-off winner takes board edge ``edge`` (zone 0 or 1); then the markers' roll-off (§2.4)."""
    win = s.g[b, G_ROLLOFF]
    s.g[b, G_ZONE0] = edge if win == 0 else 1 - edge
    w2, f0, f1 = roll_off(s, b)
    emit(s, b, E_ROLLOFF, -1, -1, w2, f0, f1, ROLL_OBJ, 0)
    s.g[b, G_TURN] = w2


@njit(cache=True)
def place_objective(st, s, b, side, c):
    w = st.flags.shape[1]
    k = s.g[b, G_OBJ_PLACED]
    s.obj[b, k, O_X] = c % w
    s.obj[b, k, O_Y] = c // w
    s.obj[b, k, O_ON] = 1
    s.obj[b, k, O_OWNER] = -1
    s.g[b, G_OBJ_PLACED] = k + 1
    emit(s, b, E_OBJ_PLACED, side, -1, k, c, 0, 0, 0)
    s.g[b, G_TURN] = 1 - side


@njit(cache=True)
def place_unit(st, s, b, u, c, dk, sc):
    """Deploy (zone), Scout (band) or Ambush (far from enemies) unit u with its anchor in cell c."""
    mode = MODE_ZONE
    how = PLACE_DEPLOY
    kind = E_DEPLOY
    if dk == DK_SCOUT_CELL:
        mode = MODE_BAND
        how = PLACE_SCOUT
        kind = E_SCOUT
    elif dk == DK_AMBUSH_CELL:
        mode = MODE_AMBUSH
        how = PLACE_AMBUSH
        kind = E_AMBUSH
    side = s.u[b, u, U_SIDE]
    n = prepare_place(st, s, b, u, mode, sc)
    n = plan_place(st, s, b, u, c, mode, zone_of(s, b, side), sc, n)
    if n < 0:
        raise RuntimeError("firefight: a masked-legal placement has no plan")
    apply_plan(st, s, b, u, sc, n, False)
    s.u[b, u, U_STATE] = US_ON
    s.u[b, u, U_N] = n
    if mode == MODE_AMBUSH:
        s.u[b, u, U_ARRIVED] = s.g[b, G_ROUND]
    emit(s, b, kind, u, -1, c, how, 0, 0, 0)
    s.g[b, G_ACTIVE] = -1
    s.g[b, G_TURN] = 1 - side


@njit(cache=True)
def deploy_hold_back(s, b, u):
    """§2.5: a Scout or Ambush unit stays off the table for now (a unit with both rules is held as a Scout)."""
    scout = (s.u[b, u, U_RULES] & R_SCOUT) != 0
    s.u[b, u, U_STATE] = US_SCOUT if scout else US_AMBUSH
    emit(s, b, E_HOLD_BACK, u, -1, 1 if scout else 2, 0, 0, 0, 0)
    s.g[b, G_ACTIVE] = -1
    s.g[b, G_TURN] = 1 - s.u[b, u, U_SIDE]


@njit(cache=True)
def start_round(st, s, b, r):
    """§3: round r begins; round 1 goes to the deployment roll-off's winner, later rounds to the side that finished
    first. Ambush units may arrive from round 2 (§10)."""
    s.g[b, G_ROUND] = r
    if r == 1:
        s.g[b, G_FIRST] = s.g[b, G_ROLLOFF]
    elif s.g[b, G_FINISHED] >= 0:
        s.g[b, G_FIRST] = s.g[b, G_FINISHED]
    s.g[b, G_FINISHED] = -1
    s.g[b, G_TURN] = s.g[b, G_FIRST]
    s.g[b, G_AMB_PASS] = 0
    waiting = False
    for u in range(s.u.shape[1]):
        s.u[b, u, U_ACTIVATED] = 0
        if s.u[b, u, U_STATE] == US_AMBUSH:
            waiting = True
    emit(s, b, E_ROUND, -1, -1, r, s.g[b, G_FIRST], 0, 0, 0)
    start_of_round(s, b)  # Caster tokens (§10), the §3 SUGGESTION's step (4)
    s.g[b, G_PHASE] = PH_AMBUSH if (r >= 2 and waiting) else PH_ROUND
    s.g[b, G_DK] = DK_NONE
