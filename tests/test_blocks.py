"""Block sums and held-type masks of card counts (``unosim/game/kernels/blocks.py``) and the draw that
skips by them (``piles.nth_card``), against NumPy."""

from __future__ import annotations

import numpy as np
from numba import njit

from unosim.game.kernels.blocks import colour_totals, held_in
from unosim.game.kernels.piles import nth_card


@njit(cache=False)
def _totals(counts, a, b):  # pragma: no cover - compiled
    return colour_totals(counts, a, b)


@njit(cache=False)
def _held(counts, a, b, colour):  # pragma: no cover - compiled
    return held_in(counts, a, b, colour)


@njit(cache=False)
def _every_card(counts, a, b):  # pragma: no cover - compiled
    total = 0
    for t in range(counts.shape[2]):
        total += counts[a, b, t]
    out = np.empty(total, np.int64)
    for x in range(total):
        out[x] = nth_card(counts, a, b, x)
    return out


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


def test_held_in_marks_exactly_the_held_types_of_a_colour_and_the_wilds() -> None:
    """The compiled policies' candidate mask (``policy.pick_card``, ``rule_policy.legal_bits``): bit ``t``
    is set exactly where type ``t`` has a count above 0 and is in colour ``c``'s block or a wild; no
    colour block for ``c = -1``. Sparse hands, full rows and counts up to the int8 maximum of 127
    (500 random rows each, seed 3)."""
    rng = np.random.default_rng(3)
    for high, density in ((128, 0.1), (128, 1.0), (3, 0.5)):
        for _ in range(500):
            counts = (rng.integers(1, high, size=(2, 3, 60)) * (rng.random((2, 3, 60)) < density)).astype(np.int8)
            a, b = int(rng.integers(2)), int(rng.integers(3))
            for c in range(-1, 4):
                types = [t for t in range(56, 60)] + ([14 * c + k for k in range(14)] if c >= 0 else [])
                expected = sum(1 << t for t in types if counts[a, b, t] > 0)
                assert _held(counts, a, b, c) == expected


def test_nth_card_is_the_plain_scan_of_the_row() -> None:
    """T-3 draws: card ``x`` found by skipping whole colour blocks and taking prefix sums in one is the
    ``x``-th card of the row in type order (NumPy's repeat of the counts), for every ``x``; rows with
    empty colours, empty wilds, blocks of exactly 127 and of more than 127 cards included (600 random rows, seed 2)."""
    rng = np.random.default_rng(2)
    for i in range(600):
        # counts up to 3, and (every sixth row) up to 40: blocks of more than 127 cards take the plain scan
        counts = rng.integers(0, 41 if i % 6 == 5 else 4, size=(2, 3, 60)).astype(np.int8)
        counts[1, 2, 14 * (i % 4): 14 * (i % 4) + 14] = 0  # one colour absent
        if i % 6 == 4:  # a block of exactly 127 cards, the most prefix sums take
            counts[1, 2, 14:28] = np.bincount(rng.integers(0, rng.integers(1, 15), 127), minlength=14)
        if i % 5 == 0:
            counts[1, 2, 56:] = 0  # no wilds
        row = counts[1, 2].astype(np.int64)
        assert np.array_equal(_every_card(counts, 1, 2), np.repeat(np.arange(60), row))
