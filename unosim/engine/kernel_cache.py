"""Compile the engine once per machine, and say so while it happens.

numba compiles the engine kernel on its first call in a process and keeps the
machine code in a disk cache (`unosim.game.kernels`: one directory per version
of the kernel sources). A cold compile is long and takes much memory (``docs/performance.md``), so
processes must not compile it side by side: the first kernel call
of every process goes through `ensure_compiled`. While the cache
directory has no marker file yet (a cold cache), that call holds a file lock
in the cache directory: one process compiles, the others (loky or Dask
workers, a second run started at the same time) wait for the lock and then
load what it wrote. Once the marker exists, processes load the cache without
locking. A run's starting process compiles before any worker starts
(`unosim.runs.runner.execute`), showing "compiling the engine" instead of a
games/s figure that would include the compile.

The kernels come in three compiled copies (`COPIES`, `kernel_copy`), each with a marker
and a cold compile of its own, made the first time a run needs it: the official games'
(``""``); the same with the rule strategies' interpreter (``"programs"``, a line-up with a
rule strategy: `unosim.game.encoding.copy_flags`); and the house rules' copy
(``"house"``, a house rule on: `unosim.game.encoding.copy_flags`), which carries the
interpreter too. The official games with the shipped compiled strategies compile the
smallest.

Each process that took the cold path appends one line to ``compile.log`` in
the cache directory: its pid, ``compiled`` or ``loaded`` (another process
had compiled meanwhile), and the seconds spent.

While it compiles, the process runs Python's garbage collector less often
(`COMPILE_GC_THRESHOLD`): numba keeps millions of objects alive during a
compile, and with the default thresholds the collector would scan them again and
again.

A cold compile of the engine uses a second core when there is one: numba
first inlines the per-turn rules into ``advance`` and infers its types
(nothing else can happen meanwhile), then compiles, one after the
other, the functions ``advance`` calls (``kernel`` and ``leaf`` functions,
all cached: `unosim.game.kernels.jit`). A helper process (`run_helper`,
started by `ensure_compiled`) compiles those into the cache meanwhile,
from the shipped `PLAN` (the functions and argument types, in the order
``advance`` reaches them, for each copy of the kernels), working from the plan's end, and the compiling process loads them from the
cache when it gets there. The same code either way: a cached function keeps
its LLVM IR, which is what ``advance`` links and inlines; the plan only
decides who compiles it. A plan made for other kernel
sources (`SOURCE_DIGEST`) is not used;
``experiments/compile_plan.py`` writes it anew. ``UNOSIM_COMPILE_HELPER=0``
turns the helper off. It logs ``<pid> helper <kernels> <compiled> <seconds> <peak MiB>``.
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import numba
from filelock import FileLock

from ..game import kernels

__all__ = [
    "COMPILE_GC_THRESHOLD", "COPIES", "LOG_NAME", "PLAN", "cache_dir", "compile_plan", "compiling_message", "ensure_compiled",
    "expected_seconds", "is_cold", "kernel_copy", "load_plan", "marker", "parse_types", "run_helper", "start_helper",
]

T = TypeVar("T")

LOG_NAME = "compile.log"
PLAN = Path(kernels.__file__).with_name("compile_plan.json")
"""For each copy of the kernels (`COPIES`), the cached functions a cold compile of its ``advance``
compiles on its way, as ``[module, function, argument types]`` in the order it reaches them, with the
`SOURCE_DIGEST` of the sources it was recorded from (``experiments/compile_plan.py`` records it):
``{"digest": ..., "copies": {copy: [entry, ...]}}``."""
COMPILE_GC_THRESHOLD = (100_000, 50, 50)
"""The garbage collector's thresholds (`gc.set_threshold`) during a cold compile; Python's
are (700, 10, 10). Higher thresholds make full collections rare while a compile keeps millions of
objects alive, for little more peak memory; the collector stays on, since disabling it would save
little more time for several times that memory."""

COPIES = ("", "programs", "house")
"""The compiled copies of the kernels, by name: the official games with compiled policies only, the
same with the rule interpreter, and the house rules' copy (with the interpreter)."""

_ready: set[tuple[Any, ...]] = set()  # the dispatcher sets called in this process


def cache_dir() -> Path:
    """The numba cache directory of the kernels."""
    return Path(numba.config.CACHE_DIR)  # type: ignore[attr-defined]  # set by unosim.game.kernels


def kernel_copy(house: int | None, programs: int | None) -> str:
    """The name (`COPIES`) of the copy the kernels' ``house`` and ``programs`` arguments select."""
    return "house" if house is not None else "programs" if programs is not None else ""


def _check_copy(copy: str) -> None:
    if copy not in COPIES:
        raise ValueError(f"copy must be one of {COPIES}, not {copy!r}")


def marker(copy: str = "") -> Path:
    """The file written after a successful compile of this version of the kernels, in the copy named
    ``copy`` (`COPIES`)."""
    _check_copy(copy)
    return cache_dir() / f"compiled-{kernels.SOURCE_DIGEST}{'-' + copy if copy else ''}.json"


def _copy_of(path: Path) -> str:
    """The copy whose marker ``path`` is."""
    parts = path.stem.split("-")
    return parts[2] if len(parts) > 2 else ""


def is_cold(copy: str = "") -> bool:
    """Whether the kernels of this version, in the copy named ``copy``, have not been compiled on
    this machine yet."""
    return not marker(copy).is_file()


def expected_seconds(copy: str = "") -> int | None:
    """How long a cold compile of the kernels' copy ``copy`` will take here: what the last such
    compile of any version took on this machine, or ``None`` when none has been made here (a first
    compile's time depends too much on the machine to guess)."""
    _check_copy(copy)
    found = [p for p in cache_dir().parent.glob("*/compiled-*.json") if _copy_of(p) == copy]
    for path in sorted(found, key=lambda p: p.stat().st_mtime, reverse=True):
        try:
            return max(1, round(json.loads(path.read_text())["seconds"]))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return None


def compiling_message(cold: Iterable[str] = ("",)) -> str:
    """What to show while the kernels compile: ``cold`` names each copy to compile (`COPIES`,
    `is_cold`); the time this machine took before, when it has compiled them before."""
    seconds = [expected_seconds(copy) for copy in cold]
    known = None if None in seconds else sum(s or 0 for s in seconds)
    return "compiling the engine (first run only" + (f", about {known} s)" if known else ")")


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """Run the garbage collector with `COMPILE_GC_THRESHOLD`, then as before."""
    before = gc.get_threshold()
    gc.set_threshold(*COMPILE_GC_THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _misses(dispatchers: Iterable[Any]) -> int:
    return sum(sum(d.stats.cache_misses.values()) for d in dispatchers)


def ensure_compiled(call: Callable[[], T], dispatchers: Iterable[Any] | None = None, *, copy: str = "") -> T:
    """Make the first kernel call of this process, compiling at most once per machine.

    Parameters
    ----------
    call : callable
        The first call of the kernels (it compiles them or loads them from the cache).
    dispatchers : iterable of numba dispatchers, optional
        The kernels ``call`` compiles (default: the engine's ``advance``); their cache
        misses tell whether this process compiled or loaded.
    copy : str, default ""
        The kernels' copy ``call`` compiles (`COPIES`, `kernel_copy`): each has a cold compile
        (and marker) of its own.

    Returns
    -------
    The result of ``call()``.
    """
    engine = dispatchers is None
    if dispatchers is None:
        from ..game.kernels.advance import advance

        dispatchers = (advance,)
    dispatchers = tuple(dispatchers)
    key = (*map(id, dispatchers), copy)
    if key in _ready or not is_cold(copy):
        result = call()
        _ready.add(key)
        return result
    directory = cache_dir()
    directory.mkdir(parents=True, exist_ok=True)
    with FileLock(directory / "compile.lock"), _fewer_collections():
        started = time.perf_counter()
        before = _misses(dispatchers)
        helper = start_helper(copy) if engine and is_cold(copy) else None
        try:
            result = call()
        finally:
            _stop(helper)
        seconds = time.perf_counter() - started
        compiled = _misses(dispatchers) > before
        if compiled or is_cold(copy):
            marker(copy).write_text(json.dumps({"seconds": round(seconds, 1), "pid": os.getpid(), "compiled": compiled}))
        with open(directory / LOG_NAME, "a") as log:
            log.write(f"{os.getpid()} {'compiled' if compiled else 'loaded'} {seconds:.1f}\n")
    _ready.add(key)
    return result


# ------------------------------------------------------------------ the helper of a cold compile
def load_plan(copy: str = "") -> list[tuple[str, str, str]] | None:
    """The entries of `PLAN` for the kernels' copy ``copy`` (`COPIES`), or ``None`` when it was made for
    other kernel sources (or is missing, or has no entries for that copy)."""
    _check_copy(copy)
    try:
        plan = json.loads(PLAN.read_text())
        entries = plan["copies"][copy] if plan.get("digest") == kernels.SOURCE_DIGEST else None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return None if entries is None else [tuple(entry) for entry in entries]


def start_helper(copy: str = "") -> subprocess.Popen[bytes] | None:
    """Start the process that compiles the `PLAN` of the kernels' copy ``copy`` into the cache; ``None``
    when it would not help: one core only, no plan for these sources, or ``UNOSIM_COMPILE_HELPER=0``."""
    if os.environ.get("UNOSIM_COMPILE_HELPER") == "0" or _cores() < 2 or load_plan(copy) is None:
        return None
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir())}  # the same cache, however this process found it
    command = [sys.executable, "-c", "import sys; from unosim.engine.kernel_cache import run_helper; run_helper(sys.argv[1])",
               copy]
    return subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1  # macOS: no affinity


def _peak_mib() -> float:
    """This process's peak resident memory in MiB (0 where the ``resource`` module is missing: Windows)."""
    try:
        import resource
    except ImportError:
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024**2 if sys.platform == "darwin" else peak / 1024  # bytes on macOS, KiB on Linux


def _stop(helper: subprocess.Popen[bytes] | None) -> None:
    """End the helper: what it has not compiled yet, the compiling process has (numba writes each cache
    entry to a temporary file first, so an entry cut off is never read)."""
    if helper is not None and helper.poll() is None:
        helper.terminate()
        try:
            helper.wait(timeout=10)
        except subprocess.TimeoutExpired:
            helper.kill()
            helper.wait()


class _Literals:
    """``Literal[int](2)``, as numba writes a constant argument's type, back to that type."""

    def __getitem__(self, kind: Any) -> Callable[[Any], Any]:
        from numba.core import types

        return types.literal  # the value gives the kind


def parse_types(text: str) -> tuple[Any, ...]:
    """The argument types of a `PLAN` entry: the ``repr`` of a tuple of numba types, read back."""
    from numba.core import types

    names = {"int": int, "float": float, **vars(types), "Literal": _Literals()}  # numba's bool, Python's int
    parsed = eval(text, {"__builtins__": {}}, names)  # the plan is shipped with the package, not user input
    if not isinstance(parsed, tuple) or not all(isinstance(t, types.Type) for t in parsed):
        raise ValueError(f"not a tuple of numba types: {text}")
    return parsed


def compile_plan(entries: list[tuple[str, str, str]]) -> tuple[int, int]:
    """Compile (or load) each ``(module, function, argument types)`` of ``entries`` into the cache, in
    order; an entry that no longer names a cached kernel or whose types do not parse is passed over.
    Returns how many entries were compiled or loaded, and how many of them compiled."""
    done = compiled = 0
    for module, name, args in entries:
        try:
            kernel = getattr(importlib.import_module(module), name)
            before = _misses((kernel,))
            kernel.compile(parse_types(args))
        except Exception:  # a stale entry: the compiling process compiles what it needs itself
            continue
        done += 1
        compiled += _misses((kernel,)) > before
    return done, compiled


def run_helper(copy: str = "") -> None:
    """The helper process: compile the `PLAN` of the kernels' copy ``copy`` from its end, then log
    ``<pid> helper <kernels> <compiled> <seconds> <peak MiB>`` to ``compile.log``.

    The compiling process, once done inlining, reaches the kernels in the plan's order: the helper
    works towards it from the other end, and what the two meet on is compiled once, not side by side."""
    started = time.perf_counter()
    with _fewer_collections():
        done, compiled = compile_plan(list(reversed(load_plan(copy) or [])))
    peak = _peak_mib()
    with open(cache_dir() / LOG_NAME, "a") as log:
        log.write(f"{os.getpid()} helper {done} {compiled} {time.perf_counter() - started:.1f} {peak:.0f}\n")
