"""``tournament``, ``check`` and ``try``: strategies against each other, against the rules, and a rule file against a field."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from . import options as o
from .base import command, err_console, out_console, user_errors

__all__ = ["check_command", "tournament_command", "try_command"]


# ---------------------------------------------------------------- tournament
@command("tournament")
@user_errors()
@o.shared(*o.EXECUTION)
def tournament_command(
    strategies: o.Strategies,
    rules: o.Rules = "party",
    players: o.Players = 6,
    games: o.Games = 60_000,
    seed: o.Seed = 0,
    out: o.MaybeOut = None,
    match: o.Match = False,
    precision: Annotated[
        float | None,
        typer.Option(
            "--precision",
            help="Keep playing in rounds until every win rate's 95 % interval is at most ± this (e.g. 0.005).",
            show_default=False,
        ),
    ] = None,
    max_games: Annotated[
        int | None,
        typer.Option("--max-games", help="With --precision: stop at this many games (default 10,000,000).", show_default=False),
    ] = None,
    bootstrap: Annotated[int, typer.Option("--bootstrap", help="Bootstrap replicates of the rating intervals.")] = 200,
    overrides: o.Set = None,
    deck: o.Deck = None,
    batch_size: o.BatchSize = None,
    **options: Any,
) -> None:
    """Seat-fair tournament: every deal replayed under every rotation of a balanced set of tables.

    Each strategy plays each seat offset from the dealer equally often on the same cards.

    --strategies: at least two distinct strategies. Fewer strategies than seats: they repeat
    around the table in order (A B A B ...); when their number does not divide the seats, one
    table per shift of the list, so each holds equally many seats. More strategies than seats: a
    balanced set of tables (all combinations, or a cyclic design). --games: about this many games
    in all (deals × seatings); with --precision the first round. A chunk file holds one seating's
    deals.

    Prints the leaderboard: win rates with deal-clustered 95 % intervals, points, Bradley–Terry ratings.

    With --out also writes the dataset and, in OUT/report, leaderboard.md/.csv, head_to_head.csv and plots (PNG, SVG).

    [dim]Example: unosim tournament --rules party --players 6
    --strategies random,greedy,diversity,ranking,wild-saver,attacker --games 200000 --out runs/t[/]
    """
    from ..api import tournament

    quiet = options["quiet"]

    def on_round(games_so_far: int, widest: float) -> None:
        if not quiet:
            err_console.print(
                f"{games_so_far:,} games: widest win-rate interval ±{widest:.4f} > ±{precision:g}; playing on",
                markup=False,
                highlight=False,
            )

    result = tournament(
        rules, players, strategies, games, seed, out=out, on_round=on_round, match=match, precision=precision,
        max_games=max_games, overrides=list(overrides or []), deck=deck, batch_size=batch_size, bootstrap=bootstrap,
        **options,
    )
    _print_leaderboard(result)
    if not quiet:
        note = ""
        if precision is not None:
            reached = "reached" if result.widest <= precision else "NOT reached (--max-games hit)"
            note = f"; widest interval ±{result.widest:.4f}, target ±{precision:g} {reached}"
        err_console.print(f"{result.title} in {result.seconds:.1f} s{note}", markup=False, highlight=False)
        if out is not None:
            err_console.print(f"dataset: {out}   report: {out / 'report' / 'report.html'} (tables and plots beside it)",
                              markup=False, highlight=False)


def _print_leaderboard(result: Any) -> None:
    """The leaderboard as a rich table with 95 % intervals."""
    unit = "match" if result.match else "game"
    table = Table(title=f"Leaderboard — {escape(str(result.title))}", caption=f"fair share 1/P = {result.fair_share:.4f}; "
                  f"intervals 95 %, clustered by deal; rating = Bradley–Terry log-strength")
    columns = ["#", "strategy", "win rate", "95 % CI", f"points won / {unit}",
               f"points in hand / {'round' if result.match else 'game'}", "rating", "rating 95 % CI"]
    for col in columns:
        table.add_column(col, justify="left" if col == "strategy" else "right", overflow="fold")
    for r in result.leaderboard.itertuples(index=False):
        table.add_row(
            str(r.rank), escape(str(r.strategy)), f"{r.win_rate:.4f}", f"[{r.win_rate_lo:.4f}, {r.win_rate_hi:.4f}]",
            f"{r.points:.2f} ± {r.points_pm:.2f}", f"{r.hand_points:.2f} ± {r.hand_points_pm:.2f}",
            f"{r.rating:+.3f}", f"[{r.rating_lo:+.3f}, {r.rating_hi:+.3f}]",
        )
    out_console.print(table)


# ---------------------------------------------------------------- check
@command("check")
@user_errors()
def check_command(
    strategy: Annotated[
        str, typer.Argument(metavar="STRATEGY", help="A registered name, module:Class, or name(param=value, ...).")
    ],
    games: o.Games = 12,
    seed: o.Seed = 0,
) -> None:
    """Conformance suite: every preset, and classic with the house rules, at 2, 6 and 16 players;
    legal, well-shaped, deterministic, batch-independent, picklable and describable.

    --games: games per table (24 tables, each of the seed --seed).

    [dim]Example: unosim check mymodule:MyStrategy[/]
    """
    from ..engine.conformance import check

    report = check(strategy, games=games, seed=seed)
    shown = escape(str(report.strategy))
    table = Table(title=f"unosim check {shown} ({report.tables} tables, {report.games:,} games, {report.seconds:.1f} s)")
    for col in ("check", "result", "detail"):
        table.add_column(col)
    for name, result, detail in report.rows():
        style = "green" if result == "ok" else "red" if result == "FAIL" else "dim"
        table.add_row(name, Text(result, style=style), Text(detail))
    out_console.print(table)
    if not report.ok:
        err_console.print(Text("error: ", style="bold red") + Text(report.message()), soft_wrap=True)
        raise typer.Exit(1)


# ---------------------------------------------------------------- try (rule strategies)
@command("try")
@user_errors()
@o.shared("jobs")
def try_command(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A rule-strategy TOML file (docs/rule_bots.md), or a shipped name.")],
    field: Annotated[str, typer.Option("--field", help="The opponents, comma-separated strategies.")] = "random,greedy",
    rules: o.Rules = "classic",
    players: o.Players = 4,
    games: o.Games = 20_000,
    seed: o.Seed = 0,
    watch: Annotated[bool, typer.Option("--watch", help="Evaluate again every time the file is saved (Ctrl-C stops).")] = False,
    **options: Any,
) -> None:
    """Win rate of a rule file against a field, with its 95 % interval; --watch: again on every save.

    --games: about this many games per evaluation, on the same deals (--seed) for every version
    of the file.

    [dim]Example: unosim try strategies/rules/holder.toml --watch[/]
    """
    from ..analysis.rule_files import evaluate
    from ..analysis.rule_files import watch as watch_file
    from ..strategy.rule_language import resolve_path

    def run() -> Any:
        return evaluate(file, field=field, rules=rules, players=players, games=games, seed=seed, **options)

    if not watch:
        out_console.print(run().line(), highlight=False, markup=False, soft_wrap=True)
        return
    path = resolve_path(file)
    try:
        watch_file(path, run, lambda line: out_console.print(line, highlight=False, markup=False, soft_wrap=True))
    except KeyboardInterrupt:
        pass
