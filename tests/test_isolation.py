"""``--isolate`` isolates: a user's module is imported only in its own process, and speaks plain data.

``recording_strategy`` and ``patching_strategy`` append ``<pid> imported|called <argv[0]>`` to the file
named by ``UNOSIM_TEST_RECORD`` (passed on to the isolated processes through ``UNOSIM_ISOLATED_ENV``, in
a directory every user may write: run as root, they play as ``nobody``); ``patching_strategy`` also patches the engine of whatever process
imports it (seat 0 then wins nearly every game). Under ``--isolate`` every record comes from a process
started as ``python -m unosim.engine.isolation``, and the games are those of the honest base strategy.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import unosim
from unosim.analysis.tournament import load_tournament
from unosim.engine import isolation
from unosim.engine.config import RunConfig
from unosim.engine.decisions import StrategyError
from unosim.engine.driver import Engine
from unosim.engine.fast_paths import (
    always_catch_mask,
    asks_challenge,
    asks_forget_uno,
    asks_play_drawn,
    compiled_policy,
    forced_draw_uniforms,
)
from unosim.runs.files import read_metadata

TESTS = Path(__file__).parent
CHILD = str(Path(isolation.__file__))
HONEST = "unosim.strategy.base:Strategy"
PATCHER = "patching_strategy:PatchesEngine"


@pytest.fixture
def record() -> Iterator[Path]:
    """A record file in a directory any user may write (an isolated process may run as ``nobody``)."""
    shared = Path(tempfile.mkdtemp(prefix="unosim-record-"))
    shared.chmod(0o1777)
    yield shared / "record.txt"
    shutil.rmtree(shared, ignore_errors=True)


def _recording_env(record: Path) -> dict[str, str]:
    return dict(os.environ, UNOSIM_TEST_RECORD=str(record), UNOSIM_ISOLATED_ENV="UNOSIM_TEST_RECORD")


def _cli(record: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = _recording_env(record)
    return subprocess.run([sys.executable, "-m", "unosim", *args, "--quiet"], cwd=TESTS, env=env, capture_output=True,
                          text=True, check=True)


def _records(record: Path) -> list[tuple[int, str, str]]:
    lines = record.read_text().splitlines() if record.exists() else []
    return [(int(pid), what, argv) for pid, what, argv in (line.split(" ", 2) for line in lines)]


def _only_in_children(record: Path) -> None:
    records = _records(record)
    assert {what for _, what, _ in records} == {"imported", "called"}, records
    outside = sorted({(pid, argv) for pid, _, argv in records if argv != CHILD})
    assert not outside, f"the strategy's module was imported or called outside its own process: {outside}"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_simulate_isolated_imports_the_module_only_in_its_process_and_the_patch_changes_nothing(
    tmp_path: Path, jobs: str, record: Path
) -> None:
    _cli(record, "simulate", "--games", "300", "--players", "2", "--seed", "4", "--jobs", jobs, "--strategies",
         f"{PATCHER},random", "--out", str(tmp_path / "run"), "--isolate")
    _only_in_children(record)
    honest = unosim.simulate(games=300, players=2, seed=4, strategies=f"{HONEST},random")
    assert unosim.load(tmp_path / "run")["winner"].tolist() == honest["winner"].tolist()
    assert read_metadata(tmp_path / "run")["execution"] == {"isolated": [PATCHER], "verified": False}


def test_without_isolation_the_patch_runs_in_the_engine_and_wins(tmp_path: Path, record: Path) -> None:
    """The control: in process, the module is imported by the command's own process and its patch
    makes seat 0 win nearly every game (so the test above can fail)."""
    _cli(record, "simulate", "--games", "300", "--players", "2", "--seed", "4", "--jobs", "1", "--strategies",
         f"{PATCHER},random", "--out", str(tmp_path / "run"))
    assert any(argv != CHILD and what == "imported" for _, what, argv in _records(record))
    assert (unosim.load(tmp_path / "run")["winner"] == 0).mean() > 0.9


KEEPER = "cheating_strategies:KeepsObservation"
"""Plays as the base strategy, and sorts before ``random`` as :data:`PATCHER` does (the seatings follow the names)."""
TOURNAMENT = ("tournament", "--rules", "classic", "--games", "200", "--players", "2", "--seed", "3")


@pytest.fixture(scope="module")
def honest_tournament(tmp_path_factory: pytest.TempPathFactory) -> dict[str, float]:
    """The win rates of the same tournament with an honest strategy in the patcher's place, in process."""
    out = tmp_path_factory.mktemp("honest")
    _cli(out / "record.txt", *TOURNAMENT, "--jobs", "1", "--strategies", f"{KEEPER},random", "--out", str(out / "t"))
    return load_tournament(out / "t").leaderboard.set_index("strategy")["win_rate"].to_dict()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_tournament_isolated_imports_the_module_only_in_its_process_and_ranks_as_the_honest_strategy(
    tmp_path: Path, jobs: str, honest_tournament: dict[str, float], record: Path
) -> None:
    from unosim.reports.tournament import basis_markdown

    _cli(record, *TOURNAMENT, "--jobs", jobs, "--strategies", f"{PATCHER},random", "--out", str(tmp_path / "t"), "--isolate")
    _only_in_children(record)
    isolated = load_tournament(tmp_path / "t")
    rates = isolated.leaderboard.set_index("strategy")["win_rate"].rename({PATCHER: KEEPER}).to_dict()
    assert rates == honest_tournament
    assert isolated.isolated == (PATCHER,)
    assert read_metadata(tmp_path / "t")["execution"] == {"isolated": [PATCHER], "verified": True}
    assert f"`{PATCHER}` isolated in a process of its own" in basis_markdown(isolated)


def test_tune_isolated_imports_the_field_module_only_in_its_process(record: Path) -> None:
    code = ("import unosim; unosim.tune(rules='classic', players=2, against='recording_strategy:Records', popsize=4, "
            "games_per_candidate=50, evaluation_games=100, seed=3, budget=400, isolate=True, jobs=2)")
    subprocess.run([sys.executable, "-c", code], cwd=TESTS, env=_recording_env(record),
                   check=True, capture_output=True)
    _only_in_children(record)


def test_an_isolated_strategy_takes_no_shortcut_and_no_compiled_path() -> None:
    """Whatever the user's class declares, the engine asks its process every decision."""
    proxy = isolation.isolated("cheating_strategies:KeepsObservation", {})
    assert asks_forget_uno(proxy) and asks_play_drawn(proxy) and asks_challenge(proxy)
    assert forced_draw_uniforms(proxy) is None and compiled_policy(proxy) == 0 and always_catch_mask([proxy]) == 0
    assert proxy.label == "KeepsObservation" and proxy.describe()["class"] == "cheating_strategies:KeepsObservation"


def test_an_answer_with_a_crafted_reduce_runs_nothing_in_the_engine(tmp_path: Path, monkeypatch) -> None:
    """The strategy returns objects whose ``__reduce__`` would create a file if unpickled: the child
    cannot send them (only numbers cross), the run stops naming the strategy, no file appears."""
    marker = tmp_path / "ran"
    monkeypatch.setenv("UNOSIM_TEST_MARKER", str(marker))
    config = RunConfig.build(rules="classic", players=2, strategies="isolation_attacks:ReturnsReducer,random", seed=1)
    with pytest.raises(StrategyError, match=r"'isolation_attacks:ReturnsReducer'.*dtype object; return numbers"):
        Engine(config, isolate=True).play(0, 4)
    assert not marker.exists()


def test_a_pickle_written_into_the_pipe_is_refused_unread(tmp_path: Path, monkeypatch) -> None:
    """The strategy writes a pickle (whose ``__reduce__`` would create a file) straight into the
    protocol's pipe: the engine reads frames, finds none, stops the run and runs nothing."""
    marker = tmp_path / "ran"
    monkeypatch.setenv("UNOSIM_TEST_MARKER", str(marker))
    config = RunConfig.build(rules="classic", players=2, strategies="isolation_attacks:WritesPickle,random", seed=1)
    with pytest.raises(StrategyError, match="IsolationError .*broke the protocol"):
        Engine(config, isolate=True).play(0, 4)
    assert not marker.exists()


def _frame(header: dict, body: bytes = b"") -> io.BytesIO:
    text = json.dumps(header).encode()
    return io.BytesIO(struct.pack("<II", len(text), len(body)) + text + body)


def test_frames_round_trip_arrays_of_the_declared_layout() -> None:
    out = io.BytesIO()
    sent = {"a": np.arange(6, dtype=np.int32).reshape(2, 3), "b": np.array([True, False]), "c": np.zeros(0, np.float64)}
    isolation.write_frame(out, {"op": "x"}, sent)
    header, got = isolation.read_frame(io.BytesIO(out.getvalue()))
    assert header == {"op": "x"}
    for name, a in sent.items():
        assert got[name].dtype == a.dtype and np.array_equal(got[name], a)


@pytest.mark.parametrize(("frame", "message"), [
    (_frame({"arrays": [["v", "|O", [1]]]}, b"\0" * 8), "dtype"),
    (_frame({"arrays": [["v", "<i4", [3]]]}, b"\0" * 8), "does not fit"),
    (_frame({"arrays": [["v", "<i4", [1]]]}, b"\0" * 8), "take 4 of its 8 bytes"),
    (_frame({"arrays": [["v", "<i4", [-1]]]}, b""), "whole numbers"),
    (_frame({"arrays": [["v", "<i4", [True]]]}, b"\0" * 4), "whole numbers"),
    (_frame({"no": "arrays"}), "list of arrays"),
    (io.BytesIO(struct.pack("<II", 5, 0) + b"[[[[["), "not JSON"),
    (io.BytesIO(struct.pack("<II", isolation.MAX_HEADER + 1, 0)), "at most"),
    (io.BytesIO(struct.pack("<II", 2, isolation.MAX_BODY + 1)), "at most"),
])  # fmt: skip
def test_a_frame_that_breaks_the_protocol_is_refused(frame: io.BytesIO, message: str) -> None:
    with pytest.raises(isolation.ProtocolError, match=message):
        isolation.read_frame(frame)
