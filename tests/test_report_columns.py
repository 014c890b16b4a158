"""Reports of big datasets stay quick because they read only the columns they need: the
player-count report never decodes the list columns, and card values stream only theirs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

import unosim
from unosim.analysis.cardvalue import COLUMNS
from unosim.reports import dataset_report
from unosim.reports.dataset_report import PLAYER_COUNT_COLUMNS


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("columns") / "run"
    unosim.simulate(rules="classic", players=3, games=1500, seed=4, out=out, chunk_size=500)
    return out


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """Every read of a dataset's table by the report (its ``read_table``) and every streamed read of a file."""
    seen: list[tuple[str, Any]] = []
    read_table, iter_batches = dataset_report.read_table, pq.ParquetFile.iter_batches

    def spy_read_table(path: Any, **kwargs: Any) -> Any:
        seen.append(("read_table", kwargs.get("columns")))
        return read_table(path, **kwargs)

    def spy_iter_batches(self: pq.ParquetFile, *args: Any, **kwargs: Any) -> Any:
        seen.append(("iter_batches", kwargs.get("columns")))
        return iter_batches(self, *args, **kwargs)

    monkeypatch.setattr(dataset_report, "read_table", spy_read_table)
    monkeypatch.setattr(pq.ParquetFile, "iter_batches", spy_iter_batches)
    return seen


def test_the_report_reads_only_the_scalar_columns_it_plots(run: Path, reads: list[tuple[str, Any]]) -> None:
    unosim.report(run)
    assert reads == [("read_table", PLAYER_COUNT_COLUMNS)]
    assert not {"opening_hand", "hand_points", "strategies"} & set(PLAYER_COUNT_COLUMNS)


def test_card_values_stream_only_their_columns(run: Path, reads: list[tuple[str, Any]]) -> None:
    unosim.report(run, card_values=True)
    assert reads[0] == ("read_table", PLAYER_COUNT_COLUMNS)
    streamed = reads[1:]
    assert len(streamed) >= 3  # one streamed read per chunk file (and again for the second pass when needed)
    assert all(r == ("iter_batches", COLUMNS) for r in streamed)


def test_a_full_load_decodes_the_strategy_names(run: Path) -> None:
    df = unosim.load(run)
    assert len(df) == 1500 and df["strategies"].iloc[0] == ["random"] * 3
    part = unosim.load(run / "part-00001.parquet")
    assert len(part) == 500 and part["strategies"].iloc[-1] == ["random"] * 3
