"""The compiled in-kernel versions of ``random`` and ``greedy`` play exactly the
games their Python methods play (same uniforms, same order, same cards)."""

from __future__ import annotations

import numpy as np
import pytest

from unosim.config import RunConfig
from unosim.engine import Engine
from unosim.fast_paths import compiled_policy
from unosim.kernels import layout as L


@pytest.mark.parametrize("players", [2, 4, 7, 16])
@pytest.mark.parametrize("preset", ["classic", "classic-house", "party"])
@pytest.mark.parametrize("lineup", ["random", "greedy", "mixed"])
def test_compiled_and_python_paths_play_identical_games(preset: str, players: int, lineup: str) -> None:
    strategies = ["random", "greedy"] * 8 if lineup == "mixed" else [lineup] * 16
    config = RunConfig.build(
        rules=preset, players=players, strategies=strategies[:players], seed=99,
        overrides=["deck_copies=2"] if players == 16 and preset != "party" else None,
    )
    fast = Engine(config, compiled=True).play(0, 3000)
    slow = Engine(config, compiled=False).play(0, 3000)
    assert np.array_equal(fast.rec, slow.rec)
    assert np.array_equal(fast.points, slow.points)
    assert np.array_equal(fast.opening, slow.opening)


def test_noisy_random_is_not_compiled_and_still_matches_itself() -> None:
    engine = Engine(RunConfig.build(strategies="random(draw_rate=0.2)", players=3, seed=1))
    assert compiled_policy(engine.strategies[0]) == 0
    plain = Engine(RunConfig.build(strategies="random,greedy", players=2, seed=1))
    assert [compiled_policy(s) for s in plain.strategies] == [1, 2]


@pytest.mark.parametrize("overrides", [[], ["relink_must_differ=true"]])
def test_a_python_seat_among_jumpers_sends_every_jumper_to_python(overrides: list[str]) -> None:
    """Votes and jump-ins are compiled only when every answering seat has a policy; a mixed
    table asks all of them in Python and still plays the same games as the all-Python path."""
    lineup = ["random", "random(catch_uno_rate=0.5, forget_uno_rate=0.2)", "greedy", "random", "greedy", "random"]
    config = RunConfig.build(rules="party", players=6, strategies=lineup, seed=7, overrides=overrides)
    fast = Engine(config, compiled=True).play(0, 2000)
    slow = Engine(config, compiled=False).play(0, 2000)
    assert np.array_equal(fast.rec, slow.rec) and fast.rec[:, L.R_JUMP_INS].sum() > 0


@pytest.mark.parametrize("players", [3, 4, 9])
def test_compiled_links_respect_relink_must_differ(players: int) -> None:
    config = RunConfig.build(rules="party", players=players, strategies=(["random", "greedy"] * 5)[:players], seed=8,
                             overrides=["relink_must_differ=true"])
    fast = Engine(config, compiled=True).play(0, 2000)
    slow = Engine(config, compiled=False).play(0, 2000)
    assert np.array_equal(fast.rec, slow.rec) and np.array_equal(fast.points, slow.points)


def test_a_compiled_seat_that_rarely_catches_is_asked_in_python() -> None:
    """Catches are never compiled: a compiled ``random`` with ``catch_uno_rate`` < 1 plays the same
    games on both paths, and its rate matters (fewer penalties than with 1)."""
    lineup = ["random(catch_uno_rate=0.0)", "random(forget_uno_rate=1.0, catch_uno_rate=0.0)"] * 2
    config = RunConfig.build(rules="classic", players=4, strategies=lineup, seed=4)
    fast = Engine(config, compiled=True)
    assert compiled_policy(fast.strategies[0]) != 0
    played = fast.play(0, 2000)
    assert np.array_equal(played.rec, Engine(config, compiled=False).play(0, 2000).rec)
    assert played.rec[:, L.R_UNO_PENALTIES].sum() == 0
    catching = RunConfig.build(rules="classic", players=4, strategies=["random", lineup[1]] * 2, seed=4)
    assert Engine(catching).play(0, 2000).rec[:, L.R_UNO_PENALTIES].sum() > 0
