"""unosim — fast Monte Carlo simulation and analytics for UNO and UNO Party!.

The Python API: :func:`simulate`, :func:`run_experiment`, :func:`load`, :func:`report`,
:func:`card_values`, :func:`cardvalue_swap`, :func:`compare`, :func:`tournament`,
:func:`tune` and :func:`check`; the rules (:class:`RuleSet`, :data:`PRESETS`), a run's
configuration (:class:`RunConfig`), the base class of strategies (:class:`Strategy`) and the
error bad input raises (:class:`UnosimInputError`, a ``ValueError``).
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
    "unosim.api": ("replay", "run", "study", "view"),
}
