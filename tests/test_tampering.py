"""Strategies that tamper with the engine's state are stopped with an error naming them."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from unosim.engine.batch import Buffers
from unosim.engine.config import RunConfig
from unosim.engine.driver import Engine, TamperingError
from unosim.strategy.base import Strategy


def _buffers() -> Buffers:
    return next(o for o in gc.get_objects() if isinstance(o, Buffers))


class MovesCards(Strategy):
    """Finds the batch through the garbage collector and empties its own hand into seat 1's."""

    def play(self, obs):
        b = _buffers()
        b.hands[:, 1] += b.hands[:, 0]
        b.hands[:, 0] = 0
        return super().play(obs)


class ChangesRules(Strategy):
    """Rewrites the frozen rule set it is shown."""

    def play(self, obs):
        object.__setattr__(obs.rules, "max_turns", 10)
        return super().play(obs)


def _engine(strategy: Strategy, verify: bool) -> Engine:
    config = RunConfig.build(rules="classic", players=2, strategies="random", seed=0)
    engine = Engine(config, compiled=False, verify=verify)
    engine.set_strategies([strategy, Strategy()], ["cheat", "honest"], [0, 1])
    return engine


def test_moving_cards_is_stopped_naming_the_strategy() -> None:
    with pytest.raises(TamperingError, match=r"strategy 'cheat' changed the hands while deciding 'play'"):
        _engine(MovesCards(), True).play(0, 20)


def test_changing_the_rules_shown_has_no_effect_and_is_stopped_when_verifying() -> None:
    honest = _engine(Strategy(), False).play(0, 30)
    cheat = _engine(ChangesRules(), False).play(0, 30)
    assert np.array_equal(honest.rec, cheat.rec)
    with pytest.raises(TamperingError, match=r"strategy 'cheat' changed the rules while deciding 'play'"):
        _engine(ChangesRules(), True).play(0, 30)
