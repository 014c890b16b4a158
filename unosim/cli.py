"""The ``unosim`` command line (Typer).

Commands: ``simulate`` (one run), ``run`` (an experiment file). Bad input is
refused before any work with a one-paragraph message and exit code 2 (the
same code the option parser uses for a malformed option); wrap a new command
in :func:`user_errors` to get the same behaviour. ``UNOSIM_DEBUG=1`` shows the
traceback instead.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

EXIT_USAGE = 2
"""Exit code of a refused command (bad option value, unplayable table, ...)."""

app = typer.Typer(
    name="unosim",
    help="Fast Monte Carlo simulation of UNO and UNO Party!.",
    rich_markup_mode="rich",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
err_console = Console(stderr=True)
out_console = Console()


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn a ``ValueError`` (bad input) into ``error: <message>`` on stderr and exit code 2.

    Usable as ``with user_errors(): ...`` or as a decorator ``@user_errors()``.
    """
    try:
        yield
    except ValueError as exc:
        if os.environ.get("UNOSIM_DEBUG"):
            raise
        err_console.print(Text("error: ", style="bold red") + Text(str(exc)), soft_wrap=True)
        raise typer.Exit(EXIT_USAGE) from None


# ---------------------------------------------------------------- shared options
Jobs = Annotated[
    int | None,
    typer.Option("--jobs", "-j", help="Worker processes (Dask: tasks in flight). Default: all cores.", show_default=False),
]
Backend = Annotated[str, typer.Option("--backend", help="Where chunks run: [bold]loky[/] (local processes) or [bold]dask[/].")]
Scheduler = Annotated[
    str | None,
    typer.Option("--scheduler", help="Dask scheduler address, e.g. tcp://HOST:8786 (with --backend dask).", show_default=False),
]
ChunkSize = Annotated[
    int | None,
    typer.Option("--chunk-size", help="Games per chunk file. Default: 50,000 (less for small runs).", show_default=False),
]
Overwrite = Annotated[bool, typer.Option("--overwrite", help="Replace a dataset of other settings in the output directory.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary (for scripts).")]


# ---------------------------------------------------------------- simulate
@app.command()
@user_errors()
def simulate(
    rules: Annotated[str, typer.Option("--rules", help="Rules preset: classic, classic-house or party.")] = "classic",
    players: Annotated[int, typer.Option("--players", help="Players at the table, 2–16.")] = 4,
    games: Annotated[int, typer.Option("--games", help="Number of games (matches with --match).")] = 10_000,
    seed: Annotated[int, typer.Option("--seed", help="Run seed: the same seed gives the same records.")] = 0,
    strategies: Annotated[
        str, typer.Option("--strategies", help="One strategy for every seat, or one per seat, comma-separated.")
    ] = "random",
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write the records as a parquet dataset here (resumes if interrupted).", show_default=False),
    ] = None,
    batch_size: Annotated[
        int | None,
        typer.Option("--batch-size", help="Games stepped together (never changes results).", show_default=False),
    ] = None,
    overrides: Annotated[
        list[str] | None,
        typer.Option("--set", metavar="OPTION=VALUE", help="Override a rule option of the preset (repeatable).", show_default=False),
    ] = None,
    deck: Annotated[
        str | None, typer.Option("--deck", metavar="FILE", help="Play this deck file (or shipped deck name).", show_default=False)
    ] = None,
    match: Annotated[bool, typer.Option("--match", help="Play matches to the target score instead of single rounds.")] = False,
    jobs: Jobs = None,
    backend: Backend = "loky",
    scheduler: Scheduler = None,
    chunk_size: ChunkSize = None,
    overwrite: Overwrite = False,
    quiet: Quiet = False,
) -> None:
    """Play games and write one record per game.

    [dim]Example: unosim simulate --rules classic --players 4 --games 200000 --seed 1
    --strategies random,greedy,random,greedy --out runs/a[/]
    """
    from .config import RunConfig
    from .runner import run

    config = RunConfig.build(
        rules=rules,
        players=players,
        strategies=strategies,
        seed=seed,
        games=games,
        batch_size=batch_size,
        match=match,
        overrides=list(overrides or []),
        deck=deck,
    )
    result = run(
        config,
        out,
        jobs=jobs,
        backend=backend,
        scheduler=scheduler,
        chunk_size=chunk_size,
        overwrite=overwrite,
        quiet=quiet,
    )
    if not quiet:
        _print_summary(result)


# ---------------------------------------------------------------- run
@app.command("run")
@user_errors()
def run_command(
    experiment: Annotated[Path, typer.Argument(metavar="EXPERIMENT.toml", help="Experiment file (see experiments/).")],
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Dataset directory (default: the file's `out`).", show_default=False),
    ] = None,
    jobs: Jobs = None,
    backend: Backend = "loky",
    scheduler: Scheduler = None,
    chunk_size: ChunkSize = None,
    overwrite: Overwrite = False,
    quiet: Quiet = False,
) -> None:
    """Run every cell of an experiment file into one dataset."""
    from .experiment import load_experiment, run_experiment

    exp = load_experiment(experiment)
    target = out or exp.out
    if target is None:
        raise ValueError(f"{experiment} sets no output directory; add out = \"runs/NAME\" to the file or pass --out DIR.")
    result = run_experiment(
        exp,
        target,
        jobs=jobs,
        backend=backend,
        scheduler=scheduler,
        chunk_size=chunk_size,
        overwrite=overwrite,
        quiet=quiet,
    )
    if not quiet:
        _print_summary(result)


# ---------------------------------------------------------------- output
def _print_summary(result: Any) -> None:
    """One line on what was written; for an in-memory run, the mean of each numeric column."""
    rate = result.games_played / result.seconds if result.seconds > 0 else 0.0
    if result.path is not None:
        resumed = f", {result.chunks_resumed} already done" if result.chunks_resumed else ""
        err_console.print(
            f"wrote {result.games:,} games to {result.path} ({result.chunks} chunks{resumed}) in "
            f"{result.seconds:.1f} s, {rate:,.0f} games/s; load with unosim.load({str(result.path)!r})",
            markup=False,
            highlight=False,
        )
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


# ---------------------------------------------------------------- more commands
# The lead adds `replay` and `bench` below. Wrap each command in @user_errors()
# (after @app.command()) so a ValueError prints one paragraph and exits 2.
# <!-- commands: replay, bench -->


def main() -> None:
    """Entry point of the ``unosim`` console script."""
    app()


if __name__ == "__main__":
    main()
