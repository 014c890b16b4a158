"""The ``replay``, ``bench``, ``study`` and ``report`` commands, run in-process through Typer's runner.

Each is kept small: a replay of one game, a bench of a fraction of a second on
tiny batches, the default study at 10 games per cell, a report of that study.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from unosim.cli import app
from unosim.engine.config import RunConfig
from unosim.engine.trace import replay
from unosim.runs import files, reading
from unosim.runs.runner import run

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


# ---------------------------------------------------------------- replay
def test_replay_of_a_seed_prints_the_engine_narration() -> None:
    result = invoke("replay", "--rules", "party", "--players", "3", "--seed", "7", "--game", "2", "--strategies", "random,greedy,random")
    assert result.exit_code == 0, result.output
    config = RunConfig.build(rules="party", players=3, seed=7, strategies="random,greedy,random", games=3)
    trace = replay(config, 2)
    lines = result.output.splitlines()
    assert lines[: len(trace.narrate())] == trace.narrate()
    assert lines[0] == "Game 2 of seed 7: party rules, 3 players."
    rec = trace.record
    assert lines[-1] == (f"winner: seat {rec['winner']}, turns: {rec['turns']}, cards drawn: {rec['cards_drawn']}, "
                         f"truncated: {rec['truncated']}")


def test_replay_of_a_written_run_checks_the_dataset_row(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run(RunConfig.build(rules="classic", players=4, games=40, seed=3, strategies="greedy"), out, jobs=1, quiet=True)
    result = invoke("replay", "--run", out, "--game", "17")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "Game 17 of seed 3: classic rules, 4 players."
    assert result.output.rstrip().endswith("replay matches.")
    refused = runner.invoke(app, ["replay", "--run", str(out), "--game", "40"])
    assert refused.exit_code == 2
    assert "--game 40 is not a game of" in refused.output and "games 0 to 39" in refused.output


def test_replay_of_a_tournament_game_matches_its_dataset_row(tmp_path: Path) -> None:
    out = tmp_path / "t"
    played = invoke("tournament", "--rules", "classic", "--players", "3", "--strategies", "random,greedy,attacker",
                    "--games", "60", "--seed", "4", "--bootstrap", "10", "--jobs", "1", "--out", out)
    assert played.exit_code == 0, played.output
    rows = reading.load(out).set_index(["cell", "game"])
    cells = len(files.read_metadata(out)["cells"])
    assert cells > 1
    cell, game = cells - 1, 5
    result = invoke("replay", "--run", out, "--cell", cell, "--game", game)
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("replay matches.")
    row = rows.loc[(cell, game)]
    assert f"dataset row: winner {row['winner']}, turns {row['turns']}, cards drawn {row['cards_drawn']}" in result.output
    refused = runner.invoke(app, ["replay", "--run", str(out), "--game", "1"])
    assert refused.exit_code == 2 and "pick one with --cell 0 to" in refused.output


def test_replay_of_an_experiment_cell(tmp_path: Path) -> None:
    import unosim

    out = tmp_path / "cv"
    spec = tmp_path / "exp.toml"
    spec.write_text('name = "tiny"\nseed = 2\ngames = 30\npresets = ["classic", "party"]\nplayers = [3]\n'
                    'strategies = "greedy"\n')
    unosim.run_experiment(spec, out, jobs=1, quiet=True)
    result = invoke("replay", "--run", out, "--cell", 1, "--game", 29)
    assert result.exit_code == 0, result.output
    assert "party rules, 3 players" in result.output.splitlines()[0]
    assert result.output.rstrip().endswith("replay matches.")


# ---------------------------------------------------------------- bench
def test_bench_json_reports_a_rate() -> None:
    result = invoke("bench", "--rules", "classic", "--players", "2", "--seconds", "0.2", "--batch-size", "32", "--json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["rules"] == "classic" and figures["players"] == 2 and figures["batch_size"] == 32
    assert figures["games"] > 0 and figures["games"] % (25 * 32) == 0  # whole chunks of 25 batches
    assert figures["games_per_second"] == pytest.approx(figures["games"] / figures["seconds"], rel=0.01)
    assert figures["mean_turns"] > 1


def test_bench_table_and_refusal() -> None:
    result = invoke("bench", "--rules", "party", "--players", "4", "--seconds", "0.1", "--batch-size", "16")
    assert result.exit_code == 0, result.output
    assert "games/s" in result.output and "party" in result.output
    refused = runner.invoke(app, ["bench", "--rules", "classic", "--seconds", "0"])
    assert refused.exit_code == 2 and "seconds = 0.0" in refused.output


def test_bench_set_measures_a_house_rule_and_needs_one_table() -> None:
    plain = json.loads(invoke("bench", "--rules", "classic", "--players", "4", "--seconds", "0.1", "--batch-size", "32",
                              "--json").output)
    longer = invoke("bench", "--rules", "classic", "--players", "4", "--seconds", "0.1", "--batch-size", "32",
                    "--set", "go_out_on_action=false", "--json")
    assert longer.exit_code == 0, longer.output
    assert json.loads(longer.output)["mean_turns"] > plain["mean_turns"]  # no going out on an action: longer games
    refused = runner.invoke(app, ["bench", "--set", "stacking=mixed", "--seconds", "0.1"])
    assert refused.exit_code == 2 and "give --rules" in refused.output


def test_bench_env_measures_the_environments() -> None:
    pytest.importorskip("gymnasium")
    result = invoke("bench", "--env", "--rules", "classic", "--players", "2", "--seconds", "0.2", "--batch-size", "16", "--json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    rows = {r["env"]: r for r in figures["rows"]}
    assert {"UnoVectorEnv x16", "UnoEnv"} <= set(rows)
    for name in ("UnoVectorEnv x16", "UnoEnv"):
        row = rows[name]
        assert row["rules"] == "classic" and row["players"] == 2 and row["steps"] > 0
        assert 0 < row["decisions_per_second"] <= row["steps_per_second"]
    vec = rows["UnoVectorEnv x16"]  # beside the engine's games/s at the same table, measured in the same run
    assert vec["engine_games_per_second"] > 0 and "vs_engine_rounds" not in rows["UnoEnv"]
    assert vec["vs_engine_rounds"] == pytest.approx(vec["rounds_per_second"] / vec["engine_games_per_second"])
    assert vec["vs_engine_decisions"] == pytest.approx(vec["decisions_per_second"] / vec["engine_games_per_second"])
    if figures["rlcard"]:  # rlcard is installed for the benchmark only; the ratios are to its steps and rounds
        assert rows["RLCard uno"]["players"] == 2
        assert rows["UnoEnv"]["vs_rlcard_steps"] == pytest.approx(
            rows["UnoEnv"]["decisions_per_second"] / rows["RLCard uno"]["steps_per_second"])
    else:
        assert "RLCard uno" not in rows
    table = invoke("bench", "--env", "--rules", "party", "--players", "4", "--seconds", "0.1", "--batch-size", "8")
    assert table.exit_code == 0, table.output
    assert "learner steps/s" in table.output and "UnoVectorEnv x8" in table.output and "engine games/s" in table.output


# ---------------------------------------------------------------- study and report
@pytest.fixture(scope="module")
def study_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("study") / "study"
    result = invoke("study", "--out", out, "--games", "10", "--jobs", "1", "--quiet")
    assert result.exit_code == 0, result.output
    return out


def test_study_writes_every_cell_and_the_report(study_dir: Path) -> None:
    df = reading.load(study_dir)
    cells = df.groupby(["rules", "players"]).size()
    assert set(df["rules"]) == {"classic", "classic-house", "party"}
    assert sorted(set(df["players"])) == list(range(2, 17))
    assert len(cells) == 45 and (cells == 10).all()
    report = study_dir / "report"
    assert (report / "report.md").is_file() and (report / "report.html").is_file()
    for name in ["game_length", "cards_per_game"] + [f"{plot}_{rules}" for plot in ("seat_advantage_heatmap", "game_length_distribution")
                                                     for rules in ("classic", "classic-house", "party")]:
        assert (report / f"{name}.png").stat().st_size > 1000


def test_report_command_writes_plots_and_summary(study_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = invoke("report", study_dir, "--out", out)
    assert result.exit_code == 0, result.output
    md = (out / "report.md").read_text()
    assert md.startswith(f"# unosim report: {study_dir}")
    assert "![game_length](game_length.png)" in md
    summary = md.split("## Game length", 1)[1]
    rows = [line for line in summary.splitlines() if line.startswith("| party | ")]
    assert len(rows) == 15  # one summary row per player count
    assert "## What this report rests on" in md.split("## Game length", 1)[0]
    assert sorted(p.name for p in out.glob("*.png")) == sorted(
        ["game_length.png", "cards_per_game.png"]
        + [f"{plot}_{rules}.png" for plot in ("seat_advantage_heatmap", "game_length_distribution")
                                                     for rules in ("classic", "classic-house", "party")]
    )
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 8  # every plot embedded


def test_report_of_a_missing_dataset_is_refused(tmp_path: Path) -> None:
    refused = runner.invoke(app, ["report", str(tmp_path / "nothing")])
    assert refused.exit_code == 2 and "error" in refused.output


def test_version_prints_the_package_version() -> None:
    from typer.testing import CliRunner

    import unosim
    from unosim.cli import app

    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"unosim {unosim.__version__}"


def test_a_leaderboard_written_to_a_file_shows_every_full_name(tmp_path: Path) -> None:
    import subprocess
    import sys

    long = "random(draw_rate=0.3,keep_rate=0.2,bluff_rate=0.1)"
    log = tmp_path / "log.txt"
    with log.open("w") as f:
        done = subprocess.run([sys.executable, "-m", "unosim.cli", "tournament", "--rules", "classic", "--players", "2",
                               "--strategies", f"colour-keeper,diversity,{long}", "--games", "60", "--bootstrap", "10",
                               "--jobs", "1"], stdout=f, stderr=subprocess.PIPE, text=True, timeout=600,
                              env={**__import__("os").environ, "COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    text = log.read_text()
    assert "…" not in text
    for name in ("colour-keeper", "diversity", "random(bluff_rate=0.1, draw_rate=0.3, keep_rate=0.2)"):
        assert name in text


def test_a_narrow_terminal_wraps_names_instead_of_cutting_them() -> None:
    import io

    from rich.table import Table

    from unosim.cli.base import _StdoutConsole

    console = _StdoutConsole(file=io.StringIO(), width=30, force_terminal=True, color_system=None)
    table = Table()
    table.add_column("strategy", overflow="fold")
    table.add_column("win rate", justify="right")
    table.add_row("a-very-long-strategy-name-indeed", "0.5")
    console.print(table)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "…" not in text and "".join(line.strip("│ ") for line in text.splitlines()).count("indeed") == 1
    assert max(len(line) for line in text.splitlines()) <= 30
