"""Numeric constants of the Firefight rules engine (rules digest ../shared/rules/firefight.md).

Every name is a plain module-level integer so numba compiles it as a constant. The special
rules (§10) are bits of one int32 set (``U_RULES`` of a unit, ``W_RULES`` of a weapon), in the
order of ``data.RULES``; their parameters X sit in their own columns (state.py).

Distances (§12.2): a cell is 1"; the distance between two models is the distance between their
cell centres minus 1, floored at 0. So "within X inches" is ``dx*dx + dy*dy <= (X + 1) ** 2``,
an integer test (``within``, movement.py). Movement cost (§12.2 suggests 1 and sqrt 2): a step
costs ``STEP_ORTHO`` (5) fifths of an inch straight and ``STEP_DIAG`` (7, 1.4") diagonally, so
every allowance is a whole number of fifths and path search stays in integers.
"""
from . import data as _data

# ---------------------------------------------------------------- sizes
MAX_OBJ = 5  # D3 + 2 markers at most (§2.4)
N_SIDES = 2

# ---------------------------------------------------------------- special rules (§10): bits of U_RULES / W_RULES
RULE_NAMES = tuple(_data.RULES)  # bit i = RULE_NAMES[i]
RULE_BIT = {name: 1 << i for i, name in enumerate(RULE_NAMES)}
R_AMBUSH = 1 << 0
R_AP = 1 << 1
R_BANE = 1 << 2
R_BLAST = 1 << 3
R_CASTER = 1 << 4
R_COUNTER = 1 << 5
R_DEADLY = 1 << 6
R_FAST = 1 << 7
R_FEAR = 1 << 8
R_FEARLESS = 1 << 9
R_FLYING = 1 << 10
R_FURIOUS = 1 << 11
R_HERO = 1 << 12
R_IMMOBILE = 1 << 13
R_IMPACT = 1 << 14
R_INDIRECT = 1 << 15
R_LIMITED = 1 << 16
R_REGENERATION = 1 << 17
R_RELENTLESS = 1 << 18
R_RELIABLE = 1 << 19
R_RENDING = 1 << 20
R_SCOUT = 1 << 21
R_SLOW = 1 << 22
R_STEALTH = 1 << 23
R_STRIDER = 1 << 24
R_SURGE = 1 << 25
R_THRUST = 1 << 26
R_TOUGH = 1 << 27
R_UNSTOPPABLE = 1 << 28
assert RULE_NAMES[28] == "Unstoppable" and RULE_NAMES[7] == "Fast" and len(RULE_NAMES) == 29

# ---------------------------------------------------------------- terrain flags of a cell (data.TF_*, §9, §12.1)
TF_COVER = 1
TF_DIFFICULT = 2
TF_DANGEROUS = 4
TF_IMPASSABLE = 8
TF_BLOCKS_SIGHT = 16
assert (TF_COVER, TF_DIFFICULT, TF_DANGEROUS, TF_IMPASSABLE, TF_BLOCKS_SIGHT) == (
    _data.TF_COVER, _data.TF_DIFFICULT, _data.TF_DANGEROUS, _data.TF_IMPASSABLE, _data.TF_BLOCKS_SIGHT)

# ---------------------------------------------------------------- actions (§3.1) in U_ACTION
ACT_NONE = -1
ACT_HOLD = 0
ACT_ADVANCE = 1
ACT_RUSH = 2
ACT_CHARGE = 3
ACT_IDLE = 4  # a Shaken unit's spent activation (§7.2)
N_ACTIONS = 5
ACTION_NAMES = ("hold", "advance", "rush", "charge", "idle")

# ---------------------------------------------------------------- move distances (inches, §3.1, §4.2, §10)
ADVANCE_IN = 6
RUSH_IN = 12
CHARGE_IN = 12
FAST_ADVANCE = 2
FAST_RUSH = 4
DIFFICULT_CAP_IN = 6  # §9: a move through difficult terrain is at most 6" in total
CLOSE_IN_IN = 3  # §6 step 2: the defenders close in at most 3"
CONSOLIDATE_IN = 3  # §6 step 6: the survivor of a destroyed-unit melee may move up to 3"
OBJ_RANGE_IN = 3  # §2.4: within 3" of a marker
OBJ_GAP_IN = 9  # §2.4: markers more than 9" apart
AMBUSH_GAP_IN = 9  # §10 Ambush: more than 9" from every enemy unit
SCOUT_BAND_IN = 12  # §10 Scout: fully within 12" of the own deployment zone (§13 Q24)
HERO_RANGE_IN = 12  # §8
MELEE_REACH_IN = 2  # §6 step 4: within 2" horizontally
MELEE_REACH_Z = 4  # and 4" vertically
COHERENCY_NEAR_IN = 1  # §4.1: within 1" of at least one other model
COHERENCY_SPREAD_IN = 6  # §4.1: within 6" of every other model
KEEP_AWAY_IN = 1  # §4.2: within 1" of other units only while charging

STEP_ORTHO = 5  # fifths of an inch a straight step costs
STEP_DIAG = 7  # a diagonal step (1.4")
FIFTHS = 5  # fifths per inch

# ---------------------------------------------------------------- heights (§11)
DROP_FREE_IN = 3  # a normal move may drop from up to 3"
DROP_JUMP_IN = 6  # a jump may drop from up to 6" (§13 Q25: more is not allowed)
GAP_FREE_IN = 1  # a normal move may cross gaps up to 1" wide
CLIMB_STEP_IN = 1  # a step may climb at most 1" (a ramp, data.MAX_STEP)
FALL_MIN_IN = 2  # pushed off a position at least 2" high: a fall (§11.3)
FALL_PLACE_IN = 2  # placed 2" from the foot of the drop

# ---------------------------------------------------------------- options (bits of G_OPTS)
OPT_KEEP_AWAY_ENEMY_ONLY = 1  # §13 Q10 switch: the 1" rule counts enemy units only (default: every other unit)
OPT_KEEP_AWAY_END_ONLY = 2  # §13 Q10 switch: the 1" rule checks the end position only (default: the path too)
OPT_COHERENCY_CONNECTED = 4  # §13 Q11 switch: the unit must form one connected chain
OPT_HEIGHTS = 8  # §12.1: heights on (jumping, falling, melee reach in 3D); off = a flat board

# ---------------------------------------------------------------- unit states (U_STATE)
US_EMPTY = 0  # no unit in this slot
US_ON = 1  # on the table
US_WAITING = 2  # not deployed yet (deployment in progress)
US_SCOUT = 3  # held back by Scout (§10), placed after the other units
US_AMBUSH = 4  # held back by Ambush (§10), arrives at the start of round 2, 3 or 4
US_DEAD = 5  # destroyed: every model Knocked Out or killed
US_ROUTED = 6  # routed by a failed morale test (§8): counts as destroyed
UNIT_STATE_NAMES = ("empty", "on_table", "waiting", "scout_reserve", "ambush_reserve", "destroyed", "routed")
