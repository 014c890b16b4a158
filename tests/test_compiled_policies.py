"""The compiled in-kernel versions of ``random`` and ``greedy`` play exactly the
games their Python methods play (same uniforms, same order, same cards)."""

from __future__ import annotations

import numpy as np
import pytest

from unosim.engine.config import RunConfig
from unosim.engine.driver import Engine
from unosim.engine.fast_paths import compiled_policy
from unosim.game.kernels import layout as L


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


RESTATED_NAMES = ["ranking", "wild-saver", "colour-keeper", "diversity", "attacker"]


@pytest.mark.parametrize(("preset", "players", "overrides"), [
    ("classic", 2, []), ("classic", 4, ["wd4_challenge=true"]), ("classic-house", 5, []),
    ("party", 3, ["relink_must_differ=true"]), ("party", 4, ["relink_must_differ=true"]),
    ("party", 6, ["speed_play=true"]), ("party", 6, ["pileup_may_refuse=true"]),
    ("party", 12, []),
])
def test_builtins_restated_as_rule_files_play_identical_games_compiled(preset: str, players: int, overrides: list[str]) -> None:
    """``ranking``, ``wild-saver``, ``colour-keeper``, ``diversity`` and ``attacker`` at their defaults are
    played by the compiled rule interpreter (their ``restated_by``): the same games as their Python
    methods, record for record, with every one of them at the table (and ``random``, ``greedy``)."""
    lineup = (RESTATED_NAMES + ["random", "greedy"]) * 2
    config = RunConfig.build(rules=preset, players=players, strategies=lineup[:players], seed=17, overrides=overrides)
    fast_engine = Engine(config, compiled=True)
    assert all(compiled_policy(s) for s in fast_engine.strategies)
    fast = fast_engine.play(0, 1500)
    slow = Engine(config, compiled=False).play(0, 1500)
    assert np.array_equal(fast.rec, slow.rec)
    assert np.array_equal(fast.points, slow.points)


def test_restated_builtins_play_identical_elimination_matches_compiled() -> None:
    """Eliminations (E-4) leave fewer seats to point at and link: still the same matches on both paths."""
    config = RunConfig.build(rules="party", players=4, strategies=["attacker", "diversity", "wild-saver", "ranking"],
                             seed=11, match=True, overrides=["scoring=penalty", "elimination=true", "target_score=150"])
    fast = Engine(config, compiled=True).play(0, 400)
    slow = Engine(config, compiled=False).play(0, 400)
    assert np.array_equal(fast.rec, slow.rec) and np.array_equal(fast.points, slow.points)


def test_a_builtin_off_its_defaults_is_not_restated() -> None:
    engine = Engine(RunConfig.build(strategies="wild-saver(k=3),attacker(threat=1),ranking", players=3, seed=1))
    assert [compiled_policy(s) != 0 for s in engine.strategies] == [False, False, True]


HOUSE = [
    ("classic", ["stacking=same_face"]), ("classic", ["stacking=mixed", "wd4_challenge=false"]),
    ("classic", ["stacking=plus4_on_plus2", "last_card_draws=false"]), ("classic-house", ["stacking=mixed"]),
    ("party", ["stacking=mixed", "point_taken_breaks_link_first=false"]), ("classic", ["seven_zero=true"]),
    ("party", ["seven_zero=true"]), ("classic", ["speed_play=true", "jump_in_cards=numbers_and_actions"]),
    ("party", ["jump_in_cards=numbers_and_actions", "seven_zero=true", "stacking=same_face"]),
    ("classic", ["go_out_on_action=false"]), ("party", ["go_out_on_action=false", "stacking=mixed"]),
]


@pytest.mark.parametrize(("preset", "overrides"), HOUSE, ids=[f"{p}-{'-'.join(o)}" for p, o in HOUSE])
@pytest.mark.parametrize("players", [2, 5])
def test_compiled_and_python_paths_make_the_same_house_rule_decisions(preset: str, overrides: list[str], players: int) -> None:
    """H-1..H-4: the compiled ``random``, ``greedy`` and the restated built-ins stack, take and swap as
    their Python methods do (``stack``, ``swap_with``), with every house rule on in some run."""
    lineup = (["random", "greedy"] + RESTATED_NAMES) * 2
    config = RunConfig.build(rules=preset, players=players, strategies=lineup[:players] if players > 2 else ["random", "greedy"],
                             seed=21, overrides=overrides)
    fast = Engine(config, compiled=True).play(0, 1200)
    slow = Engine(config, compiled=False).play(0, 1200)
    assert np.array_equal(fast.rec, slow.rec)
    assert np.array_equal(fast.points, slow.points)
    counts = fast.rec[:, [L.R_STACKS, L.R_SEVEN_SWAPS, L.R_ACTION_JUMP_INS, L.R_BLOCKED]].sum(axis=0)
    wanted = {"stacking": 0, "seven_zero": 1, "jump_in_cards": 2, "go_out_on_action": 3}
    for option in overrides:
        name = option.split("=")[0]
        if name in wanted:
            assert counts[wanted[name]] > 0, f"{option}: the decision was never made"


@pytest.mark.parametrize("overrides", [["stacking=mixed", "seven_zero=true"], ["stacking=same_face", "wd4_challenge=true"]])
def test_restated_builtins_stack_and_swap_as_their_rule_files(overrides: list[str]) -> None:
    """The restated built-ins on their own (no ``random`` or ``greedy``): the rule interpreter's stack is
    the Python class's, at 3 and 6 players."""
    for players in (3, 6):
        config = RunConfig.build(rules="classic", players=players, strategies=(RESTATED_NAMES * 2)[:players], seed=5,
                                 overrides=overrides)
        fast = Engine(config, compiled=True).play(0, 1000)
        slow = Engine(config, compiled=False).play(0, 1000)
        assert np.array_equal(fast.rec, slow.rec) and fast.rec[:, L.R_STACKS].sum() > 0
