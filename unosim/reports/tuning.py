"""The outputs of a tuning run: the tuned strategy, ``summary.md``, ``history.csv`` and the progress
plot (best and mean fitness per generation with 95 % intervals)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from ..analysis.tuning import TuneResult
from ..game.names import code_span
from ..runs.results import write_files
from . import basis
from .dataset_report import names_as_text


def progress_plot(history: pd.DataFrame, ax: Axes, fair_share: float | None = None,
                  evaluation: dict[str, float] | None = None) -> Axes:
    """Per generation: the best candidate's and the population's mean win rate, each with its 95 % band.

    The best candidate of a generation is an in-sample maximum (it won most on the deals it was picked
    on); ``evaluation`` (the held-out games) adds the tuned strategy's and the start's win rates on fresh
    deals, with their intervals, to the right of the last generation.
    """
    x = history["generation"]
    for key, label, colour in (("best", "best candidate", "#1f4e79"), ("mean", "mean of the generation", "#c55a11")):
        ax.plot(x, history[key], marker="o", ms=3, color=colour, label=label)
        ax.fill_between(x, history[f"{key}_low"], history[f"{key}_high"], color=colour, alpha=0.2, lw=0)
    if evaluation:
        last = float(x.max()) if len(x) else 0.0
        for offset, key, label, colour in ((0.4, "", "held out: tuned", "#1f4e79"),
                                           (0.6, "start_", "held out: start", "#7f7f7f")):
            rate = evaluation[f"{key}win_rate"] if key else evaluation["win_rate"]
            low, high = evaluation[f"{key}low"], evaluation[f"{key}high"]
            ax.errorbar([last + offset], [rate], yerr=[[rate - low], [high - rate]], fmt="D", ms=6, capsize=3,
                        color=colour, mfc="white" if key else colour, label=label)
    if fair_share is not None:
        ax.axhline(fair_share, color="grey", ls="--", lw=1, label=f"fair share 1/P = {fair_share:.3f}")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("generation (every candidate of one generation plays the same deals)")
    ax.set_ylabel("win rate per seat-game (95 % interval)")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize="small")
    return ax


def progress_figure(history: pd.DataFrame, title: str, fair_share: float | None = None,
                    evaluation: dict[str, float] | None = None) -> Figure:
    """`progress_plot` in a figure of its own."""
    with names_as_text():  # a "$" in the label or the rule set's name is a dollar sign
        fig = Figure(figsize=(7.5, 4.5))
        progress_plot(history, fig.add_subplot(), fair_share, evaluation)
        fig.suptitle(title, fontsize="medium")
    return fig


def worse_than_start(evaluation: dict[str, float]) -> str:
    """A plain warning when the tuned candidate won less often than its start on the held-out games, else ``""``.

    Parameters
    ----------
    evaluation : dict
        The held-out evaluation of a tuning run (``improvement`` and its interval).
    """
    if evaluation["improvement"] >= 0:
        return ""
    sure = evaluation["improvement_high"] < 0
    return (f"The tuned candidate did worse than its start on the held-out games "
            f"({evaluation['improvement']:+.4f} win rate, 95 % CI [{evaluation['improvement_low']:+.4f}, "
            f"{evaluation['improvement_high']:+.4f}]" + ("; the loss is beyond the interval" if sure else "") +
            "): keep the start, or tune with a larger budget.")


def write_outputs(result: TuneResult, out: Path) -> list[Path]:
    """The tuned strategy (``tuned.json`` or ``tuned.toml``), ``summary.md``, ``history.csv`` and the progress
    plot (PNG, SVG) of a finished tuning run in ``out``."""
    settings = result.settings
    assert settings is not None
    ev = result.evaluation
    against = ",".join(str(s) for s in settings.field)
    _, changes = basis.changed_options(settings.rules)
    changed = [f"{k}={v}" for k, v in changes.items()]
    rules_text = settings.rules.name + (f" with {', '.join(changed)}" if changed else "")
    opening = basis.basis_lines(
        rules=[basis.describe_rules(settings.rules)], copies=str(settings.rules.deck_copies),
        seats=f"the candidate at one seat, {against} at the others",
        games=f"{result.games:,} in {result.generations} generations, {ev['games']:,} held out", seed=settings.seed,
        extra=[f"players: {settings.players}"])
    verdict = worse_than_start(ev)
    tuned = {
        "name": settings.label, "rules": settings.rules.to_dict(), "players": settings.players,
        "against": against, "seed": settings.seed, "budget": settings.budget, "popsize": settings.popsize,
        "games_per_candidate": settings.deals * settings.players, "sigma": settings.sigma,
        "generations": result.generations, "games": result.games, "searched": list(settings.names), "start": result.start,
    }
    strategy_file = out / settings.space.file_name
    strategy_text = settings.space.render(result.params, {**tuned, "rules_text": rules_text}, ev, out)
    thresholds = ""
    if settings.space.prefix == "rules":
        thresholds = "| threshold | in the file | tuned |\n|---|---:|---:|\n" + "".join(
            f"| {code_span(n)} | {result.start[n]:g} | {result.params[n]:g} |\n" for n in settings.names) + "\n"
    summary = (
        f"# {settings.label}: tuned {settings.space.describe()}\n\n"
        f"## {basis.BASIS_TITLE}\n\n{opening}\n\n"
        + (f"**{verdict}**\n\n" if verdict else "") +
        f"{rules_text} rules, {settings.players} players, against {against}; "
        f"{result.generations} generations of {settings.popsize} candidates, {result.games:,} games, seed {settings.seed}.\n\n"
        f"Held-out evaluation ({ev['games']:,} games on fresh deals, seed {ev['seed']}, 95 % intervals clustered by deal; "
        f"fair share {ev['fair_share']:.4f}):\n\n"
        "| strategy | win rate | 95 % CI |\n|---|---:|---|\n"
        f"| tuned | {ev['win_rate']:.4f} | [{ev['low']:.4f}, {ev['high']:.4f}] |\n"
        f"| start | {ev['start_win_rate']:.4f} | [{ev['start_low']:.4f}, {ev['start_high']:.4f}] |\n"
        f"| tuned − start (paired) | {ev['improvement']:+.4f} | [{ev['improvement_low']:+.4f}, {ev['improvement_high']:+.4f}] |\n\n"
        + thresholds + f"Play it: `--strategies {settings.space.play_spec(strategy_file)}`\n"
    )
    fig = progress_figure(result.history, f"{settings.label}: {settings.rules.name} · {settings.players} players · "
                                          f"against {against}", fair_share=1.0 / settings.players, evaluation=ev)
    written = write_files(out, {  # whole or not at all; the strategy file, which others play, last
        "summary.md": lambda p: p.write_text(summary),
        "history.csv": lambda p: result.history.to_csv(p, index=False),
        "progress.png": lambda p: fig.savefig(p, dpi=120, bbox_inches="tight", format="png"),
        "progress.svg": lambda p: fig.savefig(p, dpi=120, bbox_inches="tight", format="svg"),
        strategy_file.name: lambda p: p.write_text(strategy_text),
    })
    return [written[-1], *written[:-1]]


__all__ = ["progress_figure", "progress_plot", "worse_than_start", "write_outputs"]
