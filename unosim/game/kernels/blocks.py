"""Card counts summed a colour block at a time, eight counts per load.

A row of an int8 card-count array (a hand ``hands[s, seat]``, a pile ``piles[s, DRAW]``) holds
each colour's 14 types in one block (``tables``: colour ``c`` is types ``14 c .. 14 c + 13``, the
wilds follow). A type's count is at most 127, so eight counts read as one 64-bit word
(``eight_counts``) can be added byte by byte without carries.

- ``colour_block``: the cards in one colour's block of a row.
- ``colour_totals``: the cards of each colour in a row (the compiled policies' colour counts).
- ``held_in``: which types of one colour's block and which wilds a row holds, as a type bit
  mask (bit ``t`` for type ``t``), so a loop over the candidates visits only the held ones.

- ``block_nth``: the type of the ``x``-th card of one colour's block (prefix sums of a word).

Drawing (``piles.nth_card``) counts the card's block from the four ``colour_block`` totals, then finds the card in
its block with ``block_nth``;
the compiled policies (``policy``, ``rule_policy``) walk the bits of ``held_in``.
"""

from typing import Any

from llvmlite import ir
from numba import int64, types, uint64
from numba.core import cgutils
from numba.extending import intrinsic

from .jit import leaf, rule
from .tables import FACES_PER_COLOUR, N_COLOURED, N_TYPES

__all__ = [
    "ONES8", "TOP_BYTE", "block_held", "block_nth", "bytes_at_most", "colour_block", "colour_totals", "eight_bytes", "eight_counts",
    "held_bits", "held_in", "nonzero_bytes",
]


def _load_word(context: Any, builder: ir.IRBuilder, signature: Any, args: list[ir.Value]) -> ir.Value:
    """Codegen: the 8 bytes from element ``args[1:]`` of the array ``args[0]`` on, as one 64-bit word."""
    array_type = signature.args[0]
    array = context.make_array(array_type)(context, builder, args[0])
    inds = [context.cast(builder, v, ty, types.intp) for v, ty in zip(args[1:], signature.args[1:])]
    at = cgutils.get_item_pointer2(context, builder, data=array.data, shape=cgutils.unpack_tuple(builder, array.shape),
                                   strides=cgutils.unpack_tuple(builder, array.strides), layout=array_type.layout,
                                   inds=inds, wraparound=False)
    return builder.load(builder.bitcast(at, ir.IntType(64).as_pointer()), align=1)


@intrinsic
def eight_counts(typingctx: object, counts: types.Array, a: types.Integer, b: types.Integer,
                 t: types.Integer) -> tuple[object, object]:
    """The int8 counts ``counts[a, b, t : t + 8]`` as one little-endian 64-bit word (one load;
    byte ``k`` is the count of type ``t + k``). The caller keeps ``t + 8`` within the row."""
    return types.uint64(counts, a, b, t), _load_word


@intrinsic
def eight_bytes(typingctx: object, arr: types.Array, r: types.Integer, t: types.Integer) -> tuple[object, object]:
    """The one-byte items ``arr[r, t : t + 8]`` of a 2-D array with contiguous rows as one
    little-endian 64-bit word (as ``eight_counts``)."""
    return types.uint64(arr, r, t), _load_word


BYTE_LANES = uint64(0x00FF00FF00FF00FF)
ONES16 = uint64(0x0001000100010001)
HIGH6 = uint64(0xFFFFFFFFFFFF0000)
LOW7 = uint64(0x7F7F7F7F7F7F7F7F)
HIGH_BITS = uint64(0x8080808080808080)
GATHER = uint64(0x0102040810204080)
ONES8 = uint64(0x0101010101010101)
TOP_BYTE = uint64(64 - 8)
"""Shift that brings a word's top byte down (byte 7 of a prefix-sum word holds the sum of all eight)."""


@leaf
def colour_block(counts, a, b, first):
    """Cards in the 14 types ``first .. first + 13`` of ``counts[a, b]`` (each count 0–127): two
    overlapping 8-byte words, the second without its first two bytes, added byte by byte, then
    the bytes summed in 16-bit lanes (exact up to 65,535 cards)."""
    x = eight_counts(counts, a, b, first) + (eight_counts(counts, a, b, first + 6) & HIGH6)
    x = (x & BYTE_LANES) + ((x >> uint64(8)) & BYTE_LANES)
    return int64((x * ONES16) >> uint64(48))


@rule
def colour_totals(counts, a, b):
    """Cards of each colour (red, yellow, green, blue) in ``counts[a, b]``: a hand is
    ``(hands, s, seat)``, the discard pile ``(piles, s, DISC)``. A type's count is at most 127
    (int8), so the byte sums of ``colour_block`` cannot carry."""
    return (colour_block(counts, a, b, int64(0)), colour_block(counts, a, b, int64(FACES_PER_COLOUR)),
            colour_block(counts, a, b, int64(2 * FACES_PER_COLOUR)), colour_block(counts, a, b, int64(3 * FACES_PER_COLOUR)))


@leaf
def held_bits(counts, a, b, t):
    """Bit ``k`` set where ``counts[a, b, t + k] > 0``, ``k`` < 8: adding 0x7F to a count of 0–127 sets
    its byte's high bit exactly when it is not 0 (no carry leaves the byte); the multiplication
    gathers the eight high bits into the top byte, byte ``k`` to bit ``k``."""
    x = ((eight_counts(counts, a, b, t) + LOW7) & HIGH_BITS) >> uint64(7)
    return int64((x * GATHER) >> uint64(64 - 8))  # the top byte


@leaf
def block_held(counts, a, b, first):
    """Bit ``k`` set where ``counts[a, b, first + k] > 0``, for the 14 types of the block at ``first``
    (two overlapping words: types ``first .. first + 7`` and ``first + 6 .. first + 13``)."""
    return held_bits(counts, a, b, first) | (held_bits(counts, a, b, first + 6) << 6)


@leaf
def held_in(counts, a, b, colour):
    """Type bit mask of the cards ``counts[a, b]`` holds in colour ``colour``'s block (none when
    ``colour`` is not 0–3) and among the wilds (one word: the row's last eight types)."""
    held = (held_bits(counts, a, b, int64(N_TYPES - 8)) >> (N_COLOURED - N_TYPES + 8)) << N_COLOURED
    if 0 <= colour < 4:
        first = colour * FACES_PER_COLOUR
        held |= block_held(counts, a, b, first) << first
    return held


@leaf
def nonzero_bytes(x):
    """0x01 in each byte of ``x`` that is not 0, else 0x00 (no byte carries into the next)."""
    return ((((x & LOW7) + LOW7) | x) & HIGH_BITS) >> uint64(7)


@leaf
def bytes_at_most(p, x):
    """How many of the eight bytes of ``p`` are at most ``x`` (bytes and ``x`` 0–127): adding
    ``127 - x`` to each byte sets its high bit exactly where the byte exceeds ``x``, without a carry."""
    over = ((p + ONES8 * uint64(127 - x)) & HIGH_BITS) >> uint64(7)
    return 8 - int64((over * ONES8) >> TOP_BYTE)


@leaf
def block_nth(counts, a, b, first, x):
    """The type of card ``x`` (from 0) of the 14 types ``first .. first + 13`` of ``counts[a, b]``,
    cards in type order, for a block of at most 127 cards and ``x`` below its total.

    One multiplication turns a word of eight counts into their prefix sums (byte ``k``: the cards
    of the word's first ``k + 1`` types; no byte carries below 128); the types whose prefix sum is at
    most ``x`` come before the card, so their number is its offset. The second word is types
    ``first + 6 ..``, its first two bytes cleared. Both words are counted and the answer selected,
    without a branch on where the card lies (it would be mispredicted about every other draw)."""
    p = eight_counts(counts, a, b, first) * ONES8
    before = bytes_at_most(p, x)
    rest = max(x - int64(p >> TOP_BYTE), 0)  # the card's place past the first word (0 when within it)
    later = 6 + bytes_at_most((eight_counts(counts, a, b, first + 6) & HIGH6) * ONES8, rest)
    return first + (before if before < 8 else later)
