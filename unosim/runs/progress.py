"""The consoles unosim prints through, and the progress display of long runs (a games/s progress bar).

Every console is a `PrintableConsole`: names that reach the terminal (rule sets,
strategies, decks, labels) may hold control characters, and those are shown as escapes
(`unosim.game.names.printable`), never sent.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager, nullcontext
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.segment import Segment
from rich.text import Text

from ..game.names import printable

if TYPE_CHECKING:
    from rich.progress import Progress

__all__ = ["PrintableConsole", "console", "progress_bar"]


class PrintableConsole(Console):
    """A rich console that never sends a control character of the text it prints.

    Text given as a string is cleaned before it is laid out (so tables keep their columns);
    any other renderable's text is cleaned as it is written. Rich's own styles and cursor
    moves are written as usual.
    """

    def render_str(self, text: str, **kwargs: Any) -> Text:
        """A string as rich text, its control characters shown as escapes."""
        return super().render_str(printable(text), **kwargs)

    def render(self, renderable: Any, options: Any = None) -> Iterable[Segment]:
        """The segments of ``renderable``, the text of each shown without control characters."""
        for segment in super().render(renderable, options):
            clean = segment.text if segment.control else printable(segment.text)
            yield segment if clean is segment.text or clean == segment.text else Segment(clean, segment.style, segment.control)


def console(quiet: bool) -> Any:
    """A console on stderr (`PrintableConsole`), or ``None`` when quiet."""
    if quiet:
        return None
    return PrintableConsole(stderr=True)


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
