"""Rule-balance comparisons on common random numbers: the same deals played under two or
more rule sets.

Design
------
Every variant (a preset with some rule options set) is played at each player count
with the same run seed and game indices, so game ``i`` starts from the same
random stream under every variant (common random numbers: identical deals whenever
the variants share a deck). Two runs per (variant, players):

* every seat ``random``: game length (turns), the first player's edge (win rate of
  seat offset 1 minus the fair share ``1/P``) and the truncated share (E-5);
* seat 0 plays the stronger strategy (``skill``, any strategy spec, default ``greedy``), the others
  ``random``: the *skill edge*, seat 0's win rate minus ``1/P`` — how much skill
  matters under the rules (the dealer is drawn per game, so seat 0 sits at every
  offset).

Each metric is reported per variant (mean and 95 % interval) and as the paired
difference of every variant against the first one (game by game, 95 % interval),
with the variance reduction the pairing achieved: the variance of the difference
of two independent samples divided by the variance of the paired difference
(1 = no gain; games diverge within a few turns, so it can be small).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ..game import inputs
from ..game.errors import UnosimInputError
from ..game.names import text_cells
from ..game.rules import MAX_DECK_COPIES, MAX_PLAYERS, MIN_PLAYERS, PRESETS, RuleSet
from ..runs.options import Execution
from ..runs.results import read_result, write_result
from ..version import __version__
from .stats import mean_interval, paired_difference

METRICS = {
    "turns": "game length (turns)",
    "first_player_edge": "first player's edge (pp)",
    "truncated": "truncated games (%)",
    "skill_edge": "skill edge of {skill} vs random (pp)",
}
"""Metric keys and their labels (units in brackets)."""
COMPARE_FILE = "_compare.json"
"""Marker file of a comparison directory (settings); the tables are CSV files next to it."""


@dataclass(frozen=True)
class Variant:
    """One rule set of a comparison: a preset, the options set on top of it, and a name."""

    preset: str
    options: tuple[tuple[str, str], ...]
    name: str = ""
    """What a designer calls it (``"stacking + 7-0"``); empty: the label names the options."""

    @property
    def label(self) -> str:
        """The name, else a ``party speed_play=false`` style one."""
        return self.name or " ".join([self.preset] + [f"{k}={v}" for k, v in self.options])

    def to_dict(self) -> dict[str, Any]:
        """The preset and options, as a comparison's settings record them (``variant_rules``)."""
        return {"rules": self.preset, "options": dict(self.options)}

    def rules(self, players: int) -> RuleSet:
        """The rule set at ``players`` (a second deck shuffled in when one cannot deal)."""
        rules = PRESETS[self.preset].with_overrides([f"{k}={v}" for k, v in self.options])
        if rules.copies_needed(players) > rules.deck_copies and "deck_copies" not in dict(self.options):
            rules = rules.replace(deck_copies=min(MAX_DECK_COPIES, rules.copies_needed(players)))
        return rules


@dataclass(frozen=True)
class Comparison:
    """Result of `compare`.

    Attributes
    ----------
    levels : pandas.DataFrame
        Per (players, variant, metric): ``mean``, ``low``, ``high`` (95 %), ``games``.
    differences : pandas.DataFrame
        Per (players, variant, metric) for every variant but the first: the paired
        difference ``variant - baseline`` (``diff``, ``se``, ``low``, ``high``),
        both means, and ``variance_reduction``.
    settings : dict
        What was played (variants, players, games, seed, skill).
    """

    levels: pd.DataFrame
    differences: pd.DataFrame
    settings: dict[str, Any]

    def save(self, out: str | Path) -> list[Path]:
        """Write ``levels.csv``, ``differences.csv`` and then ``_compare.json`` into ``out``, whole or not at all
        (`unosim.runs.results.write_result`: a failed write leaves the previous comparison)."""
        return write_result(out, COMPARE_FILE, self.settings, {
            "levels.csv": lambda p: text_cells(self.levels).to_csv(p, index=False),
            "differences.csv": lambda p: text_cells(self.differences).to_csv(p, index=False),
        })

    @classmethod
    def read(cls, path: str | Path) -> Comparison:
        """Read a comparison written by [`save`][unosim.analysis.Comparison.save].

        Raises
        ------
        ValueError
            When its tables are not the ones written with its settings (`unosim.runs.results.read_result`).
        """
        path = Path(path)
        settings = read_result(path, COMPARE_FILE, "comparison")
        return cls(pd.read_csv(path / "levels.csv"), pd.read_csv(path / "differences.csv"), settings)


def parse_players(text: str | int | list[int]) -> list[int]:
    """``"2-16"``, ``"4,8,16"``, ``16`` or a list -> player counts (each checked)."""
    if isinstance(text, int) and not isinstance(text, bool):
        counts = [text]
    elif isinstance(text, list):
        counts = list(text)
    else:
        counts = []
        try:
            for part in str(text).split(","):
                lo, _, hi = part.strip().partition("-")
                counts += list(range(int(lo), int(hi) + 1)) if hi else [int(lo)]
        except ValueError:
            counts = []
    if not counts or not all(isinstance(p, int) and MIN_PLAYERS <= p <= MAX_PLAYERS for p in counts):
        raise UnosimInputError(
            f"players = {text!r} is not allowed; give counts from {MIN_PLAYERS} to {MAX_PLAYERS}: "
            "one (16), a list (4,8,16) or a range (2-16)."
        )
    return sorted(set(counts))


def combinations(presets: str | list[str], options: list[str] | None = None) -> list[Variant]:
    """Every combination of presets and option values: ``["speed_play=true,false"]`` gives two.

    Raises
    ------
    ValueError
        For an unknown preset, a malformed option, an invalid value or fewer than two variants.
    """
    names = [p.strip() for p in presets.split(",")] if isinstance(presets, str) else list(presets)
    for name in names:
        if name not in PRESETS:
            raise UnosimInputError(f"rules {name!r} is not a preset; choose from: {', '.join(PRESETS)} (comma-separated for several).")
    axes: list[list[tuple[str, str]]] = []
    for text in options or []:
        key, eq, values = text.partition("=")
        if not eq or not key.strip() or not values.strip():
            raise UnosimInputError(f"--option {text!r} is not OPTION=VALUE[,VALUE...]; e.g. --option speed_play=true,false.")
        axes.append([(key.strip(), v.strip()) for v in values.split(",")])
    return _check([Variant(p, tuple(combo)) for p in names for combo in itertools.product(*axes)])


def _check(out: list[Variant]) -> list[Variant]:
    for v in out:
        try:
            PRESETS[v.preset].with_overrides([f"{k}={x}" for k, x in v.options])
        except (ValueError, TypeError) as exc:
            raise UnosimInputError(f"variant {v.label!r} cannot be played: {exc}") from None
    labels = [v.label for v in out]
    twice = sorted({x for x in labels if labels.count(x) > 1})
    if twice:
        raise UnosimInputError(f"the variant name {twice[0]!r} is given twice; give every variant a name of its own.")
    if len(out) < 2:
        raise UnosimInputError(
            "a comparison needs at least two rule sets: give several presets (--rules classic,party), "
            "an option with several values (--option speed_play=true,false) or several variants (--variant)."
        )
    return out


def _text(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def parse_variant(text: str, rules: str = "party") -> Variant:
    """A named variant from ``"NAME: OPTION=VALUE, OPTION=VALUE"`` (``rules=PRESET`` among the options
    picks its preset, default ``rules``); ``"the official game:"`` sets nothing.

    Raises
    ------
    ValueError
        For a text without ``NAME:``, an empty name or an option that is not ``OPTION=VALUE``.
    """
    name, colon, rest = text.partition(":")
    if not colon or not name.strip():
        raise UnosimInputError(f"--variant {text!r} is not NAME: OPTION=VALUE, ...; e.g. --variant 'stacking: stacking=mixed' "
                         "or --variant 'the official game:'.")
    options: dict[str, Any] = {}
    for part in (p.strip() for p in rest.split(",")):
        if not part:
            continue
        key, eq, value = part.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise UnosimInputError(f"--variant {text!r}: {part!r} is not OPTION=VALUE; e.g. stacking=mixed.")
        options[key.strip()] = value.strip()
    return named_variant(name.strip(), options, rules)


def named_variant(name: str, options: dict[str, Any], rules: str = "party") -> Variant:
    """The variant ``name``: the options of ``options`` on the preset ``options["rules"]`` (default ``rules``)."""
    options = dict(options)
    preset = str(options.pop("rules", rules))
    if preset not in PRESETS:
        raise UnosimInputError(f"variant {name!r}: rules {preset!r} is not a preset; choose from: {', '.join(PRESETS)}.")
    return Variant(preset, tuple((str(k), _text(v)) for k, v in options.items()), name)


def named_variants(given: dict[str, dict[str, Any]] | list[str] | list[Variant], rules: str = "party") -> list[Variant]:
    """The variants of a list a designer wrote, the first being the baseline.

    Parameters
    ----------
    given : dict, list of str or list of Variant
        Name to options (``{"the official game": {}, "stacking": {"stacking": "mixed"}}``, as a
        comparison file's ``[variants]`` table), or texts for `parse_variant`, or variants.
    rules : str
        The preset of variants that name none.

    Raises
    ------
    ValueError
        For a bad variant, a name given twice or fewer than two variants.
    """
    if isinstance(given, dict):
        out = []
        for name, options in given.items():
            if not isinstance(options, dict):
                raise UnosimInputError(f"variant {name!r} = {options!r} is not allowed; give a table of rule options, "
                                 "e.g. [variants.stacking] stacking = \"mixed\".")
            out.append(named_variant(str(name), options, rules))
    else:
        out = [v if isinstance(v, Variant) else parse_variant(str(v), rules) for v in given]
    return _check(out)


SPEC_KEYS = {
    "name": "a text",
    "description": "a text",
    "rules": "a preset name or a list of them",
    "players": 'player counts: 16, [4, 8, 16] or "2-16"',
    "options": 'a table of rule options and the values to compare, e.g. speed_play = [true, false]',
    "variants": 'named variants, the first the baseline: [variants."the official game"], then [variants.stacking] '
                'with stacking = "mixed" (instead of options)',
    "games": "a whole number ≥ 2 (games per rule set, player count and line-up)",
    "seed": "a whole number ≥ 0",
    "skill": 'a strategy spec, e.g. "greedy" or "search(playouts=256)"',
    "out": "a directory path as text",
}
"""Keys of a comparison file (``experiments/speed_play.toml``) and what they allow."""


def load_spec(path: str | Path) -> dict[str, Any]:
    """Read a comparison file into the keyword arguments of `compare` (plus ``out``).

    Raises
    ------
    ValueError
        For an unreadable file, an unknown key or a value of the wrong type.
    """
    path = Path(path)
    data = inputs.read_settings(path, "comparison file", SPEC_KEYS)
    options = data.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(v, list) and v for v in options.values()):
        raise UnosimInputError(f"{path}: options = {options!r} is not allowed; use {SPEC_KEYS['options']}.")
    spec: dict[str, Any] = {k: data[k] for k in ("rules", "players", "games", "seed", "skill", "out") if k in data}
    spec["options"] = [f"{k}={','.join(_text(v) for v in values)}" for k, values in options.items()]
    if "variants" in data:
        if options:
            raise UnosimInputError(f"{path}: give either [options] (every combination) or [variants] (a list), not both.")
        if not isinstance(data["variants"], dict):
            raise UnosimInputError(f"{path}: variants = {data['variants']!r} is not allowed; use {SPEC_KEYS['variants']}.")
        preset = data.get("rules", "party")
        try:
            spec["variants"] = named_variants(data["variants"], preset if isinstance(preset, str) else "party")
        except ValueError as exc:
            raise UnosimInputError(f"{path}: {exc}") from None
    return spec


def _play(variant: Variant, players: int, strategies: list[str], games: int, seed: int, execution: Execution,
          out: Path | None) -> pd.DataFrame:
    from ..engine.config import RunConfig
    from ..runs.runner import run

    config = RunConfig.build(rules=variant.rules(players), players=players, strategies=strategies, seed=seed, games=games)
    result = run(config, out, execution)
    columns = ["turns", "winner", "winner_offset", "truncated"]
    if result.path is not None:
        from ..runs.reading import load

        return load(result.path, columns=columns)
    assert result.table is not None
    return result.table.select(columns).to_pandas()


def compare(
    rules: str | list[str] = "party",
    players: str | int | list[int] = 4,
    options: list[str] | None = None,
    *,
    games: int = 10_000,
    seed: int = 0,
    skill: str = "greedy",
    variants: dict[str, dict[str, Any]] | list[str] | list[Variant] | None = None,
    out: str | Path | None = None,
    execution: Execution | None = None,
    **run_options: Any,
) -> Comparison:
    """Play rule sets on the same deals and compare them (see the module docstring).

    Parameters
    ----------
    rules : str or list of str
        Preset(s), e.g. ``"party"`` or ``"classic,classic-house"``.
    players : str, int or list of int
        Player counts: ``16``, ``"4,8,16"`` or ``"2-16"``.
    options : list of str, optional
        ``OPTION=VALUE[,VALUE...]`` per option; the variants are every
        combination (with the presets). E.g. ``["speed_play=true,false"]``.
    games : int
        Games per (variant, players) and run (the random and the skill run).
    seed : int
        Run seed shared by every variant (common random numbers).
    skill : str
        The strategy at seat 0 in the skill runs: any strategy spec (``"greedy"``, ``"search(playouts=256)"``).
    variants : dict or list, optional
        Named variants instead of every combination of ``options`` (`named_variants`;
        the first is the baseline; ``rules`` is the preset of those that name none), e.g.
        ``{"the official game": {}, "stacking": {"stacking": "mixed"}}`` or
        ``["the official game:", "stacking: stacking=mixed"]``.
    out : str or Path, optional
        Write the datasets (``out/runs/...``) and the tables ([`Comparison.save`][unosim.analysis.Comparison.save]) there;
        an interrupted comparison resumes.
    execution : Execution, optional
        How to play each run (default one process; always quiet); ``jobs=None`` uses every core,
        ``overwrite=True`` replaces datasets of other settings under ``out``.
    **run_options
        Fields of [`Execution`][unosim.runs.Execution] on top of ``execution``.

    Returns
    -------
    Comparison
    """
    from ..strategy.spec import StrategySpec

    execution = Execution.of(execution or Execution(jobs=1), **run_options).replace(quiet=True)
    counts = parse_players(players)
    if variants is not None and options:
        raise UnosimInputError("give either options (every combination of their values) or variants (a list), not both.")
    if variants is not None:
        default = rules if isinstance(rules, str) and "," not in rules else "party"
        vs = named_variants(variants, default)
    else:
        vs = combinations(rules, options)
    if isinstance(games, bool) or not isinstance(games, int) or games < 2:
        raise UnosimInputError(f"games = {games!r}; give a whole number ≥ 2 (games per variant and player count).")
    StrategySpec.parse(skill)
    for v in vs:
        for p in counts:
            check_playable(v, p)
    out_path = Path(out) if out is not None else None
    levels, diffs = [], []
    for p in counts:
        per_variant = {}
        for i, v in enumerate(vs):
            def where(tag: str, i: int = i, p: int = p) -> Path | None:
                return None if out_path is None else out_path / "runs" / f"v{i}-p{p:02d}-{tag}"

            plain = _play(v, p, ["random"] * p, games, seed, execution, where("random"))
            skilled = _play(v, p, [skill] + ["random"] * (p - 1), games, seed, execution, where("skill"))
            per_variant[v.label] = {
                "turns": plain["turns"].to_numpy(float),
                "first_player_edge": 100 * ((plain["winner_offset"] == 1).to_numpy(float) - 1 / p),
                "truncated": 100 * plain["truncated"].to_numpy(float),
                "skill_edge": 100 * ((skilled["winner"] == 0).to_numpy(float) - 1 / p),
            }
        base = vs[0].label
        for label, metrics in per_variant.items():
            for metric, values in metrics.items():
                mean, low, high = mean_interval(values)
                levels.append({"players": p, "variant": label, "metric": metric, "mean": mean, "low": low,
                               "high": high, "games": len(values)})
                if label != base:
                    d = paired_difference(per_variant[base][metric], values)
                    diffs.append({"players": p, "variant": label, "baseline": base, "metric": metric,
                                  "baseline_mean": d.mean_a, "variant_mean": d.mean_b, "diff": d.diff, "se": d.se,
                                  "low": d.low, "high": d.high, "variance_reduction": d.variance_reduction,
                                  "games": d.n})
    settings = {"kind": "comparison", "variants": [v.label for v in vs],
                "variant_rules": {v.label: v.to_dict() for v in vs}, "players": counts, "games": games,
                "seed": seed, "skill": skill, "unosim_version": __version__}
    result = Comparison(pd.DataFrame(levels), pd.DataFrame(diffs), settings)
    if out_path is not None:
        result.save(out_path)
    return result


def check_playable(variant: Variant, players: int) -> None:
    """Refuse a (variant, players) that cannot be dealt, before any game is played."""
    try:
        variant.rules(players).check_table(players)
    except ValueError as exc:
        raise UnosimInputError(f"variant {variant.label!r} at {players} players cannot be played: {exc}") from None


def metric_label(metric: str, skill: str = "greedy") -> str:
    """Readable label of a metric key, with its unit."""
    return METRICS.get(metric, metric).format(skill=skill)


__all__ = [
    "COMPARE_FILE", "METRICS", "SPEC_KEYS", "Comparison", "Variant", "check_playable", "combinations", "compare", "load_spec",
    "metric_label", "named_variant", "named_variants", "parse_players", "parse_variant",
]
