"""Parquet datasets on disk, in one namespace: the names users and the other modules reach as
``unosim.runs.dataset.<name>``, each defined in the module of its job:

- :mod:`unosim.runs.files`: the format (layout, metadata, atomic chunk files);
- :mod:`unosim.runs.reading`: :func:`load` and :func:`read_table`;
- :mod:`unosim.runs.directory`: the output directory's life and lock;
- :mod:`unosim.runs.resume`: which chunk files of a dataset are done.
"""

from __future__ import annotations

from .directory import inspect_directory, locked, prepare_directory
from .files import (
    CHUNK_KEY,
    DIGESTS_KEY,
    FORMAT,
    FORMAT_VERSION,
    LOCK_FILE,
    MAX_CHUNKS,
    METADATA_FILE,
    METADATA_KEY,
    REPAIR,
    ROUNDS_DIR,
    TABLES,
    check_shape,
    dictionary_columns,
    digest_problem,
    expected_files,
    file_digest,
    file_pattern,
    has_rounds,
    identity,
    missing_files,
    read_metadata,
    record_digests,
    run_hash,
    to_json,
    write_chunk,
    write_metadata,
)
from .reading import load, read_table, to_frame
from .resume import ChunkFile, check_chunk_files

__all__ = [
    "CHUNK_KEY",
    "DIGESTS_KEY",
    "digest_problem",
    "file_digest",
    "record_digests",
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
    "check_chunk_files",
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
    "to_json",
    "write_chunk",
    "write_metadata",
]
