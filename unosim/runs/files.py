"""The dataset format on disk: its layout, its metadata, and writing its files atomically.

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
per round of those matches (schemas: `unosim.engine.records`)::

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

    format, format_version    "unosim-dataset", 2
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
    chunk_sha256              every chunk file written, by its path in the dataset
                              (``part-00000.parquet``, ``rounds/part-00000.parquet``), to
                              the sha256 of the bytes written (`DIGESTS_KEY`); added
                              as chunks finish, not part of the run's identity

Chunk digests
-------------
The sha256 of a chunk file is taken of the bytes as they are written (in memory, before they reach
the disk) and recorded by the process that runs the dataset (`record_digests`); readers
([`unosim.load`][unosim.load], the reports, resume) refuse a chunk file whose bytes are no longer those,
naming it (`digest_problem`). This finds a chunk changed after it was written — by a process
left behind, by hand, by a disk — but it is no signature: whoever may write the dataset's directory
may write its ``_unosim.json`` too. A dataset written before chunks were recorded has no
``chunk_sha256`` and is read without this check.

In a parquet file of an experiment, ``cells`` holds only that file's cell. The
key ``unosim.chunk`` of each file holds ``{"run", "seed", "cell", "chunk",
"first_game", "n_games"}``; ``run`` is `run_hash` of the dataset metadata.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.parquet as pq

from ..engine.records import opening_hand_bytes
from ..game.errors import UnosimInputError

if TYPE_CHECKING:
    pass

METADATA_FILE = "_unosim.json"

"""Name of the dataset metadata file inside a dataset directory."""

FORMAT = "unosim-dataset"

FORMAT_VERSION = 2
"""2: ``opening_hand`` stored as one byte string a row (`STORED_HANDS`); 1: as lists of lists."""

STORED_HANDS = "opening_hand"
"""The column stored in another form than it loads in: one byte string a row, each seat's hand in
turn, one byte a card type, a hand never dealt as -1 bytes (`unosim.engine.records.opening_hand_bytes`).
Readers of this package give it back as ``list<list<int8>>``."""

METADATA_KEY = b"unosim"

"""Parquet key-value metadata key holding the dataset metadata JSON."""

CHUNK_KEY = b"unosim.chunk"

"""Parquet key-value metadata key holding the chunk's position in the dataset."""

DIGESTS_KEY = "chunk_sha256"

"""Metadata key holding the sha256 of every chunk file written (module doc, *Chunk digests*)."""

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

_COMPRESSION = "lz4"
"""The chunk files' codec: LZ4 decodes a chunk in about 60 % of zstd's time, for files about 45 %
larger; a large dataset's load is mostly decoding (``docs/performance.md``)."""



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
    """sha256 (hex) of the run's identity (`identity` of its dataset metadata): the ``run`` every
    chunk file of the dataset carries."""
    return hashlib.sha256(json.dumps(identity(meta), sort_keys=True).encode()).hexdigest()



def to_json(meta: dict[str, Any]) -> str:
    """Metadata as stable, indented JSON text."""
    return json.dumps(meta, indent=1, sort_keys=True)



def write_metadata(directory: Path, meta: dict[str, Any]) -> None:
    """Write ``_unosim.json`` atomically."""
    _write_atomic(Path(directory) / METADATA_FILE, lambda fh: fh.write(to_json(meta).encode()))



def write_chunk(table: pa.Table, path: Path, file_metadata: dict[bytes, bytes]) -> str:
    """Write one chunk file atomically, with ``file_metadata`` in its key-value metadata and
    ``opening_hand`` in its stored form (`unosim.engine.records.opening_hand_bytes`); return
    the sha256 (hex) of the bytes written."""
    if STORED_HANDS in table.column_names and not pa.types.is_binary(table.schema.field(STORED_HANDS).type):
        at = table.schema.get_field_index(STORED_HANDS)
        table = table.set_column(at, STORED_HANDS, opening_hand_bytes(table.column(at)))
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), **file_metadata})
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression=_COMPRESSION, write_page_checksum=True)
    data = sink.getvalue()
    _write_atomic(Path(path), lambda fh: fh.write(memoryview(data)))
    return hashlib.sha256(memoryview(data)).hexdigest()


def file_digest(path: Path) -> str:
    """sha256 (hex) of the file at ``path``."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def record_digests(directory: Path, meta: dict[str, Any], digests: dict[str, str]) -> None:
    """Write ``_unosim.json`` as ``meta`` with ``digests`` (chunk path in the dataset to sha256) under
    `DIGESTS_KEY`, atomically."""
    write_metadata(directory, {**meta, DIGESTS_KEY: dict(sorted(digests.items()))})


def digest_problem(path: Path, name: str, meta: dict[str, Any]) -> str | None:
    """Why chunk file ``path`` (``name`` in its dataset, e.g. ``rounds/part-00000.parquet``) is not the one
    the dataset recorded writing (module doc, *Chunk digests*), or None. A dataset that records no
    digests (written before they were recorded) has nothing to compare."""
    recorded = meta.get(DIGESTS_KEY)
    if not isinstance(recorded, dict):
        return None
    expected = recorded.get(name)
    if not isinstance(expected, str):
        return ("is not recorded as written by this dataset's run (a run stopped before it recorded the chunk, or "
                "a file put there afterwards)")
    found = file_digest(path)
    if found != expected:
        return (f"changed after it was written: its sha256 is {found[:12]}..., the run recorded {expected[:12]}... "
                "when it wrote it")
    return None



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
            raise UnosimInputError(
                f"{path} is not a unosim dataset: it has no {METADATA_FILE}. Give the directory "
                "written by `unosim simulate --out` or `unosim run`."
            )
        try:
            meta = json.loads(meta_file.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
            raise UnosimInputError(f"{meta_file} is not valid JSON ({exc}); the dataset metadata is damaged.") from None
        return check_shape(meta, meta_file)
    if path.is_file():
        kv = pq.read_schema(path).metadata or {}
        if METADATA_KEY not in kv:
            raise UnosimInputError(f"{path} is a parquet file without unosim metadata.")
        try:
            meta = json.loads(kv[METADATA_KEY])
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
            raise UnosimInputError(f"the unosim metadata of {path} is not valid JSON ({exc}); the file is damaged.") from None
        return check_shape(meta, path)
    raise UnosimInputError(f"{path} does not exist; give a dataset directory or one of its parquet files.")



_MAX_VALUE = {"chunk_size": 10_000_000_000, "chunks": MAX_CHUNKS}

_PATTERN = re.compile(r"^(cell-\{cell:0\d+d\}-)?part-\{chunk:0\d+d\}\.parquet$")



def _shape_problem(meta: Any) -> str | None:
    """What keeps ``meta`` from having the shape [`read_metadata`][unosim.runs.read_metadata]'s callers rely on, or None."""
    if not isinstance(meta, dict):
        return f"a JSON {type(meta).__name__} instead of an object"
    if meta.get("format") != FORMAT:
        return f"format = {short_json(meta.get('format'))}, not {FORMAT!r}"
    kind = meta.get("kind")
    if kind not in ("run", "experiment"):
        return f"kind = {short_json(kind)}, not 'run' or 'experiment'"
    chunking = meta.get("chunking")
    if not isinstance(chunking, dict):
        return "chunking is not an object"
    for key in ("chunk_size", "chunks"):
        value = chunking.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= _MAX_VALUE[key]:
            return f"chunking.{key} = {short_json(value)} is not a whole number in range"
    pattern = chunking.get("file_pattern")
    if not isinstance(pattern, str) or not _PATTERN.match(pattern) or ("{cell" in pattern) != (kind == "experiment"):
        return f"chunking.file_pattern = {short_json(pattern)} is not a chunk file name pattern"
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
        raise UnosimInputError(
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



def foreign_chunk_problem(chunk: dict[str, Any], expected: dict[str, Any]) -> str | None:
    """Why a chunk file's ``unosim.chunk`` entry is not the ``expected`` one (only the keys given), or None."""
    if chunk.get("seed") != expected.get("seed", chunk.get("seed")):
        return f"was played with seed {chunk.get('seed')}, not {expected['seed']}: it belongs to another run"
    if chunk.get("run") != expected.get("run", chunk.get("run")):
        return "was played with other settings: it belongs to another run"
    for key in ("cell", "chunk", "first_game", "n_games"):
        if key in expected and chunk.get(key) != expected[key]:
            return f"holds {key} {chunk.get(key)}, not {expected[key]}"
    return None



def read_problem(path: Path) -> str | None:
    """Why ``path`` does not read cleanly (page checksums verified), or None."""
    try:
        pq.read_table(path, page_checksum_verification=True)
    except (OSError, pa.ArrowException) as exc:
        return error_reason(exc)
    return None



def error_reason(exc: BaseException) -> str:
    """The first line of an error's message (pyarrow's run long)."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__



def dictionary_columns(schema: pa.Schema, columns: list[str] | None = None) -> list[str]:
    """Parquet paths of the list-of-string columns of ``schema`` (among ``columns``), which
    [`read_table`][unosim.runs.read_table] reads dictionary-encoded."""
    return [f"{field.name}.list.element" for field in schema
            if (columns is None or field.name in columns) and pa.types.is_list(field.type)
            and pa.types.is_string(field.type.value_type)]



def short_json(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


__all__ = [
    "check_shape",
    "CHUNK_KEY",
    "dictionary_columns",
    "digest_problem",
    "DIGESTS_KEY",
    "error_reason",
    "file_digest",
    "expected_files",
    "file_pattern",
    "foreign_chunk_problem",
    "FORMAT",
    "FORMAT_VERSION",
    "has_rounds",
    "STORED_HANDS",
    "identity",
    "IDENTITY_KEYS",
    "is_chunk_file",
    "is_temp_file",
    "LOCK_FILE",
    "MAX_CHUNKS",
    "METADATA_FILE",
    "METADATA_KEY",
    "missing_files",
    "read_metadata",
    "read_problem",
    "record_digests",
    "REPAIR",
    "ROUNDS_DIR",
    "run_hash",
    "short_json",
    "TABLES",
    "to_json",
    "write_chunk",
    "write_metadata",
]
