"""Runs at scale: plan the chunks, play those not yet on disk in parallel, write one parquet file per chunk.

This is the driver; each job is in its own module:

- `unosim.runs.planning` cuts a run into chunks (`Part`) and builds its
  dataset metadata (`Plan`). Chunks are plain game ranges: every
  random draw of game *g* is keyed by (run seed, *g*), so rows do not depend on chunking,
  jobs or backend.
- `unosim.runs.execution` plays chunks through joblib (loky processes, or a Dask cluster).
- `unosim.runs.directory` owns the output directory: new, resumed, refused or overwritten,
  and the atomic chunk files.
- `unosim.runs.progress` shows games/s and the time left.

Matches
-------
A match run (``config.match``) writes two files per chunk: the rounds to
``rounds/<chunk file>`` first, then the matches to ``<chunk file>``; a chunk
counts as done only when both are complete (see `unosim.runs.resume`).

Resume
------
The dataset metadata (`unosim.runs.files`) is written before the first
chunk. Started again with the same settings, a run plays only the chunks whose
file is missing or fails its checks — another run's, damaged, or not reading
cleanly (`unosim.runs.resume.check_chunk_files`); it names those it plays
again. Temporary files of interrupted writes are deleted, never read.
A directory holding a dataset made with other settings, or with an input file
that changed since, is refused unless ``overwrite=True``; a directory holding
other files is always refused; a directory another run is writing is refused
at once (`unosim.runs.directory.locked`).

Inputs
------
The rule files and deck files of a run are read once, when it starts
(`unosim.runs.planning.read_inputs`): their hashes go into the metadata,
their texts to every worker with its chunk, so a file edited mid-run changes
nothing of the run.

SIGTERM
-------
While a run plays, SIGTERM to this process kills its worker processes and
ends the run with exit code 143 and a message (the chunks written are kept;
running the same command again resumes).
"""

from __future__ import annotations

import dataclasses
import json
import time
from contextlib import ExitStack, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import joblib
import pyarrow as pa

from ..engine.config import RunConfig
from ..game import inputs
from ..game.errors import UnosimInputError
from . import directory, progress, resume
from .execution import compile_engine, parallel, play_part, stopped_by_sigterm, write_part
from .files import DIGESTS_KEY, ROUNDS_DIR, file_digest, file_pattern, read_metadata, record_digests
from .options import Execution
from .planning import (
    Part,
    Plan,
    check_parts_playable,
    chunk_count,
    default_chunk_size,
    describe_deck,
    describe_strategies,
    existing_chunk_size,
    new_metadata,
    read_inputs,
    with_file_metadata,
)
from .reading import load, to_frame

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["RunResult", "execute", "run"]


@dataclass(frozen=True)
class RunResult:
    """Outcome of [`run`][unosim.runs.run] or [`unosim.runs.run_experiment`][unosim.runs.run_experiment].

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
            return load(self.path, table=table)
        if table == "rounds":
            if self.rounds is None:
                raise UnosimInputError("this run played single rounds: it has no rounds table; use table='main'.")
            return to_frame(self.rounds)
        assert self.table is not None
        return to_frame(self.table)


def run(
    config: RunConfig,
    out: str | Path | None = None,
    execution: Execution | None = None,
    *,
    extra_columns: dict[str, Any] | None = None,
    **options: Any,
) -> RunResult:
    """Play ``config.games`` games in chunks, in parallel, into a parquet dataset.

    Parameters
    ----------
    config : RunConfig
        What to play.
    out : str or Path, optional
        Dataset directory; created if missing, resumed if it holds this run.
        ``None`` plays in memory and returns the rows in ``RunResult.table``.
    execution : Execution, optional
        How to play it (workers, backend, chunk size, overwrite, quiet); default
        all cores, loky, a chunk size by the run's size.
    extra_columns : dict, optional
        Constant columns put first in every row (name to scalar value).
    **options
        Fields of [`Execution`][unosim.runs.Execution] on top of ``execution``
        (``jobs=1, quiet=True``).

    Returns
    -------
    RunResult

    Raises
    ------
    ValueError
        Before any game is played, for a bad option, an ``out`` that holds
        something else, or an unreachable Dask scheduler.
    """
    execution = Execution.of(execution, **options)
    out = Path(out) if out is not None else None
    size = execution.chunk_size or existing_chunk_size(out) or default_chunk_size(config.games)
    size = min(size, config.games)
    chunks = chunk_count(config.games, size)
    pattern = file_pattern(chunks)
    meta = new_metadata("run", chunk_size=size, chunks=chunks, pattern=pattern)
    texts, meta["inputs"] = read_inputs([config])
    meta["config"] = config.to_dict()
    with inputs.pinned(dict(texts)):
        meta["deck"] = describe_deck(config)
        meta["strategy_params"] = describe_strategies(config)
    meta["extra_columns"] = {k: v.as_py() if isinstance(v, pa.Scalar) else v for k, v in (extra_columns or {}).items()}
    columns = tuple((extra_columns or {}).items())
    parts = tuple(
        Part(config, None, i, i * size, min(size, config.games - i * size), pattern.format(chunk=i), columns)
        for i in range(chunks)
    )
    description = f"{config.rules.name} · {config.players} players"
    plan = Plan(json.loads(json.dumps(meta)), parts, description, texts)
    return execute(plan, out, execution)


def execute(plan: Plan, out: Path | None, execution: Execution) -> RunResult:
    """Play the chunks of ``plan`` not yet in ``out`` and write them (or gather them).

    ``out`` is locked (`unosim.runs.directory.locked`) and the input texts of ``plan`` pinned
    (`unosim.game.inputs.pinned`) while it plays; SIGTERM stops the workers
    (`unosim.runs.execution.stopped_by_sigterm`).
    """
    check_parts_playable(plan.parts)
    plan = _isolating(plan, execution.isolate)
    with ExitStack() as stack:
        if execution.isolate:
            from ..engine import isolation, sandbox

            sandbox.make_undumpable()  # no process of this user opens this one's memory
            isolation.stop_children()  # those that checked the strategies: none lives on while chunks are written
            stack.callback(isolation.stop_children)  # also on an error or Ctrl-C
        stack.enter_context(stopped_by_sigterm())
        stack.enter_context(inputs.pinned(dict(plan.inputs)))
        if out is not None:
            directory.inspect_directory(out, plan.meta, overwrite=execution.overwrite)  # refuse before creating anything
        console = progress.console(execution.quiet)
        workers = stack.enter_context(parallel(execution, console))  # an unreachable scheduler: refused before the lock
        if out is not None:
            stack.enter_context(directory.locked(out))
        return _execute(plan, out, execution, console, workers)


def _isolating(plan: Plan, isolate: bool) -> Plan:
    """``plan`` with its parts set to play user strategies isolated or not, and its metadata saying
    which strategies were (``execution.isolated``) and whether every part was played verified
    (``execution.verified``: the strategies playing in the engine's process had their effects compared
    after every call, as in tournaments; in every run the engine's arrays are read-only while a
    strategy is called). Neither is part of the run's identity."""
    from ..strategy.registry import is_user_code

    specs = {str(s): s for p in plan.parts for s in p.config.strategies}
    isolated = sorted(k for k, s in specs.items() if isolate and is_user_code(s.name))
    meta = dict(plan.meta, execution={"isolated": isolated, "verified": all(p.verify for p in plan.parts)})
    parts = tuple(dataclasses.replace(p, isolate=isolate) for p in plan.parts)
    return dataclasses.replace(plan, meta=meta, parts=parts)


_RECORD_SECONDS = 1.0
"""The chunk digests are written into the metadata at most this often while a run plays, and at its end."""


def _done_digests(out: Path, files: list[Any], done: set[str], rejected: dict[str, str]) -> dict[str, str]:
    """The digests of the chunks already done in ``out`` (``files``: their `ChunkFile`): as recorded;
    a chunk whose file changed since is taken from ``done`` into ``rejected`` (it is played again), one done
    but not recorded (its run stopped before recording it) is recorded now."""
    recorded = read_metadata(out).get(DIGESTS_KEY)
    recorded = recorded if isinstance(recorded, dict) else {}
    digests: dict[str, str] = {}
    for file in files:
        names = [f"{ROUNDS_DIR}/{file.filename}"] if file.has_rounds else []
        found = {name: file_digest(out / name) for name in [*names, file.filename]}
        changed = [name for name, digest in found.items() if recorded.get(name, digest) != digest]
        if changed:
            done.discard(file.filename)
            rejected[changed[0]] = "changed after it was written (its sha256 is not the one recorded)"
        else:
            digests.update(found)
    return digests


def _execute(plan: Plan, out: Path | None, execution: Execution, console: Any, workers: tuple[int, bool]) -> RunResult:
    started = time.perf_counter()
    meta, clear = plan.meta, False
    if out is not None:
        meta, clear = directory.inspect_directory(out, plan.meta, overwrite=execution.overwrite)
    meta = {k: v for k, v in meta.items() if k != DIGESTS_KEY}  # recorded anew below, not in the chunks
    digests: dict[str, str] = {}
    with nullcontext(workers) as (n_jobs, write_in_workers):
        done: set[str] = set()
        rejected: dict[str, str] = {}
        every = [with_file_metadata(p, meta, plan.inputs) for p in plan.parts]
        if out is not None:
            directory.prepare_directory(out, meta, clear=clear)
            done, rejected = resume.check_chunk_files(out, (p.file for p in every))
            digests = _done_digests(out, [p.file for p in every if p.filename in done], done, rejected)
            record_digests(out, meta, digests)
        parts = [p for p in every if p.filename not in done]
        compile_engine([p.config for p in parts], console, execution.isolate)
        if (done or rejected) and console is not None:
            console.print(
                f"resuming {out}: {len(done)} of {len(plan.parts)} chunks already done, "
                f"{len(parts)} to play",
                markup=False,
                highlight=False,
            )
        if rejected and console is not None:
            shown = "; ".join(f"{name} {why}" for name, why in list(rejected.items())[:5])
            more = f"; and {len(rejected) - 5} more" if len(rejected) > 5 else ""
            console.print(
                f"playing again {len(rejected)} chunk file(s) that fail their checks: {shown}{more}",
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
        total = sum(p.n_games for p in plan.parts)
        tables: dict[str, tuple[pa.Table, pa.Table | None]] = {}
        target = None if out is None or not write_in_workers else str(out)
        unit = "matches" if any(p.config.match for p in plan.parts) else "games"
        with progress.progress_bar(console, plan.description, total, total - sum(p.n_games for p in parts), unit) as bar:
            tasks = (joblib.delayed(play_part)(p, target) for p in parts)
            pool = joblib.Parallel(n_jobs=n_jobs, return_as="generator_unordered", batch_size=1)
            by_name = {p.filename: p for p in parts}
            recorded = time.monotonic()
            try:
                for filename, played, written in pool(tasks):
                    part = by_name[filename]
                    if played is not None and out is not None:
                        written = write_part(part, out, *played)
                    elif played is not None:
                        tables[filename] = played
                    digests.update(written)
                    if written and out is not None and time.monotonic() - recorded >= _RECORD_SECONDS:
                        record_digests(out, meta, digests)
                        recorded = time.monotonic()
                    if bar is not None:
                        bar[0].advance(bar[1], part.n_games)
            finally:  # also when stopped: the chunks written so far are recorded
                if out is not None:
                    record_digests(out, meta, digests)
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
