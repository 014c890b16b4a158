"""Reports: plots, tables and the ``report.md`` / ``report.html`` pages written from results.

`unosim.reports.plots` draws a dataset's plots (game length, seat advantage, card values,
comparisons); `unosim.reports.dataset_report` recognises what a dataset directory holds and
writes its report; `unosim.reports.tournament` draws and writes a tournament's leaderboard
and head-to-head; `unosim.reports.tuning` a tuning run's progress and outputs.

May import every layer below (game, strategy, engine, runs, analysis); nothing imports it but
the faces (`unosim.api`, `unosim.cli`).
"""

from .dataset_report import write_report
from .tournament import plot as plot_tournament

__all__ = ["plot_tournament", "write_report"]

# The modules of this package that other packages may import beside the face (__all__), and the
# names each lends them; () lends the module only, imported whole as a namespace.
# tests/test_architecture.py refuses any other import from outside the package.
PUBLIC_MODULES: dict[str, tuple[str, ...]] = {
    "unosim.reports.skill": ("write_report",),
    "unosim.reports.tournament": ("write_report",),
    "unosim.reports.tuning": ("worse_than_start", "write_outputs"),
    "unosim.reports.viewer": ("load_game", "page_template", "write_viewer"),
}
