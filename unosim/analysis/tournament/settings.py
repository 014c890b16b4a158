"""A tournament request, validated before any game is played."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine.config import MAX_GAMES, RunConfig, whole_number
from ...game.errors import UnosimInputError
from ...game.rules import RuleSet
from ...game.table import Table
from ...strategy.spec import StrategySpec, parse_strategies, split_top_level
from .design import Design, make_design

MAX_STRATEGIES = 64
"""Most strategies in one tournament."""
DEFAULT_BOOTSTRAP = 200
"""Bootstrap replicates of the ratings."""
DEFAULT_MAX_GAMES = 10_000_000
"""Default cap of a precision run (games in all)."""

# ------------------------------------------------------------------ settings
@dataclass(frozen=True)
class Settings:
    """A validated tournament request (everything that decides its rows and its analysis)."""

    specs: tuple[StrategySpec, ...]
    design: Design
    rules: RuleSet
    players: int
    seed: int
    games: int
    match: bool
    precision: float | None
    max_games: int
    batch_size: int | None
    bootstrap: int

    @property
    def labels(self) -> tuple[str, ...]:
        """Strategy labels (specs as text), in the order given."""
        return self.design.strategies

    @property
    def n_cells(self) -> int:
        """Seatings: (table, rotation) cells."""
        return len(self.design.cells())

    def config(self, lineup: tuple[int, ...], deals: int) -> RunConfig:
        """The run configuration of one cell (every cell shares the seed: common random numbers)."""
        return RunConfig(
            rules=self.rules,
            players=self.players,
            strategies=tuple(self.specs[k] for k in lineup),
            seed=self.seed,
            games=deals,
            batch_size=self.batch_size,
            match=self.match,
        )


def parse_strategy_list(strategies: str | list[Any] | tuple[Any, ...]) -> tuple[StrategySpec, ...]:
    """The distinct strategies of a tournament: a comma-separated text or a list of specs.

    Raises
    ------
    ValueError
        Naming every unknown strategy at once, a repeated one, or fewer than two.
    """
    from ...strategy.registry import REGISTRY, is_isolating, is_user_code, make, resolve

    def elsewhere(name: str) -> bool:  # user code played isolated: checked in its own process, never imported here
        return is_isolating() and is_user_code(name)

    items = split_top_level(strategies) if isinstance(strategies, str) else [str(s) for s in strategies]
    unknown = []
    for item in items:
        name = item.split("(")[0].strip()
        if name.startswith(("rules:", "policy:")) or elsewhere(name):  # a rule or policy file: StrategySpec.parse
            continue
        try:
            resolve(name)
        except ValueError:
            unknown.append(name)
    if unknown:
        raise UnosimInputError(
            f"unknown {'strategy' if len(unknown) == 1 else 'strategies'} {', '.join(map(repr, unknown))}: not "
            f"registered and not an importable 'package.module:Class'. Known strategies: {', '.join(sorted(REGISTRY))}."
        )
    specs = [StrategySpec.parse(item) for item in items]
    for spec in specs:
        if not elsewhere(spec.name):
            make(spec.name, dict(spec.params))  # parameter values are checked by the constructor
    labels = [str(s) for s in specs]
    if len(specs) < 2:
        raise UnosimInputError(
            f"a tournament needs at least 2 different strategies; got {len(specs)} ({', '.join(labels) or 'none'}). "
            "Give a comma-separated list, e.g. --strategies random,greedy."
        )
    repeated = next((label for label in labels if labels.count(label) > 1), None)
    if repeated is not None:
        raise UnosimInputError(
            f"strategy {repeated!r} is listed twice; give each strategy once (with fewer strategies than "
            "seats they repeat at the table by themselves)."
        )
    if len(specs) > MAX_STRATEGIES:
        raise UnosimInputError(f"{len(specs)} strategies; a tournament takes at most {MAX_STRATEGIES}.")
    return tuple(specs)


def make_settings(
    *,
    rules: Any = "party",
    players: int = 6,
    strategies: str | list[Any] | tuple[Any, ...] = "random,greedy",
    games: int = 60_000,
    seed: int = 0,
    match: bool = False,
    precision: float | None = None,
    max_games: int | None = None,
    overrides: str | list[str] | dict[str, Any] | None = None,
    deck: str | None = None,
    batch_size: int | None = None,
    bootstrap: int = DEFAULT_BOOTSTRAP,
) -> Settings:
    """Validate a tournament request before any game is played.

    Raises
    ------
    ValueError
        For any bad value, saying what is allowed.
    """
    base = Table.build(rules, players, overrides, deck)
    players = base.players
    checked = RunConfig(base.rules, players, parse_strategies("random", players), seed=seed, batch_size=batch_size,
                        match=match)  # the seed and batch size, checked as for any run
    seed, batch_size = checked.seed, checked.batch_size
    games = whole_number("games", games, 1, MAX_GAMES, "games in all (--games)")
    if precision is not None and (isinstance(precision, bool) or not isinstance(precision, (int, float)) or not 0 < precision < 0.5):
        raise UnosimInputError(
            f"precision = {precision!r}; give the wanted 95 % half-width of every win rate, a number "
            "above 0 and below 0.5, e.g. --precision 0.005."
        )
    if max_games is not None:
        if precision is None:
            raise UnosimInputError("--max-games only applies with --precision; use --games for a fixed number of games.")
        max_games = whole_number("max_games", max_games, games, MAX_GAMES, f"at least --games ({games:,})")
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, int) or bootstrap < 10:
        raise UnosimInputError(f"bootstrap = {bootstrap!r}; give a whole number of bootstrap replicates ≥ 10.")
    specs = parse_strategy_list(strategies)
    design = make_design([str(s) for s in specs], players)
    return Settings(
        specs=specs,
        design=design,
        rules=base.rules,
        players=players,
        seed=seed,
        games=games,
        match=match,
        precision=float(precision) if precision is not None else None,
        max_games=max_games if max_games is not None else max(DEFAULT_MAX_GAMES, games),
        batch_size=batch_size,
        bootstrap=bootstrap,
    )


__all__ = ["DEFAULT_BOOTSTRAP", "DEFAULT_MAX_GAMES", "MAX_STRATEGIES", "Settings", "make_settings", "parse_strategy_list"]
