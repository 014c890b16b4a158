"""The balanced design of tables: which strategies sit at which table, in which rotations."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

MAX_TABLES = 120
"""Largest number of tables for which every combination of strategies is played."""
_BASE_BLOCK_CANDIDATES = 20_000


# ------------------------------------------------------------------ the design
@dataclass(frozen=True)
class Design:
    """Tables of a seat-fair tournament (see the module docstring).

    Attributes
    ----------
    strategies : tuple of str
        Strategy labels (specs as text), in the order given.
    players : int
        Seats per table.
    tables : tuple of tuple of int
        For each table, the strategy index at each seat of rotation 0.
    kind : str
        ``"single"``, ``"repeat"``, ``"all-combinations"`` or ``"cyclic"``.
    """

    strategies: tuple[str, ...]
    players: int
    tables: tuple[tuple[int, ...], ...]
    kind: str

    def lineup(self, table: int, rotation: int) -> tuple[int, ...]:
        """Strategy index at each seat of ``table`` in ``rotation`` (seat ``s`` holds entry ``(s + r) % P``)."""
        base = self.tables[table]
        return tuple(base[(s + rotation) % self.players] for s in range(self.players))

    def rotations(self, table: int) -> int:
        """Distinct rotations of ``table``: the period of its line-up (``P`` unless it repeats)."""
        base = self.tables[table]
        return next(k for k in range(1, self.players + 1) if all(base[(s + k) % self.players] == base[s] for s in range(self.players)))

    def cells(self) -> list[tuple[int, int, tuple[int, ...]]]:
        """Every (table, rotation, line-up), in cell order (tables outermost)."""
        return [(t, r, self.lineup(t, r)) for t in range(len(self.tables)) for r in range(self.rotations(t))]

    def lineups(self) -> NDArray[np.int64]:
        """Strategy index per (cell, seat)."""
        return np.array([lineup for _, _, lineup in self.cells()], np.int64).reshape(-1, self.players)

    def seat_counts(self) -> NDArray[np.int64]:
        """Cells in which strategy ``k`` holds seat ``s``, shape (strategies, seats); every
        entry is equal in a seat-fair design."""
        counts = np.zeros((len(self.strategies), self.players), np.int64)
        for _, _, lineup in self.cells():
            for seat, k in enumerate(lineup):
                counts[k, seat] += 1
        return counts

    def pair_meetings(self) -> NDArray[np.int64]:
        """Tables at which strategies ``i`` and ``j`` both sit (diagonal: tables of ``i``)."""
        n = len(self.strategies)
        meet = np.zeros((n, n), np.int64)
        for table in self.tables:
            present = sorted(set(table))
            for i in present:
                for j in present:
                    meet[i, j] += 1
        return meet

    def describe(self) -> dict[str, Any]:
        """The design as JSON-able data (written into the dataset metadata)."""
        return {
            "kind": self.kind,
            "strategies": list(self.strategies),
            "players": self.players,
            "tables": [list(t) for t in self.tables],
            "rotations": [self.rotations(t) for t in range(len(self.tables))],
            "cells": len(self.cells()),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Design:
        """Inverse of `describe`."""
        return cls(tuple(data["strategies"]), int(data["players"]), tuple(tuple(t) for t in data["tables"]), data["kind"])


def make_design(strategies: list[str] | tuple[str, ...], players: int, *, max_tables: int = MAX_TABLES) -> Design:
    """The balanced design of tables for ``strategies`` at ``players`` seats (module docstring)."""
    labels = tuple(strategies)
    n, P = len(labels), players
    if n == P:
        return Design(labels, P, (tuple(range(n)),), "single")
    if n < P:
        if P % n == 0:
            return Design(labels, P, (tuple(s % n for s in range(P)),), "repeat")
        return Design(labels, P, tuple(tuple((s + t) % n for s in range(P)) for t in range(n)), "repeat")
    if math.comb(n, P) <= max_tables:
        return Design(labels, P, tuple(itertools.combinations(range(n), P)), "all-combinations")
    block = _base_block(n, P)
    return Design(labels, P, tuple(tuple((b + t) % n for b in block) for t in range(n)), "cyclic")


def _base_block(n: int, size: int) -> tuple[int, ...]:
    """A base block of a cyclic design on Z_n: ``size`` residues with 0, its differences as even as found.

    Exhaustive over the blocks containing 0 when there are at most
    ``_BASE_BLOCK_CANDIDATES``, else that many drawn by a fixed generator (so
    the design never changes between runs).
    """
    def spread(block: tuple[int, ...]) -> tuple[int, int]:
        diffs = np.bincount([(a - b) % n for a in block for b in block if a != b], minlength=n)[1:]
        return int(diffs.max() - diffs.min()), int(diffs.max())

    if math.comb(n - 1, size - 1) <= _BASE_BLOCK_CANDIDATES:
        candidates: Any = ((0, *rest) for rest in itertools.combinations(range(1, n), size - 1))
    else:
        rng = np.random.default_rng(np.random.SeedSequence(20261130))
        candidates = (
            (0, *sorted(int(x) for x in rng.choice(np.arange(1, n), size - 1, replace=False)))
            for _ in range(_BASE_BLOCK_CANDIDATES)
        )
    return min(candidates, key=lambda block: (spread(block), block))


__all__ = ["Design", "MAX_TABLES", "make_design"]
