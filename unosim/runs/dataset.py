"""Parquet datasets on disk: layout, metadata, atomic chunk files, the output directory's
lifecycle (new, resumed, refused or overwritten), loading.

Layout
------
A dataset is one directory::

    runs/a/
        _unosim.json                      dataset metadata (JSON, see below)
        part-00000.parquet                chunk 0 of a run: games [0, chunk_size)
        part-00001.parquet                ...
    runs/pc/                              an experiment dataset
        _unosim.json
        cell-000-part-00000.parquet       chunk 0 of cell 0
        cell-000-part-00001.parquet
        cell-001-part-00000.parquet       ...

A match run (``--match``) has two tables: the main files hold one row per
match, and the subdirectory ``rounds/`` holds the same chunk names with one row
per round of those matches (schemas: :mod:`unosim.engine.records`)::

    runs/m/
        _unosim.json
        part-00000.parquet                matches [0, chunk_size)
        rounds/part-00000.parquet         their rounds, in (game, round) order

The rounds file of a chunk is written before its main file, and a chunk counts
as done only when both exist. ``load(path)`` returns the matches,
``load(path, table="rounds")`` the rounds.

Chunk ``i`` holds the games ``[i * chunk_size, (i + 1) * chunk_size)`` of its
run (or cell), one row per game, in game order; file names are zero-padded so
their lexical order is the row order. Files are written under a temporary
name starting with ``.`` and renamed into place once complete (``os.replace``
is atomic), so a file with a final name is always whole. Readers that
discover files by themselves (``pyarrow.dataset``, ``polars.scan_parquet("runs/a/*.parquet")``,
``duckdb``'s ``'runs/a/*.parquet'``) skip the temporary files and the
metadata file: names starting with ``.`` or ``_`` are ignored by pyarrow and
do not match ``*.parquet``.

Metadata
--------
``_unosim.json`` (and the key ``unosim`` of every parquet file's key-value
metadata) holds::

    format, format_version    "unosim-dataset", 1
    kind                      "run" or "experiment"
    unosim_version            version of the package that wrote it
    created                   ISO time the dataset was started
    config                    run: RunConfig.to_dict() — rules, players,
                              strategies with parameters, seed, games, ...
    deck                      run: the deck played (name, per-type counts, copies)
    extra_columns             run: constant columns added to every row
    experiment                experiment: name, description, seed, the file's settings
    cells                     experiment: one entry per cell (cell, rules,
                              players, seating, lineup, seed, config, deck)
    chunking                  chunk_size, chunks (per run or per cell),
                              file_pattern, and how games are seeded

    inputs                    every input file read when the run started: path to
                              {"kind", "sha256"} (rule files, deck files, the
                              experiment file; a strategy module also its name)

In a parquet file of an experiment, ``cells`` holds only that file's cell. The
key ``unosim.chunk`` of each file holds ``{"run", "seed", "cell", "chunk",
"first_game", "n_games"}``; ``run`` is :func:`run_hash` of the dataset metadata.

Chunks that prove themselves
----------------------------
Chunk files are written with Parquet page checksums and read with verification,
so a damaged data page (even a single flipped bit) is an error, never a wrong
value. A chunk counts as done on resume only when its ``unosim.chunk`` entry is
the one this run would write (same run, seed, cell, chunk and games) and it reads
cleanly; any other is played again, and the run names it. :func:`load` refuses a
damaged chunk or one of another run, naming the file and how to repair it (run the
same command again: it resumes and plays that chunk again).

Lock
----
A run holds a lock on its output directory (the file ``.unosim.lock`` in it,
:func:`locked`) while it plays; a second run started into the same directory is
refused at once.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import filelock
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

if TYPE_CHECKING:
    import pandas as pd

METADATA_FILE = "_unosim.json"
"""Name of the dataset metadata file inside a dataset directory."""
FORMAT = "unosim-dataset"
FORMAT_VERSION = 1
METADATA_KEY = b"unosim"
"""Parquet key-value metadata key holding the dataset metadata JSON."""
CHUNK_KEY = b"unosim.chunk"
"""Parquet key-value metadata key holding the chunk's position in the dataset."""
LOCK_FILE = ".unosim.lock"
"""Lock file a run holds in its output directory while it plays."""
ROUNDS_DIR = "rounds"
"""Subdirectory holding the per-round table of a match dataset."""
TABLES = ("main", "rounds")
"""Tables of a dataset: ``main`` (games, or matches) and ``rounds`` (match datasets only)."""
IDENTITY_KEYS = (
    "format",
    "format_version",
    "kind",
    "unosim_version",
    "config",
    "deck",
    "strategy_params",
    "extra_columns",
    "cells",
    "chunking",
    "inputs",
)
"""Metadata keys that must agree for a run to resume into an existing dataset (``strategy_params``: every
strategy's full description, e.g. a rule strategy's file text, so an edited rule file is a change of settings;
``inputs``: the hash of every input file)."""
REPAIR = (
    "To repair the dataset, run the command that wrote it again with the same output directory: it resumes, "
    "checks every chunk and plays this one again."
)

MAX_CHUNKS = 100_000
"""The most chunk files of one dataset (all cells together)."""
_CHUNK_FILE = re.compile(r"^(cell-\d+-)?part-\d+\.parquet$")
_TEMP_FILE = re.compile(r"^\..*\.tmp-[0-9a-f-]+$")
_COMPRESSION = "zstd"


# ---------------------------------------------------------------- layout
def file_pattern(chunks: int, cells: int | None = None) -> str:
    """``str.format`` pattern of chunk file names, zero-padded to sort in row order."""
    chunk_width = max(5, len(str(chunks - 1)))
    part = f"part-{{chunk:0{chunk_width}d}}.parquet"
    if cells is None:
        return part
    cell_width = max(3, len(str(cells - 1)))
    return f"cell-{{cell:0{cell_width}d}}-" + part


def expected_files(meta: dict[str, Any]) -> list[str]:
    """Names of every chunk file of a complete dataset, in row order."""
    pattern = meta["chunking"]["file_pattern"]
    chunks = meta["chunking"]["chunks"]
    if meta["kind"] == "experiment":
        return [pattern.format(cell=c, chunk=i) for c in range(len(meta["cells"])) for i in range(chunks)]
    return [pattern.format(chunk=i) for i in range(chunks)]


def has_rounds(meta: dict[str, Any]) -> bool:
    """Whether the dataset is made of matches, which also have a ``rounds`` table."""
    configs = [meta.get("config") or {}] + [cell.get("config") or {} for cell in meta.get("cells") or []]
    return any(c.get("match") for c in configs)


def is_chunk_file(name: str) -> bool:
    """Whether ``name`` has the form of a chunk file (``part-*``, ``cell-*-part-*``)."""
    return bool(_CHUNK_FILE.match(name))


def is_temp_file(name: str) -> bool:
    """Whether ``name`` is a temporary file of an unfinished write."""
    return bool(_TEMP_FILE.match(name))


def identity(meta: dict[str, Any]) -> dict[str, Any]:
    """The part of the metadata that decides the rows (for resume checks)."""
    found = {k: meta.get(k) for k in IDENTITY_KEYS}
    found["inputs"] = found["inputs"] or {}  # metadata without recorded inputs: none
    return found


def run_hash(meta: dict[str, Any]) -> str:
    """sha256 (hex) of the run's identity (:func:`identity` of its dataset metadata): the ``run`` every
    chunk file of the dataset carries."""
    return hashlib.sha256(json.dumps(identity(meta), sort_keys=True).encode()).hexdigest()


# ---------------------------------------------------------------- writing
def to_json(meta: dict[str, Any]) -> str:
    """Metadata as stable, indented JSON text."""
    return json.dumps(meta, indent=1, sort_keys=True)


def write_metadata(directory: Path, meta: dict[str, Any]) -> None:
    """Write ``_unosim.json`` atomically."""
    _write_atomic(Path(directory) / METADATA_FILE, lambda fh: fh.write(to_json(meta).encode()))


def write_chunk(table: pa.Table, path: Path, file_metadata: dict[bytes, bytes]) -> None:
    """Write one chunk file atomically, with ``file_metadata`` in its key-value metadata."""
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), **file_metadata})
    _write_atomic(Path(path), lambda fh: pq.write_table(table, fh, compression=_COMPRESSION, write_page_checksum=True))


def _write_atomic(path: Path, write: Any) -> None:
    """Write through ``write(file)`` to a temporary name, fsync, then rename to ``path``."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid():x}-{secrets.token_hex(4)}")
    try:
        with open(tmp, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


# ---------------------------------------------------------------- reading
def read_metadata(path: str | Path) -> dict[str, Any]:
    """Metadata of a dataset directory (``_unosim.json``) or of one chunk file.

    Raises
    ------
    ValueError
        If ``path`` is not a unosim dataset or chunk file.
    """
    path = Path(path)
    if path.is_dir():
        meta_file = path / METADATA_FILE
        if not meta_file.is_file():
            raise ValueError(
                f"{path} is not a unosim dataset: it has no {METADATA_FILE}. Give the directory "
                "written by `unosim simulate --out` or `unosim run`."
            )
        try:
            meta = json.loads(meta_file.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
            raise ValueError(f"{meta_file} is not valid JSON ({exc}); the dataset metadata is damaged.") from None
        return check_shape(meta, meta_file)
    if path.is_file():
        kv = pq.read_schema(path).metadata or {}
        if METADATA_KEY not in kv:
            raise ValueError(f"{path} is a parquet file without unosim metadata.")
        try:
            meta = json.loads(kv[METADATA_KEY])
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
            raise ValueError(f"the unosim metadata of {path} is not valid JSON ({exc}); the file is damaged.") from None
        return check_shape(meta, path)
    raise ValueError(f"{path} does not exist; give a dataset directory or one of its parquet files.")


_MAX_VALUE = {"chunk_size": 10_000_000_000, "chunks": MAX_CHUNKS}
_PATTERN = re.compile(r"^(cell-\{cell:0\d+d\}-)?part-\{chunk:0\d+d\}\.parquet$")


def _shape_problem(meta: Any) -> str | None:
    """What keeps ``meta`` from having the shape :func:`read_metadata`'s callers rely on, or None."""
    if not isinstance(meta, dict):
        return f"a JSON {type(meta).__name__} instead of an object"
    if meta.get("format") != FORMAT:
        return f"format = {_short(meta.get('format'))}, not {FORMAT!r}"
    kind = meta.get("kind")
    if kind not in ("run", "experiment"):
        return f"kind = {_short(kind)}, not 'run' or 'experiment'"
    chunking = meta.get("chunking")
    if not isinstance(chunking, dict):
        return "chunking is not an object"
    for key in ("chunk_size", "chunks"):
        value = chunking.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= _MAX_VALUE[key]:
            return f"chunking.{key} = {_short(value)} is not a whole number in range"
    pattern = chunking.get("file_pattern")
    if not isinstance(pattern, str) or not _PATTERN.match(pattern) or ("{cell" in pattern) != (kind == "experiment"):
        return f"chunking.file_pattern = {_short(pattern)} is not a chunk file name pattern"
    if kind == "run" and not isinstance(meta.get("config"), dict):
        return "config (the run's settings) is not an object"
    if kind == "experiment":
        cells = meta.get("cells")
        if not isinstance(cells, list) or not cells or not all(
                isinstance(c, dict) and isinstance(c.get("config", {}), dict) for c in cells):
            return "cells is not a list of objects"
        if len(cells) * chunking["chunks"] > MAX_CHUNKS:
            return f"{len(cells)} cells of {chunking['chunks']} chunks each is more than {MAX_CHUNKS:,} chunk files"
    return None


def check_shape(meta: Any, source: str | Path) -> dict[str, Any]:
    """``meta`` if it is dataset metadata of the expected shape (an object of this format, its kind,
    chunking and settings), for a valid JSON file of another shape fails clearly.

    Parameters
    ----------
    meta : Any
        The parsed JSON.
    source : str or Path
        The file it was read from, named in the error.

    Returns
    -------
    dict

    Raises
    ------
    ValueError
        Naming the file and what is wrong with it.
    """
    problem = _shape_problem(meta)
    if problem is not None:
        raise ValueError(
            f"{source} is not unosim dataset metadata of the expected shape ({problem}); the dataset metadata is "
            "damaged or was not written by unosim: write the dataset again (the same command with --overwrite)."
        )
    return meta


def missing_files(path: str | Path, meta: dict[str, Any] | None = None, *, table: str = "main") -> list[str]:
    """Chunk files (of ``table``) a complete dataset at ``path`` would have but this one lacks."""
    path = Path(path)
    meta = meta if meta is not None else read_metadata(path)
    where = path / ROUNDS_DIR if table == "rounds" else path
    return [name for name in expected_files(meta) if not (where / name).is_file()]


def read_table(
    path: str | Path, *, columns: list[str] | None = None, allow_incomplete: bool = False, table: str = "main",
    dictionary_strings: bool = False,
) -> pa.Table:
    """All rows of a dataset (or one chunk file) as a ``pyarrow.Table``, in row order.

    See :func:`load` for the parameters. ``dictionary_strings``: read the lists of strings
    (``strategies``) dictionary-encoded (:func:`dictionary_columns`), as :func:`load` does;
    by default every column has the type it is stored with.
    """
    path = Path(path)
    if table not in TABLES:
        raise ValueError(f"table = {table!r}; choose one of: {', '.join(TABLES)}.")
    if path.is_file():
        if table == "rounds":
            path = path.parent / ROUNDS_DIR / path.name
        try:
            dictionaries = dictionary_columns(pq.read_schema(path), columns) if dictionary_strings else None
            return pq.read_table(path, columns=columns, read_dictionary=dictionaries, page_checksum_verification=True)
        except (OSError, pa.ArrowException) as exc:
            raise ValueError(f"chunk file {path} is damaged ({_reason(exc)}). {REPAIR}") from None
    meta = read_metadata(path)
    if table == "rounds":
        if not has_rounds(meta):
            raise ValueError(f"dataset {path} holds single rounds, not matches: it has no rounds table; use table='main'.")
        return _read_chunks(path / ROUNDS_DIR, meta, missing_files(path, meta, table="rounds"), columns, allow_incomplete,
                            dictionary_strings)
    return _read_chunks(path, meta, missing_files(path, meta), columns, allow_incomplete, dictionary_strings)


def _read_chunks(
    path: Path, meta: dict[str, Any], missing: list[str], columns: list[str] | None, allow_incomplete: bool,
    dictionary_strings: bool = False,
) -> pa.Table:
    """The chunk files in directory ``path`` as one table, refusing missing ones unless allowed."""
    names = expected_files(meta)
    if missing and not allow_incomplete:
        raise ValueError(
            f"dataset {path} is incomplete: {len(missing)} of {len(names)} chunk files are missing "
            f"(first: {missing[0]}). Run the same command again to finish it (it resumes), or pass "
            "allow_incomplete=True to read the chunks that exist."
        )
    present = [path / name for name in names if name not in set(missing)]
    if not present:
        return pa.table({})
    _check_belongs(path, meta, present)
    # One pyarrow dataset over the files (in row order) reads them in parallel, where one
    # read_table per file reads them one after the other. The schema is the first file's; a
    # column missing from a later file reads as nulls.
    import pyarrow.dataset as ds

    # Lists of strings (``strategies``: the same few names in every row) are read as dictionary
    # arrays: each name is decoded once, not once per row, which saves CPU time and memory on a
    # large run. An element is still a list of names.
    dictionaries = dictionary_columns(pq.read_schema(present[0]), columns) if dictionary_strings else []
    fmt = ds.ParquetFileFormat(
        read_options=ds.ParquetReadOptions(dictionary_columns=dictionaries),
        default_fragment_scan_options=ds.ParquetFragmentScanOptions(page_checksum_verification=True),
    )
    # The system allocator: pyarrow's default (mimalloc) spends more system CPU time and peak
    # memory on a whole load of a large run.
    try:
        table = ds.dataset([str(p) for p in present], format=fmt).to_table(
            columns=columns, memory_pool=pa.system_memory_pool()
        )
    except (OSError, pa.ArrowException) as exc:
        for file in present:  # which file: read them one by one
            problem = _read_problem(file)
            if problem is not None:
                raise ValueError(f"chunk file {file} is damaged ({problem}). {REPAIR}") from None
        raise ValueError(f"dataset {path} cannot be read ({_reason(exc)}). {REPAIR}") from None
    return table.replace_schema_metadata({METADATA_KEY: to_json(meta).encode()})


def _check_belongs(path: Path, meta: dict[str, Any], files: list[Path]) -> None:
    """Refuse a chunk file whose ``unosim.chunk`` entry is not this dataset's (copied from another run, or
    from another place in this one), or whose footer cannot be read."""
    run = run_hash(meta)
    expected = {name: position for name, position in zip(expected_files(meta), _positions(meta), strict=True)}
    for file in files:
        try:
            chunk = json.loads((pq.read_metadata(file).metadata or {})[CHUNK_KEY])
        except (OSError, pa.ArrowException, ValueError) as exc:
            raise ValueError(f"chunk file {file} is damaged ({_reason(exc)}). {REPAIR}") from None
        except KeyError:
            raise ValueError(f"chunk file {file} carries no unosim chunk metadata: it is not part of {path}. "
                             f"{REPAIR}") from None
        if not isinstance(chunk, dict) or "run" not in chunk:
            continue  # a chunk entry without its run: nothing to compare
        problem = _foreign(chunk, {"run": run, **expected[file.name]})
        if problem is not None:
            raise ValueError(f"chunk file {file} {problem}: it is not part of {path}. {REPAIR}")


def _positions(meta: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``cell``, ``chunk`` and ``seed`` of every chunk of the dataset, in the order of :func:`expected_files`."""
    chunks = meta["chunking"]["chunks"]
    if meta["kind"] == "experiment":
        return [{"cell": c, "chunk": i, "seed": (cell.get("config") or {}).get("seed")}
                for c, cell in enumerate(meta["cells"]) for i in range(chunks)]
    return [{"cell": None, "chunk": i, "seed": (meta.get("config") or {}).get("seed")} for i in range(chunks)]


def _foreign(chunk: dict[str, Any], expected: dict[str, Any]) -> str | None:
    """Why a chunk file's ``unosim.chunk`` entry is not the ``expected`` one (only the keys given), or None."""
    if chunk.get("seed") != expected.get("seed", chunk.get("seed")):
        return f"was played with seed {chunk.get('seed')}, not {expected['seed']}: it belongs to another run"
    if chunk.get("run") != expected.get("run", chunk.get("run")):
        return "was played with other settings: it belongs to another run"
    for key in ("cell", "chunk", "first_game", "n_games"):
        if key in expected and chunk.get(key) != expected[key]:
            return f"holds {key} {chunk.get(key)}, not {expected[key]}"
    return None


def _read_problem(path: Path) -> str | None:
    """Why ``path`` does not read cleanly (page checksums verified), or None."""
    try:
        pq.read_table(path, page_checksum_verification=True)
    except (OSError, pa.ArrowException) as exc:
        return _reason(exc)
    return None


def _reason(exc: BaseException) -> str:
    """The first line of an error's message (pyarrow's run long)."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def dictionary_columns(schema: pa.Schema, columns: list[str] | None = None) -> list[str]:
    """Parquet paths of the list-of-string columns of ``schema`` (among ``columns``), which
    :func:`read_table` reads dictionary-encoded."""
    return [f"{field.name}.list.element" for field in schema
            if (columns is None or field.name in columns) and pa.types.is_list(field.type)
            and pa.types.is_string(field.type.value_type)]


def load(
    path: str | Path, *, columns: list[str] | None = None, allow_incomplete: bool = False, table: str = "main"
) -> pd.DataFrame:
    """Load a dataset written by ``unosim simulate --out`` or ``unosim run``.

    Parameters
    ----------
    path : str or Path
        The dataset directory (or a single chunk file).
    columns : list of str, optional
        Read only these columns.
    allow_incomplete : bool
        Read the chunks present in a dataset that was interrupted; by default
        an incomplete dataset is refused.
    table : {"main", "rounds"}
        ``main``: one row per game, or per match in a match dataset.
        ``rounds``: one row per round of a match dataset.

    Returns
    -------
    pandas.DataFrame
        The rows sorted by ``game`` (experiments: by ``cell``, then ``game``;
        rounds: then by ``round``), with a fresh ``RangeIndex``. List columns
        are Arrow-backed (``pd.ArrowDtype``, see :func:`to_frame`). The dataset
        metadata is read with :func:`read_metadata`. For large datasets pass
        ``columns``: a 10-million-game run loads in about a second without the
        list columns.

    Raises
    ------
    ValueError
        For an unknown ``table``, ``table="rounds"`` on a dataset of single
        rounds, or an incomplete dataset (unless ``allow_incomplete``).
    """
    path = Path(path)
    data = read_table(path, columns=columns, allow_incomplete=allow_incomplete, table=table, dictionary_strings=True)
    frame = to_frame(data, consume=True)
    del data
    keys = [k for k in ("cell", "game", "round") if k in frame.columns]
    if keys and not _is_sorted(frame, keys):
        frame = frame.sort_values(keys, kind="stable")
    return frame.reset_index(drop=True)


def to_frame(table: pa.Table, *, consume: bool = False) -> pd.DataFrame:
    """A table as a DataFrame whose list columns stay Arrow-backed (``pd.ArrowDtype``).

    Scalar columns become numpy columns as usual; list columns (``strategies``,
    ``hand_points``, ``opening_hand``, ``scores``) keep their Arrow buffers instead of
    becoming one Python object per row, which is what makes a 10-million-game
    dataset load in seconds. An element is a Python list
    (``df["opening_hand"].iloc[0]``); ``pyarrow.array(df["opening_hand"])`` gives
    the Arrow column for vectorised work (``pyarrow.compute.list_flatten``).
    ``consume=True`` frees the table's buffers as they are converted (lower peak
    memory; the table must not be used afterwards).
    """
    import pandas as pd

    def mapper(type_: pa.DataType) -> pd.ArrowDtype | None:
        nested = pa.types.is_list(type_) or pa.types.is_large_list(type_) or pa.types.is_fixed_size_list(type_)
        return pd.ArrowDtype(type_) if nested else None

    table = table.replace_schema_metadata(None)
    for name in [f.name for f in table.schema if f"{f.name}.list.element" in dictionary_columns(table.schema)]:
        # lists of strings as :func:`load` reads them (an in-memory run's frame equals the loaded one)
        column = table.column(name).combine_chunks()
        values = pc.dictionary_encode(column.values)
        kind = pa.list_(column.type.value_field.with_type(values.type))
        encoded = pa.ListArray.from_arrays(column.offsets, values, type=kind, mask=column.is_null())
        table = table.set_column(table.schema.get_field_index(name), name, encoded)
    pool = pa.system_memory_pool()  # see _read_chunks
    if consume:
        return table.to_pandas(types_mapper=mapper, split_blocks=True, self_destruct=True, memory_pool=pool)
    return table.to_pandas(types_mapper=mapper, memory_pool=pool)


def _is_sorted(frame: pd.DataFrame, keys: list[str]) -> bool:
    """Whether ``frame`` is already in lexicographic order of ``keys``."""
    if len(keys) == 1:
        return bool(frame[keys[0]].is_monotonic_increasing)
    return bool(frame.set_index(keys).index.is_monotonic_increasing)


# ------------------------------------------------------------------ the output directory's lifecycle
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
    names = sorted(p.name for p in out.iterdir() if p.name != LOCK_FILE)
    if METADATA_FILE not in names:
        foreign = [n for n in names if not (is_chunk_file(n) or is_temp_file(n) or n == ROUNDS_DIR)]
        if foreign:
            raise ValueError(
                f"output directory {out} is not empty and holds no unosim dataset (e.g. {foreign[0]!r}); "
                "give a new or empty directory."
            )
        if any(is_chunk_file(n) for n in names) and not overwrite:
            raise ValueError(
                f"output directory {out} holds chunk files but no {METADATA_FILE}, so it cannot be "
                "resumed; give a new directory or use --overwrite to replace them."
            )
        return meta, bool(names)
    try:
        old = read_metadata(out)
    except ValueError as exc:
        if overwrite:
            return meta, True
        raise ValueError(f"{exc} Use --overwrite to replace it, or give a new directory.") from None
    differences = _differences(identity(old), identity(meta))
    changed = _changed_inputs(old, meta)
    if changed and not overwrite:
        others = [d for d in differences if not d.startswith("inputs")]
        shown = " (" + "; ".join(others[:3]) + ("; ..." if len(others) > 3 else "") + ")" if others else ""
        raise ValueError(
            f"output directory {out} holds a dataset made with other settings{shown}: {changed}. Restore that file to "
            "resume the run, or give a new --out directory or add --overwrite to start again with the file as it is now."
        )
    if not differences:
        return old, False
    if overwrite:
        return meta, True
    shown = "; ".join(differences[:4]) + ("; ..." if len(differences) > 4 else "")
    raise ValueError(
        f"output directory {out} holds a dataset made with other settings ({shown}). Run the same "
        "settings again to resume it, give a new --out directory, or add --overwrite to replace it."
    )


def _changed_inputs(old: dict[str, Any], new: dict[str, Any]) -> str | None:
    """The first input file whose hash differs between two metadata (``"rule file PATH (sha256 ...)"``), or None."""
    before, now = old.get("inputs") or {}, new.get("inputs") or {}
    if not isinstance(before, dict):
        return None
    for name, entry in now.items():
        was = before.get(name)
        if isinstance(was, dict) and was.get("sha256") != entry.get("sha256"):
            what = entry.get("kind", "input file")
            if entry.get("module"):
                what = f"{what} {entry['module']} ({name})"
            else:
                what = f"{what} {name}"
            return (f"the {what} changed since the dataset was started (sha256 {str(was.get('sha256'))[:12]}... "
                    f"then, {str(entry.get('sha256'))[:12]}... now)")
    return None


@contextmanager
def locked(out: Path) -> Iterator[None]:
    """Hold the lock of the output directory ``out`` (creating it) while the block runs.

    Raises
    ------
    ValueError
        At once, when another run holds it, or when ``out`` is a file.
    """
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"output {out} is a file; give a directory (new or holding this run's dataset).")
    out.mkdir(parents=True, exist_ok=True)
    lock = filelock.FileLock(str(out / LOCK_FILE))
    try:
        lock.acquire(timeout=0)
    except filelock.Timeout:
        raise ValueError(
            f"output directory {out} is in use by another unosim run (it holds {out / LOCK_FILE}); wait for that "
            "run to finish, or give another --out directory."
        ) from None
    try:
        yield
    finally:
        lock.release()


def prepare_directory(out: Path, meta: dict[str, Any], *, clear: bool) -> None:
    """Create ``out``, remove old dataset files if ``clear``, delete temporary files, write metadata."""
    out.mkdir(parents=True, exist_ok=True)
    rounds = out / ROUNDS_DIR
    for path in [*out.iterdir(), *(rounds.iterdir() if rounds.is_dir() else ())]:
        name = path.name
        if path.is_dir():
            continue
        if is_temp_file(name) or (clear and (is_chunk_file(name) or name == METADATA_FILE)):
            path.unlink(missing_ok=True)
    if not (out / METADATA_FILE).is_file():
        write_metadata(out, meta)


class ChunkFile(NamedTuple):
    """A chunk file a dataset should hold: its name, its first game and number of games, and
    whether it has a rounds file too (match runs)."""

    filename: str
    first_game: int
    n_games: int
    has_rounds: bool
    chunk: dict[str, Any] | None = None
    """The ``unosim.chunk`` entry its file must carry (run, seed, cell, chunk, games); None: only the games are checked."""


def check_chunks(out: Path, chunks: Iterable[ChunkFile]) -> tuple[set[str], dict[str, str]]:
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
        return f"damaged: {_reason(exc)}"
    if not isinstance(written, dict):
        return "carries no unosim chunk metadata"
    expected = chunk.chunk or {"first_game": chunk.first_game}
    problem = _foreign(written, {**expected, "first_game": chunk.first_game})
    if problem is not None:
        return problem
    if rows is not None and info.num_rows != rows:
        return f"holds {info.num_rows} rows, not {rows}"
    problem = _read_problem(path)
    return None if problem is None else f"damaged: {problem}"


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


__all__ = [
    "CHUNK_KEY",
    "MAX_CHUNKS",
    "check_shape",
    "ChunkFile",
    "LOCK_FILE",
    "REPAIR",
    "FORMAT",
    "FORMAT_VERSION",
    "METADATA_FILE",
    "METADATA_KEY",
    "ROUNDS_DIR",
    "TABLES",
    "check_chunks",
    "expected_files",
    "file_pattern",
    "dictionary_columns",
    "has_rounds",
    "identity",
    "inspect_directory",
    "load",
    "locked",
    "missing_files",
    "prepare_directory",
    "read_metadata",
    "read_table",
    "run_hash",
    "to_frame",
    "write_chunk",
    "write_metadata",
]
