"""The scaled runner: determinism across jobs and chunking, resume, refusal, kill-and-resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from unosim.engine.config import RunConfig
from unosim.engine.driver import play_tables
from unosim.runs import files, reading
from unosim.runs.planning import default_chunk_size
from unosim.runs.runner import run

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module", autouse=True)
def warm_engine() -> None:
    """Compile (or load from cache) the engine here, before worker processes need it."""
    play_tables(RunConfig.build(players=2, games=1), 0, 2)


def config(**changes: object) -> RunConfig:
    base = {"players": 4, "games": 3_000, "seed": 7, "strategies": "random,greedy,random,greedy"}
    return RunConfig.build(**{**base, **changes})


def rows(path: Path):
    return reading.read_table(path)


def test_jobs_1_and_jobs_2_give_identical_datasets(tmp_path: Path) -> None:
    cfg = config()
    one = run(cfg, tmp_path / "one", jobs=1, chunk_size=400, quiet=True)
    two = run(cfg, tmp_path / "two", jobs=2, chunk_size=400, quiet=True)
    assert one.chunks == two.chunks == 8 and one.games == 3_000
    assert one.table is None and two.table is None  # written to disk, not gathered
    assert rows(tmp_path / "one").equals(rows(tmp_path / "two"))
    names = sorted(p.name for p in (tmp_path / "two").iterdir())
    assert names == [files.LOCK_FILE, "_unosim.json"] + [f"part-{i:05d}.parquet" for i in range(8)]


def test_rows_do_not_depend_on_chunking_or_memory_mode(tmp_path: Path) -> None:
    cfg = config(games=1_000)
    in_memory = run(cfg, None, jobs=1, chunk_size=1_000, quiet=True).table
    chunked = run(cfg, tmp_path / "a", jobs=1, chunk_size=333, quiet=True)
    assert chunked.chunks == 4
    assert in_memory.equals(rows(tmp_path / "a"))
    assert in_memory.column("game").to_pylist() == list(range(1_000))


def test_default_chunk_size() -> None:
    assert default_chunk_size(10) == 10
    assert default_chunk_size(10_000) == 1_250
    assert default_chunk_size(100_000) == 12_500
    assert default_chunk_size(10_000_000) == 50_000


def test_metadata_describes_the_run(tmp_path: Path) -> None:
    cfg = config(overrides=["wd4_challenge=false"], strategies="random(forget_uno_rate=0.25)")
    run(cfg, tmp_path / "a", jobs=1, chunk_size=1_000, quiet=True, extra_columns={"label": "x"})
    meta = json.loads((tmp_path / "a" / "_unosim.json").read_text())
    from unosim import __version__

    assert meta["format"] == "unosim-dataset" and meta["kind"] == "run"
    assert meta["unosim_version"] == __version__
    assert meta["config"] == json.loads(json.dumps(cfg.to_dict()))
    assert meta["config"]["rules"]["wd4_challenge"] is False
    assert meta["config"]["strategies"][0] == {"name": "random", "params": {"forget_uno_rate": 0.25}}
    assert meta["config"]["seed"] == 7
    assert meta["chunking"]["chunk_size"] == 1_000 and meta["chunking"]["chunks"] == 3
    assert len(meta["deck"]["counts"]) > 0 and meta["created"]
    assert RunConfig.from_dict(meta["config"]) == cfg
    digests = meta.pop(files.DIGESTS_KEY)  # in _unosim.json only, added as the chunks are written
    for i in range(3):
        kv = pq.read_schema(tmp_path / "a" / f"part-{i:05d}.parquet").metadata
        assert digests[f"part-{i:05d}.parquet"] == files.file_digest(tmp_path / "a" / f"part-{i:05d}.parquet")
        assert json.loads(kv[b"unosim"]) == meta
        assert json.loads(kv[b"unosim.chunk"]) == {"run": files.run_hash(meta), "seed": 7, "cell": None, "chunk": i,
                                                   "first_game": 1000 * i, "n_games": 1000}
    assert set(reading.load(tmp_path / "a")["label"]) == {"x"}


def test_resume_plays_only_missing_chunks_and_ignores_temp_files(tmp_path: Path) -> None:
    cfg = config()
    out = tmp_path / "a"
    run(cfg, out, jobs=1, chunk_size=500, quiet=True)
    reference = rows(out)
    kept = {p.name: p.stat().st_mtime_ns for p in out.glob("part-*.parquet")}
    for name in ("part-00001.parquet", "part-00004.parquet"):
        (out / name).unlink()
        del kept[name]
    # Leftovers of a killed write: a temp file, and a half-written final file
    # cannot exist (renames are atomic) but a damaged one is replayed anyway.
    (out / ".part-00001.parquet.tmp-1a2b-deadbeef").write_bytes(b"half a parquet file")
    (out / "part-00005.parquet").write_bytes(b"PAR1 damaged")
    del kept["part-00005.parquet"]

    with pytest.raises(ValueError, match="incomplete: 2 of 6"):
        reading.load(out)
    result = run(cfg, out, jobs=1, quiet=True)  # chunk size taken from the dataset
    assert result.chunks == 6 and result.chunks_played == 3 and result.chunks_resumed == 3
    assert not [p for p in out.iterdir() if p.name.startswith(".") and p.name != files.LOCK_FILE]
    assert {name: (out / name).stat().st_mtime_ns for name in kept} == kept
    assert rows(out).equals(reference)

    again = run(cfg, out, jobs=1, quiet=True)
    assert again.chunks_played == 0 and again.games_played == 0


def test_mismatched_resume_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "a"
    run(config(seed=1), out, jobs=1, chunk_size=1_000, quiet=True)
    before = rows(out)
    with pytest.raises(ValueError, match=r"other settings \(config\.seed: 1 there, 2 now\).*--overwrite"):
        run(config(seed=2), out, jobs=1, chunk_size=1_000, quiet=True)
    with pytest.raises(ValueError, match="chunking.chunk_size: 1000 there, 500 now"):
        run(config(seed=1), out, jobs=1, chunk_size=500, quiet=True)
    assert rows(out).equals(before)

    replaced = run(config(seed=2), out, jobs=1, chunk_size=500, quiet=True, overwrite=True)
    assert replaced.chunks_played == replaced.chunks == 6
    assert rows(out).equals(run(config(seed=2), None, jobs=1, quiet=True).table)


def test_directory_with_other_files_is_refused_even_with_overwrite(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    for overwrite in (False, True):
        with pytest.raises(ValueError, match="holds no unosim dataset.*'notes.txt'"):
            run(config(), tmp_path, jobs=1, quiet=True, overwrite=overwrite)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"jobs": 0}, "jobs = 0"),
        ({"backend": "spark"}, "backend = 'spark'; choose one of: loky, dask"),
        ({"chunk_size": 0}, "chunk_size = 0"),
        ({"scheduler": "tcp://127.0.0.1:8786"}, "--backend dask"),
    ],
)
def test_bad_options_are_refused_before_any_work(tmp_path: Path, options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run(config(), tmp_path / "a", quiet=True, **options)
    assert not (tmp_path / "a").exists()


def test_kill_and_resume_gives_the_uninterrupted_dataset(tmp_path: Path) -> None:
    """SIGKILL a real `unosim simulate` (and its workers) mid-way, run it again, compare."""
    out = tmp_path / "killed"
    games, chunk = 40_000, 500
    command = [
        sys.executable, "-m", "unosim", "simulate", "--players", "4", "--games", str(games),
        "--seed", "11", "--chunk-size", str(chunk), "--jobs", "2", "--quiet", "--out", str(out),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen(
        command, cwd=REPO, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline and not any(out.glob("part-*.parquet")):
        time.sleep(0.002)
    running = proc.poll() is None
    if running:
        os.killpg(proc.pid, signal.SIGKILL)  # the whole session: the run and its loky workers
    proc.wait(timeout=60)
    stderr = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    assert running, f"the run ended (exit {proc.returncode}) before it could be killed: {stderr}"
    assert proc.returncode == -signal.SIGKILL
    kept = {p.name: p.stat().st_mtime_ns for p in out.glob("part-*.parquet")}
    total = games // chunk
    # mid-run: some chunk files were written, not all
    assert 1 <= len(kept) < total, f"{len(kept)} of {total} chunk files at the kill"

    resumed = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    # the chunks finished before the kill were kept as they were, not played again
    assert {name: (out / name).stat().st_mtime_ns for name in kept} == kept
    assert files.missing_files(out) == []
    assert not [p for p in out.iterdir() if p.name.startswith(".") and p.name != files.LOCK_FILE]

    cfg = RunConfig.build(players=4, games=games, seed=11)
    reference = run(cfg, tmp_path / "reference", jobs=1, chunk_size=chunk, quiet=True)
    assert reference.chunks == total
    assert rows(out).equals(rows(tmp_path / "reference"))
    assert reading.load(out).equals(reading.load(tmp_path / "reference"))


@pytest.mark.parametrize("before, shown", [(None, "compiling the engine (first run only) ..."),
                                           (23, "compiling the engine (first run only, about 23 s) ...")])
def test_the_compile_message_is_printed_on_a_plain_log(monkeypatch: pytest.MonkeyPatch, before: int | None,
                                                       shown: str) -> None:
    """The time is announced only from a compile this machine made before; what it took is said after."""
    import io

    from rich.console import Console

    from unosim.engine import kernel_cache
    from unosim.runs import execution

    compiled = []
    monkeypatch.setattr(kernel_cache, "is_cold", lambda copy="": True)
    monkeypatch.setattr(kernel_cache, "expected_seconds", lambda copy="": before)
    monkeypatch.setattr(execution.engine, "compile_kernels", lambda configs, isolate=False: compiled.append(len(configs)))
    log = io.StringIO()
    execution.compile_engine([RunConfig.build(players=2, games=1)], Console(file=log, force_terminal=False))
    lines = log.getvalue().splitlines()
    assert compiled == [1] and len(lines) == 2
    assert lines[0] == shown and lines[1].startswith("compiled the engine in ") and lines[1].endswith(" s")


def test_the_expected_compile_time_is_what_this_machine_took(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import json

    from unosim.engine import kernel_cache

    version = tmp_path / "kernels" / "v1"
    version.mkdir(parents=True)
    monkeypatch.setattr(kernel_cache, "cache_dir", lambda: version)
    assert kernel_cache.expected_seconds() is None and kernel_cache.compiling_message() == (
        "compiling the engine (first run only)")
    (version / "compiled-abc.json").write_text(json.dumps({"seconds": 19.6}))
    assert kernel_cache.expected_seconds() == 20 and kernel_cache.expected_seconds("house") is None
    (version / "compiled-abc-house.json").write_text(json.dumps({"seconds": 31.2}))
    assert kernel_cache.expected_seconds("programs") is None and kernel_cache.expected_seconds() == 20
    (version / "compiled-abc-programs.json").write_text(json.dumps({"seconds": 24.4}))
    assert kernel_cache.compiling_message(["", "house"]) == "compiling the engine (first run only, about 51 s)"
    assert kernel_cache.compiling_message(["programs"]) == "compiling the engine (first run only, about 24 s)"
    with pytest.raises(ValueError, match="copy must be one of"):
        kernel_cache.marker("houses")


