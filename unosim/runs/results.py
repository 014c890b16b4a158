"""Result directories written whole or not at all.

A command that writes several files into one directory (a comparison's settings and tables, a
swap cross-check's, a tuning run's outputs) writes them with `write_files` (a report's files,
with `write_whole`): every file is
first written in full under a temporary name in the same directory, and only when all of them
are written are they renamed into place, the last one (the settings, or the file a reader starts
from) last. A write that fails — a full disk, a table that cannot be written, Ctrl-C — leaves the
directory as it was: the previous results, whole, or nothing.

The settings file of a directory that is read back (`write_result`) lists the SHA-256 of
each table written with it; `read_result` checks them, so tables and settings of two
different runs are never read as one result.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..game.errors import UnosimInputError

__all__ = ["FILES_KEY", "read_result", "write_files", "write_result", "write_whole"]

FILES_KEY = "files"
"""The key of a settings file that lists the SHA-256 of each table written with it."""


def write_files(out: str | Path, writers: Mapping[str, Callable[[Path], object]]) -> list[Path]:
    """Write the files of ``writers`` into ``out`` whole or not at all.

    Parameters
    ----------
    out : str or Path
        The directory (made if missing).
    writers : mapping of str to callable
        File name to a function that writes that file's content to the path it is given (a
        temporary name in ``out``). The files are renamed into place in this order, so the last
        one appears only after every other one is in place.

    Returns
    -------
    list of Path
        The files written, in the order of ``writers``.

    Raises
    ------
    Exception
        Whatever a writer raises; the directory then holds what it held before.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    staged: list[tuple[Path, Path]] = []
    try:
        for name, write in writers.items():
            temporary = out / f".{name}.partial-{os.getpid()}"
            staged.append((temporary, out / name))
            write(temporary)
            if not temporary.is_file():
                raise RuntimeError(f"writing {out / name} produced no file")
    except BaseException:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)
        raise
    for temporary, final in staged:
        os.replace(temporary, final)
    return [final for _, final in staged]


def write_whole(out: str | Path, write: Callable[[Path], list[Path]]) -> list[Path]:
    """Run ``write`` (a function that writes files into the directory it is given and returns them) on a
    temporary directory inside ``out``, then move its files into ``out`` (those it returns last, in their
    order): the files of a report replace the previous ones only once every one of them is written.

    Returns
    -------
    list of Path
        The files, at their place in ``out``.

    Raises
    ------
    Exception
        Whatever ``write`` raises; ``out`` then holds what it held before.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    stage = out / f".partial-{os.getpid()}"
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir()
    try:
        files = [Path(f) for f in write(stage)]
        listed = set(files)
        others = sorted(f for f in stage.rglob("*") if f.is_file() and f not in listed)  # written but not returned
        for source in [*others, *files]:
            target = out / source.relative_to(stage)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(source, target)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return [out / f.relative_to(stage) for f in files]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_result(out: str | Path, settings_file: str, settings: dict[str, Any],
                 tables: Mapping[str, Callable[[Path], object]]) -> list[Path]:
    """Write the ``tables`` and then ``settings_file`` (``settings`` as JSON, with the SHA-256 of each
    table under `FILES_KEY`) into ``out``, whole or not at all (`write_files`).

    Returns
    -------
    list of Path
        The settings file, then the tables.
    """
    out = Path(out)
    digests: dict[str, str] = {}

    def table_writer(name: str, write: Callable[[Path], object]) -> Callable[[Path], None]:
        def run(path: Path) -> None:
            write(path)
            digests[name] = _digest(path)
        return run

    def write_settings(path: Path) -> None:
        path.write_text(json.dumps({**settings, FILES_KEY: digests}, indent=1), encoding="utf-8")

    written = write_files(out, {**{n: table_writer(n, w) for n, w in tables.items()}, settings_file: write_settings})
    return [written[-1], *written[:-1]]


def read_result(path: str | Path, settings_file: str, what: str) -> dict[str, Any]:
    """The settings of a result directory written by `write_result`, once each table listed in
    them is checked to be the one written with them.

    Parameters
    ----------
    path : str or Path
        The directory.
    settings_file : str
        Its settings file (``_compare.json``).
    what : str
        What the directory holds (``"comparison"``), for the error messages.

    Raises
    ------
    ValueError
        When the settings file is not a JSON object, or a table it lists is missing or differs from
        the one written with it (tables of another run).
    """
    path = Path(path)
    file = path / settings_file
    try:
        settings = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UnosimInputError(f"{file} cannot be read as the settings of a {what} ({exc}); run the command that wrote "
                         f"{path} again.") from None
    if not isinstance(settings, dict):
        raise UnosimInputError(f"{file} is not the settings of a {what} (a JSON {type(settings).__name__}); run the "
                         f"command that wrote {path} again.")
    files = settings.pop(FILES_KEY, {})  # absent from directories written before the tables were listed
    if not isinstance(files, dict):
        raise UnosimInputError(f"{file}: {FILES_KEY} is not a table of file digests; run the command that wrote {path} again.")
    for name, digest in files.items():
        table = path / str(name)
        if not table.is_file() or _digest(table) != digest:
            problem = "is missing" if not table.is_file() else "is not the one written with these settings"
            raise UnosimInputError(
                f"{path} is not one whole {what}: {name} {problem} (the tables of another run, or a write that "
                f"did not finish); nothing of it is read. Run the command that wrote {path} again."
            )
    return settings
