"""One conformance suite run over every registered strategy (scikit-learn style)."""

from __future__ import annotations

import numpy as np
import pytest

from unosim import registry
from unosim.config import RunConfig
from unosim.engine import Engine
from unosim.strategy import Strategy


@pytest.mark.parametrize("name", sorted(registry.REGISTRY))
def test_strategy_is_describable_and_rebuildable(name: str) -> None:
    strat = registry.make(name)
    assert isinstance(strat, Strategy)
    desc = strat.describe()
    assert desc["name"] == name
    rebuilt = registry.make(name, desc["params"])
    assert rebuilt.describe() == desc and repr(rebuilt) == repr(strat)


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("preset", ["classic", "classic-house"])
@pytest.mark.parametrize("name", sorted(registry.REGISTRY))
def test_strategy_plays_legal_complete_games(name: str, preset: str, compiled: bool) -> None:
    config = RunConfig.build(rules=preset, players=5, strategies=name, seed=8)
    played = Engine(config, check=True, compiled=compiled).play(0, 500)
    assert np.all(played.rec[:, 2] > 0)  # every game was played (turns > 0)
    assert np.all((played.rec[:, 1] >= 0) | (played.rec[:, 5] == 1))  # a winner unless truncated
