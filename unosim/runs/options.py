"""How a run is executed — workers, backend, chunks, what to do with an existing directory, output —
in one validated value, built once by the CLI or the Python API and passed down.

None of it changes a game: the records depend on the [`RunConfig`][unosim.RunConfig]
alone. Adding an execution option means adding a field here (with its check) and, for the CLI,
an option in `unosim.cli`; every layer below receives the one object.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from ..game.errors import UnosimInputError
from ..strategy.parameters import Flag, Interval

__all__ = ["BACKENDS", "IN_PROCESS", "Execution"]

BACKENDS = ("loky", "dask")
"""joblib backends: loky processes on this machine, or a Dask cluster."""

_WHOLE = Interval(1, math.inf, whole=True)
_FLAG = Flag()


@dataclass(frozen=True)
class Execution:
    """How to play a run's chunks and where to put them (never what is played).

    Parameters
    ----------
    jobs : int or None
        Worker processes (loky) or tasks in flight (Dask); ``None``: all cores (loky) or all
        workers (Dask); ``1`` plays in this process.
    backend : {"loky", "dask"}
        joblib backend.
    scheduler : str or distributed.Client, optional
        Dask only: the scheduler address ``tcp://HOST:PORT`` or a client; default the current
        client, else a new local cluster.
    chunk_size : int, optional
        Games per chunk file (a tournament: deals per cell); default chosen by the run's size, or
        when resuming the existing dataset's.
    overwrite : bool
        Replace a dataset of other settings in the output directory instead of refusing.
    quiet : bool
        No progress bar or messages.
    isolate : bool
        Play each user strategy (a class of the user's, not a built-in, rule, tuned or policy
        file) from a process of its own, which receives only its observations
        (`unosim.engine.isolation`); the same games, at the cost of a round trip per decision
        batch. Plan and run inside `unosim.strategy.registry.user_code_isolated` so that the
        user's module is never imported in the engine's processes.

    Raises
    ------
    ValueError
        For a bad value, naming it and what is allowed.
    """

    jobs: int | None = None
    backend: str = "loky"
    scheduler: Any = None
    chunk_size: int | None = None
    overwrite: bool = False
    quiet: bool = False
    isolate: bool = False

    def __post_init__(self) -> None:
        if self.jobs is not None and not _WHOLE.allows(self.jobs):
            raise UnosimInputError(f"jobs = {self.jobs!r}; give a whole number ≥ 1 (--jobs N), or leave it unset for all cores.")
        if self.backend not in BACKENDS:
            raise UnosimInputError(f"backend = {self.backend!r}; choose one of: {', '.join(BACKENDS)}.")
        if self.scheduler is not None and self.backend != "dask":
            raise UnosimInputError("a scheduler address only applies to the Dask backend; add --backend dask.")
        if self.chunk_size is not None and not _WHOLE.allows(self.chunk_size):
            raise UnosimInputError(f"chunk_size = {self.chunk_size!r}; give a whole number of games ≥ 1, or leave it unset.")
        for name in ("overwrite", "quiet", "isolate"):
            if not _FLAG.allows(getattr(self, name)):
                raise UnosimInputError(f"{name} = {getattr(self, name)!r}; give True or False.")

    @classmethod
    def of(cls, execution: Execution | None = None, **options: Any) -> Execution:
        """``execution`` with ``options`` (field names of [`Execution`][unosim.runs.Execution]) on top.

        Raises
        ------
        TypeError
            For a keyword that is no execution option.
        """
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise TypeError(f"unknown execution option {unknown[0]!r}; the options are: {', '.join(sorted(known))}.")
        base = execution if execution is not None else cls()
        return dataclasses.replace(base, **options) if options else base

    @classmethod
    def take(cls, execution: Execution | None, kwargs: dict[str, Any], default: Execution) -> tuple[Execution, dict[str, Any]]:
        """The execution options among ``kwargs`` (a call's keyword arguments) on top of ``execution``
        (``default`` when None), and the keyword arguments left."""
        known = {f.name for f in dataclasses.fields(cls)}
        options = {k: v for k, v in kwargs.items() if k in known}
        return cls.of(execution or default, **options), {k: v for k, v in kwargs.items() if k not in known}

    def replace(self, **changes: Any) -> Execution:
        """A validated copy with ``changes``."""
        return dataclasses.replace(self, **changes)


IN_PROCESS = Execution(jobs=1, quiet=True)
"""The default of the Python API and of the analyses: one process, no progress bar."""
