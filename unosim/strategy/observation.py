"""What a strategy sees: a batch of decisions, public information only.

An [`Observation`][unosim.strategy.Observation] covers ``n`` decision rows of one phase (all asking
the same strategy). Arrays have the row as first axis.

Fair play: every array is a read-only copy made for this call when the
observation is built, and the observation holds nothing else of the engine: no
path from it (or from anything a strategy is given) leads to the engine's
arrays, its run or the other strategies, so nothing hidden (other hands, the
draw pile) is reachable from it, and a kept observation stays unchanged
whatever the engine does next. The rule set is a copy too. Answers are checked
by the engine against its own rows, never against these arrays, and copied out
of the strategy's reach once checked. [`Observation.random`][unosim.strategy.Observation.random] draws from a
copy of the rows' stream counters, which the engine takes back when the call
returns; a kept observation draws from that copy, which changes nothing in the game. What
in-process code can still do (read through frames or the garbage collector) is said in
``docs/fair_play.md``.

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
``rules``          the [`RuleSet`][unosim.RuleSet] of the game (frozen; every player
                   knows the rules)
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..game.kernels import layout as L
from ..game.kernels import rng
from ..game.rules import RuleSet

__all__ = [
    "FIELDS", "Observation", "SeatStreams", "TableFields", "gather_rows", "seat_masks", "seat_rows", "stream_arrays",
]

FIELDS = ("seat", "game", "hand", "legal", "info", "hand_sizes", "alive", "discard", "link", "link_choices")
"""The array fields of an [`Observation`][unosim.strategy.Observation], each a read-only copy made when it is built."""


@njit(cache=True)
def seat_masks(slot, s, players, relink_must_differ):  # pragma: no cover - compiled
    """Bits of slot ``s``'s seats still in the match (E-4) and of the seats a Wild Drawn Together may
    link now (P-6: not the current pair under ``relink_must_differ``)."""
    mask = slot[s, L.F_ALIVE] & ((1 << players) - 1)
    a, b = slot[s, L.F_LINK_A], slot[s, L.F_LINK_B]
    return mask, mask & ~((1 << a) | (1 << b)) if relink_must_differ and a >= 0 else mask


@njit(cache=True)
def seat_rows(slot, game, slots, players, relink_must_differ):  # pragma: no cover - compiled
    """The game index, seats alive and seats linkable (`seat_masks`) of each of the slots ``slots``:
    what the engine checks answers against, read from the batch state without gathering the rest."""
    n = slots.shape[0]
    games = np.empty(n, np.int64)
    alive = np.empty((n, players), np.bool_)
    linkable = np.empty((n, players), np.bool_)
    for r in range(n):
        s = slots[r]
        games[r] = game[s]
        mask, may_link = seat_masks(slot, s, players, relink_must_differ)
        for p in range(players):
            alive[r, p] = (mask >> p) & 1
            linkable[r, p] = (may_link >> p) & 1
    return games, alive, linkable


@njit(cache=True)
def gather_rows(slot, game, keys, hands, hsize, piles, row_slot, row_seat, row_legal, row_info, at, counters, players,
                relink_must_differ):  # pragma: no cover - compiled
    """Every field of an observation of the decision rows ``at`` (indices into the row buffers
    ``row_*``), in one pass over the rows, each into a fresh array of its own: seat, game, hand,
    legal, info, hand sizes, seats alive (E-4), discard (top card included), link, seats linkable
    (P-6: not the current pair under ``relink_must_differ``), the rows' seat-stream keys
    (``rng.seat_key``) and their stream counters (``[n, 1]``, from ``counters[slot, seat]``)."""
    n, n_types, n_info = at.shape[0], hands.shape[2], row_info.shape[1]
    seat_out = np.empty(n, np.int32)
    games = np.empty(n, np.int64)
    hand = np.empty((n, n_types), np.int8)
    legal = np.empty((n, row_legal.shape[1]), np.bool_)
    info = np.empty((n, n_info), np.int32)
    sizes = np.empty((n, players), np.int32)
    alive = np.empty((n, players), np.bool_)
    discard = np.empty((n, n_types), np.int16)
    link = np.empty((n, 2), np.int32)
    linkable = np.empty((n, players), np.bool_)
    seat_keys = np.empty(n, np.uint64)
    ctr = np.empty((n, 1), np.int32)
    for r in range(n):
        i = at[r]
        s, seat = row_slot[i], row_seat[i]
        seat_out[r] = seat
        games[r] = game[s]
        for t in range(n_types):
            hand[r, t] = hands[s, seat, t]
            discard[r, t] = piles[s, L.DISC, t]
        discard[r, slot[s, L.F_TOP]] += 1
        for t in range(legal.shape[1]):
            legal[r, t] = row_legal[i, t]
        for j in range(n_info):
            info[r, j] = row_info[i, j]
        link[r, 0], link[r, 1] = slot[s, L.F_LINK_A], slot[s, L.F_LINK_B]
        mask, may_link = seat_masks(slot, s, players, relink_must_differ)
        for p in range(players):
            sizes[r, p] = hsize[s, p]
            alive[r, p] = (mask >> p) & 1
            linkable[r, p] = (may_link >> p) & 1
        seat_keys[r] = rng.seat_key(keys[s], seat)
        ctr[r, 0] = counters[s, seat]
    return seat_out, games, hand, legal, info, sizes, alive, discard, link, linkable, seat_keys, ctr


@njit(cache=True)
def _stream_uniforms(seat_keys, counters, at, k):  # pragma: no cover - compiled
    """``k`` uniforms of each row's stream: key ``seat_keys[r]``, counter ``counters[at[r], 0]`` (advanced).
    A row whose key or counter is outside its array (streams a strategy rewired) raises ``IndexError``."""
    out = np.empty((at.shape[0], k), np.float64)
    if seat_keys.shape[0] < at.shape[0] or counters.shape[1] < 1:
        raise IndexError("a random stream draws outside its keys or counters")
    for r in range(at.shape[0]):
        if at[r] < 0 or at[r] >= counters.shape[0]:
            raise IndexError("a random stream draws outside its keys or counters")
        for j in range(k):
            out[r, j] = rng.keyed_uniform(seat_keys[r], counters, at[r], 0)
    return out


class SeatStreams:
    """The per-(game, seat) uniform streams of a batch of decision rows (see `unosim.game.kernels.rng`).

    Holds each row's seat-stream key (``rng.seat_key``; never the game's own key, from which the deal
    could be recomputed) and a copy of the rows' draw counters (``[m, 1]``, shared with the streams of
    subsets; ``at`` maps each row to its counter), which [`Observation.random`][unosim.strategy.Observation.random] advances. The
    engine copies the counters back into its own when the decision call returns. The uniforms are
    those of the kernels' ``seat_uniform``, so compiled and Python paths agree.
    """

    __slots__ = ("_at", "_counters", "_keys")

    def __init__(self, seat_keys: NDArray[np.uint64], counters: NDArray[np.int32], at: NDArray[np.intp]) -> None:
        self._keys, self._counters, self._at = seat_keys, counters, at

    def draw(self, k: int) -> NDArray[np.float64]:
        """``k`` uniforms per row, shape ``[n, k]``."""
        return _stream_uniforms(self._keys, self._counters, self._at, k)

    def subset(self, rows: NDArray[np.intp]) -> SeatStreams:
        """The streams of ``rows`` only (drawing from them advances these streams' counters)."""
        return SeatStreams(self._keys[rows], self._counters, self._at[rows])


def stream_arrays(obs: Observation) -> tuple[dict[str, NDArray], NDArray[np.uint64], NDArray[np.int32], NDArray[np.intp]]:
    """What an observation is made of, for code that sends it to another process: its fields (read-only,
    by name), and its streams' seat keys, counters and rows. The counters are the engine's own array,
    which the draws advance: write the counters a copy advanced back into it."""
    streams = obs._streams
    return obs._values, streams._keys, streams._counters, streams._at


class TableFields:
    """Named columns of a decision batch's ``info`` array (``layout.I_*``): the table as the acting
    seat sees it. Shared by [`Observation`][unosim.strategy.Observation] and the engine's own record of the rows."""

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
    """The read-only array field ``name`` (a copy made when the observation was built)."""

    def get(self: Observation) -> NDArray:
        return self._values[name]

    return property(get, doc=doc)


class Observation(TableFields):
    """A batch of decisions of one phase for one strategy (see module doc).

    Made by the engine from copies: every array field is a fresh read-only array.

    Parameters
    ----------
    phase : int
        The decision phase (``layout.PH_*``).
    players : int
        Players at the table.
    rules : RuleSet
        The rule set shown (a copy of the game's).
    values : dict
        One fresh array per name of `FIELDS` (made read-only here).
    streams : SeatStreams
        The rows' random streams.
    """

    __slots__ = ("phase", "phase_id", "players", "rules", "_streams", "_values")

    def __init__(self, phase: int, players: int, rules: RuleSet, values: dict[str, NDArray], streams: SeatStreams) -> None:
        self.phase = L.PHASE_NAMES[phase]
        self.phase_id = phase
        self.players = players
        self.rules = rules
        """The rule set of the game ([`RuleSet`][unosim.RuleSet], frozen; a copy)."""
        self._streams = streams
        self._values = {name: values[name] for name in FIELDS}
        for a in self._values.values():  # fresh arrays owning their data; ``setflags`` costs a third of setting
            a.setflags(write=False)  # ``a.flags.writeable``, which builds a flags object each time

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
        return self.subset(np.arange(len(self)))

    def subset(self, rows: NDArray[np.bool_] | NDArray[np.intp]) -> Observation:
        """The observation restricted to ``rows`` (a mask or indices)."""
        rows = np.flatnonzero(rows) if rows.dtype == bool else rows.astype(np.intp)
        values = {name: value[rows] for name, value in self._values.items()}
        return Observation(self.phase_id, self.players, self.rules, values, self._streams.subset(rows))
