"""Input files: a UTF-8 byte-order mark is accepted, a 10,000-rule file builds in linear time."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from unosim.game.cards import load_deck
from unosim.runs.experiment import load_experiment
from unosim.strategy import registry
from unosim.strategy.rule_language import load_program, parse_program

BOM = "\ufeff"
SHIPPED = Path(__file__).resolve().parents[1] / "strategies" / "rules"
DECKS = Path(__file__).resolve().parents[1] / "unosim" / "game" / "decks"


def _with_bom(tmp_path: Path, source: Path) -> Path:
    path = tmp_path / f"bom-{source.name}"
    path.write_bytes(BOM.encode() + source.read_bytes())
    return path


def test_a_rule_file_with_a_byte_order_mark_is_read_as_without(tmp_path: Path) -> None:
    source = SHIPPED / "holder.toml"
    marked = load_program(_with_bom(tmp_path, source))
    plain = load_program(source)
    assert marked.play == plain.play and marked.challenge == plain.challenge
    assert not marked.text.startswith(BOM)
    assert parse_program(BOM + source.read_text()).play == plain.play


def test_a_deck_file_with_a_byte_order_mark_is_read_as_without(tmp_path: Path) -> None:
    source = DECKS / "classic.toml"
    assert load_deck(str(_with_bom(tmp_path, source))).counts == load_deck(str(source)).counts


def test_an_experiment_file_with_a_byte_order_mark_is_read_as_without(tmp_path: Path) -> None:
    text = 'seed = 1\ngames = 100\npresets = "classic"\nplayers = [2, 3]\n'
    plain, marked = tmp_path / "plain.toml", tmp_path / "marked.toml"
    plain.write_text(text, encoding="utf-8")
    marked.write_bytes((BOM + text).encode())
    assert [c.config for c in load_experiment(marked).cells] == [c.config for c in load_experiment(plain).cells]


def _rule_file(n: int) -> str:
    parts = ['name = "long"\n[play]\nprefer = ["points"]\n']
    parts += [f'[[play.rule]]\ncard = "any"\nhand_min = {i % 7}\n' for i in range(n)]
    return "".join(parts)


def test_ten_thousand_rules_build_in_linear_time(tmp_path: Path) -> None:
    path = tmp_path / "long.toml"
    path.write_text(_rule_file(10_000))
    started = time.perf_counter()
    strategy = registry.make("rules", {"path": str(path)})
    seconds = time.perf_counter() - started
    assert len(strategy.program.play) == 10_000
    assert seconds < 5.0, f"10,000 rules took {seconds:.2f} s to build"  # quadratic parsing took ~50 s


def test_an_error_in_the_last_of_many_rules_names_its_line() -> None:
    text = _rule_file(3000) + '[[play.rule]]\ncard = "nosuch"\n'
    last = text.count("\n")  # the line of the bad card: the file's last
    with pytest.raises(ValueError, match=rf"rule file long.toml, line {last}: play.rule\[3001\].card = \"nosuch\""):
        parse_program(text, "long.toml")
