"""Compiled batch primitives for writing fast strategies.

Every function takes arrays whose first axis is the decision row and one
uniform per row from `unosim.Observation.random`, so results never depend
on the batch. Idioms that keep NumPy strategies fast: use these instead of
per-row Python loops; avoid fresh large temporaries; compute on ``obs.hand``
and ``obs.legal`` directly (they are read-only: ``.copy()`` an array before
changing it).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..game.cards import CARD_COLOUR, CARD_POINTS, N_TYPES
from ..game.kernels import blocks

_COLOUR = CARD_COLOUR.astype(np.int64)
_POINTS = CARD_POINTS.astype(np.int64)
for _table in (_COLOUR, _POINTS):
    _table.flags.writeable = False  # shared by every strategy of the process: never changed
del _table


def _writable(a: NDArray[Any]) -> NDArray[Any]:
    """``a``, or a copy where it is read-only: the compiled helpers keep the one signature they were
    compiled for (a read-only table, e.g. `CARD_SCORE_POINTS`, would compile another)."""
    return a if a.flags.writeable else a.copy()



@njit(cache=True)
def _sample_row(counts, mask, r, x):
    """Column where the masked running sum of row ``r`` first exceeds ``x``; -1 if it never does."""
    for t in range(counts.shape[1]):
        x -= np.int64(counts[r, t]) * np.int64(mask[r, t])
        if x < 0:
            return t
    return -1


@njit(cache=True)
def _masked_total(counts, mask, r):
    """The masked sum of row ``r``."""
    total = np.int64(0)
    for t in range(counts.shape[1]):
        total += np.int64(counts[r, t]) * np.int64(mask[r, t])
    return total


@njit(cache=True)
def _sample_counts(counts, mask, u, totals, words):
    """The columns `sample_counts` picks; ``words``: scan eight columns a step (`_word_scan`,
    for C-contiguous ``int8`` counts and ``bool`` masks of at least 8 columns), falling back to one
    column a step for a row with a count outside 0–15."""
    n = counts.shape[0]
    out = np.full(n, -1, np.int16)
    for r in range(n):
        total = np.int64(totals[r]) if totals.shape[0] else _masked_total(counts, mask, r)
        if total == 0:
            continue
        x = np.int64(u[r] * total)
        col = _word_scan(counts, mask, r, x) if words and x >= 0 else -2
        out[r] = _sample_row(counts, mask, r, x) if col == -2 else col
    return out


@njit(cache=True)
def _masked_word(counts, mask, r, t):
    """The masked counts of columns ``t .. t + 7`` of row ``r`` as the bytes of one word."""
    return blocks.eight_bytes(counts, r, t) & (blocks.nonzero_bytes(blocks.eight_bytes(mask, r, t)) * np.uint64(0xFF))


@njit(cache=True)
def _word_scan(counts, mask, r, x):
    """`_sample_row` eight columns per step (``x`` >= 0; at least 8 columns): a word of masked
    counts times ``ONES8`` holds their prefix sums, and the column sought is the number of them at
    most ``x`` (as ``blocks.block_nth``). -2 where a count outside 0–15 could carry out of a byte."""
    k = counts.shape[1]
    for t in range(0, k, 8):
        at = min(t, k - 8)  # the last word overlaps the one before: clear the bytes counted there
        w = _masked_word(counts, mask, r, at)
        if w & SMALL_COUNTS_OVER:
            return -2
        w = (w >> np.uint64(8 * (t - at))) << np.uint64(8 * (t - at))
        p = w * blocks.ONES8
        s = np.int64(p >> blocks.TOP_BYTE)
        if x < s:
            return at + blocks.bytes_at_most(p, x)
        x -= s
    return -1


_NO_TOTALS = np.zeros(0, np.int32)  # empty: nothing in it can change
SMALL_COUNTS_OVER = np.uint64(0xF0F0F0F0F0F0F0F0)
"""Bits of a word of eight counts that are set only where a count is outside 0–15."""


def sample_counts(
    counts: NDArray, mask: NDArray[np.bool_], u: NDArray[np.float64], totals: NDArray[np.integer] | None = None
) -> NDArray[np.int16]:
    """Pick a column with probability proportional to ``counts`` where ``mask``.

    With ``counts = obs.hand`` and ``mask = obs.legal`` this is a uniformly
    random playable *physical* card. ``totals`` (optional) is the masked sum
    of each row when already known, e.g. ``obs.n_legal``. Rows with nothing to
    pick give -1.
    """
    totals = _NO_TOTALS if totals is None else totals
    words = counts.dtype == np.int8 and mask.dtype == np.bool_ and counts.shape[1] >= 8
    return _sample_counts(counts, mask, u, totals, words and counts.flags.c_contiguous and mask.flags.c_contiguous)


@njit(cache=True)
def _sample_best(counts, mask, score, u):
    n, k = counts.shape
    out = np.full(n, -1, np.int16)
    for r in range(n):
        best = -1 << 60
        total = 0
        for t in range(k):
            if mask[r, t] and counts[r, t] > 0:
                if score[t] > best:
                    best = score[t]
                    total = counts[r, t]
                elif score[t] == best:
                    total += counts[r, t]
        if total == 0:
            continue
        x = int(u[r] * total)
        for t in range(k):
            if mask[r, t] and counts[r, t] > 0 and score[t] == best:
                x -= counts[r, t]
                if x < 0:
                    out[r] = t
                    break
    return out


def sample_best(counts: NDArray, mask: NDArray[np.bool_], score: NDArray, u: NDArray[np.float64]) -> NDArray[np.int16]:
    """Among masked columns held (``counts > 0``), pick one of highest ``score[col]``.

    Ties are broken in proportion to ``counts`` (physical cards). ``score`` is
    one value per card type, e.g. ``CARD_POINTS``. Rows with nothing give -1.
    """
    return _sample_best(counts, mask, _writable(np.asarray(score, np.int64)), u)


@njit(cache=True)
def _sample_best_of(counts, mask, tables, which, colour, colour_bonus, u):
    n, k = counts.shape
    out = np.full(n, -1, np.int16)
    for r in range(n):
        table = which[r]
        best = -1 << 60
        total = 0
        for t in range(k):
            if mask[r, t] and counts[r, t] > 0:
                v = tables[table, t]
                if colour[t] >= 0:
                    v += colour_bonus[r, colour[t]]
                if v > best:
                    best = v
                    total = counts[r, t]
                elif v == best:
                    total += counts[r, t]
        if total == 0:
            continue
        x = int(u[r] * total)
        for t in range(k):
            if mask[r, t] and counts[r, t] > 0:
                v = tables[table, t]
                if colour[t] >= 0:
                    v += colour_bonus[r, colour[t]]
                if v == best:
                    x -= counts[r, t]
                    if x < 0:
                        out[r] = t
                        break
    return out


def sample_best_of(
    counts: NDArray,
    mask: NDArray[np.bool_],
    tables: NDArray,
    which: NDArray[np.integer] | None,
    u: NDArray[np.float64],
    colour_bonus: NDArray | None = None,
) -> NDArray[np.int16]:
    """`sample_best` with a score per row: table ``tables[which[row]]`` plus a bonus per colour.

    Parameters
    ----------
    counts, mask, u
        As for `sample_best`.
    tables : array ``[k, N_TYPES]``
        Score tables (one row of scores per card type each).
    which : int array ``[n]`` or None
        The table of each decision row (None: table 0 for every row).
    colour_bonus : int array ``[n, 4]``, optional
        Added to the score of every coloured card of that colour in that row,
        e.g. ``100 * colour_counts(obs.hand)`` to prefer the colour held most.
    """
    tables = np.atleast_2d(np.asarray(tables, np.int64))
    n = counts.shape[0]
    which = np.zeros(n, np.int64) if which is None else np.asarray(which, np.int64)
    bonus = np.zeros((n, 4), np.int64) if colour_bonus is None else np.asarray(colour_bonus, np.int64)
    return _sample_best_of(counts, mask, _writable(tables), which, _writable(_COLOUR), bonus, u)


@njit(cache=True)
def _next_seats(seat, direction, alive):
    n, players = alive.shape
    out = np.empty(n, np.int64)
    for r in range(n):
        s = seat[r]
        for _ in range(players):
            s = (s + direction[r]) % players
            if alive[r, s]:
                break
        out[r] = s
    return out


def next_seats(seat: NDArray[np.integer], direction: NDArray[np.integer], alive: NDArray[np.bool_]) -> NDArray[np.int64]:
    """The next seat still in the match after ``seat`` in ``direction`` (``obs.seat``, ``obs.direction``, ``obs.alive``)."""
    return _next_seats(seat, direction, alive)


@njit(cache=True)
def _colour_counts(hand, colour):
    n, k = hand.shape
    out = np.zeros((n, 4), np.int32)
    for r in range(n):
        for t in range(k):
            c = colour[t]
            if c >= 0:
                out[r, c] += hand[r, t]
    return out


def colour_counts(hand: NDArray) -> NDArray[np.int32]:
    """Cards of each colour (columns red, yellow, green, blue) in each hand."""
    return _colour_counts(hand, _writable(_COLOUR))


@njit(cache=True)
def _argmax_ties(values, mask, u):
    n, m = values.shape
    out = np.full(n, -1, np.int16)
    for r in range(n):
        best = -1e300
        ties = 0
        for j in range(m):
            if mask[r, j]:
                v = values[r, j]
                if v > best:
                    best = v
                    ties = 1
                elif v == best:
                    ties += 1
        if ties == 0:
            continue
        x = int(u[r] * ties)
        for j in range(m):
            if mask[r, j] and values[r, j] == best:
                if x == 0:
                    out[r] = j
                    break
                x -= 1
    return out


def argmax_ties(values: NDArray, u: NDArray[np.float64], mask: NDArray[np.bool_] | None = None) -> NDArray[np.int16]:
    """Column of the row maximum, ties uniformly at random (-1 if none masked)."""
    values = np.asarray(values, np.float64)
    if mask is None:
        mask = np.ones(values.shape, np.bool_)
    return _argmax_ties(values, mask, u)


CARD_SCORE_POINTS = _POINTS
"""Points per card type as int64, for `sample_best`."""

__all__ = [
    "CARD_SCORE_POINTS", "N_TYPES", "argmax_ties", "colour_counts", "next_seats", "sample_best", "sample_best_of",
    "sample_counts",
]
