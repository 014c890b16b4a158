"""The compilation modes of the kernels, and why each function has the one it has.

Kernels run without numba's reference-counting runtime (``_nrt=False``):
passing arrays between compiled functions then costs nothing, where with it
every call pays atomic reference-count updates per array argument, more than
the work of most small helpers. The price: kernels must not allocate arrays;
every buffer comes from Python.

Four modes, each a trade between the games per second and the cold compile
(measure both with ``unosim bench`` and ``experiments/cold_compile.py``; the
figures are in ``docs/performance.md``):

- ``rule``: inlined at its call site in numba's IR. The per-turn rules
  (playing a card, drawing, passing the turn, the compiled decisions) need
  it: a call per card played would be a large share of a turn's work. But numba's
  IR inliner costs about a second per inlined call in a function the size of
  ``advance`` (its time grows with the caller), so
  a ``rule`` should be inlined at few sites.
- ``leaf``: a small function compiled once on its own and cached on disk;
  LLVM inlines it at its call sites (the random numbers, card legality, seat
  arithmetic). Inlined as ``rule`` at their many call sites, they would multiply
  the cold compile's time and memory. A
  cached function keeps its LLVM IR for linking, so one loaded from the cache
  is inlined exactly as one just compiled: the helper process of a cold
  compile (``unosim.engine.kernel_cache``) compiles the leaves and kernels while
  the compiling process is busy inlining the ``rule`` functions, and that
  process loads them, so a cold compile uses two cores.
- ``leaf_for``: a leaf with a fixed signature, for leaves called with many
  different constants (the trace ``log``).
- ``kernel``: a function called from Python, or a rule that runs once per
  game or on rarer events (the deal, the record, the end of a match round, a
  challenge, votes, a catch, a forced draw); cached on disk.

numba compiles a called function once per argument *type*, and a constant
argument has its own type (``Literal[int](2)``): a ``leaf`` or ``kernel``
called with constants would be compiled once per constant value. Call sites
therefore pass constants as ``int64(2)``. A value read from an ``int32`` array
(a seat in ``slot``, an entry of ``cfg``) is an ``int32``: the call sites of the
drawing kernels (``give``, ``echo``, ``forced_draw``) pass seats and counts as
``int64`` too, one compiled copy each instead of three or four, each of which
would lengthen the cold compile (``experiments/compile_profile.py`` shows them).

The same rule gives the house rules a copy of their own: ``advance`` and the
functions with house-rule code take a ``house`` argument, ``layout.HOUSE_OFF``
(None) when every house rule is off and ``layout.HOUSE_ON`` (1) otherwise, chosen
once per run by ``unosim.game.encoding.copy_flags``. numba prunes a branch on
``house is not None`` in the copy compiled for None, so the official games neither
compile the house rules' kernels nor carry their code. A ``programs`` argument
(``unosim.game.encoding.copy_flags``) does the same for the rule strategies'
interpreter (``rule_policy``): a line-up with no rule strategy compiles without it.
numba prunes such a branch before it inlines the ``rule`` functions, but only in the
function being compiled: a branch inside an inlined ``rule`` is pruned after its callees'
code was copied in. The interpreter's call therefore sits in ``advance`` itself, under
``programs is not None`` (figures in ``docs/performance.md``).
"""

from typing import Any

from numba import njit

__all__ = ["kernel", "leaf", "leaf_for", "rule"]

kernel = njit(cache=True, _nrt=False, error_model="numpy")  # type: ignore[call-overload]  # _nrt: private option
"""A compiled function called from Python, or a rare rule compiled on its own; cached on disk."""

rule = njit(inline="always", _nrt=False, error_model="numpy")  # type: ignore[call-overload]
"""A per-turn rule inlined at its call site (numba IR)."""

leaf = kernel
"""A small function compiled on its own and cached, inlined by LLVM at its call sites: the options
of ``kernel`` (the helper of a cold compile needs both cached), named for where it is called from."""


def leaf_for(signature: str) -> Any:
    """A leaf compiled for ``signature`` only (at import, then cached): calls with constant
    arguments convert to it instead of compiling one copy per constant."""
    return njit(signature, cache=True, _nrt=False, error_model="numpy")  # type: ignore[call-overload]
