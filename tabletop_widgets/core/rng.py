"""Seeded randomness that is part of a game state.

A splitmix64 generator written out here (not :mod:`random`) so that the same seed gives the
same shuffles on every machine and every Python version: a replay is a seed plus actions.
The generator is an immutable value; drawing returns the result and the next generator.
"""

from __future__ import annotations

import array
import secrets
import sys

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def check_seed(seed) -> int:
    """The seed as an int, or a ``ValueError`` saying what a seed must be."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an int, got {seed!r}")
    return seed


#: Bits of a seed drawn by :func:`fresh_seed`: every such seed is exact as a JSON number in
#: any reader (JavaScript's too), and 2**53 deals are far too many to try one by one.
FRESH_SEED_BITS = 53


def fresh_seed() -> int:
    """A seed from the operating system's randomness: a deal nobody can guess or replay
    without being told the seed."""
    return secrets.randbits(FRESH_SEED_BITS)


class Rng:
    """An immutable splitmix64 generator: ``value, rng = rng.below(6)``."""

    __slots__ = ("state",)

    def __init__(self, state: int):
        self.state = state & _MASK

    @classmethod
    def from_seed(cls, seed: int, stream: int = 0) -> "Rng":
        """The generator for ``seed``; ``stream`` separates independent uses of one seed."""
        check_seed(seed)
        return cls(_mix((seed & _MASK) ^ _mix((stream + 1) * _GOLDEN & _MASK)))

    def next64(self) -> tuple[int, "Rng"]:
        state = (self.state + _GOLDEN) & _MASK
        return _mix(state), Rng(state)

    def below(self, n: int) -> tuple[int, "Rng"]:
        """A uniform int in ``range(n)`` (rejection sampling, so no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        value, state = below_state(self.state, n)
        return value, Rng(state)

    def shuffled(self, items) -> tuple[list, "Rng"]:
        """A Fisher–Yates shuffle of ``items`` as a new list, and the next generator."""
        out, state = shuffled_state(self.state, items)
        return out, Rng(state)

    def choice(self, items):
        """One element of a non-empty sequence, and the next generator."""
        i, rng = self.below(len(items))
        return items[i], rng

    def __eq__(self, other):
        return isinstance(other, Rng) and other.state == self.state

    def __hash__(self):
        return hash(self.state)

    def __repr__(self):
        return f"Rng({self.state:#x})"


# The same draws on the bare 64-bit state, with the mixing written out: bots draw once per
# action and games shuffle on every deal, and a generator object and a call per draw were most
# of the cost of a random playout's choice. ``Rng`` is defined by these.
_SPAN = 1 << 64
# The rejection limit of a draw below n (the largest multiple of n within 64 bits), for the n
# of every deal and every legal-action list: two big-int operations a draw, worked out once.
_LIMITED = 512
_LIMITS = (0,) + tuple(_SPAN - _SPAN % n for n in range(1, _LIMITED))


def below_state(state: int, n: int) -> tuple[int, int]:
    """``Rng(state).below(n)`` as (value, next state); ``n`` > 0."""
    limit = _LIMITS[n] if n < _LIMITED else _SPAN - _SPAN % n
    while True:
        state = (state + _GOLDEN) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        z ^= z >> 31
        if z < limit:
            return z % n, state


# A shuffle's draws mixed all at once: the state after draw k is ``state + k * golden``, so the
# states of every draw are one big int with a 128-bit lane per draw (wide enough for a 64-bit
# value times a 64-bit constant), and each step of the mixing is one operation on it, masked
# back to 64 bits a lane. Per shuffle length (up to _LANES_UP_TO cards): a 1 in each lane, k
# times golden in lane k - 1, and the mask in each lane.
_LANES_UP_TO = 256
_LANES: dict = {}
_LANES_READ = array.array("Q").itemsize == 8  # a lane's low 64 bits read as one machine word
_BIG_ENDIAN = sys.byteorder == "big"


def _lanes(m: int) -> tuple[int, int, int]:
    lanes = _LANES.get(m)
    if lanes is None:
        ones = sum(1 << (128 * i) for i in range(m))
        lanes = _LANES[m] = (ones, sum((i + 1) << (128 * i) for i in range(m)) * _GOLDEN, ones * _MASK)
    return lanes


def shuffled_state(state: int, items) -> tuple[list, int]:
    """``Rng(state).shuffled(items)`` as (list, next state)."""
    out = list(items)
    m = len(out) - 1  # draws: one per card but the first
    if m < 4 or m > _LANES_UP_TO or not _LANES_READ:  # a handful of cards: quicker one by one
        return _shuffled_one_by_one(state, out)
    ones, steps, lane_mask = _lanes(m)
    state &= _MASK  # as each draw's state is: a lane's value must not spill into the next one
    z = (state * ones + steps) & lane_mask  # lane k - 1: the state of draw k
    z = ((z ^ (z >> 30)) & lane_mask) * 0xBF58476D1CE4E5B9 & lane_mask
    z = ((z ^ (z >> 27)) & lane_mask) * 0x94D049BB133111EB & lane_mask
    z = (z ^ (z >> 31)) & lane_mask
    words = array.array("Q", z.to_bytes(16 * m, "little"))
    if _BIG_ENDIAN:
        words.byteswap()
    limits = _LIMITS
    n = m + 1
    for z in words[::2]:  # draw k: below n = m + 2 - k, for the card at n - 1
        if z >= limits[n]:
            # rejected (a chance of at most n in 2**64): this card and the rest one by one,
            # from the state of this draw, as below_state draws again
            j, state = below_state((state + (m + 2 - n) * _GOLDEN) & _MASK, n)
            out[n - 1], out[j] = out[j], out[n - 1]
            for i in range(n - 2, 0, -1):
                j, state = below_state(state, i + 1)
                out[i], out[j] = out[j], out[i]
            return out, state
        j = z % n
        n -= 1
        out[n], out[j] = out[j], out[n]
    return out, (state + m * _GOLDEN) & _MASK


def _shuffled_one_by_one(state: int, out: list) -> tuple[list, int]:
    """:func:`shuffled_state` drawing one card at a time (a list too long for the lanes)."""
    if len(out) >= _LIMITED:
        return _shuffled_long(state, out)
    # below_state written out in the loop: a deal shuffles a hundred cards or more, and the call
    # per card was half the shuffle's cost
    mask, golden, limits = _MASK, _GOLDEN, _LIMITS
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        state = (state + golden) & mask
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        if z >= limits[n]:  # rejected (a chance of at most n in 2**64): draw again
            j, state = below_state(state, n)
        else:
            j = z % n
        out[i], out[j] = out[j], out[i]
    return out, state


def _shuffled_long(state: int, out: list) -> tuple[list, int]:
    for i in range(len(out) - 1, 0, -1):
        j, state = below_state(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return out, state
