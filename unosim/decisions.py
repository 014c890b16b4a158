"""Asking the strategies and checking their answers.

:class:`Decisions` asks each strategy for the decisions of its rows, one call per
(phase, strategy) group, and checks every answer against the engine's own record
of the rows (:class:`Rows`), never against what the strategy was shown. A wrong
shape, an illegal card or seat, or an exception is stopped with a
:class:`StrategyError` naming the strategy, the decision and the game.
"""

from __future__ import annotations

import traceback
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .batch import Buffers
from .cards import CARD_NAMES, N_TYPES, NAMES_A_COLOUR, WILD_DRAW_FOUR, WILD_DRAWN_TOGETHER
from .fast_paths import asks_forget_uno
from .kernels import layout as L
from .observation import Observation, SeatStreams, TableFields, gather_public
from .primitives import first_illegal_card
from .strategy import Strategy

__all__ = ["Decisions", "Rows", "StrategyError"]

_NEEDS_COLOUR = np.zeros(N_TYPES + 1, bool)  # index -1 (draw) maps to the last entry
_NEEDS_COLOUR[list(NAMES_A_COLOUR)] = True


class StrategyError(RuntimeError):
    """A strategy returned an illegal or ill-shaped decision, or raised an exception."""


class Rows(TableFields):
    """The engine's own record of a group of decision rows (one phase, one strategy).

    Answers are checked against these arrays (the engine's row buffers), never against
    what a strategy was shown: :meth:`observe` builds the strategy's
    :class:`~unosim.observation.Observation` from fresh read-only copies.
    """

    def __init__(self, b: Buffers, phase: int, slots: NDArray[np.int32], seat: NDArray[np.int32], hand: NDArray[np.int8],
                 legal: NDArray[np.bool_], info: NDArray[np.int32]) -> None:
        self._b = b
        self.phase, self.slots, self.seat, self.hand, self.legal, self.info = phase, slots, seat, hand, legal, info
        self.players = b.players

    def __len__(self) -> int:
        return int(self.slots.shape[0])

    def subset(self, rows: NDArray[np.intp]) -> Rows:
        """The rows ``rows`` (indices) of this group."""
        return Rows(self._b, self.phase, self.slots[rows], self.seat[rows], self.hand[rows], self.legal[rows], self.info[rows])

    def observe(self) -> Observation:
        """What the strategy sees: public information of these rows, in fresh read-only arrays."""
        b = self._b
        games, sizes, alive, link, choices, discard = gather_public(
            b.slot, b.hsize, b.piles, b.game, self.slots, self.info, b.relink_must_differ
        )
        return Observation(
            phase=self.phase, players=self.players, seat=self.seat.copy(), game=games, hand=self.hand.copy(),
            legal=self.legal.copy(), info=self.info.copy(), hand_sizes=sizes, alive=alive, discard=discard, link=link,
            link_choices=choices, rules=b.rules, streams=SeatStreams.of_rows(b.keys, b.seat_ctr, self.slots, self.seat),
        )

    @property
    def game(self) -> NDArray[np.int64]:
        """Global game index of each row."""
        return self._b.game[self.slots]

    @property
    def alive(self) -> NDArray[np.bool_]:
        """``[n, players]`` seats still in the match, from the engine's state."""
        return ((self._b.slot[self.slots, L.F_ALIVE, None] >> np.arange(self.players)) & 1).astype(bool)

    @property
    def link_choices(self) -> NDArray[np.bool_]:
        """Seats a Wild Drawn Together may link now (P-6), from the engine's state."""
        allowed = self.alive
        if self._b.relink_must_differ:
            link = self._b.slot[self.slots][:, [L.F_LINK_A, L.F_LINK_B]]
            linked = np.flatnonzero(link[:, 0] >= 0)
            allowed[linked, link[linked, 0]] = False
            allowed[linked, link[linked, 1]] = False
        return allowed


class Decisions:
    """The strategies of a line-up, asked for their decisions and checked.

    Parameters
    ----------
    strategies : list of Strategy
        One object per distinct strategy of the line-up.
    labels : list of str
        Their names in error messages.
    """

    def __init__(self, strategies: list[Strategy], labels: list[str]) -> None:
        self.strategies = list(strategies)
        self.strategy_labels = list(labels)
        self.asks_forget_uno = [asks_forget_uno(strat) for strat in self.strategies]

    def decide(self, b: Buffers, parity: int) -> None:
        """Ask every strategy for the decisions of its rows in buffer ``parity`` of ``b``; write the
        checked answers into ``b``'s decision rows."""
        ns = len(self.strategies)
        counts = b.group_count.tolist()
        bases = b.group_base.tolist()
        for grp, count in enumerate(counts):
            if count == 0:
                continue
            lo = bases[grp]
            phase, k = divmod(grp, ns)
            obs = Rows(b, phase, b.row_slot[parity, lo : lo + count], b.row_seat[parity, lo : lo + count],
                       b.row_hand[parity, lo : lo + count], b.row_legal[parity, lo : lo + count], b.row_info[parity, lo : lo + count])
            if phase == L.PH_JUMPIN:
                self._jumpin(self.strategies[k], k, obs, b.dec[parity, lo : lo + count], b.dec_w[parity, lo : lo + count])
            else:
                _DISPATCH[phase](self, self.strategies[k], k, obs, b.dec[parity, lo : lo + count])

    def _ask(self, k: int, decision: str, rows: Rows, *args: Any) -> Any:
        """Call strategy ``k``'s ``decision`` on a fresh read-only observation of ``rows``; an
        exception it raises becomes a :class:`StrategyError` naming the strategy, the decision,
        the game and seat, with the traceback frames of the strategy's own code."""
        method = getattr(self.strategies[k], decision)
        try:
            return method(rows.observe(), *args)
        except Exception as exc:
            frames = traceback.extract_tb(exc.__traceback__)[1:]  # drop this frame: the rest is the strategy's
            row = _culprit(method, rows, args)
            where = f"a batch of {len(rows)} decisions" if row < 0 else f"game {int(rows.game[row])} (seat {int(rows.seat[row])})"
            raise StrategyError(
                f"strategy {self.strategy_labels[k]!r} raised {type(exc).__name__} in {decision!r} in {where}: {exc}\n"
                "In the strategy's code (most recent call last):\n" + "".join(traceback.format_list(frames)).rstrip()
            ) from None

    def _fail(self, k: int, decision: str, obs: Rows, row: int, what: str) -> StrategyError:
        game = int(obs.game[row]) if row >= 0 else -1
        where = f"game {game} (seat {int(obs.seat[row])})" if row >= 0 else f"a batch of {len(obs)} decisions"
        return StrategyError(f"strategy {self.strategy_labels[k]!r} returned an illegal decision for {decision!r} in {where}: {what}")

    def _array(self, k: int, decision: str, obs: Rows, value: Any, shape: tuple[int, ...]) -> NDArray[Any]:
        arr = np.asarray(value)
        if arr.shape != shape:
            raise self._fail(k, decision, obs, -1, f"expected an array of shape {shape}, got shape {arr.shape}")
        if arr.dtype.kind not in "biuf":
            raise self._fail(k, decision, obs, -1, f"expected numbers, got dtype {arr.dtype}")
        if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
            row = int(np.flatnonzero(~np.isfinite(arr).reshape(len(obs), -1).all(axis=1))[0])
            raise self._fail(k, decision, obs, row, "value is not finite")
        return arr

    def _whole(self, k: int, decision: str, obs: Rows, value: Any, shape: tuple[int, ...]) -> NDArray[np.int64]:
        """``value`` as whole numbers (cards, seats, colours), checked like :meth:`_array`."""
        arr = self._array(k, decision, obs, value, shape)
        if arr.dtype.kind == "f" and np.any(arr != np.round(arr)):
            raise self._fail(k, decision, obs, -1, "expected whole numbers (card types, seats or colours)")
        return arr.astype(np.int64)

    def _cards(self, k: int, decision: str, obs: Rows, value: Any) -> NDArray[np.int64]:
        cards = self._whole(k, decision, obs, value, (len(obs),))
        row = first_illegal_card(cards, obs.legal, obs.bluffable, WILD_DRAW_FOUR)
        if row >= 0:
            legal = [CARD_NAMES[t] for t in np.flatnonzero(obs.legal[row])]
            c = int(cards[row])
            name = CARD_NAMES[c] if 0 <= c < N_TYPES else "not a card type"
            raise self._fail(k, decision, obs, row, f"card {c} ({name}) may not be played; legal: {legal or 'none'}, or -1 to draw")
        return cards

    def _colours(self, strat: Strategy, k: int, obs: Rows, cards: NDArray[np.int64]) -> NDArray[Any]:
        """Ask ``choose_colour`` and check the answer (0..3 per row)."""
        colours = self._whole(k, "choose_colour", obs, self._ask(k, "choose_colour", obs, cards), (len(obs),))
        bad = (colours < 0) | (colours > 3)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise self._fail(k, "choose_colour", obs, row, f"colour {colours[row]} is not 0..3")
        return colours

    def _follow_ups(self, strat: Strategy, k: int, obs: Rows, cards: NDArray[np.int64], dec: NDArray[np.int32]) -> None:
        """Colour for wilds and the UNO call: asked only of the rows that need them."""
        dec[:, L.D_CARD] = cards
        wild = _NEEDS_COLOUR[cards]
        if wild.any():
            rows = np.flatnonzero(wild)
            dec[rows, L.D_COLOUR] = self._colours(strat, k, obs.subset(rows), cards[rows])
        dec[:, L.D_A] = -1
        rows = np.flatnonzero(cards == WILD_DRAWN_TOGETHER)
        if len(rows):  # P-6; with fewer than two seats to link (relink_must_differ) the link just ends
            rows = rows[obs.subset(rows).link_choices.sum(axis=1) >= 2]
        if len(rows):
            sub = obs.subset(rows)
            allowed = sub.link_choices
            pairs = self._whole(k, "choose_link", sub, self._ask(k, "choose_link", sub), (len(rows), 2))
            bad = (pairs < 0).any(axis=1) | (pairs >= obs.players).any(axis=1) | (pairs[:, 0] == pairs[:, 1])
            if not bad.any():
                at = np.arange(len(rows))
                bad = ~allowed[at, pairs[:, 0]] | ~allowed[at, pairs[:, 1]]
            if bad.any():
                row = int(np.flatnonzero(bad)[0])
                may = np.flatnonzero(allowed[row]).tolist()
                raise self._fail(k, "choose_link", sub, row, f"pair {pairs[row].tolist()} is not two distinct seats of {may} (P-6)")
            dec[rows, L.D_A], dec[rows, L.D_B] = pairs[:, 0], pairs[:, 1]
        self._uno_calls(strat, k, obs, cards >= 0, dec[:, L.D_FORGET])

    def _uno_calls(self, strat: Strategy, k: int, obs: Rows, shedding: NDArray[np.bool_], out: NDArray[np.int32]) -> None:
        """U-1: ``forget_uno`` for the rows whose card (played, added to a mini pile, or jumped in)
        leaves one card in hand; ``out`` gets 1 where the call is forgotten."""
        out[:] = 0
        if not self.asks_forget_uno[k]:
            return
        going_to_one = shedding & (obs.hand_size == 2)
        if going_to_one.any():
            rows = np.flatnonzero(going_to_one)
            sub = obs.subset(rows)
            out[rows] = self._array(k, "forget_uno", sub, self._ask(k, "forget_uno", sub), (len(rows),)).astype(bool)

    def _turn(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        cards = self._cards(k, "play", obs, self._ask(k, "play", obs))
        self._follow_ups(strat, k, obs, cards, dec)

    def _drawn(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        flags = self._array(k, "play_drawn", obs, self._ask(k, "play_drawn", obs), (len(obs),)).astype(bool)
        cards = np.where(flags, obs.drawn, -1).astype(np.int64)
        self._cards(k, "play_drawn", obs, cards)
        dec[:, L.D_FLAG] = flags
        self._follow_ups(strat, k, obs, cards, dec)

    def _colour(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        dec[:, L.D_COLOUR] = self._colours(strat, k, obs, np.full(len(obs), -1))

    def _challenge(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        self._yes_no("challenge", k, obs, dec)

    def _catch(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        self._yes_no("catch_uno", k, obs, dec)

    def _yes_no(self, name: str, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        dec[:, L.D_FLAG] = self._array(k, name, obs, self._ask(k, name, obs), (len(obs),)).astype(bool)

    def _pileup(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        cards = self._whole(k, "add_to_pile", obs, self._ask(k, "add_to_pile", obs), (len(obs),))
        may_take = obs.may_take  # the engine's own row: nothing may be added, or pileup_may_refuse (P-5)
        row = first_illegal_card(cards, obs.legal, np.zeros(len(obs), bool), WILD_DRAW_FOUR)
        if row < 0:
            takes = np.flatnonzero((cards == -1) & ~may_take)
            row = int(takes[0]) if len(takes) else -1
        if row >= 0:
            able = [CARD_NAMES[t] for t in np.flatnonzero(obs.legal[row])]
            raise self._fail(k, "add_to_pile", obs, row, f"card {int(cards[row])} may not be added; must add one of {able} (P-5)")
        dec[:, L.D_CARD] = cards
        self._uno_calls(strat, k, obs, cards >= 0, dec[:, L.D_FORGET])

    def _vote(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        targets = self._whole(k, "point_at", obs, self._ask(k, "point_at", obs), (len(obs),))
        bad = (targets < 0) | (targets >= obs.players) | (targets == obs.seat)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise self._fail(k, "point_at", obs, row, f"seat {targets[row]} is not another player's seat")
        out = ~obs.alive[np.arange(len(obs)), targets]
        if out.any():
            row = int(np.flatnonzero(out)[0])
            may = np.flatnonzero(obs.alive[row]).tolist()
            raise self._fail(k, "point_at", obs, row,
                             f"seat {targets[row]} is out of the match (E-4 elimination); point at one of {may}, not oneself")
        dec[:, L.D_FLAG] = targets

    def _jumpin(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32], weights: NDArray[np.float64]) -> None:
        """P-1/P-2: a reaction weight per row (0 = no jump-in), and the UNO call of a jump-in to one card."""
        w = self._array(k, "jump_in", obs, self._ask(k, "jump_in", obs), (len(obs),)).astype(np.float64)
        if (w < 0).any():
            row = int(np.flatnonzero(w < 0)[0])
            raise self._fail(k, "jump_in", obs, row, f"reaction weight {w[row]} is negative; use 0 for no jump-in")
        weights[:] = w
        self._uno_calls(strat, k, obs, w > 0, dec[:, L.D_FLAG])


def _culprit(method: Any, rows: Rows, args: tuple[Any, ...]) -> int:
    """The row whose decision makes ``method`` raise, found by halving the batch; -1 if no
    single half raises alone. (The run stops anyway, so asking again does no harm.)"""
    at = np.arange(len(rows))

    def raises(part: NDArray[np.intp]) -> bool:
        try:
            method(rows.subset(part).observe(), *(a[part] for a in args))
        except Exception:
            return True
        return False

    while len(at) > 1:
        halves = at[: len(at) // 2], at[len(at) // 2 :]
        at = next((h for h in halves if raises(h)), np.zeros(0, np.intp))
    return int(at[0]) if len(at) else -1


_DISPATCH: dict[int, Any] = {
    L.PH_TURN: Decisions._turn,
    L.PH_DRAWN: Decisions._drawn,
    L.PH_COLOUR: Decisions._colour,
    L.PH_CHALLENGE: Decisions._challenge,
    L.PH_CATCH: Decisions._catch,
    L.PH_PILEUP: Decisions._pileup,
    L.PH_VOTE: Decisions._vote,
}  # PH_JUMPIN answers weights too: Decisions._jumpin
