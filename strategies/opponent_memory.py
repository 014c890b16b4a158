"""What the opponent of a 2-player game is known to lack, remembered per game (``tunable``'s ``lack_*`` parameters).

An opponent who never draws while holding a playable card (``random``, ``tunable``, most built-ins) and
draws one card that it cannot play has just shown that it holds **no card of the active colour, none
with the top card's face, and no wild** (the card drawn included). `LackMemory` watches each game
from one seat's turn observations and infers exactly that: between two of this seat's turns, either the
opponent's hand grew by exactly one card, nothing was added to the discard pile and the table is still
the one the opponent faced after this seat's own move (it drew and could not play), or its hand size is
unchanged and one card that passes the turn (a number or a plain wild) was played (it drew that card and
played it: its hand before, which is its hand now, answered nothing). The knowledge then ages with every card the
opponent takes into its hand (each may bring the colour back), and is dropped for a colour or face the
opponent is seen to play.

Memory is kept per (game, seat), in arrays; an entry is trusted only if it is consistent with the new
observation (own hand and discard pile can only have grown since this seat's last move: a reshuffled
draw pile, a mini pile or a new game with the same index all fail the check and start afresh), and only
if it was touched recently (a live 2-player game comes back to a seat within `STALE_CALLS` calls),
so that a strategy object reused for another run of the same game indices (common random numbers)
starts each game afresh, and results do not depend on how games are batched or split across workers.

With ``posterior=True`` each entry also keeps a posterior over the opponent's whole hand
(`unosim.strategies.hand_groups`), moved on by the same observations (`LackMemory.answers`).

`TableLackMemory` infers the same for every other seat at any table size, from the stretches between two turns
of the seat in which every other seat moved once, in order (the ``lacks`` of ``search``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

from unosim.game.cards import (
    CARD_COLOUR,
    CARD_FACE,
    DRAW_TWO,
    FACES_PER_COLOUR,
    N_COLOURED,
    N_COLOURS,
    N_TYPES,
    SKIP,
    WILD_DRAW_FOUR,
    load_deck,
)
from unosim.strategy.observation import Observation

from .bluffer import decks_in_view
from .hand_groups import GROUPS, PLAY_TILT, advance, answer_chances, forget

__all__ = ["block_chances", "LackMemory", "STALE_CALLS", "TableLackMemory", "UNKNOWN", "unseen_cards", "WILDS"]

STALE_CALLS = 128
"""An entry untouched for this many `LackMemory.observe` calls belongs to a finished game."""
UNKNOWN = -1
"""Lack counter value: nothing known (else: cards the opponent has taken since it was seen to lack)."""
WILDS = FACES_PER_COLOUR
"""Column of the face lacks that stands for every wild."""
_COLOUR = CARD_COLOUR.astype(np.int64)
_CONTINUES = np.zeros(N_TYPES + 1, bool)
"""Indexed by card + 1 (0: no card): the cards after which the 2-player opponent has no turn (Skip, Reverse,
Draw Two, Wild Draw Four)."""
_CONTINUES[1 + np.flatnonzero((CARD_FACE >= SKIP) & (CARD_FACE <= DRAW_TWO) & (CARD_COLOUR >= 0))] = True
_CONTINUES[1 + WILD_DRAW_FOUR] = True


@njit(cache=True)
def _update(idx, hand, disc, opp_size, top, colour, oldest, tick, hand_after, disc_after, opp_after, top_after,
            colour_after, lack_colour, lack_face):  # pragma: no cover - compiled
    """Age and extend each row's entry from what happened since this seat's last move; True where the
    entry is absent, stale (touched before call ``oldest``) or inconsistent (own hand or discard pile shrank)."""
    n = idx.shape[0]
    reset = np.zeros(n, np.bool_)
    played_colour = np.zeros(N_COLOURS, np.bool_)
    played_face = np.zeros(FACES_PER_COLOUR + 1, np.bool_)
    for r in range(n):
        i = idx[r]
        if i < 0 or tick[i] < oldest:
            reset[r] = True
            continue
        plays = 0
        last = -1
        ok = True
        played_colour[:] = False
        played_face[:] = False
        for t in range(N_TYPES):
            d = disc[r, t] - disc_after[i, t]
            if d < 0 or hand[r, t] < hand_after[i, t]:
                ok = False
                break
            if d > 0:
                plays += d
                last = t
                if t < N_COLOURED:
                    played_colour[t // FACES_PER_COLOUR] = True
                    played_face[t % FACES_PER_COLOUR] = True
                else:
                    played_face[WILDS] = True
        if not ok:
            reset[r] = True
            continue
        grew = opp_size[r] - opp_after[i]
        taken = max(grew + plays, 0)
        for c in range(N_COLOURS):
            if played_colour[c] or lack_colour[i, c] < 0:
                lack_colour[i, c] = UNKNOWN
            else:
                lack_colour[i, c] += taken
        for f in range(FACES_PER_COLOUR + 1):
            if played_face[f] or lack_face[i, f] < 0:
                lack_face[i, f] = UNKNOWN
            else:
                lack_face[i, f] += taken
        # the opponent drew one card and could not play it, or drew one and played it (a card that passes the turn):
        # either way it held nothing to answer the table it faced
        drew = grew == 1 and plays == 0 and top[r] == top_after[i] and colour[r] == colour_after[i]
        drew |= grew == 0 and plays == 1 and (last == N_COLOURED or (last < N_COLOURED and last % FACES_PER_COLOUR < 10))
        if drew and colour_after[i] >= 0:
            lack_colour[i, colour_after[i]] = 0
            if top_after[i] < N_COLOURED:
                lack_face[i, top_after[i] % FACES_PER_COLOUR] = 0
            lack_face[i, WILDS] = 0
    return reset


class LackMemory:
    """Per-(game, seat) memory of the colours and faces the 2-player opponent lacks.

    Use: `observe` on every ``turn`` observation (returns the entry of each row and updates the
    inference), then `moved` with the card played (or -1, drawing), `drawn_played` when a
    drawn card is played, `named` with the colour chosen for a wild.

    Parameters
    ----------
    capacity : int
        Entries allocated at first (the arrays grow when all are live).
    posterior : bool
        Also keep the posterior over the opponent's hand (`answers`).
    """

    key: NDArray[np.int64]
    tick: NDArray[np.int64]
    hand_after: NDArray[np.int16]
    disc_after: NDArray[np.int16]
    opp_after: NDArray[np.int32]
    top_after: NDArray[np.int32]
    colour_after: NDArray[np.int32]
    card_after: NDArray[np.int32]
    group_size: NDArray[np.int16]
    group_weight: NDArray[np.float64]
    lack_colour: NDArray[np.int32]
    lack_face: NDArray[np.int32]

    def __init__(self, capacity: int = 1024, posterior: bool = False) -> None:
        self.index: dict[int, int] = {}
        self.calls = 0
        self.posterior = posterior
        self._next = 0
        self._alloc(capacity)

    def _alloc(self, capacity: int) -> None:
        """(Re)allocate the entry arrays at ``capacity``, keeping the entries held so far."""
        fresh: dict[str, NDArray[Any]] = {
            "key": np.full(capacity, -1, np.int64),
            "tick": np.zeros(capacity, np.int64),
            "hand_after": np.zeros((capacity, N_TYPES), np.int16),  # own hand after the last move (it only grows)
            "disc_after": np.zeros((capacity, N_TYPES), np.int16),  # the discard pile after it (it only grows)
            "opp_after": np.zeros(capacity, np.int32),  # the opponent's hand size then
            "top_after": np.zeros(capacity, np.int32),  # the table the opponent faced
            "colour_after": np.zeros(capacity, np.int32),
            "lack_colour": np.full((capacity, N_COLOURS), UNKNOWN, np.int32),
            "lack_face": np.full((capacity, FACES_PER_COLOUR + 1), UNKNOWN, np.int32),  # the last: wilds
            "card_after": np.full(capacity, -1, np.int32),  # the card this seat put down last (-1: none)
            # the posterior (strategies/hand_groups.py): cards per group, the weight of each card type in it
            "group_size": np.zeros((capacity, GROUPS if self.posterior else 0), np.int16),
            "group_weight": np.ones((capacity, GROUPS if self.posterior else 0, N_TYPES), np.float64),
        }
        for name, arr in fresh.items():
            old = getattr(self, name, None)
            if old is not None:
                arr[: len(old)] = old
            setattr(self, name, arr)

    def _grow(self) -> None:
        n = len(self.key)
        self._alloc(2 * n)
        self._next = n

    def _slot(self, key: int) -> int:
        """A free entry for ``key``: the oldest one, unless it is still live (then the arrays grow)."""
        i = self._next
        if self.key[i] >= 0 and self.calls - self.tick[i] < STALE_CALLS:
            self._grow()
            i = self._next
        if self.key[i] >= 0:
            del self.index[int(self.key[i])]
        self.key[i] = key
        self.index[key] = i
        self._next = (i + 1) % len(self.key)
        return i

    def rows(self, obs: Observation, create: bool) -> NDArray[np.int64]:
        """The entry of each row of ``obs`` (-1 where none and ``create`` is False)."""
        keys = (obs.game.astype(np.int64) * 16 + obs.seat).tolist()
        get = self.index.get
        idx = [get(k, -1) for k in keys]
        if create:
            idx = [self._slot(k) if i < 0 else i for k, i in zip(keys, idx, strict=True)]
        return np.asarray(idx, np.int64)

    def observe(self, obs: Observation, opponent: NDArray[np.integer]) -> NDArray[np.int64]:
        """Update the inference from a ``turn`` observation; the entry of each row.

        ``opponent`` is the opponent's seat per row. Entries that are new, stale or inconsistent with
        the observation start with nothing known.
        """
        self.calls += 1
        idx = self.rows(obs, create=False)
        opp_size = obs.hand_sizes[np.arange(len(obs)), opponent].astype(np.int32)
        reset = _update(idx, obs.hand, obs.discard, opp_size, obs.top, obs.colour, self.calls - STALE_CALLS, self.tick,
                        self.hand_after, self.disc_after, self.opp_after, self.top_after, self.colour_after,
                        self.lack_colour, self.lack_face)
        new = np.flatnonzero(reset)
        if len(new):
            idx[new] = self.rows(obs.subset(new), create=True)
            self.lack_colour[idx[new]] = UNKNOWN
            self.lack_face[idx[new]] = UNKNOWN
        if self.posterior:
            self._advance(obs, idx, reset, opp_size)
        self.tick[idx] = self.calls
        self.opp_after[idx] = opp_size
        return idx

    def _advance(self, obs: Observation, idx: NDArray[np.int64], reset: NDArray[np.bool_],
                 opp_size: NDArray[np.int32]) -> None:
        """Update the posterior of the entries ``idx`` over the opponent's moves since this seat's last one
        (`advance`); nothing known where ``reset`` or where the moves
        could not be reconstructed."""
        old = np.flatnonzero(~reset)
        failed = np.zeros(0, np.int64)
        unseen = unseen_cards(obs)
        if len(old):
            n = len(obs)
            i = idx[old]
            played = np.zeros((n, N_TYPES), np.int64)
            played[old] = obs.discard[old] - self.disc_after[i]
            took = np.zeros(n, np.int64)
            took[old] = opp_size[old] - self.opp_after[i] + played[old].sum(axis=1)
            turn = np.zeros(n, bool)
            turn[old] = ~_CONTINUES[self.card_after[i] + 1]
            top = np.zeros(n, np.int64)
            top[old] = self.top_after[i]
            colour = np.zeros(n, np.int64)
            colour[old] = self.colour_after[i]
            failed = old[advance(self.group_size, self.group_weight, idx, old, unseen + played, played, opp_size, took, turn, top,
                                 colour, obs.colour.astype(np.int64), PLAY_TILT)]
        fresh = np.concatenate([np.flatnonzero(reset), failed])
        if len(fresh):
            forget(self.group_size, self.group_weight, idx, fresh, opp_size)
            self._opening(obs, idx, fresh, opp_size, unseen)

    def _opening(self, obs: Observation, idx: NDArray[np.int64], fresh: NDArray[np.int64],
                 opp_size: NDArray[np.int32], unseen: NDArray[np.int64]) -> None:
        """Where the opponent moved first, replay that move on its dealt hand (as many cards as this seat's):
        the discard pile holds the starting card and at most one card it played, and it took at most one card
        (it played from its hand on the starting card, drew and played, or drew and kept). ``unseen``: the
        cards this seat has not seen."""
        n = len(obs)
        plays = obs.discard.sum(axis=1, dtype=np.int64) - 1
        took = opp_size.astype(np.int64) + plays - obs.hand_size
        first = fresh[(plays[fresh] <= 1) & (took[fresh] >= 0) & (took[fresh] <= 1) & (plays[fresh] + took[fresh] > 0)]
        if not len(first):
            return
        played = np.zeros((n, N_TYPES), np.int64)
        one = first[plays[first] == 1]
        played[one, obs.top[one]] = 1
        start = np.zeros(n, np.int64)
        start[first] = np.argmax(obs.discard[first] - played[first], axis=1)
        forget(self.group_size, self.group_weight, idx, first, obs.hand_size.astype(np.int64))
        failed = first[advance(self.group_size, self.group_weight, idx, first, unseen + played, played, opp_size, took,
                               np.ones(n, bool), start, _COLOUR[start], obs.colour.astype(np.int64), PLAY_TILT)]
        forget(self.group_size, self.group_weight, idx, failed, opp_size)

    def answers(self, obs: Observation, idx: NDArray[np.int64], unseen: NDArray[np.int64] | None = None
                ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The posterior chance that the opponent can play nothing on each card and on a wild of each colour
        (as `block_chances`, from the groups of the entries ``idx``; needs ``posterior``; ``unseen`` as
        there)."""
        return answer_chances(self.group_size, self.group_weight, idx, unseen_cards(obs) if unseen is None else unseen)

    def moved(self, obs: Observation, idx: NDArray[np.int64], cards: NDArray[np.integer]) -> None:
        """Record this seat's move (``cards``: the card played, -1 for a draw) on the entries ``idx``."""
        cards = np.asarray(cards, np.int64)
        self.card_after[idx] = cards
        hand = obs.hand.astype(np.int16)
        disc = obs.discard.astype(np.int16)
        p = np.flatnonzero(cards >= 0)
        hand[p, cards[p]] -= 1
        disc[p, cards[p]] += 1
        self.hand_after[idx] = hand
        self.disc_after[idx] = disc
        self.top_after[idx] = np.where(cards >= 0, cards, obs.top)
        played_colour = np.where(cards >= 0, _COLOUR[np.maximum(cards, 0)], obs.colour)
        self.colour_after[idx] = np.where((cards >= 0) & (played_colour < 0), -2, played_colour)  # -2: named later

    def current(self, obs: Observation, wilds: NDArray[np.integer] | None = None) -> NDArray[np.int64]:
        """The entry of each row recorded by this seat's move in progress (its turn observed, then
        `moved`), else -1: the discard pile is the one recorded, or with ``wilds`` (the wild of each
        row whose colour is asked, -1 for none) the one recorded without that wild, which awaits its
        colour. An entry of another game with the same index is thus never taken for this one."""
        idx = self.rows(obs, create=False)
        ok = idx >= 0
        i = np.maximum(idx, 0)
        expected = self.disc_after[i]
        if wilds is not None:
            wilds = np.asarray(wilds, np.int64)
            ok &= (wilds >= 0) & (self.colour_after[i] == -2)
            expected = expected.copy()
            expected[np.arange(len(idx)), np.maximum(wilds, 0)] -= 1
        ok &= (expected == obs.discard).all(axis=1)
        return np.where(ok, idx, -1)

    def drawn_played(self, obs: Observation, play: NDArray[np.bool_]) -> None:
        """Record the drawn cards played (``play``) on the rows' entries."""
        idx = self.current(obs)
        p = np.flatnonzero(np.asarray(play, bool) & (idx >= 0))
        idx = idx[p]
        cards = obs.drawn[p].astype(np.int64)
        self.card_after[idx] = cards
        self.disc_after[idx, cards] += 1
        self.top_after[idx] = cards
        self.colour_after[idx] = np.where(_COLOUR[cards] >= 0, _COLOUR[cards], -2)

    def named(self, obs: Observation, idx: NDArray[np.int64], colours: NDArray[np.integer]) -> None:
        """Record the colour named for a wild on the entries ``idx`` (from `current`; -1: none)."""
        ok = idx >= 0
        self.colour_after[idx[ok]] = np.asarray(colours, np.int64)[ok]

    def known(self, idx: NDArray[np.int64], forget: float) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
        """``[n, 4]`` colours and ``[n, 15]`` faces (the last: any wild) the opponent is known to lack,
        having taken at most ``forget`` cards since."""
        lc, lf = self.lack_colour[idx], self.lack_face[idx]
        return (lc >= 0) & (lc <= forget), (lf >= 0) & (lf <= forget)

    def taken(self, idx: NDArray[np.int64]) -> NDArray[np.int64]:
        """Cards the opponent has taken since the last lack was learnt (0 when none is known)."""
        ages = np.concatenate([self.lack_colour[idx], self.lack_face[idx]], axis=1)
        ages = np.where(ages >= 0, ages, np.iinfo(np.int32).max)
        youngest = ages.min(axis=1).astype(np.int64)
        return np.where(youngest < np.iinfo(np.int32).max, youngest, 0)


_CLASSIC = np.asarray(load_deck("classic").counts, np.int64)
_TYPE_COLOUR = np.zeros((N_TYPES, N_COLOURS), np.int64)
_TYPE_COLOUR[np.arange(N_COLOURED), np.arange(N_COLOURED) // FACES_PER_COLOUR] = 1
_TYPE_FACE = np.zeros((N_TYPES, FACES_PER_COLOUR + 1), np.int64)
_TYPE_FACE[np.arange(N_COLOURED), np.arange(N_COLOURED) % FACES_PER_COLOUR] = 1
_TYPE_FACE[N_COLOURED:, WILDS] = 1


def unseen_cards(obs: Observation) -> NDArray[np.int64]:
    """``[n, N_TYPES]`` cards not in the own hand nor on the discard pile, of as many whole classic decks as
    ``obs`` shows (`decks_in_view`)."""
    return np.maximum(decks_in_view(obs)[:, None] * _CLASSIC[None] - obs.hand - obs.discard, 0)


def block_chances(obs: Observation, opponent: NDArray[np.integer], lack_colour: NDArray[np.bool_],
                  lack_face: NDArray[np.bool_], taken: NDArray[np.integer] | None = None,
                  unseen: NDArray[np.int64] | None = None) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Chance that the opponent can play nothing on each card, and on a wild of each colour.

    The opponent's hand is taken to be a uniform draw from the cards this seat has not seen (whole classic
    decks, as `colour_unseen_shares`): all but ``taken`` of its cards
    (the cards it took since its lacks were learnt; default 0) from them without the colours and faces it
    is known to lack (``lack_colour`` ``[n, 4]``, ``lack_face`` ``[n, 15]``, the last column: wilds), the
    others from all of them. A card of colour c and face f is answered by any card of colour c, any of
    face f and any wild; a wild naming c by colour c and wilds. ``unseen``: the unseen cards per type, when
    the caller has them already.

    Returns
    -------
    coloured : ``[n, N_COLOURED]`` float, the chance per coloured card type
    named : ``[n, 4]`` float, the chance per colour named for a wild
    """
    n = len(obs)
    unseen = unseen_cards(obs) if unseen is None else unseen
    held = obs.hand_sizes[np.arange(n), opponent].astype(np.int64)
    fresh = np.zeros(n, np.int64) if taken is None else np.minimum(np.asarray(taken, np.int64), held)
    excluded = (lack_colour.astype(np.int64) @ _TYPE_COLOUR.T) + (lack_face.astype(np.int64) @ _TYPE_FACE.T) > 0
    # two groups of the posterior's form (strategies/hand_groups.py): the kept cards, without the lacks; the fresh ones
    size = np.stack([held - fresh, fresh], axis=1).astype(np.int16)
    weight = np.ones((n, 2, N_TYPES))
    weight[:, 0][excluded] = 0.0
    return answer_chances(size, weight, np.arange(n), unseen)


_PASSES = np.zeros(N_TYPES + 1, bool)
"""Indexed by card + 1 (0: a draw): the moves after which the next seat in the direction of play moves (a draw, a
number, a plain Wild), so that between two turns of a seat every other seat moves once, in order."""
_PASSES[0] = True
_PASSES[1 + np.flatnonzero((CARD_FACE <= 9) & (CARD_COLOUR >= 0))] = True
_PASSES[1 + N_COLOURED] = True


class TableLackMemory(LackMemory):
    """Per-(game, seat) memory of the colours and faces each other seat lacks, at any table size.

    Between two turns of this seat, when every card put down (this seat's last one included) passes the turn on
    (a number or a plain Wild, or nothing: a draw) and every seat is still in the round, every other seat moved
    once, in the direction of play: a seat whose hand grew by one drew and kept the card, one whose hand is the
    same size drew and played the card drawn, one whose hand shrank by one played from its hand. The two drawing
    ones showed that they hold no card answering the table they faced; that table is known for the seats that
    moved before the first card was put down (the table this seat left) or after the last one (the table now).
    A lack ages by the cards the seat takes into its hand (every card it took, exactly, in such a stretch; at
    most its hand's growth plus every card put down, otherwise), and an entry that is absent, stale or
    inconsistent (own hand or discard pile shrank) starts with nothing known.

    Use: `observe` on every ``turn`` observation, then `moved` with the card played (or -1, drawing),
    `drawn_played` when a drawn card is played, `named` with the colour chosen for a wild (as `LackMemory`);
    `known` gives the lacks per seat.

    Parameters
    ----------
    players : int
        Seats at the table.
    capacity : int
        Entries allocated at first (the arrays grow when all are live).
    """

    sizes_after: NDArray[np.int32]
    seat_colour: NDArray[np.int32]
    seat_face: NDArray[np.int32]

    def __init__(self, players: int, capacity: int = 1024) -> None:
        self.players = players
        super().__init__(capacity)

    def _alloc(self, capacity: int) -> None:
        super()._alloc(capacity)
        fresh: dict[str, NDArray[Any]] = {
            "sizes_after": np.zeros((capacity, self.players), np.int32),  # every hand size after this seat's move
            "seat_colour": np.full((capacity, self.players, N_COLOURS), UNKNOWN, np.int32),
            "seat_face": np.full((capacity, self.players, FACES_PER_COLOUR + 1), UNKNOWN, np.int32),  # the last: wilds
        }
        for name, arr in fresh.items():
            old = getattr(self, name, None)
            if old is not None:
                arr[: len(old)] = old
            setattr(self, name, arr)

    def observe(self, obs: Observation, opponent: NDArray[np.integer] | None = None) -> NDArray[np.int64]:
        """Update the inference from a ``turn`` observation; the entry of each row."""
        self.calls += 1
        n = len(obs)
        idx = self.rows(obs, create=False)
        reset = np.zeros(n, bool)
        for r in range(n):
            i = int(idx[r])
            if i < 0 or self.tick[i] < self.calls - STALE_CALLS:
                reset[r] = True
                continue
            played = obs.discard[r].astype(np.int64) - self.disc_after[i]
            if (played < 0).any() or (obs.hand[r] < self.hand_after[i]).any():
                reset[r] = True
                continue
            self._step(i, obs, r, played)
        new = np.flatnonzero(reset)
        if len(new):
            idx[new] = self.rows(obs.subset(new), create=True)
            self.seat_colour[idx[new]] = UNKNOWN
            self.seat_face[idx[new]] = UNKNOWN
        self.tick[idx] = self.calls
        self.sizes_after[idx] = obs.hand_sizes
        return idx

    def _step(self, i: int, obs: Observation, r: int, played: NDArray[np.int64]) -> None:
        """Age and extend entry ``i`` from what happened since this seat's last move (observation row ``r``)."""
        players, me = self.players, int(obs.seat[r])
        grew = obs.hand_sizes[r].astype(np.int64) - self.sizes_after[i]
        grew[me] = 0
        puts = int(played.sum())
        order = [(me + k * int(obs.direction[r])) % players for k in range(1, players)]
        cards = np.flatnonzero(played)
        clean = (_PASSES[int(self.card_after[i]) + 1] and bool(_PASSES[cards + 1].all()) and bool(obs.alive[r].all())
                 and self.colour_after[i] >= 0 and all(-1 <= grew[p] <= 1 for p in order)
                 and sum(grew[p] <= 0 for p in order) == puts)
        colour, face = self.seat_colour[i], self.seat_face[i]
        if not clean:  # each seat took at most its growth plus every card put down
            taken = np.maximum(grew + puts, 0)
            colour[:] = np.where(colour >= 0, colour + taken[:, None], UNKNOWN)
            face[:] = np.where(face >= 0, face + taken[:, None], UNKNOWN)
            return
        before = 0
        for p in order:
            took = 1 if grew[p] >= 0 else 0
            colour[p] = np.where(colour[p] >= 0, colour[p] + took, UNKNOWN)
            face[p] = np.where(face[p] >= 0, face[p] + took, UNKNOWN)
            if grew[p] >= 0:  # it drew: it held nothing answering the table it faced
                table = None
                if before == 0:
                    table = (int(self.top_after[i]), int(self.colour_after[i]))
                elif before == puts:
                    table = (int(obs.top[r]), int(obs.colour[r]))
                if table is not None and table[1] >= 0:
                    colour[p, table[1]] = 0
                    if table[0] < N_COLOURED:
                        face[p, table[0] % FACES_PER_COLOUR] = 0
                    face[p, WILDS] = 0
            before += grew[p] <= 0

    def seat_lacks(self, idx: NDArray[np.int64], forget: float) -> tuple[NDArray[np.bool_], NDArray[np.bool_], NDArray[np.int64]]:
        """``[n, players, 4]`` colours and ``[n, players, 15]`` faces (the last: any wild) each seat is known to
        lack, having taken at most ``forget`` cards since, and ``[n, players]`` the most cards it took since any
        of them was learnt (0 when none is known)."""
        lc, lf = self.seat_colour[idx], self.seat_face[idx]
        colour, face = (lc >= 0) & (lc <= forget), (lf >= 0) & (lf <= forget)
        ages = np.concatenate([np.where(colour, lc, 0), np.where(face, lf, 0)], axis=2).max(axis=2)
        return colour, face, ages.astype(np.int64)
