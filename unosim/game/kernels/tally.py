"""Counting and tie-breaking helpers shared by the compiled policies (``policy``, ``rule_policy``).

- ``argmax4``: the best of four colours, ties uniform in order.
- ``nth_allowed``: the ``x``-th seat not in a bit mask.
- ``extreme_cards``: the seat with the fewest (or most) cards, ties uniform.
- ``link_pair`` and ``point_at``: the seats a Wild Drawn Together links (P-6) and the
  seat a Point Taken points at (A-4), chosen by one of the ``SEAT_*`` ways.
- ``lowest_bit``: the index of the lowest set bit of a type mask (one instruction), so a
  loop over the card types in a mask visits only the types in it.

The colour totals of a hand or pile are in ``unosim.game.kernels.blocks``.
"""

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from .finish import count_seats
from .jit import leaf, rule
from .layout import C_PLAYERS, C_RELINK_DIFFER, F_ALIVE, F_LINK_A, F_LINK_B
from .rng import seat_uniform

__all__ = [
    "SEAT_FEWEST", "SEAT_MOST", "SEAT_RANDOM", "argmax4", "extreme_cards", "link_excluded", "link_pair", "lowest_bit",
    "nth_allowed", "point_at",
]

SEAT_FEWEST, SEAT_MOST, SEAT_RANDOM = range(3)
"""How a seat is chosen: fewest cards, most cards (ties uniform), or uniformly."""


@intrinsic
def lowest_bit(typingctx: object, mask: types.Integer) -> tuple[object, object]:
    """The index of the lowest set bit of the int64 ``mask`` (``mask`` must not be 0): LLVM's
    ``cttz``, one instruction. ``while m: t = lowest_bit(m); m &= m - 1`` visits the set bits
    in increasing order."""
    def codegen(context: object, builder: ir.IRBuilder, signature: object, args: list[ir.Value]) -> ir.Value:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


@rule
def argmax4(v0, v1, v2, v3, a0, a1, a2, a3, u):
    """``primitives.argmax_ties`` over four values where allowed (``a*``), ties uniform in order."""
    best = -(1 << 40)
    ties = 0
    for j in range(4):
        ok = a0 if j == 0 else a1 if j == 1 else a2 if j == 2 else a3
        v = v0 if j == 0 else v1 if j == 1 else v2 if j == 2 else v3
        if ok:
            if v > best:
                best = v
                ties = 1
            elif v == best:
                ties += 1
    x = int(u * ties)
    for j in range(4):
        ok = a0 if j == 0 else a1 if j == 1 else a2 if j == 2 else a3
        v = v0 if j == 0 else v1 if j == 1 else v2 if j == 2 else v3
        if ok and v == best:
            if x == 0:
                return j
            x -= 1
    return -1


@leaf
def nth_allowed(excl, x, n):
    """The ``x``-th seat (from 0, in seat order) not in bit mask ``excl``; -1 when there is none.
    Only the allowed seats' bits are visited: the ``x`` lowest are cleared."""
    m = ~excl & ((1 << n) - 1)
    if x < 0:
        return -1
    for _ in range(x):
        m &= m - 1
    return lowest_bit(m) if m else -1


@leaf
def extreme_cards(s, excl, u, hsize, n, most):
    """The seat with the fewest (``most``: most) cards among seats not in bit mask ``excl``, ties
    uniform in seat order (``argmax_ties``)."""
    best = -(1 << 30)
    ties = 0
    for p in range(n):
        if not (excl >> p) & 1:
            v = hsize[s, p] if most else -hsize[s, p]
            if v > best:
                best = v
                ties = 1
            elif v == best:
                ties += 1
    x = int(u * ties)
    for p in range(n):
        if not (excl >> p) & 1:
            v = hsize[s, p] if most else -hsize[s, p]
            if v == best:
                if x == 0:
                    return p
                x -= 1
    return -1


@leaf
def link_excluded(slot, s, cfg):
    """Seats that may not be linked now (bit mask): the current pair under ``relink_must_differ`` (P-6),
    and the seats eliminated from the match (E-4)."""
    excl = ((1 << cfg[C_PLAYERS]) - 1) & ~slot[s, F_ALIVE]
    if cfg[C_RELINK_DIFFER] and slot[s, F_LINK_A] >= 0:
        excl |= (1 << slot[s, F_LINK_A]) | (1 << slot[s, F_LINK_B])
    return excl


@rule
def link_pair(how, s, seat, keys, hsize, slot, seat_ctr, cfg):
    """P-6 link pair chosen the ``SEAT_*`` way ``how``, packed ``a * 16 + b`` (-1: fewer than two
    seats may be linked, the link ends): two distinct uniform seats, or the two other players with
    fewest (most) cards (the player too when fewer than two others may be linked)."""
    n = cfg[C_PLAYERS]
    excl = link_excluded(slot, s, cfg)
    m = n - count_seats(excl, n)
    if m < 2:
        return -1
    u0 = seat_uniform(keys, seat_ctr, s, seat)
    u1 = seat_uniform(keys, seat_ctr, s, seat)
    if how == SEAT_RANDOM:
        a = nth_allowed(excl, int(u0 * m), n)
        b = nth_allowed(excl | (1 << a), int(u1 * (m - 1)), n)
        return a * 16 + b
    if m - 1 + ((excl >> seat) & 1) >= 2:  # at least two others may be linked
        excl |= 1 << seat
    a = extreme_cards(s, excl, u0, hsize, n, how == SEAT_MOST)
    b = extreme_cards(s, excl | (1 << a), u1, hsize, n, how == SEAT_MOST)
    return a * 16 + b


@rule
def point_at(how, s, seat, keys, hsize, seat_ctr, n, alive):
    """A-4 seat to point at, chosen the ``SEAT_*`` way ``how``, among the other seats still in the
    match (bit mask ``alive``)."""
    u = seat_uniform(keys, seat_ctr, s, seat)
    excl = (((1 << n) - 1) & ~alive) | (1 << seat)
    if how == SEAT_RANDOM:
        return nth_allowed(excl, int(u * (n - count_seats(excl, n))), n)
    return extreme_cards(s, excl, u, hsize, n, how == SEAT_MOST)
