"""The colours of every plot: one fixed colour per card kind and one per rule set, so that the
same kind or rule set looks the same in every figure of every report.

Colours are Okabe–Ito and Tol's colour-blind-safe palettes. A card kind's colour comes from
its place in `unosim.game.cards.KIND_NAMES`; a preset's from `RULES_COLOURS`;
any other rule set name gets a colour from its text (stable from run to run and plot to plot).
"""

from __future__ import annotations

import zlib

from ..game.cards import KIND_NAMES

__all__ = ["KIND_COLOURS", "RULES_COLOURS", "kind_colour", "rules_colour"]

KIND_COLOURS: dict[str, str] = dict(zip(KIND_NAMES, (
    "#999999",  # number
    "#e69f00",  # skip
    "#56b4e9",  # reverse
    "#009e73",  # draw two
    "#882255",  # point taken
    "#0072b2",  # wild
    "#d55e00",  # wild draw four
    "#cc79a7",  # wild pile-up
    "#332288",  # wild drawn together
), strict=True))
"""One colour per card kind (`KIND_NAMES`)."""

RULES_COLOURS: dict[str, str] = {"classic": "#0072b2", "classic-house": "#009e73", "party": "#d55e00"}
"""One colour per shipped preset."""

_OTHER_RULES = ("#e69f00", "#cc79a7", "#56b4e9", "#882255", "#332288", "#117733", "#44aa99", "#999933", "#aa4499",
                "#000000")


def kind_colour(kind: str) -> str:
    """The colour of a card kind (``"wild_draw_four"`` or ``"wild draw four"``).

    Raises
    ------
    KeyError
        If ``kind`` is not a card kind.
    """
    return KIND_COLOURS[kind.replace(" ", "_")]


def rules_colour(name: str) -> str:
    """The colour of a rule set: its preset's, or one picked from its name (the same name, the same colour)."""
    if name in RULES_COLOURS:
        return RULES_COLOURS[name]
    return _OTHER_RULES[zlib.crc32(name.encode()) % len(_OTHER_RULES)]
