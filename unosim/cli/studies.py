"""``study``, ``report``, ``compare``, ``skill``, ``cardvalue-swap`` and ``tune``: the studies and their reports."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from . import options as o
from .base import command, err_console, out_console, user_errors

__all__ = ["USEFUL_GENERATIONS", "cardvalue_swap", "compare", "report", "skill", "study", "tune_command"]


# ---------------------------------------------------------------- study and report
@command()
@user_errors()
@o.shared("jobs", "overwrite", "quiet")
def study(
    out: o.Out = Path("runs/study"),
    games: o.MaybeGames = None,
    **options: Any,
) -> None:
    """The default study: game length and seat advantage at 2–16 players (classic, classic-house, party).

    Writes the parquet dataset to OUT and the plots and report.md to OUT/report. --games: games
    per cell (default: the study's 20,000).
    """
    import time

    from ..api import study as run_study

    start = time.perf_counter()
    files = run_study(out, games=games, **options)
    if not options["quiet"]:
        out_console.print(
            f"dataset: {out}   report: {files[-1]} (and {files[-2].name}, {len(files) - 2} plot files)   "
            f"in {time.perf_counter() - start:.0f} s",
            highlight=False,
        )


@command()
@user_errors()
def report(
    dataset: Annotated[
        Path, typer.Argument(help="A dataset written by simulate, run or study; or a comparison, tournament or skill study.")
    ],
    out: o.MaybeOut = None,
    card_values: Annotated[
        bool | None,
        typer.Option("--card-values/--no-card-values",
                     help="Estimate card values (default: for experiments and studies, not for single runs).",
                     show_default=False),
    ] = None,
) -> None:
    """Plots (PNG, SVG), report.md and a self-contained report.html of a dataset or comparison.

    Recognises what DATASET holds: a player-count run or study (game length, its
    distribution, seat advantage), card values (experiments and studies whose seats
    all play one strategy; a single run with --card-values), or a comparison
    written by `unosim compare --out`, a tournament, or a skill study written by
    `unosim skill --out` (its report.md, skill.csv and skill-share plot; no HTML).
    Writes to --out (default: DATASET/report).
    """
    from ..api import report as write_report

    files = write_report(dataset, out, card_values=card_values)
    out_console.print(f"wrote {files[-1]} and {len(files) - 1} more files in {files[-1].parent}", highlight=False)


# ---------------------------------------------------------------- compare
@command()
@user_errors()
@o.shared("jobs", "overwrite")
def compare(
    ctx: typer.Context,
    spec: Annotated[
        Path | None, typer.Argument(metavar="[COMPARISON.toml]", help="A comparison file (see experiments/speed_play.toml).",
                                    show_default=False)
    ] = None,
    rules: o.Rules = "party",
    players: o.PlayerCounts = "4",
    option: Annotated[
        list[str] | None,
        typer.Option("--option", metavar="OPTION=V1,V2", help="A rule option and its values to compare (repeatable).",
                     show_default=False),
    ] = None,
    variant: Annotated[
        list[str] | None,
        typer.Option("--variant", metavar="'NAME: OPTION=V, ...'",
                     help="A named rule set (repeatable; the first is the baseline), instead of every combination of "
                          "--option values: e.g. 'the official game:' 'stacking: stacking=mixed'.", show_default=False),
    ] = None,
    games: o.Games = 10_000,
    seed: o.Seed = 0,
    skill: Annotated[
        str,
        typer.Option("--skill-player", "--skill", metavar="STRATEGY",
                     help="The player the skill edge measures: any strategy spec at seat 0 in the skill runs (against "
                          "random), e.g. 'search(playouts=256)'."),
    ] = "greedy",
    out: o.MaybeOut = None,
    **options: Any,
) -> None:
    """Play rule sets on the same deals; report paired differences with 95 % intervals.

    Metrics: game length (turns), the first player's edge, the truncated share and the
    skill edge (seat 0 playing --skill-player against random), each with the variance
    reduction the pairing achieved. --games: games per rule set, player count and line-up, on
    the deals of --seed for every rule set (common random numbers); --out: the datasets, tables
    and the report. An option given on the command line wins over the comparison file.

    [dim]Example: unosim compare --rules party --player-counts 2-16 --option speed_play=true,false --out runs/speed[/]
    """
    from ..analysis.compare import load_spec, metric_label
    from ..api import compare as run_compare

    given: dict[str, Any] = {"rules": rules, "players": players, "options": list(option or []),
                             "variants": variant or None, "games": games, "seed": seed, "skill": skill, "out": out}
    settings = dict(given)
    if spec is not None:  # the file's settings, but for the options given on the command line
        typed = {{"option": "options", "variant": "variants"}.get(name, name) for name in ctx.params
                 if getattr(ctx.get_parameter_source(name), "name", "DEFAULT") != "DEFAULT"}
        settings.update(load_spec(spec))
        settings.update({name: value for name, value in given.items() if name in typed})
    target = settings.pop("out", None)
    result = run_compare(settings.pop("rules"), settings.pop("players"), list(settings.pop("options")), out=target, **options,
                         **settings)
    skill = result.settings["skill"]
    out = Path(target) if target is not None else None
    baseline = escape(str(result.settings["variants"][0]))
    table = Table(title=f"paired differences against {baseline} ({result.settings['games']:,} games each)")
    for col in ("players", "variant", "metric", "difference [95 % CI]", "variance reduction"):
        table.add_column(col, justify="right", overflow="fold")
    for row in result.differences.itertuples():
        table.add_row(str(row.players), escape(str(row.variant)), metric_label(row.metric, skill),
                      f"{row.diff:+.3f} [{row.low:+.3f}, {row.high:+.3f}]",
                      "–" if row.variance_reduction != row.variance_reduction else f"{row.variance_reduction:.2f}×")
    out_console.print(table)
    if out is not None:
        out_console.print(f"report: {out / 'report' / 'report.html'}", highlight=False)


# ---------------------------------------------------------------- skill study
@command()
@user_errors()
@o.shared("jobs")
def skill(
    ctx: typer.Context,
    spec: Annotated[
        Path | None, typer.Argument(metavar="[SKILL.toml]", help="A skill study file (see experiments/skill.toml).",
                                    show_default=False)
    ] = None,
    players: o.PlayerCounts = "2,3,4,6,8,12,16",
    measure: Annotated[
        list[str] | None,
        typer.Option("--measure", metavar="STRATEGY",
                     help="A strategy to measure against random (repeatable; default search(playouts=256) and greedy).",
                     show_default=False),
    ] = None,
    games: o.Games = 200,
    seed: o.Seed = 0,
    out: o.MaybeOut = None,
    **options: Any,
) -> None:
    """How much skill pays: each measured player at seat 0 against random at every other seat, per rule
    set (classic, classic-house, party and each house rule of classic) and player count.

    Prints the skill share (win rate over the fair share 1/P) of each player; --out writes skill.csv
    and the report (report.md, skill_share.png) to OUT/report. --games: games per rule set, player
    count and measured player (the players meet the same deals). An option given on the command
    line wins over the study file.

    [dim]Example: unosim skill experiments/skill.toml --out runs/skill[/]
    """
    from ..analysis.skill import load_spec, summary
    from ..api import skill as run_skill

    given: dict[str, Any] = {"players": players, "measured": list(measure) if measure else None, "games": games,
                             "seed": seed, "out": out}
    settings = {k: v for k, v in given.items() if v is not None or k == "out"}
    if spec is not None:  # the file's settings, but for the options given on the command line
        typed = {{"measure": "measured"}.get(name, name) for name in ctx.params
                 if getattr(ctx.get_parameter_source(name), "name", "DEFAULT") != "DEFAULT"}
        settings.update(load_spec(spec))
        settings.update({name: value for name, value in given.items() if name in typed})
    target = settings.pop("out", None)
    result = run_skill(target, **settings, **options)
    for player in result.settings["measured"]:
        grid = summary(result.table, player)
        table = Table(title=f"{player} against random: win rate ÷ fair share ({result.settings['games']:,} games each)")
        table.add_column("rule set", justify="left", overflow="fold")
        for p in grid.columns:
            table.add_column(f"{p}", justify="right")
        for rule_set, row in grid.iterrows():
            table.add_row(str(rule_set), *(f"{v:.2f}" for v in row))
        out_console.print(table)
    if target is not None:
        out_console.print(f"report: {Path(target) / 'report' / 'report.md'}", highlight=False)


# ---------------------------------------------------------------- card values by swap experiment
@command("cardvalue-swap")
@user_errors()
@o.shared("jobs")
def cardvalue_swap(
    rules: o.Rules = "classic",
    players: o.PlayerCounts = "2,4,8",
    games: o.Games = 20_000,
    seed: o.Seed = 0,
    kinds: Annotated[
        str | None, typer.Option("--kinds", help="Kinds to swap in, comma-separated (default: every action kind).", show_default=False)
    ] = None,
    out: o.MaybeOut = None,
    **options: Any,
) -> None:
    """Card values cross-checked by experiment: the same deals played as dealt and with one number
    card of one hand swapped for the kind (common random numbers), next to the regression estimate.

    Every seat plays random; --games deals per player count, each played once as dealt and once
    per kind (the worker processes of --jobs take one player count each; the values do not depend
    on them). Prints, per player count and kind, both values in percentage points with 95 %
    intervals and the variance reduction the pairing achieved; --out writes values.csv and the
    report there.

    [dim]Example: unosim cardvalue-swap --rules classic --player-counts 2,4,8 --games 20000 --out runs/swap[/]
    """
    from ..api import cardvalue_swap as swap_values

    result = swap_values(rules, players, games=games, seed=seed, kinds=kinds, quiet=False, out=out, **options)
    table = Table(title=f"card values, swap experiment and regression on the same {games:,} deals ({rules}, pp)")
    for col in ("players", "kind", "swap [95 % CI]", "regression [95 % CI]", "variance reduction"):
        table.add_column(col, justify="right", overflow="fold")
    for r in result.values.itertuples():
        table.add_row(str(r.players), r.kind, f"{r.swap_value:+.2f} [{r.swap_low:+.2f}, {r.swap_high:+.2f}]",
                      f"{r.regression_value:+.2f} [{r.regression_low:+.2f}, {r.regression_high:+.2f}]",
                      f"{r.variance_reduction:.2f}×")
    out_console.print(table)
    if out is not None:
        out_console.print(f"report: {out / 'report' / 'report.html'}", highlight=False)


# ---------------------------------------------------------------- tune
USEFUL_GENERATIONS = 10
"""Fewer generations than this: ``unosim tune`` warns that the search can hardly move from its start."""

@command("tune")
@user_errors()
@o.shared("jobs", "backend", "scheduler", "overwrite", "quiet", "isolate")
def tune_command(
    rules: o.Rules = "classic",
    players: o.Players = 2,
    against: Annotated[
        str, typer.Option("--against", help="The field: one or more opponent strategies, comma-separated (e.g. random, "
                          "or random,greedy,attacker); they fill the other seats in turn.")
    ] = "random",
    budget: Annotated[int, typer.Option("--budget", help="Games the search may play in all (whole generations).")] = 1_000_000,
    seed: o.Seed = 0,
    out: o.Out = Path("runs/tune"),
    overrides: o.Set = None,
    deck: o.Deck = None,
    popsize: Annotated[
        int | None, typer.Option("--popsize", help="Candidates per generation (default 4 + 3 ln(parameters searched)).",
                                 show_default=False)
    ] = None,
    games_per_candidate: Annotated[
        int, typer.Option("--games-per-candidate", help="Games each candidate plays per generation, on the same deals.")
    ] = 2000,
    sigma: Annotated[
        float, typer.Option("--sigma", help="Initial step size of CMA-ES, as a share of every parameter's range "
                            "(above 0, at most 1).")
    ] = 0.25,
    evaluation_games: Annotated[
        int, typer.Option("--evaluation-games", help="Held-out games (fresh seed) for the tuned strategy and the start each.")
    ] = 100_000,
    start: Annotated[
        Path | None, typer.Option("--start", help="Start from this tuned-strategy file (default: tunable's defaults).",
                                  show_default=False)
    ] = None,
    name: Annotated[str, typer.Option("--name", help="Label of the tuned strategy in tuned.json / tuned.toml.")] = "tuned",
    strategy: Annotated[
        str, typer.Option("--strategy", help="What to tune: tunable (its numeric parameters), or rules:FILE (the numeric "
                          "thresholds written in a rule file, e.g. rules:holder or rules:path/to/file.toml).")
    ] = "tunable",
    search: Annotated[
        str | None, typer.Option("--only", metavar="NAMES", help="tunable only: the parameters to search, "
                                 "comma-separated (default: every one the rules let matter); the others keep their "
                                 "--start values.", show_default=False)
    ] = None,
    **options: Any,
) -> None:
    """Tune the `tunable` strategy (or a rule file's thresholds) against a field with CMA-ES; evaluate it on fresh deals and save it.

    Every candidate of a generation plays the same deals (common random numbers), at every seat.
    --out holds the state (run again to continue), tuned.json, summary.md, history.csv and
    progress.png/.svg.
    The result plays as --strategies tuned:OUT/tuned.json (a rule file: --strategies rules:OUT/tuned.toml).

    [dim]Example: unosim tune --rules classic --players 2 --against random --budget 2000000 --out runs/tune[/]
    [dim]Example: unosim tune --strategy rules:holder --players 4 --against random --budget 500000 --out runs/tune-holder[/]
    """
    from ..analysis.tuning import make_settings
    from ..api import tune
    from ..reports.tuning import worse_than_start

    request: dict[str, Any] = dict(
        rules=rules, players=players, against=against, budget=budget, seed=seed, overrides=list(overrides or []),
        deck=deck, popsize=popsize, games_per_candidate=games_per_candidate, sigma=sigma,
        evaluation_games=evaluation_games, start=start, name=name, strategy=strategy, search=search,
    )
    from ..strategy.registry import user_code_isolated

    with user_code_isolated(options["isolate"]):
        planned = make_settings(**request)
    if planned.generations < USEFUL_GENERATIONS:
        err_console.print(
            f"warning: --budget {budget:,} allows only {planned.generations} generation"
            f"{'' if planned.generations == 1 else 's'} of {planned.popsize} candidates "
            f"({planned.games_per_generation:,} games each); CMA-ES needs about {USEFUL_GENERATIONS} or more to move "
            f"from its start. Raise --budget to {USEFUL_GENERATIONS * planned.games_per_generation:,} or more, or "
            "lower --games-per-candidate or --popsize.", markup=False, highlight=False, soft_wrap=True)
    result = tune(**request, out=out, **options)
    ev = result.evaluation
    out_console.print(
        f"tuned after {result.generations} generations ({result.games:,} games) in {result.seconds:.0f} s; held-out "
        f"win rate {ev['win_rate']:.4f} [{ev['low']:.4f}, {ev['high']:.4f}] over {ev['games']:,} games "
        f"(start {ev['start_win_rate']:.4f} [{ev['start_low']:.4f}, {ev['start_high']:.4f}]; fair share "
        f"{ev['fair_share']:.4f})\nplay it: --strategies {result.spec}   files: {out}",
        highlight=False, soft_wrap=True,
    )
    verdict = worse_than_start(ev)
    if verdict:
        err_console.print(f"warning: {verdict}", markup=False, highlight=False, soft_wrap=True)
