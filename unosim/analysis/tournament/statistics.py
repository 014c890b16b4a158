"""Win rates with deal-clustered intervals, head-to-head shares and Bradley–Terry ratings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from .design import Design

BOOTSTRAP_BLOCKS = 1000
"""Deals are resampled in at most this many blocks of consecutive deals."""
RATING_ALPHA = 0.01
"""Regularisation of the Bradley–Terry fit (choix ``alpha``): about 0.02 pseudo-comparisons
per pair, so a strategy that never wins still gets a finite rating."""
Z95 = 1.959963984540054

# ------------------------------------------------------------------ statistics
def cluster_ratio(y: NDArray[np.floating], m: NDArray[np.floating]) -> tuple[float, float]:
    """Ratio mean ``sum(y) / sum(m)`` over clusters and its cluster-robust (CR1) standard error.

    ``y[d]`` is the sum of the outcomes of cluster ``d`` (here: a deal), ``m[d]``
    its number of observations; clusters with ``m == 0`` are left out. Equals
    the clustered standard error of OLS on a constant (statsmodels'
    ``cov_type="cluster"``): ``sqrt(G/(G-1) · sum((y - r m)^2)) / sum(m)``.
    """
    keep = m > 0
    y, m = np.asarray(y, float)[keep], np.asarray(m, float)[keep]
    total = m.sum()
    if total == 0:
        return float("nan"), float("nan")
    ratio = y.sum() / total
    g = len(m)
    if g < 2:
        return float(ratio), float("nan")
    resid = y - ratio * m
    return float(ratio), float(np.sqrt(g / (g - 1) * np.sum(resid**2)) / total)


@dataclass(frozen=True)
class _Rows:
    """Per-game arrays of a tournament, seat values already mapped to strategies."""

    deal: NDArray[np.int64]
    strat: NDArray[np.int64]  # (games, seats) strategy index
    won: NDArray[np.bool_]  # (games, seats)
    points: NDArray[np.float64]  # (games, seats) points scored
    cell: NDArray[np.int64]


def _per_seat(column: pa.ChunkedArray, players: int) -> NDArray[np.float64]:
    flat = pc.list_flatten(column).to_numpy(zero_copy_only=False)
    return flat.reshape(-1, players).astype(np.float64)


def _rows(design: Design, main: pa.Table, match: bool) -> _Rows:
    P = design.players
    lineups = design.lineups()
    cell = main.column("cell").to_numpy().astype(np.int64)
    deal = main.column("game").to_numpy().astype(np.int64)
    winner_col = main.column("match_winner" if match else "winner")
    winner = pc.fill_null(winner_col, -1).to_numpy().astype(np.int64)
    won = winner[:, None] == np.arange(P)[None, :]
    if match:
        points = _per_seat(main.column("scores"), P)
    else:
        points = won * main.column("winner_points").to_numpy().astype(np.float64)[:, None]
    return _Rows(deal=deal, strat=lineups[cell], won=won, points=points, cell=cell)


def _by_deal(deal: NDArray[np.int64], values: NDArray[Any], deals: int) -> NDArray[np.float64]:
    return np.bincount(deal, weights=values.astype(np.float64), minlength=deals).astype(np.float64)


def analyse(
    design: Design,
    main: pa.Table,
    rounds: pa.Table | None,
    *,
    deals: int,
    match: bool,
    seed: int,
    bootstrap: int,
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Leaderboard, head-to-head and ratings of a tournament's rows (module docstring).

    ``bootstrap=0`` skips the rating intervals (precision rounds).
    """
    n = len(design.strategies)
    rows = _rows(design, main, match)
    if match:
        assert rounds is not None
        r_strat = design.lineups()[rounds.column("cell").to_numpy().astype(np.int64)]
        r_deal = rounds.column("game").to_numpy().astype(np.int64)
        r_hand = _per_seat(rounds.column("hand_points"), design.players)
    else:
        r_strat, r_deal = rows.strat, rows.deal
        r_hand = _per_seat(main.column("hand_points"), design.players)
    wins = np.zeros((len(rows.deal), n))
    seats = np.zeros((len(rows.deal), n))
    board = []
    for k in range(n):
        mine = rows.strat == k
        seats[:, k] = mine.sum(axis=1)
        wins[:, k] = (mine & rows.won).sum(axis=1)
        m = _by_deal(rows.deal, seats[:, k], deals)
        rate, rate_se = cluster_ratio(_by_deal(rows.deal, wins[:, k], deals), m)
        points, points_se = cluster_ratio(_by_deal(rows.deal, (mine * rows.points).sum(axis=1), deals), m)
        r_mine = r_strat == k
        hand, hand_se = cluster_ratio(
            _by_deal(r_deal, (r_mine * r_hand).sum(axis=1), deals), _by_deal(r_deal, r_mine.sum(axis=1), deals)
        )
        board.append({
            "strategy": design.strategies[k],
            "seat_games": int(seats[:, k].sum()),
            "wins": int(wins[:, k].sum()),
            "win_rate": rate,
            "win_rate_lo": rate - Z95 * rate_se,
            "win_rate_hi": rate + Z95 * rate_se,
            "win_rate_pm": Z95 * rate_se,
            "points": points,
            "points_pm": Z95 * points_se,
            "hand_points": hand,
            "hand_points_pm": Z95 * hand_se,
        })
    pairs = _head_to_head(design, rows.deal, wins > 0, seats > 0, deals)
    ratings = fit_ratings(design, rows, deals=deals, seed=seed, bootstrap=bootstrap)
    leaderboard = pd.DataFrame(board).merge(ratings, on="strategy")
    leaderboard = leaderboard.sort_values(["rating", "win_rate"], ascending=False, kind="stable").reset_index(drop=True)
    leaderboard.insert(0, "rank", np.arange(1, n + 1))
    return leaderboard, pairs, ratings


def _head_to_head(
    design: Design, deal: NDArray[np.int64], won: NDArray[np.bool_], present: NDArray[np.bool_], deals: int
) -> pd.DataFrame:
    """Every ordered pair: the games both played, the share each won, the first's share of the pair's wins."""
    out = []
    n = len(design.strategies)
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            both = present[:, i] & present[:, j]
            games = _by_deal(deal, both, deals)
            won_i, won_i_se = cluster_ratio(_by_deal(deal, both & won[:, i], deals), games)
            won_j, _ = cluster_ratio(_by_deal(deal, both & won[:, j], deals), games)
            decided = _by_deal(deal, both & (won[:, i] | won[:, j]), deals)
            beat, beat_se = cluster_ratio(_by_deal(deal, both & won[:, i], deals), decided)
            out.append({
                "strategy": design.strategies[i],
                "opponent": design.strategies[j],
                "games": int(both.sum()),
                "won": won_i,
                "won_lo": won_i - Z95 * won_i_se,
                "won_hi": won_i + Z95 * won_i_se,
                "opponent_won": won_j,
                "beat": beat,
                "beat_lo": beat - Z95 * beat_se,
                "beat_hi": beat + Z95 * beat_se,
            })
    return pd.DataFrame(out)


def comparison_blocks(
    design: Design, rows: _Rows, *, deals: int, blocks: int = BOOTSTRAP_BLOCKS
) -> NDArray[np.float64]:
    """Pairwise comparison counts per block of deals, shape (blocks, n, n).

    Entry ``[b, i, j]``: in the games of block ``b``, how often a seat of ``i``
    won while a seat of ``j`` (``j != i``) lost — top-1 rank breaking.
    """
    n = len(design.strategies)
    n_blocks = max(1, min(blocks, deals))
    lineups = design.lineups()
    per_cell = np.stack([np.bincount(lineup, minlength=n) for lineup in lineups]).astype(np.float64)
    has_winner = rows.won.any(axis=1)
    block = (rows.deal * n_blocks // max(deals, 1))[has_winner]
    winner_strat = (rows.strat * rows.won).sum(axis=1)[has_winner]
    key = (block * lineups.shape[0] + rows.cell[has_winner]) * n + winner_strat
    keys, games = np.unique(key, return_counts=True)  # games per (block, cell, winning strategy)
    cell = keys // n % lineups.shape[0]
    comp = np.zeros((n_blocks, n, n))
    np.add.at(comp, (keys // n // lineups.shape[0], keys % n), per_cell[cell] * games[:, None])
    comp[:, np.arange(n), np.arange(n)] = 0.0
    return comp


def bradley_terry(comparisons: NDArray[np.float64]) -> NDArray[np.float64]:
    """Bradley–Terry log-strengths (mean 0) of a pairwise win-count matrix, fitted with choix."""
    import choix

    return np.asarray(choix.ilsr_pairwise_dense(comparisons, alpha=RATING_ALPHA, max_iter=10_000, tol=1e-10))


def fit_ratings(design: Design, rows: _Rows, *, deals: int, seed: int, bootstrap: int) -> pd.DataFrame:
    """Ratings with bootstrap standard errors and percentile intervals (NaN when ``bootstrap == 0``)."""
    blocks = comparison_blocks(design, rows, deals=deals)
    rating = bradley_terry(blocks.sum(axis=0))
    n = len(design.strategies)
    se = lo = hi = np.full(n, np.nan)
    if bootstrap:
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0x7A7,)))
        weights = rng.multinomial(len(blocks), np.full(len(blocks), 1.0 / len(blocks)), size=bootstrap)
        draws = np.array([bradley_terry(np.tensordot(w, blocks, axes=1)) for w in weights.astype(float)])
        se = draws.std(axis=0, ddof=1)
        lo, hi = np.percentile(draws, [2.5, 97.5], axis=0)
    return pd.DataFrame({"strategy": list(design.strategies), "rating": rating, "rating_se": se,
                         "rating_lo": lo, "rating_hi": hi})


__all__ = ["BOOTSTRAP_BLOCKS", "RATING_ALPHA", "Z95", "analyse", "bradley_terry", "cluster_ratio", "comparison_blocks", "fit_ratings"]
