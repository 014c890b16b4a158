"""The two compilation modes of the kernels.

Kernels run without numba's reference-counting runtime (``_nrt=False``):
passing arrays between compiled functions then costs nothing, where with it
every call paid atomic reference-count updates per array argument (measured:
30–50 ns per helper call, most of the step time). The price: kernels must
not allocate arrays; every buffer comes from Python.

Which mode a rule gets: the per-turn rules (playing a card, drawing, passing
the turn) are inlined — a non-inlined ``play_card`` cost 40 % of the games per
second. Rules that run once per game or on rarer events (the deal, the
record, the end of a match round, a challenge, votes, a catch, starting a mini
pile) are separate kernels: inlining everything into one function made the
cold compile take minutes, as LLVM's time grows faster than the function.
"""

from numba import njit

__all__ = ["kernel", "rule"]

kernel = njit(cache=True, _nrt=False, error_model="numpy")  # type: ignore[call-overload]  # _nrt: private option
"""A compiled function called from Python or from other kernels."""

rule = njit(inline="always", _nrt=False, error_model="numpy")  # type: ignore[call-overload]
"""A small rule function inlined at its call site."""
