"""Run configuration: what to simulate, in one frozen, describable dataclass."""

from __future__ import annotations

import dataclasses
import numbers
from dataclasses import dataclass
from typing import Any

from ..game.errors import UnosimInputError
from ..game.rules import RuleSet
from ..game.table import Table
from ..strategy.spec import StrategySpec, parse_strategies

__all__ = [
    "DEFAULT_BATCH_CELLS", "LARGEST_DEFAULT_BATCH", "MAX_BATCH_SIZE", "MAX_GAMES", "MAX_SEED", "default_batch_size", "RunConfig",
    "whole_number",
]

DEFAULT_BATCH_CELLS = 1 << 20
"""Batch sizing: hands of a batch hold about this many bytes (1–2 MB, within a core's cache)."""
MAX_GAMES = 10_000_000_000
"""The most games (or matches) of one run or cell; a bigger study is several runs of different seeds."""
MAX_BATCH_SIZE = 1 << 20
"""The most game slots stepped together."""
LARGEST_DEFAULT_BATCH = 8192
"""The largest batch size `default_batch_size` gives (two players)."""
MAX_SEED = (1 << 63) - 1
"""The largest run seed: seeds are 64-bit signed integers wherever a run records or derives them."""


def whole_number(name: str, value: Any, low: int, high: int | None, advice: str) -> int:
    """``value`` as a Python ``int`` if it is a whole number (a NumPy integer too; never a bool or a
    float) from ``low`` to ``high`` (None: no bound).

    Parameters
    ----------
    name : str
        The value's name in the message.
    value : Any
        The value given.
    low, high : int
        The bounds, both included.
    advice : str
        What to give instead, ending the message.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        Naming the value, what is allowed and ``advice``.
    """
    if not isinstance(value, bool) and isinstance(value, numbers.Integral):
        number = int(value)
        if low <= number and (high is None or number <= high):
            return number
    allowed = f"a whole number from {low:,} to {high:,}" if high is not None else f"a whole number ≥ {low:,}"
    raise UnosimInputError(f"{name} = {value!r}; {allowed} ({advice}).")


def default_batch_size(players: int) -> int:
    """A batch size that keeps a batch's hands within a core's cache (`DEFAULT_BATCH_CELLS`)."""
    from ..game.cards import N_TYPES

    size = DEFAULT_BATCH_CELLS // (players * N_TYPES)
    return int(max(256, min(LARGEST_DEFAULT_BATCH, 1 << (size.bit_length() - 1))))


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
        if not isinstance(self.players, bool) and isinstance(self.players, numbers.Integral):
            object.__setattr__(self, "players", int(self.players))  # a NumPy integer, as a Python int
        self.rules.check_table(self.players)
        object.__setattr__(self, "games", whole_number(
            "games", self.games, 1, MAX_GAMES, "the number of games; split a bigger study into runs of different seeds"))
        object.__setattr__(self, "seed", whole_number("seed", self.seed, 0, MAX_SEED, "a seed"))
        if self.batch_size is not None:
            object.__setattr__(self, "batch_size", whole_number(
                "batch_size", self.batch_size, 1, MAX_BATCH_SIZE, "use a whole number from 1 to 1048576, or leave it unset"))
        if len(self.strategies) != self.players:
            raise UnosimInputError(
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
        overrides: str | list[str] | dict[str, Any] | None = None,
        deck: str | None = None,
    ) -> RunConfig:
        """Build and validate a configuration from user-level values.

        ``rules``, ``players``, ``overrides`` and ``deck`` make the [`Table`][unosim.game.Table]
        (`Table.build`); ``strategies`` one spec for every seat or one per seat
        (a comma-separated string is split).
        """
        table = Table.build(rules, players, overrides, deck)
        specs = parse_strategies(strategies, table.players)
        return cls(
            rules=table.rules,
            players=table.players,
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
        """Inverse of [`to_dict`][unosim.RunConfig.to_dict]."""
        return cls(
            rules=RuleSet.from_dict(data["rules"]),
            players=data["players"],
            strategies=tuple(StrategySpec.from_dict(s) for s in data["strategies"]),
            seed=data["seed"],
            games=data["games"],
            batch_size=data.get("batch_size"),
            match=data.get("match", False),
        )
