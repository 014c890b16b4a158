"""Speed of strategies relative to a baseline, measured in one process, interleaved.

On a shared machine two separate ``unosim bench`` runs a few seconds apart can
differ by 30 % or more (other tenants, frequency changes), which hides a 10 %
difference between two strategies. Here every strategy's engine is built once
and the engines take turns playing one chunk each (the same games: the same
seed and game indices), for ``--rounds`` rounds; each chunk is timed in CPU
seconds of this process (``time.process_time``), which time spent descheduled
does not inflate. A round gives each strategy's games per CPU-second divided by
the baseline's in the same round; the script prints every strategy's median
ratio over the rounds, with the lowest and highest.

    python experiments/paired_speed.py --rules classic --players 4 \\
        --baseline random --strategies rules:holder,rules:wild-saver --rounds 15

Output: one line per strategy, ``name median [min, max]`` of the ratio, and the
baseline's median games per CPU-second (``--json`` for one JSON object).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from unosim.analysis.bench import _config
from unosim.engine.driver import Engine


def chunk_rate(engine: Engine, first: int, games: int) -> float:
    """Games per CPU-second of ``engine`` playing games ``first .. first + games - 1``."""
    start = time.process_time()
    engine.play(first, games)
    return games / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--baseline", default="random")
    parser.add_argument("--strategies", required=True, help="comma-separated, each played at every seat")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--batches", type=int, default=10, help="batches per chunk")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    names = [args.baseline, *args.strategies.split(",")]
    engines = {name: Engine(_config(args.rules, args.players, name, 0, None)) for name in names}
    for engine in engines.values():
        engine.play(0, 2 * engine.batch_size)  # warm-up: kernels loaded, buffers touched
    ratios: dict[str, list[float]] = {name: [] for name in names[1:]}
    base_rates = []
    for r in range(args.rounds):
        first = r * args.batches * 4096
        rates = {name: chunk_rate(engine, first, args.batches * engine.batch_size) for name, engine in engines.items()}
        base_rates.append(rates[args.baseline])
        for name in ratios:
            ratios[name].append(rates[name] / rates[args.baseline])
    result = {
        "rules": args.rules, "players": args.players, "baseline": args.baseline, "rounds": args.rounds,
        "baseline_games_per_cpu_second": round(statistics.median(base_rates)),
        "ratios": {name: {"median": round(statistics.median(v), 3), "min": round(min(v), 3), "max": round(max(v), 3)}
                   for name, v in ratios.items()},
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.rules}, {args.players} players; baseline {args.baseline}: "
          f"{result['baseline_games_per_cpu_second']:,} games per CPU-second (median of {args.rounds} rounds)")
    for name, r in result["ratios"].items():
        print(f"  {name:24s} ÷ {args.baseline}: {r['median']:.3f} [{r['min']:.3f}, {r['max']:.3f}]")


if __name__ == "__main__":
    main()
