"""Compile the engine once per machine, and say so while it happens.

numba compiles the engine kernel on its first call in a process and keeps the
machine code in a disk cache (:mod:`unosim.kernels`: one directory per version
of the kernel sources). A cold compile takes over a minute and about a GB of memory, so
processes must not compile it side by side: the first kernel call
of every process goes through :func:`ensure_compiled`. While the cache
directory has no marker file yet (a cold cache), that call holds a file lock
in the cache directory: one process compiles, the others (loky or Dask
workers, a second run started at the same time) wait for the lock and then
load what it wrote. Once the marker exists, processes load the cache without
locking. A run's starting process compiles before any worker starts
(:func:`unosim.runner.execute`), showing "compiling the engine" instead of a
games/s figure that would include the compile.

Each process that took the cold path appends one line to ``compile.log`` in
the cache directory: its pid, ``compiled`` or ``loaded`` (another process
had compiled meanwhile), and the seconds spent.

While it compiles, the process runs Python's garbage collector less often
(:data:`COMPILE_GC_THRESHOLD`): numba keeps millions of objects alive during a
compile, and with the default thresholds the collector scanned them again and
again.
"""

from __future__ import annotations

import gc
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import numba
from filelock import FileLock

from .kernels import SOURCE_DIGEST

__all__ = [
    "COMPILE_GC_THRESHOLD", "DEFAULT_COMPILE_SECONDS", "LOG_NAME", "cache_dir", "ensure_compiled", "expected_seconds", "is_cold",
    "marker",
]

T = TypeVar("T")

DEFAULT_COMPILE_SECONDS = 80
"""The cold compile time shown before the first compile on a machine (about 80 s on a quiet
2-core machine, see README); later versions show the time the previous compile took."""
LOG_NAME = "compile.log"
COMPILE_GC_THRESHOLD = (100_000, 50, 50)
"""The garbage collector's thresholds (:func:`gc.set_threshold`) during a cold compile; Python's
are (700, 10, 10). Measured on a party cold compile (issue 10): the collector took 20 s of 100 s
with Python's thresholds (33 full collections), 5 s with these (2), for 0.08 GB more peak memory;
disabling it took 0.3 s, for 0.3 GB more."""

_ready: set[tuple[int, ...]] = set()  # the dispatcher sets called in this process


def cache_dir() -> Path:
    """The numba cache directory of the kernels."""
    return Path(numba.config.CACHE_DIR)  # type: ignore[attr-defined]  # set by unosim.kernels


def marker() -> Path:
    """The file written after a successful compile of this version of the kernels."""
    return cache_dir() / f"compiled-{SOURCE_DIGEST}.json"


def is_cold() -> bool:
    """Whether the kernels of this version have not been compiled on this machine yet."""
    return not marker().is_file()


def expected_seconds() -> int:
    """How long a cold compile will take here: the last compile of any version on this machine,
    else :data:`DEFAULT_COMPILE_SECONDS`."""
    found = sorted(cache_dir().parent.glob("*/compiled-*.json"), key=lambda p: p.stat().st_mtime)
    for path in reversed(found):
        try:
            return max(1, round(json.loads(path.read_text())["seconds"]))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return DEFAULT_COMPILE_SECONDS


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """Run the garbage collector with :data:`COMPILE_GC_THRESHOLD`, then as before."""
    before = gc.get_threshold()
    gc.set_threshold(*COMPILE_GC_THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _misses(dispatchers: Iterable[Any]) -> int:
    return sum(sum(d.stats.cache_misses.values()) for d in dispatchers)


def ensure_compiled(call: Callable[[], T], dispatchers: Iterable[Any] | None = None) -> T:
    """Make the first kernel call of this process, compiling at most once per machine.

    Parameters
    ----------
    call : callable
        The first call of the kernels (it compiles them or loads them from the cache).
    dispatchers : iterable of numba dispatchers, optional
        The kernels ``call`` compiles (default: the engine's ``advance``); their cache
        misses tell whether this process compiled or loaded.

    Returns
    -------
    The result of ``call()``.
    """
    if dispatchers is None:
        from .kernels.advance import advance

        dispatchers = (advance,)
    dispatchers = tuple(dispatchers)
    key = tuple(map(id, dispatchers))
    if key in _ready or not is_cold():
        result = call()
        _ready.add(key)
        return result
    directory = cache_dir()
    directory.mkdir(parents=True, exist_ok=True)
    with FileLock(directory / "compile.lock"), _fewer_collections():
        started = time.perf_counter()
        before = _misses(dispatchers)
        result = call()
        seconds = time.perf_counter() - started
        compiled = _misses(dispatchers) > before
        if compiled or is_cold():
            marker().write_text(json.dumps({"seconds": round(seconds, 1), "pid": os.getpid(), "compiled": compiled}))
        with open(directory / LOG_NAME, "a") as log:
            log.write(f"{os.getpid()} {'compiled' if compiled else 'loaded'} {seconds:.1f}\n")
    _ready.add(key)
    return result
