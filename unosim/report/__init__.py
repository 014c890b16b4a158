"""Reports: plots (each takes an ``ax`` and returns it) and the files of a report.
:mod:`unosim.report.tournament_plots` draws and writes a tournament's report."""
