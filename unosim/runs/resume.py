"""Resume checks: which chunk files of a dataset are done, and which present files are not.

Chunks that prove themselves
----------------------------
Chunk files are written with Parquet page checksums and read with verification,
so a damaged data page (even a single flipped bit) is an error, never a wrong
value. A chunk counts as done on resume only when its ``unosim.chunk`` entry is
the one this run would write (same run, seed, cell, chunk and games) and it reads
cleanly; any other is played again, and the run names it. [`load`][unosim.runs.load] refuses a
damaged chunk or one of another run, naming the file and how to repair it (run the
same command again: it resumes and plays that chunk again).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import pyarrow as pa
import pyarrow.parquet as pq

from .files import CHUNK_KEY, ROUNDS_DIR, error_reason, foreign_chunk_problem, read_problem

if TYPE_CHECKING:
    pass

class ChunkFile(NamedTuple):
    """A chunk file a dataset should hold: its name, its first game and number of games, and
    whether it has a rounds file too (match runs)."""

    filename: str
    first_game: int
    n_games: int
    has_rounds: bool
    chunk: dict[str, Any] | None = None
    """The ``unosim.chunk`` entry its file must carry (run, seed, cell, chunk, games); None: only the games are checked."""



def check_chunk_files(out: Path, chunks: Iterable[ChunkFile]) -> tuple[set[str], dict[str, str]]:
    """Which chunks are done and which present files are not, and why.

    A chunk is done when its file (matches: the rounds file too) carries the expected
    ``unosim.chunk`` entry and games, has the expected rows and reads cleanly with its page
    checksums verified.

    Parameters
    ----------
    out : Path
        The dataset directory.
    chunks : iterable of ChunkFile
        The chunks the dataset should hold.

    Returns
    -------
    done : set of str
        File names of the chunks done.
    rejected : dict of str to str
        File (relative to ``out``) to why it is not done, for every chunk file present but not done.
    """
    done: set[str] = set()
    rejected: dict[str, str] = {}
    for chunk in chunks:
        files: list[tuple[str, int | None]] = [(chunk.filename, chunk.n_games)]
        if chunk.has_rounds:
            files.insert(0, (f"{ROUNDS_DIR}/{chunk.filename}", None))
        problems = [(name, _chunk_problem(out / name, chunk, rows)) for name, rows in files]
        bad = [(name, problem) for name, problem in problems if problem is not None]
        if not bad:
            done.add(chunk.filename)
        rejected.update((name, problem) for name, problem in bad if problem != "missing")
    return done, rejected



def _chunk_problem(path: Path, chunk: ChunkFile, rows: int | None) -> str | None:
    """Why ``path`` is not a complete, clean file of ``chunk`` (with ``rows`` rows, if given): ``"missing"``,
    or a reason; None when it is."""
    if not path.is_file():
        return "missing"
    try:
        info = pq.read_metadata(path)
        written = json.loads((info.metadata or {})[CHUNK_KEY])
    except KeyError:
        return "carries no unosim chunk metadata"
    except (OSError, ValueError, pa.ArrowException, RecursionError) as exc:
        return f"damaged: {error_reason(exc)}"
    if not isinstance(written, dict):
        return "carries no unosim chunk metadata"
    expected = chunk.chunk or {"first_game": chunk.first_game}
    problem = foreign_chunk_problem(written, {**expected, "first_game": chunk.first_game})
    if problem is not None:
        return problem
    if rows is not None and info.num_rows != rows:
        return f"holds {info.num_rows} rows, not {rows}"
    problem = read_problem(path)
    return None if problem is None else f"damaged: {problem}"


__all__ = [
    "check_chunk_files",
    "ChunkFile",
]
