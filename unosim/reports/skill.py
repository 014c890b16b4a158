"""Skill study report: the skill-share plot and the files of a skill study's report.

`skill_share_plot` draws, for one measured player, its win rate against ``random``
divided by the fair share 1/P, by player count, one line per rule set with its 95 % interval
as a band; 1 (the dashed line) is a seat that wins its fair share and no more.
`write_report` writes ``report.md`` (the findings, then one table per measured player),
``skill_share.png/.svg`` (one panel per measured player) and ``skill.csv``.
It takes a `unosim.analysis.skill.SkillStudy` (any object with its ``table`` and ``settings``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ..runs.results import write_whole
from .palette import RULES_COLOURS, rules_colour
from .plots import SERIES_COLOURS

__all__ = ["FORMATS", "skill_figure", "skill_markdown", "skill_share_plot", "write_report"]

FORMATS = ("png", "svg")
_MORE_COLOURS = ("#882255", "#332288", "#117733", "#44aa99", "#999933", "#aa4499", "#661100", "#6699cc")


def _colours(rule_sets: list[str]) -> dict[str, str]:
    """One colour per rule set: a preset's own, else its palette colour unless two would share one, then a
    series colour not taken by a preset."""
    colour = {r: rules_colour(r) for r in rule_sets}
    if len(set(colour.values())) == len(rule_sets):
        return colour
    taken = {v.lower() for v in RULES_COLOURS.values()} | {"#f0e442"}  # the presets' colours, and a yellow too pale for a line
    free = [c for c in (*SERIES_COLOURS, *_MORE_COLOURS) if c.lower() not in taken]
    others = [r for r in rule_sets if r not in RULES_COLOURS]
    return {**{r: RULES_COLOURS[r] for r in rule_sets if r in RULES_COLOURS},
            **{r: free[i % len(free)] for i, r in enumerate(others)}}


def skill_share_plot(table: pd.DataFrame, player: str, ax: Axes | None = None) -> Axes:
    """The skill share of ``player`` (win rate over 1/P) by player count, a line and a 95 % band per rule set.

    Parameters
    ----------
    table : pandas.DataFrame
        `unosim.analysis.skill.SkillStudy.table`.
    player : str
        The measured player drawn (a value of the ``player`` column).
    ax : matplotlib.axes.Axes, optional
        Where to draw (default a new figure).

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = ax or plt.figure(figsize=(7, 4.5)).gca()
    data = table[table["player"] == player]
    rule_sets = list(dict.fromkeys(data["rule_set"]))
    colour = _colours(rule_sets)
    for rule_set in rule_sets:
        g = data[data["rule_set"] == rule_set].sort_values("players")
        style = "-" if rule_set in RULES_COLOURS else (0, (4, 1.5))  # the presets solid, the other rule sets dashed
        ax.plot(g["players"], g["skill_share"], ls=style, marker="o", ms=3, lw=1.4, color=colour[rule_set], label=rule_set)
        ax.fill_between(g["players"], g["share_low"], g["share_high"], color=colour[rule_set], alpha=0.08, lw=0)
    ax.axhline(1, color="grey", lw=1, ls="--")
    counts = sorted(int(p) for p in data["players"].unique())
    ax.set_xscale("log", base=2)
    ax.set_xticks(counts, [str(c) for c in counts])
    ax.minorticks_off()
    ax.set_xlabel("players (the others all random)")
    ax.set_ylabel("win rate ÷ fair share 1/P (95 % interval)")
    games = int(data["games"].max()) if len(data) else 0
    ax.set_title(f"{player} against random: skill share\n{games:,} games per point; 1 = a random seat's share",
                 fontsize="small")
    ax.grid(alpha=0.3)
    return ax


def skill_figure(study: Any) -> Figure:
    """One `skill_share_plot` panel per measured player, side by side, one legend."""
    players = list(study.settings["measured"])
    fig, axes = plt.subplots(1, len(players), figsize=(6.2 * len(players) + 2.4, 4.8), squeeze=False, sharey=True)
    for ax, player in zip(axes[0], players, strict=True):
        skill_share_plot(study.table, player, ax)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="center right", fontsize="small", title="rule set")
    fig.tight_layout(rect=(0, 0, 1 - 2.3 / fig.get_figwidth(), 1))
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

