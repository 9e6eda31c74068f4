"""Array layout of a batch of Firefight games (DESIGN.md §2; rules digest ../shared/rules/firefight.md).

``State`` is a namedtuple of arrays with a leading batch axis B; one game is a batch of one.
Column names are module-level integers (numba compiles them as constants). Units have global
slots ``side * MU + i`` (MU = units per side, ``g[b, G_MU]``); a unit's models are rows of ``m``
and its weapons (the same for every model of the unit, §14) rows of ``w``.

- ``g`` [B, NG] int32: per-game scalars; the first 16 columns are core/header.py's header.
- ``u`` [B, 2*MU, NU] int32: units.
- ``m`` [B, 2*MU, MM, NM] int16: models (cell, alive, wound markers, height).
- ``w`` [B, 2*MU, MW, NW] int32: weapon slots of each unit.
- ``obj`` [B, MAX_OBJ, NO] int16: objective markers (§2.4).
- ``rng``, ``script``, ``spos``, ``ev``: dice and events as every ruleset (core/header.py COMMON_ARRAYS).

``Static`` holds the read-only board tables shared by every game of a batch (§9, §12.1).

Each column list ends with a block marked ``# --- combat (FFB may append columns here) ---``:
the combat modules (shooting, melee, wounds, morale, specials) add their own columns there,
and the ``N*`` count below the block is one past the last column.
"""
from collections import namedtuple

import numpy as np

from ...core import header as H
from .constants import MAX_OBJ

# ---------------------------------------------------------------- globals g[b, :]
G_ROUND = H.H_ROUND  # current round, 1-based; 0 during set-up (markers, deployment)
G_PHASE = H.H_PHASE  # PH_* below
G_DK = H.H_DK  # decision kind awaiting a choice (DK_* below)
G_DPLAYER = H.H_DPLAYER  # side that must decide now (the strike-back choice is the defender's)
G_ACTIVE = 4  # global slot of the unit in activation (or being placed), -1 none
G_FIRST = 5  # side that activates first this round (§3)
G_TURN = 6  # side whose turn it is to activate / place next
G_DONE = H.H_DONE
G_WINNER = H.H_WINNER  # winning side, -1 draw / none yet
G_ROUND_LIMIT = H.H_ROUND_LIMIT  # 4 in the standard mission (§2.4)
G_NPLAYERS = H.H_NPLAYERS
G_MU = 11  # unit slots per side
G_EVN = H.H_EVN
G_EVOVF = H.H_EVOVF
G_TRUNC = H.H_TRUNC
G_NDEC = H.H_NDEC
G_ROLLOFF = 16  # side that won the deployment roll-off (§2.5); it starts round 1 (§3)
G_ZONE0 = 17  # deployment zone (board edge 0 or 1, Static.zone) of side 0; side 1 has the other
G_NOBJ = 18  # objective markers this game (D3 + 2, §2.4)
G_FINISHED = 19  # side that finished all its activations first this round, -1 none yet (§3)
G_STAGE = 20  # step of the activation in progress: ST_* below
G_CTARGET = 21  # the charge's target unit, -1
G_WSLOT = 22  # weapon slot whose target is being chosen (DK_SHOOT_TARGET)
G_FREE = 23  # unit owed the survivor's free move after a melee (§6 step 6), -1
G_FREE_IN = 24  # inches of that move
G_OPTS = 25  # OPT_* switches (constants.py)
G_SCORE0 = 26  # markers controlled by side 0 at the last check (§2.4)
G_SCORE1 = 27
G_MOVED_FIFTHS = 28  # fifths of an inch the active unit moved this activation
G_ATTACKER = 29  # the charging unit of the melee in progress, -1
G_AMB_PASS = 30  # bit per side: passed on bringing Ambush units on this round (§10)
G_OBJ_PLACED = 31  # objective markers placed so far (§2.4)
G_DEFENDER = 32  # the charged unit of the melee in progress, -1
G_ENDS = 33  # 1 when the active unit's activation ends at once (a fall, §11.3)
G_PUSH0 = 34  # pushes owed (§11.1): attacker * 256 + pushed unit + 1, 0 none; a queue of N_PUSH
G_PUSH1 = 35
G_PUSH2 = 36
N_PUSH = 3  # Shaken results of one batch: one wound-effect roll per unit (§13 Q6), at most 2 shooting targets
G_PUSHED = 37  # the unit being pushed at DK_PUSH, -1
G_RESUME = 38  # where the activation goes on after the pushes: ST_* below
G_CAST_SPELL = 39  # the spell being tried (spells.SP_*), -1 (§10 Caster)
G_CAST_TARGET = 40  # its target unit
G_CAST_MOD = 41  # the helpers' net modifier so far (kept from the other side: §13.1, secret and simultaneous)
G_HELP_NEXT = 42  # the next unit asked whether it spends tokens on the roll
G_CAST_THEN = 43  # what the activation does after its spells: ST_AFTER_CAST_SHOOT or ST_AFTER_CAST_CHARGE
# --- combat (FFB may append columns here) ---
NG = 44  # one past the last column: keep it so when appending

# ---------------------------------------------------------------- phases
PH_SETUP = 0  # roll-offs and objective placement (§2.4, §13.1: edges first, then markers)
PH_DEPLOY = 1  # alternate deployment (§2.5)
PH_SCOUT = 2  # Scout placements after every other unit (§10)
PH_ROUND = 3  # alternating activations (§3)
PH_AMBUSH = 4  # Ambush arrivals at the start of rounds 2-4 (§10, §13 Q23)
PH_OVER = 5

# ---------------------------------------------------------------- decision kinds
DK_NONE = -1
DK_PLACE_OBJ = 0  # place one objective marker: a cell (§2.4)
DK_DEPLOY_UNIT = 1  # pick the next unit to deploy (§2.5)
DK_DEPLOY_CELL = 2  # its anchor cell in the own zone, or hold it back (Scout / Ambush)
DK_SCOUT_UNIT = 3  # pick a held-back Scout unit to place (§10)
DK_SCOUT_CELL = 4  # its anchor cell within 12" of the own zone
DK_AMBUSH_UNIT = 5  # pick an Ambush unit to bring on, or wait (§10)
DK_AMBUSH_CELL = 6  # its anchor cell more than 9" from every enemy unit
DK_SELECT = 7  # pick a unit to activate (§3)
DK_ACTION = 8  # its action: Hold / Advance / Rush / Charge, or Idle when Shaken (§3.1, §7.2)
DK_MOVE_CELL = 9  # the anchor's destination cell (§4, §12.3)
DK_SHOOT_TARGET = 10  # the target of one ranged weapon slot, or none (§5.1)
DK_CHARGE_TARGET = 11  # the unit to charge (§4.2, §6)
DK_STRIKE_BACK = 12  # the defender: strike back or not (§6 step 5); decided by the OTHER side
DK_FREE_MOVE = 13  # the survivor's optional 3" move after a melee (§6 step 6): a cell or decline
DK_CHOOSE_EDGE = 14  # the deployment roll-off's winner picks its table edge (§2.5)
DK_PUSH = 15  # the attacker may push a model that rolled Shaken up to 2" (§11.1): a cell or decline
DK_CAST = 16  # the active caster tries a spell at a target, or stops casting (§10 Caster)
DK_HELP = 17  # a unit with tokens spends some on the casting roll, +1 or -1 each, or none (§10, §13.1)
N_DK = 18
DK_NAMES = {DK_PLACE_OBJ: "place_objective", DK_DEPLOY_UNIT: "deploy_unit", DK_DEPLOY_CELL: "deploy_cell",
            DK_SCOUT_UNIT: "scout_unit", DK_SCOUT_CELL: "scout_cell", DK_AMBUSH_UNIT: "ambush_unit",
            DK_AMBUSH_CELL: "ambush_cell", DK_SELECT: "select_unit", DK_ACTION: "choose_action",
            DK_MOVE_CELL: "move_cell", DK_SHOOT_TARGET: "shoot_target", DK_CHARGE_TARGET: "charge_target",
            DK_STRIKE_BACK: "strike_back", DK_FREE_MOVE: "free_move", DK_CHOOSE_EDGE: "choose_edge",
            DK_PUSH: "push", DK_CAST: "cast", DK_HELP: "help_cast"}

# activation steps (G_STAGE)
ST_NONE = 0
ST_MOVE = 1  # waiting for the destination
ST_SHOOT = 2  # choosing weapon targets
ST_CHARGE = 3  # choosing the charge target / melee in progress
ST_AFTER_SHOOT = 4  # pushes after the shooting: then the activation ends
ST_AFTER_CHARGE = 5  # pushes after the charger's attacks: then the strike-back
ST_AFTER_STRIKE = 6  # pushes after the strike-back: then the aftermath
ST_AFTER_CAST = 7  # pushes after a spell: then the next spell
ST_AFTER_CAST_SHOOT = 8  # after the spells: the shooting (Hold, Advance)
ST_AFTER_CAST_CHARGE = 9  # after the spells: the charger's attacks

# ---------------------------------------------------------------- units u[b, U, :]
U_STATE = 0  # US_* (constants.py)
U_SIDE = 1
U_N = 2  # models alive
U_SIZE = 3  # models at the start
U_QUALITY = 4  # melee and morale Quality (the X of X+)
U_RQUALITY = 5  # ranged Quality (an army rule may replace it, §14)
U_DEFENSE = 6
U_RULES = 7  # special-rule bits (constants.R_*)
U_TOUGH = 8  # Tough(X), 0 none (§7.1)
U_IMPACT = 9  # Impact(X)
U_CASTER = 10  # Caster(X)
U_FEAR = 11  # Fear(X)
U_SHAKEN = 12  # 1 while Shaken (§7.2)
U_FATIGUED = 13  # 1 until the end of the round (§6 step 7)
U_ACTIVATED = 14  # 1 once activated this round (§3)
U_TOKENS = 15  # spell tokens held (§10 Caster)
U_ARRIVED = 16  # round in which it arrived by Ambush, 0 otherwise (§2.4 item 6)
U_CHARGED = 17  # 1 if it charged this round
U_STRUCK = 18  # 1 if it struck back this round
U_ACTION = 19  # action of its activation this round, ACT_NONE before
U_TYPE = 20  # index into the game's unit-type names (rendering, logs)
U_POINTS = 21
U_DIFF = 22  # 1 if it moved through difficult terrain this activation (§9, §13 Q20)
U_START = 23  # 1 if it counts as a starting unit for morale (§8); every listed unit does
U_SPARE = 24  # reserved for the decision loop
# --- combat (FFB may append columns here) ---
U_SPELLS = 25  # bits of the spells.py spells the unit has tried this round (§10 Caster: one try each)
NU = 26  # one past the last column: keep it so when appending

# ---------------------------------------------------------------- models m[b, U, i, :]
M_X = 0
M_Y = 1
M_ALIVE = 2  # 1 on the table; 0 removed (Knocked Out, killed, or not placed yet)
M_WOUNDS = 3  # wound markers (§7.1; only the last model of a unit builds them up, §7.3)
M_Z = 4  # floor height of its cell, kept in step with M_X / M_Y (§11)
M_PATH = 5  # 1 once it has rolled for dangerous terrain this activation (§9: one roll a model)
# --- combat (FFB may append columns here) ---
NM = 6  # one past the last column: keep it so when appending

# ---------------------------------------------------------------- weapons w[b, U, k, :]
W_ID = 0  # index into the game's weapon names; -1 for an empty slot
W_COUNT = 1  # models of the unit carrying it (every living model, §14)
W_RANGE = 2  # inches; 0 = melee (data.MELEE)
W_ATTACKS = 3
W_AP = 4
W_RULES = 5  # special-rule bits (constants.R_*)
W_BLAST = 6  # Blast(X), 0 none
W_DEADLY = 7  # Deadly(X), 0 none
W_TARGET = 8  # the target unit chosen this activation, -1 none (§5.1)
W_USED = 9  # 1 once a Limited weapon has been used (§10)
# --- combat (FFB may append columns here) ---
NW = 10  # one past the last column: keep it so when appending

# ---------------------------------------------------------------- objective markers obj[b, k, :]
O_X = 0
O_Y = 1
O_ON = 2  # 1 once placed
O_OWNER = 3  # controlling side, -1 neutral (§2.4)
NO = 4

# ---------------------------------------------------------------- events ev[b, i, :]
EV_KIND = 0
EV_ACTOR = 1
EV_TARGET = 2
EV_A = 3
EV_B = 4
EV_C = 5
EV_D = 6
EV_E = 7
NEV = 8

State = namedtuple("State", "g u m w obj rng script spos ev")
# flags: uint8 [H, W] TF_* bits; height: int8 [H, W] floor height (inches); zone: int8 [H, W] board edge
# 0 / 1 of the deployment zones, -1 outside both; sight / sight_rules: core.sight's cells and rules;
# band: int8 [H, W] the Scout band of each zone (within 12" of it, §10, §13 Q24), -1 outside both;
# steps: uint8 [3, H*W] the steps a model may take from each cell (paths.step_table).
Static = namedtuple("Static", "flags height zone sight sight_rules band steps")


def alloc_state(batch, max_units, max_models, max_weapons, event_cap=512, script_cap=512):
    """A zeroed batch: ``max_units`` unit slots per side, ``max_models`` models and ``max_weapons``
    weapon slots per unit."""
    n = 2 * max_units
    s = State(
        g=np.zeros((batch, NG), np.int32),
        u=np.zeros((batch, n, NU), np.int32),
        m=np.zeros((batch, n, max_models, NM), np.int16),
        w=np.zeros((batch, n, max_weapons, NW), np.int32),
        obj=np.zeros((batch, MAX_OBJ, NO), np.int16),
        rng=np.zeros((batch, 2), np.uint64),
        script=np.zeros((batch, script_cap), np.int16),
        spos=np.full((batch, 2), -1, np.int32),
        ev=np.zeros((batch, event_cap, NEV), np.int16),
    )
    s.g[:, G_MU] = max_units
    s.g[:, G_NPLAYERS] = 2
    s.w[:, :, :, W_ID] = -1
    s.w[:, :, :, W_TARGET] = -1
    s.obj[:, :, O_OWNER] = -1
    return s


def clone_state(s):
    return State(*(a.copy() for a in s))


def state_equal(a, b):
    return all(np.array_equal(x, y) for x, y in zip(a, b))


def state_slice(s, b):
    """Game b of a batch as a batch of one (a copy)."""
    return State(*(a[b:b + 1].copy() for a in s))


def state_nbytes(s, per_game=True):
    total = sum(a.nbytes for a in s)
    return total // s.g.shape[0] if per_game else total
