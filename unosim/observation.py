"""What a strategy sees: a batch of decisions, public information only.

An :class:`Observation` covers ``n`` decision rows of one phase (all asking
the same strategy). Arrays have the row as first axis.

Fair play: every array is a read-only copy made for this call, and the
observation holds no reference to the engine's state, so nothing hidden
(other hands, the draw pile) is reachable from it; answers are checked by the
engine against its own copy of the legal moves, never against these arrays.
Only :meth:`Observation.random` reaches back into the engine, through a private
stream object that advances this decision's (game, seat) counters.

Fields
------
``phase``          decision phase name (``'turn'``, ``'drawn'``, ``'colour'``,
                   ``'challenge'``, ``'catch'``, ``'pileup'``, ``'vote'``, ``'jumpin'``)
``players``        players at the table
``seat``           acting seat per row
``game``           global game index per row
``hand``           ``[n, N_TYPES]`` own cards per type
``legal``          ``[n, N_TYPES]`` cards the player may play (``turn``, ``drawn``)
                   or add (``pileup``); drawing is always allowed in ``turn``
``bluffable``      a Wild Draw Four held may be played as a bluff (challenges on)
``top``, ``colour``, ``direction``, ``turn``   the table (``jumpin``: ``turn`` is the seat
                   whose turn comes next)
``drawn``          the card just drawn (``drawn`` phase), else -1
``target``         phase argument: the seat that forgot UNO (``catch``), the seat
                   that played the Wild Draw Four (``challenge``), the Point Taken
                   (``vote``) or the number card on top (``jumpin``); the mini
                   pile's colour (``pileup``)
``hand_size``      cards the acting seat holds
``n_legal``        legal physical cards held (``turn``)
``may_take``       the mini pile may be taken instead of adding (``pileup``: nothing may
                   be added, or the rule option ``pileup_may_refuse``)
``hand_sizes``     ``[n, players]`` every seat's hand size
``alive``          ``[n, players]`` seats still in the match (all of them, except in
                   ``elimination`` matches, E-4: an eliminated seat holds no card, takes
                   no turn, cannot vote, be pointed at, be linked, jump in or catch)
``discard``        ``[n, N_TYPES]`` the discard pile's counts (top card included)
``link``           ``[n, 2]`` linked seats, -1 where none
``link_choices``   ``[n, players]`` seats that may be linked by a Wild Drawn Together now
                   (all seats still in the match, or all but the current pair under
                   ``relink_must_differ``)
``rules``          the :class:`~unosim.rules.RuleSet` of the game (frozen; every player
                   knows the rules)
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from .kernels import layout as L
from .kernels.rng import GOLDEN, SEAT_SALT, TWO_M53, mix64
from .rules import RuleSet

__all__ = ["Observation", "SeatStreams", "TableFields", "gather_public"]


@njit(cache=True)
def gather_public(slot, hsize, piles, game, slots, info, relink_must_differ):  # pragma: no cover - compiled
    """The public table of each decision row's game, in one pass: game index, every hand size,
    seats alive, the link, the seats a Wild Drawn Together may link, and the discard pile's
    counts (top card included, ``info[:, I_TOP]``). Fresh arrays, sharing no memory with the
    engine's. ``info`` is passed whole: its top column is a strided view, of another array type
    than a one-row batch's, which compiled this function a second time in every worker."""
    n = slots.shape[0]
    players = hsize.shape[1]
    n_types = piles.shape[2]
    games = np.empty(n, np.int64)
    sizes = np.empty((n, players), np.int32)
    alive = np.empty((n, players), np.bool_)
    link = np.empty((n, 2), np.int32)
    choices = np.empty((n, players), np.bool_)
    discard = np.empty((n, n_types), np.int16)
    for r in range(n):
        s = slots[r]
        games[r] = game[s]
        mask = slot[s, L.F_ALIVE]
        a, b = slot[s, L.F_LINK_A], slot[s, L.F_LINK_B]
        link[r, 0], link[r, 1] = a, b
        for p in range(players):
            sizes[r, p] = hsize[s, p]
            alive[r, p] = (mask >> p) & 1
            choices[r, p] = alive[r, p] and not (relink_must_differ and a >= 0 and (p == a or p == b))
        for t in range(n_types):
            discard[r, t] = piles[s, L.DISC, t]
        discard[r, info[r, L.I_TOP]] += 1
    return games, sizes, alive, link, choices, discard


def _read_only(a: NDArray) -> NDArray:
    """Mark ``a`` (a fresh array owning its data) read-only (``setflags``: a third of the cost of
    setting ``a.flags.writeable``, which builds a flags object each time)."""
    a.setflags(write=False)
    return a


@njit(cache=True)
def _seat_keys(keys, slots, seats):  # pragma: no cover - compiled
    out = np.empty(slots.shape[0], np.uint64)
    for r in range(slots.shape[0]):
        out[r] = mix64(keys[slots[r]] ^ (np.uint64(seats[r] + 1) * SEAT_SALT))
    return out


@njit(cache=True)
def _stream_uniforms(seat_keys, counters, slots, seats, k):  # pragma: no cover - compiled
    n = slots.shape[0]
    out = np.empty((n, k), np.float64)
    for r in range(n):
        for j in range(k):
            c = counters[slots[r], seats[r]]
            counters[slots[r], seats[r]] = c + 1
            out[r, j] = float(mix64(seat_keys[r] + np.uint64(c) * GOLDEN) >> np.uint64(11)) * TWO_M53
    return out


class SeatStreams:
    """The per-(game, seat) uniform streams of a batch of decision rows (see :mod:`unosim.kernels.rng`).

    Holds each row's seat-stream key (never the game's own key, from which the deal could be
    recomputed) and the engine's per-seat draw counters, which :meth:`Observation.random` advances.
    The uniforms are those of the kernels' ``seat_uniform``, so compiled and Python paths agree.
    """

    __slots__ = ("_counters", "_keys", "_seats", "_slots")

    def __init__(
        self, seat_keys: NDArray[np.uint64], counters: NDArray[np.int32], slots: NDArray[np.int32], seats: NDArray[np.int32]
    ) -> None:
        self._keys, self._counters, self._slots, self._seats = seat_keys, counters, slots, seats

    @classmethod
    def of_rows(
        cls, game_keys: NDArray[np.uint64], counters: NDArray[np.int32], slots: NDArray[np.int32], seats: NDArray[np.int32]
    ) -> SeatStreams:
        """The streams of the (slot, seat) rows, from the games' keys."""
        return cls(_seat_keys(game_keys, slots, seats), counters, slots, seats)

    def draw(self, k: int) -> NDArray[np.float64]:
        """``k`` uniforms per row, shape ``[n, k]``."""
        return _stream_uniforms(self._keys, self._counters, self._slots, self._seats, k)

    def subset(self, rows: NDArray[np.intp]) -> SeatStreams:
        """The streams of ``rows`` only."""
        return SeatStreams(self._keys[rows], self._counters, self._slots[rows], self._seats[rows])


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
        the Point Taken (vote) or the number card on top (jumpin); the mini pile's colour (pileup)."""
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
    def may_take(self) -> NDArray[np.bool_]:
        """``pileup`` phase: the mini pile may be taken now instead of adding a card (P-5): nothing
        may be added, or the rule option ``pileup_may_refuse`` is on. False in the other phases."""
        return self.info[:, L.I_MAY_TAKE] != 0


class Observation(TableFields):
    """A batch of decisions of one phase for one strategy (see module doc).

    Built by the engine from fresh arrays made for this call, which it marks read-only.
    """

    __slots__ = (
        "alive", "discard", "game", "hand", "hand_sizes", "info", "legal", "link", "link_choices",
        "phase", "phase_id", "players", "rules", "seat", "_streams",
    )

    def __init__(
        self,
        *,
        phase: int,
        players: int,
        seat: NDArray[np.int32],
        game: NDArray[np.int64],
        hand: NDArray[np.int8],
        legal: NDArray[np.bool_],
        info: NDArray[np.int32],
        hand_sizes: NDArray[np.int32],
        alive: NDArray[np.bool_],
        discard: NDArray[np.int16],
        link: NDArray[np.int32],
        link_choices: NDArray[np.bool_],
        rules: RuleSet,
        streams: SeatStreams,
    ) -> None:
        self.phase = L.PHASE_NAMES[phase]
        self.phase_id = phase
        self.players = players
        self.seat = _read_only(seat)
        """Acting seat per row."""
        self.game = _read_only(game)
        """Global game index of each row."""
        self.hand = _read_only(hand)
        """``[n, N_TYPES]`` own cards per type."""
        self.legal = _read_only(legal)
        """``[n, N_TYPES]`` cards that may be played (``turn``, ``drawn``) or added (``pileup``)."""
        self.info = _read_only(info)
        """``[n, N_INFO]`` the table fields behind the named properties below (``layout.I_*``)."""
        self.hand_sizes = _read_only(hand_sizes)
        """``[n, players]`` hand size of every seat."""
        self.alive = _read_only(alive)
        """``[n, players]`` seats still in the match (every seat, except in ``elimination`` matches, E-4)."""
        self.discard = _read_only(discard)
        """``[n, N_TYPES]`` counts of the discard pile, top card included."""
        self.link = _read_only(link)
        """``[n, 2]`` linked seats (-1 where there is no link)."""
        self.link_choices = _read_only(link_choices)
        """``[n, players]`` seats a Wild Drawn Together may link now (P-6): every seat still in the
        match, except the current pair's under ``relink_must_differ``."""
        self.rules = rules
        """The rule set of the game (:class:`~unosim.rules.RuleSet`, frozen)."""
        self._streams = streams

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
        u = self._streams.draw(1 if k is None else k)
        return u[:, 0] if k is None else u

    def copy(self) -> Observation:
        """A read-only copy sharing nothing with this observation but the random streams."""
        return self.subset(np.arange(len(self.seat)))

    def subset(self, rows: NDArray[np.bool_] | NDArray[np.intp]) -> Observation:
        """The observation restricted to ``rows`` (a mask or indices)."""
        rows = np.flatnonzero(rows) if rows.dtype == bool else rows.astype(np.intp)
        return Observation(
            phase=self.phase_id, players=self.players, seat=self.seat[rows], game=self.game[rows],
            hand=self.hand[rows], legal=self.legal[rows], info=self.info[rows], hand_sizes=self.hand_sizes[rows],
            alive=self.alive[rows], discard=self.discard[rows], link=self.link[rows],
            link_choices=self.link_choices[rows], rules=self.rules, streams=self._streams.subset(rows),
        )
