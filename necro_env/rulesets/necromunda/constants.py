"""Numeric constants of the Necromunda ruleset.

Every name here is a plain module-level integer so numba treats it as a
compile-time constant. Tables that hold these values are built by
``necro_env.config`` from the YAML files under ``configs/``.
"""

# --------------------------------------------------------------------------
# Weapon traits (bit flags in the PF_TRAITS column). Section 12.
# --------------------------------------------------------------------------
T_RAPID_FIRE = 1 << 0
T_PLENTIFUL = 1 << 1
T_SCARCE = 1 << 2
T_LIMITED = 1 << 3
T_SIDEARM = 1 << 4
T_MELEE = 1 << 5
T_UNWIELDY = 1 << 6
T_KNOCKBACK = 1 << 7
T_PARRY = 1 << 8
T_RENDING = 1 << 9
T_POWER = 1 << 10
T_SHOCK = 1 << 11
T_DISARM = 1 << 12
T_BACKSTAB = 1 << 13
T_TOXIN = 1 << 14
T_MELTA = 1 << 15
T_UNSTABLE = 1 << 16
T_SCATTERSHOT = 1 << 17
T_PAIRED = 1 << 18
T_VERSATILE = 1 << 19
T_BLAZE = 1 << 20
T_TEMPLATE = 1 << 21
T_BLAST = 1 << 22
T_GRENADE = 1 << 23
T_SMOKE = 1 << 24
T_GAS = 1 << 25
T_WEB = 1 << 26
T_DEMOLITIONS = 1 << 27
T_SILENT = 1 << 28
T_SINGLE_SHOT = 1 << 29

TRAIT_NAMES = {
    "rapid_fire": T_RAPID_FIRE,
    "plentiful": T_PLENTIFUL,
    "scarce": T_SCARCE,
    "limited": T_LIMITED,
    "sidearm": T_SIDEARM,
    "melee": T_MELEE,
    "unwieldy": T_UNWIELDY,
    "knockback": T_KNOCKBACK,
    "parry": T_PARRY,
    "rending": T_RENDING,
    "power": T_POWER,
    "shock": T_SHOCK,
    "disarm": T_DISARM,
    "backstab": T_BACKSTAB,
    "toxin": T_TOXIN,
    "melta": T_MELTA,
    "unstable": T_UNSTABLE,
    "scattershot": T_SCATTERSHOT,
    "paired": T_PAIRED,
    "versatile": T_VERSATILE,
    "blaze": T_BLAZE,
    "template": T_TEMPLATE,
    "blast": T_BLAST,
    "grenade": T_GRENADE,
    "smoke": T_SMOKE,
    "gas": T_GAS,
    "web": T_WEB,
    "demolitions": T_DEMOLITIONS,
    "silent": T_SILENT,
    "single_shot": T_SINGLE_SHOT,
}

# Traits whose rules are not implemented: a weapon profile carrying one of these is loaded
# but cannot be used. Empty since templates, blasts and grenades arrived (issue 3).
T_NOT_YET = 0

# --------------------------------------------------------------------------
# Weapon profile table: int32 [n_weapons, MAX_PROFILES, NPF]
# --------------------------------------------------------------------------
MAX_PROFILES = 2
PF_VALID = 0  # 1 if this profile exists
PF_SHORT = 1  # short range in inches, -1 if the weapon has no short band
PF_LONG = 2  # long range in inches, -1 for melee-only ("E")
PF_ACC_S = 3  # accuracy modifier at short range (also the melee accuracy)
PF_ACC_L = 4  # accuracy modifier at long range
PF_S = 5  # strength value (or bonus when PF_S_USER == 1)
PF_S_USER = 6  # 1: strength is the wielder's S + PF_S
PF_AP = 7  # armour penetration as a positive number: AP -2 is stored as 2
PF_D = 8  # damage; 0 means "-" (no wounds removed, Injury dice directly)
PF_AMMO = 9  # ammo target number (D6 >= Ammo); 0 when the weapon has none
PF_RAPID = 10  # X of Rapid Fire (X)
PF_BLAST = 11  # 3 or 5 for Blast (3")/(5"), else 0
PF_TRAITS = 12  # bit mask of T_* flags
PF_TRAITS2 = 13  # second bit mask: T2_* flags >> 32 (traits past PF_TRAITS's 32 bits)
NPF = 14

# --------------------------------------------------------------------------
# Armour table: int32 [n_armours, NAF]
# --------------------------------------------------------------------------
AF_SAVE = 0  # base save target (7 = no save)
AF_FRONT_SAVE = 1  # save against attacks from the wearer's front arc (0 = same)
AF_TEMPLATE_SAVE = 2  # save against Blast/Flame (0 = same)
AF_CHARGE_PENALTY = 3  # inches lost when charging (heavy carapace)
AF_INIT_PENALTY = 4  # Initiative penalty (heavy carapace)
NAF = 5

# --------------------------------------------------------------------------
# Fighter characteristics in the fighter profile table (int32 [n_types, NCH])
# Target-number characteristics are stored as the target (WS 3+ -> 3).
# --------------------------------------------------------------------------
CH_M = 0
CH_WS = 1
CH_BS = 2
CH_S = 3
CH_T = 4
CH_W = 5
CH_I = 6
CH_A = 7
CH_LD = 8
CH_CL = 9
CH_WIL = 10
CH_INT = 11
NCH = 12

ROLE_LEADER = 0
ROLE_CHAMPION = 1
ROLE_GANGER = 2
ROLE_JUVE = 3
ROLE_SPECIALIST = 4
ROLE_NAMES = {
    "leader": ROLE_LEADER,
    "champion": ROLE_CHAMPION,
    "ganger": ROLE_GANGER,
    "juve": ROLE_JUVE,
    "specialist": ROLE_SPECIALIST,
}

# PF_LONG codes of profiles without a numeric long range (the loader writes them).
LONG_MELEE = -1  # "E": close combat only
LONG_GRENADE = -2  # "Sx3": thrown; PF_SHORT holds the multiplier (3)
LONG_TEMPLATE = -3  # "T": Flame template

# --------------------------------------------------------------------------
# More weapon traits (section 12), stored in PF_TRAITS2. In the engine a profile's traits are
# one int64, PF_TRAITS | PF_TRAITS2 << 32 (weapons.traits_of), so T2_* are the high bits.
# --------------------------------------------------------------------------
T2_SEISMIC = 1 << 32
T2_SEVER = 1 << 33
T2_PULVERISE = 1 << 34
T2_RAD_PHAGE = 1 << 35
T2_CONCUSSION = 1 << 36
T2_FLASH = 1 << 37
T2_CURSED = 1 << 38
T2_SHIELD_BREAKER = 1 << 39
T2_FEAR = 1 << 40
T2_GRAVITON = 1 << 41  # Graviton Pulse (12): Strength check instead of the wound roll, a slowing marker
T2_LANCE = 1 << 42  # Lance: only read by the Mounted Hands Full loadout check (4.3; docs/rules.md)
# issue 3 item 4 (R1): bits from 48 so that other traits appended after T2_FEAR do not collide
T2_ENTANGLE = 1 << 48
T2_MASTER_CRAFTED = 1 << 49
T2_RECKLESS = 1 << 50
T2_COMBI = 1 << 51
T2_IMPALE = 1 << 52
T2_DRAG = 1 << 53

TRAIT2_NAMES = {
    "seismic": T2_SEISMIC,
    "sever": T2_SEVER,
    "pulverise": T2_PULVERISE,
    "rad_phage": T2_RAD_PHAGE,
    "concussion": T2_CONCUSSION,
    "flash": T2_FLASH,
    "cursed": T2_CURSED,
    "shield_breaker": T2_SHIELD_BREAKER,
    "fear": T2_FEAR,
    "graviton_pulse": T2_GRAVITON,
    "lance": T2_LANCE,
    "entangle": T2_ENTANGLE,
    "master_crafted": T2_MASTER_CRAFTED,
    "reckless": T2_RECKLESS,
    "combi": T2_COMBI,
    "impale": T2_IMPALE,
    "drag": T2_DRAG,
}

# Shields (12 Assault Shield / Energy Shield): wargear, the fighter column FI_SHIELD
SHIELD_NONE = 0
SHIELD_ASSAULT = 1
SHIELD_ENERGY = 2
SHIELD_NAMES = {"none": SHIELD_NONE, "assault": SHIELD_ASSAULT, "energy": SHIELD_ENERGY}
