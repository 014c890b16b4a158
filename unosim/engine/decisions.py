"""Asking the strategies and checking their answers.

:class:`Decisions` asks each strategy for the decisions of its rows, one call per
(phase, strategy) group, and checks every answer against the engine's own record
of the rows (:class:`Rows`), never against what the strategy was shown. A wrong
shape, an illegal card or seat, or an exception is stopped with a
:class:`StrategyError` naming the strategy, the decision and the game.
"""

from __future__ import annotations

import signal
import threading
import traceback
from functools import cached_property
from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..game.cards import CARD_NAMES, N_TYPES, NAMES_A_COLOUR, WILD_DRAW_FOUR, WILD_DRAWN_TOGETHER
from ..game.kernels import layout as L
from ..game.kernels.rng import seat_uniforms
from ..strategy.base import Strategy
from ..strategy.observation import (
    FIELDS,
    Observation,
    SeatStreams,
    TableFields,
    escaped,
    gather_discard,
    gather_hands,
    gather_keys,
    gather_seats,
)
from .batch import Buffers
from .fast_paths import asks_forget_uno, asks_play_drawn

__all__ = ["Decisions", "Rows", "StrategyError", "check_cards", "compile_helpers"]

_NEEDS_COLOUR = np.zeros(N_TYPES, np.bool_)
_NEEDS_COLOUR[list(NAMES_A_COLOUR)] = True
_WHOLE_MAX = 2**31 - 1
"""Largest magnitude a card, seat or colour answer may have before it is checked (refused beyond)."""


@njit(cache=True)
def check_cards(cards, legal, info, bluff, needs_colour, dec):  # pragma: no cover - compiled
    """Check each row's card against the engine's row: -1 (draw, or take a mini pile), a legal card, or
    with ``bluff`` a Wild Draw Four that may be played as a bluff; write it into ``dec[:, D_CARD]`` and
    clear the link pair and the UNO call. Returns the first illegal row (-1: none), the rows whose card
    names a colour, and those of a Wild Drawn Together."""
    n, k = legal.shape
    named = np.empty(n, np.intp)
    linked = np.empty(n, np.intp)
    n_named = n_linked = 0
    for r in range(n):
        c = cards[r]
        if c < -1 or c >= k or (c >= 0 and not legal[r, c] and not (bluff and c == WILD_DRAW_FOUR and info[r, L.I_BLUFFABLE])):
            return r, named[:0], linked[:0]
        dec[r, L.D_CARD] = c
        dec[r, L.D_A] = -1
        dec[r, L.D_FORGET] = 0
        if c >= 0 and needs_colour[c]:
            named[n_named] = r
            n_named += 1
        if c == WILD_DRAWN_TOGETHER:
            linked[n_linked] = r
            n_linked += 1
    return -1, named[:n_named], linked[:n_linked]


class StrategyError(RuntimeError):
    """A strategy returned an illegal or ill-shaped decision, or raised an exception."""


_SIGINTS = [0]
"""Ctrl-C signals received by this process since :func:`_watch_interrupts` (a real interrupt, as
opposed to a strategy raising ``KeyboardInterrupt``)."""


def _note_interrupt(signum: int, frame: Any) -> None:
    """SIGINT handler: count the signal, then interrupt as Python's default handler does."""
    _SIGINTS[0] += 1
    signal.default_int_handler(signum, frame)


def _watch_interrupts() -> None:
    """Count real Ctrl-C signals (in the main thread, where Python's default handler is installed)."""
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _note_interrupt)


def _is_real_interrupt(exc: BaseException, before: int) -> bool:
    """Whether ``exc`` is a Ctrl-C received while a strategy ran (``before``: the count at its call)."""
    return isinstance(exc, KeyboardInterrupt) and _SIGINTS[0] != before


_BUFFERS = {"slots": "row_slot", "seat": "row_seat", "legal": "row_legal", "info": "row_info"}
"""The fields the kernel writes into a row -> their :class:`~unosim.engine.batch.Buffers` arrays. The other
fields are read from the batch state when first asked for (:meth:`Rows.fresh`)."""


class Rows(TableFields):
    """The engine's own record of a group of decision rows (one phase, one strategy).

    Answers are checked against these arrays (views of the engine's row buffers, or copies for a
    subset), never against what a strategy was shown: :meth:`observe` gives the strategy an
    :class:`~unosim.strategy.observation.Observation` that copies what it reads from these rows, and
    :meth:`close` lets go of every observation made, once the strategy has answered.

    Parameters
    ----------
    b : Buffers
        The batch.
    phase : int
        The decision phase.
    parity : int
        The row buffer the kernel wrote.
    sel : slice or int array
        The rows of the group in that buffer.
    made : list, optional
        The observations made of these rows (shared with subsets).
    """

    def __init__(self, b: Buffers, phase: int, parity: int, sel: slice | NDArray[np.intp], made: list[Observation] | None = None) -> None:
        self._b, self.phase, self._parity, self._sel = b, phase, parity, sel
        self.players = b.players
        self.rules = b.rules
        self.made: list[Observation] = [] if made is None else made

    def _rows(self, name: str) -> NDArray[Any]:
        """Field ``name`` of these rows in the row buffers: a view for a group, a copy for a subset
        (``take``: several times faster than fancy indexing for a few hundred rows)."""
        a, sel = getattr(self._b, _BUFFERS[name])[self._parity], self._sel
        return a[sel] if isinstance(sel, slice) else a.take(sel, axis=0)

    def _state(self, name: str) -> NDArray[Any]:
        """Field ``name`` read from the batch state (unchanged while the rows wait for their decisions), fresh."""
        b, slots = self._b, self.slots
        if name == "discard":
            return gather_discard(b.piles, b.slot, slots)
        if name == "hand":
            return gather_hands(b.hands, slots, self.seat)
        if name == "hand_sizes":
            return b.hsize.take(slots, axis=0)
        if name == "game":
            return b.game.take(slots)
        if name == "link":
            return b.slot[slots, L.F_LINK_A : L.F_LINK_B + 1]
        if name == "key":
            return gather_keys(b.keys, slots, self.seat)
        return gather_seats(b.slot, slots, self.players, name == "link_choices", b.relink_must_differ)

    def __len__(self) -> int:
        sel = self._sel
        return sel.stop - sel.start if isinstance(sel, slice) else len(sel)

    @cached_property
    def slots(self) -> NDArray[np.int32]:
        """Slot of each row (looked up once: every field gathered from the batch state and every
        random number needs it)."""
        return self._rows("slots")

    @cached_property
    def seat(self) -> NDArray[np.int32]:
        """Acting seat of each row (looked up once)."""
        return self._rows("seat")

    legal = property(lambda self: self._rows("legal"), doc="The engine's legal moves of each row.")
    info = property(lambda self: self._rows("info"), doc="The table fields (``layout.I_*``).")
    game = property(lambda self: self._state("game"), doc="Global game index of each row.")
    alive = property(lambda self: self._state("alive"), doc="``[n, players]`` seats still in the match (E-4).")
    link_choices = property(lambda self: self._state("link_choices"), doc="Seats a Wild Drawn Together may link now (P-6).")

    def fresh(self, name: str) -> NDArray[Any]:
        """A fresh copy of field ``name`` of these rows (an observation's field, or ``key``: the seat-stream keys)."""
        if name not in _BUFFERS:
            return self._state(name)
        a = self._rows(name)
        return a.copy() if isinstance(self._sel, slice) else a

    def uniforms(self, k: int) -> NDArray[np.float64]:
        """``k`` uniforms of each row's (game, seat) stream (advancing the engine's seat counters)."""
        return seat_uniforms(self._b.keys, self._b.seat_ctr, self.slots, self.seat, k)

    def streams(self) -> SeatStreams:
        """The rows' random streams, for an observation kept after its call: their seat keys and the
        engine's seat counters."""
        return SeatStreams(self.fresh("key"), self._b.seat_ctr, self.fresh("slots"), self.fresh("seat"))

    def subset(self, rows: NDArray[np.intp]) -> Rows:
        """The rows ``rows`` (indices) of this group."""
        sel = self._sel
        at = rows + sel.start if isinstance(sel, slice) else sel[rows]
        return Rows(self._b, self.phase, self._parity, at, self.made)

    def observe(self) -> Observation:
        """What the strategy sees: public information of these rows, copied from them when read."""
        return Observation(self)

    def close(self) -> None:
        """The strategy has answered: observations it kept copy what they have not read; the others let go of the rows."""
        for obs, kept in zip(self.made, escaped(self.made)):
            obs._detach(kept)
        self.made.clear()


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
        self.asks_play_drawn = [asks_play_drawn(strat) for strat in self.strategies]
        _watch_interrupts()

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
            obs = Rows(b, phase, parity, slice(lo, lo + count))
            if phase == L.PH_JUMPIN:
                self._jumpin(self.strategies[k], k, obs, b.dec[parity, lo : lo + count], b.dec_w[parity, lo : lo + count])
            else:
                _DISPATCH[phase](self, self.strategies[k], k, obs, b.dec[parity, lo : lo + count])

    def _ask(self, k: int, decision: str, rows: Rows, *args: Any) -> Any:
        """Call strategy ``k``'s ``decision`` on a fresh read-only observation of ``rows``; an
        exception it raises becomes a :class:`StrategyError` naming the strategy, the decision,
        the game and seat, with the traceback frames of the strategy's own code."""
        method = getattr(self.strategies[k], decision)
        interrupts = _SIGINTS[0]
        try:
            return method(rows.observe(), *args)  # no name holds the observation: close() sees whether the strategy kept it
        except BaseException as exc:  # a strategy that exits or raises KeyboardInterrupt stops the run like any error
            if _is_real_interrupt(exc, interrupts):
                raise
            frames = traceback.extract_tb(exc.__traceback__)[1:]  # drop this frame: the rest is the strategy's
            row = _culprit(method, rows, args)
            where = f"a batch of {len(rows)} decisions" if row < 0 else f"game {int(rows.game[row])} (seat {int(rows.seat[row])})"
            note = "" if isinstance(exc, Exception) else " (a strategy may not exit or interrupt the run: return its decisions)"
            raise StrategyError(
                f"strategy {self.strategy_labels[k]!r} raised {type(exc).__name__} in {decision!r} in {where}: {exc}{note}\n"
                "In the strategy's code (most recent call last):\n" + "".join(traceback.format_list(frames)).rstrip()
            ) from None
        finally:
            rows.close()

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
        """``value`` as whole numbers (cards, seats, colours), checked like :meth:`_array`; a value
        outside the 32-bit range is refused here, before a conversion could wrap it."""
        arr = self._array(k, decision, obs, value, shape)
        if arr.dtype.kind == "f" and np.any(arr != np.round(arr)):
            raise self._fail(k, decision, obs, -1, "expected whole numbers (card types, seats or colours)")
        if arr.dtype.kind == "u":
            big = arr > _WHOLE_MAX
        elif arr.dtype.kind in "if":
            big = (arr < -_WHOLE_MAX) | (arr > _WHOLE_MAX)
        else:
            big = np.zeros(arr.shape, np.bool_)
        if big.any():
            row = int(np.flatnonzero(big.reshape(len(obs), -1).any(axis=1))[0])
            value = arr.reshape(len(obs), -1)[row]
            shown = value.tolist() if value.size > 1 else value.item()
            raise self._fail(k, decision, obs, row, f"value {shown!r} is out of range (not a card type, seat or colour)")
        return arr.astype(np.int64)

    def _flags(self, k: int, decision: str, obs: Rows, value: Any) -> NDArray[np.bool_]:
        """``value`` as yes/no answers: booleans, or numbers 0 and 1 only (never any non-zero as yes)."""
        arr = self._array(k, decision, obs, value, (len(obs),))
        if arr.dtype.kind != "b":
            bad = (arr != 0) & (arr != 1)
            if bad.any():
                row = int(np.flatnonzero(bad)[0])
                raise self._fail(k, decision, obs, row, f"answer {arr[row].item()!r} is not yes or no; return True/False (or 1/0)")
        return arr.astype(np.bool_)

    def _cards(self, k: int, decision: str, obs: Rows, cards: NDArray[np.int64],
               dec: NDArray[np.int32]) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
        """Check the cards played (:func:`check_cards`) into ``dec``; the rows that name a colour and link."""
        row, named, linked = check_cards(cards, obs.legal, obs.info, True, _NEEDS_COLOUR, dec)
        if row >= 0:
            legal = [CARD_NAMES[t] for t in np.flatnonzero(obs.legal[row])]
            c = int(cards[row])
            name = CARD_NAMES[c] if 0 <= c < N_TYPES else "not a card type"
            raise self._fail(k, decision, obs, row, f"card {c} ({name}) may not be played; legal: {legal or 'none'}, or -1 to draw")
        return named, linked

    def _colours(self, strat: Strategy, k: int, obs: Rows, cards: NDArray[np.int64]) -> NDArray[Any]:
        """Ask ``choose_colour`` and check the answer (0..3 per row)."""
        colours = self._whole(k, "choose_colour", obs, self._ask(k, "choose_colour", obs, cards), (len(obs),))
        bad = (colours < 0) | (colours > 3)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise self._fail(k, "choose_colour", obs, row, f"colour {colours[row]} is not 0..3")
        return colours

    def _follow_ups(self, strat: Strategy, k: int, obs: Rows, cards: NDArray[np.int64], dec: NDArray[np.int32]) -> None:
        """Check the cards played into ``dec``, then ask the colour of wilds, the link of a Wild Drawn
        Together and the UNO call, each only of the rows that need it."""
        named, rows = self._cards(k, "play_drawn" if obs.phase == L.PH_DRAWN else "play", obs, cards, dec)
        if len(named):
            dec[named, L.D_COLOUR] = self._colours(strat, k, obs.subset(named), cards[named])
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
        leaves one card in hand; ``out`` (0 on entry) gets 1 where the call is forgotten."""
        if not self.asks_forget_uno[k]:
            return
        going_to_one = shedding & (obs.hand_size == 2)
        if going_to_one.any():
            rows = np.flatnonzero(going_to_one)
            sub = obs.subset(rows)
            out[rows] = self._flags(k, "forget_uno", sub, self._ask(k, "forget_uno", sub))

    def _turn(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        self._follow_ups(strat, k, obs, self._whole(k, "play", obs, self._ask(k, "play", obs), (len(obs),)), dec)

    def _drawn(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        if self.asks_play_drawn[k]:
            flags = self._flags(k, "play_drawn", obs, self._ask(k, "play_drawn", obs))
        else:  # a trusted declaration: the answer of Strategy.play_drawn, without the call
            flags = obs.legal[np.arange(len(obs)), obs.drawn]
        dec[:, L.D_FLAG] = flags
        self._follow_ups(strat, k, obs, np.where(flags, obs.drawn, -1).astype(np.int64), dec)

    def _colour(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        dec[:, L.D_COLOUR] = self._colours(strat, k, obs, np.full(len(obs), -1))

    def _challenge(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        self._yes_no("challenge", k, obs, dec)

    def _catch(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        self._yes_no("catch_uno", k, obs, dec)

    def _yes_no(self, name: str, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        dec[:, L.D_FLAG] = self._flags(k, name, obs, self._ask(k, name, obs))

    def _pileup(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        cards = self._whole(k, "add_to_pile", obs, self._ask(k, "add_to_pile", obs), (len(obs),))
        may_take = obs.may_take  # the engine's own row: nothing may be added, or pileup_may_refuse (P-5)
        row = check_cards(cards, obs.legal, obs.info, False, _NEEDS_COLOUR, dec)[0]
        if row < 0:
            takes = np.flatnonzero((cards == -1) & ~may_take)
            row = int(takes[0]) if len(takes) else -1
        if row >= 0:
            able = [CARD_NAMES[t] for t in np.flatnonzero(obs.legal[row])]
            raise self._fail(k, "add_to_pile", obs, row, f"card {int(cards[row])} may not be added; must add one of {able} (P-5)")
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
        dec[:, L.D_FLAG] = 0
        self._uno_calls(strat, k, obs, w > 0, dec[:, L.D_FLAG])

    def _stack(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        """H-1: a card to stack (then a Wild Draw Four's colour, and the UNO call of a stack to one card) or -1 to take."""
        answer = self._ask(k, "stack", obs, obs.legal.copy())
        cards = np.full(len(obs), -1, np.int64) if answer is None else self._whole(k, "stack", obs, answer, (len(obs),))
        row, named, _ = check_cards(cards, obs.legal, obs.info, False, _NEEDS_COLOUR, dec)
        if row >= 0:
            may = [CARD_NAMES[t] for t in np.flatnonzero(obs.legal[row])]
            c = int(cards[row])
            name = CARD_NAMES[c] if 0 <= c < N_TYPES else "not a card type"
            raise self._fail(k, "stack", obs, row, f"card {c} ({name}) may not be stacked; stack one of {may}, or -1 to take (H-1)")
        if len(named):
            dec[named, L.D_COLOUR] = self._colours(strat, k, obs.subset(named), cards[named])
        self._uno_calls(strat, k, obs, cards >= 0, dec[:, L.D_FORGET])

    def _swap(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        """H-2: the seat the player of a 7 swaps hands with."""
        targets = self._whole(k, "swap_with", obs, self._ask(k, "swap_with", obs), (len(obs),))
        bad = (targets < 0) | (targets >= obs.players) | (targets == obs.seat)
        if not bad.any():
            bad = ~obs.alive[np.arange(len(obs)), targets]
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            may = [p for p in np.flatnonzero(obs.alive[row]).tolist() if p != int(obs.seat[row])]
            raise self._fail(k, "swap_with", obs, row,
                             f"seat {targets[row]} is not another player in the round; swap with one of {may} (H-2)")
        dec[:, L.D_FLAG] = targets


def compile_helpers(b: Buffers) -> None:
    """Compile (or load) the compiled helpers :class:`Decisions` calls for batch ``b``'s arrays: a
    strategy may read a field for the first time in any game, so one game played need not reach them."""
    rows = Rows(b, L.PH_TURN, 0, slice(0, 0))
    for name in (*FIELDS, "key"):
        rows.fresh(name)
    rows.uniforms(1)
    check_cards(np.zeros(0, np.int64), rows.legal, rows.info, True, _NEEDS_COLOUR, b.dec[0, :0])


def _culprit(method: Any, rows: Rows, args: tuple[Any, ...]) -> int:
    """The row whose decision makes ``method`` raise, found by halving the batch; -1 if no
    single half raises alone. (The run stops anyway, so asking again does no harm.)"""
    at = np.arange(len(rows))

    def raises(part: NDArray[np.intp]) -> bool:
        interrupts = _SIGINTS[0]
        try:
            method(rows.subset(part).observe(), *(a[part] for a in args))
        except BaseException as exc:  # as in Decisions._ask: only a real Ctrl-C goes through
            if _is_real_interrupt(exc, interrupts):
                raise
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
    L.PH_STACK: Decisions._stack,
    L.PH_SWAP: Decisions._swap,
}  # PH_JUMPIN answers weights too: Decisions._jumpin
