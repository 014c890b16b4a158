"""The questions that follow an answer, and the order they are asked in.

An answer that sheds a card can lead to more questions of the same seat before the game goes on:
the colour of a wild (W-1), the two seats a Wild Drawn Together links (P-6), and the UNO call of a
seat going down to one card (U-1). Which of them follow, and in which order, is written here once;
the engine's decision calls (``unosim.engine.decisions``) and the environments' compiled steps
(``unosim.env.kernels``) both ask them from these bits.

A follow-up set is an integer of bits ``1 << FOLLOW_*``; ``FOLLOW_UP_ORDER`` is the order of
asking.
"""

import numpy as np
from numba import int64

from ..cards import N_TYPES, NAMES_A_COLOUR, WILD_DRAWN_TOGETHER
from .jit import kernel, leaf
from .layout import I_HSIZE, PH_DRAWN, PH_STACK, PH_TURN

__all__ = ["FOLLOW_COLOUR", "FOLLOW_LINK", "FOLLOW_UNO", "FOLLOW_UP_ORDER", "follow_up_rows", "follow_ups"]

FOLLOW_COLOUR, FOLLOW_LINK, FOLLOW_UNO = 0, 1, 2
FOLLOW_UP_ORDER = (FOLLOW_COLOUR, FOLLOW_LINK, FOLLOW_UNO)
"""The follow-ups in the order a seat is asked them: a wild's colour, then a link pair, then the UNO call."""

_NAMES_A_COLOUR = np.isin(np.arange(N_TYPES), NAMES_A_COLOUR)
"""Per card type: whether playing it names a colour (W-1)."""


@leaf
def follow_ups(phase, card, sheds, hsize, n_linkable):  # pragma: no cover - compiled
    """The follow-up bits of one answer in decision ``phase`` (``PH_*``).

    ``card`` is the card the answer plays (-1: none, or a jump-in, whose card names nothing),
    ``sheds`` whether the answer puts a card of the hand down (a card played, stacked or added to a
    mini pile, or a jump-in), ``hsize`` the hand's size before it, and ``n_linkable`` the seats a
    Wild Drawn Together may link now (read only when ``card`` is one).
    """
    bits = 0
    named = phase == PH_TURN or phase == PH_DRAWN or phase == PH_STACK  # a mini pile's wild names no colour (P-5)
    if card >= 0 and named and _NAMES_A_COLOUR[card]:
        bits |= 1 << FOLLOW_COLOUR
    if card == WILD_DRAWN_TOGETHER and (phase == PH_TURN or phase == PH_DRAWN) and n_linkable >= 2:  # P-6
        bits |= 1 << FOLLOW_LINK
    if sheds and hsize == 2:  # U-1
        bits |= 1 << FOLLOW_UNO
    return bits


@kernel
def follow_up_rows(phase, cards, sheds, info, n_linkable, out, counts):  # pragma: no cover - compiled
    """The rows of one decision phase's answers that ask each follow-up, in one pass.

    Row ``r`` answered ``cards[r]`` (``sheds[r]``: it puts a card down; ``info[r]``: its table
    fields, ``layout.I_*``, the hand size among them; ``n_linkable[r]``: the seats a Wild Drawn
    Together may link, or ``n_linkable`` empty when no answer plays one). Each follow-up ``f``
    (``FOLLOW_*``) it asks appends ``r`` to ``out[f, :counts[f]]``, so each follow-up's rows come in
    row order. No branch on the answers (which vary at random, so a branch would often be
    mispredicted): every row is written at each list's end, and the end moves on only where the row
    asks.
    """
    colour = link = uno = 0
    for r in range(cards.shape[0]):
        linkable = n_linkable[r] if n_linkable.shape[0] else int64(0)
        bits = follow_ups(phase, cards[r], sheds[r], int64(info[r, I_HSIZE]), linkable)
        out[FOLLOW_COLOUR, colour] = r
        colour += (bits >> FOLLOW_COLOUR) & 1
        out[FOLLOW_LINK, link] = r
        link += (bits >> FOLLOW_LINK) & 1
        out[FOLLOW_UNO, uno] = r
        uno += (bits >> FOLLOW_UNO) & 1
    counts[FOLLOW_COLOUR], counts[FOLLOW_LINK], counts[FOLLOW_UNO] = colour, link, uno
