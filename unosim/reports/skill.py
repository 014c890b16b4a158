"""Skill study report: the skill-share plot and the files of a skill study's report.

`skill_share_plot` draws, for one measured player, its win rate against ``random``
divided by the fair share 1/P as a heatmap of rule sets by player count: 1 (white) is a seat
that wins its fair share and no more; cells whose 95 % interval holds 1 are written in grey.
`write_report` writes ``report.md`` (the findings, then one table per measured player),
``skill_share.png/.svg`` (one panel per measured player, one colour scale) and ``skill.csv``.
It takes a `unosim.analysis.skill.SkillStudy` (any object with its ``table`` and ``settings``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ..runs.results import write_whole
from .plots import CMAP_DIVERGING

__all__ = ["FORMATS", "share_spread", "skill_figure", "skill_markdown", "skill_share_plot", "write_report"]

FORMATS = ("png", "svg")


def share_spread(table: pd.DataFrame) -> float:
    """The largest |log2 skill share| of the table (at least log2 1.25): one colour scale for every panel."""
    shares = table["skill_share"].to_numpy(float)
    shares = shares[np.isfinite(shares) & (shares > 0)]
    return max(float(np.abs(np.log2(shares)).max()) if shares.size else 0.0, float(np.log2(1.25)))


def skill_share_plot(table: pd.DataFrame, player: str, ax: Axes | None = None, spread: float | None = None) -> Axes:
    """The skill share of ``player`` (win rate over 1/P) as a heatmap: rule sets (rows) by player count (columns).

    The colour is log2 of the share (white: the fair share; the scale is symmetric, so twice and half the share
    are equally strong); each cell is written with its share. Cells whose 95 % interval holds 1 are written in
    grey italics: at this sample size they are not told apart from a random seat.

    Parameters
    ----------
    table : pandas.DataFrame
        `unosim.analysis.skill.SkillStudy.table`.
    player : str
        The measured player drawn (a value of the ``player`` column).
    ax : matplotlib.axes.Axes, optional
        Where to draw (default a new figure).
    spread : float, optional
        The colour scale, ``±spread`` in log2 of the share (default the panel's own largest; pass
        `share_spread` of the whole table to give panels side by side one scale).

    Returns
    -------
    matplotlib.axes.Axes
    """
    data = table[table["player"] == player]
    rule_sets = list(dict.fromkeys(data["rule_set"]))
    counts = sorted(int(p) for p in data["players"].unique())
    ax = ax or plt.figure(figsize=(1.0 * len(counts) + 3.5, 0.42 * len(rule_sets) + 1.6)).gca()

    def grid(column: str) -> np.ndarray:
        return data.pivot(index="rule_set", columns="players", values=column).reindex(index=rule_sets,
                                                                                      columns=counts).to_numpy(float)

    share, low, high = grid("skill_share"), grid("share_low"), grid("share_high")
    spread = spread if spread is not None else share_spread(data)
    with np.errstate(invalid="ignore"):
        log_share = np.log2(np.maximum(share, 2.0 ** -spread))  # a share of 0 is drawn at the scale's end
    image = ax.imshow(np.where(np.isfinite(log_share), log_share, np.nan), aspect="auto", cmap=CMAP_DIVERGING,
                      vmin=-spread, vmax=spread)
    for (i, j), v in np.ndenumerate(share):
        if np.isnan(v):
            continue
        unclear = low[i, j] <= 1 <= high[i, j]
        strong = np.isfinite(log_share[i, j]) and abs(log_share[i, j]) > 0.6 * spread
        ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize="small",
                color="white" if strong else ("dimgrey" if unclear else "black"),
                fontstyle="italic" if unclear else "normal", fontweight="normal" if unclear else "bold")
    ax.set_xticks(range(len(counts)), [str(c) for c in counts])
    ax.set_yticks(range(len(rule_sets)), rule_sets)
    ax.set_xlabel("players (the others all random)")
    games = int(data["games"].max()) if len(data) else 0
    ax.set_title(f"{player} against random: win rate ÷ fair share 1/P\n{games:,} games per cell; "
                 "grey italic: 95 % interval holds 1", fontsize="small")
    bar = ax.figure.colorbar(image, ax=ax, fraction=0.05, pad=0.02)
    ticks = [t for t in (0.25, 0.5, 0.71, 1, 1.41, 2, 3, 4) if abs(np.log2(t)) <= spread + 1e-9]
    bar.set_ticks([float(np.log2(t)) for t in ticks], labels=[f"{t:g}×" for t in ticks])
    bar.set_label("skill share")
    return ax


def skill_figure(study: Any) -> Figure:
    """One `skill_share_plot` panel per measured player, one above the other, on one colour scale."""
    players = list(study.settings["measured"])
    table = study.table
    rule_sets = len(dict.fromkeys(table["rule_set"]))
    counts = table["players"].nunique()
    fig, axes = plt.subplots(len(players), 1, figsize=(1.0 * counts + 4.5, (0.42 * rule_sets + 1.3) * len(players)),
                             squeeze=False)
    spread = share_spread(table)
    for ax, player in zip(axes[:, 0], players, strict=True):
        skill_share_plot(table, player, ax, spread=spread)
    fig.tight_layout()
    return fig


def skill_markdown(table: pd.DataFrame, player: str) -> str:
    """The win rates of ``player`` as a markdown grid: rule sets by player count, ``rate [low, high]``."""
    data = table[table["player"] == player]
    counts = sorted(int(p) for p in data["players"].unique())
    lines = ["| rule set | " + " | ".join(f"{p} players" for p in counts) + " |",
             "|---|" + "---|" * len(counts)]
    for rule_set in dict.fromkeys(data["rule_set"]):
        g = data[data["rule_set"] == rule_set].set_index("players")
        cells = [f"{g.at[p, 'win_rate']:.3f} [{g.at[p, 'low']:.3f}, {g.at[p, 'high']:.3f}]" if p in g.index else "–"
                 for p in counts]
        lines.append(f"| {rule_set} | " + " | ".join(cells) + " |")
    fair = " · ".join(f"{p}: {1 / p:.3f}" for p in counts)
    return "\n".join(lines) + f"\n\nFair share 1/P — {fair}.\n"


def _findings(table: pd.DataFrame, player: str) -> list[str]:
    data = table[table["player"] == player]
    out = []
    for p in sorted(data["players"].unique()):
        g = data[data["players"] == p]
        top, low = g.loc[g["skill_share"].idxmax()], g.loc[g["skill_share"].idxmin()]
        out.append(f"{p} players: skill share {g['skill_share'].min():.2f}–{g['skill_share'].max():.2f} "
                   f"(most under {top['rule_set']}, least under {low['rule_set']})")
    return out


def write_report(study: Any, directory: str | Path) -> list[Path]:
    """Write the report of a skill study into ``directory``; return the files. They replace the previous
    report's only once every one is written (`unosim.runs.results.write_whole`)."""
    return write_whole(directory, lambda stage: _write_files(study, stage))


def _write_files(study: Any, out: Path) -> list[Path]:
    s = study.settings
    files = []
    study.table.to_csv(out / "skill.csv", index=False)
    files.append(out / "skill.csv")
    fig = skill_figure(study)
    for fmt in FORMATS:
        fig.savefig(out / f"skill_share.{fmt}", dpi=120)
        files.append(out / f"skill_share.{fmt}")
    plt.close(fig)
    parts = [f"# Skill study\n\nEach measured player at seat 0, every other seat `{s['opponent']}`; "
             f"{s['games']:,} games per rule set, player count and player (seed {s['seed']}; the players meet the "
             "same deals). Win rates with 95 % Wilson intervals; the skill share is the win rate over the fair "
             "share 1/P.\n\n![skill share](skill_share.png)\n"]
    for player in s["measured"]:
        found = "\n".join(f"- {line}" for line in _findings(study.table, player))
        parts.append(f"## `{player}`\n\n{found}\n\n{skill_markdown(study.table, player)}")
    (out / "report.md").write_text("\n".join(parts), encoding="utf-8")
    files.append(out / "report.md")
    return files

