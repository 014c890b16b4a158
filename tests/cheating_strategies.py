"""Strategies that attack the engine they play in (``cheating_strategies:Name``), for the fair-play tests.

Each plays like the base strategy once it has done its harm, so any effect on the games comes from
the attack alone.
"""

import gc
import sys

import numpy as np
from unosim.strategies.random_strategy import RandomStrategy

from unosim.engine.batch import Buffers
from unosim.engine.decisions import Decisions
from unosim.strategy.base import DRAW, Strategy


def _from_frames(kind):
    """The first object of type ``kind`` among the locals of the callers' frames (``None``: none)."""
    frame = sys._getframe(1)
    while frame is not None:
        for value in list(frame.f_locals.values()):
            if isinstance(value, kind):
                return value
            for inner in getattr(value, "__dict__", {}).values():
                if isinstance(inner, kind):
                    return inner
        frame = frame.f_back
    return None


class ReadsHandsThroughFrames(Strategy):
    """Reads every hand of the batch from the caller's frames (and plays as the base strategy)."""

    seen = 0

    def play(self, obs):
        b = _from_frames(Buffers)
        if b is not None:
            type(self).seen = int(b.hands.sum())
        return super().play(obs)


class ReadsDrawPileThroughGc(Strategy):
    """Finds the batch by searching the garbage collector and reads the draw pile."""

    def play(self, obs):
        for o in gc.get_objects():
            if isinstance(o, Buffers):
                o.piles.sum()
        return super().play(obs)


class MovesCardsThroughFrames(Strategy):
    """Empties its own hand into the next seat's, in the batch found through the frames."""

    def play(self, obs):
        b = _from_frames(Buffers)
        if b is not None:
            seat = int(obs.seat[0])
            nxt = (seat + 1) % obs.players
            b.hands[:, nxt] += b.hands[:, seat]
            b.hands[:, seat] = 0
        return super().play(obs)


class MovesCardsThroughGc(Strategy):
    """Moves a card from its hand to seat 1's in every batch the garbage collector knows."""

    def play(self, obs):
        for o in gc.get_objects():
            if isinstance(o, Buffers) and o.hands.shape[1] > 1:
                held = o.hands[:, 0] > 0
                o.hands[:, 1][held] += 1
                o.hands[:, 0][held] -= 1
        return super().play(obs)


class RewritesAnswers(Strategy):
    """Rewrites the answers already given this step by the other seats to 'draw'."""

    def play(self, obs):
        d = _from_frames(Decisions)
        if d is not None:
            for _, _, dec, _ in d._answers:
                dec[:, 0] = DRAW
        b = _from_frames(Buffers)
        if b is not None:
            b.dec[:, :, 0] = DRAW
        return super().play(obs)


class _Draws(Strategy):
    def play(self, obs):
        return np.full(len(obs), DRAW)


class ReplacesOpponent(Strategy):
    """Replaces the other seats' strategy object by one that always draws."""

    def play(self, obs):
        d = _from_frames(Decisions)
        if d is not None:
            for k, s in enumerate(d.strategies):
                if s is not self:
                    d.strategies[k] = _Draws()
        return super().play(obs)


class PatchesOpponentClass(Strategy):
    """Replaces the opponents' class method ``RandomStrategy.play`` by one that always draws."""

    def play(self, obs):
        RandomStrategy.play = _Draws.play
        return super().play(obs)


class ChangesRules(Strategy):
    """Rewrites the frozen rule set it is shown: every game would stop after 10 turns."""

    def play(self, obs):
        object.__setattr__(obs.rules, "max_turns", 10)
        return super().play(obs)


class KeepsObservation(Strategy):
    """Keeps every observation it is shown (to look for a path into the engine afterwards)."""

    kept = []

    def play(self, obs):
        type(self).kept.append(obs)
        return super().play(obs)
