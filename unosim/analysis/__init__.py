"""Analyses: what the games say, with intervals.

:mod:`~unosim.analysis.stats` holds the estimators (intervals, clustered errors, paired
differences); :mod:`~unosim.analysis.cardvalue` the card values of opening hands and
:mod:`~unosim.analysis.cardswap` their cross-check by swapping cards; :mod:`~unosim.analysis.compare`
paired rule comparisons; :mod:`~unosim.analysis.tournament` seat-fair tournaments with ratings;
:mod:`~unosim.analysis.tuning`, :mod:`~unosim.analysis.search_space` and
:mod:`~unosim.analysis.thresholds` tune a strategy's parameters or a rule file's thresholds;
:mod:`~unosim.analysis.rule_files` evaluates a rule file as it is edited;
:mod:`~unosim.analysis.bench` measures the engine's speed, :mod:`~unosim.analysis.env_bench` the
learning environments' (importing :mod:`unosim.env` only when it measures: the ``rl`` extra).

May import: :mod:`unosim.game`, :mod:`unosim.strategy`, :mod:`unosim.engine`, :mod:`unosim.runs` and :mod:`unosim.env` —
never the reports: results are data, drawn by :mod:`unosim.reports`.
"""

__all__: list[str] = []
