"""The value of each action card: how much one more card of a kind in a naturally dealt
opening hand, in place of a number card, changes the holder's chance of winning.

Estimand
--------
For a card kind ``k`` (Skip, Reverse, Draw Two, Wild, Wild Draw Four; party adds Point
Taken, Wild Pile Up and Wild Drawn Together) and a player count ``P``: the change in
the probability that a seat wins the game when its opening hand holds one more card
of kind ``k`` and one number card fewer, everything else dealt naturally (the other
hands and the pile vary as dealing makes them vary), in percentage points. A game
stopped at ``max_turns`` (E-5) is a game nobody won.

Estimator
---------
A linear probability regression over seats (one row per seat and game) of
``won`` on the seat's opening counts of every kind (the number cards are the
baseline, since hands have a fixed size) plus one dummy per seat offset from the
dealer (offset 1 = first to play), standard errors clustered by game
(`unosim.analysis.stats.ClusteredOLS`: the seats of a game are dependent,
exactly one of them wins). Four fits per (rules, players) cell:

* ``all seats``, linear: the slope per kind is the *value* (average over the
  hands dealt of one more card of the kind);
* ``all seats``, count dummies ``1[count >= 1]``, ``1[count >= 2]``,
  ``1[count >= 3]`` per kind: the first two are the *first-copy* value (0 -> 1
  card) and the *second-copy* value (1 -> 2 cards); ``copies differ`` flags the
  kinds where the difference of the two has a 95 % interval excluding zero;
* ``first player`` (offset 1 only, with an intercept): the same two fits.

The regression streams: every chunk file is read batch by batch with only the
columns ``players``, ``dealer``, ``winner`` and ``opening_hand``. A seat is
reduced to its opening-count *pattern* (one of the few thousand count vectors a
hand can have), its offset and whether it won. The first pass tallies
(pattern, offset, won) over all seats, which gives ``X'X`` and ``X'y`` of every
fit and the whole clustered meat of the first-player fits (one row per game);
the second pass sums each game's scores for the all-seats fits (the meat needs
the residuals). The per-seat patterns of a cell are kept in memory between the
passes when they fit in 1 GB (a cell of 2.5 M games at 16 players: about 700 MB),
otherwise the files are read again.

Placebo
-------
``placebo=True`` adds two number "kinds" of no value by symmetry under the
``random`` strategy: ``five`` (the 5s of every colour) and ``zero`` (the 0s, which
have fewer copies than the other numbers and so are analysed apart). Against the
other number cards (1-4, 6-9, exchangeable with 5 for a random player) the
``five`` value must be 0 within its interval.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from numpy.typing import NDArray
from scipy import sparse
from threadpoolctl import threadpool_limits

from ..game.cards import CARD_KIND, FACES_PER_COLOUR, KIND_NAMES, N_COLOURS, N_TYPES
from ..game.errors import UnosimInputError
from ..runs.files import expected_files, has_rounds, missing_files, read_metadata
from ..runs.reading import restore_hands
from .stats import ClusteredOLS, OLSResult, adjust_p_values, p_value

COLUMNS = ["players", "dealer", "winner", "opening_hand"]
"""The only columns the card-value estimate reads."""
SCOPES = ("all seats", "first player")
MAX_DUMMY = 3
"""Count dummies ``1[count >= c]`` for c = 1..MAX_DUMMY (the last one a control)."""
_BATCH_ROWS = 131_072


@dataclass(frozen=True)
class Kinds:
    """The columns of a card-value fit: which card types count for which kind, and every
    opening-count pattern a hand can have.

    Attributes
    ----------
    names : tuple of str
        Kind names (``KIND_NAMES`` without ``number``, plus placebo kinds).
    column : ndarray
        For each card type, its kind's position in ``names``, or ``len(names)``
        for the baseline (number cards).
    hand_size : int
        Cards in an opening hand.
    most : tuple of int
        Most cards of each kind a hand can hold (``hand_size`` or the copies in the deck).
    patterns : ndarray
        Every count vector (one column per kind) a hand can have, one row per pattern.
    """

    names: tuple[str, ...]
    column: NDArray[np.int64]
    hand_size: int
    most: tuple[int, ...]
    patterns: NDArray[np.int64]

    @classmethod
    def of(cls, names: Iterable[str], column: NDArray[np.int64] | None = None, *, hand_size: int = 7,
           most: Iterable[int] | None = None) -> Kinds:
        """Kinds ``names`` with the type-to-kind map ``column`` (default: every type a number card)."""
        names = tuple(names)
        K = len(names)
        column = np.full(N_TYPES, K, np.int64) if column is None else np.asarray(column, np.int64)
        most = tuple(min(hand_size, int(m)) for m in most) if most is not None else (hand_size,) * K
        patterns = {tuple(np.bincount(c, minlength=K + 1)[:K]) for c in
                    itertools.combinations_with_replacement(range(K + 1), hand_size)}
        rows = np.array(sorted(p for p in patterns if all(n <= m for n, m in zip(p, most))), np.int64).reshape(-1, K)
        return cls(names, column, hand_size, most, rows)

    @classmethod
    def of_deck(cls, counts: Iterable[int], *, placebo: bool = False, hand_size: int = 7, copies: int = 1) -> Kinds:
        """The action kinds present in ``copies`` decks of per-type ``counts`` (plus placebo kinds)."""
        counts = np.asarray(list(counts)) * copies
        present = [k for k in range(1, len(KIND_NAMES)) if counts[CARD_KIND == k].sum() > 0]
        names = [KIND_NAMES[k] for k in present]
        column = np.full(N_TYPES, -1, np.int64)
        for i, k in enumerate(present):
            column[CARD_KIND == k] = i
        if placebo:
            for face, name in ((5, "five"), (0, "zero")):
                column[[c * FACES_PER_COLOUR + face for c in range(N_COLOURS)]] = len(names)
                names.append(name)
        column[column < 0] = len(names)
        most = [int(counts[column == i].sum()) for i in range(len(names))]
        return cls.of(names, column, hand_size=hand_size, most=most)

    @functools.cached_property
    def _place(self) -> NDArray[np.int64]:
        """Place value of each kind's count in a hand's code (mixed radix ``most + 1``)."""
        return np.cumprod([1] + [m + 1 for m in self.most[:-1]]).astype(np.int64)

    @functools.cached_property
    def _table(self) -> tuple[NDArray[np.int64], NDArray[np.int64] | None]:
        """Codes of the patterns, and a dense code -> pattern table when it is small."""
        codes = self.patterns @ self._place
        size = int(np.prod([m + 1 for m in self.most]))
        if size > 1 << 23:
            return codes, None
        table = np.full(size, -1, np.int64)
        table[codes] = np.arange(len(codes))
        return codes, table

    def pattern_ids(self, counts: NDArray[np.integer]) -> NDArray[np.int64]:
        """Row of `patterns` of each count vector (rows of ``counts``)."""
        return self._lookup(np.asarray(counts, np.int64) @ self._place)

    def _lookup(self, code: NDArray[np.int64]) -> NDArray[np.int64]:
        codes, table = self._table
        if table is not None:
            found = table[np.minimum(code, len(table) - 1)]
            if (found < 0).any():
                raise ValueError(f"an opening hand holds more than hand_size = {self.hand_size} cards.")
            return found
        order = np.argsort(codes)
        pos = np.minimum(np.searchsorted(codes[order], code), len(codes) - 1)
        if (codes[order][pos] != code).any():
            raise ValueError(f"an opening hand holds more than hand_size = {self.hand_size} cards.")
        return order[pos]

    def card_weights(self) -> NDArray[np.int64]:
        """Per card type, its contribution to a hand's code (0 for number cards)."""
        return np.r_[self._place, 0][self.column]


@dataclass(frozen=True)
class SeatChunk:
    """A batch of games, one row per game and one column per seat: the opening-count
    pattern of each seat (row of ``Kinds.patterns``), its offset from the dealer
    (1 = first to play) and whether it won."""

    pattern: NDArray[np.int64]
    offset: NDArray[np.int64]
    won: NDArray[np.bool_]

    @property
    def nbytes(self) -> int:
        """Memory held (to decide whether to keep the chunk for the second pass)."""
        return self.pattern.nbytes + self.offset.nbytes + self.won.nbytes


def seat_chunk(table: pa.Table | pa.RecordBatch, kinds: Kinds) -> SeatChunk:
    """The seats of a batch of games (columns of `COLUMNS`, one player count)."""
    n = table.num_rows
    players = table.column("players").to_numpy().astype(np.int64)
    if n and (players != players[0]).any():
        raise ValueError("a card-value batch must hold games of one player count (one cell).")
    P = int(players[0]) if n else 0
    hands = table.column("opening_hand")
    if isinstance(hands, pa.ChunkedArray):
        hands = hands.combine_chunks()
    if (pc.list_value_length(hands).to_numpy(zero_copy_only=False) != P).any():
        raise ValueError("opening_hand must hold one hand per seat.")
    seat_lists = pc.list_flatten(hands)
    cards = pc.list_flatten(seat_lists).to_numpy(zero_copy_only=False)
    hand_len = pc.list_value_length(seat_lists).to_numpy(zero_copy_only=False)
    weights = kinds.card_weights()
    weight = weights.astype(np.int32)[cards] if weights.max(initial=0) < 1 << 27 else weights[cards]
    if n and (hand_len == hand_len[0]).all():
        code = weight.reshape(n * P, int(hand_len[0])).sum(axis=1, dtype=weight.dtype).astype(np.int64)
    else:
        code = np.bincount(np.repeat(np.arange(n * P), hand_len), weights=weight, minlength=n * P).astype(np.int64)
    seat = np.arange(P)[None, :]
    dealer = table.column("dealer").to_numpy().astype(np.int64)[:, None]
    offset = (seat - dealer) % max(P, 1)
    offset[offset == 0] = P
    winner = table.column("winner").to_numpy(zero_copy_only=False).astype(float)
    won = np.nan_to_num(winner, nan=-1).astype(np.int64)[:, None] == seat
    return SeatChunk(kinds._lookup(code).reshape(n, P), offset, won)


# ------------------------------------------------------------------ fits
def _kind_parts(kinds: Kinds) -> dict[str, NDArray[np.float64]]:
    """Per pattern, the kind columns of each model: counts (linear) and count dummies (copies)."""
    counts = kinds.patterns
    dummies = np.concatenate([(counts >= c) for c in range(1, MAX_DUMMY + 1)], axis=1)
    return {"linear": counts.astype(np.float64), "copies": dummies.astype(np.float64)}


def _names(kinds: Kinds, P: int) -> dict[tuple[str, str], list[str]]:
    seat = [f"offset_{o}" for o in range(1, P + 1)]
    copies = [f"{k}>={c}" for c in range(1, MAX_DUMMY + 1) for k in kinds.names]
    return {
        ("all seats", "linear"): list(kinds.names) + seat,
        ("all seats", "copies"): copies + seat,
        ("first player", "linear"): list(kinds.names) + ["const"],
        ("first player", "copies"): copies + ["const"],
    }


def fit_cell(chunks: Callable[[], Iterator[SeatChunk]], kinds: Kinds, players: int, *,
             memory: int = 1 << 30) -> dict[tuple[str, str], OLSResult]:
    """The four clustered fits of one cell (see `_fit_cell`), with BLAS on one thread:
    the products are small, and BLAS threads fighting over busy cores made them 10× slower."""
    with threadpool_limits(limits=1, user_api="blas"):
        return _fit_cell(chunks, kinds, players, memory=memory)


def _fit_cell(chunks: Callable[[], Iterator[SeatChunk]], kinds: Kinds, players: int, *,
              memory: int = 1 << 30) -> dict[tuple[str, str], OLSResult]:
    """The four clustered fits of one cell from a re-iterable source of seat chunks.

    First pass: a tally of (pattern, offset, won) over all seats gives ``X'X`` and
    ``X'y`` of every model, and the whole meat of the first-player models (one row
    per game, so one row per cluster). Second pass: per game, the sums of the
    scores of the all-seats models. The chunks of the first pass are kept for the
    second while they fit in ``memory`` bytes; otherwise ``chunks()`` is called again
    and must yield the same chunks.
    """
    P = players
    npat = len(kinds.patterns)
    parts = _kind_parts(kinds)
    fits = {key: ClusteredOLS(names) for key, names in _names(kinds, P).items()}
    tally = np.zeros(npat * P * 2, np.int64)
    kept: list[SeatChunk] | None = []
    held = 0
    for chunk in chunks():
        key = (chunk.pattern * P + chunk.offset - 1) * 2 + chunk.won
        tally += np.bincount(key.ravel(), minlength=len(tally))
        if kept is not None:
            held += chunk.nbytes
            kept = kept + [chunk] if held <= memory else None
    table = tally.reshape(npat, P, 2)
    pat, off, won = np.nonzero(table)
    weight = table[pat, off, won].astype(np.float64)
    y = won.astype(np.float64)
    seat = np.eye(P)[off]
    first = off == 0
    one = np.ones((int(first.sum()), 1))
    for model, Z in parts.items():
        fits[("all seats", model)].add_moments(np.hstack([Z[pat], seat]), y, weight)
        X1 = np.hstack([Z[pat[first]], one])
        fit1 = fits[("first player", model)]
        fit1.add_moments(X1, y[first], weight[first])
        fit1.solve()
        e = fit1.residuals(X1, y[first])
        fit1.add_scores(X1 * (np.sqrt(weight[first]) * e)[:, None], clusters=int(weight[first].sum()))
        fits[("all seats", model)].solve()
    for chunk in (kept if kept is not None else chunks()):
        n = len(chunk.pattern)
        rows = np.arange(0, n * P + 1, P)
        for model, Z in parts.items():
            fit = fits[("all seats", model)]
            assert fit.coef is not None, "a fitted model has coefficients"
            coef = np.nan_to_num(fit.coef)
            Kz = Z.shape[1]
            e = chunk.won - (Z @ coef[:Kz])[chunk.pattern] - coef[Kz:][chunk.offset - 1]
            # per game: sum over its seats of (kind columns of the seat's pattern) * residual
            by_pattern = sparse.csr_array((e.ravel(), chunk.pattern.ravel(), rows), shape=(n, npat))
            scores = np.empty((n, Kz + P))
            scores[:, :Kz] = by_pattern @ Z
            by_offset = np.empty((n, P))
            by_offset.reshape(-1)[(rows[:-1, None] + chunk.offset - 1).ravel()] = e.ravel()
            scores[:, Kz:] = by_offset
            fit.add_scores(scores)
    return {key: fit.result() for key, fit in fits.items()}


def value_table(fits: dict[tuple[str, str], OLSResult], kinds: Kinds, **labels: Any) -> pd.DataFrame:
    """Rows of values (percentage points) per scope and kind from the fits of `fit_cell`."""
    rows = []
    for scope in SCOPES:
        linear, copies = fits[(scope, "linear")], fits[(scope, "copies")]
        for kind in kinds.names:
            v, se, lo, hi = linear.estimate({kind: 1.0})
            f, _, flo, fhi = copies.estimate({f"{kind}>=1": 1.0})
            s, _, slo, shi = copies.estimate({f"{kind}>=2": 1.0})
            d, dse, dlo, dhi = copies.estimate({f"{kind}>=2": 1.0, f"{kind}>=1": -1.0})
            rows.append({
                **labels,
                "scope": scope,
                "kind": kind,
                "value": 100 * v, "low": 100 * lo, "high": 100 * hi, "se": 100 * se,
                "first_copy": 100 * f, "first_low": 100 * flo, "first_high": 100 * fhi,
                "second_copy": 100 * s, "second_low": 100 * slo, "second_high": 100 * shi,
                "copies_differ": bool(dlo > 0 or dhi < 0),
                "value_p": float(p_value(v, se)), "copies_p": float(p_value(d, dse)),
                "games": linear.clusters,
            })
    return pd.DataFrame(rows)


# ------------------------------------------------------------------ datasets
@dataclass(frozen=True)
class _Cell:
    rules: str
    players: int
    deck_counts: list[int]
    hand_size: int
    copies: int
    files: list[Path]


def _cells(path: Path) -> list[_Cell]:
    """The (rules, players) cells of a dataset of single rounds, with their chunk files."""
    meta = read_metadata(path)
    if has_rounds(meta):
        raise UnosimInputError(
            f"{path} holds matches; card values are estimated from single rounds (a dataset written "
            "without --match / match = true)."
        )
    missing = set(missing_files(path, meta))
    if missing:
        raise UnosimInputError(
            f"dataset {path} is incomplete ({len(missing)} chunk files missing); run the same command again to finish it."
        )
    names = expected_files(meta)
    if meta["kind"] == "run":
        config = meta["config"]
        return [_Cell(config["rules"]["name"], config["players"], meta["deck"]["counts"], config["rules"]["hand_size"],
                      config["rules"]["deck_copies"], [path / n for n in names])]
    per_cell = len(names) // len(meta["cells"])
    cells = []
    for i, cell in enumerate(meta["cells"]):
        files = [path / n for n in names[i * per_cell:(i + 1) * per_cell]]
        rules = cell["config"]["rules"]
        cells.append(_Cell(cell["rules"], cell["players"], cell["deck"]["counts"], rules["hand_size"], rules["deck_copies"], files))
    return cells


def _stream(files: list[Path], kinds: Kinds) -> Callable[[], Iterator[SeatChunk]]:
    def chunks() -> Iterator[SeatChunk]:
        for f in files:
            for batch in pq.ParquetFile(f).iter_batches(batch_size=_BATCH_ROWS, columns=COLUMNS):
                yield seat_chunk(restore_hands(pa.Table.from_batches([batch])), kinds)

    return chunks


def card_values(path: str | Path, *, placebo: bool = False) -> pd.DataFrame:
    """Card values of every (rules, players) cell of a dataset, with 95 % intervals.

    Parameters
    ----------
    path : str or Path
        A dataset of single rounds (``unosim simulate --out``, ``unosim run``).
    placebo : bool
        Also estimate the placebo kinds ``five`` and ``zero`` (see the module docstring).

    Returns
    -------
    pandas.DataFrame
        One row per (rules, players, scope, kind): ``value`` with ``low``/``high``
        (95 % interval) and ``se``, ``first_copy`` and ``second_copy`` with their
        intervals, ``copies_differ`` and ``games``; values in percentage points; the
        two-sided p-values ``value_p`` and ``copies_p`` and, adjusted over the whole table for
        multiple comparisons (Holm, `adjusted`), ``value_clear`` and ``copies_differ_adjusted``.
        Cells of the same rules and player count (pool seatings) are pooled.

    Raises
    ------
    ValueError
        For a match dataset, an incomplete one, or a path that is not a dataset.
    """
    path = Path(path)
    groups: dict[tuple[str, int], list[_Cell]] = {}
    for cell in _cells(path):
        groups.setdefault((cell.rules, cell.players), []).append(cell)
    frames = []
    for (rules, players), cells in groups.items():
        first = cells[0]
        kinds = Kinds.of_deck(first.deck_counts, placebo=placebo, hand_size=first.hand_size, copies=first.copies)
        files = [f for c in cells for f in c.files]
        fits = fit_cell(_stream(files, kinds), kinds, players)
        frames.append(value_table(fits, kinds, rules=rules, players=players))
    return adjusted(pd.concat(frames, ignore_index=True))


def adjusted(values: pd.DataFrame) -> pd.DataFrame:
    """Add the multiple-comparison control of a table of card values (Holm, `unosim.analysis.stats`).

    Each family is one kind of flag over the whole table: ``value_clear`` (the value differs from 0)
    and ``copies_differ_adjusted`` (first and second copies differ), with the adjusted p-values
    ``value_p_adjusted`` and ``copies_p_adjusted``.
    """
    values = values.copy()
    values["value_clear"], values["value_p_adjusted"] = adjust_p_values(values["value_p"])
    values["copies_differ_adjusted"], values["copies_p_adjusted"] = adjust_p_values(values["copies_p"])
    return values


__all__ = ["COLUMNS", "Kinds", "SCOPES", "SeatChunk", "adjusted", "card_values", "fit_cell", "seat_chunk", "value_table"]
