"""Where a workload's time goes, compiled kernels by name: ``perf`` with a symbol map of numba's code.

``perf`` cannot name the functions numba compiles at run time: they live in anonymous memory. This
script plays a workload in a child process with an empty kernel cache (freshly compiled kernels
keep their LLVM modules, whose functions' addresses numba gives), writes ``/tmp/perf-PID.map``
(the map ``perf`` reads for code made at run time), records the child with ``perf record`` for
``--seconds`` and prints each function's share of the samples, the kernels' names demangled
(``unosim.game.kernels.advance.advance``). Functions inlined into another are counted in it (every
``rule`` is inlined into ``advance``). The first seconds of the child compile the kernels (about a
minute), unrecorded.

Usage::

    python experiments/profile_kernels.py engine --rules classic --players 4
    python experiments/profile_kernels.py engine --rules party --players 16
    python experiments/profile_kernels.py python --rules classic --players 4   # the Python path
    python experiments/profile_kernels.py env --players 4 --batch 1024          # UnoVectorEnv, random masked actions

Needs ``perf`` (Debian: ``apt-get install linux-perf``) and permission to record a process.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def write_perf_map() -> int:
    """Write ``/tmp/perf-PID.map`` for every function numba compiled in this process; return their number."""
    from numba.core.registry import CPUDispatcher

    libraries = {id(c.library): c.library for d in gc.get_objects() if isinstance(d, CPUDispatcher)
                 for c in list(d.overloads.values())}
    found = set()
    for library in libraries.values():
        try:
            names = [f.name for f in library._final_module.functions if not f.is_declaration]
        except Exception:  # loaded from a cache: no module kept
            continue
        for name in names:
            address = library.get_pointer_to_function(name)
            if address:
                found.add((address, name))
    ordered = sorted(found)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for i, (address, name) in enumerate(ordered):
            end = ordered[i + 1][0] if i + 1 < len(ordered) else address + 65536
            out.write(f"{address:x} {min(end - address, 1 << 22):x} {name}\n")
    return len(ordered)


def _engine(args: argparse.Namespace, compiled: bool) -> None:
    """The engine's benchmark (`unosim.analysis.bench.bench`): once to compile and warm up, then recorded."""
    from unosim.analysis.bench import bench

    def play(seconds: float) -> None:
        bench(args.rules, args.players, args.strategies, seconds, compiled=compiled, overrides=args.overrides)

    play(0.5)
    print("symbols", write_perf_map(), flush=True)
    play(args.seconds + 3)


def _env(args: argparse.Namespace) -> None:
    """The vector environment's benchmark (`unosim.analysis.env_bench.vector_rate`), the same way."""
    from unosim.analysis.env_bench import vector_rate

    vector_rate(args.rules, args.players, 0.5, num_envs=args.batch)
    print("symbols", write_perf_map(), flush=True)
    vector_rate(args.rules, args.players, args.seconds + 3, num_envs=args.batch)


def _demangle(symbol: str) -> str:
    """``_ZN6unosim4game7kernels7advance7advanceB2v2...`` -> ``unosim.game.kernels.advance.advance``
    (the nested name's parts, each its length then its text, up to the first that is not)."""
    if not symbol.startswith("_ZN"):
        return symbol
    parts, rest = [], symbol[3:]
    while rest[:1].isdigit():
        digits = rest[: len(rest) - len(rest.lstrip("0123456789"))]
        n = int(digits)
        parts.append(rest[len(digits) : len(digits) + n])
        rest = rest[len(digits) + n :]
    if parts[:1] == ["cpython"]:
        return "cpython wrapper of " + ".".join(parts[1:])
    return ".".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workload", choices=["engine", "python", "env"])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--strategies", default="random")
    parser.add_argument("--set", action="append", metavar="OPTION=VALUE", dest="overrides",
                        help="override a rule option (repeatable; engine and python workloads)")
    parser.add_argument("--batch", type=int, default=1024, help="games of the vector environment (env)")
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds recorded")
    parser.add_argument("--top", type=int, default=25, help="functions printed")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.workload == "env" and args.overrides:
        parser.error("--set applies to the engine and python workloads; env measures a preset as `unosim bench --env` does")
    if args.child:
        if args.workload == "env":
            _env(args)
        else:
            _engine(args, compiled=args.workload == "engine")
        return
    if shutil.which("perf") is None:
        raise SystemExit("perf is not installed: apt-get install linux-perf (Debian), then run this again.")
    with tempfile.TemporaryDirectory(prefix="unosim-profile-") as tmp:
        env = {**os.environ, "XDG_CACHE_HOME": tmp}
        env.pop("NUMBA_CACHE_DIR", None)
        child = subprocess.Popen([sys.executable, __file__, *sys.argv[1:], "--child"], env=env, stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None
        ready = child.stdout.readline()
        if not ready.startswith("symbols"):
            child.wait()
            raise SystemExit("the workload stopped before it was compiled")
        data = Path(tmp) / "perf.data"
        subprocess.run(["perf", "record", "-F", "1999", "-g", "-p", str(child.pid), "-o", str(data), "--",
                        "sleep", str(args.seconds)], check=True, capture_output=True)
        child.wait()
        report = subprocess.run(["perf", "report", "-i", str(data), "--no-children", "--sort", "sym", "-g", "none",
                                 "--percent-limit", "0.2"], check=True, capture_output=True, text=True).stdout
        Path(f"/tmp/perf-{child.pid}.map").unlink(missing_ok=True)
    print(f"{args.workload}: {args.rules}, {args.players} players ({ready.split()[1]} compiled functions named)")
    shown = 0
    for line in report.splitlines():
        match = re.match(r"\s+([\d.]+)%\s+\[(.)\]\s+(\S+)", line)
        if match and shown < args.top:
            print(f"{float(match.group(1)):6.2f} %  {_demangle(match.group(3))}")
            shown += 1


if __name__ == "__main__":
    main()
