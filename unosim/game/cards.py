"""Card types, their encoding, and deck compositions.

Card-type encoding
------------------
Every card of every deck is one of ``N_TYPES = 60`` card types. A hand or a
pile is a vector of per-type counts of length ``N_TYPES``.

======================  =====================================  ========
type id                 card                                   points
======================  =====================================  ========
``14*c + f``, f = 0..9  number ``f`` of colour ``c``           ``f``
``14*c + 10``           Skip of colour ``c``                   20
``14*c + 11``           Reverse of colour ``c``                20
``14*c + 12``           Draw Two of colour ``c``               20
``14*c + 13``           Point Taken of colour ``c`` (Party)    20
56                      Wild                                   50
57                      Wild Draw Four                         50
58                      Wild Pile Up (Party)                   50
59                      Wild Drawn Together (Party)            50
======================  =====================================  ========

Colours ``c``: 0 red, 1 yellow, 2 green, 3 blue. Wild cards have colour -1.
The *face* of a coloured card is ``type % 14``; faces 14..17 are the four wild
kinds (``type - 42``), so two cards "match in face" (docs/rules.md T-1) exactly when
their faces are equal and both are coloured.

Card *kinds* group types for statistics: ``number``, ``skip``, ``reverse``,
``draw_two``, ``point_taken``, ``wild``, ``wild_draw_four``, ``wild_pile_up``,
``wild_drawn_together`` (``KIND_NAMES``; ``CARD_KIND[type]`` is the kind id).

Deck files
----------
A deck composition is a TOML file (the shipped ones live in ``unosim/game/decks``)::

    name = "classic"
    assumption = false          # true: counts are the engine's assumption
    [per_colour]                # copies of each coloured kind in EACH colour
    "0" = 1
    "1" = 2                     # ... "9", skip, reverse, draw_two, point_taken
    [wild]                      # copies of each wild kind in total
    wild = 4
    wild_draw_four = 4

Kinds not listed are absent. ``load_deck`` reads a shipped name or a path.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from . import inputs
from .errors import UnosimInputError

__all__ = [
    "CARD_COLOUR", "CARD_FACE", "CARD_KIND", "CARD_NAMES", "CARD_POINTS", "COLOUR_NAMES", "COLOURED_FACE_NAMES",
    "DECK_DIR", "DRAW_TWO", "FACES_PER_COLOUR", "IS_NUMBER", "IS_WILD", "KIND_NAMES", "N_COLOURED", "N_COLOURS",
    "N_KINDS", "N_TYPES", "NAMES_A_COLOUR", "POINT_TAKEN", "REVERSE", "SKIP", "WILD", "WILD_DRAW_FOUR",
    "WILD_DRAWN_TOGETHER", "WILD_NAMES", "WILD_PILE_UP", "card_name", "Deck", "load_deck", "shipped_decks",
]

N_COLOURS = 4
COLOUR_NAMES = ("red", "yellow", "green", "blue")
FACES_PER_COLOUR = 14
N_COLOURED = N_COLOURS * FACES_PER_COLOUR  # 56

SKIP, REVERSE, DRAW_TWO, POINT_TAKEN = 10, 11, 12, 13
WILD, WILD_DRAW_FOUR, WILD_PILE_UP, WILD_DRAWN_TOGETHER = 56, 57, 58, 59
N_TYPES = 60
NAMES_A_COLOUR = (WILD, WILD_DRAW_FOUR, WILD_DRAWN_TOGETHER)
"""Wilds whose player names the active colour (W-1, W-2, P-6); Wild Pile Up does not (P-5)."""

COLOURED_FACE_NAMES = tuple(str(n) for n in range(10)) + (
    "skip",
    "reverse",
    "draw_two",
    "point_taken",
)
WILD_NAMES = ("wild", "wild_draw_four", "wild_pile_up", "wild_drawn_together")
KIND_NAMES = (
    "number",
    "skip",
    "reverse",
    "draw_two",
    "point_taken",
    "wild",
    "wild_draw_four",
    "wild_pile_up",
    "wild_drawn_together",
)
N_KINDS = len(KIND_NAMES)


def _tables() -> tuple[NDArray[np.int8], NDArray[np.int8], NDArray[np.int16], NDArray[np.int8], tuple[str, ...]]:
    colour = np.full(N_TYPES, -1, np.int8)
    face = np.zeros(N_TYPES, np.int8)
    points = np.zeros(N_TYPES, np.int16)
    kind = np.zeros(N_TYPES, np.int8)
    names = []
    for c in range(N_COLOURS):
        for f in range(FACES_PER_COLOUR):
            t = c * FACES_PER_COLOUR + f
            colour[t], face[t] = c, f
            points[t] = f if f < 10 else 20
            kind[t] = 0 if f < 10 else f - 9
            names.append(f"{COLOUR_NAMES[c]} {COLOURED_FACE_NAMES[f].replace('_', ' ')}")
    for i, name in enumerate(WILD_NAMES):
        t = N_COLOURED + i
        face[t], points[t], kind[t] = FACES_PER_COLOUR + i, 50, 5 + i
        names.append(name.replace("_", " "))
    for arr in (colour, face, points, kind):
        arr.flags.writeable = False
    return colour, face, points, kind, tuple(names)


CARD_COLOUR, CARD_FACE, CARD_POINTS, CARD_KIND, CARD_NAMES = _tables()
"""Per-type lookup tables: colour (-1 for wilds), face, points, kind id, name."""

IS_NUMBER = np.array([0 <= f <= 9 for f in CARD_FACE[:N_COLOURED]] + [False] * 4)
IS_WILD = CARD_COLOUR < 0
for _table in (IS_NUMBER, IS_WILD):
    _table.flags.writeable = False  # shared by every strategy of the process: never changed
del _table


def card_name(card: int) -> str:
    """Return the readable name of card type ``card`` (e.g. ``'red 7'``)."""
    return CARD_NAMES[int(card)]


DECK_DIR = Path(__file__).with_name("decks")


@dataclass(frozen=True)
class Deck:
    """A deck composition: how many copies of each card type one deck holds.

    Parameters
    ----------
    name : str
        Shipped deck name or the file it was read from.
    counts : tuple of int
        Copies of each card type (length ``N_TYPES``) in one deck.
    assumption : bool
        True when the composition is an assumption rather than a published count.
    """

    name: str
    counts: tuple[int, ...]
    assumption: bool = False

    @property
    def size(self) -> int:
        """Number of cards in one copy of the deck."""
        return sum(self.counts)

    def array(self, copies: int = 1) -> NDArray[np.int16]:
        """Per-type counts of ``copies`` copies of the deck."""
        return np.asarray(self.counts, np.int16) * np.int16(copies)


def shipped_decks() -> list[str]:
    """Names of the deck files shipped with unosim."""
    return sorted(p.stem for p in DECK_DIR.glob("*.toml"))


def load_deck(name_or_path: str | Path) -> Deck:
    """Read a deck composition by shipped name (``classic``, ``party``) or path.

    Raises
    ------
    ValueError
        If the name is unknown, the file malformed, or it holds no card.
    """
    path = Path(name_or_path)
    if str(name_or_path) in shipped_decks():
        path = DECK_DIR / f"{name_or_path}.toml"
    elif not (inputs.is_pinned(path) or path.is_file()):
        raise UnosimInputError(
            f"deck {str(name_or_path)!r} is neither a shipped deck ({', '.join(shipped_decks())}) "
            "nor a readable file; pass one of those names or the path of a deck TOML file "
            "(format: see unosim/game/decks/classic.toml)."
        )
    try:
        data = inputs.parse_toml(inputs.read_text(path, "deck file"), f"deck file {path}")
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UnosimInputError(f"deck file {path} is not valid TOML: {exc}") from None
    except OSError as exc:
        raise UnosimInputError(f"deck file {path} cannot be read: {exc.strerror or exc}; give a readable deck TOML file.") from None
    counts = [0] * N_TYPES
    allowed_tables = {"name", "assumption", "per_colour", "wild", "description"}
    unknown = set(data) - allowed_tables
    if unknown:
        raise UnosimInputError(
            f"deck file {path}: unknown key(s) {sorted(unknown)}; allowed: {sorted(allowed_tables)}."
        )
    for table, names in (("per_colour", COLOURED_FACE_NAMES), ("wild", WILD_NAMES)):
        if not isinstance(data.get(table, {}), dict):
            raise UnosimInputError(
                f"deck file {path}: {table} = {data[table]!r} is not a table; write [{table}] on a line of its own and "
                f"one count per kind below it ({names[0]} = 2)."
            )
    for key in ("name", "description"):
        if key in data and not isinstance(data[key], str):
            raise UnosimInputError(f"deck file {path}: {key} = {data[key]!r} is not allowed; use a quoted text ({key} = \"...\").")
    if not isinstance(data.get("assumption", False), bool):
        raise UnosimInputError(
            f"deck file {path}: assumption = {data['assumption']!r} is not allowed; use true or false (unquoted): "
            "true when the counts are an assumption rather than a published count."
        )
    for key, n in data.get("per_colour", {}).items():
        if key not in COLOURED_FACE_NAMES:
            raise UnosimInputError(
                f"deck file {path}: [per_colour] has unknown kind {key!r}; "
                f"allowed: {', '.join(COLOURED_FACE_NAMES)}."
            )
        _check_count(path, f"per_colour.{key}", n)
        for c in range(N_COLOURS):
            counts[c * FACES_PER_COLOUR + COLOURED_FACE_NAMES.index(key)] = n
    for key, n in data.get("wild", {}).items():
        if key not in WILD_NAMES:
            raise UnosimInputError(
                f"deck file {path}: [wild] has unknown kind {key!r}; allowed: {', '.join(WILD_NAMES)}."
            )
        _check_count(path, f"wild.{key}", n)
        counts[N_COLOURED + WILD_NAMES.index(key)] = n
    if sum(counts) == 0:
        raise UnosimInputError(f"deck file {path} holds no card; list counts under [per_colour] and [wild].")
    if sum(counts[:N_COLOURED]) == 0:
        raise UnosimInputError(f"deck file {path} holds no coloured card; a game cannot start without one.")
    name = data.get("name", path.stem)
    return Deck(name=name, counts=tuple(counts), assumption=data.get("assumption", False))


def _check_count(path: Path, key: str, n: object) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 16:
        raise UnosimInputError(f"deck file {path}: {key} = {n!r}; a count must be a whole number from 0 to 16.")
