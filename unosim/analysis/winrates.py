"""Win rates of the strategies of a run: by seat, and pooled over the seats each strategy holds.

A game stopped at ``max_turns`` (E-5) counts as a game nobody won. Intervals are 95 % normal
intervals; a strategy's pooled rate is per seat-game, and its interval is clustered by game
(the seats of one game are dependent: exactly one of them wins).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ..game.errors import UnosimInputError
from .stats import z_value

__all__ = ["win_rates"]


def win_rates(winner: NDArray[Any] | pd.Series, strategies: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Win rates by seat and by strategy, with 95 % intervals.

    Parameters
    ----------
    winner : array-like
        The winning seat of each game (``nan``/null/negative for a truncated game).
    strategies : list of str
        The strategy of each seat (seat 0 first).

    Returns
    -------
    by_seat : pandas.DataFrame
        ``seat``, ``strategy``, ``wins``, ``games``, ``win_rate``, ``low``, ``high``.
    by_strategy : pandas.DataFrame
        ``strategy``, ``seats``, ``seat_games``, ``win_rate``, ``low``, ``high``, ``fair_share``
        (the share of the table its seats hold), best first.
    """
    w = pd.Series(winner).astype("float64").to_numpy()
    w = np.where(np.isfinite(w) & (w >= 0), w, -1).astype(np.int64)
    n = len(w)
    if n == 0:
        raise UnosimInputError("no games: win rates need at least one game.")
    z = z_value()
    P = len(strategies)
    seats = []
    for seat, name in enumerate(strategies):
        wins = int((w == seat).sum())
        p = wins / n
        half = z * np.sqrt(p * (1 - p) / n)
        seats.append({"seat": seat, "strategy": name, "wins": wins, "games": n, "win_rate": p,
                      "low": max(0.0, p - half), "high": min(1.0, p + half)})
    pooled = []
    for name in dict.fromkeys(strategies):
        held = np.array([s == name for s in strategies])
        k = int(held.sum())
        per_game = np.where(w >= 0, held[np.clip(w, 0, P - 1)], False).astype(float) / k  # its share of the game's seats won
        p = float(per_game.mean())
        half = z * float(per_game.std(ddof=1)) / np.sqrt(n) if n > 1 else float("nan")
        pooled.append({"strategy": name, "seats": k, "seat_games": k * n, "win_rate": p,
                       "low": max(0.0, p - half), "high": min(1.0, p + half), "fair_share": 1 / P})
    by_strategy = pd.DataFrame(pooled).sort_values("win_rate", ascending=False, kind="stable").reset_index(drop=True)
    return pd.DataFrame(seats), by_strategy
