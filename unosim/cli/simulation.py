"""``simulate`` and ``run``: play games into records, and print what was written."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from ..game.errors import UnosimInputError
from . import options as o
from .base import command, err_console, out_console, user_errors

__all__ = ["run_command", "simulate"]


# ---------------------------------------------------------------- simulate
@command()
@user_errors()
@o.shared(*o.EXECUTION)
def simulate(
    rules: o.Rules = "classic",
    players: o.Players = 4,
    games: o.Games = 10_000,
    seed: o.Seed = 0,
    strategies: o.Strategies = "random",
    out: o.MaybeOut = None,
    batch_size: o.BatchSize = None,
    overrides: o.Set = None,
    deck: o.Deck = None,
    match: o.Match = False,
    **options: Any,
) -> None:
    """Play games and write one record per game (with --match: one per match, and one per round).

    --games counts games (matches with --match); --out writes the records as a parquet dataset
    there (resumes if interrupted).

    [dim]Example: unosim simulate --rules classic --players 4 --games 200000 --seed 1
    --strategies random,greedy,random,greedy --out runs/a[/]
    """
    from ..api import run
    from ..strategy.spec import parse_strategies

    result = run(rules, players, games, strategies, seed, batch_size=batch_size, match=match, overrides=list(overrides or []),
                 deck=deck, out=out, **options)
    if not options["quiet"]:
        _print_summary(result)
        _print_win_rates(result, [str(spec) for spec in parse_strategies(strategies, players)], match=match)


def _print_win_rates(result: Any, strategies: list[str], *, match: bool) -> None:
    """Each seat's and each strategy's win rate with its 95 % interval (the question a run answers)."""
    from ..analysis.winrates import win_rates

    column = "match_winner" if match else "winner"
    if result.table is not None:
        winner = result.table.column(column).to_pandas()
    else:
        from ..runs.reading import read_table

        winner = read_table(result.path, columns=[column]).column(column).to_pandas()
    by_seat, by_strategy = win_rates(winner, strategies)
    unit = "matches" if match else "games"
    seats = Table(title=f"win rate by seat ({len(winner):,} {unit}; fair share {1 / len(strategies):.4f})")
    for col, justify in (("seat", "right"), ("strategy", "left"), ("win rate", "right"), ("95 % CI", "right")):
        seats.add_column(col, justify=justify, overflow="fold")  # type: ignore[arg-type]
    for r in by_seat.itertuples():
        seats.add_row(str(r.seat), escape(r.strategy), f"{r.win_rate:.4f}", f"[{r.low:.4f}, {r.high:.4f}]")
    pooled = Table(title="win rate by strategy (per seat-game, pooled over its seats, clustered by game)")
    for col, justify in (("strategy", "left"), ("seats", "right"), ("win rate", "right"), ("95 % CI", "right"),
                         ("fair share", "right")):
        pooled.add_column(col, justify=justify, overflow="fold")  # type: ignore[arg-type]
    for r in by_strategy.itertuples():
        pooled.add_row(escape(r.strategy), str(r.seats), f"{r.win_rate:.4f}", f"[{r.low:.4f}, {r.high:.4f}]", f"{r.fair_share:.4f}")
    out_console.print(seats)
    out_console.print(pooled)


# ---------------------------------------------------------------- run
@command("run")
@user_errors()
@o.shared(*o.EXECUTION)
def run_command(
    experiment: Annotated[Path, typer.Argument(metavar="EXPERIMENT.toml", help="Experiment file (see experiments/).")],
    out: o.MaybeOut = None,
    **options: Any,
) -> None:
    """Run every cell of an experiment file into one dataset (in --out, default the file's `out`)."""
    from ..api import run_experiment
    from ..runs.experiment import load_experiment

    exp = load_experiment(experiment)
    target = out or exp.out
    if target is None:
        raise UnosimInputError(f"{experiment} sets no output directory; add out = \"runs/NAME\" to the file or pass --out DIR.")
    result = run_experiment(exp, target, **options)
    if not options["quiet"]:
        _print_summary(result)


# ---------------------------------------------------------------- output
def _print_summary(result: Any) -> None:
    """One line on what was written; for an in-memory run, the mean of each numeric column."""
    rate = result.games_played / result.seconds if result.seconds > 0 else 0.0
    if result.path is not None:
        from ..runs import files, reading

        resumed = f", {result.chunks_resumed} already done" if result.chunks_resumed else ""
        if files.has_rounds(files.read_metadata(result.path)):
            rounds = reading.load(result.path, columns=["rounds"])["rounds"]
            err_console.print(
                f"wrote {result.games:,} matches ({int(rounds.sum()):,} rounds, {rounds.mean():.2f} rounds per match on "
                f"average) to {result.path} ({result.chunks} chunks{resumed}) in {result.seconds:.1f} s, "
                f"{rate:,.0f} matches/s; load with unosim.load({str(result.path)!r}) (matches) and "
                f"unosim.load({str(result.path)!r}, table='rounds')",
                markup=False,
                highlight=False,
            )
            _print_truncated(result, "rounds")
            return
        err_console.print(
            f"wrote {result.games:,} games to {result.path} ({result.chunks} chunks{resumed}) in "
            f"{result.seconds:.1f} s, {rate:,.0f} games/s; load with unosim.load({str(result.path)!r})",
            markup=False,
            highlight=False,
        )
        _print_truncated(result, "main")
        return
    import pyarrow as pa
    import pyarrow.compute as pc

    table = result.table
    summary = Table(title=f"{result.games:,} games in {result.seconds:.1f} s ({rate:,.0f} games/s)")
    summary.add_column("column")
    summary.add_column("mean", justify="right")
    for name in table.column_names:
        kind = table.schema.field(name).type
        if name in ("game", "seed") or not (pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_boolean(kind)):
            continue
        column = table.column(name)
        mean = pc.mean(column.cast(pa.float64()) if pa.types.is_boolean(kind) else column).as_py()
        summary.add_row(name, "" if mean is None else f"{mean:,.4g}")
    out_console.print(summary)


def _print_truncated(result: Any, table: str) -> None:
    """The share of rounds stopped at ``max_turns`` (E-5): they are kept, never counted as wins."""
    import pyarrow.compute as pc

    from ..runs.reading import read_table

    truncated = read_table(result.path, columns=["truncated"], table=table).column("truncated")
    n = pc.sum(truncated).as_py() or 0
    share = 100 * n / len(truncated) if len(truncated) else 0.0
    what = "rounds" if table == "rounds" else "games"
    err_console.print(
        f"truncated at max_turns (E-5): {n:,} of {len(truncated):,} {what} ({share:.3f} %)", markup=False, highlight=False
    )
