"""Necromunda's part of the random-play soak (benchmarks/random_games.py): building a soak game and counting
its notable events, as evidence the rules occur in play.

Moved here from benchmarks/random_games.py on 2026-12-02 (issue 56 item 1: a generic layer reaches a game only
through the registry); the benchmark reaches it as the ruleset's ``soak`` field. The counts and their labels are
the benchmark's output text: keep them as they are (docs/performance.md quotes them).
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from .codec import KIND_NAMES  # noqa: F401 (the soak's "actions" table names the codec's kinds)
from .events import E_ACTION  # noqa: F401 (an activated fighter's action: its kind is the row's column 3)


def build_game(spec, gang_specs, round_limit: int, variant: str):
    """A Game on a BoardSpec with these GangSpecs (the soak builds boards itself: generated ones, doors closed)."""
    from .game import Game

    return Game(spec, gang_specs, round_limit=round_limit, variant=variant)


def notable(ev) -> Counter:
    """Counts of notable events in an (n, 8) array of event rows."""
    from ...core.terrain import DOOR_OPEN
    from . import codec as C
    from . import events as E

    k = ev[:, 0]
    a, b_, c = ev[:, 3], ev[:, 4], ev[:, 5]
    d = ev[:, 6]
    act = k == E.E_ACTION
    out = Counter()

    def put(name, sel):
        out[name] += int(np.count_nonzero(sel))

    put("shots", k == E.E_SHOT)
    put("hits", (k == E.E_HIT) & (c == 1))
    put("stray shots", k == E.E_STRAY)
    put("ammo tests", k == E.E_AMMO)
    put("charges", k == E.E_CHARGE)
    put("charges reaching contact", (k == E.E_CHARGE) & (c == 1))
    put("fight actions", act & (a == C.A_FIGHT))
    put("close combat attack sets", k == E.E_ATTACKS)
    put("reaction attacks", k == E.E_REACTION)
    put("wounds caused", (k == E.E_WOUND) & (c == 1))
    put("saves made", (k == E.E_SAVE) & (c == 1))
    put("flesh wounds", k == E.E_FLESH)
    put("serious injuries", k == E.E_SERIOUS)
    put("out of action", k == E.E_OOA)
    put("coups de grace", k == E.E_COUP)
    put("pinned", k == E.E_PINNED)
    put("knockbacks", k == E.E_KNOCKBACK)
    put("nerve tests", k == E.E_NERVE)
    put("broken", k == E.E_BROKEN)
    put("running for cover", k == E.E_RFC)
    put("rally tests", k == E.E_RALLY)
    put("rallies passed", (k == E.E_RALLY) & (c == 1))
    put("recovery tests", k == E.E_RECOVERY)
    put("bottle checks", k == E.E_BOTTLE)
    put("gangs bottled", (k == E.E_BOTTLE) & (d == 1))
    put("flee tests", k == E.E_FLEE)
    put("fighters fled", (k == E.E_FLEE) & (c == 1))
    put("voluntary retreats", act & (a == C.A_FLEE))
    put("doors opened", (k == E.E_DOOR) & (b_ == DOOR_OPEN))
    put("doors closed", (k == E.E_DOOR) & (b_ != DOOR_OPEN))
    put("terminal accesses", act & (a == C.A_TERMINAL))
    put("doors forced", act & (a == C.A_FORCE_DOOR))
    put("ductway crawls", k == E.E_DUCT)
    put("fire through ductway", act & (a == C.A_FIRE_DUCT))
    put("casket actions", k == E.E_CASKET)
    put("caskets carried", act & (a == C.A_CARRY_CASKET))
    put("caskets opened", (k == E.E_CASKET) & (b_ == 1))
    put("reloads", k == E.E_RELOAD)
    put("stand ups (action)", act & (a == C.A_STAND_UP))
    put("stood up engaged (4.1)", k == E.E_STANDUP_ENGAGED)
    put("retreats", act & (a == C.A_RETREAT))
    put("blind fire", act & (a == C.A_BLIND_FIRE))
    put("twin sidearm shots", act & (a == C.A_SHOOT_TWIN))
    put("refractor field rolls", k == E.E_FIELD)
    out.update(_notable_rules(ev))
    return out


_TRAITS = None


def weapon_traits():
    """T_* trait masks per (weapon id, profile) of the default weapon table (the Games' table)."""
    global _TRAITS
    if _TRAITS is None:
        from ...config import load_weapons
        from .constants import PF_TRAITS

        _TRAITS = np.asarray(load_weapons().profiles[:, :, PF_TRAITS], np.int64)
    return _TRAITS


def _notable_rules(ev) -> Counter:
    """Counts of the levels, template, condition, group activation and House Legacy events."""
    from . import codec as C
    from . import condition_effects as CE
    from . import events as E
    from . import movement as M
    from . import shooting as SH
    from .conditions import CAUSE_START
    from .constants import (
        T_BLAST,
        T_GRENADE,
        T_SMOKE,
        T_TEMPLATE,
    )
    from .state import COND_NAMES

    k = ev[:, 0].astype(np.int64)
    a, b_, c, d = (ev[:, i].astype(np.int64) for i in (3, 4, 5, 6))
    out = Counter()

    def put(name, sel):
        out[name] += int(np.count_nonzero(sel))

    # levels (6.5-6.7)
    fall = k == E.E_FALL
    put("falls", fall)
    put("falls onto a fighter", fall & (d >= 0))
    out["fall height total (inches)"] += int(c[fall].sum())
    for reason, name in ((M.INIT_JUMP, "jump down"), (M.INIT_LEAP, "leap a gap"), (M.INIT_EDGE, "prone near edge")):
        sel = (k == E.E_INIT) & (d == reason)
        put(f"initiative tests: {name}", sel)
        put(f"initiative tests failed: {name}", sel & (c == 0))
    # shots by weapon trait (E_SHOT a = weapon, b = profile)
    traits = weapon_traits()
    shot = np.flatnonzero(k == E.E_SHOT)
    ok = (a[shot] >= 0) & (a[shot] < traits.shape[0]) & (b_[shot] >= 0) & (b_[shot] < traits.shape[1])
    st = np.zeros(len(shot), np.int64)
    st[ok] = traits[a[shot][ok], b_[shot][ok]]
    put("shots with a Blast weapon", (st & T_BLAST) != 0)
    put("shots with a Smoke weapon", (st & T_SMOKE) != 0)
    put("shots with a Template weapon", (st & T_TEMPLATE) != 0)
    put("grenade throws", (st & T_GRENADE) != 0)
    put("shoot at a point (shoot_cell)", (k == E.E_ACTION) & (a == C.A_SHOOT_CELL))
    # Blast / Smoke markers (7.9): the weapon is the one of the latest E_SHOT before the marker
    blast = np.flatnonzero(k == E.E_BLAST)
    smoke = np.zeros(len(blast), np.bool_)
    if len(blast) and len(shot):
        j = np.searchsorted(shot, blast) - 1
        smoke = (j >= 0) & ((st[np.maximum(j, 0)] & T_SMOKE) != 0)
    placed = c[blast] != SH.PLACE_DUD
    put("blasts (markers placed, not smoke)", placed & ~smoke)
    out["models hit by blasts"] += int(d[blast][~smoke].sum())
    put("smoke clouds placed", placed & smoke)
    put("smoke clouds dissipated", k == E.E_SMOKE_GONE)
    for pl, name in ((SH.PLACE_ON_TARGET, "on target"), (SH.PLACE_SCATTERED, "scattered"),
                     (SH.PLACE_MISFIRE, "misfire"), (SH.PLACE_DUD, "dud"), (SH.PLACE_SLID, "slid into range")):
        put(f"blast/smoke markers {name}", c[blast] == pl)
    put("scatter rolls", k == E.E_SCATTER)
    # Flame templates (7.10)
    flame = k == E.E_FLAME
    put("flame templates", flame)
    put("flame templates through a ductway", flame & (a == -1))
    out["models hit by flame templates"] += int(b_[flame].sum())
    put("weapon trait rolls", k == E.E_TRAIT)
    # conditions (4.3): E_CONDITION a = condition bit, b = gained
    cond = k == E.E_CONDITION
    for name, bit in COND_NAMES.items():
        put(f"condition gained: {name}", cond & (b_ == 1) & (a == bit))
    put("conditions lost", cond & (b_ == 0))
    put("conditions held at the battle's start", cond & (b_ == 1) & (c == CAUSE_START))
    put("blaze moves", k == E.E_BLAZE_MOVE)
    put("fires put out", (k == E.E_EXTINGUISH) & (c == 1))
    put("insane activation rolls", k == E.E_INSANE)
    put("insane fighters controlled by an enemy", (k == E.E_INSANE) & (b_ == CE.INSANE_CONTROLLED))
    put("willpower tests", k == E.E_WILL)
    put("cannibalise", k == E.E_CANNIBALISE)
    put("mounted knocked down", (k == E.E_KNOCKED_DOWN) & (c == 1))
    put("unstable weapon rolls", k == E.E_UNSTABLE)
    # group activation (2.4)
    grp = k == E.E_GROUP
    put("group activation members named", grp)
    ga = np.flatnonzero(grp | (k == E.E_ACTIVATE))  # a group: the first member named since an activation
    first = grp[ga] & np.concatenate(([True], ~grp[ga][:-1])) if len(ga) else ga
    put("group activations", first)
    # House Legacy (--variant house_legacy)
    put("house legacy: hard targets", k == E.E_HARD_TARGET)
    put("house legacy: broken self-rally tests", k == E.E_SELF_RALLY)
    put("house legacy: broken self-rallies passed", (k == E.E_SELF_RALLY) & (c == 1))
    return out
