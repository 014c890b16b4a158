"""Datasets on disk: readable as-is by pyarrow, polars and duckdb; load() order and refusals."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

import unosim
from unosim.engine.config import RunConfig
from unosim.engine.driver import play_tables
from unosim.runs import files, reading
from unosim.runs.experiment import parse_experiment, run_experiment
from unosim.runs.runner import run


@pytest.fixture(scope="module", autouse=True)
def warm_engine() -> None:
    """Compile (or load from cache) the engine in this process first."""
    play_tables(RunConfig.build(players=2, games=1), 0, 2)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("datasets") / "run"
    run(RunConfig.build(players=3, games=1_200, seed=4), out, jobs=1, chunk_size=500, quiet=True)
    return out


@pytest.fixture(scope="module")
def experiment_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("datasets") / "experiment"
    exp = parse_experiment({"seed": 3, "games": 300, "presets": "classic", "players": [2, 5], "chunk_size": 200})
    run_experiment(exp, out, jobs=1, quiet=True)
    return out


def test_load_returns_rows_in_game_order(run_dir: Path) -> None:
    frame = unosim.load(run_dir)
    assert isinstance(frame, pd.DataFrame)
    assert list(frame["game"]) == list(range(1_200))
    assert isinstance(frame.index, pd.RangeIndex)
    assert list(unosim.load(run_dir, columns=["game"]).columns) == ["game"]
    one_file = unosim.load(run_dir / "part-00001.parquet")
    assert list(one_file["game"]) == list(range(500, 1_000))


def test_experiment_rows_sorted_by_cell_then_game(experiment_dir: Path) -> None:
    frame = unosim.load(experiment_dir)
    assert list(frame.columns[:3]) == ["cell", "rules", "players"]
    assert list(frame["cell"]) == [0] * 300 + [1] * 300
    assert list(frame["game"]) == list(range(300)) * 2
    assert list(frame.groupby("cell")["players"].first()) == [2, 5]


@pytest.mark.parametrize("which", ["run_dir", "experiment_dir"])
def test_files_read_as_they_are_with_pyarrow_polars_duckdb(which: str, request: pytest.FixtureRequest) -> None:
    import duckdb
    import polars as pl

    path: Path = request.getfixturevalue(which)
    # Leftover of an interrupted write: every reader must skip it.
    (path / ".part-00000.parquet.tmp-1-abcdef12").write_bytes(b"not parquet")
    try:
        expected = unosim.load(path)
        keys = [k for k in ("cell", "game") if k in expected.columns]
        glob = str(path / "*.parquet")

        by_pyarrow = pq.read_table(path).to_pandas()
        by_dataset = ds.dataset(path, format="parquet").to_table().to_pandas()
        by_polars = pl.read_parquet(glob).to_pandas()
        by_duckdb = duckdb.sql(f"SELECT * FROM read_parquet('{glob}') ORDER BY {', '.join(keys)}").df()
        for frame in (by_pyarrow, by_dataset, by_polars, by_duckdb):
            assert list(frame.columns) == list(expected.columns)
            assert len(frame) == len(expected)
            got = frame.sort_values(keys).reset_index(drop=True)
            pd.testing.assert_frame_equal(got[keys + ["turns"]], expected[keys + ["turns"]], check_dtype=False)
    finally:
        next(path.glob(".part-*")).unlink()


def test_read_metadata_from_directory_and_file(run_dir: Path, experiment_dir: Path) -> None:
    meta = files.read_metadata(run_dir)
    assert meta["kind"] == "run" and meta["config"]["players"] == 3
    recorded = meta.pop(files.DIGESTS_KEY)  # the chunk digests are in _unosim.json only
    assert sorted(recorded) == files.expected_files(meta)
    assert files.read_metadata(run_dir / "part-00002.parquet") == meta
    exp_meta = files.read_metadata(experiment_dir)
    assert exp_meta["kind"] == "experiment" and len(exp_meta["cells"]) == 2
    file_meta = files.read_metadata(experiment_dir / "cell-001-part-00000.parquet")
    assert file_meta["cells"] == [exp_meta["cells"][1]]
    assert files.expected_files(exp_meta) == [
        "cell-000-part-00000.parquet",
        "cell-000-part-00001.parquet",
        "cell-001-part-00000.parquet",
        "cell-001-part-00001.parquet",
    ]


def test_incomplete_dataset_is_refused_unless_allowed(tmp_path: Path) -> None:
    out = tmp_path / "a"
    run(RunConfig.build(players=2, games=900, seed=1), out, jobs=1, chunk_size=300, quiet=True)
    (out / "part-00001.parquet").unlink()
    with pytest.raises(ValueError, match=r"incomplete: 1 of 3 chunk files are missing \(first: part-00001.parquet\)"):
        unosim.load(out)
    partial = unosim.load(out, allow_incomplete=True)
    assert list(partial["game"]) == list(range(300)) + list(range(600, 900))


def test_not_a_dataset(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a unosim dataset"):
        unosim.load(tmp_path)
    with pytest.raises(ValueError, match="does not exist"):
        unosim.load(tmp_path / "nowhere")


def test_a_column_the_dataset_lacks_is_named_with_those_it_has(run_dir: Path) -> None:
    """Not "damaged, run again": the unknown names, and the columns there are, before any read."""
    chunk = next(run_dir.glob("part-*.parquet"))
    for where in (run_dir, chunk):
        with pytest.raises(ValueError, match=r"columns: 'turn', 'nope' not in .*; its columns are: game, seed, .*turns"):
            unosim.load(where, columns=["game", "turn", "nope"])
    with pytest.raises(ValueError, match=r"columns: 'turn' not in"):
        reading.read_table(run_dir, columns=["turn"])


def test_no_columns_asked_keeps_the_rows(run_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``columns=[]`` gives every row and no column (as ``frame[[]]`` does), and reads no column."""
    n = len(unosim.load(run_dir, columns=["game"]))
    chunk = next(run_dir.glob("part-*.parquet"))
    zero_columns = reading._zero_columns
    wanted: list[list[str]] = []

    def recording(footers: list[pq.FileMetaData], schema: object, names: list[str]) -> set[str]:
        wanted.append(list(names))
        return zero_columns(footers, schema, names)  # type: ignore[arg-type]

    monkeypatch.setattr(reading, "_zero_columns", recording)
    frame = unosim.load(run_dir, columns=[])
    assert frame.shape == (n, 0) and wanted == [[]]
    table = reading.read_table(run_dir, columns=[])
    assert (table.num_rows, table.num_columns) == (n, 0) and table.schema.metadata
    assert unosim.load(chunk, columns=[]).shape == (len(unosim.load(chunk, columns=["game"])), 0)


def test_file_pattern_widens_for_many_chunks() -> None:
    assert files.file_pattern(10).format(chunk=3) == "part-00003.parquet"
    assert files.file_pattern(1_000_000).format(chunk=3) == "part-000003.parquet"
    assert files.file_pattern(4, cells=2000).format(cell=7, chunk=1) == "cell-0007-part-00001.parquet"


def test_docs_list_every_column_of_a_run() -> None:
    """docs/datasets.md documents every column the engine writes."""
    from pathlib import Path

    from unosim.engine.config import RunConfig
    from unosim.engine.driver import play_tables

    page = (Path(__file__).parents[1] / "docs" / "datasets.md").read_text()
    table = play_tables(RunConfig.build(players=3, games=5), 0, 5)[0]
    for name in table.column_names:
        name = "played_<kind>" if name.startswith("played_") else name
        assert f"`{name}`" in page, name


def test_opening_hands_are_stored_as_bytes_and_load_as_lists(tmp_path: Path) -> None:
    import numpy as np
    import pyarrow as pa

    from unosim.engine.records import opening_hand_bytes, opening_hand_lists

    config = RunConfig.build(players=3, games=300, seed=5)
    run(config, tmp_path / "a", jobs=1, chunk_size=100, quiet=True)
    first = tmp_path / "a" / "part-00000.parquet"
    assert pq.read_schema(first).field("opening_hand").type == pa.binary()
    in_memory = play_tables(config, 0, 300)[0]
    assert reading.read_table(tmp_path / "a").column("opening_hand").equals(in_memory.column("opening_hand"))
    assert unosim.load(tmp_path / "a", columns=["opening_hand"]).columns.tolist() == ["opening_hand"]
    # a chunk as the first format wrote it (lists of lists) reads the same
    stored = pq.read_table(first)
    at = stored.schema.get_field_index("opening_hand")
    listed = opening_hand_lists(stored.column(at), stored.column("players").to_numpy())
    pq.write_table(stored.set_column(at, "opening_hand", listed), tmp_path / "first-format.parquet")
    first_format = reading.read_table(tmp_path / "first-format.parquet")
    assert first_format.column("opening_hand").equals(in_memory.column("opening_hand").slice(0, 100))
    # hands never dealt (E-4) are empty lists, kept through the stored form; rows of different sizes
    hands = pa.array([[[1, 2, 0], [], [0, 0, 0]], [[5, 5, 5], [6, 6, 6]], [[], [3, 0, 1]], [[7] * 7, [8] * 7]],
                     pa.list_(pa.list_(pa.int8())))
    assert opening_hand_lists(opening_hand_bytes(hands), np.array([3, 2, 2, 2])).equals(hands)


def test_columns_of_zeros_load_without_being_read(run_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A count that every chunk's statistics show to be all zeros (a rule that is off) is made, not
    read, and loads exactly as the stored column; a column with one non-zero value is read."""
    footers = [pq.read_metadata(file) for file in sorted(run_dir.glob("part-*.parquet"))]
    schema = pq.read_schema(next(run_dir.glob("part-*.parquet")))
    zeros = reading._zero_columns(footers, schema, schema.names)
    assert {"stacks", "seven_swaps", "pileups", "jump_ins"} <= zeros
    assert not zeros & {"game", "turns", "winner", "cards_drawn", "players"}
    made, again = unosim.load(run_dir), unosim.load(run_dir)
    asked = (["stacks", "turns"], ["jump_ins", "stacks"], ["opening_hand", "pileups"])
    made_some = [unosim.load(run_dir, columns=columns) for columns in asked]
    made_table = reading.read_table(run_dir)
    monkeypatch.setattr(reading, "_zero_columns", lambda *args: set())
    pd.testing.assert_frame_equal(made, unosim.load(run_dir))
    for columns, frame in zip(asked, made_some, strict=True):
        pd.testing.assert_frame_equal(frame, unosim.load(run_dir, columns=columns))
        assert list(frame.columns) == columns
    assert made_table.equals(reading.read_table(run_dir)) and made_table.column_names == schema.names
    assert list(made.columns) == schema.names
    made.loc[0, "stacks"] = 2  # a frame owns its columns, made or read
    assert made["stacks"].iloc[0] == 2 and made["stacks"].iloc[1:].eq(0).all()
    assert again["stacks"].eq(0).all()
