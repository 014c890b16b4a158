"""Experiment files: a study of several cells (rule preset × player count × seating) as TOML.

File format
-----------
::

    name = "player_count"            # optional; default: the file name
    description = "..."              # optional
    seed = 2024                      # required: experiment seed (whole number ≥ 0)
    games = 100_000                  # required: games (or matches) per cell
    out = "runs/player_count"        # optional: dataset directory (relative to the
                                     #   current directory; --out overrides it)
    presets = ["classic", "party"]   # required: one preset name or a list
    players = [2, 3, 4]              # required: one player count or a list (2–16)
    strategies = "random"            # optional (default "random"), one of:
                                     #   "greedy"                   every seat
                                     #   ["greedy", "random", ...]  one per seat (one player count only)
                                     #   { pool = ["greedy", "random"], seatings = 4 }
    batch_size = 4096                # optional: engine batch size (never changes results)
    chunk_size = 50_000              # optional: games per chunk file
    match = false                    # optional: play matches instead of single rounds
    common_seeds = false             # optional: see Seeds

    [overrides]                      # optional: rule options applied to every preset
    wd4_challenge = false
    deck_copies = "auto"             # "auto": per cell, the fewest copies that deal the table

    [variants."the official game"]   # optional: named rule sets instead of presets (below)
    [variants."stacking + 7-0"]
    stacking = "mixed"
    seven_zero = true

Cells are every combination of ``presets`` × ``players`` (× seatings for a
pool), numbered from 0 in that order (presets outermost). With ``[variants]``
the rule sets are the named variants instead, in the file's order: each is the
options of its table on the preset its ``rules`` key names (default: the one
preset of ``presets``, else ``classic``), then the ``[overrides]``; the
variant's name is its cells' ``rules`` value. Every value is checked
before any game is played; a bad one is refused naming the key, the value and
what is allowed.

Pools
-----
With ``strategies = { pool = [...], seatings = N }`` each (preset, players)
gives ``N`` cells (default 1). A cell's seats hold the pool repeated in order
to fill the table (``pool[seat % len(pool)]``), then shuffled by a generator
derived from the experiment seed, so the line-up is random but reproducible and
each strategy holds as many seats as the table allows. The line-up of a cell
is in the metadata (``cells[i].lineup``) and, per row, in the engine's
``strategies`` column; pool datasets also get a ``seating`` column.

Seeds
-----
Cell *k* uses ``numpy.random.SeedSequence(seed, spawn_key=(k,))`` (the
``k``-th child of ``SeedSequence(seed).spawn(...)``); its first child gives the
cell's run seed (63 bits), its second the pool shuffle. With
``common_seeds = true`` the key is the (players, seating) combination instead
of the cell index, so cells that differ only in preset play the same seeds and
seatings: common random numbers for comparing rule sets (identical deals
whenever the presets share a deck).

Dataset
-------
One dataset for the whole experiment (`unosim.runs.files`): files
``cell-KKK-part-NNNNN.parquet``; every row gets the columns ``cell``, ``rules``
(the preset name) and ``players`` first. Resume works as for a single run.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..engine.config import RunConfig
from ..game import inputs
from ..game.errors import UnosimInputError
from ..game.rules import MAX_DECK_COPIES, MAX_PLAYERS, MIN_PLAYERS, PRESETS, RuleSet
from ..strategy.spec import StrategySpec
from . import files
from .options import Execution
from .planning import (
    Part,
    Plan,
    chunk_count,
    default_chunk_size,
    describe_deck,
    describe_strategies,
    existing_chunk_size,
    new_metadata,
    read_inputs,
)
from .runner import RunResult, execute

ALLOWED: dict[str, str] = {
    "name": "a text",
    "description": "a text",
    "seed": "a whole number ≥ 0",
    "games": "a whole number ≥ 1 (games per cell)",
    "out": "a directory path as text",
    "presets": f"a preset name or a list of preset names: {', '.join(PRESETS)}",
    "players": f"a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, or a list of them",
    "strategies": (
        'a strategy for every seat ("random"), a list with one per seat (for a single player count), '
        'or a pool table { pool = ["random", "greedy"], seatings = 1 }'
    ),
    "overrides": 'a table of rule options (OPTION = value; deck_copies may be "auto")',
    "batch_size": "a whole number from 1 to 1048576",
    "chunk_size": "a whole number ≥ 1",
    "match": "true or false",
    "common_seeds": "true or false",
    "variants": ('named rule sets instead of every preset: [variants."NAME"] tables of rule options '
                 '(rules = "PRESET" picks the preset; default the one preset of presets, else classic)'),
}
"""Every key an experiment file may hold, and what it allows."""
STUDIES_DIR = Path(__file__).with_name("studies")
"""The shipped studies (``default.toml`` is what ``unosim study`` runs)."""

REQUIRED = ("seed", "games", "players")


@dataclass(frozen=True)
class Cell:
    """One cell of an experiment: a fully specified run."""

    cell: int
    preset: str
    players: int
    seating: int
    config: RunConfig

    def describe(self) -> dict[str, Any]:
        """The cell's entry in the dataset metadata."""
        return {
            "cell": self.cell,
            "rules": self.preset,
            "players": self.players,
            "seating": self.seating,
            "lineup": [str(s) for s in self.config.strategies],
            "seed": self.config.seed,
            "config": self.config.to_dict(),
            "deck": describe_deck(self.config),
            "strategy_params": describe_strategies(self.config),
        }


@dataclass(frozen=True)
class Experiment:
    """A validated experiment file."""

    name: str
    description: str
    seed: int
    games: int
    out: Path | None
    chunk_size: int | None
    pool: bool
    settings: dict[str, Any]
    cells: tuple[Cell, ...]
    source: str
    digest: str | None = None
    """sha256 of the file's text, when read from a file (the dataset metadata records it)."""


class _Checker:
    """Builds the error messages of one file: key, value, what is allowed."""

    def __init__(self, source: str) -> None:
        self.source = source

    def bad(self, key: str, value: Any, allowed: str | None = None) -> ValueError:
        allowed = allowed or ALLOWED[key.split(".")[0]]
        return ValueError(f"{self.source}: {key} = {_toml(value)} is not allowed; use {allowed}.")

    def whole(self, key: str, value: Any, low: int, high: int | None = None, allowed: str | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
            raise self.bad(key, value, allowed)
        return value

    def flag(self, key: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.bad(key, value)
        return value

    def text(self, key: str, value: Any) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.bad(key, value)
        return value


def load_experiment(path: str | Path) -> Experiment:
    """Read and validate an experiment TOML file (see the module docstring).

    Raises
    ------
    ValueError
        Naming the key, the value and what is allowed, for the first bad value.
    """
    path = Path(path)
    try:
        text = inputs.read_text(path, "experiment file")  # a leading byte-order mark is dropped
    except OSError as exc:
        raise UnosimInputError(f"cannot read the experiment file {path}: {exc.strerror or exc}.") from None
    except UnicodeDecodeError as exc:
        raise UnosimInputError(f"the experiment file {path} is not UTF-8 text ({exc}); save it as UTF-8.") from None
    try:
        data = inputs.parse_toml(text, f"the experiment file {path}")
    except tomllib.TOMLDecodeError as exc:
        raise UnosimInputError(f"{path} is not valid TOML: {exc}.") from None
    experiment = parse_experiment(data, source=str(path), default_name=path.stem)
    return dataclasses.replace(experiment, digest=inputs.digest(text))


def parse_experiment(data: dict[str, Any], *, source: str = "experiment", default_name: str = "experiment") -> Experiment:
    """Validate the contents of an experiment file and build its cells.

    Raises
    ------
    ValueError
        Naming every bad key and value of the file at once (one per line), each with what is allowed.
    """
    check = _Checker(source)
    errors: list[str] = []

    def attempt(build: Any, default: Any = None) -> Any:
        try:
            return build()
        except ValueError as exc:
            errors.append(str(exc))
            return default

    for key in (k for k in data if k not in ALLOWED):
        errors.append(f"{source}: unknown key {key!r} (= {_toml(data[key])}); the allowed keys are: {', '.join(ALLOWED)}.")
    for key in (k for k in REQUIRED if k not in data):
        errors.append(f"{source}: the key {key!r} is missing; set it to {ALLOWED[key]}.")

    name = attempt(lambda: check.text("name", data["name"]), default_name) if "name" in data else default_name
    description = attempt(lambda: check.text("description", data["description"]), "") if "description" in data else ""
    seed = attempt(lambda: check.whole("seed", data["seed"], 0), 0) if "seed" in data else 0
    games = attempt(lambda: check.whole("games", data["games"], 1), 1) if "games" in data else 1
    out = Path(attempt(lambda: check.text("out", data["out"]), "")) if "out" in data else None
    batch_size = attempt(lambda: check.whole("batch_size", data["batch_size"], 1, 1 << 20)) if "batch_size" in data else None
    chunk_size = attempt(lambda: check.whole("chunk_size", data["chunk_size"], 1)) if "chunk_size" in data else None
    match = attempt(lambda: check.flag("match", data["match"]), False) if "match" in data else False
    common_seeds = attempt(lambda: check.flag("common_seeds", data["common_seeds"]), False) if "common_seeds" in data else False

    presets = _as_list(data["presets"]) if "presets" in data else []
    if "presets" in data and (not presets or not all(isinstance(p, str) and p in PRESETS for p in presets)):
        errors.append(str(check.bad("presets", data["presets"])))
        presets = []
    if "presets" not in data and "variants" not in data:
        errors.append(f"{source}: the key 'presets' is missing; set it to {ALLOWED['presets']} (or name rule sets in "
                      "[variants]).")
    rule_sets: dict[str, RuleSet] = {p: PRESETS[p] for p in presets}
    if "variants" in data:
        rule_sets = attempt(lambda: _parse_variants(check, data["variants"], presets), {})
    players = _as_list(data.get("players"))
    if "players" in data and (not players or not all(
        isinstance(p, int) and not isinstance(p, bool) and MIN_PLAYERS <= p <= MAX_PLAYERS for p in players
    )):
        errors.append(str(check.bad("players", data["players"])))
        players = []
    for key, values in (("players", players), ("presets", presets)):
        if len(set(values)) != len(values):
            errors.append(str(check.bad(key, data[key], ALLOWED[key] + ", each at most once")))
            values.clear()

    parsed = attempt(lambda: _parse_strategies(check, data.get("strategies", "random"), players)) if players else None
    overrides = attempt(lambda: _parse_overrides(check, data.get("overrides", {}), rule_sets), {})

    cells: list[Cell] = []
    if parsed is not None and rule_sets and players:
        lineup_of, seatings, pool = parsed
    else:
        lineup_of, seatings, pool = None, 0, False
    for preset, base in rule_sets.items() if lineup_of is not None and overrides is not None else []:
        for p_index, n_players in enumerate(players):
            for seating in range(seatings):
                k = len(cells)
                seed_key = p_index * seatings + seating if common_seeds else k
                game_seq, seat_seq = np.random.SeedSequence(seed, spawn_key=(seed_key,)).spawn(2)
                cell_seed = int(game_seq.generate_state(1, np.uint64)[0] >> np.uint64(1))
                lineup = lineup_of(n_players, np.random.default_rng(seat_seq))
                rules = _cell_rules(base, overrides, n_players)
                try:
                    config = RunConfig.build(
                        rules=rules,
                        players=n_players,
                        strategies=lineup,
                        seed=cell_seed,
                        games=games,
                        batch_size=batch_size,
                        match=match,
                    )
                except ValueError as exc:
                    errors.append(
                        f"{source}: cell {k} (presets = {_toml(preset)}, players = {n_players}) cannot be "
                        f"played: {exc} Change presets, players or [overrides] (deck_copies = \"auto\" "
                        "adds decks where one cannot deal)."
                    )
                    continue
                cells.append(Cell(k, preset, n_players, seating, config))
    if len(errors) == 1:
        raise UnosimInputError(errors[0])
    if errors:
        raise UnosimInputError(f"{source} has {len(errors)} problems:\n" + "\n".join(f"- {e}" for e in errors))

    settings = {k: v for k, v in data.items() if k != "out"}
    return Experiment(
        name=name,
        description=description,
        seed=seed,
        games=games,
        out=out,
        chunk_size=chunk_size,
        pool=pool,
        settings=settings,
        cells=tuple(cells),
        source=source,
    )


def _parse_strategies(check: _Checker, value: Any, players: list[int]) -> tuple[Any, int, bool]:
    """Return (lineup(players, rng) -> list of specs, seatings per table, is a pool)."""

    def spec(key: str, text: Any) -> StrategySpec:
        if not isinstance(text, str):
            raise check.bad(key, text, "a strategy name or name(param=value, ...) as text")
        try:
            return StrategySpec.parse(text)
        except ValueError as exc:
            raise UnosimInputError(f"{check.source}: {key} = {_toml(text)} is not allowed: {exc}") from None

    if isinstance(value, str):
        one = spec("strategies", value)
        return (lambda n, rng: [one] * n), 1, False
    if isinstance(value, list):
        specs = [spec(f"strategies[{i}]", v) for i, v in enumerate(value)]
        if len(specs) == 1:
            return (lambda n, rng: specs * n), 1, False
        if len(players) != 1 or len(specs) != players[0]:
            raise check.bad(
                "strategies",
                value,
                f"one strategy per seat, so exactly as many as players (here {_toml(players)} — a single count), "
                'or one name for every seat, or a pool table { pool = [...] }',
            )
        return (lambda n, rng: list(specs)), 1, False
    if isinstance(value, dict):
        unknown = [k for k in value if k not in ("pool", "seatings")]
        if unknown:
            raise check.bad(f"strategies.{unknown[0]}", value[unknown[0]], "only the keys pool and seatings")
        if "pool" not in value:
            raise check.bad("strategies", value, 'a pool table { pool = ["random", "greedy"], seatings = 1 }')
        pool_value = value["pool"]
        if not isinstance(pool_value, list) or not pool_value:
            raise check.bad("strategies.pool", pool_value, "a non-empty list of strategy names")
        pool = [spec(f"strategies.pool[{i}]", v) for i, v in enumerate(pool_value)]
        seatings = check.whole(
            "strategies.seatings", value.get("seatings", 1), 1, 1000, "a whole number from 1 to 1000"
        )

        def lineup(n: int, rng: np.random.Generator) -> list[StrategySpec]:
            seats = [pool[i % len(pool)] for i in range(n)]
            return [seats[i] for i in rng.permutation(n)]

        return lineup, seatings, True
    raise check.bad("strategies", value)


def _parse_variants(check: _Checker, value: Any, presets: list[str]) -> dict[str, RuleSet]:
    """The named rule sets of ``[variants]``, in the file's order."""
    if not isinstance(value, dict) or not value:
        raise check.bad("variants", value)
    if len(presets) > 1:
        raise check.bad("presets", presets, "one preset (the base of the variants) or none, with [variants]")
    out = {}
    for name, options in value.items():
        if not isinstance(options, dict):
            raise check.bad(f"variants.{name}", options, "a table of rule options")
        options = dict(options)
        preset = options.pop("rules", presets[0] if presets else "classic")
        if preset not in PRESETS:
            raise check.bad(f"variants.{name}.rules", preset, f"a preset name: {', '.join(PRESETS)}")
        try:
            out[str(name)] = PRESETS[preset].replace(name=str(name), **options)
        except (ValueError, TypeError) as exc:
            raise UnosimInputError(f"{check.source}: variant {name!r} is not allowed: {exc}") from None
    return out


def _parse_overrides(check: _Checker, value: Any, presets: dict[str, RuleSet]) -> dict[str, Any]:
    """Validate the ``[overrides]`` table against every rule set."""
    if not isinstance(value, dict):
        raise check.bad("overrides", value)
    copies = value.get("deck_copies")
    if isinstance(copies, str) and copies != "auto":
        raise check.bad("overrides.deck_copies", copies, f'a whole number from 1 to {MAX_DECK_COPIES} or "auto"')
    fixed = {k: v for k, v in value.items() if not (k == "deck_copies" and v == "auto")}
    for preset, base in presets.items():
        try:
            base.replace(**fixed)
        except (ValueError, TypeError) as exc:
            key = next((k for k in fixed if repr(k) in str(exc) or f"{k}=" in str(exc)), None)
            shown = f"overrides.{key} = {_toml(fixed[key])}" if key else "[overrides]"
            raise UnosimInputError(f"{check.source}: {shown} is not allowed (preset {preset!r}): {exc}") from None
    return dict(value)


def _cell_rules(preset: RuleSet, overrides: dict[str, Any], players: int) -> RuleSet:
    """The preset with the overrides; ``deck_copies = "auto"`` becomes the fewest that deal the table."""
    fixed = {k: v for k, v in overrides.items() if not (k == "deck_copies" and v == "auto")}
    rules = preset.replace(**fixed) if fixed else preset
    if overrides.get("deck_copies") == "auto":
        rules = rules.replace(deck_copies=min(MAX_DECK_COPIES, rules.copies_needed(players)))
    return rules


def run_experiment(
    experiment: str | Path | Experiment,
    out: str | Path | None = None,
    execution: Execution | None = None,
    **options: Any,
) -> RunResult:
    """Run every cell of an experiment into one dataset.

    Parameters
    ----------
    experiment : str, Path or Experiment
        The experiment TOML file (or an already loaded [`Experiment`][unosim.runs.Experiment]).
    out : str or Path, optional
        Dataset directory; default the file's ``out``. With neither, the rows
        are returned in memory (``RunResult.table``).
    execution : Execution, optional
        How to play it, as for [`unosim.runs.run`][unosim.runs.run]; its ``chunk_size`` defaults
        to the file's ``chunk_size``, else as for a run.
    **options
        Fields of [`Execution`][unosim.runs.Execution] on top of ``execution``.

    Returns
    -------
    RunResult
        ``games`` counts every cell.
    """
    exp = experiment if isinstance(experiment, Experiment) else load_experiment(experiment)
    execution = Execution.of(execution, **options)
    target = Path(out) if out is not None else exp.out
    size = min(execution.chunk_size or exp.chunk_size or existing_chunk_size(target) or default_chunk_size(exp.games), exp.games)
    chunks = chunk_count(exp.games, size, len(exp.cells))
    pattern = files.file_pattern(chunks, cells=len(exp.cells))
    meta = new_metadata("experiment", chunk_size=size, chunks=chunks, pattern=pattern)
    meta["experiment"] = {
        "name": exp.name,
        "description": exp.description,
        "seed": exp.seed,
        "games_per_cell": exp.games,
        "source": exp.source,
        "settings": exp.settings,
    }
    texts, meta["inputs"] = read_inputs([cell.config for cell in exp.cells])
    if exp.digest is not None:
        meta["inputs"][inputs.key(exp.source)] = {"kind": "experiment file", "sha256": exp.digest}
    with inputs.pinned(dict(texts)):
        meta["cells"] = [cell.describe() for cell in exp.cells]
    parts = []
    for cell in exp.cells:
        columns: tuple[tuple[str, Any], ...] = (("cell", cell.cell), ("rules", cell.preset), ("players", cell.players))
        if exp.pool:
            columns += (("seating", cell.seating),)
        for i in range(chunks):
            first = i * size
            name = pattern.format(cell=cell.cell, chunk=i)
            parts.append(Part(cell.config, cell.cell, i, first, min(size, exp.games - first), name, columns))
    plan = Plan(json.loads(json.dumps(meta)), tuple(parts), f"{exp.name} · {len(exp.cells)} cells", texts)
    return execute(plan, target, execution)


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [value]


def _toml(value: Any) -> str:
    """A value written as in a TOML file."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    return repr(value)


__all__ = ["ALLOWED", "STUDIES_DIR", "Cell", "Experiment", "load_experiment", "parse_experiment", "run_experiment"]
