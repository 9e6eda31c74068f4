"""Firefight shown to a person: replay frames, the viewer's drawing data and the play page's words (2026-12-02).

The replay viewer and the play page draw with one piece of code (necro_env/replay/board.js), written for
Necromunda's fighters. A Firefight model is drawn as one of those pieces: ``fighters`` holds every model
slot (global index ``unit * max_models + model``), each labelled with its unit's letter (side 0 upper
case, side 1 lower case); wound markers show as dark red pips, Shaken as "!". Objective markers are board
markers coloured by their controller, terrain is drawn as walls (impassable), obstacles (cover or
sight-blocking) and glyphs (d difficult, x dangerous, s blocks sight), heights as numbers. ``cards`` give
one card per unit, as a unit is what a Firefight player commands.

The functions fill the optional fields of ``Ruleset`` (necro_env/rulesets/base.py) in ruleset.py.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from .constants import (
    ACTION_NAMES, TF_BLOCKS_SIGHT, TF_COVER, TF_DANGEROUS, TF_DIFFICULT, TF_IMPASSABLE, UNIT_STATE_NAMES, US_DEAD,
    US_EMPTY, US_ON, US_ROUTED,
)
from .state import (
    G_ACTIVE, G_DPLAYER, G_ROUND, G_ROUND_LIMIT, G_SCORE0, G_SCORE1, M_ALIVE, M_WOUNDS, M_X, M_Y, U_N,
    U_SHAKEN, U_SIZE, U_STATE, U_TOUGH,
)

COLOURS = ("#2864c8", "#c83c28")  # side 0 blue, side 1 red
NEUTRAL = "#8c8c8c"  # an objective marker nobody controls
_GLYPHS = ((TF_DIFFICULT, "d"), (TF_DANGEROUS, "x"), (TF_BLOCKS_SIGHT, "s"))


def _side_names(game) -> list:
    return [f"player_{i} ({lst.army.name})" for i, lst in enumerate(game.lists)]


def _letter(side: int, slot: int) -> str:
    c = chr(ord("A") + slot % 26)
    return c if side == 0 else c.lower()


def first_model(game, u: int):
    """The fighter index (board.js) of unit ``u``'s first living model, or None: the piece the page marks."""
    m = game.state.m[0, u]
    alive = np.flatnonzero(m[:, M_ALIVE])
    return int(u * game.max_models + alive[0]) if len(alive) else None


# ---------------------------------------------------------------------------- the drawing data
def board_data(game) -> dict:
    b = game.board
    flags = np.asarray(b.flags)

    def ch(v):
        return "#" if v & TF_IMPASSABLE else ("o" if v & (TF_COVER | TF_BLOCKS_SIGHT) else ".")

    feats = [["".join(g for bit, g in _GLYPHS if int(v) & bit and not v & TF_IMPASSABLE) for v in row] for row in flags]
    heights = np.asarray(b.heights)
    return {"width": int(b.width), "height": int(b.height), "name": b.name,
            "terrain": ["".join(ch(int(v)) for v in row) for row in flags],
            "features": feats if any(any(r) for r in feats) else None,
            "heights": heights.astype(int).tolist() if heights.any() else None,
            "doors": [], "ducts": [], "terminals": []}


def fighters_data(game) -> list:
    """One entry per model slot; slots no model fills have name None (board.js skips them)."""
    out = []
    mu, mm = game.max_units, game.max_models
    for u in range(2 * mu):
        side, slot = divmod(u, mu)
        unit = game.lists[side].units[slot] if slot < len(game.lists[side].units) else None
        weapons = list(unit.equipment) if unit is not None else []
        for i in range(mm):
            named = unit is not None and i < unit.size
            out.append({"name": f"{unit.label} #{i + 1}" if named else None, "gang": side, "slot": slot,
                        "unit": u, "symbol": _letter(side, slot), "weapons": weapons,
                        "wounds": int(unit.rules.get("Tough", 1)) if named else 1})
    return out


def view(game) -> dict:
    """The static drawing data (board, pieces, sides, colours) in the shape board.js reads."""
    return {"board": board_data(game), "fighters": fighters_data(game), "gangs": _side_names(game),
            "colours": list(COLOURS), "conditions": [], "condition_colours": []}


def _fi_rows(game) -> list:
    """Per model: x, y, facing, posture, wounds, wound markers, state (1 on the table), ready, Shaken."""
    s = game.state
    rows = []
    for u in range(2 * game.max_units):
        on = int(s.u[0, u, U_STATE]) == US_ON
        for r in s.m[0, u]:
            alive = on and bool(r[M_ALIVE])
            rows.append([int(r[M_X]), int(r[M_Y]), 0, 0, 0, int(r[M_WOUNDS]), 1 if alive else 0, 0,
                         int(s.u[0, u, U_SHAKEN]) if alive else 0])
    return rows


def _cards(game) -> list:
    s = game.state
    active = int(s.g[0, G_ACTIVE])
    out = []
    for side, names in enumerate(game.unit_names):
        for slot, name in enumerate(names):
            u = side * game.max_units + slot
            row = s.u[0, u]
            st = int(row[U_STATE])
            marks = int(s.m[0, u, :, M_WOUNDS].sum())
            words = [UNIT_STATE_NAMES[st], f"{int(row[U_N])}/{int(row[U_SIZE])} models"]
            words += ["Shaken"] * bool(row[U_SHAKEN]) + [f"{marks} wound marker(s)"] * (marks > 0)
            if row[U_TOUGH]:
                words.append(f"Tough({int(row[U_TOUGH])})")
            out.append({"name": f"{_letter(side, slot)} {name}", "side": side, "text": ", ".join(words),
                        "active": u == active, "out": st != US_ON})
    return out


def _marks(game, events) -> list:
    """Movement arrows, lines of fire and charges of the last step (board.js drawMarks)."""
    w = game.board.width
    out = []

    def at(u):
        f = first_model(game, u)
        return None if f is None else tuple(int(v) for v in game.state.m[0, u, f % game.max_models, :2])

    for ev in events:
        if ev.kind == "move":
            a, b = ev.fields["from_cell"], ev.fields["to_cell"]
            out.append(["move", a % w, a // w, b % w, b // w, 0])
        elif ev.kind in ("shoot_at", "charge"):
            p, q = at(ev.actor), at(ev.target)
            if p and q:
                out.append(["fire" if ev.kind == "shoot_at" else "melee", *p, *q, 0])
    return out


def _status(game) -> str:
    g = game.state.g[0]
    head = f"round {int(g[G_ROUND])}/{int(g[G_ROUND_LIMIT])}, markers {int(g[G_SCORE0])}-{int(g[G_SCORE1])}"
    if game.done:
        return head + ", " + _result(game)
    return head + f", player_{int(g[G_DPLAYER])}: {game.decision[0]}"


def view_frame(game, gang: int, round_: int) -> dict:
    """The state now as one viewer frame, with the battle-log lines and marks of the last step."""
    events = game.events()
    objectives = [["objective", x, y, 0.45, COLOURS[o["owner"]] if o["owner"] >= 0 else NEUTRAL]
                  for o in game.objectives() for x, y in [o["cell"]]]
    fu = first_model(game, game.active_unit) if game.active_unit >= 0 else None
    return {"round": int(round_), "gang": int(gang), "status": _status(game),
            "active": fu if fu is not None else -1, "fi": _fi_rows(game),
            "wp": [[] for _ in range(2 * game.max_units * game.max_models)],
            "cond": [[] for _ in range(2 * game.max_units * game.max_models)],
            "doors": [], "caskets": [], "markers": objectives, "cards": _cards(game),
            "log": [f"R{int(round_)} {game_text(game, ev)}" for ev in events], "marks": _marks(game, events)}


def game_text(game, ev) -> str:
    from .log import event_text

    return event_text(game, ev)


# ---------------------------------------------------------------------------- the replay header and `show`
def replay_names(game) -> dict:
    """What a replay's header stores to word its events without the engine (verify recomputes it)."""
    return {"sides": _side_names(game), "units": [list(n) for n in game.unit_names],
            "weapons": list(game.weapon_names), "width": int(game.board.width), "max_units": int(game.max_units)}


def replay_log(names: dict, rows: list, round_: int) -> list:
    """Battle-log lines of event rows, worded from a header's names (``necro-replay show``)."""
    from .game import FIELDS, NAMES, Event
    from .log import event_text

    shim = SimpleNamespace(max_units=names["max_units"], unit_names=names["units"],
                           board=SimpleNamespace(width=names["width"]))
    out = []
    for row in rows:
        k = int(row[0])
        ev = Event(NAMES.get(k, str(k)), int(row[1]), int(row[2]), dict(zip(FIELDS.get(k, ()), map(int, row[3:]))))
        out.append(f"R{int(round_)} {event_text(shim, ev)}")
    return out


# ---------------------------------------------------------------------------- the play page's words
def _result(game) -> str:
    return "draw" if game.winner < 0 else f"player_{game.winner} wins"


def scoreboard(game) -> dict:
    """Models left and objective markers held per side; the result once over (§2.4)."""
    s = game.state
    sides = []
    for side, lst in enumerate(game.lists):
        units = range(side * game.max_units, side * game.max_units + len(lst.units))
        left = sum(int(s.u[0, u, U_N]) for u in units if int(s.u[0, u, U_STATE]) not in (US_EMPTY, US_DEAD, US_ROUTED))
        sides.append({"name": f"player_{side}", "house": lst.army.name, "left": left,
                      "total": sum(u.size for u in lst.units), "score": game.scores[side]})
    return {"round": game.round, "round_limit": game.round_limit, "sides": sides,
            "result": _result(game) if game.done else None}


def _unit_name(game, u: int) -> str:
    side, slot = divmod(int(u), game.max_units)
    names = game.unit_names[side]
    return f"{names[slot]} (player_{side})" if slot < len(names) else f"unit slot {slot} of player_{side}"


def describe_action(game, index: int) -> dict:
    """One index in words for the side deciding now, with the piece, target and cell the page marks."""
    from . import codec as C
    from .spells import SPELL_NAMES

    kind, p = (int(v) for v in C.decode(game.layout, int(index)))
    name = C.KIND_NAMES[kind]
    me, mu, w = game.current_side, game.max_units, game.board.width
    active = game.active_unit
    piece = first_model(game, active) if active >= 0 else None
    target = cell = None
    if kind == C.A_SELECT:
        u = me * mu + p
        label, piece = f"select {_unit_name(game, u)}", first_model(game, u)
    elif kind == C.A_ACTION:
        label = f"action {ACTION_NAMES[p]}"
    elif kind == C.A_CELL:
        cell = [p % w, p // w]
        label = f"{game.decision[0].replace('_', ' ')} ({cell[0]},{cell[1]})"
    elif kind == C.A_TARGET:
        u = (1 - me) * mu + p
        label, target = f"target {_unit_name(game, u)}", first_model(game, u)
    elif kind == C.A_STRIKE:
        label = "strike back" if p else "do not strike back"
    elif kind == C.A_EDGE:
        label = f"table edge {p}"
    elif kind == C.A_CAST:
        spell, rel = divmod(p, 2 * mu)
        u = ((me + rel // mu) % 2) * mu + rel % mu
        label, target = f"cast {SPELL_NAMES[spell]} at {_unit_name(game, u)}", first_model(game, u)
    elif kind == C.A_HELP:
        label = f"spend {abs(p - C.HELP_MAX)} token(s) {'for' if p >= C.HELP_MAX else 'against'} the casting roll"
        label = "spend no tokens" if p == C.HELP_MAX else label
    else:
        label = name.replace("_", " ")
    return {"label": label, "kind": name, "piece": piece, "target": target, "cell": cell}


def why_illegal(game, index: int) -> str:
    """Why a masked index cannot be played now: the decision awaited and the kinds it allows."""
    from . import codec as C

    if game.done:
        return f"the game is over ({_result(game)})"
    kind, _ = (int(v) for v in C.decode(game.layout, int(index)))
    lay, mask = game.layout, game.mask[0]
    legal = [C.KIND_NAMES[k] for k in range(C.N_KINDS) if mask[lay[k]:lay[k + 1]].any()]
    dk = game.decision[0]
    if C.KIND_NAMES[kind] in legal:
        return f"not one of the legal {C.KIND_NAMES[kind]} choices at the {dk} decision of player_{game.current_side}"
    return (f"no {C.KIND_NAMES[kind]} choice at the {dk} decision of player_{game.current_side} "
            f"(allowed now: {', '.join(legal)})")
