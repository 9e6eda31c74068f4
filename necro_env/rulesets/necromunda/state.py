"""Array layout of a batch of Necromunda games (DESIGN.md section 2).

``State`` is a namedtuple of arrays with a leading batch axis; a single game
is a batch of one. Column names are module-level integers (numba compiles
them as constants). ``Static`` holds the read-only tables shared by every
game of a batch: board terrain, line-of-sight tables, weapon and armour
profiles.
"""
from collections import namedtuple

import numpy as np

# ---------------------------------------------------------------- globals g[b, :]
G_ROUND = 0  # current round, 1-based
G_PHASE = 1
G_DK = 2  # decision kind awaiting a choice
G_DGANG = 3  # gang that must decide
G_ACTIVE = 4  # global index of the activated fighter, -1 if none
G_PRIORITY = 5  # gang holding Priority this round
G_TURN = 6  # position in the priority order whose turn it is to activate
G_DONE = 7  # 1 when the game is over (terminated or truncated)
G_WINNER = 8  # winning gang, -1 draw / none
G_ROUND_LIMIT = 9
G_NGANGS = 10
G_MF = 11  # fighter slots per gang
G_EVN = 12  # events written by the last step
G_EVOVF = 13  # 1 if the event buffer overflowed during the last step
G_TRUNC = 14  # 1 if the game ended on the round limit
G_NDEC = 15  # decisions taken so far
G_QN = 16  # fighters queued to Run for Cover out of turn
G_FU = 17  # fighter owed a post-fight follow-up (coup de grace / consolidate), -1
G_LASTPRIO = 18  # gang that held Priority last round, -1
G_ENDSTEP = 19  # End phase step in progress
G_ENDGANG = 20  # position in the priority order for the End phase step in progress
G_VARIANT = 21  # VAR_CORE or VAR_HOUSE_LEGACY
G_FUM0 = 22  # fighters 0-30 engaged with G_FU when it declared its fight (bit mask)
G_FUM1 = 23  # fighters 31-61
G_GGANG = 24  # gang whose group activation (2.4) is in progress, -1 none
G_GROUP = 25  # bit mask of the slots named for that group that have not activated yet
G_GNAME = 26  # 1 while the active fighter names its group members (DK_GROUP)
G_GLEFT = 27  # members the group's leader may still name
G_CHF = 28  # fighter owed the optional free Fight after its charge (House Legacy), -1
G_CHFM = 29  # hit modifier of that Fight (-1 when the charger had no line of sight to its target)
G_SMOKE0 = 30  # smoke clouds (12 Smoke): G_SMOKE0 .. G_SMOKE0 + N_SMOKE - 1 hold centre cell + 1, 0 = none
N_SMOKE = 4
G_GRAV0 = 34  # Graviton Pulse markers (12): G_GRAV0 .. + N_GRAV - 1 hold centre cell + 1, 0 = none
N_GRAV = 4
G_GRAVD0 = 38  # their Blast diameters (inches), same slots
G_BLZ = 42  # 1 + burning fighter owed the go-Prone decision after its random move (4.3 Blaze), 0 = none
G_RB = 43  # 1 + Mounted fighter finishing a Ride By move (4.3 Mounted, DK_RIDE_BY), 0 = none
G_RBB = 44  # half-inches of that Move left after the pause
G_RBT = 45  # the enemy it attacked (its 1" zone may be crossed)
NG = 46

VAR_CORE = 0
VAR_HOUSE_LEGACY = 1
VARIANTS = {"core": VAR_CORE, "house_legacy": VAR_HOUSE_LEGACY}

PH_PRIORITY = 0
PH_ACTION = 1
PH_END = 2
PH_OVER = 3

DK_NONE = -1
DK_SELECT = 0  # choose a Ready fighter to activate
DK_ACTION = 1  # choose the active fighter's next action, or end its activation
DK_FOLLOWUP = 2  # after a Fight: free Coup de Grace, consolidate, or decline
DK_BOTTLE = 3  # End phase: roll the Bottle check or bottle out voluntarily
DK_FLEE = 4  # start of an Action phase: a bottled gang may retreat from the battle
DK_GROUP = 5  # a Group Activation leader names its members (2.4)
DK_CHARGE_FIGHT = 6  # House Legacy: the optional free Fight after a charge (5.3)
DK_BLAZE_PRONE = 7  # a burning fighter may go Prone and Pinned after its random move (4.3 Blaze)
DK_RIDE_BY = 8  # a Mounted fighter finishes its Ride By move (4.3 Mounted)
DK_NAMES = {DK_SELECT: "select_fighter", DK_ACTION: "choose_action", DK_FOLLOWUP: "fight_followup",
            DK_BOTTLE: "bottle_check", DK_FLEE: "voluntary_retreat", DK_GROUP: "group_activation",
            DK_CHARGE_FIGHT: "charge_fight", DK_BLAZE_PRONE: "blaze_prone", DK_RIDE_BY: "ride_by_move"}

END_BOTTLE = 0
END_FLEE = 1
END_RECOVERY = 2
END_RALLY = 3
END_DONE = 4

# ---------------------------------------------------------------- gangs gang[b, G, :]
GG_BOTTLED = 0
GG_CREW = 1  # starting crew size
GG_ORDER = 2  # this gang's position in this round's priority order
GG_ROLL = 3  # last priority roll
GG_RETREATED = 4  # voluntarily retreated from the battle
GG_OUT = 5  # no longer in the battle
GG_BOTTLE_ASKED = 6  # voluntary-bottle decision taken this End phase
GG_FLEE_ASKED = 7  # voluntary-retreat decision taken this Action phase
GG_VOLBOTTLE = 8  # chose to fail the bottle check this End phase
NGG = 10

# ---------------------------------------------------------------- fighters fi[b, F, :]
FI_STATE = 0  # FS_* below
FI_X = 1
FI_Y = 2
FI_FACING = 3
FI_POSTURE = 4  # PO_* below
FI_WOUNDS = 5
FI_FLESH = 6  # flesh wounds suffered
FI_READY = 7
FI_BROKEN = 8
FI_ROLE = 9
FI_ARMOUR = 10
FI_BODYGLOVE = 11
FI_FIELD = 12  # refractor field: 0 none, 1 working, 2 burnt out
FI_GA = 13  # Group Activation (X)
FI_HIER = 14  # Gang Hierarchy: 0 none, 1 champion, 2 leader
FI_ACTS = 15  # actions left in the current activation
FI_BASIC = 16  # bit mask of Basic actions taken this activation
FI_AIMED = 17  # 1 after Aim this activation
FI_TURN = 18  # 1 while the fighter may choose a new facing
FI_DISARMED = 19  # 1: only unarmed reaction attacks this round
FI_TYPE = 20  # index into the fighter-type names (rendering)
FI_FREE = 21  # bit mask of Free actions taken this activation
FI_CARRY = 22  # casket carried, -1
FI_STOOD = 23  # 1: stood up by an engaging enemy; its next reaction attacks count as having turned to face
FI_CH = 24  # characteristics start here: FI_CH + CH_*
FI_Z = FI_CH + 12  # floor height (inches) of the fighter's cell; kept in step with FI_X/FI_Y (rules 1.2 levels)
FI_HL = FI_CH + 13  # House Legacy markers: HL_* bits below
FI_COND = FI_CH + 14  # condition bit mask C_* below (4.3; rulesets/necromunda/conditions.py)
FI_CTRL = FI_CH + 15  # Insane: 1 + gang controlling this fighter for its activation, 0 = its own gang
FI_MOVED = FI_CH + 16  # half-inches moved in its current / last activation (Mounted knock-down)
FI_SHIELD = FI_CH + 17  # Assault / Energy Shield (12): constants.SHIELD_*, 0 none
FI_ENTANGLED = FI_CH + 18  # 1: hit by an Entangle natural 6; its reaction attacks in this fight are at -2 (12)
NFI = FI_CH + 19

HL_HARD = 1  # Hard Target (4.5)
HL_MOVED = 2  # the last action of this activation was a Move (two in a row give Hard Target)
HL_NERVE = 4  # took a Nerve test during the current activation (10.4: one per turn)


FS_EMPTY = 0
FS_ON = 1
FS_OOA = 2
FS_FLED = 3

PO_STANDING = 0
PO_PINNED = 1  # Prone and Pinned
PO_SI = 2  # Prone and Seriously Injured

# conditions (4.3): bits of fi[b, f, FI_COND]; apply/clear functions in conditions.py
C_BLAZE = 1 << 0
C_BLIND = 1 << 1
C_CONCUSSION = 1 << 2
C_HIDDEN = 1 << 3
C_INSANE = 1 << 4
C_WEBBED = 1 << 5
C_GUNKED = 1 << 6
C_STARVING = 1 << 7
C_INTOXICATED = 1 << 8
C_MOUNTED = 1 << 9
C_NO_READY = 1 << 10  # Blind without a Ready marker: gets none next Priority phase (4.3)
C_WIL_DUE = 1 << 11  # Insane 5-6: Willpower test due at the end of this activation (4.3)
COND_NAMES = {"blaze": C_BLAZE, "blind": C_BLIND, "concussion": C_CONCUSSION, "hidden": C_HIDDEN,
              "insane": C_INSANE, "webbed": C_WEBBED, "gunked": C_GUNKED, "starving": C_STARVING,
              "intoxicated": C_INTOXICATED, "mounted": C_MOUNTED}

# ---------------------------------------------------------------- weapons wp[b, F, MW, :]
WP_ID = 0  # weapon id in the weapon table, -1 for an empty slot
WP_OOA = 1  # Out of Ammo marker
WP_DEAD = 2  # bit p: profile p can no longer be used; bit 7: jammed (whole weapon)
WP_FLAGS = 3  # WPF_* bits below
WPF_MC_USED = 1  # Master-crafted (12): the once-per-battle hit re-roll is used
NWP = 4
WP_JAMMED = 1 << 7

# ---------------------------------------------------------------- doors / caskets
DR_STATE = 0
DR_WOUNDS = 1
NDR = 2
CK_X = 0
CK_Y = 1
CK_STATE = 2  # 0 absent, 1 closed, 2 opened
NCK = 3

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

State = namedtuple("State", "g gang fi wp door casket queue rng script spos ev")
Static = namedtuple(
    "Static",
    "terrain door_of_cell door_xy term duct deploy los_wall los_obst los_door arc wprof armour height feat levels",
)


def alloc_state(batch, n_gangs, max_fighters, max_weapons, max_doors, max_caskets,
                event_cap=512, script_cap=512):
    f = n_gangs * max_fighters
    return State(
        g=np.zeros((batch, NG), np.int32),
        gang=np.zeros((batch, n_gangs, NGG), np.int32),
        fi=np.zeros((batch, f, NFI), np.int16),
        wp=np.full((batch, f, max_weapons, NWP), 0, np.int16),
        door=np.zeros((batch, max(1, max_doors), NDR), np.int16),
        casket=np.zeros((batch, max(1, max_caskets), NCK), np.int16),
        queue=np.zeros((batch, f * 4 + 8), np.int16),
        rng=np.zeros((batch, 2), np.uint64),
        script=np.zeros((batch, script_cap), np.int16),
        spos=np.full((batch, 2), -1, np.int32),
        ev=np.zeros((batch, event_cap, NEV), np.int16),
    )


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
