"""Statistics that stream: least squares with standard errors clustered by game from
sufficient statistics accumulated chunk by chunk, and paired differences.

Clustered least squares
-----------------------
For rows ``i`` grouped in clusters ``g`` (the seats of one game), the ordinary least
squares estimate is ``b = (X'X)^-1 X'y`` and the cluster-robust covariance is the
sandwich ``V = c (X'X)^-1 M (X'X)^-1`` with the meat ``M = sum_g s_g s_g'``,
``s_g = sum_{i in g} x_i (y_i - x_i'b)`` and the small-sample factor
``c = G/(G-1) * (N-1)/(N-K)`` (``G`` clusters, ``N`` rows, ``K`` columns; the
same as statsmodels' ``cov_type="cluster"``). ``X'X`` and ``X'y`` need one pass
over the data (`ClusteredOLS.add_moments`); the meat needs the residuals,
so a second pass (`ClusteredOLS.add_meat`) once `ClusteredOLS.solve`
has the coefficients. Memory is ``O(K^2)`` whatever the number of rows.

Multiple comparisons
--------------------
A report that flags many estimates at once controls the family-wise error rate with
Holm's step-down method (`adjust_p_values`, statsmodels' ``multipletests``): a flag
is raised only where the adjusted p-value is below 5 %.

Intervals are normal (quantiles from ``scipy.special.ndtri``): with thousands of clusters the
t and normal quantiles agree to the digits shown.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.special import ndtr, ndtri

from ..game.errors import UnosimInputError

LEVEL = 0.95
"""Confidence level of every interval."""
ADJUSTMENT = "holm"
"""Multiple-comparison method of every report's flags (a ``statsmodels`` ``multipletests`` method)."""
ADJUSTMENT_NAME = "Holm"
"""How reports name `ADJUSTMENT`."""


def p_value(estimate: NDArray[np.floating] | float, se: NDArray[np.floating] | float) -> NDArray[np.float64]:
    """Two-sided normal p-values of ``estimate / se`` against 0 (``nan`` where either is not finite or ``se`` is 0)."""
    e = np.asarray(estimate, np.float64)
    s = np.asarray(se, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.abs(e / s)
    return np.where(np.isfinite(z), 2 * ndtr(-z), np.nan)


def adjust_p_values(p: NDArray[np.floating] | list[float], alpha: float = 1 - LEVEL,
                    method: str = ADJUSTMENT) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
    """Adjust a family of p-values for multiple comparisons (statsmodels' ``multipletests``).

    Parameters
    ----------
    p : array-like
        The family's p-values; ``nan`` entries are left out of the family.
    alpha : float
        Family-wise error rate (``holm``) or false discovery rate (``fdr_bh``).
    method : str
        A ``multipletests`` method: ``"holm"`` (default) or ``"fdr_bh"`` (Benjamini–Hochberg).

    Returns
    -------
    reject : ndarray of bool
        Whether each hypothesis is rejected after adjustment (``False`` for ``nan``).
    adjusted : ndarray of float
        The adjusted p-values (``nan`` for ``nan``).
    """
    from statsmodels.stats.multitest import multipletests

    values = np.asarray(p, np.float64)
    reject = np.zeros(values.shape, bool)
    adjusted = np.full(values.shape, np.nan)
    known = np.isfinite(values)
    if known.any():
        r, a, _, _ = multipletests(values[known], alpha=alpha, method=method)
        reject[known], adjusted[known] = r, a
    return reject, adjusted


def z_value(level: float = LEVEL) -> float:
    """Two-sided normal quantile of ``level`` (1.96 for 95 %)."""
    return float(ndtri(0.5 + level / 2))


@dataclass(frozen=True)
class OLSResult:
    """Coefficients of a clustered least-squares fit.

    Attributes
    ----------
    names : tuple of str
        Column names; columns without any variation in the data were dropped
        (their coefficient is ``nan``).
    coef : ndarray
        Coefficients.
    cov : ndarray
        Cluster-robust covariance of the coefficients.
    rows, clusters : int
        Rows and clusters (games) in the fit.
    """

    names: tuple[str, ...]
    coef: NDArray[np.float64]
    cov: NDArray[np.float64]
    rows: int
    clusters: int

    @property
    def se(self) -> NDArray[np.float64]:
        """Standard errors (square roots of the covariance diagonal)."""
        return np.sqrt(np.diag(self.cov))

    def index(self, name: str) -> int:
        """Position of column ``name``."""
        return self.names.index(name)

    def estimate(self, weights: dict[str, float], level: float = LEVEL) -> tuple[float, float, float, float]:
        """A linear combination ``sum w_j b_j``: (estimate, standard error, low, high)."""
        w = np.zeros(len(self.names))
        for name, value in weights.items():
            w[self.index(name)] = value
        est = float(w @ np.nan_to_num(self.coef))
        if any(np.isnan(self.coef[self.index(n)]) for n in weights):
            return float("nan"), float("nan"), float("nan"), float("nan")
        se = float(np.sqrt(max(float(w @ np.nan_to_num(self.cov) @ w), 0.0)))
        half = z_value(level) * se
        return est, se, est - half, est + half


class ClusteredOLS:
    """Least squares with cluster-robust errors from streamed chunks (two passes).

    Parameters
    ----------
    names : sequence of str
        Names of the ``K`` columns of every design chunk.
    """

    def __init__(self, names: list[str] | tuple[str, ...]) -> None:
        self.names = tuple(names)
        k = len(self.names)
        self.xtx = np.zeros((k, k))
        self.xty = np.zeros(k)
        self.meat = np.zeros((k, k))
        self.rows = 0
        self.clusters = 0
        self.coef: NDArray[np.float64] | None = None
        self._keep: NDArray[np.bool_] | None = None

    def add_moments(self, X: NDArray[np.floating], y: NDArray[np.floating], weights: NDArray[np.floating] | None = None) -> None:
        """First pass: add a chunk's ``X'X`` and ``X'y``; ``weights`` count repeated rows
        (a row of weight 3 stands for three identical rows)."""
        X = np.asarray(X, np.float64)
        y = np.asarray(y, np.float64)
        if weights is None:
            self.xtx += X.T @ X
            self.xty += X.T @ y
            self.rows += len(X)
            return
        w = np.asarray(weights, np.float64)
        self.xtx += (X * w[:, None]).T @ X
        self.xty += X.T @ (w * y)
        self.rows += int(round(w.sum()))

    def solve(self) -> NDArray[np.float64]:
        """The coefficients from the first pass (columns never non-zero are dropped).

        Raises
        ------
        ValueError
            If the design is singular after dropping empty columns (collinear columns).
        """
        keep = np.diag(self.xtx) > 0
        if not keep.any():
            raise ValueError("no data: add chunks with add_moments() before solve().")
        sub = self.xtx[np.ix_(keep, keep)]
        if np.linalg.matrix_rank(sub) < keep.sum():
            raise UnosimInputError(f"the design of columns {self.names} is collinear; drop a column.")
        coef = np.full(len(self.names), np.nan)
        coef[keep] = np.linalg.solve(sub, self.xty[keep])
        self.coef, self._keep = coef, keep
        return coef

    def add_meat(self, X: NDArray[np.floating], y: NDArray[np.floating], cluster: NDArray[np.integer]) -> None:
        """Second pass: add a chunk's clustered scores. ``cluster`` labels each row; the
        rows of one cluster must be contiguous and within one chunk."""
        if self.coef is None or self._keep is None:
            raise ValueError("call solve() after the first pass before add_meat().")
        X = np.asarray(X, np.float64)[:, self._keep]
        resid = np.asarray(y, np.float64) - X @ self.coef[self._keep]
        scores = X * resid[:, None]
        cluster = np.asarray(cluster)
        if len(cluster) == 0:
            return
        starts = np.flatnonzero(np.r_[True, cluster[1:] != cluster[:-1]])
        sums = np.add.reduceat(scores, starts, axis=0)
        keep = self._keep
        self.meat[np.ix_(keep, keep)] += sums.T @ sums
        self.clusters += len(starts)

    def residuals(self, X: NDArray[np.floating], y: NDArray[np.floating]) -> NDArray[np.float64]:
        """``y - X b`` with the coefficients of `solve` (dropped columns count 0)."""
        if self.coef is None:
            raise ValueError("call solve() after the first pass before residuals().")
        return np.asarray(y, np.float64) - np.asarray(X, np.float64) @ np.nan_to_num(self.coef)

    def add_scores(self, scores: NDArray[np.floating], clusters: int | None = None) -> None:
        """Second pass, when the caller sums the scores itself: ``scores`` holds one row
        per cluster, ``sum_{i in g} x_i (y_i - x_i'b)`` (all ``K`` columns); ``clusters``
        (default: its rows) is how many clusters they stand for (with weighted rows,
        ``sqrt(w) * x * e`` stands for ``w`` clusters of one row)."""
        if self.coef is None or self._keep is None:
            raise ValueError("call solve() after the first pass before add_scores().")
        keep = self._keep
        S = np.asarray(scores, np.float64)
        if keep.all():
            self.meat += S.T @ S
        else:
            S = S[:, keep]
            self.meat[np.ix_(keep, keep)] += S.T @ S
        self.clusters += len(S) if clusters is None else int(clusters)

    def result(self) -> OLSResult:
        """Coefficients and their cluster-robust covariance (after both passes)."""
        if self.coef is None or self._keep is None:
            raise ValueError("call solve() and add_meat() before result().")
        keep = self._keep
        k, n, g = int(keep.sum()), self.rows, self.clusters
        if g < 2 or n <= k:
            raise UnosimInputError(f"{g} clusters and {n} rows are too few for clustered errors of {k} coefficients.")
        bread = np.linalg.inv(self.xtx[np.ix_(keep, keep)])
        factor = g / (g - 1) * (n - 1) / (n - k)
        cov = np.full((len(keep), len(keep)), np.nan)
        cov[np.ix_(keep, keep)] = factor * bread @ self.meat[np.ix_(keep, keep)] @ bread
        return OLSResult(self.names, self.coef.copy(), cov, n, g)


@dataclass(frozen=True)
class Paired:
    """A paired difference ``mean(b - a)`` over the same units (common random numbers).

    Attributes
    ----------
    diff, se, low, high : float
        Mean difference, its standard error and 95 % interval.
    mean_a, mean_b : float
        The two means.
    n : int
        Pairs.
    variance_reduction : float
        Variance of the difference if ``a`` and ``b`` were independent samples,
        divided by the variance of the paired difference (1 = pairing did not help;
        ``nan`` when neither sample varies).
    """

    diff: float
    se: float
    low: float
    high: float
    mean_a: float
    mean_b: float
    n: int
    variance_reduction: float


def paired_difference(a: NDArray[np.floating], b: NDArray[np.floating], level: float = LEVEL) -> Paired:
    """Mean of ``b - a`` with its interval, and the variance reduction the pairing achieved."""
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    if a.shape != b.shape or a.ndim != 1 or len(a) < 2:
        raise ValueError("paired_difference needs two 1-d samples of the same length, at least 2.")
    d = b - a
    var_paired = d.var(ddof=1)
    var_unpaired = a.var(ddof=1) + b.var(ddof=1)
    se = float(np.sqrt(var_paired / len(d)))
    half = z_value(level) * se
    mean = float(d.mean())
    if var_paired > 0:
        reduction = float(var_unpaired / var_paired)
    else:  # identical pairs: infinite gain, or no variance at all (nan)
        reduction = float("inf") if var_unpaired > 0 else float("nan")
    return Paired(mean, se, mean - half, mean + half, float(a.mean()), float(b.mean()), len(d), reduction)


def mean_interval(values: NDArray[np.floating], level: float = LEVEL) -> tuple[float, float, float]:
    """Mean of a sample and its normal interval (low, high)."""
    v = np.asarray(values, np.float64)
    mean = float(v.mean())
    half = z_value(level) * float(v.std(ddof=1)) / np.sqrt(len(v)) if len(v) > 1 else float("nan")
    return mean, mean - half, mean + half


__all__ = ["ADJUSTMENT", "ADJUSTMENT_NAME", "LEVEL", "ClusteredOLS", "OLSResult", "Paired", "adjust_p_values",
           "mean_interval", "p_value", "paired_difference", "z_value"]
