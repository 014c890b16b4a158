"""The command line: `unosim simulate` and `unosim run`; refused input exits 2 with one paragraph."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import typer
from typer.testing import CliRunner

import unosim
from unosim.cli import app, user_errors
from unosim.engine.config import RunConfig
from unosim.engine.driver import play_tables
from unosim.game.errors import UnosimInputError
from unosim.runs import files
from unosim.strategy.registry import REGISTRY, installed

KNOWN = ", ".join(sorted({*REGISTRY, *installed()}))
"""Every registered and installed strategy name, as error messages list them."""

REPO = Path(__file__).resolve().parents[1]
runner = CliRunner()


@pytest.fixture(scope="module", autouse=True)
def warm_engine() -> None:
    """Compile (or load from cache) the engine in this process first."""
    play_tables(RunConfig.build(players=2, games=1), 0, 2)


def invoke(*args: str):
    return runner.invoke(app, list(args))


def flat(text: str) -> str:
    return " ".join(text.split())


BAD_SIMULATE = [
    (["--players", "1"], "players = 1; unosim plays 2 to 16 players"),
    (["--players", "17"], "players = 17; unosim plays 2 to 16 players"),
    (["--rules", "classic", "--players", "16"], "--set deck_copies=2"),
    (["--strategies", "nosuch"], "unknown strategy 'nosuch'; known strategies: " + KNOWN),
    (["--games", "-5"], "games = -5"),
    (["--seed", "9223372036854775808"], "seed = 9223372036854775808; a whole number from 0 to"),
    (["--strategies", "random,greedy", "--players", "3"], "2 strategies given for 3 players"),
    (["--rules", "nosuch"], "unknown rules preset 'nosuch'; choose one of: classic, classic-house, party"),
    (["--set", "foo=1"], "unknown rule option 'foo'; the options are"),
    (["--set", "wd4_challenge=maybe"], "wd4_challenge='maybe': expected true or false"),
    (["--set", "deck_copies"], "is not OPTION=VALUE"),
    (["--deck", "nosuch.toml"], "deck 'nosuch.toml' is neither a shipped deck"),
    (["--batch-size", "0"], "batch_size = 0"),
    (["--jobs", "0"], "jobs = 0"),
    (["--chunk-size", "0"], "chunk_size = 0"),
    (["--backend", "spark"], "backend = 'spark'; choose one of: loky, dask"),
    (["--scheduler", "tcp://127.0.0.1:8786"], "add --backend dask"),
]


@pytest.mark.parametrize(("args", "message"), BAD_SIMULATE, ids=[" ".join(a) for a, _ in BAD_SIMULATE])
def test_bad_simulate_input_exits_2_with_one_paragraph(tmp_path: Path, args: list[str], message: str) -> None:
    result = invoke("simulate", *args, "--out", str(tmp_path / "out"))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.output.startswith("error: ")
    assert message in flat(result.output)
    assert result.output.strip().count("\n") == 0  # one paragraph, on one logical line
    assert not (tmp_path / "out").exists()


def test_the_installed_entry_point_exits_2_without_traceback(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    for args in (["--players", "17"], ["--rules", "classic", "--players", "16"]):
        proc = subprocess.run(
            [sys.executable, "-m", "unosim", "simulate", *args, "--out", str(tmp_path / "out")],
            cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert proc.returncode == 2
        assert proc.stderr.startswith("error: ") and "Traceback" not in proc.stderr + proc.stdout
    assert not (tmp_path / "out").exists()


def test_simulate_writes_a_dataset_equal_to_the_python_api(tmp_path: Path) -> None:
    out = tmp_path / "a"
    args = ["--rules", "classic", "--players", "4", "--games", "1200", "--seed", "1",
            "--strategies", "random,greedy,random,greedy", "--jobs", "1"]  # fmt: skip
    result = invoke("simulate", *args, "--out", str(out))
    assert result.exit_code == 0, result.output
    assert f"wrote 1,200 games to {out}" in flat(result.output)
    frame = unosim.load(out)
    expected = unosim.simulate(rules="classic", players=4, games=1200, seed=1, strategies="random,greedy,random,greedy")
    assert frame.equals(expected)

    again = invoke("simulate", *args, "--out", str(out), "--quiet")
    assert again.exit_code == 0 and again.output == ""

    other = invoke("simulate", *args[:-2], "--seed", "2", "--out", str(out), "--quiet")
    assert other.exit_code == 2 and "holds a dataset made with other settings" in flat(other.output)
    assert "config.seed: 1 there, 2 now" in flat(other.output)
    replaced = invoke("simulate", *args[:-2], "--seed", "2", "--out", str(out), "--quiet", "--overwrite")
    assert replaced.exit_code == 0
    assert files.read_metadata(out)["config"]["seed"] == 2


def test_simulate_set_deck_and_in_memory_summary(tmp_path: Path) -> None:
    out = tmp_path / "big"
    result = invoke("simulate", "--players", "16", "--set", "deck_copies=2", "--set", "wd4_challenge=false",
                    "--games", "40", "--quiet", "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    rules = files.read_metadata(out)["config"]["rules"]
    assert rules["deck_copies"] == 2 and rules["wd4_challenge"] is False
    deck = REPO / "unosim" / "game" / "decks" / "classic.toml"
    shown = invoke("simulate", "--games", "50", "--deck", str(deck), "--jobs", "1")
    assert shown.exit_code == 0, shown.output
    assert "50 games in" in shown.output and "turns" in shown.output


def test_run_command(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text('seed = 1\ngames = 100\npresets = "classic"\nplayers = [2, 3]\n')
    missing_out = invoke("run", str(good))
    assert missing_out.exit_code == 2 and "sets no output directory" in flat(missing_out.output)
    result = invoke("run", str(good), "--out", str(tmp_path / "out"), "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert list(unosim.load(tmp_path / "out").groupby("cell")["players"].first()) == [2, 3]

    bad = tmp_path / "bad.toml"
    bad.write_text('seed = 1\ngames = 100\npresets = "classic"\nplayers = [2, 30]\n')
    refused = invoke("run", str(bad), "--out", str(tmp_path / "bad_out"))
    assert refused.exit_code == 2 and "Traceback" not in refused.output
    assert "players = [2, 30] is not allowed; use a whole number from 2 to 16" in flat(refused.output)
    assert not (tmp_path / "bad_out").exists()
    absent = invoke("run", str(tmp_path / "nowhere.toml"))
    assert absent.exit_code == 2 and "cannot read the experiment file" in flat(absent.output)


def test_help_lists_the_commands() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    assert "simulate" in result.output and "run" in result.output
    options = flat(invoke("simulate", "--help").output)
    for option in ("--rules", "--players", "--games", "--seed", "--strategies", "--out", "--batch-size",
                   "--set", "--deck", "--match", "--jobs", "--backend", "--scheduler", "--overwrite",
                   "--quiet", "--chunk-size"):  # fmt: skip
        assert option in options


def test_user_errors_helper_is_reusable() -> None:
    extra = typer.Typer()

    @extra.command()
    @user_errors()
    def fail(value: int = 1) -> None:
        raise UnosimInputError(f"value = {value}; use 2.")

    result = runner.invoke(extra, ["--value", "3"])
    assert result.exit_code == 2 and result.output == "error: value = 3; use 2.\n"


def test_any_other_error_is_reported_as_a_bug_with_its_traceback() -> None:
    # a plain ValueError (not raised where input is validated) is a bug, not a refusal
    extra = typer.Typer()

    @extra.command()
    @user_errors()
    def fail(value: int = 1) -> None:
        raise ValueError(f"value = {value}; an internal check failed.")

    result = runner.invoke(extra, ["--value", "3"])
    assert result.exit_code == 1 and isinstance(result.exception, ValueError)
    assert not isinstance(result.exception, UnosimInputError)
    assert "bug:" in result.output and "ValueError" in result.output and "error: value" not in result.output


def test_party_simulate_reports_the_truncated_share(tmp_path: Path) -> None:
    """The party preset plays in full from the CLI; the summary states the share of rounds
    stopped at max_turns (E-5), counted from the written dataset."""
    import unosim

    result = invoke("simulate", "--rules", "party", "--players", "6", "--games", "3000", "--seed", "2",
                    "--set", "max_turns=40", "--out", str(tmp_path / "p6"), "--quiet")
    assert result.exit_code == 0, result.output
    df = unosim.load(tmp_path / "p6")
    assert len(df) == 3000 and df["jump_ins"].sum() > 0
    loud = invoke("simulate", "--rules", "party", "--players", "6", "--games", "3000", "--seed", "2",
                  "--set", "max_turns=40", "--out", str(tmp_path / "p6b"))
    n = int(df["truncated"].sum())
    assert 0 < n < 3000
    assert f"truncated at max_turns (E-5): {n:,} of 3,000 games ({100 * n / 3000:.3f} %)" in flat(loud.output)



MINE = '''
import numpy as np
from unosim.strategy.primitives import sample_counts
from unosim.strategy.base import Strategy


class Mine(Strategy):
    """Plays a random legal card, keeping wilds while anything else is playable."""

    def play(self, obs):
        mask = obs.legal.copy()
        coloured = mask[:, :56].any(axis=1)
        mask[coloured, 56:] = False
        return sample_counts(obs.hand, mask, obs.random())
'''


def test_simulate_prints_each_strategys_win_rate_with_an_interval(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "winmodule.py").write_text(MINE)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = invoke("simulate", "--players", "3", "--games", "400", "--seed", "2", "--jobs", "1",
                    "--strategies", "winmodule:Mine,random,random")
    assert result.exit_code == 0, result.output
    text = result.output
    assert "win rate by seat" in text and "win rate by strategy" in text
    frame = unosim.simulate(players=3, games=400, seed=2, strategies="winmodule:Mine,random,random")
    rate = float((frame["winner"] == 0).mean())
    half = 1.959964 * (rate * (1 - rate) / 400) ** 0.5
    lines = [line.replace("│", " ").split() for line in text.splitlines()]
    seat_row = next(cells for cells in lines if cells[:2] == ["0", "winmodule:Mine"])
    assert seat_row[2] == f"{rate:.4f}" and " ".join(seat_row[3:5]) == f"[{rate - half:.4f}, {rate + half:.4f}]"
    pooled = float(((frame["winner"] == 1) | (frame["winner"] == 2)).mean() / 2)
    random_row = next(cells for cells in lines if cells[:2] == ["random", "2"])
    assert random_row[2] == f"{pooled:.4f}" and random_row[-1] == f"{1 / 3:.4f}"


def test_pooled_win_rate_is_clustered_by_game() -> None:
    from unosim.analysis.winrates import win_rates

    by_seat, by_strategy = win_rates(pd.Series([0, 1, 1, 2, None, 1]), ["a", "b", "b"])
    assert by_seat["wins"].tolist() == [1, 3, 1] and by_seat["games"].tolist() == [6, 6, 6]
    b = by_strategy.set_index("strategy").loc["b"]
    assert b["seats"] == 2 and b["win_rate"] == pytest.approx(4 / 12)
    per_game = np.array([0, 0.5, 0.5, 0.5, 0, 0.5])
    assert b["high"] - b["win_rate"] == pytest.approx(1.959964 * per_game.std(ddof=1) / 6 ** 0.5, rel=1e-5)


@pytest.mark.parametrize(("args", "hint"), [
    (["--strategies", "gredy"], "Did you mean 'greedy'?"),
    (["--strategies", "random(draw_rat=0.2)"], "Did you mean 'draw_rate'?"),
    (["--set", "wd4_chalenge=false"], "Did you mean 'wd4_challenge'"),
])
def test_a_misspelled_name_gets_a_suggestion(args: list[str], hint: str) -> None:
    result = invoke("simulate", "--games", "2", *args)
    assert result.exit_code == 2 and hint in flat(result.output)


def test_a_name_far_from_every_known_one_gets_no_suggestion() -> None:
    result = invoke("simulate", "--games", "2", "--strategies", "zzzzqqq")
    assert result.exit_code == 2 and "Did you mean" not in result.output


def test_boolean_options_are_shown_as_flags() -> None:
    result = runner.invoke(app, ["simulate", "--help"], env={"COLUMNS": "200"})
    line = next(line for line in result.output.splitlines() if "--quiet" in line)
    assert "<bool>" not in line and "--match" in result.output
    assert not any("<bool>" in line for line in result.output.splitlines())
