"""Failures reported as one paragraph: strategies that exit or answer out of range, OS errors, sizes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from unosim.engine.config import RunConfig
from unosim.engine.driver import Engine, StrategyError

TESTS = Path(__file__).resolve().parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))}


def _play(strategies: str, rules: str = "classic", games: int = 60) -> int:
    """Games played (all of them, or the run stops with a StrategyError)."""
    config = RunConfig.build(rules=rules, players=2, strategies=strategies, seed=0, games=games)
    return Engine(config).tables(0, games)[0].num_rows


@pytest.mark.parametrize(
    ("strategy", "raised"),
    [("hostile_strategies:Exits", "SystemExit"), ("hostile_strategies:Interrupts", "KeyboardInterrupt"),
     ("hostile_strategies:RaisesBase", "BaseException")],
)
def test_a_strategy_that_exits_or_interrupts_stops_the_run_with_an_error(strategy: str, raised: str) -> None:
    with pytest.raises(StrategyError) as info:
        _play(strategy)
    message = str(info.value)
    assert message.startswith(f"strategy {strategy!r} raised {raised} in 'play' in game ")
    assert "may not exit or interrupt the run" in message


@pytest.mark.parametrize(
    ("strategy", "decision", "what"),
    [
        ("hostile_strategies:HugeCard", "play", "value 18446744073709551615 is out of range"),
        ("hostile_strategies:HalfYes", "challenge", "answer 0.5 is not yes or no"),
        ("hostile_strategies:MinusThreeCatch", "catch_uno", "answer -3 is not yes or no"),
    ],
)
def test_answers_out_of_range_are_refused_not_wrapped(strategy: str, decision: str, what: str) -> None:
    rules = "classic" if decision == "play" else "party"
    with pytest.raises(StrategyError) as info:
        _play(f"{strategy},random(forget_uno_rate=1.0)", rules=rules, games=400)
    message = str(info.value)
    assert repr(strategy) in message and repr(decision) in message and what in message


def test_yes_no_answers_of_zero_and_one_are_taken() -> None:
    assert _play("hostile_strategies:OneZeroCatch,random(forget_uno_rate=1.0)", rules="party", games=100) == 100


def _cli(*args: str, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "unosim", *args], env=ENV, capture_output=True, text=True,
                          timeout=timeout)


def _one_paragraph(proc: subprocess.CompletedProcess[str]) -> str:
    err = proc.stderr[proc.stderr.index("error: "):]
    assert "Traceback" not in proc.stderr
    return err


def test_cli_strategy_exit_gives_a_non_zero_exit_and_a_message(tmp_path: Path) -> None:
    proc = _cli("simulate", "--players", "2", "--games", "50", "--jobs", "1", "--quiet",
                "--strategies", "hostile_strategies:Exits", "--out", str(tmp_path / "out"))
    assert proc.returncode == 1
    assert "strategy 'hostile_strategies:Exits' raised SystemExit in 'play'" in _one_paragraph(proc)


def _invoke(*args: str):
    from typer.testing import CliRunner

    from unosim.cli import app

    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_a_strategy_constructor_that_raises_is_one_paragraph_and_exit_2(tmp_path: Path) -> None:
    proc = _cli("simulate", "--players", "2", "--games", "50", "--jobs", "1", "--quiet",
                "--strategies", "hostile_strategies:BrokenInit", "--out", str(tmp_path / "out"))
    assert proc.returncode == 2
    message = _one_paragraph(proc)
    assert "strategy 'hostile_strategies:BrokenInit' could not be made: its constructor raised RuntimeError: " in message
    assert "cannot load my weights" in message


@pytest.mark.parametrize(
    ("code", "advice"),
    [(28, "the chunks already written are kept"), (13, "choose a path you may write"), (30, "read-only")],
)
def test_os_errors_while_writing_are_one_paragraph_and_lose_nothing(tmp_path: Path, monkeypatch, code: int,
                                                                    advice: str) -> None:
    """A full disk (ENOSPC), a permission (EACCES) or a read-only disk (EROFS) on the second chunk."""
    import errno
    import os as _os

    import pyarrow.parquet as pq

    import unosim

    real, calls = pq.write_table, []

    def failing(table, where, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise OSError(code, _os.strerror(code), str(tmp_path / "out" / "chunk"))
        return real(table, where, **kwargs)

    args = ["simulate", "--players", "2", "--games", "300", "--chunk-size", "100", "--jobs", "1", "--quiet",
            "--seed", "5", "--out", str(tmp_path / "out")]
    monkeypatch.setattr(pq, "write_table", failing)
    result = _invoke(*args)
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and result.output.count("\n") == 1, result.output
    assert f"({errno.errorcode[code]})" in result.output and advice in result.output
    monkeypatch.setattr(pq, "write_table", real)
    again = _invoke(*args)
    assert again.exit_code == 0, again.output
    whole = unosim.simulate(rules="classic", players=2, games=300, seed=5, jobs=1, quiet=True)
    assert unosim.load(tmp_path / "out").equals(whole)


def test_an_output_path_under_a_file_is_one_paragraph(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    result = _invoke("simulate", "--players", "2", "--games", "10", "--quiet", "--out", str(tmp_path / "file" / "out"))
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and result.output.count("\n") == 1, result.output
    assert str(tmp_path / "file") in result.output


def test_games_beyond_the_bound_are_refused_before_planning() -> None:
    import time

    from unosim.cli import app  # noqa: F401 - the CLI's imports, outside the timing

    started = time.perf_counter()
    result = _invoke("simulate", "--games", "1000000000000", "--quiet", "--jobs", "1")
    assert result.exit_code == 2
    assert "games = 1000000000000; a whole number from 1 to 10,000,000,000" in result.output
    assert time.perf_counter() - started < 5


def test_chunks_beyond_the_bound_are_refused_naming_the_chunk_size() -> None:
    import unosim

    with pytest.raises(ValueError, match=r"into 1,000,000 chunk files; a run has at most 100,000: give --chunk-size 10 or"):
        unosim.simulate(games=1_000_000, chunk_size=1, jobs=1, quiet=True)


def test_a_big_run_gets_a_chunk_size_within_the_bound() -> None:
    from unosim.runs.planning import MAX_CHUNKS, default_chunk_size

    assert default_chunk_size(10_000_000_000) * MAX_CHUNKS >= 10_000_000_000
    assert default_chunk_size(1_000_000) == 50_000 and default_chunk_size(4000) == 1000


def test_the_python_api_checks_its_values_as_the_cli_does() -> None:
    import unosim

    df = unosim.simulate(games=np.int64(20), players=np.int32(2), seed=np.uint8(3), overrides="max_turns=10",
                         jobs=1, quiet=True)
    assert len(df) == 20 and (df["turns"] <= 10).all()
    same = unosim.simulate(games=20, players=2, seed=3, overrides=["max_turns=10"], jobs=1, quiet=True)
    assert df.equals(same)
    with pytest.raises(ValueError, match="batch_size = True"):
        unosim.simulate(games=20, batch_size=True, jobs=1, quiet=True)
    with pytest.raises(ValueError, match="games = 2.0"):
        unosim.simulate(games=2.0, jobs=1, quiet=True)
    with pytest.raises(ValueError, match="overrides = 7"):
        unosim.simulate(games=20, overrides=7, jobs=1, quiet=True)
    from unosim.analysis.tournament import make_settings

    settings = make_settings(strategies="random,greedy", players=np.int64(3),
                                                        games=np.int64(600), seed=np.int64(1))
    assert type(settings.games) is int and type(settings.players) is int and type(settings.seed) is int


def test_a_real_ctrl_c_while_a_strategy_decides_still_interrupts() -> None:
    import signal

    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            _play("hostile_strategies:PressesCtrlC")
    finally:
        signal.signal(signal.SIGINT, previous)


def test_cli_strategy_raising_keyboard_interrupt_is_an_error_not_a_silent_130(tmp_path: Path) -> None:
    proc = _cli("simulate", "--players", "2", "--games", "50", "--jobs", "1", "--quiet",
                "--strategies", "hostile_strategies:Interrupts", "--out", str(tmp_path / "out"))
    assert proc.returncode == 1
    assert "strategy 'hostile_strategies:Interrupts' raised KeyboardInterrupt in 'play'" in _one_paragraph(proc)
