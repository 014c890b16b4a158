"""``diversity``: keep the hand able to match as many colours and faces as possible."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from unosim.cards import CARD_COLOUR, CARD_FACE, FACES_PER_COLOUR, N_COLOURED, N_COLOURS, N_TYPES
from unosim.observation import Observation
from unosim.primitives import colour_counts, sample_best
from unosim.strategy import Strategy

from .scoring import POINTS

_COLOUR = CARD_COLOUR[:N_COLOURED].astype(np.intp)
_FACE = CARD_FACE[:N_COLOURED].astype(np.intp)


def coverage_scores(hand: NDArray) -> NDArray[np.int64]:
    """``[n, N_TYPES]`` score of giving up one card of each type: fewest colours and faces lost, then most points.

    Losing a card uncovers its colour when it is the last card of that colour
    held, and its face when it is the last card of that face; each uncovered
    colour or face costs 100, more than any card's points. Wilds (which match
    everything) score below every coloured card.
    """
    n = hand.shape[0]
    coloured = hand[:, :N_COLOURED]
    last = coloured == 1
    per_colour = colour_counts(hand)
    per_face = coloured.reshape(n, N_COLOURS, FACES_PER_COLOUR).sum(axis=1)
    lost = (last & (per_colour[:, _COLOUR] == 1)).astype(np.int64)
    lost += last & (per_face[:, _FACE] == 1)
    score = np.empty((n, N_TYPES), np.int64)
    np.subtract(POINTS[:N_COLOURED], 100 * lost, out=score[:, :N_COLOURED])
    score[:, N_COLOURED:] = POINTS[N_COLOURED:] - 1000
    return score


class DiversityStrategy(Strategy):
    """Keep the hand able to match as much as possible.

    Idea: a hand that covers many colours and many faces can follow almost any
    top card, so it rarely has to draw. Every card given up is chosen to keep
    that coverage.

    Decisions
    ---------
    play
        The legal card whose removal leaves the most colours and faces covered
        (a card is "costly" only when it is the last of its colour or of its
        face); among equally good cards the one with most points. Wilds cover
        everything, so they are played only when no coloured card is legal.
        Never draws while holding a legal card, never bluffs.
    play_drawn
        Plays a legal drawn card (the base default).
    choose_colour
        The colour held most among the cards left (ties at random): the colour
        the hand can follow longest.
    add_to_pile
        Same rule as ``play`` over the cards that may be added (P-5); takes
        the pile only when nothing may be added.
    challenge, point_at, choose_link, jump_in, forget_uno, catch_uno
        The base defaults: never challenges; points at and links the other
        players with fewest cards; always jumps in (weight 1); UNO at the
        base rates.

    Parameters
    ----------
    forget_uno_rate, catch_uno_rate : float
        See :class:`unosim.Strategy`.
    """

    name = "diversity"

    def play(self, obs: Observation) -> NDArray[np.integer]:
        return sample_best(obs.hand, obs.legal, coverage_scores(obs.hand), obs.random())

    def add_to_pile(self, obs: Observation) -> NDArray[np.integer]:
        return sample_best(obs.hand, obs.legal, coverage_scores(obs.hand), obs.random())
