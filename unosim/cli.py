"""The ``unosim`` command line (Typer).

Commands: ``simulate`` (one run), ``run`` (an experiment file), ``replay`` (a narrated
game), ``view`` (a game as an HTML viewer), ``play`` (a game against the strategies),
``bench`` (games per second), ``tournament`` (seat-fair strategy tournaments),
``check`` (a strategy's conformance), ``try`` (a rule-strategy file against a field),
``study`` (the default study), ``report`` (plots and report of a dataset), ``compare``
(rule sets on the same deals), ``cardvalue-swap`` (card values by experiment) and
``tune`` (tune a strategy). :func:`main` is the entry point.

Bad input is refused before any work with a one-paragraph message and exit code 2 (the
same code the option parser uses for a malformed option); wrap a new command
in :func:`user_errors` to get the same behaviour. ``UNOSIM_DEBUG=1`` shows the
traceback instead.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, ConsoleDimensions
from rich.table import Table
from rich.text import Text

__all__ = ["EXIT_USAGE", "app", "main", "user_errors"]

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
def _show_flags_as_flags() -> None:
    """Typer's help gives a flag (``--quiet``, ``--help``) a type column (``<bool>``), as if it took a
    value; leave that column empty for flags."""
    from typer.core import TyperOption

    shown = getattr(TyperOption, "display_type_rich", None)
    if shown is None or getattr(shown, "flags_as_flags", False):
        return

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        return None if getattr(self, "is_flag", False) else shown(self, ctx)

    display_type_rich.flags_as_flags = True  # type: ignore[attr-defined]
    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


_show_flags_as_flags()
err_console = Console(stderr=True)
PIPE_WIDTH = 400
"""Width of standard output written to a file or a pipe: tables never cut a name there."""


class _StdoutConsole(Console):
    """Standard output: the terminal's width on a terminal (long names wrap in their column);
    at least :data:`PIPE_WIDTH` columns when written to a log, a file or a pipe."""

    @property
    def size(self) -> ConsoleDimensions:
        dims = Console.size.fget(self)  # type: ignore[attr-defined]
        if not self.is_terminal:  # COLUMNS (a CI's 80) does not narrow a log
            return ConsoleDimensions(max(PIPE_WIDTH, dims.width), dims.height)
        return dims

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        Console.size.fset(self, new_size)  # type: ignore[attr-defined]


out_console = _StdoutConsole()


def _print_version(value: bool) -> None:
    if value:
        from .version import __version__

        out_console.print(f"unosim {__version__}", highlight=False)
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", callback=_print_version, is_eager=True)
    ] = False,
) -> None:
    """Fast Monte Carlo simulation of UNO and UNO Party!."""


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn a ``ValueError`` (bad input) or an ``OSError`` (a full disk, a permission, a path that
    is a file; see :func:`os_error_message`) into ``error: <message>`` on stderr and exit code 2,
    and a :class:`~unosim.engine.driver.StrategyError` (a strategy broke the rules mid-run) into
    the same message and exit code 1.

    Usable as ``with user_errors(): ...`` or as a decorator ``@user_errors()``.
    """
    try:
        yield
    except ValueError as exc:
        if os.environ.get("UNOSIM_DEBUG"):
            raise
        err_console.print(Text("error: ", style="bold red") + Text(str(exc)), soft_wrap=True)
        raise typer.Exit(EXIT_USAGE) from None
    except OSError as exc:
        if os.environ.get("UNOSIM_DEBUG"):
            raise
        err_console.print(Text("error: ", style="bold red") + Text(os_error_message(exc)), soft_wrap=True)
        raise typer.Exit(EXIT_USAGE) from None
    except RuntimeError as exc:
        # only a command that imported the engine can raise its StrategyError: commands that do
        # not play (report) skip importing numba (about 1-2 s)
        engine = sys.modules.get(f"{__package__}.engine")
        if engine is None or not isinstance(exc, engine.StrategyError) or os.environ.get("UNOSIM_DEBUG"):
            raise
        err_console.print(Text("error: ", style="bold red") + Text(str(exc)), soft_wrap=True)
        raise typer.Exit(1) from None


_OS_ADVICE = {
    errno.ENOSPC: "free some space (or give --out on another disk), then run the same command again: the chunks "
                  "already written are kept and the run resumes from them",
    errno.EDQUOT: "free some of your quota, then run the same command again: the run resumes from what is written",
    errno.EACCES: "choose a path you may write (--out) or change its permissions",
    errno.EPERM: "choose a path you may write (--out) or change its permissions",
    errno.EROFS: "the file system is read-only: give --out on a writable disk",
    errno.ENOTDIR: "a part of the path is a file, not a directory: give a directory path",
    errno.EISDIR: "the path is a directory where a file was expected: give a file path",
    errno.EEXIST: "a file of that name is in the way: remove it or give another path",
    errno.ENOENT: "check the path: a file or directory named in it does not exist",
}


def os_error_message(exc: OSError) -> str:
    """One paragraph for an operating-system error: what failed, on which path, and what to change.

    Parameters
    ----------
    exc : OSError
        The error (its ``errno``, ``strerror`` and ``filename`` are used when set).

    Returns
    -------
    str
        The message, without the ``error:`` prefix.
    """
    code = exc.errno
    what = exc.strerror or str(exc) or type(exc).__name__
    name = errno.errorcode.get(code, "") if code is not None else ""
    where = f" on {exc.filename}" if exc.filename else ""
    if exc.filename2:
        where += f" and {exc.filename2}"
    advice = _OS_ADVICE.get(code if code is not None else -1, "fix the cause above and run the same command again")
    return f"{what}{f' ({name})' if name else ''}{where}: {advice}."


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
Isolate = Annotated[
    bool,
    typer.Option("--isolate", help="Play each strategy of your own code from a process of its own, which sees only its "
                 "observations (the same games; built-in, rule, tuned and policy strategies stay in the engine)."),
]



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
    isolate: Isolate = False,
) -> None:
    """Play games and write one record per game (with --match: one per match, and one per round).

    [dim]Example: unosim simulate --rules classic --players 4 --games 200000 --seed 1
    --strategies random,greedy,random,greedy --out runs/a[/]
    """
    from .engine.config import RunConfig
    from .runs.options import Execution
    from .runs.runner import run

    execution = Execution(jobs=jobs, backend=backend, scheduler=scheduler, chunk_size=chunk_size, overwrite=overwrite, quiet=quiet,
                          isolate=isolate)
    from .strategy.registry import user_code_isolated

    with user_code_isolated(isolate):
        config = RunConfig.build(rules=rules, players=players, strategies=strategies, seed=seed, games=games,
                                 batch_size=batch_size, match=match, overrides=list(overrides or []), deck=deck)
        result = run(config, out, execution)
    if not quiet:
        _print_summary(result)
        _print_win_rates(result, [str(spec) for spec in config.strategies], match=match)


def _print_win_rates(result: Any, strategies: list[str], *, match: bool) -> None:
    """Each seat's and each strategy's win rate with its 95 % interval (the question a run answers)."""
    from .analysis.winrates import win_rates

    column = "match_winner" if match else "winner"
    if result.table is not None:
        winner = result.table.column(column).to_pandas()
    else:
        from .runs.dataset import read_table

        winner = read_table(result.path, columns=[column]).column(column).to_pandas()
    by_seat, by_strategy = win_rates(winner, strategies)
    unit = "matches" if match else "games"
    seats = Table(title=f"win rate by seat ({len(winner):,} {unit}; fair share {1 / len(strategies):.4f})")
    for col, justify in (("seat", "right"), ("strategy", "left"), ("win rate", "right"), ("95 % CI", "right")):
        seats.add_column(col, justify=justify, overflow="fold")  # type: ignore[arg-type]
    for r in by_seat.itertuples():
        seats.add_row(str(r.seat), r.strategy, f"{r.win_rate:.4f}", f"[{r.low:.4f}, {r.high:.4f}]")
    pooled = Table(title="win rate by strategy (per seat-game, pooled over its seats, clustered by game)")
    for col, justify in (("strategy", "left"), ("seats", "right"), ("win rate", "right"), ("95 % CI", "right"),
                         ("fair share", "right")):
        pooled.add_column(col, justify=justify, overflow="fold")  # type: ignore[arg-type]
    for r in by_strategy.itertuples():
        pooled.add_row(r.strategy, str(r.seats), f"{r.win_rate:.4f}", f"[{r.low:.4f}, {r.high:.4f}]", f"{r.fair_share:.4f}")
    out_console.print(seats)
    out_console.print(pooled)


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
    from .runs.experiment import load_experiment, run_experiment
    from .runs.options import Execution

    execution = Execution(jobs=jobs, backend=backend, scheduler=scheduler, chunk_size=chunk_size, overwrite=overwrite, quiet=quiet)
    exp = load_experiment(experiment)
    target = out or exp.out
    if target is None:
        raise ValueError(f"{experiment} sets no output directory; add out = \"runs/NAME\" to the file or pass --out DIR.")
    result = run_experiment(exp, target, execution)
    if not quiet:
        _print_summary(result)


# ---------------------------------------------------------------- output
def _print_summary(result: Any) -> None:
    """One line on what was written; for an in-memory run, the mean of each numeric column."""
    rate = result.games_played / result.seconds if result.seconds > 0 else 0.0
    if result.path is not None:
        from .runs import dataset

        resumed = f", {result.chunks_resumed} already done" if result.chunks_resumed else ""
        if dataset.has_rounds(dataset.read_metadata(result.path)):
            rounds = dataset.load(result.path, columns=["rounds"])["rounds"]
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

    from .runs.dataset import read_table

    truncated = read_table(result.path, columns=["truncated"], table=table).column("truncated")
    n = pc.sum(truncated).as_py() or 0
    share = 100 * n / len(truncated) if len(truncated) else 0.0
    what = "rounds" if table == "rounds" else "games"
    err_console.print(
        f"truncated at max_turns (E-5): {n:,} of {len(truncated):,} {what} ({share:.3f} %)", markup=False, highlight=False
    )


# ---------------------------------------------------------------- replay
@app.command()
@user_errors()
def replay(
    run_dir: Annotated[
        Path | None, typer.Option("--run", help="A dataset (simulate, run, study, tournament): replay one of its games.",
                                  show_default=False)
    ] = None,
    game: Annotated[int, typer.Option("--game", help="Game index to replay (within its cell, for an experiment).")] = 0,
    cell: Annotated[
        int | None, typer.Option("--cell", help="Cell of an experiment, study or tournament dataset (its `cell` column).",
                                 show_default=False)
    ] = None,
    rules: Annotated[str, typer.Option("--rules", help="Rules preset (without --run).")] = "classic",
    players: Annotated[int, typer.Option("--players", help="Players (without --run).")] = 4,
    seed: Annotated[int, typer.Option("--seed", help="Run seed (without --run).")] = 0,
    strategies: Annotated[str, typer.Option("--strategies", help="Strategies (without --run).")] = "random",
    set_: Annotated[
        list[str] | None, typer.Option("--set", help="Rule override OPTION=VALUE (without --run).", show_default=False)
    ] = None,
    deck: Annotated[str | None, typer.Option("--deck", help="Deck name or file (without --run).", show_default=False)] = None,
) -> None:
    """Narrate one game, move by move: of a written dataset (--run, with --cell for an experiment,
    study or tournament), or of a seed."""
    from .engine.config import RunConfig
    from .engine.trace import replay as replay_game
    from .runs.dataset import read_metadata, read_table

    if run_dir is not None:
        meta = read_metadata(run_dir)
        if meta.get("kind") == "experiment":
            cells = meta.get("cells", [])
            if cell is None or not 0 <= cell < len(cells):
                listing = "; ".join(f"{i}: {c.get('rules')}, {c.get('players')} players" for i, c in enumerate(cells[:8]))
                more = f"; … ({len(cells)} cells)" if len(cells) > 8 else ""
                raise ValueError(f"{run_dir} holds an experiment of {len(cells)} cells; pick one with --cell 0 to "
                                 f"{len(cells) - 1} ({listing}{more}) and a game with --game.")
            config = RunConfig.from_dict(cells[cell]["config"])
        else:
            if cell not in (None, 0):
                raise ValueError(f"--cell {cell}: {run_dir} holds a single run (no cells); leave --cell out.")
            config = RunConfig.from_dict(meta["config"])
            cell = None
        if not 0 <= game < config.games:
            raise ValueError(f"--game {game} is not a game of {run_dir}{'' if cell is None else f' cell {cell}'}; "
                             f"it holds games 0 to {config.games - 1}.")
    else:
        config = RunConfig.build(
            rules=rules, players=players, seed=seed, strategies=strategies, overrides=set_, deck=deck, games=game + 1
        )
    trace = replay_game(config, game)
    for line in trace.narrate():
        out_console.print(line, highlight=False, markup=False, soft_wrap=True)  # one narration line per line, never wrapped
    rec = trace.record
    out_console.print(
        f"winner: seat {rec['winner']}, turns: {rec['turns']}, cards drawn: {rec['cards_drawn']}, "
        f"truncated: {rec['truncated']}",
        highlight=False,
    )
    if run_dir is not None:
        import pyarrow.compute as pc

        columns = ["game", "winner", "turns", "cards_drawn"] + ([] if cell is None else ["cell"])
        table = read_table(run_dir, columns=columns)
        wanted = pc.equal(table["game"], game)
        if cell is not None:
            wanted = pc.and_(wanted, pc.equal(table["cell"], cell))
        row = table.filter(wanted).to_pylist()[0]
        same = all(row[k] == rec[k] for k in ("winner", "turns", "cards_drawn"))
        out_console.print(
            f"dataset row: winner {row['winner']}, turns {row['turns']}, cards drawn {row['cards_drawn']} — "
            + ("replay matches." if same else "REPLAY DIFFERS."),
            highlight=False,
        )
        if not same:
            raise typer.Exit(1)


# ---------------------------------------------------------------- view
@app.command()
@user_errors()
def view(
    run_dir: Annotated[
        Path | None, typer.Option("--run", help="A dataset (a run, an experiment or a tournament): view one of its games.",
                                  show_default=False)
    ] = None,
    game: Annotated[int, typer.Option("--game", help="Game index to view.")] = 0,
    cell: Annotated[
        int | None, typer.Option("--cell", help="Cell of an experiment or tournament dataset (with --run).", show_default=False)
    ] = None,
    rules: Annotated[str, typer.Option("--rules", help="Rules preset (without --run).")] = "classic",
    players: Annotated[int, typer.Option("--players", help="Players (without --run).")] = 4,
    seed: Annotated[int, typer.Option("--seed", help="Run seed (without --run).")] = 0,
    strategies: Annotated[str, typer.Option("--strategies", help="Strategies (without --run).")] = "random",
    set_: Annotated[
        list[str] | None, typer.Option("--set", help="Rule override OPTION=VALUE (without --run).", show_default=False)
    ] = None,
    deck: Annotated[str | None, typer.Option("--deck", help="Deck name or file (without --run).", show_default=False)] = None,
    seat: Annotated[
        int | None, typer.Option("--seat", help="Show only this seat's hand (a player's view); default: every hand.",
                                 show_default=False)
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", help="HTML file to write (default: game-N.html).", show_default=False)] = None,
) -> None:
    """Write one game as a self-contained HTML viewer: step through every move, offline."""
    from .engine.config import RunConfig
    from .reports.viewer import load_game, write_viewer

    row = None
    if run_dir is not None:
        config, row = load_game(run_dir, game, cell)
    else:
        if cell is not None:
            raise ValueError("--cell chooses a cell of a dataset; give the dataset with --run.")
        config = RunConfig.build(
            rules=rules, players=players, seed=seed, strategies=strategies, overrides=set_, deck=deck, games=game + 1
        )
    path = write_viewer(config, game, out if out is not None else Path(f"game-{game}.html"), row=row, seat=seat)
    out_console.print(f"wrote {path}", highlight=False)


# ---------------------------------------------------------------- play
@app.command()
@user_errors()
def play(
    rules: Annotated[str, typer.Option("--rules", help="Rules preset.")] = "classic",
    players: Annotated[int, typer.Option("--players", help="Players at the table, you included.")] = 4,
    strategies: Annotated[
        str, typer.Option("--strategies", help="The other seats' strategies: one for all, or one per seat (yours is ignored).")
    ] = "greedy",
    seat: Annotated[int, typer.Option("--seat", help="Your seat.")] = 0,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the deal.")] = 0,
    set_: Annotated[list[str] | None, typer.Option("--set", help="Rule override OPTION=VALUE.", show_default=False)] = None,
    deck: Annotated[str | None, typer.Option("--deck", help="Deck name or file.", show_default=False)] = None,
    window: Annotated[
        float, typer.Option("--window", help="Seconds a jump-in or UNO catch stays open (0: wait for your answer).")
    ] = 10.0,
    out: Annotated[Path | None, typer.Option("--out", help="Run directory to write the game to (default runs/play-SEED).",
                                            show_default=False)] = None,
    browser: Annotated[bool, typer.Option("--browser", help="Play in a page served on this machine instead of the terminal.")] = False,
    port: Annotated[int, typer.Option("--port", help="With --browser: the local port (0: any free one).")] = 0,
    open_page: Annotated[bool, typer.Option("--open/--no-open", help="With --browser: open the page in the default browser.")] = True,
) -> None:
    """Play one game against the strategies in the terminal (or a page); it is written as a run that view and replay show."""
    from .engine.config import RunConfig

    config = RunConfig.build(rules=rules, players=players, seed=seed, strategies=strategies, overrides=set_, deck=deck, games=1)
    target = out if out is not None else Path("runs") / f"play-{seed}"
    if browser:
        from .play.web import serve_game

        serve_game(config, seat, target, port=port, window=window, open_browser=open_page,
                   announce=lambda text: out_console.print(text, highlight=False, soft_wrap=True))
        return
    from .play.terminal import play_game

    play_game(config, seat, target, window=window, console=out_console)


# ---------------------------------------------------------------- bench
@app.command()
@user_errors()
def bench(
    rules: Annotated[
        str | None, typer.Option("--rules", help="Preset to measure; omit for the standard grid.", show_default=False)
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", help="Players (with --rules; default 4, with --tournament 6).", show_default=False)
    ] = None,
    strategies: Annotated[
        str | None,
        typer.Option(
            "--strategies",
            help="Strategies, as for simulate (default random; with --tournament the six of the standard tournament).",
            show_default=False,
        ),
    ] = None,
    seconds: Annotated[float, typer.Option("--seconds", help="Seconds to play per measurement, after a warm-up.")] = 10.0,
    batch_size: Annotated[int | None, typer.Option("--batch-size", help="Games stepped together.", show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (one object; a list for the grid).")] = False,
    overrides: Annotated[
        list[str] | None,
        typer.Option("--set", metavar="OPTION=VALUE", help="With --rules: override a rule option (repeatable).", show_default=False),
    ] = None,
    python_path: Annotated[
        bool, typer.Option("--python-path", help="Ask the shipped strategies' Python methods, not their compiled versions.")
    ] = False,
    tournament: Annotated[
        bool,
        typer.Option(
            "--tournament",
            help="Measure a seat-fair tournament (default: party rules, 6 players, "
            "random,greedy,diversity,ranking,wild-saver,attacker): every seating in turn.",
        ),
    ] = False,
    search: Annotated[
        bool,
        typer.Option(
            "--search",
            help="Measure the search player instead: searched decisions and games per second at 256, 1,024 and 4,096 "
            "playouts per decision, one seat against random (classic at 2 and 4 players, party at 6; --batch-size games "
            "stepped together, default 64).",
        ),
    ] = False,
    env: Annotated[
        bool,
        typer.Option(
            "--env",
            help="Measure the learning environments instead (the rl extra): learner steps/s with random masked actions of "
            "UnoVectorEnv (--batch-size games, default 256) and UnoEnv at 2, 4, 16 players, classic and party (or --rules, "
            "--players), against --strategies (default random), and RLCard's UNO at 2 and 4 players if rlcard is installed.",
        ),
    ] = False,
) -> None:
    """Single-core games per second (one process, no workers); with --env, learner steps per second."""
    import json

    from .analysis.bench import bench as run_bench
    from .analysis.bench import grid
    from .engine import kernel_cache

    if kernel_cache.is_cold():  # compile before measuring (the warm-up would include it anyway), and say so
        from .engine.config import RunConfig
        from .engine.driver import compile_kernels

        with err_console.status(f"compiling the engine (first run only, about {kernel_cache.expected_seconds()} s)"):
            compile_kernels([RunConfig.build(players=2)])
    if env:
        _bench_env(rules, players, strategies or "random", seconds, batch_size or 256, as_json)
        return
    if search:
        _bench_search(seconds, batch_size or 64, as_json)
        return
    if tournament:
        from .analysis.bench import TOURNAMENT_STRATEGIES, bench_tournament

        result = bench_tournament(
            rules or "party", players or 6, strategies or ",".join(TOURNAMENT_STRATEGIES), seconds,
            batch_size=batch_size, compiled=not python_path,
        )
        if as_json:
            print(json.dumps(result))
            return
        out_console.print(
            f"tournament bench (one core): {result['games_per_second']:,.0f} games/s — {result['rules']}, "
            f"{result['players']} players, {result['strategies']} ({result['seatings']} seatings, "
            f"{result['games']:,} games in {result['seconds']:.1f} s)",
            highlight=False,
        )
        return
    players = players or 4
    strategies = strategies or "random"
    if rules is not None:
        results = [run_bench(rules, players, strategies, seconds, batch_size=batch_size, compiled=not python_path,
                             overrides=list(overrides or []))]
    elif overrides:
        raise ValueError("--set applies to one table: give --rules (and --players) with it.")
    else:
        results = grid(seconds, strategies, compiled=not python_path)
    if as_json:
        print(json.dumps(results[0] if rules is not None else results))
        return
    table = Table(title="unosim bench (one core)")
    for col in ("rules", "players", "strategies", "games/s", "mean turns", "batch", "compiled"):
        table.add_column(col, justify="right")
    for r in results:
        table.add_row(
            r["rules"], str(r["players"]), r["strategies"], f"{r['games_per_second']:,.0f}", f"{r['mean_turns']}",
            str(r["batch_size"]), "yes" if r["compiled_strategies"] else "no",
        )
    out_console.print(table)


def _bench_search(seconds: float, batch_size: int, as_json: bool) -> None:
    """``bench --search``: the search player's decisions and games per second at each budget."""
    import json

    from .analysis.search_bench import bench_search

    results = bench_search(seconds, batch_size=batch_size)
    if as_json:
        print(json.dumps(results))
        return
    table = Table(title="unosim bench --search (one core)")
    for col in ("rules", "players", "playouts", "ms/decision", "decisions/s", "games/s"):
        table.add_column(col, justify="right")
    for r in results:
        table.add_row(r["rules"], str(r["players"]), f"{r['playouts']:,}", f"{r['ms_per_decision']:.1f}",
                      f"{r['decisions_per_second']:,.0f}", f"{r['games_per_second']:,.1f}")
    out_console.print(table)


def _bench_env(rules: str | None, players: int | None, opponents: str, seconds: float, num_envs: int, as_json: bool) -> None:
    """``bench --env``: measure the environments, print the table (or JSON) with the ratios to RLCard."""
    import json

    from .analysis.env_bench import bench_env

    result = bench_env(seconds, rules=rules, players=players, num_envs=num_envs, opponents=opponents)
    if as_json:
        print(json.dumps(result))
        return
    table = Table(title=f"unosim bench --env (one core; random masked actions, opponents {opponents})")
    for col in ("environment", "rules", "players", "learner steps/s", "decisions/s", "rounds/s", "× RLCard steps", "× RLCard rounds"):
        table.add_column(col, justify="right")
    for r in result["rows"]:
        ratios = [f"{r[k]:.2f}" if k in r else "" for k in ("vs_rlcard_steps", "vs_rlcard_rounds")]
        table.add_row(r["env"], r["rules"], str(r["players"]), f"{r['steps_per_second']:,.0f}", f"{r['decisions_per_second']:,.0f}",
                      f"{r['rounds_per_second']:,.0f}", *ratios)
    out_console.print(table)
    if result["rlcard"] is False:
        out_console.print("RLCard is not installed (pip install rlcard, for the benchmark only): no ratios.", highlight=False)
    else:
        out_console.print("An RLCard step is any seat's action, a unosim step the learning seat's: × RLCard steps compares "
                          "unosim's decisions with all of RLCard's steps.", highlight=False)


# ---------------------------------------------------------------- tournament
@app.command("tournament")
@user_errors()
def tournament_command(
    strategies: Annotated[
        str,
        typer.Option(
            "--strategies",
            help="At least two distinct strategies, comma-separated (names, name(param=value), package.module:Class). "
            "Fewer strategies than seats: they repeat around the table in order (A B A B ...); when their number "
            "does not divide the seats, one table per shift of the list, so each holds equally many seats. "
            "More strategies than seats: a balanced set of tables (all combinations, or a cyclic design).",
            show_default=False,
        ),
    ],
    rules: Annotated[str, typer.Option("--rules", help="Rules preset: classic, classic-house or party.")] = "party",
    players: Annotated[int, typer.Option("--players", help="Seats per table, 2–16.")] = 6,
    games: Annotated[
        int, typer.Option("--games", help="About this many games in all (deals × seatings); with --precision the first round.")
    ] = 60_000,
    seed: Annotated[int, typer.Option("--seed", help="Tournament seed: the same seed gives the same numbers.")] = 0,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write the dataset here and the tables and plots to OUT/report.", show_default=False),
    ] = None,
    match: Annotated[bool, typer.Option("--match", help="Play matches to the target score (500) instead of single games.")] = False,
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
    overrides: Annotated[
        list[str] | None,
        typer.Option("--set", metavar="OPTION=VALUE", help="Override a rule option of the preset (repeatable).", show_default=False),
    ] = None,
    deck: Annotated[
        str | None, typer.Option("--deck", metavar="FILE", help="Play this deck file (or shipped deck name).", show_default=False)
    ] = None,
    batch_size: Annotated[
        int | None,
        typer.Option("--batch-size", help="Games stepped together (never changes results).", show_default=False),
    ] = None,
    jobs: Jobs = None,
    backend: Backend = "loky",
    scheduler: Scheduler = None,
    chunk_size: Annotated[
        int | None, typer.Option("--chunk-size", help="Deals per chunk file of each seating.", show_default=False)
    ] = None,
    overwrite: Overwrite = False,
    quiet: Quiet = False,
    isolate: Isolate = False,
) -> None:
    """Seat-fair tournament: every deal replayed under every rotation of a balanced set of tables.

    Each strategy plays each seat offset from the dealer equally often on the same cards.

    Prints the leaderboard: win rates with deal-clustered 95 % intervals, points, Bradley–Terry ratings.

    With --out also writes the dataset and, in OUT/report, leaderboard.md/.csv, head_to_head.csv and plots (PNG, SVG).

    [dim]Example: unosim tournament --rules party --players 6
    --strategies random,greedy,diversity,ranking,wild-saver,attacker --games 200000 --out runs/t[/]
    """
    from .analysis.tournament import make_settings, run_tournament
    from .reports.tournament import write_report as write_tournament_report
    from .runs.options import Execution

    def on_round(games_so_far: int, widest: float) -> None:
        if not quiet:
            err_console.print(
                f"{games_so_far:,} games: widest win-rate interval ±{widest:.4f} > ±{precision:g}; playing on",
                markup=False,
                highlight=False,
            )

    execution = Execution(jobs=jobs, backend=backend, scheduler=scheduler, chunk_size=chunk_size, overwrite=overwrite, quiet=quiet,
                          isolate=isolate)
    from .strategy.registry import user_code_isolated

    with user_code_isolated(isolate):
        settings = make_settings(
            rules=rules, players=players, strategies=strategies, games=games, seed=seed, match=match, precision=precision,
            max_games=max_games, overrides=list(overrides or []), deck=deck, batch_size=batch_size, bootstrap=bootstrap,
        )
        result = run_tournament(settings, out, execution, on_round=on_round)
    _print_leaderboard(result)
    if not quiet:
        note = ""
        if precision is not None:
            reached = "reached" if result.widest <= precision else "NOT reached (--max-games hit)"
            note = f"; widest interval ±{result.widest:.4f}, target ±{precision:g} {reached}"
        err_console.print(f"{result.title} in {result.seconds:.1f} s{note}", markup=False, highlight=False)
    if out is not None:
        files = write_tournament_report(result, out / "report")
        if not quiet:
            err_console.print(f"dataset: {out}   report: {', '.join(f.name for f in files)} in {out / 'report'}",
                              markup=False, highlight=False)


def _print_leaderboard(result: Any) -> None:
    """The leaderboard as a rich table with 95 % intervals."""
    unit = "match" if result.match else "game"
    table = Table(title=f"Leaderboard — {result.title}", caption=f"fair share 1/P = {result.fair_share:.4f}; "
                  f"intervals 95 %, clustered by deal; rating = Bradley–Terry log-strength")
    columns = ["#", "strategy", "win rate", "95 % CI", f"points won / {unit}",
               f"points in hand / {'round' if result.match else 'game'}", "rating", "rating 95 % CI"]
    for col in columns:
        table.add_column(col, justify="left" if col == "strategy" else "right", overflow="fold")
    for r in result.leaderboard.itertuples(index=False):
        table.add_row(
            str(r.rank), r.strategy, f"{r.win_rate:.4f}", f"[{r.win_rate_lo:.4f}, {r.win_rate_hi:.4f}]",
            f"{r.points:.2f} ± {r.points_pm:.2f}", f"{r.hand_points:.2f} ± {r.hand_points_pm:.2f}",
            f"{r.rating:+.3f}", f"[{r.rating_lo:+.3f}, {r.rating_hi:+.3f}]",
        )
    out_console.print(table)


# ---------------------------------------------------------------- check
@app.command("check")
@user_errors()
def check_command(
    strategy: Annotated[
        str, typer.Argument(metavar="STRATEGY", help="A registered name, module:Class, or name(param=value, ...).")
    ],
    games: Annotated[int, typer.Option("--games", help="Games per table (24 tables).")] = 12,
    seed: Annotated[int, typer.Option("--seed", help="Run seed of every table.")] = 0,
) -> None:
    """Conformance suite: every preset, and classic with the house rules, at 2, 6 and 16 players;
    legal, well-shaped, deterministic, batch-independent, picklable and describable.

    [dim]Example: unosim check mymodule:MyStrategy[/]
    """
    from .engine.conformance import check

    report = check(strategy, games=games, seed=seed)
    table = Table(title=f"unosim check {report.strategy} ({report.tables} tables, {report.games:,} games, {report.seconds:.1f} s)")
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
@app.command("try")
@user_errors()
def try_command(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A rule-strategy TOML file (docs/rule_bots.md), or a shipped name.")],
    field: Annotated[str, typer.Option("--field", help="The opponents, comma-separated strategies.")] = "random,greedy",
    rules: Annotated[str, typer.Option("--rules", help="Rules preset: classic, classic-house or party.")] = "classic",
    players: Annotated[int, typer.Option("--players", help="Seats per table, 2–16.")] = 4,
    games: Annotated[int, typer.Option("--games", help="About this many games per evaluation.")] = 20_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed: the same deals for every version of the file.")] = 0,
    watch: Annotated[bool, typer.Option("--watch", help="Evaluate again every time the file is saved (Ctrl-C stops).")] = False,
    jobs: Jobs = 1,
) -> None:
    """Win rate of a rule file against a field, with its 95 % interval; --watch: again on every save.

    [dim]Example: unosim try strategies/rules/holder.toml --watch[/]
    """
    from .analysis.rule_files import evaluate
    from .analysis.rule_files import watch as watch_file
    from .strategy.rule_language import resolve_path

    def run() -> Any:
        return evaluate(file, field=field, rules=rules, players=players, games=games, seed=seed, jobs=jobs)

    if not watch:
        out_console.print(run().line(), highlight=False, markup=False, soft_wrap=True)
        return
    path = resolve_path(file)
    try:
        watch_file(path, run, lambda line: out_console.print(line, highlight=False, markup=False, soft_wrap=True))
    except KeyboardInterrupt:
        pass


# ---------------------------------------------------------------- study and report
@app.command()
@user_errors()
def study(
    out: Annotated[Path, typer.Option("--out", help="Dataset directory; plots go to OUT/report.")] = Path("runs/study"),
    games: Annotated[
        int | None, typer.Option("--games", help="Games per cell (default: the study's 20,000).", show_default=False)
    ] = None,
    jobs: Jobs = None,
    overwrite: Overwrite = False,
    quiet: Quiet = False,
) -> None:
    """The default study: game length and seat advantage at 2–16 players (classic, classic-house, party).

    Writes the parquet dataset to OUT and the plots and report.md to OUT/report.
    """
    import time
    import tomllib

    from .reports.dataset_report import write_report
    from .runs.experiment import STUDIES_DIR, parse_experiment, run_experiment

    default_study = STUDIES_DIR / "default.toml"
    data = tomllib.loads(default_study.read_text())
    if games is not None:
        data["games"] = games
    exp = parse_experiment(data, source=str(default_study), default_name="default_study")
    start = time.perf_counter()
    run_experiment(exp, out, jobs=jobs, overwrite=overwrite, quiet=quiet)
    files = write_report(out, out / "report")
    if not quiet:
        out_console.print(
            f"dataset: {out}   report: {files[-1]} (and {files[-2].name}, {len(files) - 2} plot files)   "
            f"in {time.perf_counter() - start:.0f} s",
            highlight=False,
        )


@app.command()
@user_errors()
def report(
    dataset: Annotated[Path, typer.Argument(help="A dataset written by simulate, run or study.")],
    out: Annotated[Path | None, typer.Option("--out", help="Where to write (default: DATASET/report).", show_default=False)] = None,
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
    written by `unosim compare --out`.
    """
    from .reports.dataset_report import write_report
    from .runs.dataset import read_metadata

    try:  # (analysis.tournament.is_tournament without importing the engine)
        tournament = "tournament" in read_metadata(dataset)
    except ValueError:
        tournament = False
    if tournament:  # a tournament's leaderboard, head-to-head and plots
        from .analysis.tournament import load_tournament
        from .reports.tournament import write_report as write_tournament_report

        files = write_tournament_report(load_tournament(dataset), out or dataset / "report")
        out_console.print("wrote " + ", ".join(str(f) for f in files))
        return
    files = write_report(dataset, out or dataset / "report", card_values=card_values)
    out_console.print(f"wrote {files[-1]}, {files[-2]} and {len(files) - 2} plot files in {files[-1].parent}", highlight=False)


# ---------------------------------------------------------------- compare
@app.command()
@user_errors()
def compare(
    spec: Annotated[
        Path | None, typer.Argument(metavar="[COMPARISON.toml]", help="A comparison file (see experiments/speed_play.toml).",
                                    show_default=False)
    ] = None,
    rules: Annotated[
        str | None, typer.Option("--rules", help="Preset(s), comma-separated: e.g. party or classic,classic-house. Default: party.",
                                 show_default=False)
    ] = None,
    players: Annotated[str | None, typer.Option("--players", help="Player counts: 16, 4,8,16 or 2-16. Default: 4.",
                                                show_default=False)] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", metavar="OPTION=V1,V2", help="A rule option and its values to compare (repeatable).",
                     show_default=False),
    ] = None,
    games: Annotated[int | None, typer.Option("--games", help="Games per rule set, player count and line-up. Default: 10,000.",
                                              show_default=False)] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed shared by every rule set (common random numbers). Default: 0.",
                                             show_default=False)] = None,
    skill: Annotated[str | None, typer.Option("--skill", help="Strategy at seat 0 in the skill runs (against random). Default: greedy.",
                                              show_default=False)] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the datasets, tables and the report here.", show_default=False)
    ] = None,
    jobs: Jobs = None,
    overwrite: Overwrite = False,
) -> None:
    """Play rule sets on the same deals; report paired differences with 95 % intervals.

    Metrics: game length (turns), the first player's edge, the truncated share and the
    skill edge (seat 0 playing --skill against random), each with the variance
    reduction the pairing achieved.

    [dim]Example: unosim compare --rules party --players 2-16 --option speed_play=true,false --out runs/speed[/]
    """
    from .analysis.compare import compare as run_compare
    from .analysis.compare import load_spec, metric_label

    settings: dict[str, Any] = {"rules": "party", "players": "4", "options": [], "games": 10_000, "seed": 0, "skill": "greedy"}
    if spec is not None:
        settings.update(load_spec(spec))
    given = {"rules": rules, "players": players, "options": option or None, "games": games, "seed": seed, "skill": skill,
             "out": out}
    settings.update({k: v for k, v in given.items() if v is not None})
    target = settings.pop("out", None)
    result = run_compare(settings.pop("rules"), settings.pop("players"), list(settings.pop("options")), out=target,
                         jobs=jobs, overwrite=overwrite, **settings)
    skill = result.settings["skill"]
    out = Path(target) if target is not None else None
    table = Table(title=f"paired differences against {result.settings['variants'][0]} ({result.settings['games']:,} games each)")
    for col in ("players", "variant", "metric", "difference [95 % CI]", "variance reduction"):
        table.add_column(col, justify="right", overflow="fold")
    for row in result.differences.itertuples():
        table.add_row(str(row.players), row.variant, metric_label(row.metric, skill),
                      f"{row.diff:+.3f} [{row.low:+.3f}, {row.high:+.3f}]",
                      "–" if row.variance_reduction != row.variance_reduction else f"{row.variance_reduction:.2f}×")
    out_console.print(table)
    if out is not None:
        from .reports.dataset_report import write_report

        files = write_report(out)
        out_console.print(f"report: {files[-1]}", highlight=False)


# ---------------------------------------------------------------- card values by swap experiment
@app.command("cardvalue-swap")
@user_errors()
def cardvalue_swap(
    rules: Annotated[str, typer.Option("--rules", help="Rules preset: classic, classic-house or party.")] = "classic",
    players: Annotated[str, typer.Option("--players", help="Player counts: 4, 2,4,8 or 2-16.")] = "2,4,8",
    games: Annotated[int, typer.Option("--games", help="Deals per player count (each played as dealt and once per kind).")] = 20_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the deals.")] = 0,
    kinds: Annotated[
        str | None, typer.Option("--kinds", help="Kinds to swap in, comma-separated (default: every action kind).", show_default=False)
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write values.csv and the report here.", show_default=False)] = None,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", help="Worker processes, one player count each (the values do not depend on it). "
                     "Default: 1.", show_default=False),
    ] = 1,
) -> None:
    """Card values cross-checked by experiment: the same deals played as dealt and with one number
    card of one hand swapped for the kind (common random numbers), next to the regression estimate.

    Every seat plays random; each deal is played once as dealt and once per kind (in this
    process, or with --jobs in that many worker processes, one player count each). Prints, per player count and kind, both
    values in percentage points with 95 % intervals and the variance reduction the pairing achieved.

    [dim]Example: unosim cardvalue-swap --rules classic --players 2,4,8 --games 20000 --out runs/swap[/]
    """
    from .analysis.cardswap import swap_values

    result = swap_values(rules, players, games=games, seed=seed, kinds=kinds, quiet=False, jobs=jobs)
    table = Table(title=f"card values, swap experiment and regression on the same {games:,} deals ({rules}, pp)")
    for col in ("players", "kind", "swap [95 % CI]", "regression [95 % CI]", "variance reduction"):
        table.add_column(col, justify="right", overflow="fold")
    for r in result.values.itertuples():
        table.add_row(str(r.players), r.kind, f"{r.swap_value:+.2f} [{r.swap_low:+.2f}, {r.swap_high:+.2f}]",
                      f"{r.regression_value:+.2f} [{r.regression_low:+.2f}, {r.regression_high:+.2f}]",
                      f"{r.variance_reduction:.2f}×")
    out_console.print(table)
    if out is not None:
        from .reports.dataset_report import write_report

        result.save(out)
        files = write_report(out)
        out_console.print(f"report: {files[-1]}", highlight=False)

# ---------------------------------------------------------------- tune
USEFUL_GENERATIONS = 10
"""Fewer generations than this: ``unosim tune`` warns that the search can hardly move from its start."""

@app.command("tune")
@user_errors()
def tune_command(
    rules: Annotated[str, typer.Option("--rules", help="Rules preset: classic, classic-house or party.")] = "classic",
    players: Annotated[int, typer.Option("--players", help="Players at the table, 2–16.")] = 2,
    against: Annotated[
        str, typer.Option("--against", help="The field: one or more opponent strategies, comma-separated (e.g. random, "
                          "or random,greedy,attacker); they fill the other seats in turn.")
    ] = "random",
    budget: Annotated[int, typer.Option("--budget", help="Games the search may play in all (whole generations).")] = 1_000_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed: the same seed and settings give the same tuned strategy.")] = 0,
    out: Annotated[
        Path, typer.Option("--out", help="Output directory: state (rerun to continue), tuned.json, summary.md, "
                           "history.csv, progress.png/.svg.")
    ] = Path("runs/tune"),
    overrides: Annotated[
        list[str] | None,
        typer.Option("--set", metavar="OPTION=VALUE", help="Override a rule option of the preset (repeatable).", show_default=False),
    ] = None,
    deck: Annotated[
        str | None, typer.Option("--deck", metavar="FILE", help="Play this deck file (or shipped deck name).", show_default=False)
    ] = None,
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
        str | None, typer.Option("--search", metavar="NAMES", help="tunable only: the parameters to search, "
                                 "comma-separated (default: every one the rules let matter); the others keep their "
                                 "--start values.", show_default=False)
    ] = None,
    jobs: Jobs = None,
    overwrite: Overwrite = False,
    quiet: Quiet = False,
    isolate: Isolate = False,
) -> None:
    """Tune the `tunable` strategy (or a rule file's thresholds) against a field with CMA-ES; evaluate it on fresh deals and save it.

    Every candidate of a generation plays the same deals (common random numbers), at every seat.
    The result plays as --strategies tuned:OUT/tuned.json (a rule file: --strategies rules:OUT/tuned.toml).

    [dim]Example: unosim tune --rules classic --players 2 --against random --budget 2000000 --out runs/tune[/]
    [dim]Example: unosim tune --strategy rules:holder --players 4 --against random --budget 500000 --out runs/tune-holder[/]
    """
    from .analysis.tuning import make_settings
    from .api import tune
    from .reports.tuning import worse_than_start

    request: dict[str, Any] = dict(
        rules=rules, players=players, against=against, budget=budget, seed=seed, overrides=list(overrides or []),
        deck=deck, popsize=popsize, games_per_candidate=games_per_candidate, sigma=sigma,
        evaluation_games=evaluation_games, start=start, name=name, strategy=strategy, search=search,
    )
    from .strategy.registry import user_code_isolated

    with user_code_isolated(isolate):
        planned = make_settings(**request)
    if planned.generations < USEFUL_GENERATIONS:
        err_console.print(
            f"warning: --budget {budget:,} allows only {planned.generations} generation"
            f"{'' if planned.generations == 1 else 's'} of {planned.popsize} candidates "
            f"({planned.games_per_generation:,} games each); CMA-ES needs about {USEFUL_GENERATIONS} or more to move "
            f"from its start. Raise --budget to {USEFUL_GENERATIONS * planned.games_per_generation:,} or more, or "
            "lower --games-per-candidate or --popsize.", markup=False, highlight=False, soft_wrap=True)
    result = tune(**request, out=out, overwrite=overwrite, quiet=quiet, jobs=jobs, isolate=isolate)
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


def main() -> None:
    """Entry point of the ``unosim`` console script."""
    import sys

    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # like ``python -m``: --strategies mymodule:Class finds ./mymodule.py
    app()


if __name__ == "__main__":
    main()
