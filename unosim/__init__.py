"""unosim — fast Monte Carlo simulation and analytics for UNO and UNO Party!.

The Python API: [`simulate`][unosim.simulate], [`run_experiment`][unosim.run_experiment], [`load`][unosim.load],
[`report`][unosim.report], [`card_values`][unosim.card_values], [`cardvalue_swap`][unosim.cardvalue_swap],
[`compare`][unosim.compare], [`tournament`][unosim.tournament], [`tune`][unosim.tune] and [`check`][unosim.check];
the rules ([`RuleSet`][unosim.RuleSet], [`PRESETS`][unosim.game.PRESETS]), a run's configuration
([`RunConfig`][unosim.RunConfig]), the base class of strategies ([`Strategy`][unosim.Strategy]) and the error bad
input raises ([`UnosimInputError`][unosim.UnosimInputError], a ``ValueError``).
"""

from .api import card_values, cardvalue_swap, compare, load, report, run_experiment, simulate, tournament, tune
from .engine.config import RunConfig
from .engine.conformance import check
from .game.cards import N_TYPES, card_name, load_deck
from .game.errors import UnosimInputError
from .game.rules import PRESETS, RuleSet
from .strategy.base import Strategy
from .version import __version__

__all__ = [
    "N_TYPES", "PRESETS", "RuleSet", "RunConfig", "Strategy", "UnosimInputError", "__version__", "card_name", "card_values",
    "cardvalue_swap", "check", "compare", "load", "load_deck", "report", "run_experiment", "simulate", "tournament", "tune",
]

# The modules of this package that other packages may import beside the face (__all__), and the
# names each lends them; () lends the module only, imported whole as a namespace.
# tests/test_architecture.py refuses any other import from outside the package.
PUBLIC_MODULES: dict[str, tuple[str, ...]] = {
    "unosim.api": ("replay", "run", "skill", "study", "view"),
}
