"""The progress display of long runs: a rich console on stderr and a games/s progress bar."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.progress import Progress

__all__ = ["console", "progress_bar"]

def console(quiet: bool) -> Any:
    """A rich console on stderr, or ``None`` when quiet."""
    if quiet:
        return None
    from rich.console import Console

    return Console(stderr=True)


def progress_bar(console: Any, description: str, total: int, completed: int, unit: str = "games") -> Any:
    """A rich progress bar yielding ``(progress, task_id)``, or a null context.

    Shows games (or matches: ``unit``) done, their rate and the time left, both
    measured over this call's work (chunks found done when resuming do not count).
    """
    if console is None:
        return nullcontext(None)
    from rich.progress import BarColumn, Progress, ProgressColumn, TextColumn
    from rich.text import Text

    def rate(task: Any) -> float | None:
        played = task.completed - task.fields["initial"]
        elapsed = task.finished_time if task.finished else task.elapsed
        return played / elapsed if played > 0 and elapsed else None

    class GamesColumn(ProgressColumn):
        def render(self, task: Any) -> Text:
            return Text(f"{int(task.completed):,}/{int(task.total):,}")

    class RateColumn(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = rate(task)
            return Text("" if speed is None else f"{speed:,.0f} {unit}/s", style="progress.data.speed")

    class EtaColumn(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = rate(task)
            if task.finished:
                return Text(f"in {_clock(task.finished_time or 0)}", style="progress.elapsed")
            if speed is None:
                return Text("ETA -:--:--", style="progress.remaining")
            return Text(f"ETA {_clock((task.total - task.completed) / speed)}", style="progress.remaining")

    @contextmanager
    def bar() -> Iterator[tuple[Progress, Any]]:
        progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(bar_width=16),
            GamesColumn(),
            RateColumn(),
            EtaColumn(),
            console=console,
            expand=False,
        )
        with progress:
            yield progress, progress.add_task(description, total=total, completed=completed, initial=completed)

    return bar()


def _clock(seconds: float) -> str:
    """``h:mm:ss``."""
    left = int(seconds)
    return f"{left // 3600}:{left // 60 % 60:02d}:{left % 60:02d}"
