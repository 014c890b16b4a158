"""``wild-saver``: hold wild cards back until the hand is nearly empty."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from unosim.game.cards import N_COLOURED
from unosim.strategy.base import Strategy, stack_preferred
from unosim.strategy.observation import Observation
from unosim.strategy.primitives import sample_best, sample_best_of

from .scoring import POINTS, WILDS_LAST

__all__ = ["WildSaverStrategy"]

_TABLES = np.stack([WILDS_LAST, POINTS])
"""Scores while saving wilds (row 0) and once at most ``k`` non-wild cards are left (row 1)."""


class WildSaverStrategy(Strategy):
    """Hold wilds: play one only when at most ``k`` non-wild cards remain or nothing else is playable.

    Idea: a wild always fits, so keeping it guarantees a play when the hand is
    small and going out is near; spending it early wastes that insurance.

    Decisions
    ---------
    play
        While more than ``k`` non-wild cards are held, the legal coloured card
        with most points; a wild only when no coloured card is legal. With at
        most ``k`` non-wild cards left, the legal card with most points, wilds
        included (a wild's 50 points are then shed first). Never draws while
        holding a legal card, never bluffs.
    play_drawn
        Plays a legal drawn card (the base default; it draws only when nothing
        at all was legal, so a drawn wild is then its only play).
    choose_colour
        The colour held most among the cards left (ties at random).
    add_to_pile
        The coloured card with most points that may be added (P-5); a wild
        only when it is the only card that may be added.
    challenge, point_at, choose_link, jump_in, forget_uno, catch_uno
        The base defaults: never challenges; points at and links the other
        players with fewest cards; always jumps in; UNO at the base rates.

    Parameters
    ----------
    k : int
        Non-wild cards at or below which wilds may be played freely (0 to 108; default 2).
    forget_uno_rate, catch_uno_rate : float
        See [`unosim.Strategy`][unosim.Strategy].
    """

    name = "wild-saver"
    compiled = "rules"
    restated_by = "wild-saver"  # strategies/rules/wild-saver.toml, at the default parameters
    parameter_constraints = {"k": (int, 0, 108)}

    def __init__(self, *, k: int = 2, forget_uno_rate: float = 0.0, catch_uno_rate: float = 1.0) -> None:
        super().__init__(forget_uno_rate=forget_uno_rate, catch_uno_rate=catch_uno_rate)
        self.k = k

    def play(self, obs: Observation) -> NDArray[np.integer]:
        non_wild = obs.hand[:, :N_COLOURED].sum(axis=1, dtype=np.int64)
        return sample_best_of(obs.hand, obs.legal, _TABLES, non_wild <= self.k, obs.random())

    def add_to_pile(self, obs: Observation) -> NDArray[np.integer]:
        return sample_best(obs.hand, obs.legal, WILDS_LAST, obs.random())

    def stack(self, obs: Observation, options: NDArray[np.bool_]) -> NDArray[np.integer]:
        """H-1: always stacks, a Draw Two before its Wild Draw Four (the play order over the stacking cards)."""
        non_wild = obs.hand[:, :N_COLOURED].sum(axis=1, dtype=np.int64)
        return sample_best_of(obs.hand, stack_preferred(options), _TABLES, non_wild <= self.k, obs.random())
