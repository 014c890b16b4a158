"""One conformance suite run over every registered strategy (scikit-learn style), and
``unosim check`` failing with the check, the decision and the game for broken ones."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

import unosim
from unosim.cli import app
from unosim.engine.config import RunConfig
from unosim.engine.conformance import CHECKS, LINEUPS, PLAYER_COUNTS, RULE_SETS, _config
from unosim.engine.driver import Engine
from unosim.game.kernels import layout as L
from unosim.strategy import registry
from unosim.strategy.base import Strategy
from unosim.strategy.spec import StrategySpec

runner = CliRunner()
SMALL = {"search": "search(playouts=8)"}
"""Strategies played here at a small budget (their decisions are the same kind at any budget)."""


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
    config = RunConfig.build(rules=preset, players=5, strategies=SMALL.get(name, name), seed=8)
    played = Engine(config, check=True, compiled=compiled).play(0, 500)
    assert np.all(played.rec[:, 2] > 0)  # every game was played (turns > 0)
    assert np.all((played.rec[:, 1] >= 0) | (played.rec[:, 5] == 1))  # a winner unless truncated


@pytest.mark.parametrize("name", sorted(registry.REGISTRY))
def test_builtin_strategy_passes_the_conformance_suite(name: str) -> None:
    report = unosim.check(SMALL.get(name, name))
    assert report.ok, report.message()
    assert report.tables == 24 and all(report.passed[c] > 0 for c in CHECKS)


def test_every_house_rule_is_played_at_every_table_of_the_house_rule_set() -> None:
    """The suite's games (its default seed and games per table) reach the ``stack`` and ``swap_with``
    decisions, the 0's passing, jump-ins with action cards and blocked last cards at every table size."""
    label, preset, overrides = RULE_SETS[-1]
    assert label == "classic with house rules" and all(r[2] == () for r in RULE_SETS[:-1])
    columns = (L.R_STACKS, L.R_SEVEN_SWAPS, L.R_ZERO_PASSES, L.R_ACTION_JUMP_INS, L.R_BLOCKED)
    for players in PLAYER_COUNTS:
        for lineup in LINEUPS:
            config = _config(StrategySpec.parse("random"), preset, overrides, players, lineup, seed=0, games=12)
            rec = Engine(config, check=True).play(0, 12).rec
            assert (rec[:, columns] > 0).any(axis=0).all(), (players, lineup, rec[:, columns].sum(axis=0))


def flat(text: str) -> str:
    return " ".join(text.split())


def test_check_command_prints_a_summary_for_a_conforming_strategy() -> None:
    result = runner.invoke(app, ["check", "wild-saver(k=3)", "--games", "4"])
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert "unosim check wild-saver(k=3) (24 tables" in out
    assert all(name in out for name in CHECKS) and "FAIL" not in out


@pytest.mark.parametrize(
    ("strategy", "check", "words"),
    [
        ("bad_strategies:PlaysEverything", "legal decisions", ["for 'play' in game", "may not be played"]),
        ("bad_strategies:WrongShape", "shapes and dtypes", ["for 'play'", "expected an array of shape"]),
        ("bad_strategies:BadColour", "legal decisions", ["for 'choose_colour' in game", "not 0..3"]),
        ("bad_strategies:CrashesPointing", "legal decisions",
         ["(party, 2 players, alone)", "raised IndexError in 'point_at' in game", "no such seat", "bad_strategies.py"]),
        ("bad_strategies:Unpicklable", "picklable", ["pickle round trip failed"]),
        ("bad_strategies:HidesItsParameter", "describable", ["depth"]),
        ("bad_strategies:SharedGenerator", "deterministic",
         ["(classic, 6 players, alone)", "differs with a second run with the same seed"]),
        ("bad_strategies:SwapsWithItself", "legal decisions",
         ["(classic with house rules, 2 players, alone)", "for 'swap_with' in game", "is not another player in the round"]),
        ("bad_strategies:StacksAnything", "legal decisions",
         ["(classic with house rules, 2 players, alone)", "for 'stack' in game", "may not be stacked"]),
    ],
)  # fmt: skip
def test_check_command_names_the_failed_check_and_decision(strategy: str, check: str, words: list[str]) -> None:
    result = runner.invoke(app, ["check", strategy])
    assert result.exit_code == 1, result.output
    message = flat(result.output[result.output.index("error: "):])
    assert f"strategy {strategy!r}: check {check!r} failed" in message
    assert all(w in message for w in words), message
    assert "Traceback" not in result.output


def test_check_command_refuses_an_unknown_strategy_with_exit_2() -> None:
    result = runner.invoke(app, ["check", "nosuch"])
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and "known strategies: attacker, bluffer, colour-keeper" in flat(result.output)
    bad = runner.invoke(app, ["check", "wild-saver(k=-1)"])
    assert bad.exit_code == 2 and "k=-1 is not allowed; use a whole number from 0 to 108" in flat(bad.output)
