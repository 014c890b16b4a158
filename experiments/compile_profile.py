"""Where a cold compile of the engine spends its time.

Compiles the kernels of one preset in a fresh, temporary cache and prints, from numba's
event API (``numba.core.event``): each compiled function with its number of
specialisations (one per distinct argument types; a constant argument is a type of its
own) and its compile seconds, *inclusive* of the functions it compiled on the way; the
time spent holding the LLVM lock (LLVM optimisation and code generation); and numba's
own pass times for the phase machine ``advance`` (the IR inliner, type inference,
lowering). It compiles in one process, without the helper of a cold compile
(:mod:`unosim.engine.kernel_cache`). ``unosim/game/kernels/jit.py`` says how these figures chose each
function's mode.

Usage::

    python experiments/compile_profile.py                  # party, 4 players
    python experiments/compile_profile.py --rules classic --top 40
"""

from __future__ import annotations

import argparse
import collections
import os
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="party")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--top", type=int, default=25, help="functions to list")
    args = parser.parse_args()
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="unosim-profile-")  # before numba reads it
    os.environ["UNOSIM_COMPILE_HELPER"] = "0"  # all in this process: a helper's work would show as loads here

    from numba.core import event

    from unosim.analysis.bench import _config
    from unosim.engine.driver import Engine
    from unosim.game.kernels.advance import advance

    started = time.perf_counter()
    with event.install_recorder("numba:compile") as compiles, event.install_recorder("numba:llvm_lock") as llvm:
        Engine(_config(args.rules, args.players, "random", 0, 1)).play(0, 1)
    total = time.perf_counter() - started

    opened: dict[tuple[str, str], float] = {}
    seconds: collections.Counter[str] = collections.Counter()
    copies: collections.Counter[str] = collections.Counter()
    for stamp, ev in compiles.buffer:
        func = ev.data["dispatcher"].py_func
        name = f"{func.__module__}.{func.__qualname__}"
        key = (name, str(ev.data["args"]))
        if ev.is_start:
            opened[key] = stamp
        else:
            seconds[name] += stamp - opened.pop(key)
            copies[name] += 1
    held = 0.0
    since = 0.0
    for stamp, ev in llvm.buffer:
        if ev.is_start:
            since = stamp
        else:
            held += stamp - since

    print(f"{args.rules}, {args.players} players: {total:.1f} s to the end of the first game; "
          f"LLVM lock held {held:.1f} s")
    print(f"{'seconds':>8} {'copies':>6}  function (seconds include what it compiled on the way)")
    for name, s in seconds.most_common(args.top):
        print(f"{s:8.1f} {copies[name]:6d}  {name}")
    for cres in advance.overloads.values():
        for pipeline, passes in cres.metadata.get("pipeline_times", {}).items():
            slowest = sorted(((v.run, k) for k, v in passes.items()), reverse=True)[:6]
            print(f"advance, {pipeline} passes:", ", ".join(f"{k} {t:.1f} s" for t, k in slowest))


if __name__ == "__main__":
    main()
