"""Compile once per machine: the file lock, the marker, a --jobs 2 run compiling in one process only,
and the helper process of a cold compile with its plan.

A cold compile of the engine takes minutes, so these tests never do one: the lock is
tested on a tiny cached numba function compiled by three processes at once, the run on
a copy of this machine's (warm) kernel cache without its marker, which makes the
starting process take the cold path while the workers must not, and what the workers
need on a fresh process that loads the (warm) cache. The helper compiles one small
kernel of the plan into an empty cache, and loads the whole plan from a copy of the warm one.
The games with a house rule on take a cold path of their own; one cold compile of the official
games, in a child process, shows that it leaves the house rules' kernels out.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import pytest

from unosim.engine import kernel_cache
from unosim.engine.config import RunConfig
from unosim.engine.driver import Engine

REPO = Path(__file__).resolve().parents[1]

STUB = """
import gc, sys, time
from numba import njit
from unosim.engine import kernel_cache

@njit(cache=True)
def stub(x):
    return x + 1

during = []

def first_call():
    time.sleep(1.0)  # the three processes overlap: without the lock, all three would compile
    during.append(gc.get_threshold())
    return stub(1)

before = gc.get_threshold()
assert kernel_cache.ensure_compiled(first_call, dispatchers=(stub,)) == 2
assert gc.get_threshold() == before
fewer = during == [kernel_cache.COMPILE_GC_THRESHOLD]  # the cold path collects less often
print(sum(stub.stats.cache_misses.values()), sum(stub.stats.cache_hits.values()), int(fewer))
"""

LATE = """
import json, sys
from numba.core import dispatcher, sigutils
from numba.core.caching import NullCache
from unosim.runs import runner
from unosim.engine.config import RunConfig

calls, stage, depth = [], ["compile"], [0]
compile_sig = dispatcher.Dispatcher.compile  # a Python call with argument types not seen yet, or an explicit compile

def recorded(self, sig):
    args, _ = sigutils.normalize_signature(sig)
    if depth[0] == 0 and tuple(args) not in self.overloads:  # from Python, not a callee typed inside a compile
        func = self.py_func
        calls.append((stage[0], f"{func.__module__}.{func.__qualname__}", not isinstance(self._cache, NullCache)))
    depth[0] += 1
    try:
        return compile_sig(self, sig)
    finally:
        depth[0] -= 1

dispatcher.Dispatcher.compile = recorded
compile_engine = runner.compile_engine

def then_play(*args):
    compile_engine(*args)
    stage[0] = "play"

runner.compile_engine = then_play
config = RunConfig.build(rules="party", players=4, games=2000, strategies=sys.argv[2])
runner.run(config, sys.argv[1], jobs=1, chunk_size=500, quiet=True)  # jobs=1: the chunks play in this process
print(json.dumps(calls))
"""


def _env(cache_home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(cache_home)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    return env


def _cache_of(cache_home: Path) -> Path:
    return cache_home / "unosim" / kernel_cache.cache_dir().name


def test_processes_started_together_compile_once(tmp_path: Path) -> None:
    (tmp_path / "stub_module.py").write_text(textwrap.dedent(STUB))
    env = _env(tmp_path / "cache")
    procs = [
        subprocess.Popen([sys.executable, "stub_module.py"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    outputs = [p.communicate(timeout=120)[0].split() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert sorted(outputs) == [["0", "1", "1"], ["0", "1", "1"], ["1", "0", "1"]]  # one compiled (a miss), two loaded
    log = (_cache_of(tmp_path / "cache") / kernel_cache.LOG_NAME).read_text().split("\n")
    kinds = sorted(line.split()[1] for line in log if line)
    assert kinds == ["compiled", "loaded", "loaded"]
    # with the marker written, a fourth process loads without taking the cold path
    assert subprocess.run([sys.executable, "stub_module.py"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120).stdout.split() == ["0", "1", "0"]
    assert (_cache_of(tmp_path / "cache") / kernel_cache.LOG_NAME).read_text().count("\n") == 3


def test_a_run_compiles_in_the_starting_process_only(tmp_path: Path) -> None:
    """``simulate --jobs 2`` in a cache without marker: the starting process takes the cold path
    (here it finds the kernels in the copied cache), writes the marker, then the workers load."""
    Engine(RunConfig.build(players=2, games=1)).play(0, 1)  # this machine's cache is warm from here on
    home = tmp_path / "home"
    shutil.copytree(kernel_cache.cache_dir(), _cache_of(home),
                    ignore=shutil.ignore_patterns("compiled-*", kernel_cache.LOG_NAME, "*.lock"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "unosim", "simulate", "--rules", "party", "--players", "4", "--games", "4000",
         "--chunk-size", "500", "--jobs", "2", "--out", str(tmp_path / "run")],
        env=_env(home), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    log = (_cache_of(home) / kernel_cache.LOG_NAME).read_text().split("\n")
    entries = [line.split() for line in log if line and line.split()[1] != "helper"]
    assert [e[0] for e in entries] == [str(proc.pid)]  # only the starting process took the cold path
    assert (_cache_of(home) / kernel_cache.marker().name).is_file()


HOUSE = {"stacking": "mixed"}
"""A house rule with kernels of its own (H-1)."""


def test_the_house_rule_copy_has_a_cold_path_of_its_own(tmp_path: Path) -> None:
    """With the official games' marker on this machine but not the house rules' one, the first
    game with a house rule takes the cold path (the lock, a log line, its own marker), and the
    official games still load without it."""
    for overrides in (None, HOUSE):  # this machine's cache is warm for both from here on
        Engine(RunConfig.build(players=2, games=1, overrides=overrides)).play(0, 1)
    assert kernel_cache.marker("house") != kernel_cache.marker()
    home = tmp_path / "home"
    shutil.copytree(kernel_cache.cache_dir(), _cache_of(home),
                    ignore=shutil.ignore_patterns(kernel_cache.marker("house").name, kernel_cache.LOG_NAME, "*.lock"))
    play = ("from unosim.engine.config import RunConfig; from unosim.engine.driver import Engine; import sys, json; "
            "Engine(RunConfig.build(players=2, games=1, overrides=json.loads(sys.argv[1]))).play(0, 1)")
    for overrides, logged in ((None, 0), (HOUSE, 1), (HOUSE, 1)):  # official: warm; house: cold once, then warm
        proc = subprocess.run([sys.executable, "-c", play, json.dumps(overrides)], env=_env(home), capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        log = _cache_of(home) / kernel_cache.LOG_NAME
        lines = [line.split() for line in log.read_text().splitlines()] if log.is_file() else []
        assert len([line for line in lines if line[1] != "helper"]) == logged
    assert (_cache_of(home) / kernel_cache.marker("house").name).is_file()


COLD = """
import json
from unosim.engine.config import RunConfig
from unosim.engine.driver import compile_kernels, kernel_copy_for
from unosim.game.kernels import effects, house, legality, policy, rule_policy
config = RunConfig.build(rules="party", players=4, games=1)
assert kernel_copy_for(config) == "" and kernel_copy_for(RunConfig.build(players=2, overrides={"seven_zero": True})) == "house"
assert kernel_copy_for(RunConfig.build(players=2, strategies="random,rules:attacker")) == "programs"
compile_kernels([config])
kernels = {name: getattr(module, name) for module, name in (
    (house, "house_step"), (house, "chain"), (house, "seven_zero"), (house, "house_row"), (policy, "house_policy"),
    (legality, "count_blocked"), (effects, "apply_challenge"), (effects, "apply_votes"), (rule_policy, "rules_pick"),
    (rule_policy, "rules_colour"), (rule_policy, "rules_vote"), (rule_policy, "rules_jump"))}
print(json.dumps({name: [str(sig[-1]) for sig in kernel.signatures] for name, kernel in kernels.items()}))
"""


def test_a_cold_compile_of_the_official_games_leaves_out_the_house_rules(tmp_path: Path) -> None:
    """A cold compile of the party preset (helper off: every kernel compiles in the child) compiles
    none of the house rules' kernels and none of the rule interpreter's (no rule strategy plays), and
    the kernels that take ``house`` once, for None."""
    env = {**_env(tmp_path / "home"), "UNOSIM_COMPILE_HELPER": "0"}
    proc = subprocess.run([sys.executable, "-c", COLD], env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    compiled = json.loads(proc.stdout)
    assert {name: sigs for name, sigs in compiled.items() if sigs and name not in ("apply_challenge", "apply_votes")} == {}
    assert compiled["apply_challenge"] == compiled["apply_votes"] == ["none"]


@pytest.mark.parametrize("strategies", ["random", "random,greedy,bluffer,wild-saver"])  # bluffer: the Python path
def test_compile_kernels_covers_what_the_chunks_call(tmp_path: Path, strategies: str) -> None:
    """After :func:`~unosim.engine.driver.compile_kernels` (the starting process, before any worker),
    playing and writing a run's chunks calls no engine kernel from Python for the first time:
    workers only load what the starting process compiled. And every kernel called from Python
    is cached on disk (an uncached one would compile in every worker). The batch primitives a
    Python strategy calls (:mod:`unosim.strategy.primitives`) depend on the positions it meets, which
    one game need not reach: they are not checked."""
    Engine(RunConfig.build(rules="party", players=4, games=1, strategies=strategies)).play(0, 1)  # warm cache
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-c", LATE, str(tmp_path / "run"), strategies], env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    calls = json.loads(proc.stdout)
    assert any(name == "unosim.game.kernels.advance.advance" for _, name, _ in calls)
    assert [name for stage, name, _ in calls if stage == "play" and not name.startswith("unosim.strategy.primitives.")] == []
    assert [name for _, name, cached in calls if not cached] == []


# ------------------------------------------------------------------ the helper of a cold compile
@pytest.mark.parametrize("copy", kernel_cache.COPIES)
def test_the_compile_plan_is_for_these_kernel_sources(copy: str) -> None:
    """The shipped plan of each copy of the kernels names cached functions with argument types that
    read back (constants' ``Literal[int](0)`` too); it was recorded from these kernel sources (else
    it is not used, and the cold compile takes longer)."""
    plan = kernel_cache.load_plan(copy)
    assert plan is not None, "the kernel sources changed since the plan was recorded: run python experiments/compile_plan.py"
    assert len(plan) >= 10
    for module, name, args in plan:
        kernel = getattr(__import__(module, fromlist=[name]), name)
        assert isinstance(kernel, numba.core.registry.CPUDispatcher) and kernel._cache.__class__.__name__ != "NullCache", name
        assert repr(kernel_cache.parse_types(args)) == args  # read back to the types recorded


def test_each_copy_has_a_plan_of_its_own() -> None:
    """The copies with the rule interpreter plan its kernels (the official copy does not compile
    them), the house copy the house rules' too; an unknown copy is refused."""
    names = {copy: {name for _, name, _ in kernel_cache.load_plan(copy) or []} for copy in kernel_cache.COPIES}
    interpreter = {"rules_pick", "rules_colour", "rules_vote", "rules_jump"}
    assert not interpreter & names[""]
    assert interpreter <= names["programs"] and interpreter <= names["house"]
    assert {"house_step", "house_row"} <= names["house"] - names["programs"]
    with pytest.raises(ValueError, match="copy must be one of"):
        kernel_cache.load_plan("stacking")


def test_the_helper_is_not_started_where_it_cannot_help(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("UNOSIM_COMPILE_HELPER", "0")
    assert kernel_cache.start_helper() is None
    monkeypatch.delenv("UNOSIM_COMPILE_HELPER")
    monkeypatch.setattr(kernel_cache, "_cores", lambda: 1)
    assert kernel_cache.start_helper() is None
    monkeypatch.undo()
    stale = tmp_path / "plan.json"
    stale.write_text(json.dumps({"digest": "0" * 16, "copies": json.loads(kernel_cache.PLAN.read_text())["copies"]}))
    monkeypatch.setattr(kernel_cache, "PLAN", stale)
    assert kernel_cache.load_plan() is None and kernel_cache.start_helper() is None
    partial = tmp_path / "partial.json"  # these sources, but no plan for the house copy
    plans = json.loads(stale.read_text())["copies"]
    partial.write_text(json.dumps({"digest": kernel_cache.kernels.SOURCE_DIGEST, "copies": {"": plans[""]}}))
    monkeypatch.setattr(kernel_cache, "PLAN", partial)
    monkeypatch.setattr(kernel_cache, "_cores", lambda: 2)
    assert kernel_cache.load_plan("") is not None and kernel_cache.load_plan("house") is None
    assert kernel_cache.start_helper("house") is None


def test_a_helper_still_running_is_stopped(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(kernel_cache, "cache_dir", lambda: tmp_path)  # an empty cache: it has a minute of work
    monkeypatch.setattr(kernel_cache, "_cores", lambda: 2)
    helper = kernel_cache.start_helper()
    assert helper is not None and helper.poll() is None
    kernel_cache._stop(helper)
    assert helper.returncode is not None


HELPER_ONE = """
import sys
from unosim.engine import kernel_cache
from unosim.game.kernels.finish import walk_alive
plan = [e for e in kernel_cache.load_plan() if e[1] == "walk_alive"]
stale = [("unosim.game.kernels.finish", "no_such_kernel", "(int64,)"), ("unosim.game.kernels.finish", "walk_alive", "(int64, nonsense)")]
done, compiled = kernel_cache.compile_plan(stale + plan)
print(len(plan), done, compiled, sum(walk_alive.stats.cache_hits.values()))
"""


def test_the_helper_compiles_its_plan_into_the_cache(tmp_path: Path) -> None:
    """Entries that no longer name a kernel or whose types do not parse are passed over; the others
    compile into the cache, where the next process finds them."""
    env = {**_env(tmp_path / "home"), "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-c", HELPER_ONE], env=env, capture_output=True, text=True, timeout=300)
            for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr + runs[1].stderr
    (n, done, compiled, hits), again = (list(map(int, r.stdout.split())) for r in runs)
    assert n >= 1 and done == compiled == n and hits == 0  # the first process compiled every signature
    assert again == [n, n, 0, n]  # the second loaded them all


def test_the_helper_loads_the_whole_plan_from_a_warm_cache(tmp_path: Path) -> None:
    """Every entry of the plan is a kernel and signature a compile of the engine put in the cache:
    on a copy of this machine's warm cache the helper loads them all and compiles none."""
    Engine(RunConfig.build(players=2, games=1)).play(0, 1)  # this machine's cache is warm from here on
    cache = tmp_path / "cache"
    shutil.copytree(kernel_cache.cache_dir(), cache, ignore=shutil.ignore_patterns(kernel_cache.LOG_NAME, "*.lock"))
    env = {**_env(tmp_path / "home"), "NUMBA_CACHE_DIR": str(cache)}
    proc = subprocess.run([sys.executable, "-c", "from unosim.engine.kernel_cache import run_helper; run_helper()"],
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    (line,) = (cache / kernel_cache.LOG_NAME).read_text().splitlines()
    pid, kind, done, compiled, seconds, peak = line.split()
    assert kind == "helper" and int(done) == len(kernel_cache.load_plan() or []) and int(compiled) == 0
    assert float(seconds) > 0 and float(peak) > 0
