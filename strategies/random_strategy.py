"""``random``: uniform over what is allowed; optionally noisy, to exercise every rule path."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from unosim.game.cards import WILD_DRAW_FOUR
from unosim.strategy.base import DRAW, Strategy
from unosim.strategy.observation import Observation
from unosim.strategy.primitives import argmax_ties, sample_counts

__all__ = ["RandomStrategy"]


class RandomStrategy(Strategy):
    """Uniformly random playable physical card; random colour; random party choices.

    By default it never draws by choice while holding a playable card, always
    plays a playable drawn card, never challenges or bluffs. Party: points at a
    uniform other player (still in the match), links two distinct uniform players (itself allowed) among ``obs.link_choices``,
    adds a uniform able physical card to a mini pile, jumps in with probability
    1/2. House rules: stacks or takes uniformly among taking and each card type that may be stacked
    (H-1), swaps hands with a uniform other player (H-2). The rates below (all 0 by default) make it deliberately erratic, which
    the invariant tests use to reach every rule path.

    Parameters
    ----------
    draw_rate : float
        Probability of drawing although a card is playable (T-2).
    keep_rate : float
        Probability of keeping a playable drawn card (T-3).
    bluff_rate : float
        Probability of playing a held Wild Draw Four as a bluff when that is the only way to play it (W-2).
    challenge_rate : float
        Probability of challenging a Wild Draw Four (W-2).
    forget_uno_rate, catch_uno_rate : float
        See [`unosim.Strategy`][unosim.Strategy].
    """

    name = "random"
    compiled = "random"

    def compiled_covers(self) -> bool:
        """The transcription plays ``random`` with no deliberate draws, keeps, bluffs, challenges or forgotten UNOs."""
        rates = (self.draw_rate, self.keep_rate, self.bluff_rate, self.challenge_rate, self.forget_uno_rate)
        return all(rate == 0 for rate in rates)
    parameter_constraints = {key: (float, 0.0, 1.0) for key in ("draw_rate", "keep_rate", "bluff_rate", "challenge_rate")}

    def __init__(
        self,
        *,
        draw_rate: float = 0.0,
        keep_rate: float = 0.0,
        bluff_rate: float = 0.0,
        challenge_rate: float = 0.0,
        forget_uno_rate: float = 0.0,
        catch_uno_rate: float = 1.0,
    ) -> None:
        super().__init__(forget_uno_rate=forget_uno_rate, catch_uno_rate=catch_uno_rate)
        self.draw_rate = draw_rate
        self.keep_rate = keep_rate
        self.bluff_rate = bluff_rate
        self.challenge_rate = challenge_rate

    @property
    def plays_legal_drawn_card(self) -> bool:
        """With no keeping and no bluffing, `play_drawn` is the base class's."""
        return self.keep_rate == 0 and self.bluff_rate == 0

    @property
    def never_challenges(self) -> bool:
        """With no challenges, `challenge` is the base class's."""
        return self.challenge_rate == 0

    @property
    def forced_draw_uniforms(self) -> int:
        """`play` draws one uniform per row, one more for bluffs and one more for drawing by
        choice when their rates are on, and answers `DRAW` when nothing is playable."""
        return 1 + (self.bluff_rate > 0) + (self.draw_rate > 0)

    def play(self, obs: Observation) -> NDArray[np.integer]:
        cards = sample_counts(obs.hand, obs.legal, obs.random(), obs.n_legal)
        if self.bluff_rate > 0:
            bluff = obs.bluffable & (obs.random() < self.bluff_rate)
            cards = np.where(bluff, WILD_DRAW_FOUR, cards)
        if self.draw_rate > 0:
            cards = np.where(obs.random() < self.draw_rate, DRAW, cards)
        return cards

    def play_drawn(self, obs: Observation) -> NDArray[np.bool_]:
        play = super().play_drawn(obs)
        if self.bluff_rate > 0:
            play |= obs.bluffable & (obs.random() < self.bluff_rate)
        if self.keep_rate > 0:
            play &= obs.random() >= self.keep_rate
        return play

    def challenge(self, obs: Observation) -> NDArray[np.bool_]:
        if self.challenge_rate == 0:
            return super().challenge(obs)
        return obs.random() < self.challenge_rate

    def choose_colour(self, obs: Observation, cards: NDArray[np.integer]) -> NDArray[np.integer]:
        return (obs.random() * 4).astype(np.int8)

    def point_at(self, obs: Observation) -> NDArray[np.integer]:
        others = obs.alive.copy()  # only seats still in the match (E-4 elimination)
        others[np.arange(len(obs)), obs.seat] = False
        return argmax_ties(np.zeros(others.shape), obs.random(), others)

    def choose_link(self, obs: Observation) -> NDArray[np.integer]:
        u = obs.random(2)
        allowed = obs.link_choices.copy()
        first = argmax_ties(np.zeros(allowed.shape), u[:, 0], allowed)
        allowed[np.arange(len(obs)), first] = False
        second = argmax_ties(np.zeros(allowed.shape), u[:, 1], allowed)
        return np.stack([first, second], axis=1)

    def add_to_pile(self, obs: Observation) -> NDArray[np.integer]:
        return sample_counts(obs.hand, obs.legal, obs.random())

    def jump_in(self, obs: Observation) -> NDArray[np.floating]:
        return (obs.random() < 0.5).astype(np.float64)

    def stack(self, obs: Observation, options: NDArray[np.bool_]) -> NDArray[np.integer]:
        """H-1: uniformly among taking the penalty and each card type that may be stacked (taking first, then type order)."""
        k = options.sum(axis=1)
        i = (obs.random() * (k + 1)).astype(np.int64)
        order = np.cumsum(options, axis=1)  # the 1-based rank of each option
        pick = (options & (order == i[:, None])).argmax(axis=1)
        return np.where(i == 0, -1, pick)

    def swap_with(self, obs: Observation) -> NDArray[np.integer]:
        """H-2: a uniform other player still in the match (seat order)."""
        others = obs.alive.copy()
        others[np.arange(len(obs)), obs.seat] = False
        i = (obs.random() * others.sum(axis=1)).astype(np.int64)
        return (others & (np.cumsum(others, axis=1) == (i + 1)[:, None])).argmax(axis=1)
