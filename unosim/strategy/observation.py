"""What a strategy sees: a batch of decisions, public information only.

An :class:`Observation` covers ``n`` decision rows of one phase (all asking
the same strategy). Arrays have the row as first axis.

Fair play: every array is a read-only copy made for this call, and once the
call has returned the observation holds no reference to the engine's state, so
nothing hidden (other hands, the draw pile) is reachable from it; answers are
checked by the engine against its own rows, never against these arrays. Only
:meth:`Observation.random` reaches back into the engine, through a private
stream object that advances this decision's (game, seat) counters.

Fields are copied from the engine's observation rows (``kernels/rows.py``) or
its batch state when first read, so a strategy pays only for what it reads. When the decision call
returns, the engine lets go of its rows: an observation the strategy kept
(referenced from anywhere after the call) first gets a copy of every field it
had not read, so it stays complete and unchanged whatever the engine does
next (:meth:`Observation._detach`).

Fields
------
``phase``          decision phase name (``'turn'``, ``'drawn'``, ``'colour'``,
                   ``'challenge'``, ``'catch'``, ``'pileup'``, ``'vote'``, ``'jumpin'``,
                   and with the house rules ``'stack'`` (H-1) and ``'swap'`` (H-2))
``players``        players at the table
``seat``           acting seat per row
``game``           global game index per row
``hand``           ``[n, N_TYPES]`` own cards per type
``legal``          ``[n, N_TYPES]`` cards the player may play (``turn``, ``drawn``),
                   add (``pileup``) or stack (``stack``); drawing is always allowed in
                   ``turn``, taking in ``stack``
``bluffable``      a Wild Draw Four held may be played as a bluff (challenges on)
``top``, ``colour``, ``direction``, ``turn``   the table (``jumpin``: ``turn`` is the seat
                   whose turn comes next)
``drawn``          the card just drawn (``drawn`` phase), else -1
``target``         phase argument: the seat that forgot UNO (``catch``), the seat
                   that played the Wild Draw Four (``challenge``), the Point Taken
                   (``vote``), the card on top (``jumpin``, ``stack``); the mini
                   pile's colour (``pileup``); the seat whose turn comes next (``swap``)
``hand_size``      cards the acting seat holds
``n_legal``        legal physical cards held (``turn``)
``may_take``       the mini pile may be taken instead of adding (``pileup``: nothing may
                   be added, or the rule option ``pileup_may_refuse``)
``penalty``        the cards taking the pending chain draws (``stack``, H-1), else 0
``hand_sizes``     ``[n, players]`` every seat's hand size
``alive``          ``[n, players]`` seats still in the match (all of them, except in
                   ``elimination`` matches, E-4: an eliminated seat holds no card, takes
                   no turn, cannot vote, be pointed at, be linked, jump in or catch)
``discard``        ``[n, N_TYPES]`` the discard pile's counts (top card included)
``link``           ``[n, 2]`` linked seats, -1 where none
``link_choices``   ``[n, players]`` seats that may be linked by a Wild Drawn Together now
                   (all seats still in the match, or all but the current pair under
                   ``relink_must_differ``)
``rules``          the :class:`~unosim.game.rules.RuleSet` of the game (frozen; every player
                   knows the rules)
"""

from __future__ import annotations

import sys
from typing import Any, Protocol

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..game.kernels import layout as L
from ..game.kernels.rng import keyed_uniform, seat_key
from ..game.rules import RuleSet

__all__ = [
    "FIELDS", "Observation", "RowSource", "SeatStreams", "TableFields", "escaped", "gather_discard", "gather_hands", "gather_keys",
    "gather_seats",
]

FIELDS = ("seat", "game", "hand", "legal", "info", "hand_sizes", "alive", "discard", "link", "link_choices")
"""The array fields of an :class:`Observation`, each a read-only copy made when first read."""


def _read_only(a: NDArray) -> NDArray:
    """Mark ``a`` (a fresh array owning its data) read-only (``setflags``: a third of the cost of
    setting ``a.flags.writeable``, which builds a flags object each time)."""
    a.setflags(write=False)
    return a


def _held_in_list() -> int:
    """References to an object held only by a list, counted the way :func:`escaped` counts them."""
    probe = [object()]
    for item in probe:
        return sys.getrefcount(item)
    raise AssertionError


_HELD = _held_in_list()


def escaped(made: list[Any]) -> list[bool]:
    """For each object of ``made``, whether anything but the list refers to it (CPython's reference count)."""
    return [sys.getrefcount(item) > _HELD for item in made]


@njit(cache=True)
def gather_discard(piles, slot, slots):  # pragma: no cover - compiled
    """The discard pile's counts of each slot of ``slots``, its top card included (fresh ``int16`` rows)."""
    out = np.empty((slots.shape[0], piles.shape[2]), np.int16)
    for r in range(slots.shape[0]):
        s = slots[r]
        for t in range(piles.shape[2]):
            out[r, t] = piles[s, L.DISC, t]
        out[r, slot[s, L.F_TOP]] += 1
    return out


@njit(cache=True)
def gather_hands(hands, slots, seats):  # pragma: no cover - compiled
    """The hand of each (slot, seat) row (fresh ``int8`` rows)."""
    out = np.empty((slots.shape[0], hands.shape[2]), np.int8)
    for r in range(slots.shape[0]):
        s, seat = slots[r], seats[r]
        for t in range(hands.shape[2]):
            out[r, t] = hands[s, seat, t]
    return out


@njit(cache=True)
def gather_seats(slot, slots, players, linkable, relink_must_differ):  # pragma: no cover - compiled
    """``[n, players]``: the seats still in the match of each slot of ``slots`` (E-4); with ``linkable``,
    those a Wild Drawn Together may link now (P-6: not the current pair under ``relink_must_differ``)."""
    out = np.empty((slots.shape[0], players), np.bool_)
    for r in range(slots.shape[0]):
        s = slots[r]
        mask = slot[s, L.F_ALIVE]
        a, b = slot[s, L.F_LINK_A], slot[s, L.F_LINK_B]
        if linkable and relink_must_differ and a >= 0:
            mask &= ~((1 << a) | (1 << b))
        for p in range(players):
            out[r, p] = (mask >> p) & 1
    return out


@njit(cache=True)
def gather_keys(keys, slots, seats):  # pragma: no cover - compiled
    """The strategy-stream key (``rng.seat_key``) of each (slot, seat) row."""
    out = np.empty(slots.shape[0], np.uint64)
    for r in range(slots.shape[0]):
        out[r] = seat_key(keys[slots[r]], seats[r])
    return out


@njit(cache=True)
def _stream_uniforms(seat_keys, counters, slots, seats, k):  # pragma: no cover - compiled
    """``k`` uniforms of each row's stream, from its seat key (``rng.seat_uniforms`` takes the games' keys)."""
    out = np.empty((slots.shape[0], k), np.float64)
    for r in range(slots.shape[0]):
        for j in range(k):
            out[r, j] = keyed_uniform(seat_keys[r], counters, slots[r], seats[r])
    return out


class SeatStreams:
    """The per-(game, seat) uniform streams of a batch of decision rows (see :mod:`unosim.game.kernels.rng`).

    Holds each row's seat-stream key (``rng.seat_key``, written into the row by the kernel; never the
    game's own key, from which the deal could be recomputed) and the engine's per-seat draw counters,
    which :meth:`Observation.random` advances. The uniforms are those of the kernels' ``seat_uniform``,
    so compiled and Python paths agree.
    """

    __slots__ = ("_counters", "_keys", "_seats", "_slots")

    def __init__(
        self, seat_keys: NDArray[np.uint64], counters: NDArray[np.int32], slots: NDArray[np.int32], seats: NDArray[np.int32]
    ) -> None:
        self._keys, self._counters, self._slots, self._seats = seat_keys, counters, slots, seats

    def draw(self, k: int) -> NDArray[np.float64]:
        """``k`` uniforms per row, shape ``[n, k]``."""
        return _stream_uniforms(self._keys, self._counters, self._slots, self._seats, k)

    def subset(self, rows: NDArray[np.intp]) -> SeatStreams:
        """The streams of ``rows`` only."""
        return SeatStreams(self._keys[rows], self._counters, self._slots[rows], self._seats[rows])


class RowSource(Protocol):
    """Where an :class:`Observation` copies its fields from while its decision call runs (the engine's
    :class:`unosim.engine.decisions.Rows`)."""

    phase: int
    players: int
    rules: RuleSet
    made: list[Observation]

    def fresh(self, name: str) -> NDArray:
        """A fresh copy of field ``name`` (one of :data:`FIELDS`) of these rows."""

    def uniforms(self, k: int) -> NDArray[np.float64]:
        """``k`` uniforms of each row's stream, ``[n, k]``."""

    def streams(self) -> SeatStreams:
        """The random streams of these rows (for an observation kept after its call)."""

    def subset(self, rows: NDArray[np.intp]) -> RowSource:
        """The rows ``rows`` (indices) of these, sharing ``made``."""


class TableFields:
    """Named columns of a decision batch's ``info`` array (``layout.I_*``): the table as the acting
    seat sees it. Shared by :class:`Observation` and the engine's own record of the rows."""

    __slots__ = ()
    info: NDArray[np.int32]

    @property
    def top(self) -> NDArray[np.int32]:
        """Card type on top of the discard pile."""
        return self.info[:, L.I_TOP]

    @property
    def colour(self) -> NDArray[np.int32]:
        """Active colour (0 red, 1 yellow, 2 green, 3 blue; -1 before a wild start card's colour)."""
        return self.info[:, L.I_COLOUR]

    @property
    def direction(self) -> NDArray[np.int32]:
        """+1 clockwise (increasing seat numbers), -1 counter-clockwise."""
        return self.info[:, L.I_DIR]

    @property
    def turn(self) -> NDArray[np.int32]:
        """Seat whose turn it is."""
        return self.info[:, L.I_TURN]

    @property
    def drawn(self) -> NDArray[np.int32]:
        """Card just drawn (``drawn`` phase), else -1."""
        return self.info[:, L.I_DRAWN]

    @property
    def target(self) -> NDArray[np.int32]:
        """Phase argument: the seat that forgot UNO (catch), played the Wild Draw Four (challenge),
        the Point Taken (vote) or the card on top (jumpin, stack); the mini pile's colour (pileup);
        the seat whose turn comes next (swap)."""
        return self.info[:, L.I_ARG]

    @property
    def bluffable(self) -> NDArray[np.bool_]:
        """A Wild Draw Four held may be played now as a bluff (challenges on)."""
        return self.info[:, L.I_BLUFFABLE] != 0

    @property
    def n_legal(self) -> NDArray[np.int32]:
        """Legal physical cards held (``turn`` phase; bluffs not counted)."""
        return self.info[:, L.I_NLEGAL]

    @property
    def hand_size(self) -> NDArray[np.int32]:
        """Cards the acting seat holds."""
        return self.info[:, L.I_HSIZE]

    @property
    def penalty(self) -> NDArray[np.int32]:
        """``stack`` phase (H-1): the cards the acting seat draws if it takes the pending chain. 0 in the
        other phases."""
        return self.info[:, L.I_PENALTY]

    @property
    def may_take(self) -> NDArray[np.bool_]:
        """``pileup`` phase: the mini pile may be taken now instead of adding a card (P-5): nothing
        may be added, or the rule option ``pileup_may_refuse`` is on. False in the other phases."""
        return self.info[:, L.I_MAY_TAKE] != 0


def _field(name: str, doc: str) -> property:
    """The read-only array field ``name``, copied from the engine on first read."""

    def get(self: Observation) -> NDArray:
        values = self._values
        a = values.get(name)
        if a is None:
            if self._rows is None:
                raise RuntimeError(f"field {name!r} was not read while the decision was asked, and the engine's rows are gone")
            a = values[name] = _read_only(self._rows.fresh(name))
        return a

    return property(get, doc=doc)


class Observation(TableFields):
    """A batch of decisions of one phase for one strategy (see module doc).

    Made by the engine; every array field is a fresh read-only copy of the engine's rows or
    batch state, made when first read.
    """

    __slots__ = ("phase", "phase_id", "players", "rules", "_rows", "_streams", "_values")

    def __init__(self, rows: RowSource) -> None:
        self.phase = L.PHASE_NAMES[rows.phase]
        self.phase_id = rows.phase
        self.players = rows.players
        self.rules = rows.rules
        """The rule set of the game (:class:`~unosim.game.rules.RuleSet`, frozen)."""
        self._rows: RowSource | None = rows
        self._streams: SeatStreams | None = None
        self._values: dict[str, NDArray] = {}
        rows.made.append(self)

    seat = _field("seat", "Acting seat per row.")
    game = _field("game", "Global game index of each row.")
    hand = _field("hand", "``[n, N_TYPES]`` own cards per type.")
    legal = _field("legal", "``[n, N_TYPES]`` cards that may be played (``turn``, ``drawn``) or added (``pileup``).")
    info = _field("info", "``[n, N_INFO]`` the table fields behind the named properties below (``layout.I_*``).")
    hand_sizes = _field("hand_sizes", "``[n, players]`` hand size of every seat.")
    alive = _field("alive", "``[n, players]`` seats still in the match (every seat, except in ``elimination`` matches, E-4).")
    discard = _field("discard", "``[n, N_TYPES]`` counts of the discard pile, top card included.")
    link = _field("link", "``[n, 2]`` linked seats (-1 where there is no link).")
    link_choices = _field(
        "link_choices", "``[n, players]`` seats a Wild Drawn Together may link now (P-6): every seat still in the "
        "match, except the current pair's under ``relink_must_differ``.")

    def _detach(self, keep: bool) -> None:
        """Let go of the engine's rows when the decision call returns; ``keep``: the strategy kept this
        observation, so copy every field (and the random streams) it has not read yet."""
        if keep and self._rows is not None:
            for name in FIELDS:
                getattr(self, name)
            self._streams = self._rows.streams()
        self._rows = None

    def __len__(self) -> int:
        return int(self.seat.shape[0])

    @property
    def n(self) -> int:
        """Number of decision rows."""
        return len(self)

    def random(self, k: int | None = None) -> NDArray[np.float64]:
        """Uniforms in [0, 1) from each row's own (game, seat) stream.

        ``k=None`` gives one per row (shape ``[n]``), else shape ``[n, k]``.
        Drawing from these streams (never from a shared generator) keeps
        results independent of batch size and chunking.
        """
        if self._rows is not None:
            u = self._rows.uniforms(1 if k is None else k)
        elif self._streams is not None:
            u = self._streams.draw(1 if k is None else k)
        else:
            raise RuntimeError("random numbers are drawn while the decision is asked")
        return u[:, 0] if k is None else u

    def copy(self) -> Observation:
        """A read-only copy sharing nothing with this observation but the random streams."""
        return self.subset(np.arange(len(self)))

    def subset(self, rows: NDArray[np.bool_] | NDArray[np.intp]) -> Observation:
        """The observation restricted to ``rows`` (a mask or indices)."""
        rows = np.flatnonzero(rows) if rows.dtype == bool else rows.astype(np.intp)
        if self._rows is not None:
            return Observation(self._rows.subset(rows))
        return _Kept(self, rows)


class _Kept(Observation):
    """A subset of an observation kept after its decision call (its fields are all copied already)."""

    __slots__ = ()

    def __init__(self, whole: Observation, rows: NDArray[np.intp]) -> None:
        self.phase, self.phase_id, self.players, self.rules = whole.phase, whole.phase_id, whole.players, whole.rules
        self._rows = None
        assert whole._streams is not None  # a kept observation has its streams
        self._streams = whole._streams.subset(rows)
        self._values = {name: _read_only(value[rows]) for name, value in whole._values.items()}
