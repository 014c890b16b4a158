"""Cold compile of the engine: time and peak memory in a fresh kernel cache.

Each measurement runs one child process with ``XDG_CACHE_HOME`` pointed at a new
empty directory (and ``NUMBA_CACHE_DIR`` unset), which compiles what the first run
of the preset compiles: :func:`unosim.engine.driver.compile_kernels`, the call with which a
run's starting process compiles every kernel before its workers start
(:func:`unosim.runs.runner.execute`), so the kernels compile from scratch, all of them and
only them. The child reports the seconds of its imports and of that call; this
process reads the child's peak resident memory and CPU time (``os.wait4``; the CPU
time includes the helper process that compiles the kernels ``advance`` calls beside
it, :mod:`unosim.engine.kernel_cache`; ``--no-helper`` turns it off) and, from
``compile.log``, the helper's peak memory: ``peak_gb`` is the sum of the two. The two peaks
need not fall at the same moment: ``together_gb`` is the most the child and its helper held
at once, their resident memory summed every 20 ms (``psutil``). The machine's load average is
printed with each figure: on a shared machine compare figures taken together.

Usage::

    python experiments/cold_compile.py                      # party, 4 players, random, once
    python experiments/cold_compile.py --rules classic --repeat 3 --json
    python experiments/cold_compile.py --strategies random,greedy  # another line-up
    python experiments/cold_compile.py --no-helper          # all in one process
    python experiments/cold_compile.py --set stacking=mixed # the kernels' copy for the house rules
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

CHILD = """
import sys, time
t0 = time.perf_counter()
from unosim.analysis.bench import _config
from unosim.engine.driver import compile_kernels
t1 = time.perf_counter()
compile_kernels([_config(sys.argv[1], int(sys.argv[2]), sys.argv[3], 0, None, sys.argv[4:] or None)])
t2 = time.perf_counter()
print(f"{t1 - t0:.3f} {t2 - t1:.3f}")
"""


def _sample(pid: int, most: list[int]) -> None:
    """Every 20 ms until process ``pid`` ends: the resident memory of it and its descendants
    together, the most seen in ``most[0]`` (bytes)."""
    import psutil

    try:
        root = psutil.Process(pid)
        while root.status() != psutil.STATUS_ZOMBIE:
            total = 0
            for p in [root, *root.children(recursive=True)]:
                try:
                    total += p.memory_info().rss
                except psutil.NoSuchProcess:
                    pass
            most[0] = max(most[0], total)
            time.sleep(0.02)
    except psutil.NoSuchProcess:
        pass


def measure(rules: str, players: int, strategies: str = "random", helper: bool = True,
            overrides: list[str] | None = None) -> dict[str, float]:
    """One cold compile in a child process: import and compile seconds, peak memory (the child's
    and its helper's), CPU time."""
    with tempfile.TemporaryDirectory(prefix="unosim-cold-") as cache:
        env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "UNOSIM_COMPILE_HELPER")}
        env["XDG_CACHE_HOME"] = cache
        if not helper:
            env["UNOSIM_COMPILE_HELPER"] = "0"
        load = os.getloadavg()[0]
        started = time.perf_counter()
        command = [sys.executable, "-c", CHILD, rules, str(players), strategies, *(overrides or [])]
        child = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None
        together = [0]
        sampler = threading.Thread(target=_sample, args=(child.pid, together), daemon=True)
        sampler.start()
        out = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
        sampler.join()
        wall = time.perf_counter() - started
        if status != 0:
            raise SystemExit(f"the child failed (status {status})")
        imported, compiled = map(float, out.split())
        helper_mib = sum(float(line.split()[5]) for log in Path(cache).glob("unosim/*/compile.log")
                         for line in log.read_text().splitlines() if line.split()[1:2] == ["helper"])
    return {
        "rules": rules,
        "players": players,
        "strategies": strategies,
        "overrides": overrides or [],
        "compile_seconds": round(compiled, 1),
        "import_seconds": round(imported, 1),
        "wall_seconds": round(wall, 1),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1),
        "peak_gb": round((usage.ru_maxrss + 1024 * helper_mib) / 1024**2, 2),  # ru_maxrss is in KiB on Linux
        "helper_peak_gb": round(helper_mib / 1024, 2),
        "together_gb": round(together[0] / 1024**3, 2),
        "load_before": round(load, 2),
        "load_after": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="party")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--strategies", default="random", help="the line-up, as unosim simulate --strategies")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the measurements as JSON")
    parser.add_argument("--no-helper", action="store_true", help="compile in one process (UNOSIM_COMPILE_HELPER=0)")
    parser.add_argument("--set", action="append", metavar="OPTION=VALUE", dest="overrides",
                        help="override a rule option (repeatable): a house rule compiles the kernels' house-rule copy")
    args = parser.parse_args()
    results = [measure(args.rules, args.players, args.strategies, not args.no_helper, args.overrides) for _ in range(args.repeat)]
    if args.json:
        print(json.dumps(results))
        return
    for r in results:
        print(f"{r['rules']} {r['players']} players: compile {r['compile_seconds']} s (CPU {r['cpu_seconds']} s), "
              f"peak {r['peak_gb']} GB (helper {r['helper_peak_gb']} GB; {r['together_gb']} GB at once), "
              f"load {r['load_before']} -> {r['load_after']}")
    if len(results) > 1:
        print(f"median compile {statistics.median(r['compile_seconds'] for r in results):.1f} s, "
              f"median peak {statistics.median(r['peak_gb'] for r in results):.2f} GB")


if __name__ == "__main__":
    main()
