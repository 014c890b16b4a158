"""The game: cards and decks, the rules and their encoding, and the compiled kernels that play them.

This is the ground floor. :mod:`~unosim.game.cards` defines the card types and loads decks
(``decks/*.toml``); :mod:`~unosim.game.rules` holds :class:`RuleSet` and the presets, :mod:`~unosim.game.table` a
rule set with its player count (:class:`Table`);
:mod:`~unosim.game.encoding` turns a rule set into the kernels' ``int32`` configuration vector;
:mod:`~unosim.game.errors` the error bad input raises (:class:`UnosimInputError`);
:mod:`~unosim.game.kernels` holds the numba kernels that deal, step and score whole batches of
games, with the state layout documented in :mod:`~unosim.game.kernels.layout`.
:mod:`~unosim.game.names` makes the names people give safe where they go (a file name, the
terminal, a page's script); every floor above uses it.

May import: numpy, numba and the standard library only — nothing else of unosim.
"""

from .cards import N_TYPES, Deck, card_name, load_deck, shipped_decks
from .errors import UnosimInputError
from .rules import PRESETS, RuleSet
from .table import Table

__all__ = ["N_TYPES", "PRESETS", "Deck", "RuleSet", "Table", "UnosimInputError", "card_name", "load_deck", "shipped_decks"]
