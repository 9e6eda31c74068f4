"""Heights (§11): jumps, falls and pushes. Only with heights on (OPT_HEIGHTS); §12.1's default board is flat.

- A jump (§11.2) is a step that drops more than 3" (at most 6", §13 Q25): X + 1 dice, X = one die per full 3" of
  the drop, each needing 3+ (Strider 2+; Flying never jumps: it ignores terrain while moving). A jump costs no
  more than the step's own distance. Any failed die: the model falls at that jump.
- A fall (§11.3) from at least 2": in a unit of several models the model is killed outright; the last model takes
  one hit with AP(one per full 3" of the drop), a Defense roll, and a wound through the combat module's
  ``apply_wounds`` when it fails. The model is placed at the foot of the drop (§13 Q26: the landing cell). The
  unit's activation ends at once (G_ENDS).
- A push (§11.1): ``push_model`` moves a model up to 2" to a free passable cell; a push off a height of 2" or
  more is a fall. Coherency is not enforced after a push or a fall (§13 Q27).
"""
import numpy as np

from ...core.jit import njit
from .constants import FALL_MIN_IN, OPT_HEIGHTS, R_FLYING, R_STRIDER, TF_IMPASSABLE, US_ON
from .dice import d6, passes
from .events import E_FALL, E_JUMP, emit
from .paths import jumps_on_path
from .seam import fall_hit
from .state import G_ACTIVE, G_ENDS, G_OPTS, M_ALIVE, M_X, M_Y, M_Z, U_N, U_RULES, U_STATE


@njit(cache=True)
def jump_roll(s, b, u, drop):
    """§11.2: X + 1 dice, X = full 3" of the jump (a drop or a gap); each 3+ (Strider 2+, Flying passes). True if
    all succeed."""
    rules = s.u[b, u, U_RULES]
    if rules & R_FLYING:
        return True
    need = 2 if rules & R_STRIDER else 3
    ok = True
    for _ in range(drop // 3 + 1):
        if not passes(d6(s, b), need, 0):
            ok = False
    return ok


@njit(cache=True)
def fall(st, s, b, u, i, drop):
    """§11.3 for model i of unit u that fell ``drop`` inches (it stands at the foot already)."""
    if drop < FALL_MIN_IN or s.u[b, u, U_STATE] != US_ON:
        return
    if u == s.g[b, G_ACTIVE]:  # the active unit's activation ends (§13.1: another unit loses no activation)
        s.g[b, G_ENDS] = 1
    emit(s, b, E_FALL, u, -1, i, drop, drop // 3, 1 if s.u[b, u, U_N] > 1 else 0, 0)
    fall_hit(s, b, u, i, drop // 3)


@njit(cache=True)
def _free(st, s, b, x, y):
    h, w = st.flags.shape
    if x < 0 or y < 0 or x >= w or y >= h or (st.flags[y, x] & TF_IMPASSABLE):
        return False
    for v in range(s.u.shape[1]):
        if s.u[b, v, U_STATE] != US_ON:
            continue
        for j in range(s.m.shape[2]):
            if s.m[b, v, j, M_ALIVE] and s.m[b, v, j, M_X] == x and s.m[b, v, j, M_Y] == y:
                return False
    return True


@njit(cache=True)
def _to_foot(st, s, b, u, i, x, y):
    """§11.3, §13 Q26: the fallen model is placed at the foot of the drop (the jump's landing cell) if it is free."""
    if (s.m[b, u, i, M_X] == x and s.m[b, u, i, M_Y] == y) or not _free(st, s, b, x, y):
        return
    s.m[b, u, i, M_X] = x
    s.m[b, u, i, M_Y] = y
    s.m[b, u, i, M_Z] = st.height[y, x]


@njit(cache=True)
def resolve_jumps(st, s, b, u, sc, n):
    """After a move: every planned row whose path jumped rolls for each jump; the first failure makes it fall
    there. Returns True if a model fell (the activation ends)."""
    if (s.g[b, G_OPTS] & OPT_HEIGHTS) == 0:
        return False
    h, w = st.flags.shape
    hw = h * w
    fell = False
    for r in range(n):
        k = jumps_on_path(st, s, b, sc.par[r], sc.pn[r], hw, sc.drops)
        i = sc.order[r]
        for j in range(k - 1, -1, -1):  # the path is read backwards: the first jump is the last found
            dist = sc.drops[j] // 65536 // 256
            drop = sc.drops[j] // 65536 % 256
            land = sc.drops[j] % 65536
            ok = jump_roll(s, b, u, dist)
            emit(s, b, E_JUMP, u, -1, i, dist // 3 + 1, 1 if ok else 0, dist, drop)
            if not ok:
                fell = True
                _to_foot(st, s, b, u, i, land % w, land // w)
                fall(st, s, b, u, i, drop)
                break
    return fell


@njit(cache=True)
def push_model(st, s, b, u, i, x, y):
    """§11.1: move model i of unit u to (x, y) within 2"; a push off 2" or more is a fall. False if the cell is not
    a legal place (off the board, impassable, occupied, farther than 2")."""
    ox = np.int64(s.m[b, u, i, M_X])
    oy = np.int64(s.m[b, u, i, M_Y])
    if (x - ox) * (x - ox) + (y - oy) * (y - oy) > 9 or not _free(st, s, b, x, y):
        return False
    z0 = np.int64(s.m[b, u, i, M_Z])
    s.m[b, u, i, M_X] = x
    s.m[b, u, i, M_Y] = y
    s.m[b, u, i, M_Z] = st.height[y, x]
    if s.g[b, G_OPTS] & OPT_HEIGHTS:
        fall(st, s, b, u, i, z0 - np.int64(st.height[y, x]))
    return True
