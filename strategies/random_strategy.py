"""``random``: uniform over what is allowed, never challenges, never bluffs."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from unosim.observation import Observation
from unosim.primitives import argmax_ties, sample_counts
from unosim.strategy import Strategy


class RandomStrategy(Strategy):
    """Uniformly random playable physical card; random colour; random party choices.

    Never draws by choice while holding a playable card, always plays a
    playable drawn card, never challenges or bluffs. Party: points at a uniform
    other player, links two distinct uniform players (itself allowed), adds a
    uniform able physical card to a mini pile, jumps in with probability 1/2.
    """

    name = "random"

    def choose_colour(self, obs: Observation, cards: NDArray[np.integer]) -> NDArray[np.integer]:
        return (obs.random() * 4).astype(np.int8)

    def point_at(self, obs: Observation) -> NDArray[np.integer]:
        others = np.ones((len(obs), obs.players), bool)
        others[np.arange(len(obs)), obs.seat] = False
        return argmax_ties(np.zeros(others.shape), obs.random(), others)

    def choose_link(self, obs: Observation) -> NDArray[np.integer]:
        u = obs.random(2)
        first = (u[:, 0] * obs.players).astype(np.int64)
        second = (u[:, 1] * (obs.players - 1)).astype(np.int64)
        second += second >= first
        return np.stack([first, second], axis=1)

    def add_to_pile(self, obs: Observation) -> NDArray[np.integer]:
        return sample_counts(obs.hand, obs.legal, obs.random())

    def jump_in(self, obs: Observation) -> NDArray[np.floating]:
        return (obs.random() < 0.5).astype(np.float64)
