"""Tamper evidence: the state a strategy must not change, guarded at every call.

A Python strategy runs in the engine's process, so through the caller's frames or the garbage
collector it can find the engine's arrays (`unosim.strategy.observation` gives it copies
only). In every run the engine leaves its own state untouched while a step's decisions are
asked (answers and random-stream counters go into working copies, written back once every
strategy has answered, and each group's checked answers become read-only), and `ReadOnly`
makes the engine's arrays read-only while strategies are called, so that a write raises in the
strategy's own code and stops the run naming it; an array made writable again is found when the
call ends. With verification on (``Engine(verify=True)``: tournaments; ``Engine(check=True)``:
check mode and ``unosim check``), `Integrity` guards the rest:

- while a strategy is called, every guarded array is read-only (`Integrity.lock`): a write
  raises in the strategy's own code and stops the run naming the strategy and the decision; an
  array the strategy made writable again is found when the call returns;
- after every call, the other strategies' attributes, and after every step the strategy objects,
  their classes' decision methods and the rules (the run's and every copy shown) are compared
  with what they were;
- in check mode, also a checksum of every guarded array's contents before and after each step
  (two 64-bit lanes over the memory's words); a difference plays the run again comparing after
  every call, which names the strategy and the decision
  (`TamperingError`).

What is checked:

``the hands``
    every seat's cards and hand sizes, the opening hands;
``the piles``
    the draw and discard piles;
``the table``
    the slot state (turn, colour, links, ...), game indices, keys, stream counters, seat answers;
``the decision rows``
    the rows the kernel wrote for this step (legal moves, table fields, group sizes);
``other answers``
    the checked answers of the groups already asked in this step;
``the answers``
    the working copy of the answers of the group being asked (the engine writes it between its
    strategy's calls: a card checked, then its colour, link and UNO call);
``the records``
    the results written so far (records, points, match scores, counters);
``the strategies``
    the strategy objects, their classes' decision methods, their attributes (by identity), which
    seat plays which;
``the rules``
    the encoded rules (``cfg``) and deck, the run's rule set, and the copies of it the strategies
    are shown.

These find any change made by code that does not know them. Code that knows them (one that makes
an array writable, writes and makes it read-only again; or forges the checksum) is beyond any
in-process check: play such code with ``--isolate`` (`unosim.engine.isolation`; the docs'
"Fair play" page says what each mode guarantees).
"""

from __future__ import annotations

import copy
import dataclasses
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

if TYPE_CHECKING:
    from ..game.rules import RuleSet
    from .batch import Buffers

__all__ = ["DECISION_METHODS", "Integrity", "ReadOnly", "answers_digest", "batch_arrays", "digest", "unlocked_answers"]

DECISION_METHODS = (
    "play", "play_drawn", "choose_colour", "challenge", "forget_uno", "catch_uno",
    "point_at", "choose_link", "add_to_pile", "jump_in",
)  # fmt: skip
"""The decision methods of a strategy, whose replacement on a class `Integrity` detects."""

_READ_BETWEEN_CALLS = frozenset(
    {"hands", "hsize", "piles", "slot", "game", "keys", "row_legal", "row_info", "counters"}
)
"""Guarded arrays the engine reads in compiled code (which takes writable arrays) or writes between
the strategy calls of a step: read-only during each call only; the others for the whole step."""

_K = np.uint64(0x9E3779B97F4A7C15)
_M = np.uint64(0xBF58476D1CE4E5B9)


@njit(cache=True, nogil=True)
def _digest_words(a):  # pragma: no cover - compiled
    """Checksum of a flat byte array: a sum lane and a position-keyed xor lane over its 64-bit words,
    then its last bytes."""
    n8 = a.shape[0] // 8 * 8
    w = a[:n8].view(np.uint64)
    s0 = np.uint64(0)
    s1 = np.uint64(0)
    for i in range(w.shape[0]):
        x = w[i]
        s0 += x
        s1 ^= x + np.uint64(i) * _K
    for j in range(n8, a.shape[0]):
        s0 += np.uint64(a[j] + 1) << np.uint64(j % 8 * 8)
    return s0 ^ (s1 * _M) ^ np.uint64(a.shape[0])


def digest(a: np.ndarray) -> int:
    """Checksum of a contiguous array's memory (see `_digest_words`)."""
    a = a if a.flags.writeable else a.copy()  # a read-only array would make numba compile another version
    return int(_digest_words(a.reshape(-1).view(np.uint8)))


def batch_arrays(b: Buffers) -> list[tuple[str, Any, str]]:
    """The batch's arrays no strategy may change, as ``(what, owner, attribute)``."""
    return [
        ("the hands", b, "hands"), ("the hands", b, "hsize"), ("the hands", b, "opening"), ("the piles", b, "piles"),
        ("the table", b, "slot"), ("the table", b, "game"), ("the table", b, "keys"), ("the table", b, "seat_dec"),
        ("the table", b, "seat_w"), ("the table", b, "seat_ctr"), ("the strategies", b, "seat_strat"),
        ("the decision rows", b, "group_base"), ("the decision rows", b, "group_count"),
        ("the decision rows", b, "row_slot"), ("the decision rows", b, "row_seat"), ("the decision rows", b, "row_legal"),
        ("the decision rows", b, "row_info"), ("other answers", b, "dec"), ("other answers", b, "dec_w"),
    ]  # fmt: skip


class ReadOnly:
    """The guard of every run: the engine's arrays are read-only while Python strategies are called.

    Without verification (`Integrity`) this is all the engine does: a write to one of the
    arrays raises ``ValueError`` in the strategy's own code, and an array the strategy made writable
    again is found when its call ends; nothing is compared or checksummed. Every array of the batch
    and the run is read-only for the whole step (a flag per array, set once a step: the engine reads
    them, in compiled code too, and writes the step's answers and stream counters into working
    copies, put back once every strategy has answered); the working counters, which the engine
    writes between the calls, are read-only during each call.
    """

    def __init__(self) -> None:
        self.step_locked: list[tuple[str, np.ndarray]] = []
        self.counters: np.ndarray | None = None
        self.answers: list[tuple[int, int, np.ndarray, np.ndarray]] = []
        self.working: tuple[np.ndarray, ...] = ()

    def start(
        self, b: Buffers, guarded: tuple[tuple[str, Any, str], ...], counters: np.ndarray,
        answers: list[tuple[int, int, np.ndarray, np.ndarray]] | None = None,
    ) -> None:  # fmt: skip
        """A step's decisions start to be asked: make the arrays to guard (the batch's and ``guarded``)
        read-only until `unlock` ends the step; ``counters`` (the working copy of the stream counters)
        and `working` (the answers of the group being asked) are read-only during each call; ``answers``
        (the checked answers of the step, read-only once listed) must stay read-only."""
        seen: set[int] = set()
        self.step_locked = []
        for what, owner, attr in (*batch_arrays(b), *guarded):
            a = getattr(owner, attr)
            if id(a) not in seen and a.flags.writeable:
                seen.add(id(a))
                self.step_locked.append((what, a))
                a.setflags(write=False)
        self.counters = counters
        self.answers = [] if answers is None else answers
        self.working = ()

    def lock(self) -> None:
        """A strategy is about to be called: make the working counters and answers read-only too."""
        assert self.counters is not None
        self.counters.setflags(write=False)
        for a in self.working:
            a.setflags(write=False)

    def unlock(self, step: bool = False) -> list[str]:
        """After a call: make the working counters and answers writable again and return what a strategy
        made writable itself meanwhile; ``step`` (the step has ended): make the arrays of the step writable."""
        forced = [what for what, a in self.step_locked if a.flags.writeable]
        forced += unlocked_answers(self.answers)
        counters = self.counters
        assert counters is not None
        if not step:
            if counters.flags.writeable:
                forced.append("the table")
            if any(a.flags.writeable for a in self.working):
                forced.append("the answers")
        counters.setflags(write=True)
        for a in self.working:
            a.setflags(write=True)
        if step:
            for _, a in self.step_locked:
                a.setflags(write=True)
        return list(dict.fromkeys(forced))


def unlocked_answers(answers: list[tuple[int, int, np.ndarray, np.ndarray]]) -> list[str]:
    """``["other answers"]`` when a strategy made one of the step's checked answers writable again."""
    return ["other answers"] if any(d.flags.writeable or w.flags.writeable for _, _, d, w in answers) else []


class Integrity:
    """Checksums of the state no strategy may change, and the line-up's fingerprint.

    Parameters
    ----------
    decisions : Decisions
        The asker (its strategies and their bookkeeping are part of the protected state).
    rules : RuleSet
        The run's rule set.
    checksums : bool
        Also checksum the guarded arrays' contents (check mode); without, a write is stopped by the
        arrays being read-only during every strategy call (`lock`).
    """

    def __init__(self, decisions: Any, rules: RuleSet, *, checksums: bool = True) -> None:
        self.decisions = decisions
        self.checksums = checksums
        self.step_locked: list[tuple[str, np.ndarray]] = []
        self.call_locked: list[tuple[str, np.ndarray]] = []
        self.answers: list[tuple[int, int, np.ndarray, np.ndarray]] = []
        self.working: tuple[np.ndarray, ...] = ()
        self.rules = rules
        self.rules_copy = copy.deepcopy(rules)
        self.items: list[tuple[str, Any, str | None, np.ndarray]] = []
        self.sums: list[int] = []
        self.strict = False
        d = decisions
        self.lineup = d.strategies, list(d.strategies)
        self.methods = [(type(s), name, vars(type(s)).get(name)) for s in d.strategies for name in DECISION_METHODS]
        self.who = self._fingerprint()
        self.attrs_seen = self._attributes()

    def _fingerprint(self) -> tuple[Any, ...]:
        """The line-up: list, objects, classes, decision methods, bookkeeping."""
        d = self.decisions
        methods = tuple(id(getattr(type(s), name, None)) for s in d.strategies for name in DECISION_METHODS)
        return (id(d.strategies), tuple(map(id, d.strategies)), tuple(map(type, d.strategies)), methods,
                tuple(d.asks_forget_uno), tuple(d.asks_play_drawn), tuple(d.strategy_labels))  # fmt: skip

    def _attributes(self) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
        """Each strategy's attributes: their names and the identities of their values (C-level tuples,
        cheap enough to take after every call)."""
        return [(tuple(d), tuple(map(id, d.values()))) if d is not None else ((), ()) for d in self._dicts()]

    def _dicts(self) -> list[dict[str, Any] | None]:
        return [getattr(s, "__dict__", None) for s in self.decisions.strategies]

    def called(self, k: int) -> bool:
        """After a call of strategy ``k``: whether the other strategies' attributes are as they were
        (a strategy may change its own)."""
        attrs = self._attributes()
        seen = self.attrs_seen
        same = len(attrs) == len(seen) and all(a == b for j, (a, b) in enumerate(zip(attrs, seen)) if j != k)
        self.attrs_seen = attrs
        return same

    def start(
        self, b: Buffers, parity: int, guarded: tuple[tuple[str, Any, str], ...], counters: np.ndarray | None = None,
        answers: list[tuple[int, int, np.ndarray, np.ndarray]] | None = None,
    ) -> None:  # fmt: skip
        """A step's decisions start to be asked: note the state to guard — the batch's arrays, the
        decision rows, ``guarded`` (``(what, owner, attribute)``: arrays of the run and the engine),
        the working stream ``counters``, the step's checked ``answers`` (read-only once listed) and
        `working` (the answers of the group being asked, read-only during each call) — and, with
        `checksums`, checksum it."""
        self.answers = [] if answers is None else answers
        self.working = ()
        names = [*batch_arrays(b), *guarded]
        items: list[tuple[str, Any, str | None, np.ndarray]] = [(what, owner, attr, getattr(owner, attr)) for what, owner, attr in names]
        self.items = items
        self.b = b
        self.sums = [digest(a) for _, _, _, a in items] if self.checksums else []
        seen: set[int] = set()
        self.step_locked, self.call_locked = [], []
        working = [("the table", None, "counters", counters)] if counters is not None else []  # the engine writes it between calls
        for what, _, attr, a in items + working:
            if a.flags.writeable and id(a) not in seen:
                seen.add(id(a))
                (self.call_locked if attr in _READ_BETWEEN_CALLS else self.step_locked).append((what, a))

    def lock(self, step: bool = False) -> None:
        """Make the guarded arrays read-only while a strategy is called (``step``: those the engine
        neither reads in compiled code nor writes between the calls of a step, for the whole step):
        a write to one raises ``ValueError`` in the strategy's own code (cheap: a flag per array)."""
        for _, a in self.step_locked if step else self.call_locked:
            a.setflags(write=False)
        if not step:
            for a in self.working:
                a.setflags(write=False)

    def unlock(self, step: bool = False) -> list[str]:
        """After the call (the step): make those arrays writable for the engine again; return what a
        strategy made writable itself meanwhile (an attempt to get round `lock`)."""
        forced = []
        for what, a in self.step_locked if step else self.call_locked:
            if a.flags.writeable and what not in forced:
                forced.append(what)
            a.setflags(write=True)
        forced += [what for what in unlocked_answers(self.answers) if what not in forced]
        if not step:
            if any(a.flags.writeable for a in self.working):
                forced.append("the answers")
            for a in self.working:
                a.setflags(write=True)
        return forced

    def forced(self) -> list[str]:
        """The arrays locked for the step that a strategy has made writable (checked after every call
        when naming the strategy)."""
        return list(dict.fromkeys(what for what, a in self.step_locked if a.flags.writeable))

    def changed(self) -> list[str]:
        """What changed since `start` (empty: nothing): arrays replaced, with `checksums`
        their contents, the strategies and the rules."""
        what: list[str] = []

        def add(name: str) -> None:
            if name not in what:
                what.append(name)

        for (name, owner, attr, array) in self.items:
            if attr is not None and getattr(owner, attr) is not array:
                add(name)
        for (name, _, _, array), kept in zip(self.items, self.sums):
            if name not in what and digest(array) != kept:
                add(name)
        if self._fingerprint() != self.who:
            add("the strategies")
        shown = self.decisions._shown.values()
        if self.b.rules is not self.rules or self.rules != self.rules_copy or any(r != self.rules_copy for r in shown):
            add("the rules")
        return what

    def restore(self) -> None:
        """Put back what a replay from the start of the run needs: the line-up, the strategies' classes'
        methods, the rule set (the arrays are rebuilt by the new run)."""
        d = self.decisions
        d.strategies, saved = self.lineup
        d.strategies[:] = saved
        for cls, name, method in self.methods:
            if vars(cls).get(name) is not method:
                if method is None:
                    delattr(cls, name)
                else:
                    setattr(cls, name, method)
        for f in dataclasses.fields(self.rules):
            object.__setattr__(self.rules, f.name, getattr(self.rules_copy, f.name))
        d._shown.clear()
        self.who = self._fingerprint()
        self.attrs_seen = self._attributes()


def answers_digest(parts: list[tuple[np.ndarray, np.ndarray]]) -> list[int]:
    """Checksums of the working copies of the answers of the groups asked so far."""
    return [digest(dec) ^ digest(dec_w) for dec, dec_w in parts]
