"""Analyses: what the games say, with intervals.

`unosim.analysis.stats` holds the estimators (intervals, clustered errors, paired
differences); `unosim.analysis.cardvalue` the card values of opening hands and
`unosim.analysis.cardswap` their cross-check by swapping cards; `unosim.analysis.compare`
paired rule comparisons; [`tournament`][unosim.analysis.tournament] seat-fair tournaments with ratings;
`unosim.analysis.tuning`, `unosim.analysis.search_space` and
`unosim.analysis.thresholds` tune a strategy's parameters or a rule file's thresholds;
`unosim.analysis.rule_files` evaluates a rule file as it is edited;
`unosim.analysis.bench` measures the engine's speed, `unosim.analysis.env_bench` the
learning environments' (importing [`unosim.env`][unosim.env] only when it measures: the ``rl`` extra).

May import: [`unosim.game`][unosim.game], [`unosim.strategy`][unosim.strategy], [`unosim.engine`][unosim.engine],
[`unosim.runs`][unosim.runs] and [`unosim.env`][unosim.env] — never the reports: results are data, drawn by
[`unosim.reports`][unosim.reports].
"""

from .cardswap import SwapResult, swap_values
from .cardvalue import card_values
from .compare import Comparison
from .tournament import TournamentResult, load_tournament, run_tournament
from .tuning import TuneResult, tune

__all__ = [
    "Comparison", "SwapResult", "TournamentResult", "TuneResult", "card_values", "load_tournament", "run_tournament", "swap_values",
    "tune",
]

# The modules of this package that other packages may import beside the face (__all__), and the
# names each lends them; () lends the module only, imported whole as a namespace.
# tests/test_architecture.py refuses any other import from outside the package.
PUBLIC_MODULES: dict[str, tuple[str, ...]] = {
    "unosim.analysis.bench": ("TOURNAMENT_STRATEGIES", "bench", "bench_tournament", "grid"),
    "unosim.analysis.cardswap": ("SWAP_FILE",),
    "unosim.analysis.compare": ("COMPARE_FILE", "Variant", "compare", "load_spec", "metric_label"),
    "unosim.analysis.env_bench": ("bench_env",),
    "unosim.analysis.findings": (),
    "unosim.analysis.rule_files": ("evaluate", "watch"),
    "unosim.analysis.search_bench": ("bench_search",),
    "unosim.analysis.skill": ("SKILL_FILE", "SkillStudy", "load_spec", "skill_study", "summary"),
    "unosim.analysis.stats": ("adjust_p_values", "p_value"),
    "unosim.analysis.tournament": ("make_settings",),
    "unosim.analysis.tuning": ("make_settings",),
    "unosim.analysis.winrates": ("win_rates",),
}
