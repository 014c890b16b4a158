"""A table: the rules and the number of players, validated together, as a user names them."""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

from .errors import UnosimInputError
from .rules import RuleSet

__all__ = ["Table"]


@dataclass(frozen=True)
class Table:
    """The rules a table plays and how many sit at it, checked together.

    Parameters
    ----------
    rules : RuleSet
        The rule set (a preset with overrides and a deck applied).
    players : int
        Players at the table, 2–16 (and no more than the deck's copies can deal).

    Raises
    ------
    ValueError
        For a player count the rules cannot deal, naming what is allowed.
    """

    rules: RuleSet
    players: int

    def __post_init__(self) -> None:
        if not isinstance(self.players, bool) and isinstance(self.players, numbers.Integral):
            object.__setattr__(self, "players", int(self.players))  # a NumPy integer, as a Python int
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise UnosimInputError(f"players = {self.players!r}; give a whole number from 2 to 16.")
        self.rules.check_table(self.players)

    @classmethod
    def build(
        cls,
        rules: str | RuleSet = "classic",
        players: int = 4,
        overrides: str | list[str] | dict[str, Any] | None = None,
        deck: str | None = None,
    ) -> Table:
        """A table from user-level values: a preset name or a [`RuleSet`][unosim.RuleSet], ``OPTION=VALUE``
        texts (one text is one override; or a dict of values) on top, a deck name or file."""
        ruleset = RuleSet.preset(rules) if isinstance(rules, str) else rules
        if isinstance(overrides, str):
            overrides = [overrides]  # one OPTION=VALUE, never its characters
        if overrides is not None and not isinstance(overrides, dict | list | tuple):
            raise UnosimInputError(f"overrides = {overrides!r}; give OPTION=VALUE texts (a list, or one text) or a dict of values.")
        if overrides:
            ruleset = ruleset.replace(**overrides) if isinstance(overrides, dict) else ruleset.with_overrides(list(overrides))
        if deck is not None:
            ruleset = ruleset.replace(deck=str(deck))
        return cls(ruleset, players)
