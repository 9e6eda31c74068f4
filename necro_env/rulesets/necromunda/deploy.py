"""Random deployment as a compiled kernel, shared by ``Game.reset`` and the batched auto-reset.

A game starts from a *template*: a batch-of-one ``State`` holding everything that does not
depend on the seed (fighters' profiles, weapons, doors, caskets; ``Game._clear`` +
``Game._put_fighter`` build it). ``reset_game`` copies the template into game ``b``, seeds
the game's own PCG32 with ``seed``, deploys each gang in its zone with that generator and
rolls the first Priority phase. Everything is a function of (template, static, seed), so a
seed gives the same game in the single env and at any position of any batch.

Deployment (rules §2, digest SUGGESTION; see docs/rules.md): gang g's fighters, slot order,
take distinct cells drawn uniformly from deployment zone g (cells with ``deploy == g``, row
by row) by a partial Fisher-Yates shuffle, each facing the board centre.
"""
import numpy as np
from ...core.jit import njit

from ...core.rng import rand_below, seed_game
from .engine import begin
from .movement import facing_towards
from .state import FI_FACING, FI_X, FI_Y, FI_Z, G_MF, G_NGANGS, GG_CREW


@njit(cache=True, inline="always")
def _round_half_even_half(n):
    """round(n / 2) with Python's round-half-to-even, for an integer n."""
    if n % 2 == 0:
        return n // 2
    lo = (n - 1) // 2
    return lo if lo % 2 == 0 else lo + 1


@njit(cache=True)
def copy_template(s, b, tmpl):
    """Overwrite game b of ``s`` with game 0 of the template state ``tmpl``."""
    s.g[b] = tmpl.g[0]
    s.gang[b] = tmpl.gang[0]
    s.fi[b] = tmpl.fi[0]
    s.wp[b] = tmpl.wp[0]
    s.door[b] = tmpl.door[0]
    s.casket[b] = tmpl.casket[0]
    s.queue[b] = tmpl.queue[0]
    s.rng[b] = tmpl.rng[0]
    s.script[b] = tmpl.script[0]
    s.spos[b] = tmpl.spos[0]
    s.ev[b] = tmpl.ev[0]


@njit(cache=True)
def deploy(s, st, b, seed):
    """Seed game b's generator and place every gang's fighters in its zone.

    Returns the first gang whose zone is too small for its crew, or -1 on success
    (``Game.reset`` checks zone sizes beforehand and raises a clear error).
    """
    seed_game(s.rng, b, np.uint64(seed))
    h, w = st.terrain.shape
    cells = np.empty(h * w, np.int32)
    mf = s.g[b, G_MF]
    for g in range(s.g[b, G_NGANGS]):
        n = 0
        for y in range(h):
            for x in range(w):
                if st.deploy[y, x] == g:
                    cells[n] = y * w + x
                    n += 1
        crew = s.gang[b, g, GG_CREW]
        if crew > n:
            return g
        for i in range(crew):
            j = i + rand_below(s.rng, b, n - i)
            c = cells[j]
            cells[j] = cells[i]
            cells[i] = c
            x = c % w
            y = c // w
            f = g * mf + i
            s.fi[b, f, FI_X] = x
            s.fi[b, f, FI_Y] = y
            s.fi[b, f, FI_Z] = st.height[y, x]  # floor height of the deployment cell (1.2 levels)
            s.fi[b, f, FI_FACING] = facing_towards(_round_half_even_half(w - 2 * x - 1),
                                                   _round_half_even_half(h - 2 * y - 1))
    return -1


@njit(cache=True)
def reset_game(s, st, b, lay, mask, tmpl, seed):
    """Template -> deployed game b at its first decision (mask row b written).
    Returns the number of legal actions, or -1 if a deployment zone is too small."""
    copy_template(s, b, tmpl)
    if deploy(s, st, b, seed) >= 0:
        return -1
    return begin(s, st, b, lay, mask)
