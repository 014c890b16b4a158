"""Input files read once: the text of the rule and deck files a run plays, pinned for its duration.

A run reads every input file it names (a ``rules:PATH`` strategy's file, a ``--deck FILE``) when
it starts (:func:`unosim.runs.planning.read_inputs`), records the hash of each text in the dataset
metadata and hands the texts to the workers with every chunk. Inside :func:`pinned` the readers
of those files (:func:`unosim.game.cards.load_deck`, :func:`unosim.strategy.rule_language.load_program`)
take the pinned text instead of the file on disk: a file edited while the run goes on changes
nothing of it, and the rows match the hash in the metadata.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

__all__ = ["digest", "is_pinned", "key", "pinned", "read_text"]

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


def read_text(path: str | Path) -> str:
    """The text of ``path``: the pinned one if any, else the file's.

    Raises
    ------
    OSError, UnicodeDecodeError
        As :meth:`pathlib.Path.read_text`, for a file not pinned.
    """
    if _PINNED:
        text = _PINNED.get(key(path))
        if text is not None:
            return text
    return Path(path).read_text(encoding="utf-8-sig")  # a leading byte-order mark is dropped


@contextmanager
def pinned(texts: Mapping[str, str]) -> Iterator[None]:
    """Read the files of ``texts`` (:func:`key` to text) from memory while the block runs.

    Parameters
    ----------
    texts : mapping of str to str
        File (as :func:`key` gives it) to the text read when the run started.
    """
    saved = dict(_PINNED)
    _PINNED.update(texts)
    try:
        yield
    finally:
        _PINNED.clear()
        _PINNED.update(saved)
