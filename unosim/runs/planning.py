"""Planning a run: its chunks (`Part`), its dataset metadata (`Plan`), and the
checks made before any game is played.

Chunks and seeds
----------------
A run of ``games`` games is cut into chunks of ``chunk_size`` games; chunk
``i`` is the game range ``[i * chunk_size, (i + 1) * chunk_size)``. The
engine keys every random draw of game *g* by (run seed, *g*)
([`unosim.engine.play_tables`][unosim.engine.play_tables]), so a chunk needs no seed of its own
(no ``SeedSequence`` child per chunk): the same seed and config give the same
rows for any ``jobs``, backend or chunk size, and any game is replayable from
its index alone. The chunking is recorded in the dataset
metadata only to name the files.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import importlib.util
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..engine.config import RunConfig
from ..game import inputs
from ..game.cards import shipped_decks
from ..game.encoding import check_supported as check_rules
from ..game.errors import UnosimInputError
from ..strategy.spec import StrategySpec
from ..version import __version__
from . import files, resume

__all__ = [
    "DEFAULT_CHUNK_SIZE", "MAX_CHUNKS", "SEEDING_NOTE", "Part", "Plan", "chunk_count", "check_parts_playable",
    "default_chunk_size", "describe_deck", "describe_strategies", "existing_chunk_size", "new_metadata", "read_inputs",
    "with_file_metadata",
]

DEFAULT_CHUNK_SIZE = 50_000
"""Default games per chunk (smaller runs use smaller chunks, see `default_chunk_size`)."""
MIN_DEFAULT_CHUNK_SIZE = 1_000
SEEDING_NOTE = (
    "every random draw of game g comes from a stream keyed by (seed, g); chunks are plain game "
    "ranges and carry no seed of their own, so rows do not depend on chunking, jobs or backend"
)


MAX_CHUNKS = files.MAX_CHUNKS
"""The most chunk files of one run (all cells together): planning holds one small object per chunk."""


def default_chunk_size(games: int) -> int:
    """Games per chunk: 50,000, or an eighth of a smaller run (at least 1,000), never above ``games``;
    larger for a run of more than `MAX_CHUNKS` chunks of 50,000."""
    size = max(1, min(games, DEFAULT_CHUNK_SIZE, max(MIN_DEFAULT_CHUNK_SIZE, -(-games // 8))))
    return max(size, -(-games // MAX_CHUNKS))


def chunk_count(games: int, size: int, cells: int = 1) -> int:
    """The chunks of each cell of ``games`` games cut into chunks of ``size``, checked (before any
    plan is built) to be at most `MAX_CHUNKS` in all.

    Parameters
    ----------
    games : int
        Games of each cell.
    size : int
        Games per chunk.
    cells : int
        Cells (configurations) of the run.

    Returns
    -------
    int
        Chunks per cell.

    Raises
    ------
    ValueError
        For more chunks than `MAX_CHUNKS`, naming the smallest chunk size allowed.
    """
    chunks = -(-games // size)
    if chunks * cells > MAX_CHUNKS:
        least = -(-games // (MAX_CHUNKS // cells)) if cells <= MAX_CHUNKS else games
        raise UnosimInputError(
            f"chunk_size = {size:,} cuts {games:,} games{f' × {cells:,} cells' if cells > 1 else ''} into "
            f"{chunks * cells:,} chunk files; a run has at most {MAX_CHUNKS:,}: give --chunk-size {least:,} or more "
            "(or leave it unset)."
        )
    return chunks


@dataclass(frozen=True)
class Part:
    """One chunk to play: a game range of one configuration, and the file it goes to."""

    config: RunConfig
    cell: int | None
    chunk: int
    first_game: int
    n_games: int
    filename: str
    columns: tuple[tuple[str, Any], ...] = ()
    file_metadata: tuple[tuple[bytes, bytes], ...] = ()
    inputs: tuple[tuple[str, str], ...] = ()
    """The input files' texts read when the run started (`unosim.game.inputs`): the worker
    plays with these, never with the files on disk."""
    verify: bool = False
    """Stop a strategy that changes state it must not touch ([`unosim.engine.Engine`][unosim.engine.Engine] ``verify``)."""
    isolate: bool = False
    """Play user strategies from processes of their own ([`unosim.engine.Engine`][unosim.engine.Engine] ``isolate``)."""

    @property
    def file(self) -> resume.ChunkFile:
        """The chunk file(s) this part writes, as the dataset checks them (after `with_file_metadata`)."""
        chunk = json.loads(dict(self.file_metadata).get(files.CHUNK_KEY, b"{}"))
        return resume.ChunkFile(self.filename, self.first_game, self.n_games, self.config.match, chunk)


@dataclass(frozen=True)
class Plan:
    """What a run produces: the dataset metadata and its chunks in row order."""

    meta: dict[str, Any]
    parts: tuple[Part, ...]
    description: str = "simulate"
    inputs: tuple[tuple[str, str], ...] = ()
    """The input files' texts (`read_inputs`), pinned while the run plays."""


def new_metadata(kind: str, *, chunk_size: int, chunks: int, pattern: str) -> dict[str, Any]:
    """The common head of a dataset's metadata."""
    return {
        "format": files.FORMAT,
        "format_version": files.FORMAT_VERSION,
        "kind": kind,
        "unosim_version": __version__,
        "created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "chunking": {"chunk_size": chunk_size, "chunks": chunks, "file_pattern": pattern, "seeding": SEEDING_NOTE},
    }


def describe_deck(config: RunConfig) -> dict[str, Any]:
    """The deck played, with its per-type counts (a deck file may change later)."""
    deck = config.rules.load_deck()
    return {"name": deck.name, "counts": list(deck.counts), "copies": config.rules.deck_copies}


def describe_strategies(config: RunConfig | Sequence[StrategySpec]) -> dict[str, Any]:
    """Every distinct strategy of the line-up (or of the specs given) by its spec: name, class and all its
    parameters (defaults included), and what else its ``describe()`` adds (a rule strategy: its file's text)."""
    from ..strategy.registry import is_isolating, is_user_code, make

    def describe(spec: StrategySpec) -> dict[str, Any]:
        if is_isolating() and is_user_code(spec.name):  # made (and so checked) in its own process
            from ..engine.isolation import isolated

            return isolated(spec.name, dict(spec.params)).describe()
        return make(spec.name, dict(spec.params)).describe()

    specs = config.strategies if isinstance(config, RunConfig) else config
    return {str(spec): describe(spec) for spec in specs}


def read_inputs(configs: Sequence[RunConfig]) -> tuple[
    tuple[tuple[str, str], ...], dict[str, dict[str, str]]
]:
    """Read, once, every input file the runs ``configs`` name, and describe them for the metadata.

    Parameters
    ----------
    configs : sequence of RunConfig
        The runs (cells) of one dataset.

    Returns
    -------
    texts : tuple of (str, str)
        File (`unosim.game.inputs.key`) to its text, for the rule and deck files: the run
        plays these texts (`unosim.game.inputs.pinned`), the workers receive them.
    described : dict
        File to ``{"kind", "sha256"}`` (a strategy module also its ``module``), the metadata's
        ``inputs``: resume refuses a file whose text changed.

    Raises
    ------
    ValueError
        For a file that cannot be read, naming it.
    """
    from ..strategy.registry import TUNED_PREFIX, target_of
    from ..strategy.rule_language import SHIPPED_DIR, resolve_path

    texts: dict[str, str] = {}
    described: dict[str, dict[str, str]] = {}

    def read(kind: str, path: str | Path) -> None:
        name = inputs.key(path)
        if name in texts:
            return
        try:
            text = inputs.read_text(name, kind)
        except (OSError, UnicodeDecodeError) as exc:
            raise UnosimInputError(f"cannot read the {kind} {name}: {exc}; give a readable UTF-8 file.") from None
        texts[name] = text
        described[name] = {"kind": kind, "sha256": inputs.digest(text)}

    shipped_rules = Path(SHIPPED_DIR).resolve()
    for config in configs:
        if config.rules.deck not in shipped_decks():
            read("deck file", config.rules.deck)
        for spec in config.strategies:
            if spec.name == "rules":
                path = resolve_path(str(dict(spec.params).get("path", "greedy"))).resolve()
                if not path.is_relative_to(shipped_rules):
                    read("rule file", path)
                continue
            target = target_of(spec.name)
            module = target.partition(":")[0]
            if ":" not in target or target.startswith(TUNED_PREFIX) or module.split(".")[0] == "unosim":
                continue
            source = _module_source(module)
            if source is not None and inputs.key(source) not in described:
                data = Path(source).read_bytes()
                described[inputs.key(source)] = {
                    "kind": "strategy module", "module": module, "sha256": hashlib.sha256(data).hexdigest(),
                }
    return tuple(sorted(texts.items())), dict(sorted(described.items()))


def _module_source(module: str) -> str | None:
    """The source file of an importable module, if it has one."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    origin = spec.origin if spec is not None else None
    return origin if origin and origin.endswith(".py") and Path(origin).is_file() else None


def existing_chunk_size(out: Path | None) -> int | None:
    """Chunk size of the dataset already in ``out`` (to resume with it), if any."""
    if out is None or not (out / files.METADATA_FILE).is_file():
        return None
    try:
        size = files.read_metadata(out)["chunking"]["chunk_size"]
    except (ValueError, KeyError, TypeError):
        return None
    return size if isinstance(size, int) and size >= 1 else None


def check_parts_playable(parts: tuple[Part, ...]) -> None:
    """Ask the engine, before any work, whether it plays every configuration of ``parts``."""
    seen = set()
    for part in parts:
        if part.cell in seen:
            continue
        seen.add(part.cell)
        try:
            check_rules(part.config.rules, part.config.players, match=part.config.match)
        except ValueError as exc:
            if part.cell is None:
                raise
            raise UnosimInputError(
                f"cell {part.cell} ({part.config.rules.name} rules, {part.config.players} players): {exc}"
            ) from None


def with_file_metadata(part: Part, meta: dict[str, Any], texts: tuple[tuple[str, str], ...] = ()) -> Part:
    """Attach the key-value metadata the chunk's parquet file carries (and the input texts its worker plays).

    Besides the dataset metadata, the file's ``unosim.chunk`` entry names the run it belongs to
    (``run``: `unosim.runs.files.run_hash` of the dataset metadata), its seed, cell and chunk
    index and its games: a chunk of another run, or of another place in this one, is refused.
    """
    file_meta = meta
    if part.cell is not None:
        file_meta = {**meta, "cells": [meta["cells"][part.cell]]}
    chunk = {
        "run": files.run_hash(meta), "seed": part.config.seed, "cell": part.cell, "chunk": part.chunk,
        "first_game": part.first_game, "n_games": part.n_games,
    }
    return replace(
        part,
        inputs=texts,
        file_metadata=(
            (files.METADATA_KEY, files.to_json(file_meta).encode()),
            (files.CHUNK_KEY, json.dumps(chunk).encode()),
        ),
    )
