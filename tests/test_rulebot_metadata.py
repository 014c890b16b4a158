"""A rule strategy's file text in run metadata: a dataset says which rules made it, resumes
while the file is unchanged, and refuses to resume after the file is edited."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import unosim
from unosim.runs import files
from unosim.strategy import RuleStrategy

TEXT = "# hold the wilds\nname = 'holder'\n[[play.rule]]\ncard = 'coloured'\nhand_min = 3\n"


def _run(bot: Path, out: Path, games: int = 40) -> None:
    unosim.simulate(rules="classic", players=2, games=games, strategies=f"rules:{bot},random", seed=2, out=out,
                    chunk_size=20)


def test_describe_holds_the_file_text(tmp_path: Path) -> None:
    bot = tmp_path / "bot.toml"
    bot.write_text(TEXT)
    described = RuleStrategy(path=str(bot)).describe()
    assert described["params"] == {"path": str(bot)} and described["file_text"] == TEXT
    assert json.loads(json.dumps(described)) == described
    assert RuleStrategy(path="holder").describe()["file_text"].startswith("#")  # a shipped file: its text too


def test_dataset_holds_the_rule_text_resumes_and_refuses_an_edited_file(tmp_path: Path) -> None:
    bot, out = tmp_path / "bot.toml", tmp_path / "run"
    bot.write_text(TEXT)
    _run(bot, out)
    meta = files.read_metadata(out)
    assert meta["strategy_params"][f"rules(path='{bot}')"]["file_text"] == TEXT
    (out / "part-00001.parquet").unlink()  # an interrupted run: one chunk missing
    _run(bot, out)  # same file: resumes
    assert len(unosim.load(out)) == 40
    bot.write_text(TEXT.replace("hand_min = 3", "hand_min = 2"))
    with pytest.raises(ValueError, match=r"made with other settings \(strategy_params\.rules\(path='.*'\)\.file_text: "):
        _run(bot, out)
    bot.write_text(TEXT + "# a comment changes the text, so the settings too\n")
    with pytest.raises(ValueError, match="made with other settings"):
        _run(bot, out)


def test_tournament_dataset_holds_the_rule_text_and_refuses_an_edited_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a short label (rules(path='bot.toml')) for the report's figures
    bot, out = Path("bot.toml"), tmp_path / "t"
    bot.write_text(TEXT)

    def play() -> None:
        unosim.tournament(rules="classic", players=2, strategies=f"rules:{bot},random", games=40, seed=1, out=out,
                          bootstrap=10)

    play()
    assert files.read_metadata(out)["strategy_params"][f"rules(path='{bot}')"]["file_text"] == TEXT
    play()  # the same tournament again: its dataset is reused
    bot.write_text(TEXT + "# edited\n")
    with pytest.raises(ValueError, match=r"other settings \(strategy_params\.rules"):
        play()
