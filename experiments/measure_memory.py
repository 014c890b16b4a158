"""Measure the peak resident memory of a large run written to disk.

Runs ``python -m unosim simulate ... --out TMPDIR --quiet`` as a child process
and reports:

* the peak RSS of every process of the run (the main process and each worker),
  sampled from ``/proc/<pid>/status`` (``VmHWM``, the kernel's own high-water
  mark) while the run goes, and their sum — an upper bound of the memory the
  run held at any one time;
* ``resource.getrusage(RUSAGE_SELF)`` and ``RUSAGE_CHILDREN``: the largest
  single process among this script and its waited-for descendants.

Usage (from the repository root)::

    python experiments/measure_memory.py --games 10000000 --jobs 2

Memory should not grow with ``--games``: compare 1,000,000 and 10,000,000.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def descendants(pid: int) -> set[int]:
    """Process ids of ``pid``'s children, grandchildren, ... (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def peak_rss_kib(pid: int) -> int | None:
    """``VmHWM`` (peak resident set) of a live process, in KiB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000_000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--strategies", default="random")
    parser.add_argument("--jobs", type=int, default=None, help="default: all cores")
    parser.add_argument("--chunk-size", type=int, default=None)
    parser.add_argument("--keep", type=Path, default=None, help="write the dataset here instead of a temp dir")
    args = parser.parse_args()

    repo = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory(prefix="unosim-memory-") as tmp:
        out = args.keep or Path(tmp) / "run"
        command = [
            sys.executable, "-m", "unosim", "simulate", "--rules", args.rules, "--players", str(args.players),
            "--games", str(args.games), "--strategies", args.strategies, "--out", str(out), "--quiet",
        ]  # fmt: skip
        if args.jobs:
            command += ["--jobs", str(args.jobs)]
        if args.chunk_size:
            command += ["--chunk-size", str(args.chunk_size)]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(repo), os.environ.get("PYTHONPATH")]))}
        started = time.perf_counter()
        proc = subprocess.Popen(command, env=env)
        peaks: dict[int, int] = {}
        while proc.poll() is None:
            for pid in {proc.pid} | descendants(proc.pid):
                kib = peak_rss_kib(pid)
                if kib is not None:
                    peaks[pid] = max(peaks.get(pid, 0), kib)
            time.sleep(0.2)
        seconds = time.perf_counter() - started
        if proc.returncode != 0:
            sys.exit(f"the run failed with exit code {proc.returncode}")
        size = sum(p.stat().st_size for p in out.glob("*.parquet"))

    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    main_peak = peaks.get(proc.pid, 0)
    workers = sorted((kib for pid, kib in peaks.items() if pid != proc.pid), reverse=True)
    mib = 1024
    print(f"games                 {args.games:,} ({args.rules}, {args.players} players, {args.strategies})")
    print(f"wall time             {seconds:,.1f} s ({args.games / seconds:,.0f} games/s)")
    print(f"dataset size          {size / mib / mib:,.1f} MiB")
    print(f"main process peak     {main_peak / mib:,.0f} MiB")
    print(f"worker peaks          {', '.join(f'{w / mib:,.0f}' for w in workers) or '-'} MiB")
    print(f"sum of peaks          {(main_peak + sum(workers)) / mib:,.0f} MiB (upper bound of the run's total)")
    print(f"getrusage self        {own / mib:,.0f} MiB; children (largest) {children / mib:,.0f} MiB")


if __name__ == "__main__":
    main()
