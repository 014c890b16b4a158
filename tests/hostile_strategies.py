"""Strategies that stop the run or answer out of range, for the failure tests (``hostile_strategies:Name``)."""

import os
import signal
import sys

import numpy as np

from unosim.strategy.base import Strategy


class Exits(Strategy):
    """Calls ``sys.exit(0)`` when asked to play."""

    def play(self, obs):
        sys.exit(0)


class Interrupts(Strategy):
    """Raises ``KeyboardInterrupt`` when asked to play (no Ctrl-C was pressed)."""

    def play(self, obs):
        raise KeyboardInterrupt


class RaisesBase(Strategy):
    """Raises a ``BaseException`` that is no ``Exception``."""

    def play(self, obs):
        raise BaseException("not an error")


class HugeCard(Strategy):
    """Plays ``np.uint64(2**64 - 1)``, which a conversion to int64 would wrap to -1 (draw)."""

    def play(self, obs):
        return np.full(len(obs), np.uint64(2**64 - 1), np.uint64)


class HalfYes(Strategy):
    """Challenges with 0.5."""

    def challenge(self, obs):
        return np.full(len(obs), 0.5)


class MinusThreeCatch(Strategy):
    """Catches a missed UNO call with -3."""

    def catch_uno(self, obs):
        return np.full(len(obs), -3)


class OneZeroCatch(Strategy):
    """Catches with whole numbers 1 and 0: yes/no answers, accepted."""

    def catch_uno(self, obs):
        return (np.arange(len(obs)) % 2).astype(np.int64)


class BrokenInit(Strategy):
    """A constructor that raises."""

    def __init__(self, **params):
        super().__init__(**params)
        raise RuntimeError("cannot load my weights")


class PressesCtrlC(Strategy):
    """Sends its own process a real SIGINT (as Ctrl-C does) while it decides."""

    def play(self, obs):
        os.kill(os.getpid(), signal.SIGINT)
        return super().play(obs)
