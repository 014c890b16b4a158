"""The two compilation modes of the kernels.

Kernels run without numba's reference-counting runtime (``_nrt=False``):
passing arrays between compiled functions then costs nothing, where with it
every call paid atomic reference-count updates per array argument (measured:
30–50 ns per helper call, most of the step time). The price: kernels must
not allocate arrays; every buffer comes from Python.
"""

from numba import njit

kernel = njit(cache=True, _nrt=False, error_model="numpy")
"""A compiled function called from Python or from other kernels."""

rule = njit(inline="always", _nrt=False, error_model="numpy")
"""A small rule function inlined at its call site."""
