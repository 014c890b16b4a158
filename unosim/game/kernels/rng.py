"""Counter-based random streams, one per game.

Every random number of game ``g`` is ``mix64(key_g + counter * GOLDEN)`` where
``key_g = mix64(run_key ^ mix64(g + 1))`` and ``counter`` is the game's own
draw counter (``slot[:, F_RNG]``). ``mix64`` is the splitmix64 finaliser. The
run key comes from the run seed through ``numpy.random.SeedSequence``. So a
game's course depends only on (run seed, game index) — never on the batch it
ran in — and a game can be replayed from its index. Strategies draw from a
separate stream per (game, seat) (``seat_ctr``), so the engine's card sequence
of a deal does not depend on how much randomness a strategy uses.
"""

import numpy as np
from numba import uint64

from .jit import leaf, rule
from .layout import F_RNG

__all__ = [
    "GOLDEN", "M1", "M2", "SEAT_SALT", "TWO_M53", "game_key", "mix64", "next_uniform", "rand_below", "run_key",
    "keyed_uniform", "seat_key", "seat_uniform", "stream_uniform",
]

GOLDEN = uint64(0x9E3779B97F4A7C15)
M1 = uint64(0xBF58476D1CE4E5B9)
M2 = uint64(0x94D049BB133111EB)
SEAT_SALT = uint64(0xD1B54A32D192ED03)
TWO_M53 = 1.0 / 9007199254740992.0


def run_key(seed: int) -> int:
    """64-bit run key of a run seed, through ``numpy.random.SeedSequence``."""
    return int(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0])


@leaf
def mix64(z):
    z = uint64(z)
    z = (z ^ (z >> uint64(30))) * M1
    z = (z ^ (z >> uint64(27))) * M2
    return z ^ (z >> uint64(31))


@leaf
def game_key(rkey, g):
    return mix64(uint64(rkey) ^ mix64(uint64(g) + uint64(1)))


@leaf
def stream_uniform(key, c):
    """Uniform number ``c`` in [0, 1) of the game stream keyed ``key``."""
    return float(mix64(key + uint64(c) * GOLDEN) >> uint64(11)) * TWO_M53


@leaf
def next_uniform(keys, slot, s):
    """Next uniform in [0, 1) of slot ``s``'s game stream."""
    c = slot[s, F_RNG]
    slot[s, F_RNG] = c + 1
    return stream_uniform(keys[s], c)


@leaf
def rand_below(keys, slot, s, n):
    """Uniform integer in [0, n) from slot ``s``'s game stream."""
    return int(next_uniform(keys, slot, s) * n)


@leaf
def seat_key(key, seat):
    """Key of the strategy stream of ``seat`` in the game whose key is ``key``."""
    return mix64(uint64(key) ^ (uint64(seat + 1) * SEAT_SALT))


@leaf
def keyed_uniform(key, seat_ctr, s, seat):
    """Next uniform of the strategy stream whose key is ``key`` and counter ``seat_ctr[s, seat]``."""
    c = seat_ctr[s, seat]
    seat_ctr[s, seat] = c + 1
    return stream_uniform(key, c)


@rule
def seat_uniform(keys, seat_ctr, s, seat):
    """Next uniform of the strategy stream of (game in slot ``s``, ``seat``)."""
    return keyed_uniform(seat_key(keys[s], seat), seat_ctr, s, seat)
