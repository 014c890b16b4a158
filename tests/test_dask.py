"""The Dask backend: a LocalCluster on loopback gives the same dataset as loky."""

from __future__ import annotations

from pathlib import Path

import pytest

from unosim.engine.config import RunConfig
from unosim.engine.driver import play_tables
from unosim.runs import execution, files, reading, runner
from unosim.runs.experiment import parse_experiment, run_experiment

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module", autouse=True)
def warm_engine() -> None:
    """Compile (or load from cache) the engine before the Dask workers need it."""
    play_tables(RunConfig.build(players=2, games=1), 0, 2)


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as local:
        yield local


def test_dask_dataset_equals_loky_dataset(cluster, tmp_path: Path) -> None:
    config = RunConfig.build(players=3, games=2_000, seed=21, strategies="greedy,random,random")
    on_dask = runner.run(
        config, tmp_path / "dask", backend="dask", scheduler=cluster.scheduler_address, chunk_size=300, quiet=True
    )
    runner.run(config, tmp_path / "loky", jobs=2, chunk_size=300, quiet=True)
    assert on_dask.chunks == on_dask.chunks_played == 7
    assert reading.read_table(tmp_path / "dask").equals(reading.read_table(tmp_path / "loky"))
    assert files.read_metadata(tmp_path / "dask")["config"] == files.read_metadata(tmp_path / "loky")["config"]

    (tmp_path / "dask" / "part-00003.parquet").unlink()
    resumed = runner.run(config, tmp_path / "dask", backend="dask", scheduler=cluster.scheduler_address, quiet=True)
    assert resumed.chunks_played == 1
    assert reading.read_table(tmp_path / "dask").equals(reading.read_table(tmp_path / "loky"))


def test_dask_experiment_and_client_object(cluster, tmp_path: Path) -> None:
    exp = parse_experiment({"seed": 4, "games": 250, "presets": "classic", "players": [2, 4], "chunk_size": 100})
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
        run_experiment(exp, tmp_path / "dask", backend="dask", scheduler=client, quiet=True)
    run_experiment(exp, tmp_path / "loky", jobs=1, quiet=True)
    assert reading.read_table(tmp_path / "dask").equals(reading.read_table(tmp_path / "loky"))


def test_unreachable_scheduler_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(execution, "DASK_CONNECT_TIMEOUT", "0.5s")
    config = RunConfig.build(players=2, games=10)
    with pytest.raises(ValueError, match=r"cannot reach the Dask scheduler at tcp://127.0.0.1:9 .*dask scheduler"):
        runner.run(config, tmp_path / "a", backend="dask", scheduler="tcp://127.0.0.1:9", quiet=True)
    assert not (tmp_path / "a").exists()


def test_tuning_on_dask_plays_the_same_search_as_in_process(cluster) -> None:
    import unosim

    tiny = {"rules": "classic", "players": 2, "against": "random", "popsize": 4, "games_per_candidate": 200,
            "evaluation_games": 400, "seed": 3, "budget": 2 * 4 * 200}
    here = unosim.tune(**tiny)
    on_dask = unosim.tune(backend="dask", scheduler=cluster.scheduler_address, jobs=2, **tiny)
    assert on_dask.params == here.params and on_dask.history.equals(here.history)
    assert on_dask.evaluation == here.evaluation
