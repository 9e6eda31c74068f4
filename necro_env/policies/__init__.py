"""Compiled decision policies over the Necromunda state (numba, leaf modules).

Every policy kernel has the same signature so batched code can dispatch on a policy id::

    policy(s, st, b, lay, mask, prng) -> int   # a legal flat action index for game b

``s`` is the ``State`` batch, ``st`` the ``Static`` tables, ``lay`` the codec layout,
``mask`` the ``[B, n_actions]`` boolean mask of legal actions, ``prng`` a ``[B, 2]``
uint64 PCG32 state that belongs to the *player*, never the game's dice generator (so a
policy's choices never shift the dice stream: paired evaluation relies on it).
Kernels are decorated with ``necro_env._numba_cache.leaf_njit``.
"""
