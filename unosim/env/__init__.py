"""Learning environments on the lockstep engine (the ``rl`` extra: ``gymnasium``, ``pettingzoo``).

`unosim.env.encoding` defines the one action space of every decision of both games and
the fixed-size observation vector (documented there, block by block); `unosim.env.seats`
plays one game on the engine with some seats answered action by action; `unosim.env.single`
is the Gymnasium environment of one learning seat ([`UnoEnv`][unosim.env.UnoEnv]), `unosim.env.multi` the
PettingZoo AEC environment of every seat ([`UnoAECEnv`][unosim.env.UnoAECEnv]), `unosim.env.parallel` its
parallel form, the seats the engine waits for acting together ([`UnoParallelEnv`][unosim.env.UnoParallelEnv]), `unosim.env.vector` the
Gymnasium vector environment stepping N games in one lockstep batch ([`UnoVectorEnv`][unosim.env.UnoVectorEnv]).
`unosim.env.base` holds what the four share ([`SeatedEnv`][unosim.env.SeatedEnv]: checked arguments, seeds,
rewards, refusals), `unosim.env.kernels` the compiled encoder and answers every one of them
steps with, `unosim.env.playthrough` the text playthroughs of a round.

May import: [`unosim.game`][unosim.game], [`unosim.strategy`][unosim.strategy] and [`unosim.engine`][unosim.engine]. Importing
`unosim` imports nothing of this package.
"""

from .base import SeatedEnv
from .encoding import KIND_NAMES, VERSION, Spaces
from .multi import UnoAECEnv
from .parallel import UnoParallelEnv
from .policy import LinearPolicy, PolicyStrategy
from .seats import Actions, Outcome, SeatedGame, Step
from .single import DecisionSpace, IllegalAction, UnoEnv
from .vector import UnoVectorEnv

__all__ = [
    "KIND_NAMES", "VERSION", "Actions", "DecisionSpace", "IllegalAction", "LinearPolicy", "Outcome", "PolicyStrategy", "SeatedEnv",
    "SeatedGame", "Spaces", "Step", "UnoAECEnv", "UnoEnv", "UnoParallelEnv", "UnoVectorEnv",
]

# The modules of this package that other packages may import beside the face (__all__), and the
# names each lends them; () lends the module only, imported whole as a namespace.
# tests/test_architecture.py refuses any other import from outside the package.
PUBLIC_MODULES: dict[str, tuple[str, ...]] = {
    "unosim.env.encoding": ("WAIT",),
    "unosim.env.kernels": ("random_actions",),
}
