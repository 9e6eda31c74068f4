"""Necromunda's battle log: readable text from the event rows (``events.py``).

One line per event (one rule step), with the dice, the target numbers and why a test was taken::

    R1  Ganger 'Vex' [gang_0] shoots Ratskin [gang_1] with lasgun (short range), modifier +1, partial cover
    R1    hit roll 4 vs 3+: hit

``LogNames`` holds the names a line needs (fighters, gangs, weapons, board width); it comes from a
``Game`` or from a replay header (so ``necro-replay show`` needs no engine). Each known kind has a
formatter over the event's *named* fields (``EVENT_FIELDS``); a kind without a formatter, or a row a
formatter cannot read, is printed generically from ``EVENT_FIELDS`` (``kind: actor, target,
field=value ...``), so new event kinds from later rules never crash the log.

Generic code reaches it through the ruleset (``RULESET.replay_names``, ``replay_log``, ``battle_log``):
it moved here from ``necro_env/render/`` on 2026-12-02, when the generic layers were cut from Necromunda.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...core.terrain import DOOR_CLOSED, DOOR_DESTROYED, DOOR_LOCKED, DOOR_OPEN, FACING_NAMES
from . import codec as C
from . import events as E

# event codes read with getattr so a renamed or removed constant degrades to the generic line
_INJURY = {0: "Flesh Wound", 1: "Serious Injury", 2: "Out of Action"}
_BAND = {0: "short range", 1: "long range", 2: "out of range"}
_COVER = {0: "", 1: ", partial cover", 2: ", full cover"}
_HIT_REASON = {1: " (out of range)", 2: " (improbable shot: second roll)", 3: " (fire through a ductway)"}
_INIT_REASON = {1: "to break away when Running for Cover", 2: "to make reaction attacks as an enemy Runs for Cover",
                3: "to slip away from combat when fleeing", 4: "to Retreat from combat",
                5: "to make reaction attacks as an enemy Retreats"}
_OOA_REASON = {0: "Injury dice", 1: "Flesh Wounds reduced Toughness to 0", 2: "Coup de Grace",
               3: "Unstable weapon", 4: "Recovery roll"}
_DOOR = {DOOR_CLOSED: "closed", DOOR_OPEN: "open", DOOR_LOCKED: "locked", DOOR_DESTROYED: "destroyed"}
_END_REASON = {0: "one gang is left in the battle", 1: "the round limit was reached"}


def _ok(v, yes="passed", no="failed"):
    return yes if v else no


@dataclass
class LogNames:
    """Names for the battle log. fighters[g][i] is the name of slot i of gang g."""

    gangs: list
    fighters: list
    weapons: list
    profiles: list = field(default_factory=list)  # profiles[w] = profile names of weapon w
    width: int = 1
    max_fighters: int = 1

    @classmethod
    def from_game(cls, game, agent_names=None) -> "LogNames":
        n = game.dims.n_gangs
        gangs = list(agent_names) if agent_names else [f"gang_{i}" for i in range(n)]
        return cls(gangs=gangs, fighters=[list(x) for x in game.fighter_names],
                   weapons=list(game.weapons.names), profiles=[list(p) for p in game.weapons.profile_names],
                   width=int(game.dims.width), max_fighters=int(game.dims.max_fighters))

    def to_dict(self) -> dict:
        return {"gangs": self.gangs, "fighters": self.fighters, "weapons": self.weapons, "profiles": self.profiles,
                "width": self.width, "max_fighters": self.max_fighters}

    @classmethod
    def from_dict(cls, d) -> "LogNames":
        return cls(**{k: d[k] for k in ("gangs", "fighters", "weapons", "profiles", "width", "max_fighters")})

    # ------------------------------------------------------------------ names
    def fighter(self, f) -> str:
        f = int(f)
        if f < 0:
            return "-"
        g, i = divmod(f, max(1, self.max_fighters))
        gang = self.gang(g)
        names = self.fighters[g] if g < len(self.fighters) else []
        name = names[i] if i < len(names) else f"#{i}"
        return f"{name} [{gang}]"

    def gang(self, g) -> str:
        g = int(g)
        return self.gangs[g] if 0 <= g < len(self.gangs) else f"gang_{g}"

    def weapon(self, w, p=None) -> str:
        w = int(w)
        if not 0 <= w < len(self.weapons):
            return f"weapon #{w}"
        name = self.weapons[w]
        if p is not None and w < len(self.profiles):
            profs = self.profiles[w]
            if len(profs) > 1 and 0 <= int(p) < len(profs) and profs[int(p)]:
                name += f" ({profs[int(p)]})"
        return name

    def cell(self, c) -> str:
        c = int(c)
        return f"({c % self.width},{c // self.width})"


def _fields(row):
    kind = int(row[0])
    names = E.EVENT_FIELDS.get(kind, ())
    vals = [int(v) for v in row[3:]]
    out = dict(zip("abcde", vals))
    out.update(zip(names, vals))
    return out


def generic_line(row, names: LogNames) -> str:
    """Any event as ``kind: actor -> target, field=value, ...`` (names from EVENT_FIELDS)."""
    kind = int(row[0])
    kname = E.EVENT_NAMES.get(kind, f"event {kind}")
    parts = [kname + ":"]
    actor, target = int(row[1]), int(row[2])
    if actor >= 0:
        parts.append(names.fighter(actor))
    if target >= 0:
        parts.append("-> " + names.fighter(target))
    fnames = E.EVENT_FIELDS.get(kind, ())
    vals = [int(v) for v in row[3:]]
    kv = [f"{nm}={v}" for nm, v in zip(fnames, vals)]
    kv += [f"{'abcde'[j]}={v}" for j, v in enumerate(vals) if j >= len(fnames) and v != 0]
    if kv:
        parts.append(", ".join(kv))
    return " ".join(parts)


def _action_text(kind, p1, p2, actor, names: LogNames, n_gangs):
    if not 0 <= kind < len(C.KINDS):
        return f"action #{kind}"
    name, pk = C.KINDS[kind]
    text = name.replace("_", " ")
    mf = max(1, names.max_fighters)
    me = actor // mf

    def rel(r):
        return ((me + r // mf) % max(1, n_gangs)) * mf + r % mf

    if pk == C.P_CELL:
        return f"{text} to {names.cell(p1)}"
    if pk == C.P_TARGET:
        return f"{text} {names.fighter(rel(p1))}"
    if pk == C.P_WEAPON_TARGET:
        return f"{text} at {names.fighter(rel(p2))}"
    if pk == C.P_DOOR:
        return f"{text} (door {p1})"
    if pk == C.P_CASKET:
        return f"{text} (casket {p1})"
    if pk == C.P_FACING:
        return f"{text} {FACING_NAMES[p1 & 7]}"
    if pk == C.P_ITEM:
        return f"{text} (weapon slot {p1})"
    return text


def _need(n):
    return f"{n}+" if 0 < n <= 6 else ("no roll possible" if n > 6 else "auto")


def format_event(row, names: LogNames, n_gangs=None) -> str:
    """One readable line for one event row (kind, actor, target, a, b, c, d, e)."""
    try:
        text = _format(row, names, n_gangs if n_gangs is not None else len(names.gangs))
    except Exception:  # a row a formatter cannot read (changed fields): never crash the log
        text = None
    return text if text is not None else generic_line(row, names)


def _format(row, N: LogNames, ng):
    k, a, t = int(row[0]), int(row[1]), int(row[2])
    v = _fields(row)
    A, T = N.fighter(a), N.fighter(t)
    g = E
    if k == getattr(g, "E_ROUND", None):
        return f"=== Round {v['round']} ==="
    if k == getattr(g, "E_PRIORITY", None):
        if v["order"] == -1:
            return f"Priority roll: {N.gang(a)} rolls {v['roll']}"
        if v["order"] == -2:
            return f"Priority roll-off (tie): {N.gang(a)} rolls {v['roll']}"
        return f"{N.gang(a)} has Priority (roll {v['roll']})"
    if k == g.E_ACTIVATE:
        return f"{A} is activated"
    if k == g.E_ACTION:
        return f"{A} declares: {_action_text(v['action_kind'], v['p1'], v['p2'], a, N, ng)}"
    if k in (g.E_MOVE,):
        verb = E.MOVE_KIND_VERBS.get(v["move_kind"], "moves")  # named with the rules code (events.MK_*)
        return (f"{A} {verb} from {N.cell(v['from_cell'])} to {N.cell(v['to_cell'])} "
                f"({v['cost_half_inches'] / 2:g}\")")
    if k == g.E_TURN:
        return f"{A} turns to face {FACING_NAMES[v['facing'] & 7]}"
    if k == g.E_CHARGE:
        return (f"{A} charges {T}: Movement + D3 ({v['d3']}) = {v['allowance_inches']}\", "
                + ("reaches base contact" if v["reached"] else "falls short"))
    if k == g.E_COOL:
        why = " to shoot past a closer target (target priority)" if v["reason"] == 1 else ""
        return f"{A} Cool test{why}: 2D6 {v['roll']} vs {v['need']}+: {_ok(v['passed'])}"
    if k == g.E_SHOT:
        mod = v["modifier"]
        return (f"{A} shoots {T} with {N.weapon(v['weapon'], v['profile'])}: {_BAND.get(v['band'], '?')}, "
                f"hit modifier {mod:+d}{_COVER.get(v['cover'], '')}")
    if k == g.E_HIT:
        reason = v.get("reason", 0)
        if reason == 1:
            return f"  {A} vs {T}: out of range, no hit roll"
        return (f"  hit roll {v['roll']} vs {_need(v['need'])}{_HIT_REASON.get(reason, '')}: "
                + ("hit" if v["hit"] else "miss"))
    if k == g.E_FIREPOWER:
        return (f"  Firepower dice shows {v['holes']} bullet hole(s)"
                + (" and the Ammo symbol" if v["ammo_symbol"] else ""))
    if k == g.E_AMMO:
        return f"  Ammo check (Ammo symbol rolled) {v['roll']} vs {v['need']}+: " + _ok(v["passed"], "passed", "Out of Ammo")
    if k == g.E_PINNED:
        return f"  {A} is Pinned (hit by a ranged attack)"
    if k == g.E_STRAY:
        return f"  stray shot at {A if a == t else T}: roll {v['roll']}: " + ("hits" if v["hit"] else "misses")
    if k == g.E_WOUND:
        return (f"  wound roll {v['roll']} vs {_need(v['need'])} (Strength {v['strength']} vs Toughness "
                f"{v['toughness']}): " + ("wounds" if v["wounded"] else "no wound"))
    if k == g.E_SAVE:
        return f"  {A} save roll {v['roll']} vs {_need(v['need'])}: " + _ok(v["saved"], "saved", "failed")
    if k == g.E_DAMAGE:
        return f"  {A} suffers {v['damage']} damage, {v['wounds_left']} wound(s) left"
    if k == g.E_INJURY:
        return f"  {A} Injury dice: {_INJURY.get(v['result'], v['result'])} (die {v['die']})"
    if k == g.E_FLESH:
        return f"  {A} suffers a Flesh Wound ({v['flesh_wounds']} in all, Toughness now {v['toughness']})"
    if k == g.E_SERIOUS:
        return f"  {A} is Seriously Injured (Prone)"
    if k == g.E_OOA:
        return f"  {A} goes Out of Action ({_OOA_REASON.get(v['reason'], v['reason'])})"
    if k == g.E_NERVE:
        return (f"  {A} Nerve test because {T} went down within 3\": 2D6 {v['roll']} vs {v['need']}+: "
                + _ok(v["passed"]))
    if k == g.E_BROKEN:
        return f"  {A} is Broken"
    if k == g.E_RFC:
        return (f"  {A} Runs for Cover from {N.cell(v['from_cell'])} to {N.cell(v['to_cell'])} "
                f"(up to {v['allowance_inches']}\")")
    if k == g.E_RALLY:
        return f"{A} Rally test (Broken, End phase): 2D6 {v['roll']} vs {v['need']}+: {_ok(v['passed'])}"
    if k == g.E_BOTTLE:
        if v.get("voluntary"):
            return f"{N.gang(a)} bottles out voluntarily"
        return (f"{N.gang(a)} Bottle test: D6 {v['roll']} + casualties = {v['total']} vs starting crew "
                f"{v['crew']}: " + ("Bottled" if v["bottled"] else "holds"))
    if k == g.E_FLEE:
        if v["d"] == 1:
            return f"{A} Cool test to stay (bottled gang): passed automatically (Gang Hierarchy)"
        if v["d"] == 2:
            return f"{A} leaves the battle (gang retreated)"
        return (f"{A} Cool test to stay (bottled gang): 2D6 {v['roll']} vs {v['need']}+: "
                + ("flees the battle" if v["fled"] else "stays"))
    if k == g.E_RECOVERY:
        text = f"{A} Recovery roll: Injury die {v['die']}"
        if v["assistant"] >= 0 and v["second_die"]:
            text += f", assisted by {N.fighter(v['assistant'])}: second die {v['second_die']}"
        return text + f": {_INJURY.get(v['result'], v['result'])}"
    if k == g.E_DOOR:
        return f"{A} operates door {v['door']}: now {_DOOR.get(v['new_state'], v['new_state'])}"
    if k == g.E_CASKET:
        if v["opened"] == -1:
            return f"{A} carries casket {v['casket']} to {N.cell(v['roll'])}"
        if v["need"]:
            return (f"{A} smashes casket {v['casket']}: roll {v['roll']} vs {v['need']}+: "
                    + ("opened" if v["opened"] else "holds"))
        return f"{A} bypasses the lock of casket {v['casket']}: " + ("opened" if v["opened"] else "failed")
    if k == g.E_INIT:
        why = _INIT_REASON.get(v["reason"], f"reason {v['reason']}")
        return f"  {A} Initiative test {why}: D6 {v['roll']} vs {v['need']}+: {_ok(v['passed'])}"
    if k == g.E_KNOCKBACK:
        if v["blocked"]:
            return f"  {A} is not knocked back (blocked); Knockback roll {v['roll']}"
        return (f"  {A} is knocked back by {T} from {N.cell(v['from_cell'])} to {N.cell(v['to_cell'])} "
                f"(roll {v['roll']})")
    if k == g.E_GAME_END:
        who = f"{N.gang(a)} wins" if a >= 0 else "draw"
        return f"=== Game over: {who} ({_END_REASON.get(v['reason'], v['reason'])}) ==="
    if k == g.E_END_ACT:
        return f"{A} ends its activation"
    if k == g.E_REACTION:
        return f"  {A} makes reaction attacks against {T}"
    if k == g.E_PARRY:
        return f"  {A} parries an attack of {T} (re-roll)"
    if k == g.E_FIELD:
        text = f"  {A} refractor field roll {v['roll']} vs 5+: " + ("works" if v["worked"] else "fails")
        if v["worked"]:
            text += f" (burn-out roll {v['burnout_roll']}{': burnt out' if v['burnout_roll'] == 1 else ''})"
        return text
    if k == g.E_RELOAD:
        return f"{A} reloads weapon slot {v['slot']}: roll {v['roll']}: {_ok(v['passed'])}"
    if k == g.E_STAND:
        return f"{A} stands up facing {FACING_NAMES[v['facing'] & 7]}"
    if k == g.E_ATTACKS:
        w = [N.weapon(x) for x in (v["weapon1"], v["weapon2"]) if x >= 0]
        return (f"{A} fights {T}: {v['dice']} attack dice with {' and '.join(w) or 'bare hands'}"
                + (f" (modifier {v['modifier']:+d})" if v["modifier"] else ""))
    if k == g.E_DUCT:
        return f"{A} crawls through a ductway from {N.cell(v['from_cell'])} to {N.cell(v['to_cell'])}"
    if k == g.E_UNSTABLE:
        return f"  Unstable weapon roll {v['roll']}: " + (f"{A} goes Out of Action" if v["out_of_action"] else "safe")
    if k == g.E_DISARM:
        return f"  {A} is Disarmed by {T}"
    if k == g.E_ASSIST:
        return f"  {A} vs {T}: {v['assists']} assist(s), {v['interference']} interference"
    if k == g.E_STANDUP_ENGAGED:
        return f"  {A} stands up as {T} engages it"
    if k == g.E_COUP:
        return f"{A} performs a Coup de Grace on {T}"
    if k == g.E_CONSOLIDATE:
        return f"{A} consolidates from {N.cell(v['from_cell'])} to {N.cell(v['to_cell'])}"
    if k == g.E_RETREAT:
        return f"  {A} retreats up to {v['allowance_inches']}\""
    if k == g.E_INTEL:
        return f"{A} accesses a terminal: D6 {v['roll']} vs {v['need']}+: {_ok(v['passed'])}"
    if k == getattr(g, "E_SMOKE_GONE", None):
        return f"The smoke cloud at {N.cell(v['cell'])} dissipates (D6 {v['roll']})"
    if k == g.E_FORCE:
        return f"{A} forces a door: roll {v['roll']} (total {v['total']}): " + _ok(v["passed"], "forced", "holds")
    return None


def log_lines(rows, names: LogNames, round_=None, n_gangs=None):
    """The battle-log lines of a list of event rows; ``round_`` prefixes ``R<n>``."""
    out = []
    e_round = getattr(E, "E_ROUND", None)
    for row in rows:
        if round_ is not None and int(row[0]) == e_round:
            round_ = int(row[3])
        prefix = f"R{round_:<2} " if round_ is not None else ""
        out.append(prefix + format_event(row, names, n_gangs))
    return out


def game_log(game, agent_names=None):
    """The battle-log lines of the events of the last step of a ``Game``."""
    from .state import G_EVN, G_ROUND

    n = int(game.state.g[0, G_EVN])
    rows = game.state.ev[0, :n].tolist()
    start = int(game.state.g[0, G_ROUND]) - sum(1 for r in rows if r[0] == getattr(E, "E_ROUND", None))
    return log_lines(rows, LogNames.from_game(game, agent_names), start, game.dims.n_gangs)
