"""Reading a dataset: [`load`][unosim.runs.load] and [`read_table`][unosim.runs.read_table], refusing a damaged chunk or one of
another run (the format: `unosim.runs.files`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..engine.records import opening_hand_lists
from ..game.errors import UnosimInputError
from .files import (
    CHUNK_KEY,
    DIGESTS_KEY,
    METADATA_FILE,
    METADATA_KEY,
    REPAIR,
    ROUNDS_DIR,
    STORED_HANDS,
    TABLES,
    dictionary_columns,
    digest_problem,
    error_reason,
    expected_files,
    foreign_chunk_problem,
    has_rounds,
    missing_files,
    read_metadata,
    read_problem,
    run_hash,
    to_json,
)

if TYPE_CHECKING:
    import pandas as pd

class _Read(NamedTuple):
    """What `_read` read: ``table`` holds the columns read, in ``order`` but for the ``zeros`` (name ->
    type), the columns every chunk's statistics show to hold only zeros, not read; ``rows`` are the
    chunks' row counts."""

    table: pa.Table
    zeros: dict[str, pa.DataType]
    rows: list[int]
    order: list[str]


def read_table(
    path: str | Path, *, columns: list[str] | None = None, allow_incomplete: bool = False, table: str = "main",
    dictionary_strings: bool = False,
) -> pa.Table:
    """All rows of a dataset (or one chunk file) as a ``pyarrow.Table``, in row order.

    See [`load`][unosim.runs.load] for the parameters. ``dictionary_strings``: read the lists of strings
    (``strategies``) dictionary-encoded (`dictionary_columns`), as [`load`][unosim.runs.load] does;
    by default every column has the type it is stored with.
    """
    read = _read(path, columns, allow_incomplete, table, dictionary_strings)
    if not read.zeros:
        return read.table
    data = read.table
    made = {name: _zeros(read.zeros[name], read.rows) if name in read.zeros else data.column(name) for name in read.order}
    return pa.table(made).replace_schema_metadata(data.schema.metadata)


def _read(path: str | Path, columns: list[str] | None, allow_incomplete: bool, table: str, dictionary_strings: bool) -> _Read:
    """`read_table`, but for the all-zero columns of a dataset, left out of the table (`_Read`)."""
    path = Path(path)
    if table not in TABLES:
        raise UnosimInputError(f"table = {table!r}; choose one of: {', '.join(TABLES)}.")
    if path.is_file():
        if table == "rounds":
            path = path.parent / ROUNDS_DIR / path.name
        try:
            schema = pq.read_schema(path)
            _check_columns(columns, schema, path)
            dictionaries = dictionary_columns(schema, columns) if dictionary_strings else None
            stored = pq.read_table(path, columns=_stored(columns), read_dictionary=dictionaries, page_checksum_verification=True)
            single = restore_hands(stored, columns)
        except (OSError, pa.ArrowException) as exc:
            raise UnosimInputError(f"chunk file {path} is damaged ({error_reason(exc)}). {REPAIR}") from None
        _check_in_its_dataset(path)
        return _Read(single, {}, [single.num_rows], single.column_names)
    meta = read_metadata(path)
    if table == "rounds":
        if not has_rounds(meta):
            raise UnosimInputError(f"dataset {path} holds single rounds, not matches: it has no rounds table; use table='main'.")
        return _read_chunks(path / ROUNDS_DIR, meta, missing_files(path, meta, table="rounds"), columns, allow_incomplete,
                            dictionary_strings, prefix=f"{ROUNDS_DIR}/")
    return _read_chunks(path, meta, missing_files(path, meta), columns, allow_incomplete, dictionary_strings)



def _read_chunks(
    path: Path, meta: dict[str, Any], missing: list[str], columns: list[str] | None, allow_incomplete: bool,
    dictionary_strings: bool = False, prefix: str = "",
) -> _Read:
    """The chunk files in directory ``path`` as one table, refusing missing ones unless allowed; the
    all-zero columns left out (`_Read`)."""
    names = expected_files(meta)
    if missing and not allow_incomplete:
        raise UnosimInputError(
            f"dataset {path} is incomplete: {len(missing)} of {len(names)} chunk files are missing "
            f"(first: {missing[0]}). Run the same command again to finish it (it resumes), or pass "
            "allow_incomplete=True to read the chunks that exist."
        )
    present = [path / name for name in names if name not in set(missing)]
    if not present:
        return _Read(pa.table({}), {}, [], [])
    footers = _check_belongs(path, meta, present)
    # One pyarrow dataset over the files (in row order) reads them in parallel, where one
    # read_table per file reads them one after the other. The schema is the first file's; a
    # column missing from a later file reads as nulls.
    import pyarrow.dataset as ds

    # Lists of strings (``strategies``: the same few names in every row) are read as dictionary
    # arrays: each name is decoded once, not once per row, which saves CPU time and memory on a
    # large run. An element is still a list of names.
    schema = footers[0].schema.to_arrow_schema()
    _check_columns(columns, schema, path)
    dictionaries = dictionary_columns(schema, columns) if dictionary_strings else []
    fmt = ds.ParquetFileFormat(
        read_options=ds.ParquetReadOptions(dictionary_columns=dictionaries),
        default_fragment_scan_options=ds.ParquetFragmentScanOptions(page_checksum_verification=True),
    )
    wanted = schema.names if columns is None else _stored(columns) or []
    zeros = _zero_columns(footers, schema, wanted)
    # The system allocator: pyarrow's default (mimalloc) spends more system CPU time and peak
    # memory on a whole load of a large run.
    try:
        table = ds.dataset([str(p) for p in present], format=fmt).to_table(
            columns=[name for name in wanted if name not in zeros], memory_pool=pa.system_memory_pool()
        )
    except (OSError, pa.ArrowException) as exc:
        for file in present:  # which file: read them one by one
            problem = read_problem(file)
            if problem is not None:
                raise UnosimInputError(f"chunk file {file} is damaged ({problem}). {REPAIR}") from None
        raise UnosimInputError(f"dataset {path} cannot be read ({error_reason(exc)}). {REPAIR}") from None
    _check_digests(meta, present, prefix)  # after the read, which names a damaged page as such
    order = list(columns) if columns is not None else wanted
    table = restore_hands(table, None if columns is None else [name for name in columns if name not in zeros])
    return _Read(_with_metadata(table, {METADATA_KEY: to_json(meta).encode()}),
                 {name: schema.field(name).type for name in order if name in zeros}, [footer.num_rows for footer in footers], order)


def _with_metadata(table: pa.Table, metadata: dict[bytes, bytes] | None) -> pa.Table:
    """``table`` with the schema metadata ``metadata``; a table without columns keeps its number of
    rows (``replace_schema_metadata`` alone makes it a table of none)."""
    if table.num_columns:
        return table.replace_schema_metadata(metadata)
    return pa.table({"rows": pa.nulls(table.num_rows)}).replace_schema_metadata(metadata).select([])


def _check_columns(columns: list[str] | None, schema: pa.Schema, path: Path) -> None:
    """Refuse asked ``columns`` that the data at ``path`` does not have, naming those it has."""
    unknown = [name for name in columns or [] if name not in schema.names]
    if unknown:
        raise UnosimInputError(f"columns: {', '.join(map(repr, unknown))} not in {path}; its columns are: "
                               f"{', '.join(schema.names)}.")


def _stored(columns: list[str] | None) -> list[str] | None:
    """The columns to read from the files for ``columns``: with ``players`` when the stored opening
    hands need it (`restore_hands`)."""
    if columns is not None and STORED_HANDS in columns and "players" not in columns:
        return [*columns, "players"]
    return columns


def restore_hands(table: pa.Table, columns: list[str] | None = None) -> pa.Table:
    """``table``, read from chunk files, with ``opening_hand`` as it loads (``list<list<int8>>``;
    `STORED_HANDS`) and only the ``columns`` asked for (all: None)."""
    if STORED_HANDS in table.column_names and pa.types.is_binary(table.schema.field(STORED_HANDS).type):
        at = table.schema.get_field_index(STORED_HANDS)
        players = table.column("players").combine_chunks().to_numpy(zero_copy_only=False)
        table = table.set_column(at, STORED_HANDS, opening_hand_lists(table.column(at), players))
    if columns is not None and table.column_names != list(columns):
        table = table.select(list(columns))
    return table



def _check_belongs(path: Path, meta: dict[str, Any], files: list[Path]) -> list[pq.FileMetaData]:
    """Refuse a chunk file whose ``unosim.chunk`` entry is not this dataset's (copied from another run, or
    from another place in this one), or whose footer cannot be read; the files' footers."""
    run = run_hash(meta)
    expected = {name: position for name, position in zip(expected_files(meta), _positions(meta), strict=True)}
    footers = []
    for file in files:
        try:
            footers.append(pq.read_metadata(file))
            chunk = json.loads((footers[-1].metadata or {})[CHUNK_KEY])
        except (OSError, pa.ArrowException, ValueError) as exc:
            raise UnosimInputError(f"chunk file {file} is damaged ({error_reason(exc)}). {REPAIR}") from None
        except KeyError:
            raise UnosimInputError(f"chunk file {file} carries no unosim chunk metadata: it is not part of {path}. "
                             f"{REPAIR}") from None
        if not isinstance(chunk, dict) or "run" not in chunk:
            continue  # a chunk entry without its run: nothing to compare
        problem = foreign_chunk_problem(chunk, {"run": run, **expected[file.name]})
        if problem is not None:
            raise UnosimInputError(f"chunk file {file} {problem}: it is not part of {path}. {REPAIR}")
    return footers


def _zero_columns(footers: list[pq.FileMetaData], schema: pa.Schema, names: list[str]) -> set[str]:
    """The integer and boolean ``names`` that every file's statistics show to hold only zeros (a count
    of a rule that is off, such as ``stacks`` without stacking): they are made, not read, which costs no
    decoding; [`load`][unosim.runs.load] makes them as zeroed arrays joined to its frame without a copy,
    whose memory the system hands out only where they are written."""
    candidates = {name for name in names if name in schema.names
                  and (pa.types.is_integer(schema.field(name).type) or pa.types.is_boolean(schema.field(name).type))}
    for footer in footers:
        for group in range(footer.num_row_groups):
            row_group = footer.row_group(group)
            columns = (row_group.column(index) for index in range(row_group.num_columns))
            stats = {column.path_in_schema: column.statistics for column in columns}
            candidates = {name for name in candidates if _only_zeros(stats.get(name))}  # a column missing: not made
        if not candidates:
            break
    return candidates


def _only_zeros(stats: pq.Statistics | None) -> bool:
    """Whether a column chunk's statistics show it to hold only zeros (no nulls)."""
    return (stats is not None and stats.has_min_max and stats.null_count == 0
            and stats.min == stats.max and stats.min in (0, False))


def _zeros(kind: pa.DataType, rows: list[int]) -> pa.ChunkedArray:
    """A column of zeros of type ``kind`` for [`read_table`][unosim.runs.read_table], a chunk of
    ``rows[i]`` for each file as a column read from the files has (views of one zeroed array)."""
    zeros = pa.array(np.zeros(max(rows, default=0), dtype=kind.to_pandas_dtype()), type=kind)
    return pa.chunked_array([zeros.slice(0, n) for n in rows], type=kind)



def _check_in_its_dataset(path: Path) -> None:
    """Refuse a chunk file of a dataset directory (its ``_unosim.json`` beside it) whose bytes are not those
    the dataset recorded writing; a file elsewhere has nothing to compare."""
    rounds = path.parent.name == ROUNDS_DIR
    directory, prefix = (path.parent.parent, f"{ROUNDS_DIR}/") if rounds else (path.parent, "")
    if not (directory / METADATA_FILE).is_file():
        return
    try:
        meta = read_metadata(directory)
    except UnosimInputError:
        return
    if path.name in expected_files(meta):
        _check_digests(meta, [path], prefix)



def _check_digests(meta: dict[str, Any], files: list[Path], prefix: str) -> None:
    """Refuse a chunk file whose bytes are not those its run recorded writing (`digest_problem`);
    the files are hashed side by side."""
    from concurrent.futures import ThreadPoolExecutor

    if not isinstance(meta.get(DIGESTS_KEY), dict):
        return
    with ThreadPoolExecutor(max_workers=min(8, len(files))) as pool:
        problems = list(pool.map(lambda file: digest_problem(file, prefix + file.name, meta), files))
    for file, problem in zip(files, problems, strict=True):
        if problem is not None:
            raise UnosimInputError(f"chunk file {file} {problem}. {REPAIR}")



def _positions(meta: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``cell``, ``chunk`` and ``seed`` of every chunk of the dataset, in the order of `expected_files`."""
    chunks = meta["chunking"]["chunks"]
    if meta["kind"] == "experiment":
        return [{"cell": c, "chunk": i, "seed": (cell.get("config") or {}).get("seed")}
                for c, cell in enumerate(meta["cells"]) for i in range(chunks)]
    return [{"cell": None, "chunk": i, "seed": (meta.get("config") or {}).get("seed")} for i in range(chunks)]



def load(
    path: str | Path, *, columns: list[str] | None = None, allow_incomplete: bool = False, table: str = "main"
) -> pd.DataFrame:
    """Load a dataset written by ``unosim simulate --out`` or ``unosim run``.

    Parameters
    ----------
    path : str or Path
        The dataset directory (or a single chunk file).
    columns : list of str, optional
        Read only these columns (``[]``: every row, no column).
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
        are Arrow-backed (``pd.ArrowDtype``, see `to_frame`). The dataset
        metadata is read with [`read_metadata`][unosim.runs.read_metadata]. For large datasets pass
        ``columns``: a 10-million-game run loads in about a second without the
        list columns.

    Raises
    ------
    ValueError
        For an unknown ``table``, ``table="rounds"`` on a dataset of single
        rounds, or an incomplete dataset (unless ``allow_incomplete``).
    """
    import pandas as pd

    data, zeros, rows, order = _read(path, columns, allow_incomplete, table, dictionary_strings=True)
    frame = to_frame(data, consume=True)
    del data
    if zeros:
        # the all-zero columns as fresh zeroed arrays, joined without a copy: the system hands out
        # their memory only where they are written
        n = sum(rows)
        made = pd.DataFrame({name: np.zeros(n, kind.to_pandas_dtype()) for name, kind in zeros.items()}, copy=False)
        frame = pd.concat([frame, made], axis=1)[order]
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

    table = _with_metadata(table, None)
    for name in [f.name for f in table.schema if f"{f.name}.list.element" in dictionary_columns(table.schema)]:
        # lists of strings as [`load`][unosim.runs.load] reads them (an in-memory run's frame equals the loaded one)
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


__all__ = [
    "load",
    "read_table",
    "restore_hands",
    "to_frame",
]
