"""Edit and see: a rule file's win rate against a field, again each time the file is saved (``unosim try``).

Each evaluation is a seat-fair tournament ([`unosim.analysis.run_tournament`][unosim.analysis.run_tournament])
of the rule strategy and the field, on the same deals every time (same seed:
common random numbers), so the change from one version of the file to the
next is not blurred by card luck.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..strategy.rule_language import load_program

__all__ = ["Evaluation", "evaluate", "watch"]


@dataclass(frozen=True)
class Evaluation:
    """One evaluation of a rule file: its win rate with the 95 % interval (clustered by deal)."""

    path: str
    name: str
    win_rate: float
    low: float
    high: float
    fair_share: float
    games: int
    seconds: float
    title: str

    def line(self, previous: Evaluation | None = None) -> str:
        """One line for the terminal, with the change from ``previous`` when given."""
        text = (
            f"{self.name}: win rate {self.win_rate:.4f} [{self.low:.4f}, {self.high:.4f}] "
            f"(fair share {self.fair_share:.4f}; {self.title}; {self.games:,} games in {self.seconds:.1f} s)"
        )
        if previous is not None:
            text += f"; {self.win_rate - previous.win_rate:+.4f} from the previous version (same deals)"
        return text


def evaluate(
    path: str | Path, *, field: str = "random,greedy", rules: str = "classic", players: int = 4, games: int = 20_000,
    seed: int = 0, jobs: int | None = 1,
) -> Evaluation:
    """Play the rule file at ``path`` against ``field`` (strategies, comma-separated) in a seat-fair tournament.

    Parameters
    ----------
    path : str or Path
        The rule file (or the name of a shipped one).
    field : str
        The opponents, comma-separated specs (``random,greedy``).
    rules, players, games, seed, jobs
        As for [`unosim.tournament`][unosim.tournament] (``games``: about this many games in all).

    Returns
    -------
    Evaluation
        The rule strategy's win rate and its 95 % interval.

    Raises
    ------
    ValueError
        A bad rule file (naming the line) or a bad option, before any game.
    """
    from .tournament import run_tournament

    program = load_program(path)  # refuses a bad file before anything else
    spec = f"rules:{path}"
    result = run_tournament(rules=rules, players=players, strategies=[spec, *field.split(",")], games=games, seed=seed,
                            jobs=jobs, bootstrap=10, quiet=True)
    from .tournament.run import display_labels

    label = display_labels(tuple(result.design.strategies))[result.design.strategies[0]]
    row = result.leaderboard[result.leaderboard["strategy"] == label].iloc[0]
    return Evaluation(str(path), program.name, float(row.win_rate), float(row.win_rate_lo), float(row.win_rate_hi),
                      float(result.fair_share), int(result.games), float(result.seconds), result.title)


def watch(
    path: str | Path, run: Callable[[], Evaluation], report: Callable[[str], None], *, poll: float = 0.5,
    rounds: int | None = None,
) -> None:
    """Call ``run`` now and every time ``path`` is saved; ``report`` each line (or a bad file's error).

    Stops after ``rounds`` evaluations (``None``: never; end it with Ctrl-C).
    """
    previous: Evaluation | None = None
    done = 0
    stamp = None
    while rounds is None or done < rounds:
        current = Path(path).stat().st_mtime_ns
        if current != stamp:
            stamp = current
            try:
                result = run()
            except ValueError as exc:  # a bad edit: say so and wait for the next save
                report(f"error: {exc}")
            else:
                report(result.line(previous))
                previous = result
            done += 1
            report(f"watching {path} for changes (Ctrl-C to stop)")
        time.sleep(poll)
