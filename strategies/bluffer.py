"""``bluffer``: bluff Wild Draw Fours at the leaders, challenge when a bluff is likely."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from unosim.game.cards import CARD_COLOUR, N_COLOURS, WILD_DRAW_FOUR, load_deck
from unosim.strategy.base import Strategy, stack_preferred
from unosim.strategy.observation import Observation
from unosim.strategy.primitives import colour_counts, next_seats, sample_best

from .scoring import WILDS_LAST

__all__ = ["COLOUR_SHARE", "DECK_SIZE", "BlufferStrategy", "colour_unseen_shares", "decks_in_view"]

_CLASSIC = np.asarray(load_deck("classic").counts, np.int64)
DECK_SIZE = int(_CLASSIC.sum())
"""Cards in one classic deck (108); the party deck is about two of them with the same colour shares."""
COLOUR_SHARE = np.array([_CLASSIC[CARD_COLOUR == c].sum() for c in range(N_COLOURS)]) / DECK_SIZE
"""Share of each colour in the deck (25/108 each)."""


def decks_in_view(obs: Observation) -> NDArray[np.int64]:
    """``[n]`` whole classic decks in play, as many as the cards in hands and on the discard pile need."""
    in_view = obs.hand_sizes.sum(axis=1) + obs.discard.sum(axis=1, dtype=np.int64)
    return np.maximum(1, -(-in_view // DECK_SIZE))


def colour_unseen_shares(obs: Observation) -> NDArray[np.float64]:
    """``[n, 4]`` estimated share of each colour among the cards this player has not seen.

    Seen cards are the own hand and the discard pile (``obs.discard``). The
    deck is taken to be whole classic decks with the shipped colour shares,
    as many as the cards in hands and on the discard pile need.
    """
    seen = colour_counts(obs.hand) + colour_counts(obs.discard)
    decks = decks_in_view(obs)
    unseen_total = np.maximum(decks * DECK_SIZE - obs.hand_size - obs.discard.sum(axis=1, dtype=np.int64), 1)
    unseen = np.maximum(decks[:, None] * COLOUR_SHARE * DECK_SIZE - seen, 0)
    return np.minimum(unseen / unseen_total[:, None], 1.0)


class BlufferStrategy(Strategy):
    """Bluff the Wild Draw Four against players about to win; challenge when a bluff is likely.

    Idea: a Wild Draw Four stops a player close to going out, even played
    illegally (a bluff only costs when challenged); and a Wild Draw Four from
    a player with many cards was probably a bluff, since such a hand rarely
    lacks a card of the active colour.

    Decisions
    ---------
    play
        When the next player holds at most ``bluff_at`` cards and a Wild Draw
        Four is held: plays it, legally or as a bluff (W-2). Otherwise the
        legal coloured card with most points, wilds only when nothing
        coloured is legal.
    play_drawn
        A legal drawn card is played; a drawn Wild Draw Four that would be a
        bluff is played when the next player holds at most ``bluff_at`` cards.
    challenge
        Estimates the chance that the Wild Draw Four was a bluff: the player
        held ``h`` other cards, each of the previous active colour with
        probability ``q`` (that colour's share among the cards unseen by this
        player, from its hand and ``obs.discard``; averaged over the four
        colours, as the previous colour is not observed), so they could have
        bluffed with probability ``c = 1 - (1 - q)^h``. A player who could
        bluff does so at rate ``suspicion``, so the chance of a bluff is
        ``c·suspicion / (c·suspicion + 1 - c)``. Challenges when that exceeds
        ``challenge_above`` (a lost challenge costs 6 cards instead of 4, a
        won one costs none: break-even at 1/3).
    choose_colour
        The colour held most among the cards left (base default).
    add_to_pile
        The coloured card with most points that may be added; wilds last (P-5).
    point_at, choose_link, jump_in, forget_uno, catch_uno
        The base defaults: points at and links the other players with fewest
        cards; always jumps in; UNO at the base rates.

    Parameters
    ----------
    bluff_at : int
        Next player's hand size at or below which a Wild Draw Four is played,
        as a bluff if need be (0 to 108; 0 never bluffs; default 2).
    suspicion : float
        Assumed rate at which an opponent able to bluff does so (0 to 1; default 0.25).
    challenge_above : float
        Challenge when the estimated chance of a bluff exceeds this (0 to 1; default 0.35).
    forget_uno_rate, catch_uno_rate : float
        See [`unosim.Strategy`][unosim.Strategy].
    """

    name = "bluffer"
    parameter_constraints = {
        "bluff_at": (int, 0, 108),
        "suspicion": (float, 0.0, 1.0),
        "challenge_above": (float, 0.0, 1.0),
    }

    def __init__(
        self,
        *,
        bluff_at: int = 2,
        suspicion: float = 0.25,
        challenge_above: float = 0.35,
        forget_uno_rate: float = 0.0,
        catch_uno_rate: float = 1.0,
    ) -> None:
        super().__init__(forget_uno_rate=forget_uno_rate, catch_uno_rate=catch_uno_rate)
        self.bluff_at = bluff_at
        self.suspicion = suspicion
        self.challenge_above = challenge_above

    def next_is_close(self, obs: Observation) -> NDArray[np.bool_]:
        """Rows whose next player holds at most ``bluff_at`` cards."""
        after = next_seats(obs.seat, obs.direction, obs.alive)
        return obs.hand_sizes[np.arange(len(obs)), after] <= self.bluff_at

    def play(self, obs: Observation) -> NDArray[np.integer]:
        cards = sample_best(obs.hand, obs.legal, WILDS_LAST, obs.random())
        able = obs.legal[:, WILD_DRAW_FOUR] | obs.bluffable
        attack = able & (obs.hand[:, WILD_DRAW_FOUR] > 0)
        if attack.any():
            attack &= self.next_is_close(obs)
            cards = np.where(attack, WILD_DRAW_FOUR, cards)
        return cards

    def stack(self, obs: Observation, options: NDArray[np.bool_]) -> NDArray[np.integer]:
        """H-1: always stacks, a Draw Two before the Wild Draw Four it keeps for attacks (wilds last, then points)."""
        return sample_best(obs.hand, stack_preferred(options), WILDS_LAST, obs.random())

    def play_drawn(self, obs: Observation) -> NDArray[np.bool_]:
        play = obs.legal[np.arange(len(obs)), obs.drawn]
        if obs.bluffable.any():
            play = play | (obs.bluffable & self.next_is_close(obs))
        return play

    def bluff_chance(self, obs: Observation) -> NDArray[np.float64]:
        """Estimated chance that the Wild Draw Four of ``obs.target`` was a bluff (see the class doc)."""
        held = obs.hand_sizes[np.arange(len(obs)), obs.target].astype(np.float64)
        q = colour_unseen_shares(obs)
        could = 1.0 - ((1.0 - q) ** held[:, None]).mean(axis=1)
        bluffed = could * self.suspicion
        return bluffed / np.maximum(bluffed + 1.0 - could, 1e-12)

    def challenge(self, obs: Observation) -> NDArray[np.bool_]:
        return self.bluff_chance(obs) > self.challenge_above
