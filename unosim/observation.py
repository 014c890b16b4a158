"""What a strategy sees: a batch of decisions, public information only.

An :class:`Observation` covers ``n`` decision rows of one phase (all asking
the same strategy). Arrays have the row as first axis. Eager fields are views
into the engine's observation buffers (no copy); the rest is gathered on first
access. A strategy must treat every array as read-only.

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
``hand_sizes``     ``[n, players]`` every seat's hand size
``alive``          ``[n, players]`` seats still in the match (all of them, except in
                   ``elimination`` matches, E-4: an eliminated seat holds no card, takes
                   no turn, cannot vote, be pointed at, be linked, jump in or catch)
``discard``        ``[n, N_TYPES]`` the discard pile's counts (top card included)
``link``           ``[n, 2]`` linked seats, -1 where none
``link_choices``   ``[n, players]`` seats that may be linked by a Wild Drawn Together now
                   (all seats still in the match, or all but the current pair under
                   ``relink_must_differ``)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from .kernels import layout as L
from .kernels.rng import seat_uniforms


class Observation:
    """A batch of decisions of one phase for one strategy (see module doc)."""

    def __init__(self, buffers: Any, phase: int, parity: int, index: slice | NDArray[np.intp]) -> None:
        self._b = buffers
        self._parity = parity
        self._index = index
        self.phase = L.PHASE_NAMES[phase]
        self.phase_id = phase
        self.players = buffers.players
        self.slot = buffers.row_slot[parity, index]
        self.seat = buffers.row_seat[parity, index]
        self.hand = buffers.row_hand[parity, index]
        self.legal = buffers.row_legal[parity, index]
        self.info = buffers.row_info[parity, index]
        self._cache: dict[str, NDArray] = {}

    def __len__(self) -> int:
        return int(self.slot.shape[0])

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
    def n(self) -> int:
        """Number of decision rows."""
        return len(self)

    @property
    def game(self) -> NDArray[np.int64]:
        """Global game index of each row."""
        return self._b.game[self.slot]

    @property
    def hand_sizes(self) -> NDArray[np.int32]:
        """``[n, players]`` hand size of every seat."""
        if "hand_sizes" not in self._cache:
            self._cache["hand_sizes"] = self._b.hsize[self.slot]
        return self._cache["hand_sizes"]

    @property
    def alive(self) -> NDArray[np.bool_]:
        """``[n, players]`` seats still in the match (every seat, except in ``elimination`` matches, E-4)."""
        if "alive" not in self._cache:
            mask = self._b.slot[self.slot, L.F_ALIVE]
            self._cache["alive"] = ((mask[:, None] >> np.arange(self.players)) & 1).astype(bool)
        return self._cache["alive"]

    @property
    def discard(self) -> NDArray[np.int16]:
        """``[n, N_TYPES]`` counts of the discard pile, top card included."""
        if "discard" not in self._cache:
            d = self._b.piles[self.slot, L.DISC].astype(np.int16)
            d[np.arange(len(self)), self.top] += 1
            self._cache["discard"] = d
        return self._cache["discard"]

    @property
    def link(self) -> NDArray[np.int32]:
        """``[n, 2]`` linked seats (-1 where there is no link)."""
        return self._b.slot[self.slot][:, [L.F_LINK_A, L.F_LINK_B]]

    @property
    def link_choices(self) -> NDArray[np.bool_]:
        """``[n, players]`` seats a Wild Drawn Together may link now (P-6).

        Every seat still in the match (:attr:`alive`), except the current pair's under
        ``relink_must_differ``.
        """
        allowed = self.alive.copy()
        if self._b.relink_must_differ:
            link = self.link
            rows = np.flatnonzero(link[:, 0] >= 0)
            allowed[rows, link[rows, 0]] = False
            allowed[rows, link[rows, 1]] = False
        return allowed

    def random(self, k: int | None = None) -> NDArray[np.float64]:
        """Uniforms in [0, 1) from each row's own (game, seat) stream.

        ``k=None`` gives one per row (shape ``[n]``), else shape ``[n, k]``.
        Drawing from these streams (never from a shared generator) keeps
        results independent of batch size and chunking.
        """
        u = seat_uniforms(self._b.keys, self._b.seat_ctr, self.slot, self.seat, 1 if k is None else k)
        return u[:, 0] if k is None else u

    def subset(self, rows: NDArray[np.bool_] | NDArray[np.intp]) -> Observation:
        """The observation restricted to ``rows`` (a mask or indices)."""
        rows = np.flatnonzero(rows) if rows.dtype == bool else rows
        if isinstance(self._index, slice):
            index = np.arange(self._index.start, self._index.stop)[rows]
        else:
            index = self._index[rows]
        return Observation(self._b, self.phase_id, self._parity, index)
