"""Runs: many games planned into chunks, played by workers and written as a parquet dataset.

`unosim.runs.planning` cuts a run into chunks and writes its metadata;
`unosim.runs.execution` plays them with joblib or Dask; `unosim.runs.runner` ties
the two and resumes an interrupted run; `unosim.runs.files` holds the dataset's format
and writes its files, `unosim.runs.reading` reads them (``load``), `unosim.runs.directory`
keeps the output directory and its lock, `unosim.runs.resume` finds the chunks done;
`unosim.runs.experiment` runs an experiment file (cells of
rules × player counts × strategies, ``studies/default.toml`` is the default study);
`unosim.runs.progress` draws the progress bar; `unosim.runs.options` holds
[`Execution`][unosim.runs.Execution], how a run is played (workers, backend, chunks, overwrite, quiet), built once by
the faces and passed down; `unosim.runs.results` writes a result directory of several files
whole or not at all.

May import: [`unosim.game`][unosim.game], [`unosim.strategy`][unosim.strategy] and [`unosim.engine`][unosim.engine].
"""

from .experiment import Experiment, load_experiment, parse_experiment, run_experiment
from .files import read_metadata
from .options import Execution
from .reading import load, read_table
from .runner import RunResult, run

__all__ = ["Execution", "Experiment", "RunResult", "load", "load_experiment", "parse_experiment", "read_metadata", "read_table", "run",
           "run_experiment"]

# The modules of this package that other packages may import beside the face (__all__), and the
# names each lends them; () lends the module only, imported whole as a namespace.
# tests/test_architecture.py refuses any other import from outside the package.
PUBLIC_MODULES: dict[str, tuple[str, ...]] = {
    "unosim.runs.execution": ("compile_engine", "parallel"),
    "unosim.runs.experiment": ("STUDIES_DIR",),
    "unosim.runs.files": (),
    "unosim.runs.options": ("IN_PROCESS",),
    "unosim.runs.planning": ("Part", "Plan", "default_chunk_size", "describe_deck", "describe_strategies", "existing_chunk_size",
                             "new_metadata"),
    "unosim.runs.progress": ("PrintableConsole", "console", "progress_bar"),
    "unosim.runs.reading": (),
    "unosim.runs.results": ("read_result", "write_files", "write_result", "write_whole"),
    "unosim.runs.runner": ("execute",),
}
