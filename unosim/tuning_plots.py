"""The progress plot of a tuning run: best and mean fitness per generation with 95 % intervals."""

from __future__ import annotations

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure


def progress_plot(history: pd.DataFrame, ax: Axes, fair_share: float | None = None) -> Axes:
    """Per generation: the best candidate's and the population's mean win rate, each with its 95 % band."""
    x = history["generation"]
    for key, label, colour in (("best", "best candidate", "#1f4e79"), ("mean", "mean of the generation", "#c55a11")):
        ax.plot(x, history[key], marker="o", ms=3, color=colour, label=label)
        ax.fill_between(x, history[f"{key}_low"], history[f"{key}_high"], color=colour, alpha=0.2, lw=0)
    if fair_share is not None:
        ax.axhline(fair_share, color="grey", ls="--", lw=1, label=f"fair share 1/P = {fair_share:.3f}")
    ax.set_xlabel("generation (every candidate of one generation plays the same deals)")
    ax.set_ylabel("win rate per seat-game (95 % interval)")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize="small")
    return ax


def progress_figure(history: pd.DataFrame, title: str, fair_share: float | None = None) -> Figure:
    """:func:`progress_plot` in a figure of its own."""
    fig = Figure(figsize=(7.5, 4.5))
    progress_plot(history, fig.add_subplot(), fair_share)
    fig.suptitle(title, fontsize="medium")
    return fig


__all__ = ["progress_figure", "progress_plot"]
