"""The Python API of a run: [`simulate`][unosim.simulate], plus [`load`][unosim.load] and [`run_experiment`][unosim.run_experiment].

Heavy modules (joblib, pandas, the engine) are imported when called, so
``import unosim`` stays light.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from .analysis.tournament import TournamentResult
    from .engine.config import RunConfig
    from .engine.trace import GameTrace
    from .game.rules import RuleSet
    from .runs.experiment import Experiment
    from .runs.options import Execution
    from .runs.runner import RunResult


def _execution(options: dict[str, Any]) -> Execution:
    """The execution options of a Python API call: one process and quiet unless told otherwise."""
    from .runs.options import IN_PROCESS, Execution

    return Execution.of(IN_PROCESS, **options)


def simulate(
    rules: str | RuleSet = "classic",
    players: int = 4,
    games: int = 1000,
    strategies: str | list[str] | tuple[Any, ...] = "random",
    seed: int = 0,
    *,
    batch_size: int | None = None,
    overrides: str | list[str] | dict[str, Any] | None = None,
    deck: str | None = None,
    match: bool = False,
    out: str | Path | None = None,
    **options: Any,
) -> pd.DataFrame:
    """Play ``games`` games and return one row per game.

    Parameters
    ----------
    rules : str or RuleSet
        Preset name (``classic``, ``classic-house``, ``party``) or a rule set.
    players : int
        Players at the table, 2–16.
    games : int
        Number of games (matches with ``match=True``).
    strategies : str or list
        One strategy for every seat (``"random"``), a comma-separated string or
        a list with one per seat.
    seed : int
        Run seed; the same seed gives the same rows.
    batch_size : int, optional
        Games stepped together (never changes results).
    overrides : str, list of str or dict, optional
        Rule options on top of the preset: ``["wd4_challenge=false"]``, one text
        ``"max_turns=10"`` (one option) or ``{"deck_copies": 2}``.
    deck : str, optional
        A shipped deck name or the path of a deck TOML file.
    match : bool
        Play matches to the target score instead of single rounds.
    out : str or Path, optional
        Also write the rows as a dataset there (resumable, see [`unosim.runs.run`][unosim.runs.run]).
    **options
        How to play it: the fields of [`unosim.runs.Execution`][unosim.runs.Execution] — ``jobs``
        (default 1: this process; ``None``: all cores), ``backend``, ``scheduler``,
        ``chunk_size``, ``overwrite``, ``quiet`` (default True), ``isolate`` (play user
        strategies from processes of their own, `unosim.engine.isolation`).

    Returns
    -------
    pandas.DataFrame
        One row per game in game order; with ``match=True`` one row per match
        (its rounds: ``unosim.load(out, table="rounds")``). Schemas: `unosim.engine.records`.

    Raises
    ------
    ValueError
        Before any game is played, for any bad value, naming what is allowed.
    """
    return run(rules, players, games, strategies, seed, batch_size=batch_size, overrides=overrides, deck=deck, match=match,
               out=out, **options).to_pandas()


def run(
    rules: str | RuleSet = "classic",
    players: int = 4,
    games: int = 1000,
    strategies: str | list[str] | tuple[Any, ...] = "random",
    seed: int = 0,
    *,
    batch_size: int | None = None,
    overrides: str | list[str] | dict[str, Any] | None = None,
    deck: str | None = None,
    match: bool = False,
    out: str | Path | None = None,
    **options: Any,
) -> RunResult:
    """Play games as [`simulate`][unosim.simulate] does and return the run's result: where it was written
    (``.path``, ``.chunks``, ``.chunks_resumed``), how long it took (``.seconds``), its
    configuration (``.config``) and, without ``out``, its records (``.table``, ``.to_pandas()``).

    Parameters and errors are those of [`simulate`][unosim.simulate].
    """
    from .engine.config import RunConfig
    from .runs.runner import run as _run
    from .strategy.registry import user_code_isolated

    with user_code_isolated(bool(options.get("isolate"))):
        config = RunConfig.build(
            rules=rules,
            players=players,
            strategies=strategies,
            seed=seed,
            games=games,
            batch_size=batch_size,
            match=match,
            overrides=overrides,
            deck=deck,
        )
        return _run(config, out, _execution(options))


def load(
    path: str | Path, *, columns: list[str] | None = None, allow_incomplete: bool = False, table: str = "main"
) -> pd.DataFrame:
    """Load a dataset directory as a DataFrame (see [`unosim.runs.load`][unosim.runs.load]); ``table="rounds"``
    loads the rounds of a match dataset."""
    from .runs.reading import load as _load

    return _load(path, columns=columns, allow_incomplete=allow_incomplete, table=table)


def run_experiment(experiment: str | Path | Experiment, out: str | Path | None = None, **options: Any) -> RunResult:
    """Run an experiment file (or a loaded [`Experiment`][unosim.runs.Experiment]) into one dataset
    (see [`unosim.runs.run_experiment`][unosim.runs.run_experiment])."""
    from .runs.experiment import run_experiment as _run_experiment
    from .strategy.registry import user_code_isolated

    with user_code_isolated(bool(options.get("isolate"))):
        return _run_experiment(experiment, out, **options)


def _game(run: str | Path | None, game: int, cell: int | None, table: dict[str, Any]) -> tuple[RunConfig, dict[str, Any] | None]:
    """The configuration of game ``game`` and its dataset row: of the dataset ``run`` (of its cell
    ``cell``), or of the table ``table`` (the arguments of [`RunConfig.build`][unosim.RunConfig.build]; no row)."""
    from .engine.config import RunConfig
    from .game.errors import UnosimInputError

    if run is not None:
        from .reports.viewer import load_game

        return load_game(run, game, cell)
    if cell is not None:
        raise UnosimInputError("--cell chooses a cell of a dataset; give the dataset with --run.")
    return RunConfig.build(games=game + 1, **table), None


def replay(run: str | Path | None = None, game: int = 0, cell: int | None = None, **table: Any) -> tuple[GameTrace, dict[str, Any] | None]:
    """Play one game again, move by move.

    Parameters
    ----------
    run : str or Path, optional
        A dataset: replay its game ``game`` (of cell ``cell`` for an experiment, study or tournament).
    game : int
        Game index (within its cell).
    cell : int, optional
        Cell of an experiment dataset.
    **table
        Without ``run``: the game's table, as for [`unosim.RunConfig.build`][unosim.RunConfig.build] (``rules``,
        ``players``, ``seed``, ``strategies``, ``overrides``, ``deck``).

    Returns
    -------
    tuple of GameTrace and dict or None
        The trace (``.narrate()``, ``.record``; `unosim.engine.trace`) and, with ``run``, the
        game's row in the dataset (to check that the replay matches it).

    Raises
    ------
    UnosimInputError
        For a game, cell or table that is not there or not allowed.
    """
    from .engine.trace import replay as _replay

    config, row = _game(run, game, cell, table)
    return _replay(config, game), row


def view(
    run: str | Path | None = None, game: int = 0, cell: int | None = None, *, seat: int | None = None,
    out: str | Path | None = None, **table: Any,
) -> Path:
    """Write one game as a self-contained HTML viewer (see `unosim.reports.viewer.write_viewer`).

    ``run``, ``game``, ``cell`` and ``table`` choose the game as for `replay`; ``seat`` shows
    only that seat's hand; ``out`` is the file (default ``game-N.html``). Returns the file written.
    """
    from .reports.viewer import write_viewer

    config, row = _game(run, game, cell, table)
    return write_viewer(config, game, Path(out) if out is not None else Path(f"game-{game}.html"), row=row, seat=seat)


def study(out: str | Path = "runs/study", *, games: int | None = None, **options: Any) -> list[Path]:
    """Run the default study (game length and seat advantage at 2–16 players, every preset) into
    ``out`` and write its report to ``out/report``; returns the report's files (report.html last).

    ``games`` replaces the study's games per cell; ``options`` are those of [`run_experiment`][unosim.run_experiment].
    """
    import tomllib

    from .reports.dataset_report import write_report
    from .runs.experiment import STUDIES_DIR, parse_experiment
    from .runs.experiment import run_experiment as _run_experiment

    default_study = STUDIES_DIR / "default.toml"
    data = tomllib.loads(default_study.read_text())
    if games is not None:
        data["games"] = games
    _run_experiment(parse_experiment(data, source=str(default_study), default_name="default_study"), out, **options)
    return write_report(out, Path(out) / "report")


def tournament(
    rules: str | RuleSet = "party",
    players: int = 6,
    strategies: str | list[str] | tuple[Any, ...] = "random,greedy",
    games: int = 60_000,
    seed: int = 0,
    *,
    out: str | Path | None = None,
    on_round: Any = None,
    **options: Any,
) -> TournamentResult:
    """Play a seat-fair tournament between strategies and rank them.

    Every deal is replayed under every rotation of a balanced set of tables, so
    each strategy plays each seat offset from the dealer equally often on the
    same cards (design: [`unosim.analysis.tournament`][unosim.analysis.tournament]).

    Parameters
    ----------
    rules, players
        As for [`simulate`][unosim.simulate].
    strategies : str or list
        At least two distinct strategies, comma-separated or as a list.
    games : int
        About this many games in all (with ``precision``: the first round).
    seed : int
        Tournament seed; the same seed gives the same numbers.
    out : str or Path, optional
        Also write the dataset there and the report (tables and plots) to ``out/report``.
    **options
        What else to play (`unosim.analysis.tournament.make_settings`): ``overrides``,
        ``deck``, ``batch_size``, ``match`` as for [`simulate`][unosim.simulate]; ``precision`` (keep playing
        until every win rate's 95 % half-width is at most this), ``max_games`` (with
        ``precision``: the most games, default 10,000,000), ``bootstrap`` (replicates for the
        rating intervals, default 200). And how to play it, as for [`simulate`][unosim.simulate]
        (``chunk_size``: games per chunk file, one seating's deals).
    on_round : callable, optional
        With ``precision``: called after each round that falls short as ``on_round(games, widest)``.

    Returns
    -------
    TournamentResult
        ``.leaderboard``, ``.head_to_head``, ``.ratings`` (DataFrames);
        [`unosim.reports.plot_tournament`][unosim.reports.plot_tournament] draws it.

    Raises
    ------
    ValueError
        Before any game is played, for any bad value.
    """
    from .analysis.tournament import make_settings, run_tournament
    from .reports.tournament import write_report
    from .runs.options import IN_PROCESS, Execution

    execution, request = Execution.take(None, options, IN_PROCESS)
    from .strategy.registry import user_code_isolated

    with user_code_isolated(bool(options.get("isolate"))):
        settings = make_settings(rules=rules, players=players, strategies=strategies, games=games, seed=seed, **request)
        result = run_tournament(settings, out, execution, on_round=on_round)
    if out is not None:
        write_report(result, Path(out) / "report")
    return result


def card_values(path: str | Path, *, placebo: bool = False) -> pd.DataFrame:
    """Value of each card kind per (rules, players), in percentage points with 95 % intervals,
    streamed from a dataset of single rounds (see [`unosim.analysis.card_values`][unosim.analysis.card_values])."""
    from .analysis.cardvalue import card_values as _card_values

    return _card_values(path, placebo=placebo)


def compare(
    rules: str | list[str] = "party",
    players: str | int | list[int] = 4,
    options: list[str] | None = None,
    **kwargs: Any,
) -> Any:
    """Play rule sets on the same deals and compare them with paired differences
    (see `unosim.analysis.compare.compare`); returns a ``Comparison``. The rule sets are
    every combination of the presets and ``options``, or the named ``variants=`` (the first the
    baseline): ``compare("classic", "2-10", variants={"the official game": {}, "stacking":
    {"stacking": "mixed"}})``. With ``out``, the
    datasets, the tables and the report (``out/report/report.html``) go there."""
    from .analysis.compare import compare as _compare
    from .reports.dataset_report import write_report

    result = _compare(rules, players, options, **kwargs)
    if kwargs.get("out") is not None:
        write_report(kwargs["out"])
    return result


def cardvalue_swap(
    rules: str = "classic", players: str | int | list[int] = "2,4,8", *, out: str | Path | None = None, **kwargs: Any
) -> Any:
    """Card values by the swap experiment (the same deals played as dealt and with one number card
    swapped for the kind) next to the regression on those deals; returns a ``SwapResult``
    (see [`unosim.analysis.swap_values`][unosim.analysis.swap_values]). With ``out``, ``values.csv`` goes there and
    the report to ``out/report``."""
    from .analysis.cardswap import swap_values
    from .reports.dataset_report import write_report

    result = swap_values(rules, players, **kwargs)
    if out is not None:
        result.save(out)
        write_report(out)
    return result


def skill(out: str | Path | None = None, **kwargs: Any) -> Any:
    """Win rates of each measured player against ``random`` per rule set and player count, with the skill
    share (win rate over 1/P); returns a ``SkillStudy`` (see `unosim.analysis.skill.skill_study`).
    With ``out``, ``skill.csv`` goes there and the report (``report.md``, ``skill_share.png``) to
    ``out/report``."""
    from .analysis.skill import skill_study
    from .reports.skill import write_report

    result = skill_study(**kwargs)
    if out is not None:
        result.save(out)
        write_report(result, Path(out) / "report")
    return result


def report(path: str | Path, out: str | Path | None = None, *, card_values: bool | None = None) -> list[Path]:
    """Write the report (plots, ``report.md``, ``report.html``) of a dataset, comparison,
    tournament or skill study into ``out`` (default ``path/report``); return the files written
    (see [`unosim.reports.write_report`][unosim.reports.write_report], `unosim.reports.tournament.write_report`,
    `unosim.reports.skill.write_report`)."""
    from .analysis.skill import SKILL_FILE, SkillStudy
    from .reports.dataset_report import write_report
    from .runs.files import read_metadata

    target = Path(out) if out is not None else Path(path) / "report"
    if (Path(path) / SKILL_FILE).is_file():  # a skill study's tables and skill-share plot
        from .reports.skill import write_report as write_skill_report

        return write_skill_report(SkillStudy.read(path), target)
    try:  # (analysis.tournament.is_tournament without importing the engine)
        tournament = "tournament" in read_metadata(path)
    except ValueError:
        tournament = False
    if tournament:  # a tournament's leaderboard, head-to-head and plots
        from .analysis.tournament import load_tournament
        from .reports.tournament import write_report as write_tournament_report

        return write_tournament_report(load_tournament(path), target)
    return write_report(path, out, card_values=card_values)


def tune(
    rules: str | RuleSet = "classic",
    players: int = 2,
    against: str | list[str] | tuple[str, ...] = "random",
    budget: int = 1_000_000,
    seed: int = 0,
    **kwargs: Any,
) -> Any:
    """Tune the ``tunable`` strategy (or, with ``strategy="rules:FILE"``, the numeric thresholds written in a rule
    file) against a field with CMA-ES and evaluate it on fresh deals (see [`unosim.analysis.tune`][unosim.analysis.tune]); returns a
    ``TuneResult`` (``.params``, ``.evaluation``, ``.history``)."""
    from .analysis.tuning import tune as _tune
    from .reports.tuning import write_outputs
    from .strategy.registry import user_code_isolated

    with user_code_isolated(bool(kwargs.get("isolate"))):
        result = _tune(rules=rules, players=players, against=against, budget=budget, seed=seed, **kwargs)
    if result.path is not None and result.evaluation:
        result.files = write_outputs(result, result.path)
    return result


__all__ = [
    "card_values", "cardvalue_swap", "compare", "load", "replay", "report", "run", "run_experiment", "simulate", "skill", "study",
    "tournament", "tune", "view",
]
