"""Executing a run's chunks through joblib: loky processes on this machine or a Dask cluster.

Execution
---------
Chunks run through joblib: ``loky`` processes on this machine (the default,
``jobs`` of them, all cores by default) or a Dask cluster through joblib's Dask
backend (``backend="dask"``; ``scheduler`` is the address of a running
scheduler, a ``distributed.Client``, or ``None`` for a local cluster). Each task
carries the picklable [`RunConfig`][unosim.RunConfig]; the worker resolves the
strategies by name (the engine does that), so nothing depends on what the worker
imported before. It also carries the texts of the run's rule and deck files, read when
the run started (`unosim.game.inputs`): the worker plays those, never the files on disk.

SIGTERM
-------
`stopped_by_sigterm` (installed by the runner while a run plays) kills the loky
worker processes at once and exits with `TERMINATED_EXIT_CODE`: workers never
linger, holding memory, after the run they served is gone.

With loky the workers write their chunk files themselves; with Dask they return
the chunk's table and this process writes it, so Dask workers on other machines
need no shared file system. Either way a finished chunk goes straight to disk:
memory holds at most the chunks in flight (about two per worker), whatever the
number of games. Only without an output directory (``out=None``, the in-memory
Python API) are the chunks gathered and returned as one table.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import joblib
import pyarrow as pa

from ..engine import driver as engine
from ..engine.config import RunConfig
from ..game import inputs
from ..game.errors import UnosimInputError
from . import files
from .options import Execution
from .planning import Part

__all__ = ["TERMINATED_EXIT_CODE", "compile_engine", "parallel", "play_part", "stop_workers", "stopped_by_sigterm", "write_part"]

TERMINATED_EXIT_CODE = 128 + int(signal.SIGTERM)
"""Exit code of a run stopped by SIGTERM (143, as a shell reports a process ended by it)."""

DASK_CONNECT_TIMEOUT = "10s"
"""How long to try reaching a Dask scheduler."""
DASK_WORKER_TIMEOUT = 60.0
"""Seconds to wait for the first Dask worker before giving up."""


@contextmanager
def parallel(execution: Execution, console: Any) -> Iterator[tuple[int, bool]]:
    """Configure joblib; yield (n_jobs, whether workers write their own files)."""
    jobs, scheduler = execution.jobs, execution.scheduler
    if execution.backend == "loky":
        n_jobs = jobs or os.cpu_count() or 1
        with joblib.parallel_config(backend="loky", n_jobs=n_jobs):
            yield n_jobs, True
        return
    client, close = dask_client(scheduler, jobs, console)
    try:
        with joblib.parallel_config(backend="dask", client=client):
            yield jobs or -1, False
    finally:
        close()


def dask_client(scheduler: Any, jobs: int | None, console: Any) -> tuple[Any, Any]:
    """A connected ``distributed.Client`` with at least one worker, and how to close it."""
    try:
        import distributed
    except ImportError:
        raise UnosimInputError(
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
        raise UnosimInputError(
            f"cannot reach the Dask scheduler at {scheduler} ({exc}). Start one with `dask scheduler`, "
            f"start workers with `dask worker {scheduler}`, and pass the address it prints to --scheduler."
        ) from None
    if console is not None and not client.scheduler_info().get("workers"):
        console.print(f"waiting for Dask workers to join {scheduler} ...", markup=False, highlight=False)
    try:
        client.wait_for_workers(1, timeout=DASK_WORKER_TIMEOUT)
    except TimeoutError:
        client.close()
        raise UnosimInputError(
            f"no Dask worker joined the scheduler {scheduler} within {DASK_WORKER_TIMEOUT:.0f} s; start "
            f"workers with `dask worker {scheduler}` (unosim must be importable there)."
        ) from None
    return client, client.close


def compile_engine(configs: list[RunConfig], console: Any, isolate: bool = False) -> None:
    """Compile (or load from the disk cache) the kernels ``configs`` need, in this process, before
    any worker starts: workers then load the cache instead of compiling side by side. A cold
    compile shows a status line instead of a games/s figure that would include it (on a log or a
    pipe, where a status line shows nothing, a line before), with the time this machine took before
    if it has compiled them before (`compiling_message`), and
    then a line with the time it took. ``isolate``: the runs play user strategies isolated;
    stand-ins play for them here ([`unosim.engine.compile_kernels`][unosim.engine.compile_kernels])."""
    from ..engine import kernel_cache

    if not configs:
        return
    cold = sorted({copy for copy in (engine.kernel_copy_for(c, isolate) for c in configs) if kernel_cache.is_cold(copy)}) \
        if console is not None else []
    if not cold:
        engine.compile_kernels(configs, isolate)
        return
    import time

    message = kernel_cache.compiling_message(cold)
    started = time.perf_counter()
    if console.is_terminal:
        with console.status(message):
            engine.compile_kernels(configs, isolate)
    else:  # a log or a pipe shows no status line: say it in a line of its own
        console.print(f"{message} ...", markup=False, highlight=False)
        engine.compile_kernels(configs, isolate)
    console.print(f"compiled the engine in {time.perf_counter() - started:.0f} s", markup=False, highlight=False)


def play_part(
    part: Part, directory: str | None
) -> tuple[str, tuple[pa.Table, pa.Table | None] | None, dict[str, str]]:
    """Play one chunk (in a worker); write it to ``directory`` or return its tables (main, rounds or None);
    with the sha256 of each file written (`write_part`)."""
    try:
        with inputs.pinned(dict(part.inputs)):  # the rule and deck texts read when the run started
            table, rounds = engine.play_tables(
                part.config, part.first_game, part.n_games, verify=part.verify, isolate=part.isolate
            )
    finally:
        if part.isolate:  # no isolated strategy's process, nor any it forked, outlives its chunk's games
            from ..engine.isolation import stop_children

            stop_children()
    if table.num_rows != part.n_games:
        raise RuntimeError(
            f"the engine returned {table.num_rows} rows for {part.n_games} games "
            f"(games {part.first_game}..{part.first_game + part.n_games - 1})"
        )
    table = add_columns(table, part.columns)
    rounds = add_columns(rounds, part.columns) if rounds is not None else None
    if directory is None:
        return part.filename, (table, rounds), {}
    return part.filename, None, write_part(part, Path(directory), table, rounds)


def write_part(part: Part, out: Path, table: pa.Table, rounds: pa.Table | None) -> dict[str, str]:
    """Write a chunk's files atomically: the rounds of a match run first, then the main table. Return the
    sha256 of the bytes written to each, by its path in the dataset (``rounds/<chunk file>``, ``<chunk file>``)."""
    digests = {}
    if rounds is not None:
        (out / files.ROUNDS_DIR).mkdir(exist_ok=True)
        name = f"{files.ROUNDS_DIR}/{part.filename}"
        digests[name] = files.write_chunk(rounds, out / name, dict(part.file_metadata))
    digests[part.filename] = files.write_chunk(table, out / part.filename, dict(part.file_metadata))
    return digests


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


def stop_workers() -> int:
    """Kill the loky worker processes of this process's reusable executor, at once.

    Returns
    -------
    int
        How many worker processes there were.
    """
    from joblib.externals.loky import reusable_executor

    executor = getattr(reusable_executor, "_executor", None)
    if executor is None:
        return 0
    processes = list((getattr(executor, "_processes", None) or {}).values())
    for process in processes:
        try:
            process.kill()
        except (OSError, ValueError, AttributeError):
            pass  # already gone
    try:
        executor.shutdown(wait=False, kill_workers=True)
    except Exception:  # noqa: BLE001 - the workers are killed already; the executor's own clean-up may fail
        pass
    return len(processes)


@contextmanager
def stopped_by_sigterm() -> Iterator[None]:
    """While the block runs, SIGTERM kills the worker processes and ends this process with
    `TERMINATED_EXIT_CODE` and a message on stderr (a no-op outside the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        stopped = stop_workers()
        sys.stderr.write(
            f"unosim: stopped by SIGTERM ({stopped} worker process{'es' if stopped != 1 else ''} killed); "
            "the chunks already written are kept: run the same command again to resume.\n"
        )
        sys.stderr.flush()
        raise SystemExit(TERMINATED_EXIT_CODE)

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)
