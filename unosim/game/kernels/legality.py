"""Which cards may be played: T-1 (matching), W-2 (Wild Draw Four legality), H-4 (no going out on an
action card or a wild)."""

import numpy as np
from numba import int64

from ..cards import NAMES_A_COLOUR
from ..rules import choice_code
from .blocks import colour_block, held_in
from .jit import kernel, leaf, rule
from .layout import C_NO_ACTION_OUT, C_SYMBOL_MATCH, C_WD4_CHALLENGE, C_WD4_WHEN, F_COLOUR, F_MINI_COLOUR, F_TOP
from .tables import (
    COLOUR_OF,
    FACE_OF,
    FACES_PER_COLOUR,
    N_COLOURED,
    N_COLOURS,
    N_TYPES,
    WILD,
    WILD_DRAW_FOUR,
    WILD_DRAWN_TOGETHER,
    WILD_PILE_UP,
)

__all__ = [
    "WD4_LEGAL_WHEN_ALWAYS", "WD4_LEGAL_WHEN_NO_COLOR_MATCH", "WD4_LEGAL_WHEN_NO_COLOR_MATCH_INCL_PLAIN_WILDS",
    "WD4_LEGAL_WHEN_NO_COLOR_MATCH_INCL_WILDS", "MATCHES", "WD4_LEGAL_WHEN_NO_COLOR_OR_NUMBER_MATCH", "count_blocked", "fill_legal",
    "has_legal", "last_card_blocked", "legal_types", "pile_additions", "matches", "needs_colour", "playable", "top_face", "wd4_legal",
]

WD4_LEGAL_WHEN_NO_COLOR_MATCH_INCL_WILDS = choice_code("wd4_legal_when", "no_color_match_incl_wilds")
WD4_LEGAL_WHEN_NO_COLOR_MATCH = choice_code("wd4_legal_when", "no_color_match")
WD4_LEGAL_WHEN_NO_COLOR_OR_NUMBER_MATCH = choice_code("wd4_legal_when", "no_color_or_number_match")
WD4_LEGAL_WHEN_ALWAYS = choice_code("wd4_legal_when", "always")
WD4_LEGAL_WHEN_NO_COLOR_MATCH_INCL_PLAIN_WILDS = choice_code("wd4_legal_when", "no_color_match_incl_plain_wilds")


@leaf
def needs_colour(card):
    """Its player names a colour: Wild, Wild Draw Four, Wild Drawn Together (``cards.NAMES_A_COLOUR``)."""
    return card == NAMES_A_COLOUR[0] or card == NAMES_A_COLOUR[1] or card == NAMES_A_COLOUR[2]


@leaf
def top_face(top):
    """Face of the top card that others may match; -1 for a wild (T-1: no face)."""
    return FACE_OF[top] if 0 <= top < N_COLOURED else -1


@leaf
def matches(card, face_on_top, colour, symbol_match):
    """T-1: ``card`` matches the active colour or the top card's face, or is wild."""
    if card >= N_COLOURED:
        return True
    f = FACE_OF[card]
    return (COLOUR_OF[card] == colour) | ((f == face_on_top) & (symbol_match | (f <= 9)))


@leaf
def wd4_legal(s, seat, hands, slot, cfg):
    """W-2: may ``seat`` play a Wild Draw Four it holds, under ``wd4_legal_when``?"""
    when = cfg[C_WD4_WHEN]
    if when == WD4_LEGAL_WHEN_ALWAYS:
        return True
    colour = slot[s, F_COLOUR]
    if colour >= 0 and colour_block(hands, s, seat, colour * FACES_PER_COLOUR) > 0:
        return False  # WD4_LEGAL_WHEN_NO_COLOR_MATCH: this is the whole test
    if when == WD4_LEGAL_WHEN_NO_COLOR_MATCH_INCL_WILDS:
        # "wild cards count as matching": any other wild, another WD4 included
        others = hands[s, seat, WILD] + hands[s, seat, WILD_DRAW_FOUR] - 1
        return others + hands[s, seat, WILD_PILE_UP] + hands[s, seat, WILD_DRAWN_TOGETHER] == 0
    if when == WD4_LEGAL_WHEN_NO_COLOR_MATCH_INCL_PLAIN_WILDS:
        # only a plain Wild (W-1) counts as matching: a second Wild Draw Four does not block
        return hands[s, seat, WILD] == 0
    if when == WD4_LEGAL_WHEN_NO_COLOR_OR_NUMBER_MATCH:
        face = top_face(slot[s, F_TOP])
        if 0 <= face <= 9:
            for c in range(4):
                if hands[s, seat, c * FACES_PER_COLOUR + face] > 0:
                    return False
    return True


@leaf
def pile_additions(s, seat, hands, slot, cfg):
    """P-5: type bit mask of the cards ``seat`` may add to the mini pile (its colour and the wilds);
    none under ``go_out_on_action=false`` when the one card held is an action card or a wild (H-4:
    adding it would go out on it)."""
    if cfg[C_NO_ACTION_OUT] and last_card_blocked(s, seat, hands) >= 0:
        return int64(0)
    return held_in(hands, s, seat, slot[s, F_MINI_COLOUR])


@leaf
def last_card_blocked(s, seat, hands):
    """H-4 (``go_out_on_action=false``): the card ``seat`` holds when it holds exactly one, if that card
    is an action card or a wild (it may not be played out); -1 otherwise."""
    held = -1
    for t in range(hands.shape[2]):
        h = hands[s, seat, t]
        if h > 0:
            if h > 1 or held >= 0:
                return -1
            held = t
    if held >= 0 and FACE_OF[held] <= 9:
        return -1
    return held


@leaf
def playable(s, seat, card, hands, slot, cfg):
    """Legal without bluffing: 1; only as a bluff (challenges on): 2; not at all: 0."""
    if card == WILD_DRAW_FOUR:
        if wd4_legal(s, seat, hands, slot, cfg):
            return 1
        return 2 if cfg[C_WD4_CHALLENGE] else 0
    return 1 if matches(card, top_face(slot[s, F_TOP]), slot[s, F_COLOUR], cfg[C_SYMBOL_MATCH] != 0) else 0


@kernel
def count_blocked(s, seat, hands, slot, cfg):
    """H-4: 1 when ``seat`` draws holding one card, an action card or a wild that could otherwise be played."""
    t = last_card_blocked(s, seat, hands)
    if t >= 0 and playable(s, seat, t, hands, slot, cfg) == 1:
        return 1
    return 0


MAX_FACE = int(FACE_OF[:N_COLOURED].max())
"""The highest face of a coloured card (the top card's face indexes ``MATCHES``)."""


def _match_table() -> np.ndarray:
    """``[symbol_match, colour + 1, face + 1, type]``: 1 where a card of ``type`` matches (T-1) an
    active colour ``colour`` (-1: none yet) and a top card of face ``face`` (-1: a wild on top), for
    ``symbol_match`` off and on; the wilds always (W-2 is checked apart). Filled by ``matches``
    itself (its Python function, so nothing compiles at import), as bytes, so that
    ``fill_legal``'s loop is plain byte logic that compiles to vector code."""
    table = np.zeros((2, N_COLOURS + 1, MAX_FACE + 2, N_TYPES), np.uint8)
    for index in np.ndindex(*table.shape):
        sym, colour, face, t = index
        table[index] = matches.py_func(t, face - 1, colour - 1, sym == 1)
    return table


MATCHES = _match_table()
"""T-1 as a table (``_match_table``), frozen into the compiled kernel (9 KB)."""


@rule
def fill_legal(s, seat, hands, hsize, slot, cfg, legal, q, r, house):
    """Write ``seat``'s legal-play mask into ``legal[q, r]``.

    Returns (1 if a held Wild Draw Four may be played as a bluff, number of
    legal physical cards held). H-4: a lone action card or wild is not legal.
    """
    face = top_face(slot[s, F_TOP])
    colour = slot[s, F_COLOUR]
    sym = 1 if cfg[C_SYMBOL_MATCH] != 0 else 0
    n = 0
    for t in range(N_TYPES):  # bytes only: vector code (2.5 times as fast as looking up faces and colours)
        h = hands[s, seat, t]
        ok = (h > 0) & (MATCHES[sym, colour + 1, face + 1, t] != 0)
        legal[q, r, t] = ok
        n += h * ok
    bluff = 0
    if hands[s, seat, WILD_DRAW_FOUR] > 0 and not wd4_legal(s, seat, hands, slot, cfg):
        legal[q, r, WILD_DRAW_FOUR] = False
        n -= hands[s, seat, WILD_DRAW_FOUR]
        bluff = cfg[C_WD4_CHALLENGE]
    if house is not None and cfg[C_NO_ACTION_OUT] and hsize[s, seat] == 1:
        t = last_card_blocked(s, seat, hands)
        if t >= 0:
            legal[q, r, t] = False
            n = 0
            bluff = 0
    return bluff, n


@rule
def legal_types(s, seat, hands, slot, cfg, house):
    """Type bit mask (bit ``t`` for type ``t``) of the cards ``seat`` holds and may play without
    bluffing (T-1, W-2): the active colour's block and the wilds (``blocks.held_in``), the top
    card's face in the other colours, the Wild Draw Four only when ``wd4_legal``; none when the only
    card held is an action card or a wild under ``go_out_on_action=false`` (H-4; ``house``: see
    ``copy_flags``)."""
    colour = slot[s, F_COLOUR]
    face = top_face(slot[s, F_TOP])
    bits = held_in(hands, s, seat, colour)
    if face >= 0 and (cfg[C_SYMBOL_MATCH] != 0 or face <= 9):
        for c in range(N_COLOURS):
            t = c * FACES_PER_COLOUR + face
            if c != colour and hands[s, seat, t] > 0:
                bits |= 1 << t
    if (bits >> WILD_DRAW_FOUR) & 1 and not wd4_legal(s, seat, hands, slot, cfg):
        bits &= ~(1 << WILD_DRAW_FOUR)
    if house is not None and cfg[C_NO_ACTION_OUT] and bits != 0 and bits & (bits - 1) == 0 and last_card_blocked(s, seat, hands) >= 0:
        bits = 0  # H-4: the only card held is an action card or a wild
    return bits


@rule
def has_legal(s, seat, hands, slot, cfg, house):
    """Does ``seat`` hold a card it may play without bluffing?"""
    return legal_types(s, seat, hands, slot, cfg, house) != 0
