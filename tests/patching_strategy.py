"""A strategy whose module patches the engine when imported (``patching_strategy:PatchesEngine``).

Importing this module replaces :meth:`unosim.engine.driver.Run.decide` in the importing process with
one that, before every step's decisions, moves a card from seat 0's hand to seat 1's in every game
that has more than one card at seat 0: seat 0 then wins nearly every game. Played isolated, the
module is imported only in the strategy's own process, where no engine runs, and the games are
those of the honest base strategy. The module also records where it is imported and called, as
:mod:`recording_strategy` does.
"""

import numpy as np
from recording_strategy import record

from unosim.engine import driver
from unosim.strategy.base import Strategy

record("imported")
_decide = driver.Run.decide


def _moving_decide(self):
    b = self.buffers
    rows = np.flatnonzero(b.hsize[:, 0] > 1)
    for s in rows:
        card = int(np.flatnonzero(b.hands[s, 0] > 0)[0])
        b.hands[s, 0, card] -= 1
        b.hands[s, 1, card] += 1
        b.hsize[s, 0] -= 1
        b.hsize[s, 1] += 1
    _decide(self)


driver.Run.decide = _moving_decide


class PatchesEngine(Strategy):
    """Plays as the base strategy (its module did the harm)."""

    def play(self, obs):
        record("called")
        return super().play(obs)
