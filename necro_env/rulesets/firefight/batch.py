"""Firefight's batched core: compiled kernels over B games at once (``prange``), as necro_env/batch/kernels.py is
for Necromunda (2026-12-02).

Every game ``b`` shares the board's static tables ``st``, the codec ``lay`` and the start template ``tmpl``
(``Game.template()``) and owns:

- its rules state ``s[b]`` with its own dice generator (``s.rng[b]``);
- ``eseed[b]``: the slot's episode-seed stream (splitmix64): the k-th game of slot b depends on (first seed of b,
  k) only, never on the batch size, the thread count or the other slots;
- ``prng[b]``: the players' PCG32 (the random player's choices, the scripts' draws among equal scores), never the
  dice.

The players are random unless ``players`` names Firefight's scripts (policies.py, compiled into a kernel of their
own, ``play_all_scripted``, so that random play compiles and runs without them): ``players=("holder", "random")``
plays HOLDER as side 0 against random legal play, every game in the kernel. Their games follow the scripts' rules
but not, game for game, those of ``agents.play_match`` (there each player has its own generator).

Auto-reset: a finished game is replaced at once by the template with the slot's next seed, exactly what
``Game.reset(seed)`` does for one game. The movement scratch is per thread (``Scratch`` arrays stacked on a leading
axis): thread t plays a block of neighbouring slots, t * P ... (t + 1) * P - 1 with P = ceil(B / T), in order (its
writes to the players' generators, results and counts, a few bytes a slot, would otherwise share cache lines with
the other threads' at every decision); a slot's games never depend on how slots are spread.

    bg = BatchedFirefight(GameConfig(), batch_size=64, seed=1)
    bg.play(decisions=100)   # random legal play with masks, inside the kernel
"""
from __future__ import annotations

import numpy as np
from numba import prange

from ...core.jit import njit
from ...core.rng import rand_below, seed_game
from .engine import begin, step
from .grid import Scratch, new_scratch
from .policies import STYLE_CHARGER, STYLE_HOLDER, scripted_action
from .combat_events import E_BLAST, E_MORALE, E_WOUNDS, MO_ROUTED
from .events import E_AFTERMATH, E_CHARGE, E_FALL, E_JUMP, E_OBJ_CONTROL, E_PUSH, E_STRIKE_BACK
from .state import EV_A, EV_C, EV_D, EV_E, EV_KIND, G_DONE, G_DPLAYER, G_EVN, G_WINNER, alloc_state

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MASK64 = (1 << 64) - 1
N_KINDS = 128  # event kinds counted per slot (engine 1-63, combat 64 and up; 84-127 unused by the engine)
# counts of events with a given outcome, in columns no event kind uses (the soak's table, benchmarks/ff_random_games)
C_STRUCK = 127  # E_STRIKE_BACK with a = 1: the defender struck back
C_DEADLY = 126  # E_WOUNDS with c = 1: Deadly multiplied the wounds
C_ROUTED = 125  # E_MORALE with e = MO_ROUTED
C_SEIZED = 124  # E_OBJ_CONTROL with units of one side only near the marker: that side seized or holds it
C_PUSHED = 123  # E_PUSH with a destination (not declined)
# (label, column of BatchedFirefight.counts) of the soak's table (benchmarks/ff_random_games.py)
SOAK_COUNTS = (("charges", E_CHARGE), ("melee rounds", E_AFTERMATH), ("strike-backs", C_STRUCK),
               ("morale tests", E_MORALE), ("routs", C_ROUTED), ("objectives seized", C_SEIZED), ("Blast hits", E_BLAST),
               ("Deadly hits", C_DEADLY), ("jumps", E_JUMP), ("falls", E_FALL), ("pushes", C_PUSHED))
# per-slot results: games finished, side 0 won, side 1 won, draws, decisions
R_GAMES, R_WIN0, R_WIN1, R_DRAW, R_DECISIONS = range(5)
# the players a batch can hold (code of each side in BatchedFirefight.players): the random player, the scripts
PLAYERS = {"random": -1, "holder": STYLE_HOLDER, "charger": STYLE_CHARGER}


@njit(cache=True)
def splitmix64(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def splitmix64_py(z: int) -> int:
    """Python twin of ``splitmix64`` (for the first player seeds)."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


@njit(cache=True)
def next_seed(eseed, b):
    """The slot's next episode seed (the first one is the slot's seed itself)."""
    s = eseed[b]
    eseed[b] = splitmix64(s + GOLDEN)
    return s


@njit(cache=True)
def scratch_of(stack, t):
    """Thread t's movement scratch out of the stacked arrays (views, nothing copied)."""
    return Scratch(stack.dist[t], stack.par[t], stack.dng[t], stack.occ[t], stack.near[t], stack.taken[t],
                   stack.far[t], stack.heap[t], stack.px[t], stack.py[t], stack.pc[t], stack.pn[t], stack.order[t],
                   stack.drops[t], stack.bhead[t], stack.blocked[t], stack.free[t], stack.box[t],
                   stack.memo[t], stack.memo_u[t], stack.memo_m[t])


@njit(cache=True)
def reset_game(s, st, b, lay, mask, tmpl, sc, seed):
    """Game b from the template with dice seed ``seed``, run to its first decision (``Game.reset``)."""
    s.g[b] = tmpl.g[0]
    s.u[b] = tmpl.u[0]
    s.m[b] = tmpl.m[0]
    s.w[b] = tmpl.w[0]
    s.obj[b] = tmpl.obj[0]
    s.rng[b] = tmpl.rng[0]
    s.script[b] = tmpl.script[0]
    s.spos[b] = tmpl.spos[0]
    seed_game(s.rng, b, seed)
    begin(s, st, b, lay, mask, sc)


@njit(cache=True)
def random_legal(mask, b, prng):
    """A uniformly drawn legal index of game b (the mask is exact, so it can always be played)."""
    row = mask[b]
    n = 0
    for k in range(row.shape[0]):
        if row[k]:
            n += 1
    pick = rand_below(prng, b, n)
    for k in range(row.shape[0]):
        if row[k]:
            if pick == 0:
                return k
            pick -= 1
    return -1


@njit(cache=True)
def count_events(s, b, counts):
    """Count the last step's events of game b by kind, and the outcomes of the C_* columns."""
    for k in range(s.g[b, G_EVN]):
        e = s.ev[b, k]
        kind = e[EV_KIND]
        if 0 <= kind < counts.shape[1]:
            counts[b, kind] += 1
        if kind == E_STRIKE_BACK and e[EV_A] == 1:
            counts[b, C_STRUCK] += 1
        elif kind == E_WOUNDS and e[EV_C] == 1:
            counts[b, C_DEADLY] += 1
        elif kind == E_MORALE and e[EV_E] == MO_ROUTED:
            counts[b, C_ROUTED] += 1
        elif kind == E_OBJ_CONTROL and (e[EV_C] > 0) != (e[EV_D] > 0):
            counts[b, C_SEIZED] += 1
        elif kind == E_PUSH and e[EV_C] >= 0:
            counts[b, C_PUSHED] += 1


@njit(cache=True)
def settle(s, b, results):
    """Record game b's outcome into its results row."""
    results[b, R_GAMES] += 1
    wnr = s.g[b, G_WINNER]
    results[b, R_WIN0 if wnr == 0 else (R_WIN1 if wnr == 1 else R_DRAW)] += 1


@njit(cache=True)
def play_slot(s, st, b, lay, mask, tmpl, sc, eseed, prng, n, max_games, counts, results):
    """n random legal decisions in game b (fewer once it has finished ``max_games`` games, if >= 0); a finished
    game is settled and replaced by the slot's next one."""
    for _ in range(n):
        if max_games >= 0 and results[b, R_GAMES] >= max_games:
            return
        if not play_one(s, st, b, lay, random_legal(mask, b, prng), mask, tmpl, sc, eseed, max_games, counts,
                        results):
            return


@njit(cache=True)
def play_one(s, st, b, lay, a, mask, tmpl, sc, eseed, max_games, counts, results):
    """Step game b with index a, count, and settle and replace a finished game; False once the slot is done."""
    step(s, st, b, lay, a, mask, sc)
    results[b, R_DECISIONS] += 1
    count_events(s, b, counts)
    if s.g[b, G_DONE]:
        settle(s, b, results)
        if max_games >= 0 and results[b, R_GAMES] >= max_games:
            return False
        reset_game(s, st, b, lay, mask, tmpl, sc, next_seed(eseed, b))
        count_events(s, b, counts)
    return True


@njit(cache=True)
def play_slot_scripted(s, st, b, lay, mask, tmpl, sc, eseed, prng, n, max_games, counts, results, players):
    """``play_slot`` with each side's player from ``players`` (PLAYERS codes: -1 random, else a script's style)."""
    for _ in range(n):
        if max_games >= 0 and results[b, R_GAMES] >= max_games:
            return
        style = players[s.g[b, G_DPLAYER]]
        a = random_legal(mask, b, prng) if style < 0 else scripted_action(s, st, b, lay, mask, prng, style)
        if not play_one(s, st, b, lay, a, mask, tmpl, sc, eseed, max_games, counts, results):
            return


@njit(cache=True, parallel=True)
def reset_all(s, st, lay, mask, tmpl, stack, eseed):
    """Start every slot's first game (its first seed)."""
    nt = stack.dist.shape[0]
    bsz = s.g.shape[0]
    per = (bsz + nt - 1) // nt  # a thread's slots are neighbours: rows it writes share no cache line with another's
    for t in prange(nt):
        sc = scratch_of(stack, t)
        for b in range(t * per, min(bsz, (t + 1) * per)):
            reset_game(s, st, b, lay, mask, tmpl, sc, next_seed(eseed, b))


@njit(cache=True, parallel=True)
def play_all_scripted(s, st, lay, mask, tmpl, stack, eseed, prng, n, max_games, counts, results, players):
    """``play_all`` with the players of ``players`` (``play_slot_scripted``)."""
    nt = stack.dist.shape[0]
    bsz = s.g.shape[0]
    per = (bsz + nt - 1) // nt  # a thread's slots are neighbours: rows it writes share no cache line with another's
    for t in prange(nt):
        sc = scratch_of(stack, t)
        for b in range(t * per, min(bsz, (t + 1) * per)):
            play_slot_scripted(s, st, b, lay, mask, tmpl, sc, eseed, prng, n, max_games, counts, results, players)


@njit(cache=True, parallel=True)
def play_all(s, st, lay, mask, tmpl, stack, eseed, prng, n, max_games, counts, results):
    """``play_slot`` for every slot, the slots spread over the scratch stack's threads (module docstring)."""
    nt = stack.dist.shape[0]
    bsz = s.g.shape[0]
    per = (bsz + nt - 1) // nt  # a thread's slots are neighbours: rows it writes share no cache line with another's
    for t in prange(nt):
        sc = scratch_of(stack, t)
        for b in range(t * per, min(bsz, (t + 1) * per)):
            play_slot(s, st, b, lay, mask, tmpl, sc, eseed, prng, n, max_games, counts, results)


def stacked_scratch(n, hw, max_models, max_units) -> Scratch:
    """n movement scratches (one per thread) as arrays with a leading axis."""
    one = new_scratch(hw, max_models, max_units)
    return Scratch(*(np.stack([a] * n) for a in one))  # each thread's copy starts as new_scratch's


class BatchedFirefight:
    """B Firefight games of one config (board and lists) stepped by compiled kernels; ``threads`` scratches
    (default: numba's thread count) share the slots. The same ``seed`` plays the same games in slot b at any batch
    size and thread count."""

    def __init__(self, config, batch_size: int, seed: int = 0, threads: int | None = None,
                 players=("random", "random")):
        import numba

        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size={batch_size!r}; allowed: a whole number >= 1")
        threads = numba.get_num_threads() if threads is None else threads
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads={threads!r}; allowed: a whole number >= 1")
        players = tuple(players) if isinstance(players, (tuple, list)) else players
        if not isinstance(players, tuple) or len(players) != 2 or any(p not in PLAYERS for p in players):
            raise ValueError(f"players={players!r}; allowed: two of {', '.join(PLAYERS)} (side 0's, side 1's)")
        self.players = np.array([PLAYERS[p] for p in players], np.int64)
        self.game = config.build()
        g = self.game
        self.batch_size = batch_size
        self.state = alloc_state(batch_size, g.max_units, g.max_models, g.max_weapons)
        self.mask = np.zeros((batch_size, g.n_actions), np.bool_)
        self.stack = stacked_scratch(min(threads, batch_size), g.board.height * g.board.width, g.max_models,
                                     g.max_units)
        self.template = g.template()
        self.eseed = np.array([(seed + b) & MASK64 for b in range(batch_size)], np.uint64)
        self.prng = np.zeros((batch_size, 2), np.uint64)
        for b in range(batch_size):
            seed_game(self.prng, b, np.uint64(splitmix64_py(seed + b + 0x5EED)))
        self.counts = np.zeros((batch_size, N_KINDS), np.int64)
        self.results = np.zeros((batch_size, 5), np.int64)
        reset_all(self.state, g.static, g.layout, self.mask, self.template, self.stack, self.eseed)
        for b in range(batch_size):  # the set-up's events count too
            count_events(self.state, b, self.counts)

    def play(self, decisions: int, max_games: int = -1):
        """``decisions`` decisions of the players in every slot (a slot stops after ``max_games`` games if >= 0)."""
        g = self.game
        args = (self.state, g.static, g.layout, self.mask, self.template, self.stack, self.eseed, self.prng,
                int(decisions), int(max_games), self.counts, self.results)
        if (self.players < 0).all():
            play_all(*args)
        else:
            play_all_scripted(*args, self.players)
        return self

    @property
    def decisions(self) -> int:
        return int(self.results[:, R_DECISIONS].sum())

    def state_bytes(self) -> int:
        """Bytes of one game's state (its rows of every state array)."""
        return sum(a.nbytes for a in self.state) // self.batch_size

