"""``ranking``: play card kinds in a configurable order of preference."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from unosim.game.cards import KIND_NAMES
from unosim.strategy.base import Strategy, stack_preferred
from unosim.strategy.observation import Observation
from unosim.strategy.parameters import DistinctNames
from unosim.strategy.primitives import sample_best

from .scoring import kind_order_scores

__all__ = ["DEFAULT_ORDER", "RankingStrategy"]

DEFAULT_ORDER = (
    "draw_two",
    "skip",
    "reverse",
    "point_taken",
    "number",
    "wild_pile_up",
    "wild_drawn_together",
    "wild",
    "wild_draw_four",
)
"""Action cards first, numbers next, wilds last (the Wild Draw Four the very last)."""


class RankingStrategy(Strategy):
    """Play the legal card whose kind comes first in a fixed order.

    Idea: many players follow a simple priority list ("always get rid of
    Draw Twos first, keep the wilds"); this strategy makes that list a
    parameter so that orders can be compared in experiments.

    Decisions
    ---------
    play
        The legal card of the kind earliest in ``order``; kinds not listed
        come after every listed kind; within a kind the card with most points
        (ties in proportion to copies held). Never draws while holding a
        legal card, never bluffs.
    add_to_pile
        The same order over the cards that may be added (P-5).
    choose_colour
        The colour held most among the cards left (ties at random).
    play_drawn, challenge, point_at, choose_link, jump_in, forget_uno, catch_uno
        The base defaults: plays a legal drawn card; never challenges; points
        at and links the other players with fewest cards; always jumps in;
        UNO at the base rates.

    Parameters
    ----------
    order : tuple of str
        Card kinds, best first, each at most once, from ``number``, ``skip``,
        ``reverse``, ``draw_two``, ``point_taken``, ``wild``,
        ``wild_draw_four``, ``wild_pile_up``, ``wild_drawn_together``.
        Default `DEFAULT_ORDER`.
    forget_uno_rate, catch_uno_rate : float
        See [`unosim.Strategy`][unosim.Strategy].
    """

    name = "ranking"
    compiled = "rules"
    restated_by = "ranking"  # strategies/rules/ranking.toml, at the default parameters
    parameter_constraints = {"order": DistinctNames(KIND_NAMES)}

    def __init__(
        self, *, order: tuple[str, ...] = DEFAULT_ORDER, forget_uno_rate: float = 0.0, catch_uno_rate: float = 1.0
    ) -> None:
        super().__init__(forget_uno_rate=forget_uno_rate, catch_uno_rate=catch_uno_rate)
        self.order = order

    def play(self, obs: Observation) -> NDArray[np.integer]:
        return sample_best(obs.hand, obs.legal, kind_order_scores(self.order), obs.random())

    def add_to_pile(self, obs: Observation) -> NDArray[np.integer]:
        return sample_best(obs.hand, obs.legal, kind_order_scores(self.order), obs.random())

    def stack(self, obs: Observation, options: NDArray[np.bool_]) -> NDArray[np.integer]:
        """H-1: always stacks, by the kind order among the Draw Twos (a Wild Draw Four only when no Draw Two will do)."""
        return sample_best(obs.hand, stack_preferred(options), kind_order_scores(self.order), obs.random())
