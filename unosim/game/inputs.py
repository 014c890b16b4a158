"""Input files read once: the text of the rule and deck files a run plays, pinned for its duration.

A run reads every input file it names (a ``rules:PATH`` strategy's file, a ``--deck FILE``) when
it starts (`unosim.runs.planning.read_inputs`), records the hash of each text in the dataset
metadata and hands the texts to the workers with every chunk. Inside `pinned` the readers
of those files ([`unosim.game.load_deck`][unosim.game.load_deck], [`unosim.strategy.load_program`][unosim.strategy.load_program])
take the pinned text instead of the file on disk: a file edited while the run goes on changes
nothing of it, and the rows match the hash in the metadata.

Every input file unosim reads (rule, deck, experiment, comparison, tuned and policy files) goes
through `read_text`, which reads only regular files of at most `MAX_BYTES`, and its
TOML or JSON through `parse_toml` / `parse_json`, which refuse nesting deeper than
`MAX_DEPTH`: a device, a pipe, a huge file or a deeply nested one is a clear error, never a
read that does not end, a memory error or a ``RecursionError``.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tomllib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .errors import UnosimInputError

__all__ = ["MAX_BYTES", "MAX_DEPTH", "InputFileError", "digest", "is_pinned", "key", "parse_json", "parse_toml", "pinned", "read_settings",
           "read_text"]

MAX_BYTES = 16 * 1024 * 1024
"""The largest input file read (16 MiB; a 16-player policy file is under 2 MiB, a 10,000-rule file under 1 MiB)."""
MAX_DEPTH = 32
"""The deepest nesting of tables and arrays an input file may hold (the shipped formats need 4)."""


class InputFileError(UnosimInputError):
    """An input file that cannot be read as one: the message names the file, what is wrong and what to give."""

_PINNED: dict[str, str] = {}


def key(path: str | Path) -> str:
    """The name a file is pinned under: its absolute, resolved path."""
    return str(Path(path).resolve())


def digest(text: str) -> str:
    """sha256 (hex) of a text as UTF-8."""
    return hashlib.sha256(text.encode()).hexdigest()


def is_pinned(path: str | Path) -> bool:
    """Whether the text of ``path`` is pinned (it is then read from memory, never from disk)."""
    return bool(_PINNED) and key(path) in _PINNED


def read_text(path: str | Path, what: str = "input file") -> str:
    """The text of ``path``: the pinned one if any, else the file's (a leading byte-order mark dropped).

    Parameters
    ----------
    path : str or Path
        The file.
    what : str
        What the file is (``"policy file"``), for the error messages.

    Raises
    ------
    OSError, UnicodeDecodeError
        As `pathlib.Path.read_text`, for a file not pinned.
    InputFileError
        For a path that is not a regular file (a device such as ``/dev/zero``, a pipe, a directory)
        or a file larger than `MAX_BYTES`.
    """
    if _PINNED:
        text = _PINNED.get(key(path))
        if text is not None:
            return text
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a pipe is refused below, not waited on
    with os.fdopen(fd, "rb") as fh:
        mode = os.fstat(fh.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise InputFileError(
                f"{what} {path} is not a regular file (it is a {_file_type(mode)}); unosim reads only regular files: "
                "give the path of a file saved on disk."
            )
        data = fh.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise InputFileError(
            f"{what} {path} is larger than {MAX_BYTES // (1024 * 1024)} MiB, the most unosim reads of an input file; "
            "give the file unosim wrote or a hand-written one (each is far smaller)."
        )
    return data.decode("utf-8-sig")


def _file_type(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "directory"), (stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"),
                       (stat.S_ISFIFO, "pipe"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return name
    return "special file"


def _too_deep(what: str) -> InputFileError:
    return InputFileError(
        f"{what} nests tables or arrays more than {MAX_DEPTH} levels deep; unosim's files nest a few levels at "
        "most: remove the extra brackets."
    )


def _check_depth(data: Any, what: str) -> None:
    """Refuse ``data`` (parsed TOML or JSON) nested more than `MAX_DEPTH` levels (no recursion)."""
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = list(value.values())
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth >= MAX_DEPTH:
            raise _too_deep(what)
        stack.extend((child, depth + 1) for child in children)


def _parsed(loads: Callable[[str], Any], text: str, what: str) -> Any:
    """``loads(text)``, refusing nesting deeper than `MAX_DEPTH` (during the parse or after it)."""
    try:
        data = loads(text)
    except RecursionError:
        raise _too_deep(what) from None
    _check_depth(data, what)
    return data


def parse_toml(text: str, what: str = "the input file") -> dict[str, Any]:
    """``tomllib.loads(text)``, refusing nesting deeper than `MAX_DEPTH`.

    Raises
    ------
    tomllib.TOMLDecodeError
        As `tomllib.loads`, for text that is not TOML.
    InputFileError
        For nesting too deep (``what`` names the file in the message).
    """
    return _parsed(tomllib.loads, text, what)


def read_settings(path: Path, what: str, keys: Mapping[str, str]) -> dict[str, Any]:
    """The TOML settings file at ``path`` (``what``: "comparison file", "skill study file", ...) as a
    table whose keys are all among ``keys`` (key to what it allows).

    Raises
    ------
    UnosimInputError
        A one-paragraph message for a file that cannot be read, is not UTF-8, is not TOML or holds a
        key not in ``keys``; `InputFileError` for one nested too deep.
    """
    try:
        data = parse_toml(read_text(path, what), f"the {what} {path}")
    except OSError as exc:
        raise UnosimInputError(f"cannot read the {what} {path}: {exc.strerror or exc}.") from None
    except tomllib.TOMLDecodeError as exc:
        raise UnosimInputError(f"{path} is not valid TOML: {exc}.") from None
    except UnicodeDecodeError as exc:
        raise UnosimInputError(f"the {what} {path} is not UTF-8 text ({exc}); save it as UTF-8.") from None
    for name in data:
        if name not in keys:
            raise UnosimInputError(f"{path}: unknown key {name!r}; the allowed keys are: {', '.join(keys)}.")
    return data


def parse_json(text: str, what: str = "the input file") -> Any:
    """``json.loads(text)``, refusing nesting deeper than `MAX_DEPTH`.

    Raises
    ------
    json.JSONDecodeError
        As `json.loads`, for text that is not JSON.
    InputFileError
        For nesting too deep (``what`` names the file in the message).
    """
    return _parsed(json.loads, text, what)


@contextmanager
def pinned(texts: Mapping[str, str]) -> Iterator[None]:
    """Read the files of ``texts`` (`key` to text) from memory while the block runs.

    Parameters
    ----------
    texts : mapping of str to str
        File (as `key` gives it) to the text read when the run started.
    """
    saved = dict(_PINNED)
    _PINNED.update(texts)
    try:
        yield
    finally:
        _PINNED.clear()
        _PINNED.update(saved)
