"""Runs whose results can be trusted: chunks that prove themselves (run identity, page checksums),
a lock on the output directory, input files read once, and SIGTERM stopping the workers."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import filelock
import pandas as pd
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner
from unosim.strategies import RULES_DIR

import unosim
from unosim.analysis.compare import Comparison
from unosim.cli import app
from unosim.engine import driver
from unosim.engine.config import RunConfig
from unosim.engine.driver import play_tables
from unosim.game import inputs
from unosim.runs import files, reading, resume
from unosim.runs.experiment import load_experiment, run_experiment
from unosim.runs.results import write_files
from unosim.runs.runner import run

SHIPPED_GREEDY = RULES_DIR / "greedy.toml"
CLASSIC_DECK = Path(unosim.__file__).parent / "game" / "decks" / "classic.toml"
DRAW_ALWAYS = 'name = "drawer"\n\n[play]\notherwise = "draw"\n'


@pytest.fixture(scope="module", autouse=True)
def warm_engine() -> None:
    """Compile (or load from cache) the engine in this process first."""
    play_tables(RunConfig.build(players=2, games=1), 0, 2)


def _config(seed: int = 1, **kw: object) -> RunConfig:
    return RunConfig.build(players=3, games=900, seed=seed, **kw)  # type: ignore[arg-type]


def _write(config: RunConfig, out: Path, **kw: object) -> None:
    run(config, out, jobs=1, chunk_size=300, quiet=True, **kw)  # type: ignore[arg-type]


def _flip_bit_in_data(path: Path, column: str = "turns") -> None:
    """Flip one bit in the middle of ``column``'s pages of a parquet file (the footer stays intact)."""
    meta = pq.read_metadata(path)
    chunk = next(meta.row_group(0).column(i) for i in range(meta.num_columns)
                 if meta.row_group(0).column(i).path_in_schema == column)
    start = chunk.dictionary_page_offset if chunk.has_dictionary_page else chunk.data_page_offset
    data = bytearray(path.read_bytes())
    data[start + chunk.total_compressed_size // 2] ^= 0x10
    path.write_bytes(bytes(data))


def _smash_data(path: Path) -> None:
    """Overwrite the middle of a parquet file's data pages with junk, leaving its footer intact."""
    meta = pq.read_metadata(path)
    data = bytearray(path.read_bytes())
    end = len(data) - meta.serialized_size - 8
    for i in range(end // 3, 2 * end // 3):
        data[i] = 0x55
    path.write_bytes(bytes(data))


# ---------------------------------------------------------------- chunks that prove themselves
def test_chunk_files_carry_the_run_identity_and_page_checksums(tmp_path: Path) -> None:
    _write(_config(seed=5), tmp_path / "a")
    meta = files.read_metadata(tmp_path / "a")
    chunk = json.loads(pq.read_metadata(tmp_path / "a" / "part-00002.parquet").metadata[files.CHUNK_KEY])
    assert chunk == {"run": files.run_hash(meta), "seed": 5, "cell": None, "chunk": 2, "first_game": 600,
                     "n_games": 300}
    assert files.run_hash(meta) != files.run_hash({**meta, "config": {**meta["config"], "seed": 6}})
    # a flipped bit is a checksum error, not a wrong value
    _flip_bit_in_data(tmp_path / "a" / "part-00002.parquet")
    with pytest.raises(OSError, match="CRC"):
        pq.read_table(tmp_path / "a" / "part-00002.parquet", page_checksum_verification=True)


def test_a_single_bit_flip_is_named_by_load_and_report_and_replayed(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "a"
    _write(_config(), out)
    expected = unosim.load(out)
    _flip_bit_in_data(out / "part-00001.parquet")
    with pytest.raises(ValueError, match=r"chunk file .*part-00001\.parquet is damaged .*run the command that "
                                         r"wrote it again with the same output directory"):
        unosim.load(out)
    from unosim.reports.dataset_report import write_report

    with pytest.raises(ValueError, match=r"part-00001\.parquet is damaged"):
        write_report(out)
    done, rejected = resume.check_chunk_files(out, [resume.ChunkFile("part-00001.parquet", 300, 300, False)])
    assert done == set() and "CRC" in rejected["part-00001.parquet"]
    run(_config(), out, jobs=1, chunk_size=300, quiet=False)
    err = " ".join(capsys.readouterr().err.split())
    assert "2 of 3 chunks already done, 1 to play" in err
    assert "part-00001.parquet damaged" in err
    pd.testing.assert_frame_equal(unosim.load(out), expected)


def test_a_chunk_with_corrupted_data_pages_is_played_again_to_the_uninterrupted_dataset(tmp_path: Path) -> None:
    uninterrupted, out = tmp_path / "whole", tmp_path / "a"
    _write(_config(), uninterrupted)
    _write(_config(), out)
    _smash_data(out / "part-00000.parquet")
    assert pq.read_metadata(out / "part-00000.parquet").num_rows == 300  # the footer still reads
    with pytest.raises(ValueError, match=r"part-00000\.parquet is damaged"):
        unosim.load(out)
    result = run(_config(), out, jobs=1, chunk_size=300, quiet=True)
    assert result.chunks_played == 1
    pd.testing.assert_frame_equal(unosim.load(out), unosim.load(uninterrupted))


def test_a_chunk_of_another_run_is_refused_by_load_and_replaced_by_resume(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    mine, other = tmp_path / "mine", tmp_path / "other"
    _write(_config(seed=1), mine)
    _write(_config(seed=2), other)
    expected = unosim.load(mine)
    shutil.copy(other / "part-00002.parquet", mine / "part-00002.parquet")
    with pytest.raises(ValueError, match=r"part-00002\.parquet was played with seed 2, not 1: it belongs to another "
                                         r"run: it is not part of"):
        unosim.load(mine)
    run(_config(seed=1), mine, jobs=1, chunk_size=300, quiet=False)
    assert "part-00002.parquet was played with seed 2, not 1" in " ".join(capsys.readouterr().err.split())
    pd.testing.assert_frame_equal(unosim.load(mine), expected)


def test_a_chunk_moved_to_another_place_of_its_run_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "a"
    _write(_config(), out)
    shutil.copy(out / "part-00000.parquet", out / "part-00001.parquet")
    with pytest.raises(ValueError, match=r"part-00001\.parquet holds chunk 0, not 1"):
        unosim.load(out)
    assert run(_config(), out, jobs=1, chunk_size=300, quiet=True).chunks_played == 1
    assert list(unosim.load(out, columns=["game"])["game"]) == list(range(900))


# ---------------------------------------------------------------- the lock
def test_a_second_run_into_a_busy_directory_is_refused_at_once(tmp_path: Path) -> None:
    out = tmp_path / "busy"
    out.mkdir()
    with filelock.FileLock(str(out / files.LOCK_FILE)):
        started = time.perf_counter()
        with pytest.raises(ValueError, match=rf"output directory {out} is in use by another unosim run"):
            _write(_config(), out)
        assert time.perf_counter() - started < 5
        assert not list(out.glob("*.parquet")) and not (out / files.METADATA_FILE).exists()
    _write(_config(), out)  # free again: the run plays
    assert len(unosim.load(out)) == 900


def test_a_second_process_is_refused_while_a_run_holds_the_directory(tmp_path: Path) -> None:
    out = tmp_path / "busy"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time, filelock; from pathlib import Path; p = Path(sys.argv[1]); "
         "p.mkdir(); lock = filelock.FileLock(str(p / '.unosim.lock')); lock.acquire(); print('held', flush=True); "
         "time.sleep(60)", str(out)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        proc = subprocess.run([str(Path(sys.executable).with_name("unosim")), "simulate", "--games", "100", "--out",
                               str(out), "--quiet"], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2
        assert f"output directory {out} is in use by another unosim run" in " ".join(proc.stderr.split())
    finally:
        holder.kill()
        holder.communicate()


# ---------------------------------------------------------------- inputs read once
def _rule_file(tmp_path: Path) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(SHIPPED_GREEDY.read_text())
    return path


def test_an_edited_rule_file_is_refused_on_resume_naming_it(tmp_path: Path) -> None:
    rules = _rule_file(tmp_path)
    config = _config(strategies=f"rules:{rules}")
    out = tmp_path / "a"
    _write(config, out)
    entry = files.read_metadata(out)["inputs"][str(rules.resolve())]
    assert entry == {"kind": "rule file", "sha256": inputs.digest(SHIPPED_GREEDY.read_text())}
    (out / "part-00001.parquet").unlink()  # an interrupted run
    rules.write_text(DRAW_ALWAYS)
    changed = rf"other settings \(strategy_params.*\): the rule file {rules.resolve()} changed since the dataset was "
    with pytest.raises(ValueError, match=changed + r"started \(sha256 [0-9a-f]{12}\.\.\. then, .*Restore that file to resume"):
        _write(_config(strategies=f"rules:{rules}"), out)
    rules.write_text(SHIPPED_GREEDY.read_text())
    assert run(config, out, jobs=1, chunk_size=300, quiet=True).chunks_played == 1


def test_an_edited_deck_file_is_refused_on_resume_naming_it(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text(CLASSIC_DECK.read_text())
    out = tmp_path / "a"
    _write(_config(deck=str(deck)), out)
    assert files.read_metadata(out)["inputs"][str(deck.resolve())]["kind"] == "deck file"
    (out / "part-00002.parquet").unlink()
    deck.write_text(CLASSIC_DECK.read_text().replace("skip = 2", "skip = 1"))
    with pytest.raises(ValueError, match=rf"the deck file {deck.resolve()} changed since"):
        _write(_config(deck=str(deck)), out)


def test_a_rule_file_edited_mid_run_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = _rule_file(tmp_path)
    config = _config(strategies=f"rules:{rules}")
    untouched = run(config, None, jobs=1, chunk_size=300, quiet=True).table
    played = []
    play_tables = driver.play_tables

    def play_then_edit(*args: object, **kwargs: object) -> object:
        played.append(args)
        result = play_tables(*args, **kwargs)  # type: ignore[arg-type]
        rules.write_text(DRAW_ALWAYS)  # later chunks find another program on disk
        return result

    monkeypatch.setattr(driver, "play_tables", play_then_edit)
    out = tmp_path / "a"
    _write(config, out)
    assert len(played) == 3
    assert rules.read_text() == DRAW_ALWAYS
    assert unosim.load(out).equals(reading.to_frame(untouched))
    assert files.read_metadata(out)["inputs"][str(rules.resolve())]["sha256"] == inputs.digest(
        SHIPPED_GREEDY.read_text())


def test_workers_receive_the_input_texts_with_each_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from unosim.runs import execution, runner

    rules, deck = _rule_file(tmp_path), tmp_path / "deck.toml"
    deck.write_text(CLASSIC_DECK.read_text())
    seen = []

    def record(part: object, directory: str | None) -> object:
        seen.append(part)
        return execution.play_part(part, directory)  # type: ignore[arg-type]

    monkeypatch.setattr(runner, "play_part", record)
    _write(_config(strategies=f"rules:{rules}", deck=str(deck)), tmp_path / "a")
    assert len(seen) == 3
    texts = dict(seen[0].inputs)
    assert texts == {str(rules.resolve()): SHIPPED_GREEDY.read_text(), str(deck.resolve()): CLASSIC_DECK.read_text()}


def test_an_edited_strategy_module_is_named_on_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = tmp_path / "mine_strategy_module.py"
    module.write_text("from unosim.strategies.random_strategy import RandomStrategy\n\n\n"
                      "class Mine(RandomStrategy):\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    config = RunConfig.build(players=2, games=400, seed=3, strategies="mine_strategy_module:Mine,random")
    out = tmp_path / "a"
    run(config, out, jobs=1, chunk_size=200, quiet=True)
    entry = files.read_metadata(out)["inputs"][str(module.resolve())]
    assert entry["kind"] == "strategy module" and entry["module"] == "mine_strategy_module"
    (out / "part-00001.parquet").unlink()
    module.write_text(module.read_text() + "# edited\n")
    with pytest.raises(ValueError, match=r"the strategy module mine_strategy_module \(.*mine_strategy_module\.py\) changed since"):
        run(config, out, jobs=1, chunk_size=200, quiet=True)


def test_an_edited_experiment_file_is_refused_on_resume_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "study.toml"
    path.write_text('seed = 3\ngames = 400\npresets = "classic"\nplayers = 2\nchunk_size = 200\n')
    out = tmp_path / "a"
    run_experiment(load_experiment(path), out, jobs=1, quiet=True)
    assert files.read_metadata(out)["inputs"][str(path.resolve())]["kind"] == "experiment file"
    (out / "cell-000-part-00001.parquet").unlink()
    path.write_text(path.read_text() + "description = \"changed\"\n")
    with pytest.raises(ValueError, match=rf"the experiment file {path.resolve()} changed since the dataset was started"):
        run_experiment(load_experiment(path), out, jobs=1, quiet=True)


# ---------------------------------------------------------------- SIGTERM
def _children(pid: int) -> list[int]:
    import psutil

    try:
        return [p.pid for p in psutil.Process(pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def _alive(pid: int) -> bool:
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_sigterm_to_a_run_stops_its_workers(tmp_path: Path) -> None:
    pytest.importorskip("psutil")
    proc = subprocess.Popen(
        [str(Path(sys.executable).with_name("unosim")), "simulate", "--games", "2000000", "--players", "2",
         "--jobs", "2", "--chunk-size", "20000", "--out", str(tmp_path / "a"), "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        deadline = time.monotonic() + 120
        workers: list[int] = []
        while time.monotonic() < deadline and len(workers) < 2 and proc.poll() is None:
            time.sleep(0.5)
            workers = _children(proc.pid)
        assert len(workers) >= 2, "the run started no worker processes"
        time.sleep(2)  # the workers are playing
        workers = _children(proc.pid)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=15)
        assert proc.returncode == 143
        assert "stopped by SIGTERM" in err and "run the same command again to resume" in err
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
            time.sleep(0.2)
        assert [pid for pid in workers if _alive(pid)] == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# ---------------------------------------------------------------- result directories, whole or not at all
def _comparison(seed: int) -> Comparison:
    levels = pd.DataFrame({"players": [2, 2], "variant": ["a", "b"], "metric": ["turns", "turns"], "mean": [seed, seed],
                           "low": [0.0, 0.0], "high": [1.0, 1.0], "games": [10, 10]})
    diffs = pd.DataFrame({"players": [2], "variant": ["b"], "baseline": ["a"], "metric": ["turns"], "diff": [float(seed)]})
    return Comparison(levels, diffs, {"kind": "comparison", "variants": ["a", "b"], "seed": seed})


def test_a_failed_table_write_leaves_the_previous_comparison_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "cmp"
    _comparison(1).save(out)
    real = pd.DataFrame.to_csv

    def fail_on_differences(self: pd.DataFrame, path: object, **kw: object) -> object:
        if "diff" in self.columns:
            raise OSError(28, "No space left on device")
        return real(self, path, **kw)

    monkeypatch.setattr(pd.DataFrame, "to_csv", fail_on_differences)
    with pytest.raises(OSError, match="No space left"):
        _comparison(2).save(out)  # the settings were written first, the tables after: seed 2 over seed 1's tables
    monkeypatch.undo()
    back = Comparison.read(out)
    assert back.settings["seed"] == 1 and (back.levels["mean"] == 1).all() and (back.differences["diff"] == 1).all()
    assert sorted(p.name for p in out.iterdir()) == ["_compare.json", "differences.csv", "levels.csv"]  # no temporary left
    _comparison(3).save(out)
    assert Comparison.read(out).settings["seed"] == 3 and (Comparison.read(out).levels["mean"] == 3).all()


def test_tables_of_another_run_are_refused_by_every_reader(tmp_path: Path) -> None:
    from unosim.analysis.cardswap import SWAP_FILE, SwapResult

    out = tmp_path / "cmp"
    _comparison(1).save(out)
    other = tmp_path / "other"
    _comparison(2).save(other)
    shutil.copy(other / "levels.csv", out / "levels.csv")  # a torn write: new table, old settings
    with pytest.raises(ValueError, match=r"is not one whole comparison: levels.csv is not the one written with these"):
        Comparison.read(out)
    result = CliRunner().invoke(app, ["report", str(out)], env={"COLUMNS": "300"})
    assert result.exit_code == 2 and "is not one whole comparison" in result.output, result.output
    assert not (out / "report").exists()
    (out / "levels.csv").unlink()
    with pytest.raises(ValueError, match="levels.csv is missing"):
        Comparison.read(out)

    swap = tmp_path / "swap"
    SwapResult(pd.DataFrame({"players": [2], "kind": ["skip"], "swap_value": [1.0]}), {"rules": "classic", "seed": 1}).save(swap)
    assert SwapResult.read(swap).settings == {"rules": "classic", "seed": 1}
    (swap / "values.csv").write_text("players,kind,swap_value\n2,skip,9.0\n")
    with pytest.raises(ValueError, match="is not one whole swap cross-check: values.csv"):
        SwapResult.read(swap)
    assert json.loads((swap / SWAP_FILE).read_text())["files"].keys() == {"values.csv"}


def test_write_files_renames_into_place_only_when_every_file_is_written(tmp_path: Path) -> None:
    out = tmp_path / "tune"
    write_files(out, {"summary.md": lambda p: p.write_text("old"), "tuned.json": lambda p: p.write_text("{}")})

    def interrupted(path: Path) -> None:
        path.write_text("half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_files(out, {"summary.md": lambda p: p.write_text("new"), "history.csv": interrupted,
                          "tuned.json": lambda p: p.write_text('{"new": 1}')})
    assert sorted(p.name for p in out.iterdir()) == ["summary.md", "tuned.json"]
    assert (out / "summary.md").read_text() == "old" and (out / "tuned.json").read_text() == "{}"


def test_a_report_that_fails_half_way_leaves_the_previous_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from unosim.reports.dataset_report import write_report

    run_dir = tmp_path / "run"
    unosim.simulate(players=2, games=200, out=run_dir, jobs=1, quiet=True)
    report = tmp_path / "report"
    first = write_report(run_dir, report, title="first")
    before = {p.name: p.read_bytes() for p in report.iterdir()}
    real = Path.write_text

    def fail_on_html(self: Path, text: str, *args: object, **kw: object) -> int:
        if self.name == "report.html":
            raise OSError(28, "No space left on device", str(self))
        return real(self, text, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "write_text", fail_on_html)
    with pytest.raises(OSError, match="No space left"):
        write_report(run_dir, report, title="second")  # the figures and report.md were written before report.html
    monkeypatch.undo()
    assert {p.name: p.read_bytes() for p in report.iterdir()} == before  # nothing of the second, no temporary
    assert "# first" in (report / "report.md").read_text()
    second = write_report(run_dir, report, title="second")
    assert [p.name for p in second] == [p.name for p in first] and "# second" in (report / "report.md").read_text()


def test_every_chunk_written_is_recorded_with_its_digest(tmp_path: Path) -> None:
    out = tmp_path / "a"
    _write(_config(), out)
    recorded = files.read_metadata(out)[files.DIGESTS_KEY]
    assert sorted(recorded) == files.expected_files(files.read_metadata(out))
    assert all(recorded[name] == files.file_digest(out / name) for name in recorded)


def test_a_chunk_rewritten_after_it_was_written_is_refused_by_name_and_played_again(tmp_path: Path) -> None:
    """A whole, readable chunk file of the same run put in another's place (what a process left behind
    could do) passes every other check: its digest finds it."""
    out = tmp_path / "a"
    _write(_config(), out)
    before = unosim.load(out)
    rewritten = pq.read_table(out / "part-00001.parquet")
    pq.write_table(rewritten.replace_schema_metadata(rewritten.schema.metadata), out / "part-00001.parquet",
                   compression="gzip")  # the same rows and metadata, other bytes
    with pytest.raises(ValueError, match=r"part-00001\.parquet changed after it was written: its sha256 is"):
        unosim.load(out)
    with pytest.raises(ValueError, match=r"part-00001\.parquet changed after it was written"):
        reading.read_table(out / "part-00001.parquet")
    _write(_config(), out)  # resuming plays it again
    pd.testing.assert_frame_equal(unosim.load(out), before)


def test_a_dataset_without_recorded_digests_still_reads(tmp_path: Path) -> None:
    out = tmp_path / "a"
    _write(_config(), out)
    meta = files.read_metadata(out)
    del meta[files.DIGESTS_KEY]
    files.write_metadata(out, meta)
    assert len(unosim.load(out)) == 900
