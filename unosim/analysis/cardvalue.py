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
(:class:`unosim.analysis.stats.ClusteredOLS`: the seats of a game are dependent,
exactly one of them wins). Four fits per (rules, players) cell:

* ``all seats``, linear: the slope per kind is the *value* (average over the
  hands dealt of one more card of the kind);
* ``all seats``, count dummies ``1[count >= 1]``, ``1[count >= 2]``,
  ``1[count >= 3]`` per kind: the first two are the *first-copy* value (0 -> 1
  card) and the *second-copy* value (1 -> 2 cards); ``copies differ`` flags the
  kinds where the difference of the two has a 95 % interval excluding zero;
* ``first player`` (offset 1 only, with an intercept): the same two fits.

The regression streams: every chunk file is read batch by batch with only the
columns ``players``, ``dealer``, ``winner`` and ``opening_hand``, and only
``X'X``, ``X'y`` and the clustered meat are kept (two passes over a cell's files).

Placebo
-------
``placebo=True`` adds two number "kinds" of no value by symmetry under the
``random`` strategy: ``five`` (the 5s of every colour) and ``zero`` (the 0s, which
have fewer copies than the other numbers and so are analysed apart). Against the
other number cards (1-4, 6-9, exchangeable with 5 for a random player) the
``five`` value must be 0 within its interval.
"""

from __future__ import annotations

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

from .. import dataset
from ..cards import CARD_KIND, FACES_PER_COLOUR, KIND_NAMES, N_COLOURS, N_TYPES
from .stats import ClusteredOLS, OLSResult

COLUMNS = ["players", "dealer", "winner", "opening_hand"]
"""The only columns the card-value estimate reads."""
SCOPES = ("all seats", "first player")
MAX_DUMMY = 3
"""Count dummies ``1[count >= c]`` for c = 1..MAX_DUMMY (the last one a control)."""
_BATCH_ROWS = 131_072


@dataclass(frozen=True)
class Kinds:
    """The columns of a card-value fit: which card types count for which kind.

    Attributes
    ----------
    names : tuple of str
        Kind names (``KIND_NAMES`` without ``number``, plus placebo kinds).
    column : ndarray
        For each card type, its kind's position in ``names``, or ``len(names)``
        for the baseline (number cards).
    """

    names: tuple[str, ...]
    column: NDArray[np.int64]

    @classmethod
    def of_deck(cls, counts: Iterable[int], *, placebo: bool = False) -> Kinds:
        """The action kinds present in a deck of per-type ``counts`` (plus placebo kinds)."""
        counts = np.asarray(list(counts))
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
        return cls(tuple(names), column)


@dataclass(frozen=True)
class SeatChunk:
    """One row per (game, seat) of a batch: opening counts per kind, offset, won, game."""

    counts: NDArray[np.int8]
    offset: NDArray[np.int64]
    won: NDArray[np.float64]
    game: NDArray[np.int64]


def seat_chunk(table: pa.Table | pa.RecordBatch, kinds: Kinds) -> SeatChunk:
    """Per-seat opening counts of a batch of games (columns of :data:`COLUMNS`)."""
    n = table.num_rows
    players = table.column("players").to_numpy().astype(np.int64)
    if n and (players != players[0]).any():
        raise ValueError("a card-value batch must hold games of one player count (one cell).")
    P = int(players[0]) if n else 0
    hands = table.column("opening_hand")
    if isinstance(hands, pa.ChunkedArray):
        hands = hands.combine_chunks()
    seats_lists = pc.list_flatten(hands)
    seat_len = pc.list_value_length(hands).to_numpy(zero_copy_only=False)
    if (seat_len != P).any():
        raise ValueError("opening_hand must hold one hand per seat.")
    cards = pc.list_flatten(seats_lists).to_numpy(zero_copy_only=False).astype(np.int64)
    hand_len = pc.list_value_length(seats_lists).to_numpy(zero_copy_only=False)
    K = len(kinds.names)
    col = kinds.column[cards]
    if n and (hand_len == hand_len[0]).all():
        H = int(hand_len[0])
        per_seat = col.reshape(n * P, H)
        counts = np.stack([(per_seat == k).sum(axis=1) for k in range(K)], axis=1).astype(np.int8)
    else:
        seat = np.repeat(np.arange(n * P), hand_len)
        counts = np.bincount(seat * (K + 1) + col, minlength=n * P * (K + 1)).reshape(n * P, K + 1)[:, :K].astype(np.int8)
    seat_no = np.tile(np.arange(P), n)
    dealer = np.repeat(table.column("dealer").to_numpy().astype(np.int64), P)
    offset = (seat_no - dealer) % max(P, 1)
    offset[offset == 0] = P
    winner = table.column("winner").to_numpy(zero_copy_only=False)
    winner = np.where(np.isnan(winner.astype(float)), -1, winner).astype(np.int64)
    won = (np.repeat(winner, P) == seat_no).astype(np.float64)
    return SeatChunk(counts, offset, won, np.repeat(np.arange(n), P))


# ------------------------------------------------------------------ designs
def _dummies(counts: NDArray[np.int8]) -> NDArray[np.float64]:
    return np.concatenate([(counts >= c) for c in range(1, MAX_DUMMY + 1)], axis=1).astype(np.float64)


def _designs(chunk: SeatChunk, P: int) -> dict[tuple[str, str], tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.int64]]]:
    """The four designs of a chunk: (scope, model) -> (X, y, cluster)."""
    counts = chunk.counts.astype(np.float64)
    seat = np.zeros((len(counts), P))
    seat[np.arange(len(counts)), chunk.offset - 1] = 1.0
    dummies = _dummies(chunk.counts)
    first = chunk.offset == 1
    one = np.ones((int(first.sum()), 1))
    return {
        ("all seats", "linear"): (np.hstack([counts, seat]), chunk.won, chunk.game),
        ("all seats", "copies"): (np.hstack([dummies, seat]), chunk.won, chunk.game),
        ("first player", "linear"): (np.hstack([counts[first], one]), chunk.won[first], chunk.game[first]),
        ("first player", "copies"): (np.hstack([dummies[first], one]), chunk.won[first], chunk.game[first]),
    }


def _names(kinds: Kinds, P: int) -> dict[tuple[str, str], list[str]]:
    seat = [f"offset_{o}" for o in range(1, P + 1)]
    copies = [f"{k}>={c}" for c in range(1, MAX_DUMMY + 1) for k in kinds.names]
    return {
        ("all seats", "linear"): list(kinds.names) + seat,
        ("all seats", "copies"): copies + seat,
        ("first player", "linear"): list(kinds.names) + ["const"],
        ("first player", "copies"): copies + ["const"],
    }


def fit_cell(chunks: Callable[[], Iterator[SeatChunk]], kinds: Kinds, players: int) -> dict[tuple[str, str], OLSResult]:
    """The four clustered fits of one cell from a re-iterable source of seat chunks.

    ``chunks()`` is called twice (the second pass needs the first pass's
    coefficients for the residuals); each call must yield the same chunks.
    """
    fits = {key: ClusteredOLS(names) for key, names in _names(kinds, players).items()}
    for chunk in chunks():
        for key, (X, y, _) in _designs(chunk, players).items():
            fits[key].add_moments(X, y)
    for fit in fits.values():
        fit.solve()
    for chunk in chunks():
        for key, (X, y, g) in _designs(chunk, players).items():
            fits[key].add_meat(X, y, g)
    return {key: fit.result() for key, fit in fits.items()}


def value_table(fits: dict[tuple[str, str], OLSResult], kinds: Kinds, **labels: Any) -> pd.DataFrame:
    """Rows of values (percentage points) per scope and kind from the fits of :func:`fit_cell`."""
    rows = []
    for scope in SCOPES:
        linear, copies = fits[(scope, "linear")], fits[(scope, "copies")]
        for kind in kinds.names:
            v, se, lo, hi = linear.estimate({kind: 1.0})
            f, _, flo, fhi = copies.estimate({f"{kind}>=1": 1.0})
            s, _, slo, shi = copies.estimate({f"{kind}>=2": 1.0})
            d, _, dlo, dhi = copies.estimate({f"{kind}>=2": 1.0, f"{kind}>=1": -1.0})
            rows.append({
                **labels,
                "scope": scope,
                "kind": kind,
                "value": 100 * v, "low": 100 * lo, "high": 100 * hi, "se": 100 * se,
                "first_copy": 100 * f, "first_low": 100 * flo, "first_high": 100 * fhi,
                "second_copy": 100 * s, "second_low": 100 * slo, "second_high": 100 * shi,
                "copies_differ": bool(dlo > 0 or dhi < 0),
                "games": linear.clusters,
            })
    return pd.DataFrame(rows)


# ------------------------------------------------------------------ datasets
@dataclass(frozen=True)
class _Cell:
    rules: str
    players: int
    deck_counts: list[int]
    files: list[Path]


def _cells(path: Path) -> list[_Cell]:
    """The (rules, players) cells of a dataset of single rounds, with their chunk files."""
    meta = dataset.read_metadata(path)
    if dataset.has_rounds(meta):
        raise ValueError(
            f"{path} holds matches; card values are estimated from single rounds (a dataset written "
            "without --match / match = true)."
        )
    missing = set(dataset.missing_files(path, meta))
    if missing:
        raise ValueError(
            f"dataset {path} is incomplete ({len(missing)} chunk files missing); run the same command again to finish it."
        )
    names = dataset.expected_files(meta)
    if meta["kind"] == "run":
        return [_Cell(meta["config"]["rules"]["name"], meta["config"]["players"], meta["deck"]["counts"], [path / n for n in names])]
    per_cell = len(names) // len(meta["cells"])
    cells = []
    for i, cell in enumerate(meta["cells"]):
        files = [path / n for n in names[i * per_cell:(i + 1) * per_cell]]
        cells.append(_Cell(cell["rules"], cell["players"], cell["deck"]["counts"], files))
    return cells


def _stream(files: list[Path], kinds: Kinds) -> Callable[[], Iterator[SeatChunk]]:
    def chunks() -> Iterator[SeatChunk]:
        for f in files:
            for batch in pq.ParquetFile(f).iter_batches(batch_size=_BATCH_ROWS, columns=COLUMNS):
                yield seat_chunk(batch, kinds)

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
        intervals, ``copies_differ`` and ``games``; values in percentage points.
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
        kinds = Kinds.of_deck(cells[0].deck_counts, placebo=placebo)
        files = [f for c in cells for f in c.files]
        fits = fit_cell(_stream(files, kinds), kinds, players)
        frames.append(value_table(fits, kinds, rules=rules, players=players))
    return pd.concat(frames, ignore_index=True)


__all__ = ["COLUMNS", "Kinds", "SCOPES", "SeatChunk", "card_values", "fit_cell", "seat_chunk", "value_table"]
