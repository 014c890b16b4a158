"""Per-card-type lookup tables and card constants for the kernels (frozen into compiled code).

Integer ``//`` and ``%`` keep Python semantics in numba and block
vectorisation; table look-ups are several times faster in the hot loops.
"""

import numpy as np

from ..cards import (
    CARD_COLOUR,
    CARD_FACE,
    CARD_KIND,
    CARD_POINTS,
    DRAW_TWO,
    FACES_PER_COLOUR,
    N_COLOURED,
    N_COLOURS,
    N_TYPES,
    POINT_TAKEN,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
    WILD_DRAWN_TOGETHER,
    WILD_PILE_UP,
)

__all__ = [
    "COLOUR_OF", "FACE_DRAW_TWO", "FACE_OF", "FACE_POINT_TAKEN", "FACE_REVERSE", "FACE_SKIP", "FACES_PER_COLOUR",
    "KIND_OF", "N_COLOURED", "N_COLOURS", "N_TYPES", "POINTS_OF", "WILD", "WILD_DRAW_FOUR", "WILD_DRAWN_TOGETHER", "WILD_PILE_UP",
]

COLOUR_OF = CARD_COLOUR.astype(np.int32)  # -1 for wilds
FACE_OF = CARD_FACE.astype(np.int32)  # 0-9 numbers, 10 skip, 11 reverse, 12 draw two, 13 point taken, 14+ wilds
KIND_OF = CARD_KIND.astype(np.int32)
POINTS_OF = CARD_POINTS.astype(np.int32)
FACE_SKIP, FACE_REVERSE, FACE_DRAW_TWO, FACE_POINT_TAKEN = SKIP, REVERSE, DRAW_TWO, POINT_TAKEN
"""Faces of the coloured action cards (``FACE_OF[card]``); the card ids themselves (``N_COLOURED``,
``WILD`` .. ``WILD_DRAWN_TOGETHER``) come from ``unosim.game.cards``, where the encoding is documented."""
