"""Strategies that break the API, for the error tests (loaded as ``bad_strategies:Name``)."""

import numpy as np

from unosim.strategy.base import Strategy


class PlaysEverything(Strategy):
    """Always plays the first card it holds, legal or not."""

    def play(self, obs):
        return np.argmax(obs.hand > 0, axis=1)


class WrongShape(Strategy):
    """Returns one decision too many."""

    def play(self, obs):
        return np.full(len(obs) + 1, -1)


class BadColour(Strategy):
    """Names colour 7 for every wild."""

    def choose_colour(self, obs, cards):
        return np.full(len(obs), 7)


class RaisesOnGame70(Strategy):
    """A bug in a user's code: fails when asked about game 70."""

    def play(self, obs):
        return self._pick(obs)

    def _pick(self, obs):
        if (obs.game == 70).any():
            raise KeyError("no such card")
        return super().play(obs)


class CrashesPointing(Strategy):
    """Raises inside ``point_at`` (a Point Taken, party rules only)."""

    def point_at(self, obs):
        raise IndexError("no such seat")


class Unpicklable(Strategy):
    """Holds a lambda, which pickle cannot send to a worker."""

    def __init__(self, *, forget_uno_rate=0.0, catch_uno_rate=1.0):
        super().__init__(forget_uno_rate=forget_uno_rate, catch_uno_rate=catch_uno_rate)
        self.score = lambda hand: hand.sum(axis=1)


class HidesItsParameter(Strategy):
    """Stores its parameter under another name, so ``get_params()`` cannot describe it."""

    def __init__(self, *, depth=2):
        super().__init__()
        self._depth = depth


class SharedGenerator(Strategy):
    """Draws its randomness from one shared generator instead of ``obs.random()``."""

    def __init__(self, *, forget_uno_rate=0.0, catch_uno_rate=1.0):
        super().__init__(forget_uno_rate=forget_uno_rate, catch_uno_rate=catch_uno_rate)
        self.rng = np.random.default_rng()

    def choose_colour(self, obs, cards):
        return self.rng.integers(0, 4, len(obs))


class SwapsWithItself(Strategy):
    """Names its own seat as the player to swap hands with after a 7 (seven-zero rules only)."""

    def swap_with(self, obs):
        return obs.seat.copy()


class StacksAnything(Strategy):
    """Stacks a card type that may not be stacked on the penalty (stacking rules only)."""

    def stack(self, obs, options):
        return np.argmax((obs.hand > 0) & ~options, axis=1)
