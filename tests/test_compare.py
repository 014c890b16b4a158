"""Rule comparisons on common random numbers: paired differences with intervals, and the CLI."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import unosim
from unosim.analysis.compare import Comparison, combinations, load_spec, parse_players
from unosim.cli import app

EXPERIMENTS = Path(__file__).parents[1] / "experiments"


def test_speed_play_at_16_players_paired_difference_in_turns(tmp_path: Path) -> None:
    result = unosim.compare("party", 16, ["speed_play=true,false"], games=400, seed=3, out=tmp_path / "cmp")
    diffs = result.differences.set_index("metric")
    assert list(result.differences["variant"].unique()) == ["party speed_play=false"]
    turns = diffs.loc["turns"]
    assert turns["low"] < turns["diff"] < turns["high"]
    assert turns["games"] == 400 and turns["variance_reduction"] > 0
    assert set(diffs.index) == {"turns", "first_player_edge", "truncated", "skill_edge"}
    # the difference is the difference of the two means, game by game on the same deals
    levels = result.levels.set_index(["variant", "metric"])["mean"]
    assert turns["diff"] == pytest.approx(levels[("party speed_play=false", "turns")] - levels[("party speed_play=true", "turns")])
    again = unosim.compare("party", 16, ["speed_play=true,false"], games=400, seed=3)
    assert np.allclose(again.differences["diff"], result.differences["diff"])
    files = unosim.report(tmp_path / "cmp")
    assert (tmp_path / "cmp" / "report" / "compare_turns.png").is_file()
    assert "data:image/png;base64," in files[-1].read_text()
    opening = (tmp_path / "cmp" / "report" / "report.md").read_text().split("## Rule comparison", 1)[0]
    assert "## What this report rests on" in opening and "`party` with `speed_play=false`" in opening
    assert "deck copies: one deck in every cell" in opening and "skill runs: greedy at seat 0" in opening
    assert f"unosim version: {unosim.__version__}" in opening and "seed: 3" in opening
    md = (tmp_path / "cmp" / "report" / "report.md").read_text()
    assert "| p (Holm) | differs |" in md and "Holm's step-down method" in md
    assert Comparison.read(tmp_path / "cmp").settings["variants"] == ["party speed_play=true", "party speed_play=false"]


def test_same_rules_on_the_same_deals_differ_by_exactly_zero() -> None:
    """Two variants that play identically (an option that never acts in classic) give
    identical games: a paired difference of exactly 0."""
    result = unosim.compare("classic", 3, ["point_taken_cap=5,2"], games=300, seed=1)
    turns = result.differences.set_index("metric").loc["turns"]
    assert turns["diff"] == 0 and turns["se"] == 0


def test_cli_compare_prints_the_paired_differences() -> None:
    res = CliRunner().invoke(app, ["compare", "--rules", "classic", "--player-counts", "3", "--option",
                                   "wd4_challenge=true,false", "--games", "200", "--seed", "2", "--jobs", "1"])
    assert res.exit_code == 0, res.output
    assert "paired differences against classic wd4_challenge=true" in res.output
    assert res.output.count("[") >= 4  # one interval per metric


def test_cli_compare_measures_the_skill_edge_with_any_strategy_spec(tmp_path: Path) -> None:
    """--skill-player takes a strategy spec with parameters; the skill runs play it at seat 0 and the
    metric, the settings and the report name it. --skill is the same option."""
    spec = "search(playouts=8)"
    res = CliRunner().invoke(app, ["compare", "--rules", "classic", "--player-counts", "2", "--option", "seven_zero=false,true",
                                   "--games", "12", "--seed", "2", "--jobs", "1", "--skill-player", spec, "--out",
                                   str(tmp_path / "cmp")])
    assert res.exit_code == 0, res.output
    assert f"skill edge of {spec} vs random" in " ".join(res.output.split())
    result = Comparison.read(tmp_path / "cmp")
    assert result.settings["skill"] == spec
    opening = (tmp_path / "cmp" / "report" / "report.md").read_text().split("## Rule comparison", 1)[0]
    assert f"skill runs: {spec} at seat 0" in opening
    for i in range(2):
        played = unosim.load(tmp_path / "cmp" / "runs" / f"v{i}-p02-skill", columns=["strategies"])["strategies"]
        assert all(list(lineup) == [spec, "random"] for lineup in played)
    old = CliRunner().invoke(app, ["compare", "--rules", "classic", "--player-counts", "2", "--option", "seven_zero=false,true",
                                   "--games", "12", "--seed", "2", "--jobs", "1", "--skill", spec])
    assert old.exit_code == 0 and f"skill edge of {spec}" in " ".join(old.output.split())


@pytest.mark.parametrize("args, message", [
    (["--players", "1-4", "--option", "speed_play=true,false"], "players"),
    (["--option", "speed_play"], "OPTION=VALUE"),
    (["--rules", "party"], "at least two rule sets"),
    (["--option", "speed_play=maybe,false"], "speed_play"),
    (["--rules", "nosuch", "--option", "speed_play=true,false"], "not a preset"),
])
def test_cli_compare_refuses_bad_input(args: list[str], message: str) -> None:
    res = CliRunner().invoke(app, ["compare", *args, "--games", "10"])
    assert res.exit_code == 2 and message in res.output, res.output


def test_shipped_comparison_files_parse() -> None:
    for name, count in (("speed_play", 2), ("point_taken_cap", 3), ("wd4_rules", 8)):
        spec = load_spec(EXPERIMENTS / f"{name}.toml")
        assert len(combinations(spec["rules"], spec["options"])) == count
        parse_players(spec["players"])


def test_a_metric_that_never_differs_is_named_not_drawn_as_zeros() -> None:
    from unosim.analysis.compare import Comparison
    from unosim.reports.dataset_report import comparison_section

    def rows(metric: str, d: float) -> dict:
        return {"players": 4, "variant": "party a", "baseline": "party", "metric": metric, "baseline_mean": 1.0,
                "variant_mean": 1.0 + d, "diff": d, "se": abs(d) / 2, "low": d - abs(d), "high": d + abs(d),
                "variance_reduction": 2.0, "games": 100}

    diffs = pd.DataFrame([rows("turns", 1.5), rows("truncated", 0.0)])
    levels = pd.DataFrame([{"players": 4, "variant": v, "metric": m, "mean": 1.0, "low": 0.5, "high": 1.5, "games": 100}
                           for v in ("party", "party a") for m in ("turns", "truncated")])
    settings = {"variants": ["party", "party a"], "players": [4], "games": 100, "seed": 0, "skill": "greedy"}
    section = comparison_section(Comparison(levels, diffs, settings))
    assert [name for name, _ in section.figures] == ["compare_turns"]
    assert "Not drawn, since every variant gave exactly the same value on every deal: truncated games (%)." in section.text


def test_a_space_in_a_compared_value_reaches_the_report(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["compare", "--rules", "classic", "--player-counts", "2", "--option",
                                   "name=my house,our house", "--games", "40", "--jobs", "1", "--out",
                                   str(tmp_path / "cmp")], env={"COLUMNS": "300"})
    assert res.exit_code == 0, res.output
    assert "report:" in res.output and "Traceback" not in res.output
    opening = (tmp_path / "cmp" / "report" / "report.md").read_text().split("## Rule comparison", 1)[0]
    assert "classic name=my house: `my house`" in opening and "classic name=our house: `our house`" in opening
