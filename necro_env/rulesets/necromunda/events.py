"""Structured events (DESIGN.md section 7): one int16 row per rule step.

Row: (kind, actor, target, a, b, c, d, e). ``EVENT_FIELDS`` names what a..e
mean for each kind; the battle log, replays and rule tests read these rows.
Fighters are global indices (gang * fighters_per_gang + slot); cells are flat
indices y * width + x.
"""
from ...core.jit import njit

from .state import EV_A, EV_ACTOR, EV_B, EV_C, EV_D, EV_E, EV_KIND, EV_TARGET, G_EVN, G_EVOVF

E_ROUND = 1
E_PRIORITY = 2
E_ACTIVATE = 3
E_ACTION = 4
E_MOVE = 5
E_TURN = 6
E_CHARGE = 7
E_COOL = 8
E_SHOT = 9
E_HIT = 10
E_FIREPOWER = 11
E_AMMO = 12
E_PINNED = 13
E_STRAY = 14
E_WOUND = 15
E_SAVE = 16
E_DAMAGE = 17
E_INJURY = 18
E_FLESH = 19
E_SERIOUS = 20
E_OOA = 21
E_NERVE = 22
E_BROKEN = 23
E_RFC = 24
E_RALLY = 25
E_BOTTLE = 26
E_FLEE = 27
E_RECOVERY = 28
E_DOOR = 29
E_CASKET = 30
E_INIT = 31
E_KNOCKBACK = 32
E_GAME_END = 33
E_END_ACT = 34
E_REACTION = 35
E_PARRY = 36
E_FIELD = 37
E_RELOAD = 38
E_STAND = 39
E_ATTACKS = 40
E_DUCT = 41
E_UNSTABLE = 42
E_DISARM = 43
E_ASSIST = 44
E_STANDUP_ENGAGED = 45
E_COUP = 46
E_CONSOLIDATE = 47
E_RETREAT = 48
E_INTEL = 49
E_FORCE = 50
E_FALL = 51
E_GROUP = 52  # a fighter is named a member of a group activation (2.4)
E_HARD_TARGET = 53  # House Legacy: a fighter becomes a Hard Target (4.5)
E_SELF_RALLY = 54  # House Legacy: a Broken fighter's Cool test at the end of its activation (10.4)
E_CONDITION = 55  # a condition (4.3) gained or lost
E_BLAZE_MOVE = 56  # a burning fighter's random 2D6" move (4.3 Blaze)
E_EXTINGUISH = 57  # a burning fighter's roll to put the fire out (4.3 Blaze)
E_INSANE = 58  # an Insane fighter's activation roll (4.3 Insane)
E_WILL = 59  # a Willpower test
E_CANNIBALISE = 60  # Cannibalise (4.3 Starving)
E_KNOCKED_DOWN = 61  # a Mounted fighter hit by a ranged attack tests Initiative (4.3 Mounted)
E_BLAST = 62  # a Blast / Smoke marker placed (7.9); target -1
E_SCATTER = 63  # a missed Blast scatters (7.9)
E_FLAME = 64  # a Flame template placed (7.10)
E_SMOKE_GONE = 65  # a smoke cloud dissipates in the End phase (12 Smoke)
E_TRAIT = 66  # a weapon trait roll (12 Pulverise, Rad-phage, Graviton Pulse, Master-crafted, Reckless, Drag, Impale, Entangle); a = damage.TR_*
E_GRAV_GONE = 67  # a Graviton Pulse marker is removed in the End phase (12 Graviton Pulse)
E_BLAZE_PRONE = 68  # a burning fighter chose to go Prone and Pinned after its random move, or not (4.3 Blaze)
E_DEMOLISH = 69  # a Demolitions grenade used against a locked door (12 Demolitions; 5.2)
E_RIDE_BY = 70  # a Mounted fighter pauses its move to attack an enemy it passes (4.3 Mounted, Ride By)

# E_MOVE's ``move_kind``: why the fighter moved. The rules code passes these to ``movement.place``
# and the battle log words them with MOVE_KIND_VERBS; before 2026-12-02 they were bare numbers
# decoded only in the battle log. The values are in recorded replays: never renumber them.
MK_MOVE = 0  # a Move (Simple), and a Ride By's move (4.3 Mounted)
MK_CHARGE = 1  # a Charge, and a Starving fighter's compelled charge (4.3)
MK_RUN_FOR_COVER = 2  # Running for Cover (10.2)
MK_RETREAT = 3  # a Retreat (5.2), and a House Legacy Broken fighter's retreat (10.4)
MK_TAKE_COVER = 4
MK_CARRY = 5  # carrying a casket or (House Legacy) a Seriously Injured friend
MK_CRAWL = 6
MK_CONSOLIDATE = 7  # the follow-up of a Fight (8.1 step 8)
MK_MOVED = 8  # moved by something else than its own action: a Blaze's random move, being carried

MOVE_KIND_VERBS = {MK_MOVE: "moves", MK_CHARGE: "charges", MK_RUN_FOR_COVER: "runs for cover", MK_RETREAT: "retreats",
                   MK_TAKE_COVER: "takes cover", MK_CARRY: "carries its load", MK_CRAWL: "crawls",
                   MK_CONSOLIDATE: "consolidates", MK_MOVED: "is moved"}

EVENT_NAMES = {v: k[2:].lower() for k, v in dict(globals()).items() if k.startswith("E_") and isinstance(v, int)}

# What a, b, c, d, e mean per kind (documentation and the battle log).
EVENT_FIELDS = {
    E_ROUND: ("round",),
    E_PRIORITY: ("roll", "order"),  # actor = gang; one row per gang, then order 0 marks the holder
    E_ACTIVATE: ("round",),
    E_ACTION: ("action_kind", "p1", "p2"),
    E_MOVE: ("from_cell", "to_cell", "cost_half_inches", "move_kind"),
    E_TURN: ("facing",),
    E_CHARGE: ("d3", "allowance_inches", "reached"),
    E_COOL: ("roll", "need", "passed", "reason"),
    E_SHOT: ("weapon", "profile", "band", "modifier", "cover"),
    E_HIT: ("roll", "need", "hit", "reason"),
    E_FIREPOWER: ("face", "holes", "ammo_symbol"),
    E_AMMO: ("roll", "need", "passed", "slot"),
    E_PINNED: (),
    E_STRAY: ("roll", "hit"),
    E_WOUND: ("roll", "need", "wounded", "strength", "toughness"),
    E_SAVE: ("roll", "need", "saved", "modified_roll"),
    E_DAMAGE: ("damage", "wounds_left"),
    E_INJURY: ("result", "die"),  # result 0 flesh wound, 1 serious injury, 2 out of action
    E_FLESH: ("flesh_wounds", "toughness"),
    E_SERIOUS: (),
    E_OOA: ("reason",),
    E_NERVE: ("roll", "need", "passed"),  # target = casualty
    E_BROKEN: (),
    E_RFC: ("from_cell", "to_cell", "allowance_inches"),
    E_RALLY: ("roll", "need", "passed"),
    E_BOTTLE: ("roll", "total", "crew", "bottled", "voluntary"),  # actor = gang
    E_FLEE: ("roll", "need", "fled"),
    E_RECOVERY: ("result", "die", "assistant", "second_die"),
    E_DOOR: ("door", "new_state"),
    E_CASKET: ("casket", "opened", "roll", "need"),
    E_INIT: ("roll", "need", "passed", "reason"),
    E_KNOCKBACK: ("roll", "from_cell", "to_cell", "blocked"),
    E_GAME_END: ("reason",),  # actor = winning gang or -1
    E_END_ACT: (),
    E_REACTION: (),
    E_PARRY: ("parry_weapon",),
    E_FIELD: ("roll", "worked", "burnout_roll"),
    E_RELOAD: ("slot", "roll", "passed"),
    E_STAND: ("facing",),
    E_ATTACKS: ("dice", "weapon1", "weapon2", "modifier"),
    E_DUCT: ("from_cell", "to_cell"),
    E_UNSTABLE: ("roll", "out_of_action"),
    E_DISARM: (),
    E_ASSIST: ("assists", "interference"),
    E_STANDUP_ENGAGED: (),
    E_COUP: (),
    E_CONSOLIDATE: ("from_cell", "to_cell"),
    E_RETREAT: ("roll", "allowance_inches"),
    E_INTEL: ("roll", "need", "passed"),
    E_FORCE: ("roll", "total", "passed"),
    E_FALL: ("from_cell", "to_cell", "height", "landed_on"),  # landed_on: fighter landed on, -1
    E_GROUP: ("members_left",),  # actor = leader, target = member
    E_HARD_TARGET: ("reason",),  # 0 two Moves in a row, 1 Consolidate after a Fight
    E_SELF_RALLY: ("roll", "need", "passed"),
    E_CONDITION: ("condition", "gained", "cause"),  # condition = C_* bit; cause: conditions.CAUSE_*
    E_BLAZE_MOVE: ("from_cell", "to_cell", "roll_2d6", "direction"),
    E_EXTINGUISH: ("roll", "total", "put_out"),
    E_INSANE: ("roll", "result", "controller"),  # result: conditions.INSANE_*
    E_WILL: ("roll", "need", "passed", "reason"),  # reason: conditions.WIL_*
    E_CANNIBALISE: ("roll", "removed"),  # target = victim
    E_KNOCKED_DOWN: ("roll", "need", "knocked_down", "inches_moved"),
    E_BLAST: ("cell", "diameter", "placement", "models_hit"),  # placement: shooting.PLACE_*; cell -1 for a dud
    E_SCATTER: ("hit_symbol", "angle", "distance", "from_cell", "misfire_roll"),  # angle in degrees, 0 = north
    E_FLAME: ("facing", "models_hit"),  # facing -1: a template fired through a ductway
    E_SMOKE_GONE: ("cell", "roll"),
    E_TRAIT: ("trait", "roll", "need", "effect"),
    E_GRAV_GONE: ("cell", "diameter"),
    E_BLAZE_PRONE: ("prone",),
    E_DEMOLISH: ("door", "roll", "need", "wounds_left", "door_state"),  # wound roll against the door's T5
    E_RIDE_BY: ("from_cell", "pause_cell", "half_inches_left"),  # target = the enemy attacked
}


@njit(cache=True)
def emit(s, b, kind, actor, target, a, bb, c, d, e):
    n = s.g[b, G_EVN]
    if n >= s.ev.shape[1]:
        s.g[b, G_EVOVF] = 1
        return
    row = s.ev[b, n]
    row[EV_KIND] = kind
    row[EV_ACTOR] = actor
    row[EV_TARGET] = target
    row[EV_A] = a
    row[EV_B] = bb
    row[EV_C] = c
    row[EV_D] = d
    row[EV_E] = e
    s.g[b, G_EVN] = n + 1
