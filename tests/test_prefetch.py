"""The software prefetch of the lockstep path (``unosim/game/kernels/prefetch.py``): it compiles to a
prefetch instruction and changes nothing a kernel computes."""

from __future__ import annotations

import numpy as np
from numba import njit

from unosim.game.kernels.prefetch import prefetch_slot


@njit(cache=False)
def _sum_ahead(slot, hands, piles, seats):  # pragma: no cover - compiled
    total = 0
    for s in range(slot.shape[0]):
        if s + 2 < slot.shape[0]:
            prefetch_slot(s + 2, slot, hands, piles, seats)
        total += slot[s, 0] + hands[s, 1, 5] + piles[s, 2, 7]
    return total


def test_prefetch_slot_emits_prefetches_and_leaves_results_alone() -> None:
    """Every line of a slot's rows is asked for (``prefetcht0`` in the machine code) and the loop's
    result equals NumPy's sum (random rows, seed 5)."""
    rng = np.random.default_rng(5)
    slot = rng.integers(0, 100, (50, 60)).astype(np.int32)
    hands = rng.integers(0, 5, (50, 4, 60)).astype(np.int8)
    piles = rng.integers(0, 5, (50, 3, 60)).astype(np.int8)
    seats = rng.integers(0, 3, (50, 4)).astype(np.int32)
    expected = int(slot[:, 0].sum() + hands[:, 1, 5].sum() + piles[:, 2, 7].sum())
    assert _sum_ahead(slot, hands, piles, seats) == expected
    asm = _sum_ahead.inspect_asm(_sum_ahead.signatures[0])
    assert "prefetch" in asm
