"""``--isolate`` as a sandbox: what a hostile strategy's process can no longer do to the engine.

A hostile strategy module is written to ``tmp_path`` (a directory only the engine's user may read). When
its strategy is made it attacks the engine from its own process: it writes into the engine's kernel cache
and working directory (a planted package), opens the engine's memory (``/proc/<parent>/mem``), reads its
environment and forks a process meant to outlive the run. It reports what happened to each attempt as
JSON in a directory every user may write (named by ``UNOSIM_TEST_HOSTILE``, which reaches its process
only because ``UNOSIM_ISOLATED_ENV`` names it). Run as root, the engine plays it as ``nobody``: every
write fails. Run as another user, it plays as that user, which the engine cannot take from it
(``docs/fair_play.md``): there the tests check the documented behaviour.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import unosim
from unosim.engine import isolation, kernel_cache, sandbox

ROOT = os.geteuid() == 0
HOSTILE = textwrap.dedent('''
    """Attacks the engine from its own process when made; reports to UNOSIM_TEST_HOSTILE."""
    import json
    import os
    import time

    from unosim.strategy.base import Strategy

    SETTINGS = json.loads(os.environ.get("UNOSIM_TEST_HOSTILE", "{}"))


    def attempt(action):
        try:
            action()
        except OSError as exc:
            return type(exc).__name__
        return "done"


    def write(path, text="planted"):
        def action():
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        return action


    def read_memory():
        with open(f"/proc/{os.getppid()}/mem", "rb") as f:
            f.read(1)


    def daemon(targets):
        """Fork a process that keeps appending to every file in ``targets`` (directories) until killed."""
        pid = os.fork()
        if pid:
            return pid
        try:
            while True:
                for directory in targets:
                    for name in os.listdir(directory) if os.path.isdir(directory) else ():
                        attempt(lambda: open(os.path.join(directory, name), "ab").write(b"tampered"))
                time.sleep(0.05)
        finally:
            os._exit(0)


    class Hostile(Strategy):
        """Plays as the base strategy; attacks once, when made."""

        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            report = {
                "uid": os.getuid(),
                "cwd": os.getcwd(),
                "env": dict(os.environ),
                "writes": {path: attempt(write(path)) for path in SETTINGS.get("writes", [])},
                "memory": attempt(read_memory),
                "parent": os.getppid(),
            }
            if "daemon" in SETTINGS:
                report["daemon"] = daemon(SETTINGS["daemon"])
            with open(os.path.join(SETTINGS["reports"], f"{os.getpid()}.json"), "w") as f:
                json.dump(report, f)
''')


@pytest.fixture
def shared() -> Iterator[Path]:
    """A directory any user may write, for the hostile process's reports."""
    path = Path(tempfile.mkdtemp(prefix="unosim-hostile-"))
    path.chmod(0o1777)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def hostile(tmp_path: Path, shared: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict]:
    """The hostile module on the engine's path, and its settings (filled in by each test)."""
    module_dir = tmp_path / "modules"
    module_dir.mkdir()
    (module_dir / "hostile_sandbox.py").write_text(HOSTILE)
    monkeypatch.syspath_prepend(str(module_dir))
    settings: dict = {"reports": str(shared), "writes": []}
    monkeypatch.setenv("UNOSIM_ISOLATED_ENV", "UNOSIM_TEST_HOSTILE")
    monkeypatch.setenv("UNOSIM_TEST_SECRET", "hunter2")
    yield settings
    isolation.stop_children()


def _make(settings: dict, monkeypatch: pytest.MonkeyPatch) -> dict:
    """Make the hostile strategy isolated; its report."""
    monkeypatch.setenv("UNOSIM_TEST_HOSTILE", json.dumps(settings))
    isolation.isolated("hostile_sandbox:Hostile", {})
    return _reports(Path(settings["reports"]))[-1]


def _reports(shared: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(shared.glob("*.json"), key=lambda p: p.stat().st_mtime)]


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


def _gone(pid: int, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while _alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_the_child_has_a_clean_environment_and_a_private_directory(hostile: dict, monkeypatch) -> None:
    report = _make(hostile, monkeypatch)
    env, private = report["env"], Path(report["cwd"])
    assert "UNOSIM_TEST_SECRET" not in env and os.environ["UNOSIM_TEST_SECRET"] == "hunter2"
    assert private.name.startswith("unosim-isolated-") and private != Path.cwd()
    assert env["HOME"] == str(private / "home") and env["TMPDIR"] == str(private / "tmp")
    assert env["NUMBA_CACHE_DIR"] == str(private / "numba-cache") != str(kernel_cache.cache_dir())
    assert env["PYTHONNOUSERSITE"] == "1" and env["PYTHONDONTWRITEBYTECODE"] == "1"
    assert set(env) <= {"PATH", "HOME", "TMPDIR", "NUMBA_CACHE_DIR", "PYTHONNOUSERSITE", "PYTHONDONTWRITEBYTECODE",
                        "UNOSIM_ISOLATION", "UNOSIM_TEST_HOSTILE", "LC_CTYPE"}, sorted(env)
    assert report["uid"] == (65534 if ROOT else os.getuid())
    isolation.stop_children()
    assert not private.exists(), "the private directory outlived its process"


def test_writes_into_the_kernel_cache_and_the_engines_directory_do_not_land(
    hostile: dict, monkeypatch, tmp_path: Path
) -> None:
    """As root the strategy plays as ``nobody``, who may write neither; as another user, both land
    (the engine cannot take a user's own rights from that user's process: docs/fair_play.md)."""
    import sysconfig

    engine_cwd = tmp_path / "engine-cwd"
    engine_cwd.mkdir(mode=0o755)
    monkeypatch.chdir(engine_cwd)
    cache = kernel_cache.cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    targets = [str(cache / "planted-by-a-strategy.nbi"), str(engine_cwd / "dateutil" / "__init__.py")]
    if ROOT:  # only a process that cannot write them tries the engine's own site-packages
        targets.append(str(Path(sysconfig.get_paths()["purelib"]) / "choix_planted" / "__init__.py"))
    hostile["writes"] = targets
    try:
        report = _make(hostile, monkeypatch)
        if ROOT:
            assert report["writes"] == {t: "PermissionError" for t in targets}
            assert not any(Path(t).exists() for t in targets)
        else:
            assert report["writes"] == {t: "done" for t in targets}
    finally:
        Path(targets[0]).unlink(missing_ok=True)
        shutil.rmtree(engine_cwd / "dateutil", ignore_errors=True)


def test_the_child_cannot_open_the_engines_memory(hostile: dict, monkeypatch) -> None:
    """As ``nobody`` (root) or because the engine made itself non-dumpable (any user)."""
    report = _make(hostile, monkeypatch)
    assert report["parent"] == os.getpid()
    assert report["memory"] == "PermissionError"


def test_a_forked_process_ends_with_its_strategy(hostile: dict, monkeypatch, shared: Path) -> None:
    hostile["daemon"] = []
    report = _make(hostile, monkeypatch)
    assert _alive(report["daemon"])
    isolation.stop_children()
    assert _gone(report["daemon"]), "the process the strategy forked outlived it"


def test_the_child_dies_with_a_killed_engine(tmp_path: Path) -> None:
    """An engine killed outright (SIGKILL: no clean-up runs) takes its isolated processes with it."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from unosim.engine import isolation; "
            "isolation.isolated('cheating_strategies:KeepsObservation', {}); "
            "child = next(iter(isolation._CHILDREN.values())); print(child.proc.pid, child.private, flush=True); "
            "import time; time.sleep(60)")
    with subprocess.Popen([sys.executable, "-c", code, str(Path(__file__).parent)], stdout=subprocess.PIPE,
                          text=True) as engine:
        try:
            assert engine.stdout is not None
            pid, private = engine.stdout.readline().split()
            child = int(pid)
            assert _alive(child)
            engine.kill()
            engine.wait()
            assert _gone(child), "the isolated process outlived the engine that started it"
        finally:
            engine.kill()
            if "private" in locals():
                shutil.rmtree(private, ignore_errors=True)  # left behind, as documented, by an engine killed outright


def test_a_run_ends_the_forked_processes_before_its_chunks_and_they_verify(
    hostile: dict, monkeypatch, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    hostile["daemon"] = [str(out)]  # it keeps appending to every file of the dataset
    monkeypatch.setenv("UNOSIM_TEST_HOSTILE", json.dumps(hostile))
    unosim.simulate(games=200, players=2, seed=5, strategies="hostile_sandbox:Hostile,random", out=out, isolate=True,
                    jobs=1)
    daemons = [r["daemon"] for r in _reports(Path(hostile["reports"]))]
    assert daemons and all(_gone(pid) for pid in daemons)
    honest = unosim.simulate(games=200, players=2, seed=5, strategies="unosim.strategy.base:Strategy,random")
    assert unosim.load(out)["winner"].tolist() == honest["winner"].tolist()


def test_the_engine_makes_itself_undumpable_when_it_starts_a_child(hostile: dict, monkeypatch) -> None:
    _make(hostile, monkeypatch)
    if sys.platform.startswith("linux"):
        import ctypes

        assert ctypes.CDLL(None).prctl(3, 0, 0, 0, 0) == 0  # PR_GET_DUMPABLE


def test_a_module_only_the_engine_may_read_is_copied_for_its_process(tmp_path: Path) -> None:
    """The private copy is what lets ``nobody`` load a module from a directory only root can read."""
    (tmp_path / "mine.py").write_text("X = 1\n")
    into = tmp_path / "private" / "module"
    into.parent.mkdir()
    user = (os.getuid(), os.getgid())
    assert sandbox.copy_module("mine.sub", [str(tmp_path)], into, user) == into
    assert (into / "mine.py").read_text() == "X = 1\n"
    assert sandbox.copy_module("not_there", [str(tmp_path)], tmp_path / "other", user) is None


def test_a_link_in_the_module_is_copied_as_a_link_not_as_what_it_points_to(tmp_path: Path) -> None:
    """Copied by root, a link to a file only root may read must not become a readable copy."""
    secret = tmp_path / "secret.txt"
    secret.write_text("root only")
    package = tmp_path / "src" / "pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "data.txt").symlink_to(secret)
    (tmp_path / "src" / "single.py").symlink_to(secret)
    into = tmp_path / "private"
    into.mkdir()
    user = (os.getuid(), os.getgid())
    sandbox.copy_module("pkg", [str(tmp_path / "src")], into / "a", user)
    sandbox.copy_module("single", [str(tmp_path / "src")], into / "b", user)
    assert (into / "a" / "pkg" / "data.txt").is_symlink() and (into / "b" / "single.py").is_symlink()


def test_as_another_user_the_child_keeps_that_user_and_imports_the_module_in_place(hostile: dict, monkeypatch) -> None:
    """The branch a non-root engine takes (here forced, whoever runs the tests): no user change, no
    copy of the module, the same clean environment and private directory."""
    monkeypatch.setattr(sandbox, "unprivileged_user", lambda: None)
    report = _make(hostile, monkeypatch)
    assert report["uid"] == os.getuid()
    assert "UNOSIM_TEST_SECRET" not in report["env"] and report["env"]["HOME"].startswith(report["cwd"])
    assert not (Path(report["cwd"]) / "module").exists()
