"""Scenes for Firefight's combat tests: a state filled directly (units, models, weapons, terrain),
scripted dice and event queries, so each rule test is a few lines.

Written 2026-12-02 while the engine's scenario API (necro_env/rulesets/firefight/testing.py) did
not exist yet; it fills the engine's arrays (state.py) the way a deployed game holds them.

    sc = Scene()
    a = sc.unit(0, [(10, 10)], quality=4, weapons=[gun(24, 2)])
    t = sc.unit(1, [(10, 20), (11, 20)], defense=5)
    sc.aim(a, 0, t)
    sc.dice(6, 3, 2)
    shooting.resolve(sc.s, 0, a, sc.st)
    sc.spent()            # every scripted die was used
"""
from __future__ import annotations

import numpy as np

from necro_env.core import sight as S
from necro_env.rulesets.firefight import constants as C
from necro_env.rulesets.firefight import state as ST
from necro_env.rulesets.firefight.paths import step_table
from necro_env.rulesets.firefight.combat_events import COMBAT_EVENT_FIELDS


def rule_bits(names) -> int:
    bits = 0
    for name in names:
        bits |= C.RULE_BIT[name]
    return bits


def gun(rng, attacks=1, ap=0, rules=(), blast=0, deadly=0):
    """A ranged weapon profile (§1: range, Attacks, AP, special rules)."""
    assert rng > 0
    return dict(rng=rng, attacks=attacks, ap=ap, rules=rules, blast=blast, deadly=deadly)


def ccw(attacks=1, ap=0, rules=(), blast=0, deadly=0):
    """A melee weapon profile (range 0)."""
    return dict(rng=0, attacks=attacks, ap=ap, rules=rules, blast=blast, deadly=deadly)


class Scene:
    def __init__(self, width=48, height=48, units_per_side=4, max_models=10, max_weapons=3, opts=0):
        self.s = ST.alloc_state(1, units_per_side, max_models, max_weapons)
        self.s.g[0, ST.G_ROUND] = 1
        self.s.g[0, ST.G_OPTS] = opts
        self.flags = np.zeros((height, width), np.uint8)
        self.height = np.zeros((height, width), np.int8)
        self.mu = units_per_side
        self.count = [0, 0]
        self._st = None

    # ---------------------------------------------------------------- board
    def terrain(self, cells, tf):
        """Give the cells [(x, y), ...] the terrain flags ``tf`` (constants.TF_*)."""
        for x, y in cells:
            self.flags[y, x] |= tf
        self._st = None

    @property
    def st(self):
        """The board's Static, built as the engine builds it: core.sight's cells from the terrain flags."""
        if self._st is None:
            sf = np.zeros_like(self.flags)
            sf[(self.flags & C.TF_BLOCKS_SIGHT) != 0] |= S.SF_BLOCKS
            sf[(self.flags & C.TF_COVER) != 0] |= S.SF_COVER
            known = dict(flags=self.flags, height=self.height, sight=S.make_cells(sf), sight_rules=S.make_rules(),
                         steps=step_table(self.flags, self.height))
            # the engine's other tables (zones, bands) matter to movement and deployment only: none here
            rest = {f: np.full(self.flags.shape, -1, np.int8) for f in ST.Static._fields if f not in known}
            self._st = ST.Static(**known, **rest)
        return self._st

    # ---------------------------------------------------------------- units
    def unit(self, side, cells, quality=4, defense=5, rquality=None, rules=(), tough=0, impact=0, caster=0,
             fear=0, weapons=(), shaken=False, z=0):
        """Put a unit of ``side`` on the table with one model per cell; returns its global slot."""
        u = side * self.mu + self.count[side]
        self.count[side] += 1
        uu = self.s.u[0, u]
        uu[ST.U_STATE] = C.US_ON
        uu[ST.U_SIDE] = side
        uu[ST.U_N] = uu[ST.U_SIZE] = len(cells)
        uu[ST.U_QUALITY] = quality
        uu[ST.U_RQUALITY] = quality if rquality is None else rquality
        uu[ST.U_DEFENSE] = defense
        uu[ST.U_RULES] = rule_bits(rules) | (C.R_TOUGH if tough else 0) | (C.R_IMPACT if impact else 0) \
            | (C.R_CASTER if caster else 0) | (C.R_FEAR if fear else 0)
        uu[ST.U_TOUGH], uu[ST.U_IMPACT], uu[ST.U_CASTER], uu[ST.U_FEAR] = tough, impact, caster, fear
        uu[ST.U_SHAKEN] = 1 if shaken else 0
        uu[ST.U_ACTION] = C.ACT_NONE
        uu[ST.U_START] = 1
        for i, (x, y) in enumerate(cells):
            self.s.m[0, u, i, ST.M_X], self.s.m[0, u, i, ST.M_Y] = x, y
            self.s.m[0, u, i, ST.M_ALIVE] = 1
            self.s.m[0, u, i, ST.M_Z] = z
        for k, wp in enumerate(weapons):
            w = self.s.w[0, u, k]
            w[ST.W_ID] = k
            w[ST.W_COUNT] = len(cells)
            w[ST.W_RANGE], w[ST.W_ATTACKS], w[ST.W_AP] = wp["rng"], wp["attacks"], wp["ap"]
            w[ST.W_RULES] = rule_bits(wp["rules"]) | (C.R_BLAST if wp["blast"] else 0) \
                | (C.R_DEADLY if wp["deadly"] else 0) | (C.R_AP if wp["ap"] else 0)
            w[ST.W_BLAST], w[ST.W_DEADLY] = wp["blast"], wp["deadly"]
            w[ST.W_TARGET] = -1
        return u

    def aim(self, u, slot, target):
        self.s.w[0, u, slot, ST.W_TARGET] = target

    # ---------------------------------------------------------------- dice and events
    def dice(self, *faces):
        """Script the next dice (the rules roll them in this order); running out raises."""
        self.s.script[0, :len(faces)] = faces
        self.s.spos[0, 0], self.s.spos[0, 1] = 0, len(faces)

    def spent(self):
        """Were all scripted dice rolled?"""
        return int(self.s.spos[0, 0]) == int(self.s.spos[0, 1])

    def events(self, kind=None):
        """Event rows of the buffer as dicts (kind, actor, target and the kind's named fields)."""
        rows = []
        for r in self.s.ev[0, :int(self.s.g[0, ST.G_EVN])]:
            k = int(r[ST.EV_KIND])
            if kind is not None and k != kind:
                continue
            names = COMBAT_EVENT_FIELDS.get(k, ("a", "b", "c", "d", "e"))
            row = {"kind": k, "actor": int(r[ST.EV_ACTOR]), "target": int(r[ST.EV_TARGET])}
            row.update({n: int(v) for n, v in zip(names, r[ST.EV_A:ST.EV_A + 5])})
            rows.append(row)
        return rows

    def clear_events(self):
        self.s.g[0, ST.G_EVN] = 0

    # ---------------------------------------------------------------- reading the state
    def alive(self, u):
        return int(self.s.u[0, u, ST.U_N])

    def models(self, u):
        """Cells of the unit's living models."""
        m = self.s.m[0, u]
        return [(int(r[ST.M_X]), int(r[ST.M_Y])) for r in m if r[ST.M_ALIVE]]

    def state(self, u):
        return int(self.s.u[0, u, ST.U_STATE])

    def shaken(self, u):
        return bool(self.s.u[0, u, ST.U_SHAKEN])

    def markers(self, u):
        return sum(int(r[ST.M_WOUNDS]) for r in self.s.m[0, u] if r[ST.M_ALIVE])

    def col(self, u, column):
        return int(self.s.u[0, u, column])
