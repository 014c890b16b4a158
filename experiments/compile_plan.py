"""Write the plan of a cold compile's helper process: ``unosim/game/kernels/compile_plan.json``.

For each copy of the kernels (`unosim.engine.kernel_cache.COPIES`), compiles the engine in a
process of its own with a fresh, temporary cache and the helper off (``UNOSIM_COMPILE_HELPER=0``),
playing a line-up that plays on that copy (`COPY_RUNS`), and records, from numba's event API, every
cached kernel (``cache=True``) compiled on the way to ``advance``, with its argument types, in the
order the compile reached them: the plan :func:`unosim.engine.kernel_cache.compile_plan` follows in
the helper of that copy's cold compile. Run it after changing a kernel module
(``tests/test_kernel_cache.py`` fails until then: a plan made for other sources is not used, and the
cold compile takes longer).

``--check`` then compiles each copy twice more, each time in a fresh cache, with the
helper and without, and compares ``advance``'s machine code: the same instructions
(numba's per-process counters in symbol names aside), or it says where they differ.

Usage::

    python experiments/compile_plan.py            # write the plan
    python experiments/compile_plan.py --check    # and check the helper changes no code
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import subprocess
import sys
import tempfile

COPY_RUNS = {"": ("random", []), "programs": ("rules:attacker", []), "house": ("random", ["stacking=mixed"])}
"""For each copy of the kernels, the party 4 line-up and rule options whose compile records its plan."""


ASM = """
import sys
from unosim.analysis.bench import _config
from unosim.engine.driver import compile_kernels
from unosim.game.kernels.advance import advance
compile_kernels([_config("party", 4, sys.argv[1], 0, None, sys.argv[2:])])
(asm,) = advance.inspect_asm().values()
sys.stdout.write(asm)
"""


def machine_code(helper: bool, copy: str = "") -> list[str]:
    """``advance``'s assembly in the kernels' copy ``copy`` from a cold compile in a fresh cache,
    normalised: numba numbers each compiled function in a process (``B3v36B`` in a symbol), LLVM numbers
    duplicates (``.12``), and a process that compiled fewer functions itself declares fewer unused
    environment symbols."""
    with tempfile.TemporaryDirectory(prefix="unosim-plan-check-") as cache:
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env.update(XDG_CACHE_HOME=cache, UNOSIM_COMPILE_HELPER="1" if helper else "0")
        strategies, overrides = COPY_RUNS[copy]
        asm = subprocess.run([sys.executable, "-c", ASM, strategies, *overrides], env=env, capture_output=True, text=True,
                             check=True).stdout
    lines = (re.sub(r"\.\d+\b", "", re.sub(r"B\d+v\d+B", "BvB", line)) for line in asm.splitlines())
    return [line for line in lines if not re.match(r"\s*\.(comm|type)\s+_ZN08NumbaEnv.*(,8,8|@object)$", line)]


def check() -> None:
    """Compare ``advance``'s machine code compiled with the helper and without, in each copy of the kernels."""
    for copy in COPY_RUNS:
        helped, alone = machine_code(True, copy), machine_code(False, copy)
        name = f"copy {copy or 'official'!r}"
        if helped == alone:
            print(f"{name}, with the helper and without: the same machine code ({len(alone)} lines of assembly)")
            continue
        diff = list(difflib.unified_diff(alone, helped, "without the helper", "with the helper", lineterm="", n=1))
        print("\n".join(diff[:60]))
        raise SystemExit(f"{name}: the machine code differs ({len(diff)} lines of diff)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="also check that the helper changes no machine code")
    parser.add_argument("--record", choices=list(COPY_RUNS), help=argparse.SUPPRESS)  # a child of write()
    args = parser.parse_args()
    if args.record is not None:
        print(json.dumps(record(args.record)))
        return
    write()
    if args.check:
        check()


def record(copy: str) -> list[list[str]]:
    """Record the plan of the kernels' copy ``copy`` in a fresh cache, in this process."""
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="unosim-plan-")  # before numba reads it
    os.environ["UNOSIM_COMPILE_HELPER"] = "0"

    from numba.core import event
    from numba.core.caching import NullCache

    from unosim.analysis.bench import _config
    from unosim.engine.driver import compile_kernels, kernel_copy_for

    strategies, overrides = COPY_RUNS[copy]
    config = _config("party", 4, strategies, 0, None, overrides)
    if kernel_copy_for(config) != copy:
        raise SystemExit(f"the line-up {strategies} {overrides} plays on the copy {kernel_copy_for(config)!r}, not {copy!r}")
    with event.install_recorder("numba:compile") as compiles:
        compile_kernels([config])
    kernels: list[list[str]] = []
    for _, ev in compiles.buffer:
        dispatcher = ev.data["dispatcher"]
        func = dispatcher.py_func
        entry = [func.__module__, func.__qualname__, repr(ev.data["args"])]
        if ev.is_start and func.__qualname__ != "advance" and not isinstance(dispatcher._cache, NullCache) and entry not in kernels:
            kernels.append(entry)
    return kernels


def write() -> None:
    """Record the plan of each copy, each in a process of its own (a fresh cache, nothing compiled yet), and
    write them."""
    from unosim.engine import kernel_cache
    from unosim.game.kernels import SOURCE_DIGEST

    copies = {}
    for copy in kernel_cache.COPIES:
        out = subprocess.run([sys.executable, __file__, "--record", copy], capture_output=True, text=True, check=True).stdout
        copies[copy] = json.loads(out.strip().splitlines()[-1])
        print(f"copy {copy or 'official'!r}: {len(copies[copy])} kernels")
    blocks = ",\n".join(f"  {json.dumps(copy)}: [\n" + ",\n".join(f"    {json.dumps(entry)}" for entry in entries) + "\n  ]"
                        for copy, entries in copies.items())  # one kernel a line
    kernel_cache.PLAN.write_text(f'{{"digest": {json.dumps(SOURCE_DIGEST)}, "copies": {{\n{blocks}\n}}}}\n')
    print(f"{kernel_cache.PLAN}: the plans of {len(copies)} copies for sources {SOURCE_DIGEST}")


if __name__ == "__main__":
    main()
