"""Plots and the study report: each plot takes an ``ax`` and returns it.

All intervals are 95 % normal-approximation confidence intervals of the mean
(±1.96 standard errors).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

Z95 = 1.959964


def _groups(df: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    if "rules" in df.columns:
        return [(str(k), g) for k, g in df.groupby("rules", sort=True)]
    return [("all", df)]


def mean_ci(values: pd.Series) -> tuple[float, float]:
    """Mean and 95 % half-width of a sample."""
    v = values.to_numpy(float)
    return float(v.mean()), float(Z95 * v.std(ddof=1) / np.sqrt(len(v))) if len(v) > 1 else float("nan")


def game_length(df: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """Mean turns per game against the number of players, one line per rule set."""
    ax = ax or plt.figure(figsize=(7, 4.5)).gca()
    for name, g in _groups(df):
        stats = g.groupby("players")["turns"].agg(["mean", "std", "count"])
        half = Z95 * stats["std"] / np.sqrt(stats["count"])
        ax.errorbar(stats.index, stats["mean"], yerr=half, marker="o", capsize=3, label=name)
    ax.set_xlabel("players")
    ax.set_ylabel("mean turns per game (95 % CI)")
    ax.set_title("Game length by number of players")
    ax.grid(alpha=0.3)
    ax.legend(title="rules")
    return ax


def seat_advantage(df: pd.DataFrame, ax: Axes | None = None, rules: str | None = None) -> Axes:
    """Win rate of each seat offset from the dealer relative to a fair share (1/P).

    Offset 1 is the player to the dealer's left (who starts), offset P the
    dealer. Values above 1 mean the seat wins more often than its fair share.
    """
    ax = ax or plt.figure(figsize=(7, 4.5)).gca()
    data = df if rules is None or "rules" not in df.columns else df[df["rules"] == rules]
    cmap = plt.get_cmap("viridis")
    counts = sorted(data["players"].unique())
    for i, p in enumerate(counts):
        g = data[(data["players"] == p) & ~data["truncated"]]
        offsets = np.arange(1, p + 1)
        rate = np.array([(g["winner_offset"] == k).mean() for k in offsets])
        half = Z95 * np.sqrt(rate * (1 - rate) / max(len(g), 1))
        ax.errorbar(offsets, rate * p, yerr=half * p, marker=".", capsize=2, color=cmap(0.85 * i / max(len(counts) - 1, 1)), label=str(p))
    ax.axhline(1.0, color="grey", lw=1, ls="--")
    ax.set_xlabel("seat offset from the dealer (1 = first to play)")
    ax.set_ylabel("win rate × players (1 = fair)")
    ax.set_title("Seat advantage" + (f" — {rules}" if rules else ""))
    ax.grid(alpha=0.3)
    ax.legend(title="players", ncol=3, fontsize="small")
    return ax


def cards_per_game(df: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """Mean cards played and drawn per game against the number of players."""
    ax = ax or plt.figure(figsize=(7, 4.5)).gca()
    for name, g in _groups(df):
        stats = g.groupby("players")[["cards_played", "cards_drawn"]].mean()
        (line,) = ax.plot(stats.index, stats["cards_played"], marker="o", label=f"{name}: played")
        ax.plot(stats.index, stats["cards_drawn"], marker="s", ls="--", color=line.get_color(), label=f"{name}: drawn")
    ax.set_xlabel("players")
    ax.set_ylabel("cards per game")
    ax.set_title("Cards played and drawn")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    return ax


def summary_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per (rules, players): games, mean turns ± 95 % CI, first player's win-rate edge, truncated share."""
    rows = []
    keys = ["rules", "players"] if "rules" in df.columns else ["players"]
    for key, g in df.groupby(keys, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        p = int(g["players"].iloc[0])
        mean, half = mean_ci(g["turns"])
        first = float((g["winner_offset"] == 1).mean())
        rows.append({**dict(zip(keys, key)), "games": len(g), "mean turns": round(mean, 2), "± 95 %": round(half, 2),
                     "first player wins × P": round(first * p, 3), "truncated %": round(100 * g["truncated"].mean(), 3)})
    return pd.DataFrame(rows)


def report(df: pd.DataFrame, out: str | Path) -> list[Path]:
    """Write the study plots (PNG) and ``report.md`` into ``out``; return the files."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    files = []
    plots = [("game_length", game_length, {}), ("cards_per_game", cards_per_game, {})]
    plots += [(f"seat_advantage_{name}", seat_advantage, {"rules": None if name == "all" else name}) for name, _ in _groups(df)]
    for name, draw, kwargs in plots:
        fig = Figure(figsize=(7, 4.5))  # no pyplot state: safe in scripts, servers and notebooks
        draw(df, fig.subplots(), **kwargs)
        fig.tight_layout()
        fig.savefig(out / f"{name}.png", dpi=120)
        files.append(out / f"{name}.png")
    table = summary_table(df)
    md = out / "report.md"
    md.write_text(
        "# unosim study report\n\n"
        + "".join(f"![{f.stem}]({f.name})\n\n" for f in files)
        + "## Summary\n\n"
        + _markdown(table)
        + "\n"
    )
    files.append(md)
    return files


def _markdown(table: pd.DataFrame) -> str:
    cols = list(table.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(str(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join(lines) + "\n"
