"""Measure unosim's figures on this machine and write ``docs/performance.md``.

Every row states the command that measured it. Speeds are single-core games per second from
``unosim bench``, each the median of ``--rounds`` rounds, and the ratio to the plain-C
yardstick ``benchmarks/uno_limit.c`` (built with ``gcc -O2``) measured in the same round:
on a shared machine absolute figures drift, ratios much less. Then the cold compile (fresh
kernel cache) and the load time of a dataset of ``--load-games`` games.

Usage::

    python experiments/performance.py                       # writes docs/performance.md
    python experiments/performance.py --rounds 1 --seconds 2 --load-games 100000 --out /tmp/perf.md
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHOICE_FIGURES = [
    ("kernels without numba's reference-counting runtime (`unosim/game/kernels/jit.py`)",
     'with it, 30–50 ns per helper call, most of the step time'),
    ('`play_card` and the other per-turn rules inlined (`rule`)',
     'a non-inlined `play_card` cost 40 % of the games per second'),
    ('small helpers compiled on their own (`leaf`), not inlined',
     'as `rule`, the cold compile took 387 s and 5 GB'),
    ('a helper process compiles the leaves during a cold compile',
     'party cold compile 82 s → 52 s on two cores'),
    ('constants passed as `int64` to the drawing kernels',
     '4 s of a party cold compile (`experiments/compile_profile.py`)'),
    ('garbage-collector thresholds during a cold compile (`unosim/engine/kernel_cache.py`)',
     "party cold compile: the collector took 20 s of 100 s with Python's thresholds (33 full collections), "
     "5 s with (100000, 50, 50) (2), for 0.08 GB more peak memory; disabled, 0.3 s for 0.3 GB more"),
    ("the rule bots' per-turn decision inlined (`unosim/game/kernels/rule_policy.py`)",
     "as a separate call it cost 11 % of `attacker.toml`'s games per CPU second"),
    ("the rule choice inside it (`rules_pick`) a `leaf`, not inlined",
     "as fast (`attacker.toml` +3 %, 4 paired rounds); party cold compile 36 s → 27 s of CPU, 1.21 → 0.98 GB peak"),
    ("the rule interpreter only in the kernels' copy a rule strategy plays on (`layout.PROGRAMS_OFF`)",
     "party 4 cold compile, medians of 3: one process 27.1 → 23.2 s, 29.5 → 25.2 s of CPU, 0.74 → 0.56 GB peak; with "
     "the helper 19.6 → 16.7 s, 30.5 → 26.5 s of CPU, 0.86 → 0.68 GB at once; pruned from an inlined `rule` instead, "
     "0.73 GB. Classic 4 random +1 to +5 %, `attacker.toml` +1 to +3 % (4 paired rounds)"),
    ("the interpreter called by `advance` itself under `programs is not None` (on the program `decision` names), pruned "
     "before inlining, not entered through an inlined `overload`",
     "cold compile with a rule strategy (party 4, `rules:attacker`), medians of 3: one process 37.7 → 30.0 s, "
     "0.75 → 0.63 GB peak (numba typed the overload's code on its own, then again inlined); with the helper "
     "27.8 → 19.1 s, 38.5 → 30.0 s of CPU, 0.73 → 0.80 GB at once; with a house rule (`stacking=mixed`, the copy "
     "carries the interpreter too) 27.9 → 21.8 s, 0.77 → 0.86 GB at once. `attacker.toml` +4.7, −1.5, +0.6, "
     "+1.1 % (4 paired rounds)"),
    ("a helper plan of its own for each copy of the kernels (`unosim/game/kernels/compile_plan.json`)",
     "cold compile with a house rule (party 4, `stacking=mixed`), medians of 3: 31.0 → 26.5 s, 42.8 → 39.1 s of CPU, "
     "0.73 → 0.75 GB at once; with a rule strategy (`rules:attacker`) 29.5 → 29.5 s: its time is the main process's "
     "typing, not the kernels the helper compiles"),
    ("the compiled policies' vote (`policy.pick_vote`, every seat's at a Point Taken) inlined (`rule`), not a `leaf`",
     "party 16 +0.6 to +4.1 %, party 8 +1.6 to +4.6 % (4 paired rounds each; classic 4, which has no vote, "
     "−0.4 to +0.5 %); party 4 cold compile 14.9 → 15.0 s, 0.68 → 0.69 GB at once (medians of 3)"),
    ("the engine's checks of votes and links read the seats alive and linkable from the table "
     "(`observation.seat_rows`), not from a second gather of every field of the rows",
     "Python path, party 16 +7.4, +7.2, +3.9, +8.8 %, party 8 +1.9, +5.6, +2.9, +6.7 % (4 paired rounds each); "
     "classic 4 (no vote, no link) −1.6 to +0.8 %"),
    ("a sorted deck laid out once per run and copied at each deal (`unosim/game/kernels/deal.py`)",
     "classic 4: the deal's share of the time 14.4 % → 5.0 % (`experiments/profile_kernels.py`); "
     "games per CPU second +0.7 to +8.4 % (4 paired rounds)"),
    ("a vector-environment game's half-answered decision kept aside (`layout.ROW_HELD`), the other games played on",
     "classic 4, 1,024 games, random masked actions: `wait` 52 % → 0.2 % of the steps, rounds per CPU second "
     "+11 to +19 % (4 paired rounds, one build per core)"),
    ("one pyarrow dataset over a run's chunk files (`unosim.load`)",
     '4× faster than one `read_table` per file'),
    ('`strategies` read as dictionary arrays',
     '10-million-game run: 3.6 s of CPU and 440 MB decoding 40 million strings, 0.9 s and 200 MB as dictionary indices'),
    ("all-zero columns made from the chunks' statistics, not read (`unosim.load`)",
     '10-million-game load (19 of 39 columns all zeros): read, 3.07 s and 2.94 GB at peak; made, 2.57 s and 2.56 GB (medians of 3)'),
    ("the all-zero columns joined to the loaded frame as zeroed arrays, not converted from Arrow (`unosim.load`)",
     "10-million-game load, 7 loads each, alternating: 3.71–5.10 s, 2.6–3.9 s of system CPU time and 2.56 GB at peak "
     "→ 2.35–2.63 s, 1.3–1.5 s and 2.18 GB"),
    ('the system allocator for a load',
     "pyarrow's default (mimalloc) on a 10-million-game load: 6 s against 3 s of system CPU time, 2.82 GB against 2.51 GB at peak"),
]
"""(choice, figure) rows: the measured figures behind the code's choices, kept as they are each time the page is written."""
WORKLOADS = [
    ("classic, 4 players, random (compiled)", ["--rules", "classic", "--players", "4"]),
    ("classic, 4 players, random (Python path)", ["--rules", "classic", "--players", "4", "--python-path"]),
    ("classic, 4 players, rule file `attacker.toml` (compiled interpreter)",
     ["--rules", "classic", "--players", "4", "--strategies", "rules:attacker"]),
    ("party, 8 players, random", ["--rules", "party", "--players", "8"]),
    ("party, 16 players, random", ["--rules", "party", "--players", "16"]),
    ("party, 16 players, random (Python path)", ["--rules", "party", "--players", "16", "--python-path"]),
    ("party, 6 players, six-strategy tournament", ["--tournament"]),
    ("classic, 4 players, random, stacking=mixed", ["--rules", "classic", "--players", "4", "--set", "stacking=mixed"]),
    ("classic, 4 players, random, seven_zero=true", ["--rules", "classic", "--players", "4", "--set", "seven_zero=true"]),
    ("classic, 4 players, random, speed_play=true, jump_in_cards=numbers_and_actions",
     ["--rules", "classic", "--players", "4", "--set", "speed_play=true", "--set", "jump_in_cards=numbers_and_actions"]),
    ("classic, 4 players, random, go_out_on_action=false",
     ["--rules", "classic", "--players", "4", "--set", "go_out_on_action=false"]),
]


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _yardstick(build: Path) -> Path:
    exe = build / "uno_limit"
    subprocess.run(["gcc", "-O2", "-o", str(exe), str(ROOT / "benchmarks" / "uno_limit.c"), "-lm"], check=True)
    return exe


def _c_rate(exe: Path, seconds: float) -> float:
    out = subprocess.run([str(exe), "4", str(seconds), "1"], capture_output=True, text=True, check=True).stdout
    return float(json.loads(out)["games_per_s"])


def _bench(args: list[str], seconds: float) -> float:
    cmd = [sys.executable, "-m", "unosim", "bench", *args, "--seconds", str(seconds), "--json"]
    out = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    return float(out["games_per_second"])


def _env_rounds(seconds: float) -> float:
    """Rounds per second :class:`~unosim.env.vector.UnoVectorEnv` (1,024 games, classic 4, random masked actions) gives."""
    cmd = [sys.executable, "-m", "unosim", "bench", "--env", "--rules", "classic", "--players", "4", "--batch-size", "1024",
           "--seconds", str(seconds), "--json"]
    out = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    return float(next(r for r in out["rows"] if r["env"].startswith("UnoVectorEnv"))["rounds_per_second"])


def _cold_compile(*extra: str) -> dict[str, float]:
    cmd = [sys.executable, str(ROOT / "experiments" / "cold_compile.py"), "--json", *extra]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
    return json.loads(out)[0]


def _load(games: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "big"
        subprocess.run([sys.executable, "-m", "unosim", "simulate", "--rules", "classic", "--players", "4", "--games",
                        str(games), "--seed", "7", "--out", str(out), "--quiet"], check=True)
        code = f"import time, unosim; t = time.perf_counter(); unosim.load({str(out)!r}); print(time.perf_counter() - t)"
        inner, whole = [], []
        for _ in range(3):  # each in a fresh process; the medians (the first load after writing can take twice as long)
            start = time.perf_counter()
            inner.append(float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout))
            whole.append(time.perf_counter() - start)
        return statistics.median(inner), statistics.median(whole)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--load-games", type=int, default=10_000_000)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "performance.md")
    parser.add_argument("--suite-seconds", type=float, default=None,
                        help="wall time of the test suite (`python -m pytest -q`), measured separately, for its row")
    args = parser.parse_args()
    machine = f"{_cpu()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    rows = []
    with tempfile.TemporaryDirectory() as build:
        exe = _yardstick(Path(build))
        rates: dict[str, list[float]] = {name: [] for name, _ in WORKLOADS}
        ratios: dict[str, list[float]] = {name: [] for name, _ in WORKLOADS}
        c_rates, env_rates, env_shares, rule_shares = [], [], [], []
        for _ in range(args.rounds):
            c = _c_rate(exe, args.seconds)
            c_rates.append(c)
            for name, bench_args in WORKLOADS:
                rate = _bench(bench_args, args.seconds)
                rates[name].append(rate)
                ratios[name].append(rate / c)
            engine = rates[WORKLOADS[0][0]][-1]
            rule_shares.append(rates[WORKLOADS[2][0]][-1] / engine)
            env_rates.append(_env_rounds(args.seconds))
            env_shares.append(env_rates[-1] / engine)
        for name, bench_args in WORKLOADS:
            command = "unosim bench " + " ".join(bench_args) + f" --seconds {args.seconds:g}"
            rows.append((name, f"{statistics.median(rates[name]):,.0f} games/s", f"{statistics.median(ratios[name]):.3f}",
                         f"`{command}`"))
        rows.append(("rule file ÷ compiled `random` (the first and third rows, same round)",
                     f"{statistics.median(rule_shares):.3f}", "", "the rows' own commands"))
        rows.append(("`UnoVectorEnv(1024)`, classic 4, random masked actions: rounds/s, and ÷ the engine's games/s",
                     f"{statistics.median(env_rates):,.0f} rounds/s ({statistics.median(env_shares):.3f} of the engine)", "",
                     f"`unosim bench --env --rules classic --players 4 --batch-size 1024 --seconds {args.seconds:g}`"))
        rows.append(("C yardstick, classic 4 players", f"{statistics.median(c_rates):,.0f} games/s", "1",
                     f"`benchmarks/uno_limit.c 4 {args.seconds:g}`"))
    for label, extra in (("cold compile (party, 4 players, fresh kernel cache)", ()),
                         ("cold compile in one process (`UNOSIM_COMPILE_HELPER=0`: no helper process)", ("--no-helper",)),
                         ("cold compile with a rule strategy (the kernels' copy with the rule interpreter)",
                          ("--strategies", "rules:attacker")),
                         ("cold compile with a house rule (the kernels' house-rule copy, with the rule interpreter)",
                          ("--set", "stacking=mixed"))):
        cold = _cold_compile(*extra)
        rows.append((label, f"{cold['compile_seconds']:.1f} s, {cold['together_gb']:.2f} GB peak", "",
                     f"`{' '.join(('python experiments/cold_compile.py', *extra))}`"))
    inner, whole = _load(args.load_games)
    rows.append((f"`unosim.load` of a {args.load_games:,}-game dataset (classic, 4 players)",
                 f"{inner:.1f} s (whole process {whole:.1f} s; medians of 3 loads)", "",
                 f"`unosim simulate --games {args.load_games} --out runs/big`, then `unosim.load('runs/big')`"))
    if args.suite_seconds is not None:
        rows.append(("the whole test suite, every core", f"{args.suite_seconds / 60:.1f} min", "",
                     "`python -m pytest -q` (what `.ci/run` runs after installing), kernels already cached"))
    lines = [
        "# Performance",
        "",
        "Today's figures, measured by `python experiments/performance.py` on "
        f"{machine}. Speeds are single-core games per second, medians of {args.rounds} rounds of "
        f"{args.seconds:g} s; the ratio is to the plain-C yardstick (`benchmarks/uno_limit.c`, classic rules, "
        "4 players, random play, `gcc -O2`) in the same round. Run the script on your machine to get its figures.",
        "",
        "| workload | figure | ÷ C yardstick | command |",
        "|---|---:|---:|---|",
        *[f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows],
        "",
        "The first run on a machine compiles the kernels (the cold compile above) and caches them; later runs",
        "load them from the cache in about a second. With two cores or more a helper process compiles part of",
        "the kernels beside the main one: a cold compile's peak is the most the two held at once (sampled every",
        "20 ms by `experiments/cold_compile.py`, `together_gb`).",
        "`UNOSIM_COMPILE_HELPER=0` compiles in one process, with less memory at its peak and more time.",
        "A line-up with a rule strategy (`rules:NAME`), and a run with a house rule on, compile a copy of",
        "the kernels of their own the first time, with the rule interpreter (and the house rules' code).",
        "",
        "## Measurements behind the code's choices",
        "",
        "Measured once, when each choice was made (same machine class); the comments in the code say why",
        "each choice is made and point here for the figures.",
        "",
        "| choice | measured |",
        "|---|---|",
        *[f"| {a} | {b} |" for a, b in CHOICE_FIGURES],
        "",
    ]
    args.out.write_text("\n".join(lines))
    print(args.out)


if __name__ == "__main__":
    main()
