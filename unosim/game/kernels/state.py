"""The batch state in named groups: the arrays ``advance`` takes.

The kernels' arrays travel in five records (named tuples), grouped by what travels together (the
layout of every array, its ``F_*``, ``R_*``, ``CT_*`` … columns, is in ``unosim.game.kernels.layout``):

================  ================================================================================
record            what it holds
================  ================================================================================
``Games``    each slot's game: its scalars, cards and opening hands (every rule reads them)
``Seats``    each slot's seats: their strategy, its random-stream counter, the multi-actor answers
``Rows``     the observation rows and their decisions (double buffered), by (phase, strategy) group
``Records``  what a call leaves for Python to read: the records of finished games, the event log
``Work``     the batch counters, the run's cards and the kernels' work buffers
================  ================================================================================

They are ``typing.NamedTuple`` classes, which numba passes to a compiled function as its
arrays, one by one, at no cost: a kernel unpacks a record at its call
(``slot, game, keys, hands, hsize, piles, opening = games``) and the rules it calls take the
arrays they need. Python builds the records once per batch, and again only when it replaces an
array (grown record buffers, a set-up position's cards). ``B`` slots, ``P`` players, ``K`` card
types, ``H`` hand size, ``R`` observation rows (the sum of the groups' regions), ``N`` record rows.

The rules' ``cfg`` (it may be restored by the engine between two batches), the first game ``first``,
the run's key ``rkey`` (both set anew when an environment restarts a run), the buffer ``parity``,
``house`` and ``programs`` (whose types select the compiled copy, ``layout.HOUSE_OFF``,
``layout.PROGRAMS_OFF``) are passed on their own.
"""

import functools
from typing import Any, NamedTuple

import numpy as np
from numba import typeof
from numpy.typing import NDArray

from .layout import HOUSE_OFF, HOUSE_ON, PROGRAMS_OFF, PROGRAMS_ON

__all__ = ["Games", "Rows", "Seats", "Records", "Work", "advance_types", "deal_scratch"]


class Games(NamedTuple):
    """The game in each slot.

    Attributes
    ----------
    slot : ndarray of int32, shape (B, N_FIELDS)
        The slot's scalars, columns ``F_*`` (phase, turn, top card, counters …).
    game : ndarray of int64, shape (B,)
        Index of the game (or match) in the slot; -1 when it has none left.
    keys : ndarray of uint64, shape (B,)
        The game's random-stream key (``unosim.game.kernels.rng``).
    hands : ndarray of int8, shape (B, P, K)
        Cards of each type held by each seat.
    hsize : ndarray of int32, shape (B, P)
        Cards held by each seat.
    piles : ndarray of int8, shape (B, 3, K)
        Per-type counts of the draw pile (``DRAW``), the discard pile below its top card (``DISC``)
        and the mini pile (``MINI``).
    opening : ndarray of int8, shape (B, P, H)
        Each seat's opening hand (card types; -1 for a seat out of the match).
    """

    slot: NDArray[np.int32]
    game: NDArray[np.int64]
    keys: NDArray[np.uint64]
    hands: NDArray[np.int8]
    hsize: NDArray[np.int32]
    piles: NDArray[np.int8]
    opening: NDArray[np.int8]


class Seats(NamedTuple):
    """The seats of each slot.

    Attributes
    ----------
    seat_strat : ndarray of int32, shape (B, P)
        Index of the strategy playing each seat (its group of rows, its ``cfg[C_POLICY0 + k]``).
    seat_ctr : ndarray of int32, shape (B, P)
        Counter of each seat's strategy random stream.
    seat_dec : ndarray of int32, shape (B, P)
        Each seat's answer in a multi-actor phase (catch flag, vote target, UNO forgotten with a jump-in).
    seat_w : ndarray of float64, shape (B, P)
        Each seat's jump-in reaction weight (0: no jump-in).
    """

    seat_strat: NDArray[np.int32]
    seat_ctr: NDArray[np.int32]
    seat_dec: NDArray[np.int32]
    seat_w: NDArray[np.float64]


class Rows(NamedTuple):
    """The observation rows and their decisions, two buffers of each (the first axis: ``parity``).

    A call writes its rows into buffer ``parity`` and reads the decisions of the previous call's rows
    from the other one. The rows of one (phase, strategy) group ``g = phase * n_strategies + k`` are
    contiguous: ``group_base[g]`` onwards, ``group_count[g]`` of them.

    Attributes
    ----------
    row_slot : ndarray of int32, shape (2, R)
        The slot of each row.
    row_seat : ndarray of int32, shape (2, R)
        The acting seat of each row.
    row_legal : ndarray of bool, shape (2, R, K)
        The card types the seat may play (or add, stack) now.
    row_info : ndarray of int32, shape (2, R, N_INFO)
        The public state the row's observation shows, columns ``I_*``.
    dec : ndarray of int32, shape (2, R, N_DEC)
        The decision answered on each row, columns ``D_*``.
    dec_w : ndarray of float64, shape (2, R)
        The reaction weight answered on a jump-in row (scattered into ``Seats.seat_w``).
    group_base : ndarray of int64, shape (N_DECISION_PHASES * n_strategies,)
        The first row of each group's region.
    group_count : ndarray of int64, shape (N_DECISION_PHASES * n_strategies,)
        The rows of each group: the previous call's on entry, this call's on return.
    """

    row_slot: NDArray[np.int32]
    row_seat: NDArray[np.int32]
    row_legal: NDArray[np.bool_]
    row_info: NDArray[np.int32]
    dec: NDArray[np.int32]
    dec_w: NDArray[np.float64]
    group_base: NDArray[np.int64]
    group_count: NDArray[np.int64]


class Records(NamedTuple):
    """What the kernels write for Python to read: the records of the games finished and the event log.

    Attributes
    ----------
    rec : ndarray of int32, shape (N, N_REC)
        One row per finished game, columns ``R_*``: row ``game - first`` (single rounds), or row
        ``ctr[CT_ROUNDS]`` per finished round of a match (``rec[:, R_MATCH]`` is its match).
    rec_points : ndarray of int16, shape (N, P)
        The points of each seat in the row's game (round).
    rec_open : ndarray of int8, shape (N, P, H)
        The opening hands of the row's game (round).
    match_scores : ndarray of int32, shape (matches, P + 1)
        Matches: each seat's running total and, in the last column, the winner's seat; a (1, 1)
        array untouched in single rounds.
    ev : ndarray of int32, shape (events, N_EV_COLS)
        Tracing (``cfg[C_TRACE]``): the event log of this call, rows ``(game, EV_*, seat, card, a, b)``;
        one row when not tracing.
    nev : ndarray of int64, shape (1,)
        Events logged in this call.
    """

    rec: NDArray[np.int32]
    rec_points: NDArray[np.int16]
    rec_open: NDArray[np.int8]
    match_scores: NDArray[np.int32]
    ev: NDArray[np.int32]
    nev: NDArray[np.int64]


class Work(NamedTuple):
    """The batch as a whole: its counters, its cards and the kernels' work buffers (kernels do not allocate).

    Attributes
    ----------
    ctr : ndarray of int64, shape (N_CTR,)
        The batch counters ``CT_*`` (next game to deal, one past the last, rounds recorded, pauses).
    deck : ndarray of int16, shape (K,)
        The run's cards: the deck dealt from, and what card conservation (``cfg[C_CHECK]``) counts.
    scratch : ndarray of int16, shape (2 * cards in ``deck``,)
        The deal's work buffer, then the cards of ``deck`` in type order (`deal_scratch`): each deal
        copies the second half into the first and shuffles there.
    actors : ndarray of int64, shape (at least max(P, 64),)
        Work buffer: the seats acting in a phase, or the candidate cards of a compiled policy.
    err : ndarray of int64, shape (1,)
        -1, or the slot whose cards were not all accounted for (``cfg[C_CHECK]``; the call returns 0).
    """

    ctr: NDArray[np.int64]
    deck: NDArray[np.int16]
    scratch: NDArray[np.int16]
    actors: NDArray[np.int64]
    err: NDArray[np.int64]


_NDIM = {
    "slot": 2, "game": 1, "keys": 1, "hands": 3, "hsize": 2, "piles": 3, "opening": 3,
    "seat_strat": 2, "seat_ctr": 2, "seat_dec": 2, "seat_w": 2,
    "row_slot": 2, "row_seat": 2, "row_legal": 3, "row_info": 3, "dec": 3, "dec_w": 2, "group_base": 1, "group_count": 1,
    "rec": 2, "rec_points": 2, "rec_open": 3, "match_scores": 2, "ev": 2, "nev": 1,
    "ctr": 1, "deck": 1, "scratch": 1, "actors": 1, "err": 1,
}  # fmt: skip
"""The dimensions of every field (their dtypes are the records' annotations)."""


def deal_scratch(deck: NDArray[np.integer]) -> NDArray[np.int16]:
    """``Work.scratch`` for the run's cards ``deck`` (count per card type): room for the deal, then
    the deck's cards in type order, laid out once here rather than at every deal."""
    cards = np.repeat(np.arange(len(deck), dtype=np.int16), np.asarray(deck, np.int64))
    return np.concatenate([np.zeros(len(cards), np.int16), cards])


def _empty(record: Any) -> Any:
    """A record of ``record``'s class holding empty arrays of its fields' dtypes and dimensions."""
    return record(*(np.zeros((0,) * _NDIM[name], ann.__args__[1].__args__[0]) for name, ann in record.__annotations__.items()))


@functools.cache
def advance_types(house: int | None, programs: int | None) -> tuple[Any, ...]:
    """The argument types of ``advance`` (the copy ``house`` and ``programs`` select),
    to compile it without a batch: the records as the engine builds them, ``cfg`` (int32),
    ``first`` (int), ``rkey`` (uint64) and ``parity`` (int). Worked out once per copy: every
    ``Engine.set_strategies`` asks for them."""
    if house is not HOUSE_OFF and house is not HOUSE_ON:
        raise ValueError(f"house must be layout.HOUSE_OFF or layout.HOUSE_ON, not {house!r}")
    if programs is not PROGRAMS_OFF and programs is not PROGRAMS_ON:
        raise ValueError(f"programs must be layout.PROGRAMS_OFF or layout.PROGRAMS_ON, not {programs!r}")
    records = tuple(typeof(_empty(record)) for record in (Games, Seats, Rows, Records, Work))
    return (*records, typeof(np.zeros(0, np.int32)), typeof(0), typeof(np.uint64(0)), typeof(0), typeof(house), typeof(programs))
