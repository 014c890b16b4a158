"""unosim — fast Monte Carlo simulation and analytics for UNO and UNO Party!."""

from .api import (
           card_values,
           cardvalue_swap,
           compare,
           load,
           report,
           run_experiment,
           simulate,
           tournament,
           tune,  # issue 12: strategy tuning
)
from .cards import N_TYPES, card_name, load_deck
from .config import RunConfig
from .conformance import check
from .rules import PRESETS, RuleSet
from .version import __version__

__all__ = ["N_TYPES", "PRESETS", "RuleSet", "RunConfig", "card_name", "check", "load_deck", "__version__", "load", "run_experiment",
           "simulate", "card_values", "cardvalue_swap", "compare", "report", "tournament", "tune"]
