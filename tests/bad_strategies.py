"""Strategies that break the API, for the error tests (loaded as ``bad_strategies:Name``)."""

import numpy as np

from unosim.strategy import Strategy


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
