"""Strategies: the API a strategy is written against, and the ways to name and build one.

`unosim.strategy.base` holds [`Strategy`][unosim.strategy.Strategy], the base class a user subclasses;
`unosim.strategy.observation` the read-only view of a batch of decisions it receives;
`unosim.strategy.primitives` the vectorised helpers (legal plays, colour counts, …) the
built-ins share; `unosim.strategy.parameters` the constraints a strategy's parameters are
checked with; `unosim.strategy.registry` and `unosim.strategy.spec` resolve
``name(key=value)`` texts to classes. Strategies written as priority-rule files (TOML) live here
too: `unosim.strategy.rule_language` reads and checks a file (format: ``docs/rule_bots.md``)
and `unosim.strategy.rule_strategy` plays it ([`RuleStrategy`][unosim.strategy.RuleStrategy]). The built-in
strategies themselves are the package `unosim.strategies`, on the same floor.

May import: [`unosim.game`][unosim.game] and `unosim.strategies` — never the engine, runs, analysis or reports.
"""

from .base import Strategy
from .observation import Observation
from .rule_language import RuleFileError, RuleProgram, load_program, parse_program, shipped_rule_files
from .rule_strategy import RuleStrategy
from .spec import StrategySpec, parse_strategies

__all__ = [
    "Observation", "RuleFileError", "RuleProgram", "RuleStrategy", "Strategy", "StrategySpec", "load_program", "parse_program",
    "parse_strategies", "shipped_rule_files",
]

# The modules of this package that other packages may import beside the face (__all__), and the
# names each lends them; () lends the module only, imported whole as a namespace.
# tests/test_architecture.py refuses any other import from outside the package.
PUBLIC_MODULES: dict[str, tuple[str, ...]] = {
    "unosim.strategy.base": ("DRAW", "TAKE", "stack_preferred"),
    "unosim.strategy.observation": ("FIELDS", "SeatStreams", "TableFields", "gather_rows", "seat_rows", "stream_arrays"),
    "unosim.strategy.parameters": ("Constraint", "DistinctNames", "Flag", "Interval", "ParameterError"),
    "unosim.strategy.playouts": ("N_PUBLIC", "PLAYOUT_POLICIES", "P_ALIVE", "P_COLOUR", "P_DIR", "P_LAST", "P_LINK_A", "P_LINK_B",
                                 "P_NEXT", "P_PENALTY", "P_PENDING", "P_PHASE", "P_SEAT", "P_TOP", "P_TURN", "P_TURNS", "Playouts"),
    "unosim.strategy.primitives": ("CARD_SCORE_POINTS", "argmax_ties", "colour_counts", "next_seats", "sample_best", "sample_best_of",
                                   "sample_counts"),
    "unosim.strategy.registry": (),
    "unosim.strategy.rule_language": ("KeyLocator", "SHIPPED_DIR", "VARIABLES", "resolve_path"),
    "unosim.strategy.rule_programs": ("encode_program",),
    "unosim.strategy.spec": ("split_top_level",),
}
