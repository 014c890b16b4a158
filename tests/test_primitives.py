"""The compiled batch primitives strategies build on (:mod:`unosim.strategy.primitives`).

``sample_counts`` has two implementations: a scan one column at a time (any dtype, any layout)
and, for C-contiguous ``int8`` counts with ``bool`` masks (``obs.hand``, ``obs.legal``), a scan
eight columns at a time. They must pick the same column for every input, including the inputs
the word scan hands back to the column scan (counts outside 0–15, negative counts, totals that
do not match the row, masks whose bytes are not 0 or 1).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from unosim.strategy.primitives import _NO_TOTALS, _sample_counts, sample_counts


@st.composite
def _batches(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    n = draw(st.integers(1, 12))
    k = draw(st.sampled_from([8, 9, 15, 16, 17, 54, 61]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    low = draw(st.sampled_from([0, 0, 0, -3]))
    high = draw(st.sampled_from([2, 4, 16, 17, 127]))
    counts = rng.integers(low, high, size=(n, k)).astype(np.int8)
    if draw(st.booleans()):
        mask = rng.random((n, k)) < draw(st.floats(0.0, 1.0))
    else:  # bool bytes other than 0 and 1 (a view of uint8): true where not 0
        mask = rng.integers(0, 256, size=(n, k)).astype(np.uint8).view(np.bool_)
    u = rng.random(n)
    totals = _NO_TOTALS
    if draw(st.booleans()):
        exact = (counts.astype(np.int64) * (mask.view(np.uint8) != 0)).sum(axis=1)
        totals = (exact + draw(st.sampled_from([0, 0, -1, 2]))).astype(np.int32)
    return counts, mask, u, totals


@settings(max_examples=400, deadline=None)
@given(_batches())
def test_the_word_scan_picks_what_the_column_scan_picks(batch) -> None:
    counts, mask, u, totals = batch
    expected = _sample_counts(counts, mask, u, totals, False)
    assert np.array_equal(_sample_counts(counts, mask, u, totals, True), expected)
    assert np.array_equal(sample_counts(counts, mask, u, None if totals is _NO_TOTALS else totals), expected)


def test_sample_counts_picks_each_physical_card_equally_often() -> None:
    """A hand with 1, 2 and 3 copies of three legal types (and an illegal one): over uniforms spread
    evenly over [0, 1), each copy is picked equally often, by either implementation."""
    counts = np.zeros((600, 54), np.int8)
    counts[:, [3, 20, 47, 53]] = [1, 2, 3, 5]
    mask = counts > 0
    mask[:, 53] = False
    u = (np.arange(600) + 0.5) / 600
    for picks in (sample_counts(counts, mask, u), sample_counts(counts.astype(np.int16), mask, u)):
        assert dict(zip(*np.unique(picks, return_counts=True))) == {3: 100, 20: 200, 47: 300}
