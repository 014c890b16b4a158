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
cold compile take minutes.

Most of a cold compile was numba's own front end, not LLVM (measured with
numba's event API: 1036 s for ``advance`` on a loaded 2-core machine, of which
80 s in LLVM, and 5 GB of memory): numba inlines ``inline="always"`` functions
by copying their IR into the caller, again at every call site of every copy,
and its passes (inlining, SSA reconstruction, typing) grow faster than the
function. The small helpers called at many sites (the trace log, seat
arithmetic, the random streams) are therefore ``leaf`` functions: numba
compiles each once per signature and LLVM inlines them (they are far below its
inlining threshold), so the machine code is the same. So are the compiled
policies' rare decisions (a colour for a wild, a link pair, a vote, a mini-pile
addition): called at a few sites each, a call costs nothing there.
"""

import numba
from numba import njit, types
from numba.core.registry import CPUDispatcher


class OneVersionPerType(CPUDispatcher):
    """A numba dispatcher that compiles one version per argument *types*.

    Called from compiled code with constants (``log(..., EV_PLAY, seat, -1, 0, 0)``), a
    plain dispatcher compiles a new version for every combination of constant values
    (numba types them as literals): 54 versions of ``log``, 12 of ``give``. Here the
    constants are typed as their plain integer types, and LLVM still sees them once the
    call is inlined.
    """

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(map(types.unliteral, args)), {k: types.unliteral(v) for k, v in kws.items()})


def _compiled(*, cache: bool):
    def wrap(func):
        if numba.config.DISABLE_JIT:
            return func
        dispatcher = OneVersionPerType(
            py_func=func, locals={}, targetoptions={"nopython": True, "boundscheck": None, "_nrt": False, "error_model": "numpy"}
        )
        if cache:
            dispatcher.enable_caching()
        return dispatcher

    return wrap


kernel = _compiled(cache=True)
"""A compiled function called from Python or from other kernels."""

rule = njit(inline="always", _nrt=False, error_model="numpy")
"""A rule function inlined at its call site by numba."""

leaf = _compiled(cache=False)
"""A small helper called at many sites: compiled once per signature, inlined by LLVM."""
