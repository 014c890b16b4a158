"""``diversity``: keep the hand able to match as many colours and faces as possible."""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from unosim.game.cards import CARD_COLOUR, CARD_FACE, FACES_PER_COLOUR, N_COLOURED, N_COLOURS
from unosim.strategy.base import Strategy, stack_preferred
from unosim.strategy.observation import Observation

from .scoring import POINTS

__all__ = ["coverage_pick", "coverage_score", "DiversityStrategy"]

_COLOUR = CARD_COLOUR.astype(np.int64)
_FACE = CARD_FACE.astype(np.int64)


@njit(cache=True, inline="always")
def coverage_score(t, held, per_colour, per_face, colour, face, points):
    """Score of giving up one card of type ``t``: 100 per colour or face it uncovers, plus its points."""
    if t >= N_COLOURED:
        return points[t] - 1000
    lost = 0
    if held == 1 and per_colour[colour[t]] == 1:
        lost += 1
    if held == 1 and per_face[face[t]] == 1:
        lost += 1
    return points[t] - 100 * lost


@njit(cache=True)
def _coverage_pick(hand, mask, colour, face, points, u):
    n, k = hand.shape
    out = np.full(n, -1, np.int16)
    per_colour = np.zeros(N_COLOURS, np.int64)
    per_face = np.zeros(FACES_PER_COLOUR, np.int64)
    for r in range(n):
        per_colour[:] = 0
        per_face[:] = 0
        for t in range(N_COLOURED):
            per_colour[colour[t]] += hand[r, t]
            per_face[face[t]] += hand[r, t]
        best = -1 << 60
        total = 0
        for t in range(k):
            if mask[r, t] and hand[r, t] > 0:
                v = coverage_score(t, hand[r, t], per_colour, per_face, colour, face, points)
                if v > best:
                    best = v
                    total = hand[r, t]
                elif v == best:
                    total += hand[r, t]
        if total == 0:
            continue
        x = int(u[r] * total)
        for t in range(k):
            if mask[r, t] and hand[r, t] > 0:
                if coverage_score(t, hand[r, t], per_colour, per_face, colour, face, points) == best:
                    x -= hand[r, t]
                    if x < 0:
                        out[r] = t
                        break
    return out


def coverage_pick(hand: NDArray, mask: NDArray[np.bool_], u: NDArray[np.float64]) -> NDArray[np.int16]:
    """Among masked cards held, one whose loss uncovers fewest colours and faces, then of most points.

    Losing a card uncovers its colour when it is the last card of that colour
    held, and its face when it is the last card of that face; each uncovered
    colour or face costs 100, more than any card's points. Wilds (which match
    everything) come after every coloured card. Ties in proportion to copies
    held; -1 where nothing is masked.
    """
    return _coverage_pick(hand, mask, _COLOUR, _FACE, POINTS, u)


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
    stack
        Always stacks when it can (H-1): the Draw Two whose loss keeps the most covered, the Wild
        Draw Four only when no Draw Two may be stacked.
    challenge, point_at, choose_link, jump_in, forget_uno, catch_uno
        The base defaults: never challenges; points at and links the other
        players with fewest cards; always jumps in (weight 1); UNO at the
        base rates.

    Parameters
    ----------
    forget_uno_rate, catch_uno_rate : float
        See [`unosim.Strategy`][unosim.Strategy].
    """

    name = "diversity"
    compiled = "rules"
    restated_by = "diversity"  # strategies/rules/diversity.toml, at the default parameters

    def play(self, obs: Observation) -> NDArray[np.integer]:
        return coverage_pick(obs.hand, obs.legal, obs.random())

    def add_to_pile(self, obs: Observation) -> NDArray[np.integer]:
        return coverage_pick(obs.hand, obs.legal, obs.random())

    def stack(self, obs: Observation, options: NDArray[np.bool_]) -> NDArray[np.integer]:
        return coverage_pick(obs.hand, stack_preferred(options), obs.random())
