"""Battle-log text of Firefight's events (DESIGN.md §7: the events are the source; this only words them)."""
from .constants import ACTION_NAMES


def _unit(game, u):
    side, i = divmod(int(u), game.max_units)
    names = game.unit_names[side] if 0 <= side < 2 else []
    return f"{names[i]} (side {side})" if 0 <= i < len(names) else f"unit {u}"


def _cell(game, c):
    return f"({c % game.board.width},{c // game.board.width})"


def event_text(game, ev) -> str:
    f = ev.fields
    k = ev.kind
    if k == "rolloff":
        what = "deployment" if f["what"] == 0 else "objectives"
        return f"{what} roll-off: side 0 rolls {f['die0']}, side 1 rolls {f['die1']}: side {f['winner']} wins"
    if k == "objective_placed":
        return f"side {ev.actor} places marker {f['marker']} at {_cell(game, f['cell'])}"
    if k in ("deploy", "scout", "ambush"):
        return f"{_unit(game, ev.actor)} {'deploys' if k == 'deploy' else 'arrives (' + k + ')'} at {_cell(game, f['cell'])}"
    if k == "hold_back":
        return f"{_unit(game, ev.actor)} is held back ({'Scout' if f['rule'] == 1 else 'Ambush'})"
    if k == "round":
        return f"round {f['round']} begins; side {f['first']} activates first"
    if k == "activate":
        return f"{_unit(game, ev.actor)} takes {ACTION_NAMES[f['action']]}"
    if k == "move":
        return (f"{_unit(game, ev.actor)} model {f['model']} moves {_cell(game, f['from_cell'])} -> "
                f"{_cell(game, f['to_cell'])} ({f['fifths'] / 5:.1f}\")")
    if k == "charge":
        return f"{_unit(game, ev.actor)} charges {_unit(game, ev.target)}" + ("" if f["contact"] else ", short of contact")
    if k == "objective_control":
        owner = "neutral" if f["owner"] < 0 else f"side {f['owner']}"
        return f"marker {f['marker']}: {owner} (units near: {f['near0']} / {f['near1']})"
    if k == "game_end":
        result = "a draw" if f["winner"] < 0 else f"side {f['winner']} wins"
        return f"game over after the last round: markers {f['markers0']} - {f['markers1']}, {result}"
    parts = " ".join(f"{n}={v}" for n, v in f.items())
    actor = _unit(game, ev.actor) if ev.actor >= 0 else ""
    return f"{k} {actor} {parts}".strip()
