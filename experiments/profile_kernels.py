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
import time
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
    from unosim.analysis.bench import _config
    from unosim.engine.driver import Engine

    engine = Engine(_config(args.rules, args.players, args.strategies, 0, None, args.overrides), compiled=compiled)
    engine.play(0, 2 * engine.batch_size)
    print("symbols", write_perf_map(), flush=True)
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < args.seconds + 3:
        engine.play(games, 25 * engine.batch_size)
        games += 25 * engine.batch_size


def _env(args: argparse.Namespace) -> None:
    import numpy as np

    from unosim.env.kernels import random_actions
    from unosim.env.vector import UnoVectorEnv

    env = UnoVectorEnv(args.batch, args.rules, args.players, "random", overrides=args.overrides)
    rng = np.random.default_rng(0)
    uniforms, acts = np.empty(args.batch), np.empty(args.batch, np.int64)
    obs, _ = env.reset(seed=0)

    def step() -> None:
        nonlocal obs
        random_actions(obs["action_mask"], rng.random(out=uniforms), acts)
        obs, *_ = env.step(acts)

    for _ in range(50):
        step()
    print("symbols", write_perf_map(), flush=True)
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds + 3:
        step()


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
    parser.add_argument("--set", action="append", metavar="OPTION=VALUE", dest="overrides")
    parser.add_argument("--batch", type=int, default=1024, help="games of the vector environment (env)")
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds recorded")
    parser.add_argument("--top", type=int, default=25, help="functions printed")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
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
