"""How much skill pays under each rule set and table size: a player's win rate against ``random``.

Design
------
A *skill study* plays, for every rule set (a preset with some rule options set, a
`Variant`), every player count and every measured player
(a strategy spec, e.g. ``search(playouts=256)`` or ``greedy``), one run of ``games`` games
with the measured player at seat 0 and ``random`` at every other seat. The dealer is drawn
per game, so seat 0 sits at every offset from the dealer. Every measured player meets the
same deals at a (rule set, player count): the run seed is the study's.

For each cell the table holds the win rate with its 95 % Wilson score interval (it stays
inside [0, 1] and holds the point estimate, which matters at 16 players, where the rates are
small), the fair share ``1/P`` and the *skill share*: the win rate divided by the fair share
(1 = no better than a random seat; 2 = twice its share of wins), with the interval scaled
the same way. A game designer reads the skill share across player counts: how much a good
player's edge survives a larger table, and which house rule dilutes it.

The default study (`DEFAULT_VARIANTS`, `DEFAULT_PLAYERS`, `DEFAULT_MEASURED`)
is ``experiments/skill.toml``; ``unosim skill`` runs it and writes the table and the plot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ..game import inputs
from ..game.errors import UnosimInputError
from ..runs.options import Execution
from ..runs.results import read_result, write_result
from ..version import __version__
from .compare import Variant, check_playable, named_variant, parse_players
from .stats import LEVEL, z_value

__all__ = [
    "DEFAULT_MEASURED", "DEFAULT_PLAYERS", "DEFAULT_VARIANTS", "SKILL_FILE", "SPEC_KEYS", "SkillStudy", "load_spec",
    "skill_study", "summary", "wilson_interval",
]

DEFAULT_PLAYERS = [2, 3, 4, 6, 8, 12, 16]
"""Player counts of the default study."""
DEFAULT_MEASURED = ["search(playouts=256)", "greedy"]
"""The players measured by default: the search at a small budget and the one-line greedy rule."""
DEFAULT_VARIANTS: dict[str, dict[str, Any]] = {
    "classic": {"rules": "classic"},
    "classic-house": {"rules": "classic-house"},
    "party": {"rules": "party"},
    "stacking (same face)": {"rules": "classic", "stacking": "same_face"},
    "stacking (mixed)": {"rules": "classic", "stacking": "mixed"},
    "stacking (+4 on +2)": {"rules": "classic", "stacking": "plus4_on_plus2"},
    "seven-zero": {"rules": "classic", "seven_zero": True},
    "jump-in": {"rules": "classic", "speed_play": True},
    "jump-in with action cards": {"rules": "classic", "speed_play": True, "jump_in_cards": "numbers_and_actions"},
    "no going out on an action card": {"rules": "classic", "go_out_on_action": False},
}
"""The rule sets of the default study: the three presets and each house rule of classic on its own."""
SKILL_FILE = "_skill.json"
"""Marker file of a skill study directory (settings); the table is ``skill.csv`` next to it."""
OPPONENT = "random"
"""The strategy at every seat but the measured one."""

SPEC_KEYS = {
    "name": "a text",
    "description": "a text",
    "players": 'player counts: 16, [2, 4, 8] or "2-16"',
    "measured": 'strategy specs, e.g. ["search(playouts=256)", "greedy"]',
    "games": "a whole number ≥ 2 (games per rule set, player count and measured player)",
    "seed": "a whole number ≥ 0",
    "variants": 'named rule sets: [variants."seven-zero"] with rules = "classic" and seven_zero = true',
    "out": "a directory path as text",
}
"""Keys of a skill study file (``experiments/skill.toml``) and what they allow."""


def wilson_interval(wins: int, games: int, level: float = LEVEL) -> tuple[float, float]:
    """The Wilson score interval of a binomial rate.

    Parameters
    ----------
    wins : int
        Successes.
    games : int
        Trials (> 0).
    level : float
        Coverage.

    Returns
    -------
    tuple of float
        ``(low, high)``, inside [0, 1]; it holds ``wins / games``.
    """
    z = z_value(level)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


@dataclass(frozen=True)
class SkillStudy:
    """Result of `skill_study`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per (rule set, players, measured player): ``rule_set``, ``players``, ``player``,
        ``games``, ``wins``, ``win_rate``, ``low``, ``high`` (95 % Wilson), ``fair_share`` (1/P),
        ``skill_share``, ``share_low``, ``share_high`` (the win rate and its interval over the fair share).
    settings : dict
        What was played (rule sets, players, measured players, games, seed).
    """

    table: pd.DataFrame
    settings: dict[str, Any]

    def save(self, out: str | Path) -> list[Path]:
        """Write ``skill.csv`` and then ``_skill.json`` into ``out``, whole or not at all."""
        return write_result(out, SKILL_FILE, self.settings, {"skill.csv": lambda p: self.table.to_csv(p, index=False)})

    @classmethod
    def read(cls, path: str | Path) -> SkillStudy:
        """Read a study written by `save`.

        Raises
        ------
        ValueError
            When its table is not the one written with its settings.
        """
        path = Path(path)
        settings = read_result(path, SKILL_FILE, "skill study")
        return cls(pd.read_csv(path / "skill.csv"), settings)


def load_spec(path: str | Path) -> dict[str, Any]:
    """Read a skill study file into the keyword arguments of `skill_study` (plus ``out``).

    Raises
    ------
    ValueError
        For an unreadable file, an unknown key or a value of the wrong type.
    """
    path = Path(path)
    data = inputs.read_settings(path, "skill study file", SPEC_KEYS)
    measured = data.get("measured")
    if measured is not None and (not isinstance(measured, list) or not measured or not all(isinstance(m, str) for m in measured)):
        raise UnosimInputError(f"{path}: measured = {measured!r} is not allowed; use {SPEC_KEYS['measured']}.")
    if "variants" in data and not isinstance(data["variants"], dict):
        raise UnosimInputError(f"{path}: variants = {data['variants']!r} is not allowed; use {SPEC_KEYS['variants']}.")
    return {k: data[k] for k in ("players", "measured", "games", "seed", "variants", "out") if k in data}


def _variants(given: dict[str, dict[str, Any]] | list[Variant]) -> list[Variant]:
    """The rule sets of a study: named variants (a preset each, default ``classic``), each name once."""
    if isinstance(given, dict):
        out = []
        for name, options in given.items():
            if not isinstance(options, dict):
                raise UnosimInputError(f"variant {name!r} = {options!r} is not allowed; use {SPEC_KEYS['variants']}.")
            out.append(named_variant(str(name), options, "classic"))
    else:
        out = list(given)
    if not out:
        raise UnosimInputError(f"give at least one rule set; use {SPEC_KEYS['variants']}.")
    labels = [v.label for v in out]
    if len(set(labels)) < len(labels):
        raise UnosimInputError("a rule set name is given twice; give every rule set a name of its own.")
    return out


def _wins(variant: Variant, players: int, measured: str, games: int, seed: int, execution: Execution) -> int:
    from ..engine.config import RunConfig
    from ..runs.runner import run

    lineup = [measured] + [OPPONENT] * (players - 1)
    config = RunConfig.build(rules=variant.rules(players), players=players, strategies=lineup, seed=seed, games=games)
    result = run(config, None, execution)
    assert result.table is not None
    return int((result.table.column("winner").to_numpy() == 0).sum())


def skill_study(
    players: str | int | list[int] | None = None,
    measured: list[str] | None = None,
    *,
    games: int = 200,
    seed: int = 0,
    variants: dict[str, dict[str, Any]] | list[Variant] | None = None,
    execution: Execution | None = None,
    **run_options: Any,
) -> SkillStudy:
    """Win rates of each measured player against ``random`` per rule set and player count (module doc).

    Parameters
    ----------
    players : str, int or list of int, optional
        Player counts (``"2,4,8"``, ``"2-16"``); default `DEFAULT_PLAYERS`.
    measured : list of str, optional
        Strategy specs measured at seat 0; default `DEFAULT_MEASURED`.
    games : int
        Games per (rule set, players, measured player).
    seed : int
        Run seed of every cell (the measured players meet the same deals).
    variants : dict or list of Variant, optional
        Named rule sets, name to rule options (``{"seven-zero": {"rules": "classic", "seven_zero": True}}``;
        ``rules`` picks the preset, default ``classic``); default `DEFAULT_VARIANTS`.
    execution : Execution, optional
        How to play each run (default one process; always quiet).
    **run_options
        Fields of [`Execution`][unosim.runs.Execution] on top of ``execution``.

    Returns
    -------
    SkillStudy
    """
    from ..strategy.spec import StrategySpec

    execution = Execution.of(execution or Execution(jobs=1), **run_options).replace(quiet=True)
    counts = parse_players(DEFAULT_PLAYERS if players is None else players)
    measured = list(DEFAULT_MEASURED if measured is None else measured)
    if not measured:
        raise UnosimInputError("give at least one strategy to measure, e.g. measured = [\"greedy\"].")
    for spec in measured:
        StrategySpec.parse(spec)
    if isinstance(games, bool) or not isinstance(games, int) or games < 2:
        raise UnosimInputError(f"games = {games!r}; give a whole number ≥ 2 (games per rule set, player count and player).")
    vs = _variants(DEFAULT_VARIANTS if variants is None else variants)
    for v in vs:
        for p in counts:
            check_playable(v, p)
    rows = []
    for v in vs:
        for p in counts:
            for spec in measured:
                wins = _wins(v, p, spec, games, seed, execution)
                low, high = wilson_interval(wins, games)
                rate = wins / games
                rows.append({"rule_set": v.label, "players": p, "player": spec, "games": games, "wins": wins,
                             "win_rate": rate, "low": low, "high": high, "fair_share": 1 / p, "skill_share": rate * p,
                             "share_low": low * p, "share_high": high * p})
    settings = {"kind": "skill", "rule_sets": [v.label for v in vs], "rule_set_rules": {v.label: v.to_dict() for v in vs},
                "players": counts, "measured": measured, "opponent": OPPONENT, "games": games, "seed": seed,
                "unosim_version": __version__}
    return SkillStudy(pd.DataFrame(rows), settings)


def summary(table: pd.DataFrame, player: str) -> pd.DataFrame:
    """The skill share of ``player`` as a rule set × players grid (rows: rule sets in the table's order)."""
    data = table[table["player"] == player]
    grid = data.pivot(index="rule_set", columns="players", values="skill_share")
    return grid.reindex(list(dict.fromkeys(data["rule_set"])))


