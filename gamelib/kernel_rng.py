"""The random numbers of gamelib's compiled cores, shared by every game's kernel.

* **SplitMix64 streams** (:func:`rng_next`, :func:`rng_below`): a stream is one ``uint64`` in an
  array the caller holds, so a kernel has no global random state and a game's streams follow
  from its seed alone.
* **Per-game seeds** (:func:`seeds_for`): numpy's ``SeedSequence`` arithmetic compiled, equal to
  :func:`gamelib.core.game_seeds` (a test checks both give the same numbers).

Every compiled module imports this one, and each ends with :func:`gamelib.jit_cache.guard`,
which flushes its cache when a file it depends on (this one included) has changed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from gamelib.core import game_seeds
from gamelib.jit_cache import guard, njit_borrowing

IntArray = npt.NDArray[np.int64]

# --- SplitMix64 streams --------------------------------------------------------------------------


@njit_borrowing
def rng_next(rs: Any, i: int) -> Any:
    """SplitMix64: the next 64 random bits of stream ``rs[i]`` (uint64 arithmetic wraps)."""
    z = rs[i] + np.uint64(0x9E3779B97F4A7C15)
    rs[i] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit_borrowing
def rng_below(rs: Any, i: int, n: int) -> int:
    """A uniform int in ``[0, n)`` from stream ``rs[i]``, unbiased (rejection on 31 bits)."""
    span = np.int64(1) << 31
    limit = span - span % n
    while True:
        x = np.int64(rng_next(rs, i) >> np.uint64(33))
        if x < limit:
            return int(x % n)


@njit(cache=True)
def streams(seed: int, n: int) -> Any:
    """A game's ``n`` streams: stream ``k`` starts at the ``k``-th SplitMix64 output of its seed
    (0 is chance, ``1 + seat`` a seat's; ``gamelib.core.game_rngs`` derives the same in Python)."""
    root = np.empty(1, np.uint64)
    root[0] = np.uint64(seed)
    rs = np.empty(n, np.uint64)
    for k in range(n):
        rs[k] = rng_next(root, 0)
    return rs


# --- per-game seeds ---------------------------------------------------------------------------
# gamelib.core.game_seeds costs ~10 µs a game in Python (a SeedSequence each), a third of a
# small game's kernel time; this is numpy's SeedSequence arithmetic compiled, for the case
# game_seeds meets in practice (0 <= seed < 2**64, game numbers < 2**32). A test checks both
# give the same numbers.
_M32 = np.uint64(0xFFFFFFFF)
_INIT_A, _MULT_A = np.uint64(0x43B0D7E5), np.uint64(0x931E8875)
_INIT_B, _MULT_B = np.uint64(0x8B51F9DD), np.uint64(0x58F38DED)
_MIX_L, _MIX_R = np.uint64(0xCA01F9DD), np.uint64(0x4973F715)
_SHIFT16 = np.uint64(16)


@njit(cache=True)
def _hashmix(value: Any, hc: Any) -> Any:
    """SeedSequence's hashmix on 32-bit words held in uint64 (``hc[0]`` is the hash constant)."""
    value = (value ^ hc[0]) & _M32
    hc[0] = (hc[0] * _MULT_A) & _M32
    value = (value * hc[0]) & _M32
    return (value ^ (value >> _SHIFT16)) & _M32


@njit(cache=True)
def _seed_words(seed_lo: int, seed_hi: int, start: int, n: int) -> Any:
    """``gamelib.core.game_seeds`` for a seed ``seed_hi·2**32 + seed_lo`` below 2**64."""
    out = np.empty(n, np.int64)
    entropy = np.zeros(5, np.uint64)  # the seed's words, zeros up to the pool size, spawn key
    entropy[0] = np.uint64(seed_lo)
    entropy[1] = np.uint64(seed_hi)
    mixer = np.empty(4, np.uint64)
    hc = np.empty(1, np.uint64)
    for g in range(n):
        entropy[4] = np.uint64(start + g)
        hc[0] = _INIT_A
        for i in range(4):
            mixer[i] = _hashmix(entropy[i], hc)
        for i_src in range(4):
            for i_dst in range(4):
                if i_src != i_dst:
                    h = _hashmix(mixer[i_src], hc)
                    m = (_MIX_L * mixer[i_dst] - _MIX_R * h) & _M32
                    mixer[i_dst] = (m ^ (m >> _SHIFT16)) & _M32
        for i_dst in range(4):
            h = _hashmix(entropy[4], hc)
            m = (_MIX_L * mixer[i_dst] - _MIX_R * h) & _M32
            mixer[i_dst] = (m ^ (m >> _SHIFT16)) & _M32
        word = np.empty(2, np.uint64)
        b = _INIT_B
        for k in range(2):  # generate_state(1, uint64): two 32-bit words, low first
            v = mixer[k] ^ b
            b = (b * _MULT_B) & _M32
            v = (v * b) & _M32
            word[k] = (v ^ (v >> _SHIFT16)) & _M32
        out[g] = np.int64((word[0] | (word[1] << np.uint64(32))) >> np.uint64(1))
    return out


def seeds_for(seed: int, n_games: int, start: int = 0) -> IntArray:
    """The per-game seeds of a run, equal to ``gamelib.core.game_seeds`` (compiled when the
    seed is below 2**64, as every seed in this project is)."""
    if (
        isinstance(seed, int | np.integer)
        and 0 <= seed < 2**64
        and start >= 0
        and start + n_games < 2**32
    ):
        seed = int(seed)
        if seed < 2**32:  # one entropy word; the second stays zero (numpy's padding)
            return np.asarray(_seed_words(seed, 0, start, n_games))
        return np.asarray(_seed_words(seed & 0xFFFFFFFF, seed >> 32, start, n_games))
    return np.array(game_seeds(seed, n_games, start), dtype=np.int64)


# the cache of this module's jitted functions is emptied when a file they depend on changed
# (numba watches only this file): gamelib/jit_cache.py
guard(globals())
