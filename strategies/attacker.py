"""``attacker``: spend action cards on the players closest to winning."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from unosim.game.cards import CARD_KIND, IS_WILD, KIND_NAMES
from unosim.strategy.base import Strategy, stack_preferred
from unosim.strategy.observation import Observation
from unosim.strategy.primitives import next_seats, sample_best, sample_best_of

from .scoring import POINTS, fewest_cards_others

__all__ = ["ATTACK", "CALM", "AttackerStrategy"]

_KIND = {name: CARD_KIND == i for i, name in enumerate(KIND_NAMES)}
_ATTACK_BONUS = {
    "wild_draw_four": 6000,
    "draw_two": 5000,
    "skip": 4000,
    "reverse": 4000,
    "point_taken": 3000,
    "wild_pile_up": 2000,
    "wild_drawn_together": 1000,
}
ATTACK = POINTS - np.where(IS_WILD, 1000, 0) + sum(np.where(_KIND[k], bonus, 0) for k, bonus in _ATTACK_BONUS.items())
"""Scores when the next player is close to winning: the card that hurts them most first."""
CALM = POINTS + np.where(_KIND["number"], 1000, 0) - np.where(IS_WILD, 1000, 0) - np.where(_KIND["wild_draw_four"], 1, 0)
"""Scores otherwise: numbers first (most points first), then coloured actions, wilds last, the Wild Draw Four the very last."""
_TABLES = np.stack([CALM, ATTACK])


class AttackerStrategy(Strategy):
    """Keep action cards for the players about to win, and aim every attack at them.

    Idea: an action card does most good against a player close to going out;
    spent earlier it is wasted. So numbers are played while nobody threatens,
    and the attacks are kept for the leaders.

    Decisions
    ---------
    play
        When the next player (in the current direction, still in the match)
        holds at most ``threat`` cards: the card that hurts them most among
        the legal ones — Wild Draw Four, Draw Two, Skip or Reverse, Point
        Taken, Wild Pile Up, Wild Drawn Together, then numbers by points.
        Otherwise numbers first (most points first), then coloured action
        cards, wilds last and the Wild Draw Four the very last. Never draws
        while holding a legal card, never bluffs.
    point_at
        The other player (still in the match) with fewest cards, ties at
        random (A-4).
    choose_link
        The two other players with fewest cards, so that the leaders draw for
        each other (P-6); itself too only when fewer than two others may be
        linked.
    add_to_pile
        Never refuses while able, so the mini pile travels on towards the
        leaders; adds numbers first and keeps its action cards and wilds for
        attacks (the CALM order above) (P-5).
    choose_colour
        The colour held most among the cards left (base default).
    play_drawn, challenge, jump_in, forget_uno, catch_uno
        The base defaults: plays a legal drawn card; never challenges; always
        jumps in; catches every forgotten UNO call at ``catch_uno_rate``.

    Parameters
    ----------
    threat : int
        Hand size at or below which the next player is attacked (1 to 108; default 2).
    forget_uno_rate, catch_uno_rate : float
        See [`unosim.Strategy`][unosim.Strategy].
    """

    name = "attacker"
    compiled = "rules"
    restated_by = "attacker"  # strategies/rules/attacker.toml, at the default parameters
    parameter_constraints = {"threat": (int, 1, 108)}

    def __init__(self, *, threat: int = 2, forget_uno_rate: float = 0.0, catch_uno_rate: float = 1.0) -> None:
        super().__init__(forget_uno_rate=forget_uno_rate, catch_uno_rate=catch_uno_rate)
        self.threat = threat

    def threatened(self, obs: Observation) -> NDArray[np.bool_]:
        """Rows whose next player holds at most ``threat`` cards."""
        after = next_seats(obs.seat, obs.direction, obs.alive)
        return obs.hand_sizes[np.arange(len(obs)), after] <= self.threat

    def play(self, obs: Observation) -> NDArray[np.integer]:
        return sample_best_of(obs.hand, obs.legal, _TABLES, self.threatened(obs).astype(np.intp), obs.random())

    def point_at(self, obs: Observation) -> NDArray[np.integer]:
        return fewest_cards_others(obs, obs.alive, obs.random())

    def stack(self, obs: Observation, options: NDArray[np.bool_]) -> NDArray[np.integer]:
        """H-1: always passes the penalty on, a Draw Two before its Wild Draw Four (the play order over the stacking cards)."""
        return sample_best_of(obs.hand, stack_preferred(options), _TABLES, self.threatened(obs).astype(np.intp), obs.random())

    def choose_link(self, obs: Observation) -> NDArray[np.integer]:
        n = len(obs)
        allowed = obs.link_choices
        few = allowed.sum(axis=1) - allowed[np.arange(n), obs.seat] < 2
        u = obs.random(2)
        first = fewest_cards_others(obs, allowed, u[:, 0])
        rest = allowed.copy()
        rest[np.arange(n), first] = False
        second = fewest_cards_others(obs, rest, u[:, 1])
        if few.any():  # fewer than two others: link itself with the one other
            second = np.where(few, obs.seat, second)
        return np.stack([first, second], axis=1)

    def add_to_pile(self, obs: Observation) -> NDArray[np.integer]:
        return sample_best(obs.hand, obs.legal, CALM, obs.random())
