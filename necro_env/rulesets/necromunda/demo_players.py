"""Simple Python players for demonstrations (not baselines: the scripted players are in necro_env/policies/).

``DEMO_PLAYERS`` maps a name to ``policy(game, rng) -> action index``; the ruleset serves it as
``RULESET.demo_players`` to ``necro-replay record --policy`` (necro_env/replay/record.py). ``closing`` moved
here from necro_env/replay/record.py on 2026-12-02, when the generic layers were cut from Necromunda.
"""
from __future__ import annotations

from . import codec as C
from .state import FI_STATE, FI_X, FI_Y, FS_ON, G_ACTIVE


def closing_policy(game, rng):
    """A simple demo player (not a baseline): Coup de Grace > Fight > Charge > Shoot > the move that
    ends closest to an enemy; otherwise a random legal action. Games with it show combat quickly."""
    legal = game.legal_actions()
    fi = game.state.fi[0]
    mf, w = game.dims.max_fighters, game.dims.width
    me = game.current_gang
    enemies = [(int(fi[f, FI_X]), int(fi[f, FI_Y])) for f in range(fi.shape[0])
               if fi[f, FI_STATE] == FS_ON and f // mf != me]
    active = int(game.state.g[0, G_ACTIVE])
    rank = {C.A_COUP: 0, C.A_FIGHT: 1, C.A_CHARGE: 2, C.A_SHOOT: 3}
    best, best_key = [], None
    for a in legal:
        kind, p1, _ = C.decode(game.layout, game.dims.n_fighters, int(a))
        if kind in rank:
            key = (rank[kind], 0)
        elif kind == C.A_MOVE and enemies and active >= 0:
            x, y = int(p1) % w, int(p1) // w
            ax, ay = int(fi[active, FI_X]), int(fi[active, FI_Y])
            now = min(max(abs(ex - ax), abs(ey - ay)) for ex, ey in enemies)
            d = min(max(abs(ex - x), abs(ey - y)) for ex, ey in enemies)
            key = (4, d) if d < now else None
        else:
            key = None
        if key is None:
            continue
        if best_key is None or key < best_key:
            best, best_key = [int(a)], key
        elif key == best_key:
            best.append(int(a))
    return int(rng.choice(best)) if best else int(rng.choice(legal))


DEMO_PLAYERS = {"closing": closing_policy}
