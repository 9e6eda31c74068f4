"""Per-game dice: a PCG32 generator stored in the state, or a scripted sequence.

DESIGN.md section 3. Every random number of a game comes from ``roll_d6``
(all Necromunda dice are D6-based: D3, 2D6, Firepower, Injury and Scatter
dice are tables over a D6 roll), so a scripted test lists plain D6 faces.

State layout (per game ``b``):
  rng[b, 0]  PCG32 state, rng[b, 1] PCG32 increment (odd)
  script[b, :]  scripted faces; ``spos[b, 0]`` next index, ``spos[b, 1]``
  script length, or -1 when the game uses its generator.
"""
import numpy as np
from .jit import njit

PCG_MULT = np.uint64(6364136223846793005)
PCG_DEFAULT_INC = np.uint64(1442695040888963407)


@njit(cache=True)
def pcg32_next(rng, b):
    old = rng[b, 0]
    rng[b, 0] = old * PCG_MULT + rng[b, 1]
    xorshifted = np.uint32(((old >> np.uint64(18)) ^ old) >> np.uint64(27))
    rot = np.uint32(old >> np.uint64(59))
    return np.uint32((xorshifted >> rot) | (xorshifted << ((np.uint32(32) - rot) & np.uint32(31))))


@njit(cache=True)
def seed_game(rng, b, seed):
    """Seed game b with a 64-bit seed (PCG32's reference seeding)."""
    s = np.uint64(seed)
    rng[b, 0] = np.uint64(0)
    rng[b, 1] = (s << np.uint64(1)) | np.uint64(1)
    pcg32_next(rng, b)
    rng[b, 0] = rng[b, 0] + (s ^ np.uint64(0x9E3779B97F4A7C15))
    pcg32_next(rng, b)


@njit(cache=True)
def rand_below(rng, b, n):
    """Uniform integer in [0, n) by multiply-shift (bias < 2**-29 for n <= 8)."""
    x = np.uint64(pcg32_next(rng, b))
    return np.int64((x * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def roll_d6(rng, script, spos, b):
    if spos[b, 1] >= 0:
        i = spos[b, 0]
        if i >= spos[b, 1]:
            raise RuntimeError("scripted dice ran out: the scenario needs more dice than were scripted")
        spos[b, 0] = i + 1
        v = script[b, i]
        if v < 1 or v > 6:
            raise RuntimeError("scripted die face outside 1..6")
        return np.int64(v)
    return rand_below(rng, b, 6) + 1

