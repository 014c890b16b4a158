"""Nothing unosim reads from a directory can run code, and metadata of the wrong shape is a clear error.

A pickle whose loading would create a marker file is planted, under every name unosim might
load, into each directory unosim reads (a dataset, its rounds, a tournament, a tune directory,
a report directory); every command then runs and the marker never appears.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
from typer.testing import CliRunner

import unosim
from unosim.cli import app
from unosim.runs import files, resume

PLANTED = ("state.pkl", "state.json.pkl", "_unosim.pkl", "part-00000.pkl", "metadata.pkl", "data.npy", "tuned.pkl",
           "cache.joblib")
"""File names a loader might try; none of them is read."""


class _Payload:
    """Unpickling this calls ``open(MARKER, "w")``."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self):  # noqa: ANN204 - pickle protocol
        return (open, (self.marker, "w"))


def _plant(directory: Path, marker: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    payload = pickle.dumps(_Payload(marker))
    for name in PLANTED:
        (directory / name).write_bytes(payload)


def _invoke(*args: str) -> None:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output


def test_planted_pickles_run_nothing_in_any_directory_unosim_reads(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    run = tmp_path / "run"
    _invoke("simulate", "--players", "2", "--games", "200", "--chunk-size", "100", "--jobs", "1", "--quiet",
            "--out", str(run))
    _plant(run, marker)
    (run / "part-00001.parquet").unlink()  # resume reads the directory and plays the missing chunk
    _invoke("simulate", "--players", "2", "--games", "200", "--chunk-size", "100", "--jobs", "1", "--quiet",
            "--out", str(run))
    assert len(unosim.load(run)) == 200
    _invoke("report", str(run), "--out", str(tmp_path / "report"))
    _plant(tmp_path / "report", marker)
    _invoke("report", str(run), "--out", str(tmp_path / "report"))

    matches = tmp_path / "matches"
    _invoke("simulate", "--players", "2", "--games", "20", "--match", "--jobs", "1", "--quiet", "--out", str(matches))
    _plant(matches / "rounds", marker)
    assert len(unosim.load(matches, table="rounds")) > 0

    tour = tmp_path / "tour"
    _invoke("tournament", "--strategies", "random,greedy", "--players", "2", "--games", "400", "--jobs", "1",
            "--quiet", "--out", str(tour))
    _plant(tour, marker)
    _plant(tour / "report", marker)
    _invoke("tournament", "--strategies", "random,greedy", "--players", "2", "--games", "400", "--jobs", "1",
            "--quiet", "--out", str(tour))

    tune = tmp_path / "tune"
    _plant(tune, marker)
    _invoke("tune", "--players", "2", "--against", "random", "--popsize", "4", "--games-per-candidate", "100",
            "--evaluation-games", "100", "--budget", "400", "--quiet", "--out", str(tune))
    _invoke("tune", "--players", "2", "--against", "random", "--popsize", "4", "--games-per-candidate", "100",
            "--evaluation-games", "100", "--budget", "400", "--quiet", "--out", str(tune))
    _invoke("simulate", "--players", "2", "--games", "20", "--jobs", "1", "--quiet",
            "--strategies", f"tuned:{tune / 'tuned.json'},random")
    assert not marker.exists()


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("[]", "a JSON list instead of an object"),
        ('"text"', "a JSON str instead of an object"),
        ('{"format": "unosim-dataset", "kind": "run", "chunking": []}', "chunking is not an object"),
        ('{"format": "other"}', "format = \"other\""),
        ('{"format": "unosim-dataset", "kind": "run", "chunking": {"chunk_size": 1, "chunks": 1e300}}',
         "chunking.chunks = 1e+300"),
        ('{"format": "unosim-dataset", "kind": "run", "chunking": {"chunk_size": 1, "chunks": 1, '
         '"file_pattern": "../../etc/{chunk}"}, "config": {}}', "is not a chunk file name pattern"),
    ],
)
def test_metadata_of_the_wrong_shape_names_the_file(tmp_path: Path, content: str, problem: str) -> None:
    run = tmp_path / "run"
    unosim.simulate(players=2, games=50, out=run, jobs=1, quiet=True)
    (run / files.METADATA_FILE).write_text(content)
    with pytest.raises(ValueError, match="is not unosim dataset metadata of the expected shape") as info:
        unosim.load(run)
    assert str(run / files.METADATA_FILE) in str(info.value) and problem in str(info.value)
    with pytest.raises(ValueError, match="expected shape"):
        unosim.simulate(players=2, games=50, out=run, jobs=1, quiet=True)
    result = CliRunner().invoke(app, ["report", str(run)], env={"COLUMNS": "300"})
    assert result.exit_code == 2 and "expected shape" in result.output and "Traceback" not in result.output


def test_chunk_metadata_of_the_wrong_shape_is_not_counted_done(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    run = tmp_path / "run"
    unosim.simulate(players=2, games=50, out=run, jobs=1, quiet=True)
    chunk = next(run.glob("part-*.parquet"))
    table = pq.read_table(chunk)
    meta = dict(table.schema.metadata)
    meta[files.CHUNK_KEY] = json.dumps([1, 2]).encode()
    pq.write_table(table.replace_schema_metadata(meta), chunk)
    assert resume.check_chunk_files(run, [resume.ChunkFile(chunk.name, 0, 50, False)])[0] == set()
