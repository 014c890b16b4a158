"""Run configuration: what to simulate, in one frozen, describable dataclass."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ..game.rules import RuleSet
from ..game.table import Table
from ..strategy.spec import StrategySpec, parse_strategies

__all__ = ["DEFAULT_BATCH_CELLS", "default_batch_size", "RunConfig"]

DEFAULT_BATCH_CELLS = 1 << 20
"""Batch sizing: hands of a batch hold about this many bytes (1–2 MB, within a core's cache)."""


def default_batch_size(players: int) -> int:
    """A batch size that keeps a batch's hands within a core's cache (:data:`DEFAULT_BATCH_CELLS`)."""
    from ..game.cards import N_TYPES

    size = DEFAULT_BATCH_CELLS // (players * N_TYPES)
    return int(max(256, min(8192, 1 << (size.bit_length() - 1))))


@dataclass(frozen=True)
class RunConfig:
    """Everything that determines a run's records.

    Parameters
    ----------
    rules : RuleSet
        The rule set.
    players : int
        Players at the table, 2–16.
    strategies : tuple of StrategySpec
        One strategy per seat (seat 0 first).
    seed : int
        Run seed; turned into a 64-bit key through ``numpy.random.SeedSequence``.
    games : int
        Number of games (or matches, with ``match=True``) in the run.
    batch_size : int or None
        Game slots stepped together; ``None`` picks one by table size. It never
        changes results.
    match : bool
        Play matches to ``rules.target_score`` instead of single rounds.
    """

    rules: RuleSet
    players: int
    strategies: tuple[StrategySpec, ...]
    seed: int = 0
    games: int = 1000
    batch_size: int | None = None
    match: bool = False

    def __post_init__(self) -> None:
        self.rules.check_table(self.players)
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise ValueError(f"games = {self.games!r}; the number of games must be a whole number of at least 1.")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed = {self.seed!r}; a seed must be a whole number ≥ 0.")
        if self.batch_size is not None and (not isinstance(self.batch_size, int) or not 1 <= self.batch_size <= 1 << 20):
            raise ValueError(f"batch_size = {self.batch_size!r}; use a whole number from 1 to 1048576, or leave it unset.")
        if len(self.strategies) != self.players:
            raise ValueError(
                f"{len(self.strategies)} strategies for {self.players} players; give one strategy name "
                f"for every seat or exactly one per seat ({self.players})."
            )

    @classmethod
    def build(
        cls,
        *,
        rules: str | RuleSet = "classic",
        players: int = 4,
        strategies: str | list[str] | tuple[Any, ...] = "random",
        seed: int = 0,
        games: int = 1000,
        batch_size: int | None = None,
        match: bool = False,
        overrides: list[str] | dict[str, Any] | None = None,
        deck: str | None = None,
    ) -> RunConfig:
        """Build and validate a configuration from user-level values.

        ``rules``, ``players``, ``overrides`` and ``deck`` make the :class:`~unosim.game.table.Table`
        (:meth:`Table.build`); ``strategies`` one spec for every seat or one per seat
        (a comma-separated string is split).
        """
        table = Table.build(rules, players, overrides, deck)
        specs = parse_strategies(strategies, players)
        return cls(
            rules=table.rules,
            players=players,
            strategies=specs,
            seed=seed,
            games=games,
            batch_size=batch_size,
            match=match,
        )

    @property
    def effective_batch_size(self) -> int:
        """The batch size used: ``batch_size`` or the table-size default."""
        return self.batch_size or default_batch_size(self.players)

    def replace(self, **changes: Any) -> RunConfig:
        """Return a validated copy with ``changes``."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able description (rules, strategies with parameters, seed, ...)."""
        return {
            "rules": self.rules.to_dict(),
            "players": self.players,
            "strategies": [s.to_dict() for s in self.strategies],
            "seed": self.seed,
            "games": self.games,
            "batch_size": self.batch_size,
            "match": self.match,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunConfig:
        """Inverse of :meth:`to_dict`."""
        return cls(
            rules=RuleSet.from_dict(data["rules"]),
            players=data["players"],
            strategies=tuple(StrategySpec.from_dict(s) for s in data["strategies"]),
            seed=data["seed"],
            games=data["games"],
            batch_size=data.get("batch_size"),
            match=data.get("match", False),
        )
