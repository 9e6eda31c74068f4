"""Calling a compiled engine function from Python without numba's per-call type dispatch.

numba's dispatcher types every argument on every call before it picks the machine code: about
0.16 us per array, so 4 us for a game's ``State`` and ``Static`` tuples (26 arrays) — as much as
the engine's own work for a decision. ``Pinned(fn)`` calls ``fn``'s compiled entry point
directly while the arguments are the *same objects* as when it last resolved the entry point
(scalars: the same Python types), which fixes their numba types: a tuple's arrays cannot be
swapped, and an array's dtype, rank and layout never change. Anything else goes through numba's
dispatcher once and pins the new arguments. ``fresh`` names argument positions where the caller
passes new arrays it allocated itself, always with the same dtype, rank and layout (output
buffers); there only the class is checked.

Used by the single-game hot paths (``Game.step``, ``batch.encode.encode_game``); the
batched kernels make one call per batch and do not need it. This module holds no compiled
code, so editing it does not invalidate the engine's compile cache (``_numba_cache``).
"""
from __future__ import annotations

import numpy as np


class Pinned:
    """``Pinned(dispatcher, fresh=())(*args)`` == ``dispatcher(*args)``, faster (module docstring).

    Up to ``MAX_PINS`` argument sets stay pinned at once, keyed by their first argument (a game's
    ``State``), so that several games stepped in turn (a ``DummyVecEnv`` of games, an evaluation's
    players) each keep theirs instead of re-pinning on every call; the oldest pin goes first."""

    MAX_PINS = 16
    __slots__ = ("dispatcher", "fresh", "pins")

    def __init__(self, dispatcher, fresh=()):
        self.dispatcher = dispatcher
        self.fresh = frozenset(fresh)
        # id(first argument) -> (the pinned arguments or their classes, the entry point): one value,
        # so that a thread never sees the arguments of one pin with the entry point of another.
        # A pin holds its arguments, so an id is not reused while its pin exists.
        self.pins = {}

    @property
    def pin(self):
        """The most recent pin (arguments, entry point), or None."""
        return next(reversed(self.pins.values()), None)

    @property
    def entry(self):
        pin = self.pin
        return None if pin is None else pin[1]

    def __call__(self, *args):
        pin = self.pins.get(id(args[0])) if args else None
        if pin is not None and len(args) == len(pin[0]):
            for a, o in zip(args, pin[0]):
                if a is not o and type(a) is not o:
                    break
            else:
                return pin[1](*args)
        return self._pin(args)

    def _pin(self, args):
        d = self.dispatcher
        if not hasattr(d, "overloads"):  # NUMBA_DISABLE_JIT: a plain Python function
            return d(*args)
        sig = tuple(d.typeof_pyval(a) for a in args)
        entry = getattr(d, "python_entry", d.compile)(sig)  # loads or compiles the overload numba's dispatch would pick
        pattern = tuple(type(a) if (i in self.fresh and type(a) is np.ndarray) or _scalar(a) else a
                        for i, a in enumerate(args))
        if args:
            pins = self.pins
            pins.pop(id(args[0]), None)  # re-inserted last: the newest
            while len(pins) >= self.MAX_PINS:
                try:
                    pins.pop(next(iter(pins)), None)
                except (RuntimeError, StopIteration):  # changed by another thread meanwhile
                    break
            pins[id(args[0])] = (pattern, entry)
        return entry(*args)


def _scalar(a) -> bool:
    return isinstance(a, (bool, int, float, np.bool_, np.integer, np.floating))
