"""``greedy``: shed the most points first."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from unosim.strategy.base import Strategy
from unosim.strategy.observation import Observation
from unosim.strategy.primitives import CARD_SCORE_POINTS, sample_best

__all__ = ["GreedyStrategy"]


class GreedyStrategy(Strategy):
    """Highest-point playable card (ties in proportion to copies held).

    Colour: the colour held most, ties at random. Party decisions: the base
    defaults (point at the player with fewest cards, link the two others with
    fewest cards, add the highest-point card to a mini pile, always jump in).
    House rules: the base defaults (always stack, a Draw Two before a Wild
    Draw Four, H-1; swap hands with the player holding fewest cards, H-2).
    """

    name = "greedy"
    compiled = "greedy"

    def compiled_covers(self) -> bool:
        """The transcription never forgets UNO."""
        return self.forget_uno_rate == 0

    @property
    def forced_draw_uniforms(self) -> int:
        """`play` draws one uniform per row (`sample_best`) and answers
        `DRAW` when nothing is playable."""
        return 1

    def play(self, obs: Observation) -> NDArray[np.integer]:
        return sample_best(obs.hand, obs.legal, CARD_SCORE_POINTS, obs.random())
