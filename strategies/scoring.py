"""Per-card-type score tables and helpers shared by the built-in strategies.

A score table gives one integer per card type; `unosim.strategy.primitives.sample_best`
then picks a legal card of highest score (ties in proportion to copies held).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from unosim.game.cards import CARD_KIND, CARD_POINTS, IS_WILD, KIND_NAMES
from unosim.strategy.observation import Observation
from unosim.strategy.primitives import argmax_ties

__all__ = ["POINTS", "WILDS_LAST", "fewest_cards_others", "kind_order_scores"]

POINTS = CARD_POINTS.astype(np.int64)
"""Card points (a number its face value, a coloured action 20, a wild 50)."""

WILDS_LAST = np.where(IS_WILD, POINTS - 1000, POINTS)
"""Highest points first, every wild after every coloured card: keeps wilds for when nothing else fits."""


def kind_order_scores(order: tuple[str, ...] | list[str], high: int = 1000) -> NDArray[np.int64]:
    """Scores ranking card kinds in ``order`` (first is best; kinds not listed come last), points within a kind."""
    rank = np.full(len(KIND_NAMES), len(order), np.int64)
    rank[[KIND_NAMES.index(k) for k in order]] = np.arange(len(order))
    return (len(KIND_NAMES) - rank[CARD_KIND]) * high + POINTS


def fewest_cards_others(obs: Observation, allowed: NDArray[np.bool_], u: NDArray[np.float64]) -> NDArray[np.int16]:
    """Among ``allowed`` seats other than the actor, the one with fewest cards (ties at random)."""
    others = allowed.copy()
    others[np.arange(len(obs)), obs.seat] = False
    return argmax_ties(-obs.hand_sizes.astype(np.float64), u, others)
