"""Tournament report: leaderboard plot, head-to-head heatmap, and the files of a tournament report.

Plot functions take an ``ax`` and return it. `write_report` writes into a
directory: ``leaderboard.md`` and ``leaderboard.csv`` (one row per strategy),
``head_to_head.csv`` (one row per ordered pair), ``leaderboard.png/.svg``,
``head_to_head.png/.svg``, ``report.md`` (the tables and plots together) and the
self-contained ``report.html``.
It takes the tables of a [`unosim.analysis.TournamentResult`][unosim.analysis.TournamentResult]
(any object with its attributes).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure

from ..game.names import code_span, printable, text_cells, text_line
from ..runs.results import write_whole

HEATMAP_CMAP = "RdBu"
"""ColorBrewer's red–blue diverging palette (colour-blind safe), centred on an even 0.5."""
FORMATS = ("png", "svg")


def leaderboard_plot(board: pd.DataFrame, ax: Axes, fair_share: float | None = None) -> Axes:
    """Win rates with 95 % intervals as horizontal error bars, best at the top."""
    data = board.sort_values("win_rate", kind="stable")
    y = np.arange(len(data))
    err = np.vstack([data["win_rate"] - data["win_rate_lo"], data["win_rate_hi"] - data["win_rate"]])
    ax.errorbar(data["win_rate"], y, xerr=err, fmt="o", color="#1f4e79", ecolor="#1f4e79", capsize=4, lw=1.5)
    if fair_share is not None:
        ax.axvline(fair_share, color="grey", ls="--", lw=1, label=f"fair share 1/P = {fair_share:.3f}")
        ax.legend(loc="lower right", fontsize="small")
    ax.set_yticks(y, list(data["strategy"]))
    ax.set_xlabel("win rate per seat-game (95 % interval, clustered by deal)")
    ax.set_title("Leaderboard")
    ax.grid(axis="x", alpha=0.3)
    return ax


def head_to_head_plot(matrix: pd.DataFrame, ax: Axes) -> Axes:
    """Heatmap of the row strategy's share of the games won by one of the pair (0.5 = even), annotated."""
    values = matrix.to_numpy(float)
    spread = np.nanmax(np.abs(values - 0.5)) if np.isfinite(values).any() else 0.5
    spread = max(float(spread), 0.01)
    image = ax.imshow(values, cmap=HEATMAP_CMAP, norm=TwoSlopeNorm(0.5, 0.5 - spread, 0.5 + spread))
    n = len(matrix)
    for i in range(n):
        for j in range(n):
            if np.isfinite(values[i, j]):
                strong = abs(values[i, j] - 0.5) > 0.6 * spread
                ax.text(j, i, f"{values[i, j]:.3f}", ha="center", va="center", fontsize="small",
                        color="white" if strong else "black")
    ax.set_xticks(np.arange(n), list(matrix.columns), rotation=35, ha="right")
    ax.set_yticks(np.arange(n), list(matrix.index))
    ax.set_xlabel("opponent")
    ax.set_ylabel("strategy")
    ax.set_title("Head-to-head: strategy's share of the pair's wins")
    ax.figure.colorbar(image, ax=ax, label="share of the games won by one of the two (0.5 = even)", shrink=0.8)
    return ax


def tournament_figure(board: pd.DataFrame, matrix: pd.DataFrame, fair_share: float, title: str) -> Figure:
    """Leaderboard and heatmap side by side in one figure."""
    from .dataset_report import names_as_text

    n = len(board)
    with names_as_text():  # a "$" in a strategy's or rule set's name is a dollar sign
        fig = Figure(figsize=(13, max(4.5, 0.55 * n + 2)))
        left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.15]})
        leaderboard_plot(board, left, fair_share)
        head_to_head_plot(matrix, right)
        fig.suptitle(title)
        fig.tight_layout()
    return fig


def plot(result: Any) -> Figure:
    """A tournament's leaderboard with intervals and its head-to-head heatmap, side by side.

    Parameters
    ----------
    result : TournamentResult
        What [`unosim.tournament`][unosim.tournament] returned.

    Returns
    -------
    matplotlib.figure.Figure
    """
    return tournament_figure(result.leaderboard, result.head_to_head_matrix(), result.fair_share, result.title)


def _interval(value: float, lo: float, hi: float, digits: int = 4) -> str:
    return f"{value:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _cell(name: Any) -> str:
    """A name as the text of a Markdown table cell: one line, no backtick or bar to start a code span or a cell."""
    return text_line(name).replace("`", "\\`").replace("|", "\\|")


def leaderboard_markdown(board: pd.DataFrame) -> str:
    """The leaderboard as a Markdown table (estimates with 95 % intervals)."""
    lines = [
        "| rank | strategy | win rate [95 % CI] | points won ± | points in hand ± | rating [95 % CI] | seat-games |",
        "|---:|---|---|---|---|---|---:|",
    ]
    for r in board.itertuples(index=False):
        lines.append(
            f"| {r.rank} | {_cell(r.strategy)} | {_interval(r.win_rate, r.win_rate_lo, r.win_rate_hi)} | "
            f"{r.points:.2f} ± {r.points_pm:.2f} | {r.hand_points:.2f} ± {r.hand_points_pm:.2f} | "
            f"{_interval(r.rating, r.rating_lo, r.rating_hi, 3)} | {r.seat_games:,} |"
        )
    return "\n".join(lines) + "\n"


def leaderboard_table(board: pd.DataFrame) -> pd.DataFrame:
    """The leaderboard as the markdown shows it: estimates with 95 % intervals, rounded."""
    return pd.DataFrame({
        "rank": board["rank"], "strategy": board["strategy"],
        "win rate [95 % CI]": [_interval(r.win_rate, r.win_rate_lo, r.win_rate_hi) for r in board.itertuples()],
        "points won ±": [f"{r.points:.2f} ± {r.points_pm:.2f}" for r in board.itertuples()],
        "points in hand ±": [f"{r.hand_points:.2f} ± {r.hand_points_pm:.2f}" for r in board.itertuples()],
        "rating [95 % CI]": [_interval(r.rating, r.rating_lo, r.rating_hi, 3) for r in board.itertuples()],
        "seat-games": [f"{int(r.seat_games):,}" for r in board.itertuples()],
    })


def head_to_head_table(pairs: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """The head-to-head as a square table (row strategy against column opponent), as the markdown shows it."""
    cell = {(p.strategy, p.opponent): _interval(p.beat, p.beat_lo, p.beat_hi, 3) for p in pairs.itertuples(index=False)}
    return pd.DataFrame([{"strategy \\ opponent": a, **{b: cell.get((a, b), "—") for b in order}} for a in order])


def head_to_head_markdown(pairs: pd.DataFrame, order: list[str]) -> str:
    """Row strategy's share of the pair's wins, with 95 % intervals, as a Markdown matrix."""
    cell = {(p.strategy, p.opponent): _interval(p.beat, p.beat_lo, p.beat_hi, 3) for p in pairs.itertuples(index=False)}
    lines = ["| strategy \\ opponent | " + " | ".join(order) + " |", "|---|" + "---|" * len(order)]
    for a in order:
        lines.append(f"| {a} | " + " | ".join(cell.get((a, b), "—") for b in order) + " |")
    return "\n".join(lines) + "\n"


def basis_markdown(result: Any) -> str:
    """What a tournament rests on: rules with every changed option, deck copies, the seatings, deals, seed, version."""
    from ..game.rules import RuleSet
    from . import basis

    rule_set = getattr(result, "rule_set", None)
    rules: Any = rule_set or (RuleSet.preset(result.rules).to_dict() if result.rules in basis.PRESETS else None)
    design = result.design
    seatings = "; ".join(
        f"table {t}: " + ", ".join(design.strategies[i] for i in design.tables[t]) for t in range(len(design.tables)))
    unit = "matches" if result.match else "games"
    return basis.basis_lines(
        rules=[basis.describe_rules(rules) if rules is not None else code_span(result.rules)],
        copies=str(rules.get("deck_copies", "—")) if rules is not None else "—",
        seats=f"{', '.join(design.strategies)}; every table in each of its rotations ({seatings})",
        games=f"{result.games:,} {unit} ({result.deals:,} deals × {result.design_cells} seatings)", seed=result.seed,
        extra=[f"players: {result.players}", f"user code: {_user_code_line(result)}"])


def _user_code_line(result: Any) -> str:
    """Where the strategies of user code played: isolated, or in the engine's process (verified)."""
    user = list(getattr(result, "user_code", ()))
    isolated = set(getattr(result, "isolated", ()))
    if not user:
        return "none (every strategy is unosim's own)"
    parts = [f"{code_span(s)} " + ("isolated in a process of its own" if s in isolated else
                          "in the engine's process, its effects verified after every step (not isolated)") for s in user]
    return "; ".join(parts)


def _figures(result: Any, title: str | None = None) -> list[tuple[str, Figure]]:
    """The leaderboard and head-to-head figures, each on its own."""
    from .dataset_report import names_as_text

    board = result.leaderboard
    figures = []
    for name, height in (("leaderboard", max(3.5, 0.45 * len(board) + 1.5)), ("head_to_head", max(4.5, 0.6 * len(board) + 2))):
        with names_as_text():  # a "$" in a strategy's or rule set's name is a dollar sign
            fig = Figure(figsize=(8, height))
            ax = fig.subplots()
            if name == "leaderboard":
                leaderboard_plot(board, ax, result.fair_share)
            else:
                head_to_head_plot(result.head_to_head_matrix(), ax)
            if title:
                fig.suptitle(title, fontsize="small")
            fig.tight_layout()
        figures.append((name, fig))
    return figures


def _write_html(result: Any, out: Path) -> list[Path]:
    """``report.html``: the same plots and tables in one self-contained page (see `unosim.reports.dataset_report`)."""
    from .basis import BASIS_TITLE
    from .dataset_report import Section, with_findings, write_sections

    opening = Section(BASIS_TITLE, basis_markdown(result))
    section = Section(
        "Tournament", f"{result.title}. Win rates per seat-game (fair share 1/P) with 95 % intervals clustered by deal; "
        "ratings are Bradley–Terry log-strengths (mean 0) with bootstrap intervals over deals.",
        _figures(result), [("Leaderboard", leaderboard_table(result.leaderboard)),
                           ("Head-to-head: row strategy's share of the pair's wins [95 % CI]",
                            head_to_head_table(result.head_to_head, list(result.leaderboard["strategy"])))],
    )
    written = write_sections(with_findings(_findings(result), [opening, section]), out, title="Tournament report")
    return [f for f in written if f.name == "report.html"]


def _findings(result: Any) -> list[Any]:
    from ..analysis.findings import tournament_findings

    return tournament_findings(result.leaderboard, result.head_to_head, result.fair_share)


def write_report(result: Any, directory: str | Path) -> list[Path]:
    """Write the tables and plots of a tournament result into ``directory``; return the files. They replace
    the previous report's only once every one is written (`unosim.runs.results.write_whole`)."""
    return write_whole(directory, lambda stage: _write_files(result, stage))


def _write_files(result: Any, out: Path) -> list[Path]:
    board, pairs = result.leaderboard, result.head_to_head
    order = list(board["strategy"])
    files = _write_html(result, out)
    text_cells(board).to_csv(out / "leaderboard.csv", index=False)
    text_cells(pairs).to_csv(out / "head_to_head.csv", index=False)
    (out / "leaderboard.md").write_text(printable(f"# Leaderboard\n\n{text_line(result.title)}\n\n"
                                                  f"{basis_markdown(result)}\n\n" + leaderboard_markdown(board)))
    files += [out / "leaderboard.csv", out / "head_to_head.csv", out / "leaderboard.md"]
    for name, fig in _figures(result, result.title):
        for fmt in FORMATS:
            fig.savefig(out / f"{name}.{fmt}", dpi=120)
            files.append(out / f"{name}.{fmt}")
    from .findings import FINDINGS_TITLE, findings_text

    found = findings_text(_findings(result)).replace("(#leaderboard)", "(leaderboard.png)")
    (out / "report.md").write_text(
        f"# Tournament report\n\n{result.title}\n\n## {FINDINGS_TITLE}\n\n{found}\n\n"
        f"## What this report rests on\n\n{basis_markdown(result)}\n\n"
        "Win rates are per seat-game (fair share 1/P), with 95 % intervals clustered by deal; "
        "ratings are Bradley–Terry log-strengths (mean 0) with bootstrap intervals over deals.\n\n"
        "## Leaderboard\n\n" + leaderboard_markdown(board) + "\n![leaderboard](leaderboard.png)\n\n"
        "## Head-to-head\n\nShare of the games won by one of the pair that the row strategy won "
        "(0.5 = even), with 95 % intervals.\n\n" + head_to_head_markdown(pairs, order) + "\n![head-to-head](head_to_head.png)\n"
    )
    files.append(out / "report.md")
    return files


__all__ = ["basis_markdown", "head_to_head_plot", "head_to_head_table", "leaderboard_markdown", "leaderboard_plot",
           "leaderboard_table", "plot", "tournament_figure", "write_report"]
