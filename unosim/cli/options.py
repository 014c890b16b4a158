"""The options several commands share, each declared once as a typed alias."""

from __future__ import annotations

from typing import Annotated

import typer

__all__ = ["Backend", "ChunkSize", "Isolate", "Jobs", "Overwrite", "Quiet", "Scheduler"]

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


