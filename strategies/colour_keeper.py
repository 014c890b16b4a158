"""``colour-keeper``: stay in the colour held most."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from unosim.game.cards import IS_WILD
from unosim.strategy.base import Strategy, stack_preferred
from unosim.strategy.observation import Observation
from unosim.strategy.primitives import argmax_ties, colour_counts, sample_best_of

from .scoring import POINTS

__all__ = ["COLOURED_FIRST", "colour_first_pick", "ColourKeeperStrategy"]

COLOURED_FIRST = np.where(IS_WILD, POINTS - 100_000, POINTS)
"""Points, every wild below every coloured card (whatever its colour bonus)."""


def colour_first_pick(obs: Observation, mask: NDArray[np.bool_]) -> NDArray[np.int16]:
    """The masked coloured card whose colour is held most, then of most points; wilds last."""
    return sample_best_of(obs.hand, mask, COLOURED_FIRST, None, obs.random(), 100 * colour_counts(obs.hand))


class ColourKeeperStrategy(Strategy):
    """Play the colour held most, and name the colour held most.

    Idea: steer the game into the colour of which the hand holds most cards,
    so that the following turns find a playable card without drawing.

    Decisions
    ---------
    play
        The legal coloured card whose colour is held most (cards counted
        before playing), then the one with most points; a wild only when no
        coloured card is legal. Never draws while holding a legal card, never
        bluffs.
    choose_colour
        The colour held most among the cards left, ties at random.
    add_to_pile
        The same rule over the cards that may be added (P-5): the mini pile's
        colour is fixed, so it sheds the coloured card with most points and
        keeps its wilds.
    stack
        Always stacks when it can (H-1): the Draw Two of the colour held most, the Wild Draw Four
        only when no Draw Two may be stacked.
    play_drawn, challenge, point_at, choose_link, jump_in, forget_uno, catch_uno
        The base defaults: plays a legal drawn card; never challenges; points
        at and links the other players with fewest cards; always jumps in;
        UNO at the base rates.

    Parameters
    ----------
    forget_uno_rate, catch_uno_rate : float
        See [`unosim.Strategy`][unosim.Strategy].
    """

    name = "colour-keeper"
    compiled = "rules"
    restated_by = "colour-keeper"  # strategies/rules/colour-keeper.toml, at the default parameters

    def play(self, obs: Observation) -> NDArray[np.integer]:
        return colour_first_pick(obs, obs.legal)

    def choose_colour(self, obs: Observation, cards: NDArray[np.integer]) -> NDArray[np.integer]:
        return argmax_ties(colour_counts(obs.hand), obs.random())

    def add_to_pile(self, obs: Observation) -> NDArray[np.integer]:
        return colour_first_pick(obs, obs.legal)

    def stack(self, obs: Observation, options: NDArray[np.bool_]) -> NDArray[np.integer]:
        return colour_first_pick(obs, stack_preferred(options))
