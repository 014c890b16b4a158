"""The output directory's life: new, resumed, refused or overwritten, and the lock a run holds on it.

Lock
----
A run holds a lock on its output directory (the file ``.unosim.lock`` in it,
`locked`) while it plays; a second run started into the same directory is
refused at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import filelock

from ..game.errors import UnosimInputError
from .files import LOCK_FILE, METADATA_FILE, ROUNDS_DIR, identity, is_chunk_file, is_temp_file, read_metadata, short_json, write_metadata

if TYPE_CHECKING:
    pass

def inspect_directory(out: Path, meta: dict[str, Any], *, overwrite: bool) -> tuple[dict[str, Any], bool]:
    """Decide, without changing anything, how to use ``out``.

    Returns the metadata to write into the files (the existing one when
    resuming, so every file carries the same JSON) and whether the dataset files
    there must be removed first (``overwrite``).
    """
    if not out.exists():
        return meta, False
    if not out.is_dir():
        raise UnosimInputError(f"output {out} is a file; give a directory (new or holding this run's dataset).")
    names = sorted(p.name for p in out.iterdir() if p.name != LOCK_FILE)
    if METADATA_FILE not in names:
        foreign = [n for n in names if not (is_chunk_file(n) or is_temp_file(n) or n == ROUNDS_DIR)]
        if foreign:
            raise UnosimInputError(
                f"output directory {out} is not empty and holds no unosim dataset (e.g. {foreign[0]!r}); "
                "give a new or empty directory."
            )
        if any(is_chunk_file(n) for n in names) and not overwrite:
            raise UnosimInputError(
                f"output directory {out} holds chunk files but no {METADATA_FILE}, so it cannot be "
                "resumed; give a new directory or use --overwrite to replace them."
            )
        return meta, bool(names)
    try:
        old = read_metadata(out)
    except ValueError as exc:
        if overwrite:
            return meta, True
        raise UnosimInputError(f"{exc} Use --overwrite to replace it, or give a new directory.") from None
    differences = _differences(identity(old), identity(meta))
    changed = _changed_inputs(old, meta)
    if changed and not overwrite:
        others = [d for d in differences if not d.startswith("inputs")]
        shown = " (" + "; ".join(others[:3]) + ("; ..." if len(others) > 3 else "") + ")" if others else ""
        raise UnosimInputError(
            f"output directory {out} holds a dataset made with other settings{shown}: {changed}. Restore that file to "
            "resume the run, or give a new --out directory or add --overwrite to start again with the file as it is now."
        )
    if not differences:
        return old, False
    if overwrite:
        return meta, True
    shown = "; ".join(differences[:4]) + ("; ..." if len(differences) > 4 else "")
    raise UnosimInputError(
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
        raise UnosimInputError(f"output {out} is a file; give a directory (new or holding this run's dataset).")
    out.mkdir(parents=True, exist_ok=True)
    lock = filelock.FileLock(str(out / LOCK_FILE))
    try:
        lock.acquire(timeout=0)
    except filelock.Timeout:
        raise UnosimInputError(
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
    return [f"{path or 'metadata'}: {short_json(old)} there, {short_json(new)} now"]


__all__ = [
    "inspect_directory",
    "locked",
    "prepare_directory",
]
