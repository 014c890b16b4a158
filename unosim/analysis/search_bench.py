"""The search player's benchmark: searched decisions and games per second at each budget, on one core.

``unosim bench --search`` plays ``search`` at one seat against ``random`` at the others (classic at 2
and 4 players, party at 6) for each budget, and reports the searched decisions per second, the
milliseconds per searched decision and the games per second. The machines are shared and noisy:
compare figures taken in the same run.
"""

from __future__ import annotations

import time
from typing import Any

from ..engine.config import RunConfig
from ..engine.driver import Engine
from ..game.errors import UnosimInputError

__all__ = ["SEARCH_BUDGETS", "SEARCH_TABLES", "bench_search"]

SEARCH_TABLES = (("classic", 2), ("classic", 4), ("party", 6))
"""The tables of the search benchmark: (preset, players)."""
SEARCH_BUDGETS = (256, 1024, 4096)
"""Playouts per decision measured by default (1,024 is the strategy's default)."""


def bench_search(seconds: float = 10.0, budgets: tuple[int, ...] = SEARCH_BUDGETS,
                 tables: tuple[tuple[str, int], ...] = SEARCH_TABLES, *, seed: int = 0,
                 batch_size: int = 64) -> list[dict[str, Any]]:
    """For each table and budget, play about ``seconds`` seconds (whole batches) and return the rates.

    Returns
    -------
    list of dict
        One per (table, budget): ``rules``, ``players``, ``playouts``, ``games``, ``decisions``,
        ``seconds``, ``games_per_second``, ``decisions_per_second`` and ``ms_per_decision`` (the time
        spent searching over the decisions searched).
    """
    if not 0 < seconds <= 3600:
        raise UnosimInputError(f"seconds = {seconds}; give a duration from 0 to 3600 seconds.")
    bad = [b for b in budgets if not 1 <= b <= 1_000_000]
    if bad:
        raise UnosimInputError(f"budget {bad[0]} is not allowed; give playouts per decision from 1 to 1,000,000.")
    results = []
    for rules, players in tables:
        for budget in budgets:
            spec = f"search(playouts={budget})"
            config = RunConfig.build(rules=rules, players=players, strategies=[spec] + ["random"] * (players - 1), seed=seed,
                                     games=batch_size)
            engine = Engine(config, batch_size=batch_size)
            engine.play(0, 1)  # warm-up: compilation of the playouts' helpers
            search: Any = engine.strategies[0]  # the search strategy: its counters of decisions searched
            search.searched, search.search_seconds = 0, 0.0
            games = 0
            start = time.perf_counter()
            while True:
                engine.play(1 + games, batch_size)
                games += batch_size
                elapsed = time.perf_counter() - start
                if elapsed >= seconds:
                    break
            decisions = int(search.searched)
            results.append({
                "rules": rules, "players": players, "playouts": budget, "games": games, "decisions": decisions,
                "seconds": round(elapsed, 3), "games_per_second": round(games / elapsed, 2),
                "decisions_per_second": round(decisions / elapsed, 1),
                "ms_per_decision": round(1000 * search.search_seconds / max(decisions, 1), 2),
            })
    return results
