"""The game: cards and decks, the rules and their encoding, and the compiled kernels that play them.

This is the ground floor. `unosim.game.cards` defines the card types and loads decks
(``decks/*.toml``); `unosim.game.rules` holds [`RuleSet`][unosim.game.RuleSet] and the presets, `unosim.game.table` a
rule set with its player count ([`Table`][unosim.game.Table]);
`unosim.game.encoding` turns a rule set into the kernels' ``int32`` configuration vector;
`unosim.game.errors` the error bad input raises ([`UnosimInputError`][unosim.game.UnosimInputError]);
`unosim.game.kernels` holds the numba kernels that deal, step and score whole batches of
games, with the state layout documented in `unosim.game.kernels.layout`.
`unosim.game.names` makes the names people give safe where they go (a file name, the
terminal, a page's script); every floor above uses it.

May import: numpy, numba and the standard library only — nothing else of unosim.
"""

from .cards import N_TYPES, Deck, card_name, load_deck, shipped_decks
from .errors import UnosimInputError
from .rules import PRESETS, RuleSet
from .table import Table

__all__ = ["N_TYPES", "PRESETS", "Deck", "RuleSet", "Table", "UnosimInputError", "card_name", "load_deck", "shipped_decks"]

# The modules of this package that other packages may import beside the face (__all__), and the
# names each lends them; () lends the module only, imported whole as a namespace.
# tests/test_architecture.py refuses any other import from outside the package.
PUBLIC_MODULES: dict[str, tuple[str, ...]] = {
    "unosim.game.cards": ("CARD_COLOUR", "CARD_FACE", "CARD_KIND", "CARD_NAMES", "CARD_POINTS", "COLOURED_FACE_NAMES", "COLOUR_NAMES",
                          "DRAW_TWO", "FACES_PER_COLOUR", "IS_NUMBER", "IS_WILD", "KIND_NAMES", "NAMES_A_COLOUR", "N_COLOURED",
                          "N_COLOURS", "SKIP", "WILD", "WILD_DRAWN_TOGETHER", "WILD_DRAW_FOUR"),
    "unosim.game.encoding": ("check_supported", "copy_flags", "encode_flags", "encode_rules"),
    "unosim.game.errors": ("caused_by",),
    "unosim.game.inputs": (),
    "unosim.game.kernels": (),
    "unosim.game.kernels.advance": ("advance", "compile_advance"),
    "unosim.game.kernels.blocks": (),
    "unosim.game.kernels.deal": (),
    "unosim.game.kernels.follow_ups": (),
    "unosim.game.kernels.jit": (),
    "unosim.game.kernels.layout": (),
    "unosim.game.kernels.policy": ("POLICY_GREEDY", "POLICY_NONE", "POLICY_RANDOM", "POLICY_RULES"),
    "unosim.game.kernels.rng": (),
    "unosim.game.kernels.rule_policy": (),
    "unosim.game.kernels.state": (),
    "unosim.game.kernels.tally": (),
    "unosim.game.names": ("code_span", "file_stem", "printable", "script_json", "text_cells", "text_line"),
    "unosim.game.rules": ("MAX_DECK_COPIES", "MAX_PLAYERS", "MIN_PLAYERS"),
}
