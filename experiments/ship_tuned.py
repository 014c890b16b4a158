"""Write a shipped tuned strategy from a `unosim tune` run and its start (used by tuned_strategies.sh).

The run's result is shipped when its paired held-out improvement over the start is above 0 with 95 %
confidence; otherwise the start's parameters are, with the run's settings and evaluation and a note saying so::

    python experiments/ship_tuned.py RUN/tuned.json START.json NAME OUT.json
"""

from __future__ import annotations

import json
import sys


def main(run_path: str, start_path: str, name: str, out_path: str) -> None:
    run = json.load(open(run_path))
    start = json.load(open(start_path))
    better = run["evaluation"]["improvement_low"] > 0
    shipped = {"format": run["format"], "strategy": run["strategy"], "name": name,
               "params": run["params"] if better else start["params"],
               "note": ("params: the search's result" if better else
                        f"params: the start of the search ({start_path}); the search's own result was no better on "
                        "the held-out games (evaluation: win_rate is the search's result, start_win_rate these "
                        "params, improvement the paired difference), so it is not shipped"),
               "tuned": run["tuned"], "evaluation": run["evaluation"]}
    with open(out_path, "w") as f:
        json.dump(shipped, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
