"""Asking the strategies and checking their answers.

`Decisions` asks each strategy for the decisions of its rows, one call per
(phase, strategy) group, and checks every answer against the engine's own record
of the rows (`Rows`), never against what the strategy was shown. A wrong
shape, an illegal card or seat, or an exception is stopped with a
[`StrategyError`][unosim.engine.StrategyError] naming the strategy, the decision and the game.
"""

from __future__ import annotations

import copy
import signal
import threading
import traceback
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..game.cards import CARD_NAMES, N_TYPES, WILD_DRAW_FOUR, WILD_DRAWN_TOGETHER
from ..game.errors import caused_by
from ..game.kernels import follow_ups as F
from ..game.kernels import layout as L
from ..strategy.base import Strategy
from ..strategy.observation import FIELDS, Observation, SeatStreams, TableFields, gather_rows, seat_rows
from .batch import Buffers
from .fast_paths import asks_catch_uno, asks_forget_uno, asks_play_drawn
from .integrity import Integrity, ReadOnly, answers_digest

if TYPE_CHECKING:
    from ..game.rules import RuleSet

__all__ = ["Decisions", "Rows", "StepChanged", "StrategyError", "TamperingError", "check_cards", "compile_helpers"]

_NO_LINKS = np.zeros(0, np.int64)
"""The seats linkable per row when no answer plays a Wild Drawn Together (`follow_ups.follow_up_rows`)."""

_WHOLE_MAX = 2**31 - 1
"""Largest magnitude a card, seat or colour answer may have before it is checked (refused beyond)."""


@njit(cache=True)
def check_cards(cards, legal, info, bluff, dec):  # pragma: no cover - compiled
    """Check each row's card against the engine's row: -1 (draw, or take a mini pile), a legal card, or
    with ``bluff`` a Wild Draw Four that may be played as a bluff; write it into ``dec[:, D_CARD]`` and
    clear the link pair and the UNO call. Returns the first illegal row (-1: none)."""
    n, k = legal.shape
    for r in range(n):
        c = cards[r]
        if c < -1 or c >= k or (c >= 0 and not legal[r, c] and not (bluff and c == WILD_DRAW_FOUR and info[r, L.I_BLUFFABLE])):
            return r
        dec[r, L.D_CARD] = c
        dec[r, L.D_A] = -1
        dec[r, L.D_FORGET] = 0
    return -1


@njit(cache=True)
def _put_counters(counters, slots, seats, ctr):  # pragma: no cover - compiled
    """``counters[slots[r], seats[r]] = ctr[r, 0]`` for every row ``r`` (a group's stream counters given back)."""
    for r in range(slots.shape[0]):
        counters[slots[r], seats[r]] = ctr[r, 0]


class StrategyError(RuntimeError):
    """A strategy returned an illegal or ill-shaped decision, or raised an exception."""


_SIGINTS = [0]
"""Ctrl-C signals received by this process since `_watch_interrupts` (a real interrupt, as
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
    """Whether ``exc`` is a Ctrl-C received while a strategy ran (``before``: the count at its call): a
    ``KeyboardInterrupt``, or an error it caused (numba reports a Ctrl-C that arrives inside a compiled
    function as a ``SystemError`` whose cause is the ``KeyboardInterrupt``)."""
    return _SIGINTS[0] != before and caused_by(exc, (KeyboardInterrupt,)) is not None


class StepChanged(Exception):
    """Verification found, once a step's strategies had answered, that state none may change had
    changed (``what``) while ``asked`` decided; the engine plays the run again to name the strategy."""

    def __init__(self, what: list[str], asked: list[str]) -> None:
        super().__init__(f"{', '.join(what)} changed while {asked} decided")
        self.what, self.asked = what, asked


class TamperingError(StrategyError):
    """A strategy changed state it must not touch (verification on), or reached beyond its observation
    (a watcher of `unosim.engine.conformance`)."""


_BUFFERS = {"slots": "row_slot", "seat": "row_seat", "legal": "row_legal", "info": "row_info"}
"""The fields the kernel writes into a row -> their `Buffers` arrays, read by the engine's checks."""


class Rows(TableFields):
    """The engine's own record of a group of decision rows (one phase, one strategy).

    Answers are checked against these arrays (views of the engine's row buffers, or copies for a
    subset), never against what a strategy was shown: `observe` gives the strategy an
    [`Observation`][unosim.strategy.Observation] of copies, and `close` takes back the
    random-stream counters the observations advanced, once the strategy has answered.

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
    counters : array, optional
        The stream counters the rows draw from and give back (default: the batch's ``seat_ctr``).
    shared : tuple, optional
        A subset's: the group's copy of its rows' stream counters, the rows' places in it, and the
        group's slots and seats (where the counters go back).
    """

    def __init__(
        self, b: Buffers, phase: int, parity: int, sel: slice | NDArray[np.intp],
        counters: NDArray[np.int32] | None = None,
        shared: tuple[NDArray[np.int32], NDArray[np.intp], NDArray[np.int32], NDArray[np.int32]] | None = None,
    ) -> None:  # fmt: skip
        self._b, self.phase, self._parity, self._sel = b, phase, parity, sel
        self.players = b.players
        self._source = b.seat_ctr if counters is None else counters
        self._counters = shared

    def _rows(self, name: str) -> NDArray[Any]:
        """Field ``name`` of these rows in the row buffers: a view for a group, a copy for a subset
        (``take``: several times faster than fancy indexing for a few hundred rows)."""
        a, sel = getattr(self._b, _BUFFERS[name])[self._parity], self._sel
        return a[sel] if isinstance(sel, slice) else a.take(sel, axis=0)

    def __len__(self) -> int:
        sel = self._sel
        return sel.stop - sel.start if isinstance(sel, slice) else len(sel)

    @cached_property
    def slots(self) -> NDArray[np.int32]:
        """Slot of each row (looked up once: every field gathered from the batch state needs it)."""
        return self._rows("slots")

    @cached_property
    def seat(self) -> NDArray[np.int32]:
        """Acting seat of each row (looked up once)."""
        return self._rows("seat")

    def _gather(self) -> tuple[NDArray[Any], ...]:
        """Every field of these rows, gathered fresh from the batch state and the row buffers in one
        compiled pass (`gather_rows`): seat, game, hand, legal, info, hand sizes, alive, discard,
        link, linkable, seat-stream keys, stream counters."""
        b, p, sel = self._b, self._parity, self._sel
        at = np.arange(sel.start, sel.stop) if isinstance(sel, slice) else sel
        return gather_rows(b.slot, b.game, b.keys, b.hands, b.hsize, b.piles, b.row_slot[p], b.row_seat[p], b.row_legal[p],
                           b.row_info[p], at, self._source, self.players, b.relink_must_differ)  # fmt: skip

    @cached_property
    def _table(self) -> tuple[NDArray[Any], ...]:
        """The engine's own game index, seats alive and seats linkable of each row (`seat_rows`), read
        from the batch state when first asked (once the strategy has answered), not gathered with the rest."""
        b = self._b
        return seat_rows(b.slot, b.game, self.slots, self.players, b.relink_must_differ)

    legal = property(lambda self: self._rows("legal"), doc="The engine's legal moves of each row.")
    info = property(lambda self: self._rows("info"), doc="The table fields (``layout.I_*``).")
    game = property(lambda self: self._table[0], doc="Global game index of each row.")
    alive = property(lambda self: self._table[1], doc="``[n, players]`` seats still in the match (E-4).")
    link_choices = property(lambda self: self._table[2], doc="Seats a Wild Drawn Together may link now (P-6).")

    @cached_property
    def counters(self) -> tuple[NDArray[np.int32], NDArray[np.intp], NDArray[np.int32], NDArray[np.int32]]:
        """A copy of the group's stream counters (``[n, 1]``), each row's place in it, and the group's
        slots and seats (a subset shares its group's)."""
        if self._counters is not None:
            return self._counters
        return self._source[self.slots, self.seat].reshape(-1, 1), np.arange(len(self)), self.slots, self.seat

    def subset(self, rows: NDArray[np.intp]) -> Rows:
        """The rows ``rows`` (indices) of this group."""
        sel = self._sel
        at = rows + sel.start if isinstance(sel, slice) else sel[rows]
        ctr, places, slots, seats = self.counters
        return Rows(self._b, self.phase, self._parity, at, self._source, (ctr, places[rows], slots, seats))

    def observe(self, rules: RuleSet) -> Observation:
        """What the strategy sees: fresh copies of the public information of these rows, and ``rules`` (a copy)."""
        fields = self._gather()
        if self._counters is None and "counters" not in self.__dict__:  # the group's first observation: its counters
            self.__dict__["counters"] = fields[-1], np.arange(len(self)), self.slots, self.seat
        ctr, places = self.counters[:2]
        return Observation(self.phase, self.players, rules, dict(zip(FIELDS, fields)), SeatStreams(fields[-2], ctr, places))

    def close(self) -> tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.int32]] | None:
        """The group has answered: the stream counters its observations advanced go back into the engine.
        Returns the slots, seats and counters written (``None``: no observation was made)."""
        if "counters" not in self.__dict__:
            return None
        ctr, _, slots, seats = self.counters
        _put_counters(self._source, slots, seats, ctr)
        return slots, seats, ctr[:, 0]


class Decisions:
    """The strategies of a line-up, asked for their decisions and checked.

    Parameters
    ----------
    strategies : list of Strategy
        One object per distinct strategy of the line-up.
    labels : list of str
        Their names in error messages.
    verify : bool
        Guard the state no strategy may change (`Integrity`: read-only
        while strategies are called, the strategies and rules compared after every call); a change
        raises `TamperingError`.
    checksums : bool
        Also checksum the guarded state before and after every step (check mode; implies ``verify``).

    Attributes
    ----------
    watch : object or None
        Called around every strategy call: ``watch.enter(obs)`` before, ``watch.leave(obs)`` after,
        which returns what the strategy did wrong (a phrase) or ``None`` (``unosim check``).
    """

    def __init__(self, strategies: list[Strategy], labels: list[str], *, verify: bool = False, checksums: bool = False) -> None:
        self.strategies = list(strategies)
        self.strategy_labels = list(labels)
        self.asks_forget_uno = [asks_forget_uno(strat) for strat in self.strategies]
        self.asks_play_drawn = [asks_play_drawn(strat) for strat in self.strategies]
        self.asks_catch_uno: list[bool] = []
        """Whether each strategy's catches are asked: taken at the start of every step with catch rows
        (a strategy may change its own ``catch_uno_rate``), as the environments' compiled step does."""
        _watch_interrupts()
        self.verify = verify or checksums
        self.checksums = checksums
        self.watch: Any = None
        self._integrity: Integrity | None = None
        self._read_only = ReadOnly()
        self._shown: dict[int, RuleSet] = {}
        self._asked: list[int] = []
        self._rules: Any = None
        self._answers: list[tuple[int, int, NDArray[np.int32], NDArray[np.float64]]] = []
        self._answer_sums: list[int] = []

    def _rules_shown(self, k: int, rules: RuleSet) -> RuleSet:
        """Strategy ``k``'s copy of the rules: changing it changes nothing in the game."""
        shown = self._shown.get(k)
        if shown is None:
            shown = self._shown[k] = copy.deepcopy(rules)
        return shown

    def decide(self, b: Buffers, parity: int, guarded: tuple[tuple[str, Any, str], ...] = (), skip: int = -1) -> None:
        """Ask every strategy for the decisions of its rows in buffer ``parity`` of ``b``; write the
        checked answers into ``b``'s decision rows. With verification, ``guarded`` names more arrays
        no strategy may change (``(what, owner, attribute)``). ``skip``: a strategy whose rows were
        answered otherwise (the learning seats of [`unosim.env`][unosim.env], which write them directly)."""
        counters = b.seat_ctr.copy()  # the engine's own state stays as it was until every strategy has answered
        answers: list[tuple[int, int, NDArray[np.int32], NDArray[np.float64]]] = []
        self._asked = []
        if not self.verify:
            self._read_only.start(b, guarded, counters, answers)
            try:
                self._ask_all(b, parity, counters, answers, skip)
            finally:
                forced = self._read_only.unlock(step=True)
            if forced:
                asked = sorted({self.strategy_labels[k] for k in self._asked})
                raise TamperingError(
                    f"the strategies {asked} made writable {', '.join(forced)} while deciding one step; a strategy may "
                    "read only the observation it is given and change nothing else. The run is stopped."
                )
        else:
            self._verified(b, parity, guarded, counters, answers, skip)
        b.seat_ctr[:] = counters
        for lo, hi, dec, dec_w in answers:
            b.dec[parity, lo:hi], b.dec_w[parity, lo:hi] = dec, dec_w

    @property
    def integrity(self) -> Integrity | None:
        """The verification guard of the steps so far (None before the first verified step)."""
        return self._integrity

    def _verified(
        self, b: Buffers, parity: int, guarded: tuple[tuple[str, Any, str], ...], counters: NDArray[np.int32],
        answers: list[tuple[int, int, NDArray[np.int32], NDArray[np.float64]]], skip: int,
    ) -> None:  # fmt: skip
        """`decide` with verification: ask every group under `Integrity`; raise `StepChanged` when
        the guarded state changed meanwhile."""
        integrity = self._integrity
        if integrity is None:
            integrity = self._integrity = Integrity(self, b.rules, checksums=self.checksums)
        integrity.start(b, parity, guarded, counters, answers)
        self._answers, self._answer_sums = answers, []
        integrity.lock(step=True)
        try:
            self._ask_all(b, parity, counters, answers, skip)
        finally:
            forced = integrity.unlock(step=True)
        if forced:
            raise StepChanged(["made writable " + ", ".join(forced)], sorted({self.strategy_labels[k] for k in self._asked}))
        changed = integrity.changed()
        if self.checksums and answers_digest([(d, w) for _, _, d, w in answers]) != self._answer_sums:
            changed.append("other answers")
        if changed:
            raise StepChanged(changed, sorted({self.strategy_labels[k] for k in self._asked}))

    def _ask_all(
        self, b: Buffers, parity: int, counters: NDArray[np.int32],
        answers: list[tuple[int, int, NDArray[np.int32], NDArray[np.float64]]], skip: int = -1,
    ) -> None:  # fmt: skip
        """Ask every group of the step. ``counters``: the working copy of the stream counters drawn
        from; the checked answers go into working copies, listed in ``answers``, not into ``b``."""
        self._rules = b.rules
        guard: Integrity | ReadOnly = self._read_only
        if self.verify:
            assert self._integrity is not None
            guard = self._integrity
        ns = len(self.strategies)
        counts = b.group_count.tolist()
        bases = b.group_base.tolist()
        if any(counts[L.PH_CATCH * ns : (L.PH_CATCH + 1) * ns]):  # the declarations as they are before anyone is asked
            self.asks_catch_uno = [asks_catch_uno(strat) for strat in self.strategies]
        for grp, count in enumerate(counts):
            if count == 0:
                continue
            lo = bases[grp]
            phase, k = divmod(grp, ns)
            if k == skip:
                continue
            obs = Rows(b, phase, parity, slice(lo, lo + count), counters=counters)
            dec, dec_w = b.dec[parity, lo : lo + count].copy(), b.dec_w[parity, lo : lo + count].copy()
            guard.working = (dec, dec_w)  # read-only while the group's strategy is asked (its follow-ups too)
            if phase == L.PH_JUMPIN:
                self._jumpin(self.strategies[k], k, obs, dec, dec_w)
            else:
                _DISPATCH[phase](self, self.strategies[k], k, obs, dec)
            guard.working = ()
            obs.close()
            dec.setflags(write=False)  # checked: out of the other strategies' reach
            dec_w.setflags(write=False)
            answers.append((lo, lo + count, dec, dec_w))
            if self.checksums:
                self._answer_sums.append(answers_digest([(dec, dec_w)])[0])

    def _ask(self, k: int, decision: str, rows: Rows, *args: Any) -> Any:
        """Call strategy ``k``'s ``decision`` on a fresh read-only observation of ``rows``; an
        exception it raises becomes a [`StrategyError`][unosim.engine.StrategyError] naming the strategy, the decision,
        the game and seat, with the traceback frames of the strategy's own code."""
        method = getattr(self.strategies[k], decision)
        interrupts = _SIGINTS[0]
        shown = self._rules_shown(k, self._rules)
        obs = rows.observe(shown)
        integrity, watch = self._integrity if self.verify else None, self.watch
        guard = integrity if integrity is not None else self._read_only
        self._asked.append(k)
        if watch is not None:
            watch.enter(obs)
        guard.lock()
        try:
            answer = method(obs, *args)
        except BaseException as exc:  # a strategy that exits or raises KeyboardInterrupt stops the run like any error
            if _is_real_interrupt(exc, interrupts):
                raise KeyboardInterrupt from None
            if watch is not None and watch.found is not None:  # what it reached for explains what it raised
                raise self._tampered(k, decision, rows, watch.found) from None
            frames = traceback.extract_tb(exc.__traceback__)[1:]  # drop this frame: the rest is the strategy's
            row = _culprit(method, rows, args, shown)
            where = f"a batch of {len(rows)} decisions" if row < 0 else f"game {int(rows.game[row])} (seat {int(rows.seat[row])})"
            note = "" if isinstance(exc, Exception) else " (a strategy may not exit or interrupt the run: return its decisions)"
            error = StrategyError
            if isinstance(exc, ValueError) and "read-only" in str(exc):
                error = TamperingError
                note = (" (a strategy may change nothing but its own objects: the observation's arrays and, while "
                        "strategies decide, the engine's state are read-only)")
            raise error(
                f"strategy {self.strategy_labels[k]!r} raised {type(exc).__name__} in {decision!r} in {where}: {exc}{note}\n"
                "In the strategy's code (most recent call last):\n" + "".join(traceback.format_list(frames)).rstrip()
            ) from None
        finally:
            forced = guard.unlock()
            did = watch.leave(obs) if watch is not None else None
        if did is not None:
            raise self._tampered(k, decision, rows, did)
        if integrity is not None and integrity.strict:
            forced += [what for what in integrity.forced() if what not in forced]
        if forced:
            raise self._tampered(k, decision, rows, "made writable " + ", ".join(forced))
        if integrity is not None:
            changed = [] if integrity.called(k) else ["the strategies"]
            if integrity.strict:
                changed += [c for c in integrity.changed() if c not in changed]
                if self.checksums and answers_digest([(d, w) for _, _, d, w in self._answers]) != self._answer_sums:
                    changed.append("other answers")
            if changed:
                raise self._tampered(k, decision, rows, "changed " + ", ".join(changed))
        return answer

    def _tampered(self, k: int, decision: str, rows: Rows, did: str) -> TamperingError:
        return TamperingError(
            f"strategy {self.strategy_labels[k]!r} {did} while deciding {decision!r} (a batch of {len(rows)} decisions); "
            "a strategy may read only the observation it is given and change nothing else. The run is stopped."
        )

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
        """``value`` as whole numbers (cards, seats, colours), checked like `_array`; a value
        outside the 32-bit range is refused here, before a conversion could wrap it."""
        arr = self._array(k, decision, obs, value, shape)
        kind, size = arr.dtype.kind, arr.dtype.itemsize
        if kind == "f" and np.any(arr != np.round(arr)):
            raise self._fail(k, decision, obs, -1, "expected whole numbers (card types, seats or colours)")
        if kind == "b" or size < 4 or not arr.size or -_WHOLE_MAX <= arr.min() <= arr.max() <= _WHOLE_MAX:
            return arr.astype(np.int64)  # in range (a type too narrow to leave it, or its extremes within it)
        if kind == "u":
            big = arr > _WHOLE_MAX
        elif kind in "if":
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

    def _cards(self, k: int, decision: str, obs: Rows, cards: NDArray[np.int64], dec: NDArray[np.int32]) -> None:
        """Check the cards played (`check_cards`) into ``dec``."""
        row = check_cards(cards, obs.legal, obs.info, True, dec)
        if row >= 0:
            legal = [CARD_NAMES[t] for t in np.flatnonzero(obs.legal[row])]
            c = int(cards[row])
            name = CARD_NAMES[c] if 0 <= c < N_TYPES else "not a card type"
            raise self._fail(k, decision, obs, row, f"card {c} ({name}) may not be played; legal: {legal or 'none'}, or -1 to draw")

    def _colours(self, strat: Strategy, k: int, obs: Rows, cards: NDArray[np.int64]) -> NDArray[Any]:
        """Ask ``choose_colour`` and check the answer (0..3 per row)."""
        colours = self._whole(k, "choose_colour", obs, self._ask(k, "choose_colour", obs, cards), (len(obs),))
        if len(colours) and (colours.min() < 0 or colours.max() > 3):
            row = int(np.flatnonzero((colours < 0) | (colours > 3))[0])
            raise self._fail(k, "choose_colour", obs, row, f"colour {colours[row]} is not 0..3")
        return colours

    def _follow_ups(self, strat: Strategy, k: int, obs: Rows, cards: NDArray[np.int64], sheds: NDArray[np.bool_],
                    dec: NDArray[np.int32], calls: NDArray[np.int32]) -> None:
        """Ask the follow-ups of the answers ``cards`` (``sheds``: which put a card down) in their order
        (`unosim.game.kernels.follow_ups`): the colour of a wild, the link of a Wild Drawn
        Together, the UNO call (into ``calls``, 0 on entry), each only of the rows that need it."""
        n = len(obs)
        linking = np.flatnonzero(cards == WILD_DRAWN_TOGETHER)
        n_linkable = _NO_LINKS
        if len(linking):
            n_linkable = np.zeros(n, np.int64)
            n_linkable[linking] = obs.subset(linking).link_choices.sum(axis=1)
        asked, counts = np.empty((len(F.FOLLOW_UP_ORDER), n), np.int64), np.empty(len(F.FOLLOW_UP_ORDER), np.int64)
        F.follow_up_rows(np.int64(obs.phase), cards, sheds, obs.info, n_linkable, asked, counts)
        for step, count in zip(F.FOLLOW_UP_ORDER, counts.tolist()):
            if not count:
                continue
            rows = asked[step, :count]
            if step == F.FOLLOW_COLOUR:
                dec[rows, L.D_COLOUR] = self._colours(strat, k, obs.subset(rows), cards[rows])
            elif step == F.FOLLOW_LINK:
                self._link(k, obs.subset(rows), rows, dec)
            elif step == F.FOLLOW_UNO and self.asks_forget_uno[k]:  # U-1
                sub = obs.subset(rows)
                calls[rows] = self._flags(k, "forget_uno", sub, self._ask(k, "forget_uno", sub))

    def _link(self, k: int, sub: Rows, rows: NDArray[np.intp], dec: NDArray[np.int32]) -> None:
        """P-6: the two seats a Wild Drawn Together links, checked against the seats it may link."""
        allowed = sub.link_choices
        pairs = self._whole(k, "choose_link", sub, self._ask(k, "choose_link", sub), (len(rows), 2))
        bad = (pairs < 0).any(axis=1) | (pairs >= sub.players).any(axis=1) | (pairs[:, 0] == pairs[:, 1])
        if not bad.any():
            at = np.arange(len(rows))
            bad = ~allowed[at, pairs[:, 0]] | ~allowed[at, pairs[:, 1]]
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            may = np.flatnonzero(allowed[row]).tolist()
            raise self._fail(k, "choose_link", sub, row, f"pair {pairs[row].tolist()} is not two distinct seats of {may} (P-6)")
        dec[rows, L.D_A], dec[rows, L.D_B] = pairs[:, 0], pairs[:, 1]

    def _turn(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        cards = self._whole(k, "play", obs, self._ask(k, "play", obs), (len(obs),))
        self._cards(k, "play", obs, cards, dec)
        self._follow_ups(strat, k, obs, cards, cards >= 0, dec, dec[:, L.D_FORGET])

    def _drawn(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        if self.asks_play_drawn[k]:
            flags = self._flags(k, "play_drawn", obs, self._ask(k, "play_drawn", obs))
        else:  # a trusted declaration: the answer of Strategy.play_drawn, without the call
            flags = obs.legal[np.arange(len(obs)), obs.drawn]
        dec[:, L.D_FLAG] = flags
        cards = np.where(flags, obs.drawn, -1).astype(np.int64)
        self._cards(k, "play_drawn", obs, cards, dec)
        self._follow_ups(strat, k, obs, cards, cards >= 0, dec, dec[:, L.D_FORGET])

    def _colour(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        dec[:, L.D_COLOUR] = self._colours(strat, k, obs, np.full(len(obs), -1))

    def _challenge(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        self._yes_no("challenge", k, obs, dec)

    def _catch(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        if self.asks_catch_uno[k]:
            self._yes_no("catch_uno", k, obs, dec)
        else:  # a trusted declaration, as the environments' compiled step answers it: yes, without the call
            dec[:, L.D_FLAG] = 1

    def _yes_no(self, name: str, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        dec[:, L.D_FLAG] = self._flags(k, name, obs, self._ask(k, name, obs))

    def _pileup(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        cards = self._whole(k, "add_to_pile", obs, self._ask(k, "add_to_pile", obs), (len(obs),))
        may_take = obs.may_take  # the engine's own row: nothing may be added, or pileup_may_refuse (P-5)
        row = check_cards(cards, obs.legal, obs.info, False, dec)
        if row < 0:
            takes = np.flatnonzero((cards == -1) & ~may_take)
            row = int(takes[0]) if len(takes) else -1
        if row >= 0:
            able = [CARD_NAMES[t] for t in np.flatnonzero(obs.legal[row])]
            raise self._fail(k, "add_to_pile", obs, row, f"card {int(cards[row])} may not be added; must add one of {able} (P-5)")
        self._follow_ups(strat, k, obs, cards, cards >= 0, dec, dec[:, L.D_FORGET])

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
        self._follow_ups(strat, k, obs, np.full(len(obs), -1, np.int64), w > 0, dec, dec[:, L.D_FLAG])

    def _stack(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        """H-1: a card to stack (then a Wild Draw Four's colour, and the UNO call of a stack to one card) or -1 to take."""
        answer = self._ask(k, "stack", obs, obs.legal.copy())
        cards = np.full(len(obs), -1, np.int64) if answer is None else self._whole(k, "stack", obs, answer, (len(obs),))
        row = check_cards(cards, obs.legal, obs.info, False, dec)
        if row >= 0:
            may = [CARD_NAMES[t] for t in np.flatnonzero(obs.legal[row])]
            c = int(cards[row])
            name = CARD_NAMES[c] if 0 <= c < N_TYPES else "not a card type"
            raise self._fail(k, "stack", obs, row, f"card {c} ({name}) may not be stacked; stack one of {may}, or -1 to take (H-1)")
        self._follow_ups(strat, k, obs, cards, cards >= 0, dec, dec[:, L.D_FORGET])

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
    """Compile (or load) the compiled helpers `Decisions` calls for batch ``b``'s arrays: a
    strategy may read a field for the first time in any game, so one game played need not reach them.
    Both versions: on the arrays read-only for the step (`ReadOnly`), and writable (verification)."""
    guard = ReadOnly()
    for locked in (True, False):
        if locked:
            guard.start(b, (), b.seat_ctr.copy())
        try:
            rows = Rows(b, L.PH_TURN, 0, slice(0, 0))
            rows.observe(b.rules).random(1)
            rows.subset(np.zeros(0, np.intp)).observe(b.rules)
            _ = rows.alive, rows.subset(np.zeros(0, np.intp)).alive
            _put_counters(b.seat_ctr.copy(), rows.slots, rows.seat, np.zeros((0, 1), np.int32))
            check_cards(np.zeros(0, np.int64), rows.legal, rows.info, True, np.zeros((0, L.N_DEC), np.int32))
            F.follow_up_rows(np.int64(L.PH_TURN), np.zeros(0, np.int64), np.zeros(0, np.bool_), rows.info, _NO_LINKS,
                             np.zeros((len(F.FOLLOW_UP_ORDER), 0), np.int64), np.zeros(len(F.FOLLOW_UP_ORDER), np.int64))
        finally:
            if locked:
                guard.unlock(step=True)


def _culprit(method: Any, rows: Rows, args: tuple[Any, ...], shown: RuleSet) -> int:
    """The row whose decision makes ``method`` raise, found by halving the batch; -1 if no
    single half raises alone. (The run stops anyway, so asking again does no harm.)"""
    at = np.arange(len(rows))

    def raises(part: NDArray[np.intp]) -> bool:
        interrupts = _SIGINTS[0]
        try:
            method(rows.subset(part).observe(shown), *(a[part] for a in args))
        except BaseException as exc:  # as in Decisions._ask: only a real Ctrl-C goes through
            if _is_real_interrupt(exc, interrupts):
                raise KeyboardInterrupt from None
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
