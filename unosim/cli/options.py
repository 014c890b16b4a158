"""The options several commands share, each declared once as a typed alias.

An option of one name means one thing in every command: one type, one help text and, but for
the few in `COMMAND_DEFAULTS`, one default. A command declares ``rules: Rules = "classic"``;
``tests/test_cli_options.py`` fails when two commands declare an option of the same name
differently. An option that means something else takes another name. Where leaving an option out
means something of its own (``bench`` without ``--rules`` measures a grid), the command takes the
``Maybe`` alias: the same option, declared once, that may be left unset.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

__all__ = [
    "COMMAND_DEFAULTS", "EXECUTION", "GAME", "SHARED", "Backend", "BatchSize", "Cell", "ChunkSize", "Deck", "Game", "Games",
    "Isolate", "Jobs", "Match", "MaybeGames", "MaybeOut", "MaybePlayers", "MaybeRules", "MaybeSeat", "MaybeStrategies", "Out",
    "Overwrite", "PlayerCounts", "Players", "Quiet", "Rules", "RunDir", "Scheduler", "Seat", "Seed", "Set", "Strategies", "shared",
]

COMMAND_DEFAULTS = frozenset({"--games", "--out", "--player-counts", "--players", "--rules", "--seat", "--strategies"})
"""Options whose default fits what each command plays (``--help`` shows it); what they count,
hold or write is the same everywhere, and each command's description says the rest."""

# ---------------------------------------------------------------- what to play
_RULES = typer.Option("--rules", help="Rules preset: classic, classic-house or party (several, comma-separated, where a "
                      "command compares rule sets).")
_PLAYERS = typer.Option("--players", help="Players at the table, 2–16.")
_STRATEGIES = typer.Option("--strategies", help="Strategies, comma-separated: one for every seat or one per seat (a name, "
                           "name(param=value) or package.module:Class).")
_GAMES = typer.Option("--games", help="Games to play (the command's description says per what).")
Rules = Annotated[str, _RULES]
Players = Annotated[int, _PLAYERS]
Strategies = Annotated[str, _STRATEGIES]
Games = Annotated[int, _GAMES]
PlayerCounts = Annotated[str, typer.Option("--player-counts", help="Player counts: 4, 2,4,8 or 2-16.")]
Seed = Annotated[int, typer.Option("--seed", help="Seed: the same seed and settings give the same games.")]
Set = Annotated[
    list[str] | None,
    typer.Option("--set", metavar="OPTION=VALUE", help="Override a rule option of the preset (repeatable).", show_default=False),
]
Deck = Annotated[
    str | None, typer.Option("--deck", metavar="FILE", help="Play this deck file (or shipped deck name).", show_default=False)
]
Match = Annotated[bool, typer.Option("--match", help="Play matches to the target score instead of single games.")]
BatchSize = Annotated[
    int | None, typer.Option("--batch-size", help="Games stepped together (never changes results).", show_default=False)
]
_SEAT = typer.Option("--seat", help="The seat whose view it is: yours when you play; in a viewer, the only hand shown "
                     "(default: every hand).")
Seat = Annotated[int, _SEAT]

# ---------------------------------------------------------------- one game of a dataset
RunDir = Annotated[
    Path | None, typer.Option("--run", help="A dataset (simulate, run, study, tournament): take the game from it.",
                              show_default=False)
]
Game = Annotated[int, typer.Option("--game", min=0, help="Game index (within its cell, for an experiment).")]
Cell = Annotated[
    int | None, typer.Option("--cell", help="Cell of an experiment, study or tournament dataset (its `cell` column; with --run).",
                             show_default=False)
]

# ---------------------------------------------------------------- where the results go
_OUT = typer.Option("--out", help="Where to write (the command's description says what).")
Out = Annotated[Path, _OUT]

# ---------------------------------------------------------------- the same options, where leaving one out means something
# (bench without --rules measures a grid, view without --seat shows every hand): the command's description says what
MaybeRules = Annotated[str | None, _RULES]
MaybePlayers = Annotated[int | None, _PLAYERS]
MaybeStrategies = Annotated[str | None, _STRATEGIES]
MaybeGames = Annotated[int | None, _GAMES]
MaybeSeat = Annotated[int | None, _SEAT]
MaybeOut = Annotated[Path | None, _OUT]

# ---------------------------------------------------------------- how to play it (unosim.runs.options.Execution)
Jobs = Annotated[
    int | None,
    typer.Option("--jobs", "-j", help="Worker processes (Dask: tasks in flight). Default: all cores.", show_default=False),
]
Backend = Annotated[str, typer.Option("--backend", help="Where chunks run: [bold]loky[/] (local processes) or [bold]dask[/].")]
Scheduler = Annotated[
    str | None,
    typer.Option("--scheduler", help="Dask scheduler address, e.g. tcp://HOST:8786 (with --backend dask).", show_default=False),
]
ChunkSize = Annotated[
    int | None,
    typer.Option("--chunk-size", help="Games per chunk file. Default: 50,000 (less for small runs).", show_default=False),
]
Overwrite = Annotated[bool, typer.Option("--overwrite", help="Replace a dataset of other settings in the output directory.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary (for scripts).")]
Isolate = Annotated[
    bool,
    typer.Option("--isolate", help="Play each strategy of your own code from a process of its own, which sees only its "
                 "observations (the same games; built-in, rule, tuned and policy strategies stay in the engine)."),
]


# ---------------------------------------------------------------- groups of options, with their defaults
_Command = TypeVar("_Command", bound=Callable[..., Any])


def _option(name: str, alias: Any, default: Any) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=alias)


SHARED = {p.name: p for p in (
    _option("jobs", Jobs, None), _option("backend", Backend, "loky"), _option("scheduler", Scheduler, None),
    _option("chunk_size", ChunkSize, None), _option("overwrite", Overwrite, False), _option("quiet", Quiet, False),
    _option("isolate", Isolate, False),
    _option("run", RunDir, None), _option("game", Game, 0), _option("cell", Cell, None), _option("rules", Rules, "classic"),
    _option("players", Players, 4), _option("seed", Seed, 0), _option("strategies", Strategies, "random"),
    _option("overrides", Set, None), _option("deck", Deck, None),
)}
"""The options a command takes through `shared`, each with its one default, by parameter name
(that of the `unosim.api` keyword it is passed on as)."""

EXECUTION = ("jobs", "backend", "scheduler", "chunk_size", "overwrite", "quiet", "isolate")
"""How to play it: the fields of [`unosim.runs.Execution`][unosim.runs.Execution], which `unosim.api` builds."""
GAME = ("run", "game", "cell", "rules", "players", "seed", "strategies", "overrides", "deck")
"""Which game: of a dataset (``--run``, ``--cell``, ``--game``) or of a table and seed."""


def shared(*names: str, first: bool = False) -> Callable[[_Command], _Command]:
    """Give a command the options ``names`` of `SHARED`, with their defaults, after its own
    (``first``: before them). The command takes them as ``**options`` and passes them on.
    """

    def add(command: _Command) -> _Command:
        signature = inspect.signature(command, eval_str=True)
        own = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in signature.parameters.values()
               if p.kind is not inspect.Parameter.VAR_KEYWORD]
        added = [SHARED[name] for name in names]
        command.__signature__ = signature.replace(parameters=added + own if first else own + added)  # type: ignore[attr-defined]
        return command

    return add
