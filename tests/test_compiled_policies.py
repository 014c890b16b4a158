"""The compiled in-kernel versions of ``random`` and ``greedy`` play exactly the
games their Python methods play (same uniforms, same order, same cards)."""

from __future__ import annotations

import numpy as np
import pytest

from unosim.config import RunConfig
from unosim.engine import Engine


@pytest.mark.parametrize("players", [2, 4, 7, 16])
@pytest.mark.parametrize("preset", ["classic", "classic-house"])
@pytest.mark.parametrize("lineup", ["random", "greedy", "mixed"])
def test_compiled_and_python_paths_play_identical_games(preset: str, players: int, lineup: str) -> None:
    strategies = ["random", "greedy"] * 8 if lineup == "mixed" else [lineup] * 16
    config = RunConfig.build(
        rules=preset, players=players, strategies=strategies[:players], seed=99,
        overrides=["deck_copies=2"] if players == 16 else None,
    )
    fast = Engine(config, compiled=True).play(0, 3000)
    slow = Engine(config, compiled=False).play(0, 3000)
    assert np.array_equal(fast.rec, slow.rec)
    assert np.array_equal(fast.points, slow.points)
    assert np.array_equal(fast.opening, slow.opening)


def test_noisy_random_is_not_compiled_and_still_matches_itself() -> None:
    engine = Engine(RunConfig.build(strategies="random(draw_rate=0.2)", players=3, seed=1))
    assert engine.strategies[0].compiled_policy == 0
    plain = Engine(RunConfig.build(strategies="random,greedy", players=2, seed=1))
    assert [s.compiled_policy for s in plain.strategies] == [1, 2]
