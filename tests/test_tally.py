"""The counting helpers of the compiled policies (``unosim/kernels/tally.py``) against NumPy."""

from __future__ import annotations

import numpy as np
from numba import njit

from unosim.kernels.tally import colour_totals


@njit(cache=False)
def _totals(counts, a, b):  # pragma: no cover - compiled
    return colour_totals(counts, a, b)


def test_colour_totals_equal_the_sums_of_each_colour_block() -> None:
    """Word-at-a-time sums (two overlapping 8-byte loads per colour) equal NumPy's, for small counts
    and for every count up to the int8 maximum of 127 (1,000 random rows each, seed 1)."""
    rng = np.random.default_rng(1)
    for high in (5, 128):
        for _ in range(1000):
            counts = rng.integers(0, high, size=(3, 4, 60)).astype(np.int8)
            a, b = int(rng.integers(3)), int(rng.integers(4))
            expected = tuple(int(counts[a, b, 14 * c: 14 * c + 14].sum()) for c in range(4))
            assert _totals(counts, a, b) == expected
