"""Runs at scale: chunks through joblib (loky or Dask), one parquet file per chunk, resumable.

Chunks and seeds
----------------
A run of ``games`` games is cut into chunks of ``chunk_size`` games; chunk
``i`` is the game range ``[i * chunk_size, (i + 1) * chunk_size)``. The
engine keys every random draw of game *g* by (run seed, *g*)
(:func:`unosim.engine.play_range`), so a chunk needs no seed of its own: this
supersedes the "one ``SeedSequence`` child per chunk" design (STYLE.md point
6, DESIGN.md). It meets the same requirement — the same seed and config give
the same rows for any ``jobs``, backend or chunk size — and more: any game is
replayable from its index alone. The chunking is recorded in the dataset
metadata only to name the files.

Execution
---------
Chunks run through joblib: ``loky`` processes on this machine (the default,
``jobs`` of them, all cores by default) or a Dask cluster through joblib's Dask
backend (``backend="dask"``; ``scheduler`` is the address of a running
scheduler, a ``distributed.Client``, or ``None`` for a local cluster). Each task
carries the picklable :class:`~unosim.config.RunConfig`; the worker resolves the
strategies by name (the engine does that), so nothing depends on what the worker
imported before.

With loky the workers write their chunk files themselves; with Dask they return
the chunk's table and this process writes it, so Dask workers on other machines
need no shared file system. Either way a finished chunk goes straight to disk:
memory holds at most the chunks in flight (about two per worker), whatever the
number of games. Only without an output directory (``out=None``, the in-memory
Python API) are the chunks gathered and returned as one table.

Matches
-------
A match run (``config.match``) writes two files per chunk: the rounds to
``rounds/<chunk file>`` first, then the matches to ``<chunk file>``; a chunk
counts as done only when both are complete (see :mod:`unosim.dataset`).

Resume
------
The dataset metadata (:mod:`unosim.dataset`) is written before the first
chunk. Started again with the same settings, a run plays only the chunks whose
file is missing (temporary files of interrupted writes are deleted, never read).
A directory holding a dataset made with other settings is refused unless
``overwrite=True``; a directory holding other files is always refused.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import joblib
import pyarrow as pa
import pyarrow.parquet as pq

from . import dataset, engine
from .config import RunConfig

if TYPE_CHECKING:
    import pandas as pd
    from rich.progress import Progress

DEFAULT_CHUNK_SIZE = 50_000
"""Default games per chunk (smaller runs use smaller chunks, see :func:`default_chunk_size`)."""
MIN_DEFAULT_CHUNK_SIZE = 1_000
BACKENDS = ("loky", "dask")
DASK_CONNECT_TIMEOUT = "10s"
"""How long to try reaching a Dask scheduler."""
DASK_WORKER_TIMEOUT = 60.0
"""Seconds to wait for the first Dask worker before giving up."""
SEEDING_NOTE = (
    "every random draw of game g comes from a stream keyed by (seed, g); chunks are plain game "
    "ranges and carry no seed of their own, so rows do not depend on chunking, jobs or backend"
)


def default_chunk_size(games: int) -> int:
    """Games per chunk: 50,000, or an eighth of a smaller run (at least 1,000), never above ``games``."""
    return max(1, min(games, DEFAULT_CHUNK_SIZE, max(MIN_DEFAULT_CHUNK_SIZE, -(-games // 8))))


@dataclass(frozen=True)
class Part:
    """One chunk to play: a game range of one configuration, and the file it goes to."""

    config: RunConfig
    cell: int | None
    chunk: int
    first_game: int
    n_games: int
    filename: str
    columns: tuple[tuple[str, Any], ...] = ()
    file_metadata: tuple[tuple[bytes, bytes], ...] = ()


@dataclass(frozen=True)
class Plan:
    """What a run produces: the dataset metadata and its chunks in row order."""

    meta: dict[str, Any]
    parts: tuple[Part, ...]
    description: str = "simulate"


@dataclass(frozen=True)
class RunResult:
    """Outcome of :func:`run` or :func:`unosim.experiment.run_experiment`.

    Attributes
    ----------
    path : Path or None
        The dataset directory, or ``None`` for an in-memory run.
    table : pyarrow.Table or None
        The rows of an in-memory run (``path is None``): games, or matches.
    games : int
        Games (rows) in the whole dataset.
    games_played : int
        Games played by this call (fewer when it resumed).
    chunks : int
        Chunk files of the whole dataset.
    chunks_played : int
        Chunks played by this call.
    seconds : float
        Wall time of this call.
    rounds : pyarrow.Table or None
        The rounds of an in-memory match run.
    """

    path: Path | None
    table: pa.Table | None
    games: int
    games_played: int
    chunks: int
    chunks_played: int
    seconds: float
    rounds: pa.Table | None = None

    @property
    def chunks_resumed(self) -> int:
        """Chunks that were already on disk and so skipped."""
        return self.chunks - self.chunks_played

    def to_pandas(self, table: str = "main") -> pd.DataFrame:
        """The rows of ``table`` (``"main"`` or, for matches, ``"rounds"``) as a DataFrame
        (read from disk for a written dataset)."""
        if self.path is not None:
            return dataset.load(self.path, table=table)
        if table == "rounds":
            if self.rounds is None:
                raise ValueError("this run played single rounds: it has no rounds table; use table='main'.")
            return dataset.to_frame(self.rounds)
        assert self.table is not None
        return dataset.to_frame(self.table)


# ------------------------------------------------------------------ public entry point
def run(
    config: RunConfig,
    out: str | Path | None = None,
    *,
    jobs: int | None = None,
    backend: str = "loky",
    scheduler: Any = None,
    chunk_size: int | None = None,
    overwrite: bool = False,
    quiet: bool = False,
    extra_columns: dict[str, Any] | None = None,
) -> RunResult:
    """Play ``config.games`` games in chunks, in parallel, into a parquet dataset.

    Parameters
    ----------
    config : RunConfig
        What to play.
    out : str or Path, optional
        Dataset directory; created if missing, resumed if it holds this run.
        ``None`` plays in memory and returns the rows in ``RunResult.table``.
    jobs : int, optional
        Worker processes (loky) or tasks in flight (Dask); default all cores
        (loky) or all workers (Dask). ``1`` plays in this process.
    backend : {"loky", "dask"}
        joblib backend.
    scheduler : str or distributed.Client, optional
        Dask only: scheduler address ``tcp://HOST:PORT`` or a client; default
        the current client, else a new local cluster.
    chunk_size : int, optional
        Games per chunk file; default :func:`default_chunk_size` (or, when
        resuming, the chunk size of the existing dataset).
    overwrite : bool
        Replace a dataset of other settings in ``out`` instead of refusing.
    quiet : bool
        No progress bar or messages.
    extra_columns : dict, optional
        Constant columns put first in every row (name to scalar value).

    Returns
    -------
    RunResult

    Raises
    ------
    ValueError
        Before any game is played, for a bad option, an ``out`` that holds
        something else, or an unreachable Dask scheduler.
    """
    check_options(jobs=jobs, backend=backend, scheduler=scheduler, chunk_size=chunk_size)
    out = Path(out) if out is not None else None
    size = chunk_size or existing_chunk_size(out) or default_chunk_size(config.games)
    size = min(size, config.games)
    chunks = -(-config.games // size)
    pattern = dataset.file_pattern(chunks)
    meta = new_metadata("run", chunk_size=size, chunks=chunks, pattern=pattern)
    meta["config"] = config.to_dict()
    meta["deck"] = describe_deck(config)
    meta["strategy_params"] = describe_strategies(config)
    meta["extra_columns"] = {k: v.as_py() if isinstance(v, pa.Scalar) else v for k, v in (extra_columns or {}).items()}
    columns = tuple((extra_columns or {}).items())
    parts = tuple(
        Part(config, None, i, i * size, min(size, config.games - i * size), pattern.format(chunk=i), columns)
        for i in range(chunks)
    )
    description = f"{config.rules.name} · {config.players} players"
    plan = Plan(json.loads(json.dumps(meta)), parts, description)
    return execute(plan, out, jobs=jobs, backend=backend, scheduler=scheduler, overwrite=overwrite, quiet=quiet)


# ------------------------------------------------------------------ building blocks
def check_options(*, jobs: Any, backend: Any, scheduler: Any, chunk_size: Any) -> None:
    """Refuse bad execution options with a message saying what is allowed."""
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise ValueError(f"jobs = {jobs!r}; give a whole number ≥ 1 (--jobs N), or leave it unset for all cores.")
    if backend not in BACKENDS:
        raise ValueError(f"backend = {backend!r}; choose one of: {', '.join(BACKENDS)}.")
    if scheduler is not None and backend != "dask":
        raise ValueError("a scheduler address only applies to the Dask backend; add --backend dask.")
    if chunk_size is not None and (isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1):
        raise ValueError(f"chunk_size = {chunk_size!r}; give a whole number of games ≥ 1, or leave it unset.")


def new_metadata(kind: str, *, chunk_size: int, chunks: int, pattern: str) -> dict[str, Any]:
    """The common head of a dataset's metadata."""
    from . import __version__

    return {
        "format": dataset.FORMAT,
        "format_version": dataset.FORMAT_VERSION,
        "kind": kind,
        "unosim_version": __version__,
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "chunking": {"chunk_size": chunk_size, "chunks": chunks, "file_pattern": pattern, "seeding": SEEDING_NOTE},
    }


def describe_deck(config: RunConfig) -> dict[str, Any]:
    """The deck played, with its per-type counts (a deck file may change later)."""
    deck = config.rules.load_deck()
    return {"name": deck.name, "counts": list(deck.counts), "copies": config.rules.deck_copies}


def describe_strategies(config: RunConfig) -> dict[str, Any]:
    """Every distinct strategy of the line-up by its spec: name, class and all its parameters (defaults included)."""
    from .registry import make

    return {str(spec): make(spec.name, dict(spec.params)).describe() for spec in config.strategies}


def existing_chunk_size(out: Path | None) -> int | None:
    """Chunk size of the dataset already in ``out`` (to resume with it), if any."""
    if out is None or not (out / dataset.METADATA_FILE).is_file():
        return None
    try:
        size = dataset.read_metadata(out)["chunking"]["chunk_size"]
    except (ValueError, KeyError, TypeError):
        return None
    return size if isinstance(size, int) and size >= 1 else None


def execute(
    plan: Plan,
    out: Path | None,
    *,
    jobs: int | None,
    backend: str,
    scheduler: Any,
    overwrite: bool,
    quiet: bool,
) -> RunResult:
    """Play the chunks of ``plan`` not yet in ``out`` and write them (or gather them)."""
    check_options(jobs=jobs, backend=backend, scheduler=scheduler, chunk_size=None)
    check_supported(plan.parts)
    started = time.perf_counter()
    console = _console(quiet)
    meta, clear = plan.meta, False
    if out is not None:
        meta, clear = inspect_directory(out, plan.meta, overwrite=overwrite)
    with _parallel(backend, scheduler, jobs, console) as (n_jobs, write_in_workers):
        done: set[str] = set()
        if out is not None:
            prepare_directory(out, meta, clear=clear)
            done = finished_files(out, plan.parts)
        parts = [_with_file_metadata(p, meta) for p in plan.parts if p.filename not in done]
        compile_engine([p.config for p in parts], console)
        if done and console is not None:
            console.print(
                f"resuming {out}: {len(done)} of {len(plan.parts)} chunks already done, "
                f"{len(parts)} to play",
                markup=False,
                highlight=False,
            )
        total = sum(p.n_games for p in plan.parts)
        tables: dict[str, tuple[pa.Table, pa.Table | None]] = {}
        target = None if out is None or not write_in_workers else str(out)
        unit = "matches" if any(p.config.match for p in plan.parts) else "games"
        with _progress(console, plan.description, total, total - sum(p.n_games for p in parts), unit) as bar:
            tasks = (joblib.delayed(play_part)(p, target) for p in parts)
            parallel = joblib.Parallel(n_jobs=n_jobs, return_as="generator_unordered", batch_size=1)
            by_name = {p.filename: p for p in parts}
            for filename, played in parallel(tasks):
                part = by_name[filename]
                if played is not None and out is not None:
                    write_part(part, out, *played)
                elif played is not None:
                    tables[filename] = played
                if bar is not None:
                    bar[0].advance(bar[1], part.n_games)
    result_table = rounds_table = None
    if out is None:
        result_table = pa.concat_tables([tables[p.filename][0] for p in plan.parts], promote_options="default")
        if any(p.config.match for p in plan.parts):
            rounds = [tables[p.filename][1] for p in plan.parts]
            rounds_table = pa.concat_tables([r for r in rounds if r is not None], promote_options="default")
    return RunResult(
        path=out,
        table=result_table,
        rounds=rounds_table,
        games=total,
        games_played=sum(p.n_games for p in parts),
        chunks=len(plan.parts),
        chunks_played=len(parts),
        seconds=time.perf_counter() - started,
    )


def check_supported(parts: tuple[Part, ...]) -> None:
    """Ask the engine, before any work, whether it plays every configuration of ``parts``."""
    check = getattr(engine, "check_supported", None)
    if check is None:
        return
    seen = set()
    for part in parts:
        if part.cell in seen:
            continue
        seen.add(part.cell)
        try:
            check(part.config.rules, part.config.players, match=part.config.match)
        except ValueError as exc:
            if part.cell is None:
                raise
            raise ValueError(
                f"cell {part.cell} ({part.config.rules.name} rules, {part.config.players} players): {exc}"
            ) from None


def compile_engine(configs: list[RunConfig], console: Any) -> None:
    """Compile (or load from the disk cache) the kernels ``configs`` need, in this process, before
    any worker starts: workers then load the cache instead of compiling side by side. A cold
    compile shows a status line instead of a games/s figure that would include it."""
    from . import kernel_cache

    if not configs:
        return
    if console is not None and kernel_cache.is_cold():
        with console.status(f"compiling the engine (first run only, about {kernel_cache.expected_seconds()} s)"):
            engine.compile_kernels(configs)
    else:
        engine.compile_kernels(configs)


def play_part(part: Part, directory: str | None) -> tuple[str, tuple[pa.Table, pa.Table | None] | None]:
    """Play one chunk (in a worker); write it to ``directory`` or return its tables (main, rounds or None)."""
    table, rounds = engine.play_tables(part.config, part.first_game, part.n_games)
    if table.num_rows != part.n_games:
        raise RuntimeError(
            f"the engine returned {table.num_rows} rows for {part.n_games} games "
            f"(games {part.first_game}..{part.first_game + part.n_games - 1})"
        )
    table = add_columns(table, part.columns)
    rounds = add_columns(rounds, part.columns) if rounds is not None else None
    if directory is None:
        return part.filename, (table, rounds)
    write_part(part, Path(directory), table, rounds)
    return part.filename, None


def write_part(part: Part, out: Path, table: pa.Table, rounds: pa.Table | None) -> None:
    """Write a chunk's files atomically: the rounds of a match run first, then the main table."""
    if rounds is not None:
        (out / dataset.ROUNDS_DIR).mkdir(exist_ok=True)
        dataset.write_chunk(rounds, out / dataset.ROUNDS_DIR / part.filename, dict(part.file_metadata))
    dataset.write_chunk(table, out / part.filename, dict(part.file_metadata))


def add_columns(table: pa.Table, columns: tuple[tuple[str, Any], ...]) -> pa.Table:
    """Put constant ``columns`` first, replacing engine columns of the same name (keeping their type)."""
    if not columns:
        return table
    names = [name for name, _ in columns]
    arrays = []
    for name, value in columns:
        scalar = value if isinstance(value, pa.Scalar) else pa.scalar(value)
        if name in table.column_names:
            scalar = scalar.cast(table.schema.field(name).type)
        arrays.append(pa.repeat(scalar, table.num_rows))
    rest = table.drop_columns([n for n in names if n in table.column_names])
    return pa.Table.from_arrays(arrays + rest.columns, names=names + rest.column_names).replace_schema_metadata(
        table.schema.metadata
    )


def _with_file_metadata(part: Part, meta: dict[str, Any]) -> Part:
    """Attach the key-value metadata the chunk's parquet file carries."""
    file_meta = meta
    if part.cell is not None:
        file_meta = {**meta, "cells": [meta["cells"][part.cell]]}
    chunk = {"cell": part.cell, "chunk": part.chunk, "first_game": part.first_game, "n_games": part.n_games}
    return replace(
        part,
        file_metadata=(
            (dataset.METADATA_KEY, dataset.to_json(file_meta).encode()),
            (dataset.CHUNK_KEY, json.dumps(chunk).encode()),
        ),
    )


# ------------------------------------------------------------------ the output directory
def inspect_directory(out: Path, meta: dict[str, Any], *, overwrite: bool) -> tuple[dict[str, Any], bool]:
    """Decide, without changing anything, how to use ``out``.

    Returns the metadata to write into the files (the existing one when
    resuming, so every file carries the same JSON) and whether the dataset files
    there must be removed first (``overwrite``).
    """
    if not out.exists():
        return meta, False
    if not out.is_dir():
        raise ValueError(f"output {out} is a file; give a directory (new or holding this run's dataset).")
    names = sorted(p.name for p in out.iterdir())
    if dataset.METADATA_FILE not in names:
        foreign = [n for n in names if not (dataset.is_chunk_file(n) or dataset.is_temp_file(n) or n == dataset.ROUNDS_DIR)]
        if foreign:
            raise ValueError(
                f"output directory {out} is not empty and holds no unosim dataset (e.g. {foreign[0]!r}); "
                "give a new or empty directory."
            )
        if any(dataset.is_chunk_file(n) for n in names) and not overwrite:
            raise ValueError(
                f"output directory {out} holds chunk files but no {dataset.METADATA_FILE}, so it cannot be "
                "resumed; give a new directory or use --overwrite to replace them."
            )
        return meta, bool(names)
    try:
        old = dataset.read_metadata(out)
    except ValueError as exc:
        if overwrite:
            return meta, True
        raise ValueError(f"{exc} Use --overwrite to replace it, or give a new directory.") from None
    differences = _differences(dataset.identity(old), dataset.identity(meta))
    if not differences:
        return old, False
    if overwrite:
        return meta, True
    shown = "; ".join(differences[:4]) + ("; ..." if len(differences) > 4 else "")
    raise ValueError(
        f"output directory {out} holds a dataset made with other settings ({shown}). Run the same "
        "settings again to resume it, give a new --out directory, or add --overwrite to replace it."
    )


def prepare_directory(out: Path, meta: dict[str, Any], *, clear: bool) -> None:
    """Create ``out``, remove old dataset files if ``clear``, delete temporary files, write metadata."""
    out.mkdir(parents=True, exist_ok=True)
    rounds = out / dataset.ROUNDS_DIR
    for path in [*out.iterdir(), *(rounds.iterdir() if rounds.is_dir() else ())]:
        name = path.name
        if path.is_dir():
            continue
        if dataset.is_temp_file(name) or (clear and (dataset.is_chunk_file(name) or name == dataset.METADATA_FILE)):
            path.unlink(missing_ok=True)
    if not (out / dataset.METADATA_FILE).is_file():
        dataset.write_metadata(out, meta)


def finished_files(out: Path, parts: tuple[Part, ...]) -> set[str]:
    """Chunks already complete: files present, readable, of the expected games and rows
    (matches: the rounds file too)."""
    done = set()
    for part in parts:
        if _chunk_written(out / part.filename, part, part.n_games) and (
            not part.config.match or _chunk_written(out / dataset.ROUNDS_DIR / part.filename, part, None)
        ):
            done.add(part.filename)
    return done


def _chunk_written(path: Path, part: Part, rows: int | None) -> bool:
    """Whether ``path`` is a complete chunk file of ``part`` (with ``rows`` rows, if given)."""
    if not path.is_file():
        return False
    try:
        info = pq.read_metadata(path)
        chunk = json.loads((info.metadata or {})[dataset.CHUNK_KEY])
    except (OSError, KeyError, ValueError, pa.ArrowException):
        return False
    return (rows is None or info.num_rows == rows) and chunk.get("first_game") == part.first_game


def _differences(old: Any, new: Any, path: str = "") -> list[str]:
    """Readable list of the places where two JSON values differ."""
    if isinstance(old, dict) and isinstance(new, dict):
        found = []
        for key in sorted(set(old) | set(new), key=str):
            found += _differences(old.get(key), new.get(key), f"{path}.{key}" if path else str(key))
        return found
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        found = []
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            found += _differences(a, b, f"{path}[{i}]")
        return found
    if old == new:
        return []
    return [f"{path or 'metadata'}: {_short(old)} there, {_short(new)} now"]


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


# ------------------------------------------------------------------ backends and progress
@contextmanager
def _parallel(backend: str, scheduler: Any, jobs: int | None, console: Any) -> Iterator[tuple[int, bool]]:
    """Configure joblib; yield (n_jobs, whether workers write their own files)."""
    if backend == "loky":
        n_jobs = jobs or os.cpu_count() or 1
        with joblib.parallel_config(backend="loky", n_jobs=n_jobs):
            yield n_jobs, True
        return
    client, close = _dask_client(scheduler, jobs, console)
    try:
        with joblib.parallel_config(backend="dask", client=client):
            yield jobs or -1, False
    finally:
        close()


def _dask_client(scheduler: Any, jobs: int | None, console: Any) -> tuple[Any, Any]:
    """A connected ``distributed.Client`` with at least one worker, and how to close it."""
    try:
        import distributed
    except ImportError:
        raise ValueError(
            "the Dask backend needs the optional dependencies: pip install 'unosim[dask]'."
        ) from None
    if isinstance(scheduler, distributed.Client):
        return scheduler, lambda: None
    if scheduler is None:
        try:
            return distributed.default_client(), lambda: None
        except ValueError:
            pass
        cluster = distributed.LocalCluster(
            n_workers=jobs or os.cpu_count() or 1, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = distributed.Client(cluster, set_as_default=False)

        def close() -> None:
            client.close()
            cluster.close()

        return client, close
    try:
        client = distributed.Client(str(scheduler), timeout=DASK_CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise ValueError(
            f"cannot reach the Dask scheduler at {scheduler} ({exc}). Start one with `dask scheduler`, "
            f"start workers with `dask worker {scheduler}`, and pass the address it prints to --scheduler."
        ) from None
    if console is not None and not client.scheduler_info().get("workers"):
        console.print(f"waiting for Dask workers to join {scheduler} ...", markup=False, highlight=False)
    try:
        client.wait_for_workers(1, timeout=DASK_WORKER_TIMEOUT)
    except TimeoutError:
        client.close()
        raise ValueError(
            f"no Dask worker joined the scheduler {scheduler} within {DASK_WORKER_TIMEOUT:.0f} s; start "
            f"workers with `dask worker {scheduler}` (unosim must be importable there)."
        ) from None
    return client, client.close


def _console(quiet: bool) -> Any:
    """A rich console on stderr, or ``None`` when quiet."""
    if quiet:
        return None
    from rich.console import Console

    return Console(stderr=True)


def _progress(console: Any, description: str, total: int, completed: int, unit: str = "games") -> Any:
    """A rich progress bar yielding ``(progress, task_id)``, or a null context.

    Shows games (or matches: ``unit``) done, their rate and the time left, both
    measured over this call's work (chunks found done when resuming do not count).
    """
    if console is None:
        return nullcontext(None)
    from rich.progress import BarColumn, Progress, ProgressColumn, TextColumn
    from rich.text import Text

    def rate(task: Any) -> float | None:
        played = task.completed - task.fields["initial"]
        elapsed = task.finished_time if task.finished else task.elapsed
        return played / elapsed if played > 0 and elapsed else None

    class GamesColumn(ProgressColumn):
        def render(self, task: Any) -> Text:
            return Text(f"{int(task.completed):,}/{int(task.total):,}")

    class RateColumn(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = rate(task)
            return Text("" if speed is None else f"{speed:,.0f} {unit}/s", style="progress.data.speed")

    class EtaColumn(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = rate(task)
            if task.finished:
                return Text(f"in {_clock(task.finished_time or 0)}", style="progress.elapsed")
            if speed is None:
                return Text("ETA -:--:--", style="progress.remaining")
            return Text(f"ETA {_clock((task.total - task.completed) / speed)}", style="progress.remaining")

    @contextmanager
    def bar() -> Iterator[tuple[Progress, Any]]:
        progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(bar_width=16),
            GamesColumn(),
            RateColumn(),
            EtaColumn(),
            console=console,
            expand=False,
        )
        with progress:
            yield progress, progress.add_task(description, total=total, completed=completed, initial=completed)

    return bar()


def _clock(seconds: float) -> str:
    """``h:mm:ss``."""
    left = int(seconds)
    return f"{left // 3600}:{left // 60 % 60:02d}:{left % 60:02d}"


__all__ = ["DEFAULT_CHUNK_SIZE", "Part", "Plan", "RunResult", "default_chunk_size", "execute", "run"]
