"""The state of a batch of games in lockstep (`Buffers`, layout in
`unosim.game.kernels.layout`) and the raw results of a played range (`Played`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ..game.cards import N_TYPES
from ..game.kernels import layout as L

if TYPE_CHECKING:
    from ..game.rules import RuleSet

__all__ = ["Buffers", "Played"]

_ROW_FIELDS = (
    ("row_slot", (), np.int32), ("row_seat", (), np.int32), ("row_legal", (N_TYPES,), np.bool_),
    ("row_info", (L.N_INFO,), np.int32), ("dec", (L.N_DEC,), np.int32), ("dec_w", (), np.float64),
)
"""The row buffers (name, shape of a row, type): each ``(2, rows, *shape)``, one half per parity."""


@dataclass
class Buffers:
    """The batch state and the observation/decision row buffers (see ``layout``)."""

    players: int
    rules: RuleSet
    relink_must_differ: bool
    slot: NDArray[np.int32]
    game: NDArray[np.int64]
    keys: NDArray[np.uint64]
    hands: NDArray[np.int8]
    hsize: NDArray[np.int32]
    piles: NDArray[np.int8]
    seat_strat: NDArray[np.int32]
    seat_ctr: NDArray[np.int32]
    seat_dec: NDArray[np.int32]
    seat_w: NDArray[np.float64]
    opening: NDArray[np.int8]
    row_slot: NDArray[np.int32]
    row_seat: NDArray[np.int32]
    row_legal: NDArray[np.bool_]
    row_info: NDArray[np.int32]
    dec: NDArray[np.int32]
    dec_w: NDArray[np.float64]
    group_base: NDArray[np.int64]
    group_count: NDArray[np.int64]

    @staticmethod
    def row_capacity(batch: int, players: int, n_strategies: int) -> list[int]:
        """The rows of each (phase, strategy) group's region: a row per slot, a row per seat of a
        slot in the phases every seat answers."""
        return [
            batch * players if phase in L.MULTI_ACTOR else batch
            for phase in range(L.N_DECISION_PHASES)
            for _ in range(n_strategies)
        ]

    @classmethod
    def row_bytes(cls, batch: int, players: int, n_strategies: int) -> int:
        """The memory of the row buffers (both of them) of ``allocate``."""
        per_row = sum(int(np.prod(shape, dtype=np.int64)) * np.dtype(kind).itemsize for _, shape, kind in _ROW_FIELDS)
        return 2 * sum(cls.row_capacity(batch, players, n_strategies)) * per_row

    @classmethod
    def allocate(cls, batch: int, players: int, n_strategies: int, rules: RuleSet) -> Buffers:
        """Buffers for ``batch`` slots of games under ``rules``; each (phase, strategy) group gets its own row region."""
        caps = cls.row_capacity(batch, players, n_strategies)
        base = np.concatenate([[0], np.cumsum(caps)[:-1]]).astype(np.int64)
        rows = int(sum(caps))
        return cls(
            players=players,
            rules=rules,
            relink_must_differ=rules.relink_must_differ,
            slot=np.zeros((batch, L.N_FIELDS), np.int32),
            game=np.full(batch, -1, np.int64),
            keys=np.zeros(batch, np.uint64),
            hands=np.zeros((batch, players, N_TYPES), np.int8),
            hsize=np.zeros((batch, players), np.int32),
            piles=np.zeros((batch, 3, N_TYPES), np.int8),
            seat_strat=np.zeros((batch, players), np.int32),
            seat_ctr=np.zeros((batch, players), np.int32),
            seat_dec=np.zeros((batch, players), np.int32),
            seat_w=np.zeros((batch, players), np.float64),
            opening=np.zeros((batch, players, rules.hand_size), np.int8),
            **{name: np.zeros((2, rows, *shape), kind) for name, shape, kind in _ROW_FIELDS},
            group_base=base,
            group_count=np.zeros(len(caps), np.int64),
        )


    def reset(self) -> Buffers:
        """These buffers as ``allocate`` makes them, for another run of the same engine. The row
        buffers keep their bytes: a run reads a row only after writing it (``group_count``, zeroed
        here, says which rows hold decisions, and no slot points at a row), as every run reuses them
        from one call to the next. Allocating them afresh was a quarter of a short run's time."""
        for name in ("slot", "keys", "hands", "hsize", "piles", "seat_strat", "seat_ctr", "seat_dec", "seat_w", "opening",
                     "group_count"):
            getattr(self, name).fill(0)
        self.game.fill(-1)
        return self


@dataclass
class Played:
    """Raw results of [`Engine.play`][unosim.engine.Engine.play].

    Single rounds: row ``i`` of ``rec``/``points``/``opening`` is game ``first + i``.
    Matches: those rows are the rounds, sorted by match then round (``round_game`` holds
    each row's match, ``rec[:, R_ROUND]`` its round); ``match_scores[i]`` and
    ``match_winner[i]`` are the final totals and winner of match ``first + i``.
    """

    first: int
    rec: NDArray[np.int32]
    points: NDArray[np.int16]
    opening: NDArray[np.int8]
    events: NDArray[np.int32] | None = None
    round_game: NDArray[np.int64] | None = None
    match_scores: NDArray[np.int32] | None = None
    match_winner: NDArray[np.int32] | None = None
