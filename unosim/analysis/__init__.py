"""Analyses of datasets: statistics (intervals, clustered errors, paired differences),
card values (:mod:`~unosim.analysis.cardvalue`), rule comparisons (:mod:`~unosim.analysis.compare`)
and seat-fair tournaments (:mod:`~unosim.analysis.tournament`). Analysis reads datasets (or asks
the runner for runs); it never reaches into the engine."""

__all__: list[str] = []
