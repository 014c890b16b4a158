"""Paired comparisons of ``tunable`` settings at party, 6 players, against the field of built-ins.

How the start of the second party search (``experiments/tuned_party_6_start.json``) was set by hand. Every
step of ``experiments/party_6_comparisons.json`` is a list of variants, each a set of parameter values applied
to the base file (the first party search's result, ``tests/data/tuned_party_6_first_search.json``); they play
the same deals, as ``unosim tune``'s candidates do (:func:`unosim.analysis.tuning.play_candidates`: the candidate at
every seat, the field in turn around it), and each is compared with the step's first variant by the paired,
deal-clustered difference.

Run from the repository root::

    python experiments/party_6_compare.py                # every step (about 6 minutes with 2 workers)
    python experiments/party_6_compare.py --step 5       # one step
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from unosim.strategies.tunable import load_tuned

from unosim.analysis.tournament import Z95, cluster_ratio
from unosim.analysis.tuning import make_settings, play_candidates
from unosim.runs.execution import parallel
from unosim.runs.options import Execution

HERE = Path(__file__).parent
FIELD = "random,greedy,diversity,ranking,wild-saver,colour-keeper,attacker,bluffer"
BASE = HERE.parent / "tests" / "data" / "tuned_party_6_first_search.json"


def compare(variants: dict[str, dict[str, float]], deals: int, seed: int, jobs: int) -> list[dict[str, float]]:
    """Win rate of each variant and its paired difference from the first, with 95 % deal-clustered intervals."""
    base = load_tuned(BASE)["params"]
    settings = make_settings(rules="party", players=6, against=FIELD, games_per_candidate=6 * deals, seed=seed,
                             budget=10**12)
    with parallel(Execution(jobs=jobs), None):
        wins = play_candidates(settings, settings.evaluation_seed, [{**base, **v} for v in variants.values()], 0,
                               deals, jobs)
    rows = []
    m = np.full(deals, 6.0)
    for label, w in zip(variants, wins, strict=True):
        rate, se = cluster_ratio(w.astype(np.float64), m)
        diff, diff_se = cluster_ratio((w - wins[0]).astype(np.float64), m)
        rows.append({"variant": label, "win_rate": rate, "half_width": Z95 * se, "diff": diff,
                     "diff_half_width": Z95 * diff_se})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--step", type=int, help="run this step only (1-based)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    steps = json.loads((HERE / "party_6_comparisons.json").read_text())["steps"]
    for k, step in enumerate(steps, 1):
        if args.step is not None and k != args.step:
            continue
        started = time.perf_counter()
        rows = compare(step["variants"], step["deals"], step["seed"], args.jobs)
        print(f"step {k}: {step['what']} ({step['deals']:,} deals × 6 seatings, seed {step['seed']})")
        for row in rows:
            print(f"  {row['variant']:32s} {row['win_rate']:.4f} ±{row['half_width']:.4f}   "
                  f"vs {rows[0]['variant']}: {row['diff']:+.4f} ±{row['diff_half_width']:.4f}")
        print(f"  ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
