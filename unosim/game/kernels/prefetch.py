"""Software prefetch of the next slots' state, for the lockstep path.

When strategies decide in Python, one call of ``advance``
moves every slot of the batch by one decision, and between two calls the strategies
stream through the observation arrays. A batch's state (hands, piles, slot fields: about
1 KB a slot at 4 players, 4 MB for 4,096 slots) no longer fits the 1 MB L2 cache, so each
slot's first touches of its hand and piles waited on memory (``perf``: the two hottest
instructions of the Python path's kernel were ``hands[s, seat, card] -= 1`` and
``piles[s, DISC, top] += 1`` in ``turn.play_card``). ``prefetch_slot`` asks for slot
``s``'s rows a few slots ahead of use, with its row of the strategy of each seat (the first
load of a turn decision). It is inlined at its call site (``rule``): as a separately compiled
``leaf`` it stayed a call, whose unpacked array arguments cost more than the prefetches did.
``prefetch_row`` alone serves for the decision row a slot is about to read. A prefetch never
changes what is computed.
"""

from typing import Any

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from .jit import rule

__all__ = ["prefetch_row", "prefetch_slot"]

LINE = 64
"""Bytes of a cache line."""


@intrinsic
def prefetch_row(typingctx: object, arr: types.Array, i: types.Integer, offset: types.Integer) -> tuple[object, object]:
    """Prefetch (LLVM ``llvm.prefetch``: read, keep in every cache level) the cache line at byte
    ``offset`` of the row ``arr[i]`` of a C-contiguous array. No load, no fault: an address past the
    array is harmless, but callers stay within it."""
    def codegen(context: Any, builder: ir.IRBuilder, signature: Any, args: list[ir.Value]) -> ir.Value:
        array = context.make_array(signature.args[0])(context, builder, args[0])
        row = context.cast(builder, args[1], signature.args[1], types.intp)
        off = context.cast(builder, args[2], signature.args[2], types.intp)
        stride = cgutils.unpack_tuple(builder, array.strides)[0]
        at = builder.add(builder.ptrtoint(array.data, ir.IntType(64)), builder.add(builder.mul(row, stride), off))
        bytes_ptr = ir.IntType(8).as_pointer()
        fnty = ir.FunctionType(ir.VoidType(), [bytes_ptr, ir.IntType(32), ir.IntType(32), ir.IntType(32)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        i32 = ir.IntType(32)
        builder.call(fn, [builder.inttoptr(at, bytes_ptr), ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.void(arr, i, offset), codegen


@rule
def prefetch_slot(s, slot, hands, piles, seats):
    """Prefetch slot ``s``'s fields, hands and piles (every cache line of their rows), and its row
    of the per-seat array ``seats`` (the strategy of each seat)."""
    for off in range(0, slot.strides[0], LINE):
        prefetch_row(slot, s, off)
    for off in range(0, hands.strides[0], LINE):
        prefetch_row(hands, s, off)
    for off in range(0, piles.strides[0], LINE):
        prefetch_row(piles, s, off)
    prefetch_row(seats, s, 0)
