"""The compiled rule interpreter plays exactly the games of the Python one.

Property test over random rule files (every decision table, mini-pile take
rules included, two different files at one table, with ``random`` and
``greedy``), every preset (and the party rules with ``pileup_may_refuse``),
2-16 players: the engine's compiled path (``kernels/rule_policy.py``) and the
Python path (:class:`unosim.strategy.RuleStrategy`) give identical records.
Derandomised on CI (``tests/conftest.py``).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from unosim.engine.config import RunConfig
from unosim.engine.driver import Engine
from unosim.engine.fast_paths import compiled_policy
from unosim.engine.records import records_table
from unosim.game.kernels.policy import POLICY_RULES
from unosim.game.kernels.rule_policy import MAX_INDEXED, P_PILE_INDEX, P_PLAY_INDEX
from unosim.game.rules import RuleSet
from unosim.strategy import RuleFileError, RuleStrategy, parse_program
from unosim.strategy.rule_programs import encode_program

SELECTORS = [
    "any", "coloured", "action", "wilds", "number", "skip", "reverse", "draw_two", "point_taken", "wild",
    "wild_draw_four", "wild_pile_up", "wild_drawn_together", "7", "0", "red", "blue skip", "green 3", "yellow 9",
]
TABLE_VARS = ["hand", "non_wild", "next_hand", "smallest_opponent", "players"]


@st.composite
def conditions(draw: st.DrawFn, names: list[str], colour: bool = False) -> list[str]:
    lines = []
    for name in draw(st.lists(st.sampled_from(names), unique=True, max_size=2)):
        low, high = (2, 16) if name == "players" else (0, 12)
        lo = draw(st.integers(low, high))
        hi = draw(st.integers(lo, high))
        which = draw(st.sampled_from(["min", "max", "both"]))
        if which != "max":
            lines.append(f"{name}_min = {lo}")
        if which != "min":
            lines.append(f"{name}_max = {max(hi, 1)}")
    if draw(st.integers(0, 4)) == 0:
        lines.append(f"direction = \"{draw(st.sampled_from(['clockwise', 'counter-clockwise']))}\"")
    if colour and draw(st.integers(0, 3)) == 0:
        lines.append(f"colour_held_most = {draw(st.sampled_from(['true', 'false']))}")
    return lines


@st.composite
def prefer(draw: st.DrawFn) -> str:
    items = draw(st.lists(st.sampled_from(["points", "colour", "variety"]), unique=True, min_size=1, max_size=3))
    return "prefer = [" + ", ".join(f'"{c}"' for c in items) + "]"


@st.composite
def rules(draw: st.DrawFn, table: str, pile: bool) -> list[str]:
    lines = []
    for _ in range(draw(st.integers(0, 5))):
        lines.append(f"[[{table}]]")
        if draw(st.integers(0, 4 if pile else 5)) == 0:  # draw instead (play), take the mini pile (pile)
            lines.append('card = "take"' if pile else 'card = "draw"')
            lines += draw(conditions(TABLE_VARS))
            continue
        cards = draw(st.lists(st.sampled_from(SELECTORS), unique=True, min_size=1, max_size=3))
        lines.append("card = [" + ", ".join(f'"{c}"' for c in cards) + "]")
        lines += draw(conditions(TABLE_VARS, colour=True))
        if draw(st.integers(0, 3)) == 0:
            lines.append(draw(prefer()))
    return lines


@st.composite
def rule_files(draw: st.DrawFn) -> str:
    lines = ["[play]", draw(prefer()), f'otherwise = "{draw(st.sampled_from(["play", "play", "draw"]))}"']
    lines += draw(rules("play.rule", pile=False))
    lines += ["[pile]", draw(prefer())] + draw(rules("pile.rule", pile=True))
    lines += ["[drawn]", f'play = "{draw(st.sampled_from(["legal", "never", "rules"]))}"']
    lines += ["[colour]", f'choose = "{draw(st.sampled_from(["most", "least", "random", "most_played"]))}"']
    if draw(st.booleans()):
        lines += ["[bluff]"] + draw(conditions(TABLE_VARS))
    if draw(st.booleans()):
        lines += ["[challenge]"] + draw(conditions([*TABLE_VARS, "opponent_hand"]))
    lines += ["[point_taken]", f'target = "{draw(st.sampled_from(["fewest", "most", "random"]))}"']
    lines += ["[link]", f'pair = "{draw(st.sampled_from(["fewest", "most", "random"]))}"']
    lines += ["[jump_in]", f"weight = {draw(st.sampled_from([0, 0.5, 1, 2.25, 0.000001]))}"] + draw(conditions(TABLE_VARS))
    lines += ["[uno]", f"catch_rate = {draw(st.sampled_from([0.5, 1.0]))}"]
    text = "\n".join(lines) + "\n"
    try:
        parse_program(text, "generated.toml")
    except RuleFileError:
        assume(False)
    return text


def records(config: RunConfig, games: int, compiled: bool) -> dict:
    engine = Engine(config, compiled=compiled)
    if compiled:  # the compiled interpreter really plays the rule seats
        assert any(compiled_policy(s) == POLICY_RULES for s in engine.strategies)
    return records_table(config, engine.play(0, games)).to_pydict()


@pytest.mark.parametrize(("preset", "refuse"), [("classic", False), ("classic-house", False), ("party", False), ("party", True)])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(first=rule_files(), second=rule_files(), players=st.integers(2, 16), seed=st.integers(0, 2**32 - 1))
def test_compiled_and_python_interpreters_play_identical_games(
    preset: str, refuse: bool, first: str, second: str, players: int, seed: int,
) -> None:
    """``refuse``: the party rules with ``pileup_may_refuse``, where take rules fire while a card could be added."""
    with tempfile.TemporaryDirectory() as tmp:
        a, b = Path(tmp, "a.toml"), Path(tmp, "b.toml")
        a.write_text(first)
        b.write_text(second)
        lineup = ",".join([f"rules:{a}", "random", f"rules:{b}", "greedy"][i % 4] for i in range(players))
        copies = RuleSet.preset(preset).copies_needed(players)
        config = RunConfig.build(rules=preset, players=players, seed=seed, strategies=lineup, games=16,
                                 overrides=[f"deck_copies={copies}", f"pileup_may_refuse={str(refuse).lower()}"])
        assert records(config, 16, compiled=True) == records(config, 16, compiled=False)


def test_shipped_files_take_the_compiled_path() -> None:
    for name in ("ranking", "wild-saver", "colour-keeper", "attacker", "diversity", "holder"):
        assert compiled_policy(RuleStrategy(path=name)) == POLICY_RULES
    forgetful = Path(tempfile.mkdtemp(), "f.toml")
    forgetful.write_text("[uno]\nforget_rate = 0.1\n")
    assert compiled_policy(RuleStrategy(path=str(forgetful))) == 0  # forgetting UNO is asked in Python


@pytest.mark.parametrize("house", [["stacking=mixed", "seven_zero=true"], ["stacking=same_face", "wd4_challenge=true",
                                                                           "go_out_on_action=false"]])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(first=rule_files(), second=rule_files(), players=st.integers(2, 8), seed=st.integers(0, 2**32 - 1))
def test_compiled_and_python_interpreters_stack_and_swap_alike(house: list[str], first: str, second: str, players: int,
                                                              seed: int) -> None:
    """H-1/H-2: the compiled interpreter's stack (the play rules over the stacking cards) and swap are
    ``RuleStrategy.stack`` and ``swap_with``, for any rule file."""
    with tempfile.TemporaryDirectory() as tmp:
        a, b = Path(tmp, "a.toml"), Path(tmp, "b.toml")
        a.write_text(first)
        b.write_text(second)
        lineup = ",".join([f"rules:{a}", f"rules:{b}", "greedy"][i % 3] for i in range(players))
        config = RunConfig.build(rules="classic", players=players, seed=seed, strategies=lineup, games=40, overrides=house)
        assert records(config, 40, compiled=True) == records(config, 40, compiled=False)


def long_rule_file(length: int) -> str:
    """A file with ``length`` play rules and ``length`` mini-pile rules, each with conditions, a draw rule and
    a take rule among them."""
    lines = ["[play]"]
    for i in range(length):
        lines.append("[[play.rule]]")
        selector = SELECTORS[i % len(SELECTORS)]
        lines.append('card = "draw"' if i == length - 3 else f'card = "{selector}"')
        lines.append(f"hand_min = {i % 7}" if i % 2 else f"next_hand_max = {i % 5 + 1}")
        if i % 5 == 1 and i != length - 3 and selector in ("coloured", "number", "skip", "7", "0", "red", "green 3"):
            lines.append(f"colour_held_most = {'true' if i % 10 == 1 else 'false'}")
    lines.append("[pile]")
    for i in range(length):
        lines.append("[[pile.rule]]")
        lines.append('card = "take"' if i == length - 5 else f'card = "{SELECTORS[(3 * i) % len(SELECTORS)]}"')
        lines.append(f"smallest_opponent_min = {i % 4}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("length", [MAX_INDEXED, MAX_INDEXED + 6])
def test_rule_lists_past_the_index_play_alike(length: int) -> None:
    """A rule list of more than ``MAX_INDEXED`` rules has no index and is tried rule by rule; one at the limit
    has one. Both play the Python path's games (seed 5, 40 games, party rules, taking allowed)."""
    text = long_rule_file(length)
    words = encode_program(parse_program(text, "long.toml"))
    indexed = length <= MAX_INDEXED
    assert (words[P_PLAY_INDEX] != 0) == indexed and (words[P_PILE_INDEX] != 0) == indexed
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "long.toml")
        path.write_text(text)
        lineup = ",".join([f"rules:{path}", "random", f"rules:{path}", "greedy"])
        config = RunConfig.build(rules="party", players=4, seed=5, strategies=lineup, games=40,
                                 overrides=["deck_copies=1", "pileup_may_refuse=true"])
        assert records(config, 40, compiled=True) == records(config, 40, compiled=False)
