"""Tamper evidence: the state a strategy must not change, checked at every step.

A Python strategy runs in the engine's process, so through the caller's frames or the garbage
collector it can find the engine's arrays (:mod:`unosim.strategy.observation` gives it copies
only). With verification on (``Engine(check=True)``, ``unosim check``, tournaments), the engine
leaves its own state untouched while a step's decisions are asked (answers and random-stream
counters go into working copies, written back once every strategy has answered), and
:class:`Integrity` takes a checksum of that state before the first strategy call of the step and
compares after the last, and the strategies' identities, methods and attributes after every call.
A difference found at the end of a step plays the run again comparing after every strategy call,
which names the strategy and the decision (:class:`~unosim.engine.decisions.TamperingError`).
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
``the records``
    the results written so far (records, points, match scores, counters);
``the strategies``
    the strategy objects, their classes' decision methods, their attributes (by identity), which
    seat plays which;
``the rules``
    the encoded rules (``cfg``) and deck, the run's rule set, and the copies of it the strategies
    are shown.

The checksum (two 64-bit lanes over the memory's words, a vectorised pass) finds any change made
by code that does not know it; code that rewrites the state and forges the checksum, or rewrites
the engine's working copies, is beyond any in-process check (``docs/fair_play.md``).
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

__all__ = ["DECISION_METHODS", "Integrity", "digest"]

DECISION_METHODS = (
    "play", "play_drawn", "choose_colour", "challenge", "forget_uno", "catch_uno",
    "point_at", "choose_link", "add_to_pile", "jump_in",
)  # fmt: skip
"""The decision methods of a strategy, whose replacement on a class :class:`Integrity` detects."""

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
    """Checksum of a contiguous array's memory (see :func:`_digest_words`)."""
    return int(_digest_words(a.reshape(-1).view(np.uint8)))


class Integrity:
    """Checksums of the state no strategy may change, and the line-up's fingerprint.

    Parameters
    ----------
    decisions : Decisions
        The asker (its strategies and their bookkeeping are part of the protected state).
    rules : RuleSet
        The run's rule set.
    """

    def __init__(self, decisions: Any, rules: RuleSet) -> None:
        self.decisions = decisions
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

    def _attributes(self) -> list[tuple[tuple[str, int], ...]]:
        """Each strategy's attributes, by identity."""
        return [tuple((k, id(v)) for k, v in vars(s).items()) if hasattr(s, "__dict__") else () for s in self.decisions.strategies]

    def called(self, k: int) -> bool:
        """After a call of strategy ``k``: whether the other strategies' attributes are as they were
        (a strategy may change its own)."""
        attrs = self._attributes()
        seen = self.attrs_seen
        same = len(attrs) == len(seen) and all(a == b for j, (a, b) in enumerate(zip(attrs, seen)) if j != k)
        self.attrs_seen = attrs
        return same

    def start(self, b: Buffers, parity: int, guarded: tuple[tuple[str, Any, str], ...]) -> None:
        """Checksum the state as a step's decisions start to be asked: the batch's, the decision rows
        of every group, and ``guarded`` (``(what, owner, attribute)``: arrays of the run and the engine)."""
        names = [
            ("the hands", b, "hands"), ("the hands", b, "hsize"), ("the hands", b, "opening"), ("the piles", b, "piles"),
            ("the table", b, "slot"), ("the table", b, "game"), ("the table", b, "keys"), ("the table", b, "seat_dec"),
            ("the table", b, "seat_w"), ("the table", b, "seat_ctr"), ("the strategies", b, "seat_strat"),
            ("the decision rows", b, "group_base"), ("the decision rows", b, "group_count"), *guarded,
        ]  # fmt: skip
        items: list[tuple[str, Any, str | None, np.ndarray]] = [(what, owner, attr, getattr(owner, attr)) for what, owner, attr in names]
        for lo, n in zip(b.group_base.tolist(), b.group_count.tolist()):
            if n:
                for name in ("row_slot", "row_seat", "row_legal", "row_info"):
                    items.append(("the decision rows", None, None, getattr(b, name)[parity, lo : lo + n]))
        self.items = items
        self.buffers = {name: getattr(b, name) for name in ("row_slot", "row_seat", "row_legal", "row_info", "dec", "dec_w")}
        self.b = b
        self.sums = [digest(a) for _, _, _, a in items]

    def changed(self) -> list[str]:
        """What changed since :meth:`start` (empty: nothing)."""
        what: list[str] = []

        def add(name: str) -> None:
            if name not in what:
                what.append(name)

        for (name, owner, attr, array), kept in zip(self.items, self.sums):
            if name not in what and ((attr is not None and getattr(owner, attr) is not array) or digest(array) != kept):
                add(name)
        if any(getattr(self.b, name) is not array for name, array in self.buffers.items()):
            add("the decision rows")
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
